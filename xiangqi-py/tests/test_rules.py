"""The rules through the binding: moves against pyffish (Fairy-Stockfish), verdicts against `xiangqi game`, bad input."""

import json

import pytest

import xiangqi
from conftest import cli, random_positions


def to_pyffish(uci: str) -> str:
    """Our ranks 0-9 to Fairy-Stockfish's 1-10: h2e2 -> h3e3."""
    return f"{uci[0]}{int(uci[1]) + 1}{uci[2]}{int(uci[3]) + 1}"


def test_legal_moves_equal_pyffish_on_5000_random_positions():
    import pyffish as sf  # the test extra; a missing package fails the test rather than skipping it

    boards = random_positions(5000)
    assert len(boards) == 5000
    differ = []
    for board in boards:
        ours = sorted(to_pyffish(m.uci()) for m in board.legal_moves)
        theirs = sorted(sf.legal_moves("xiangqi", board.fen(), []))
        if ours != theirs:
            differ.append((board.fen(), set(ours) ^ set(theirs)))
        assert len(board.legal_moves) == len(ours)
    assert differ == []


def expand(moves: str) -> list:
    """`[a b c d]x2` -> the four moves twice."""
    out, group = [], None
    for tok in moves.split():
        if group is None and tok.startswith("["):
            group = [tok[1:]]
        elif group is not None and "]x" in tok:
            m, times = tok.split("]x")
            out += (group + [m]) * int(times)
            group = None
        elif group is not None:
            group.append(tok)
        else:
            out.append(tok)
    return out


# Known endings (from xiangqi-core's rule suite): FEN, moves, expected (result, reason).
ENDINGS = [
    ("4k4/8R/9/9/9/9/9/9/R8/3K5 w", "a1a9", "red", "checkmate"),
    ("3k5/r8/9/9/9/9/9/9/8r/4K4 b", "a8a0", "black", "checkmate"),
    ("R2k5/7R1/9/9/9/9/9/9/9/4K4 b", "", "red", "checkmate"),
    ("3k5/9/R8/9/9/9/9/9/9/4K4 w", "a7a8", "red", "stalemate"),
    ("3k5/3n5/9/9/9/9/9/9/3R5/4K4 b", "", "red", "stalemate"),
    ("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80", "a0a1", "draw", "move-limit"),
    ("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 118 80", "a0a1 d9d8", "draw", "move-limit"),
    ("3k5/9/9/9/9/9/9/9/9/R3K4 w", "a0a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9 a8a9", "black", "perpetual-check"),
    ("4k3r/9/9/9/9/9/9/9/9/5K3 b", "i9i0 f0f1 i0i1 f1f0 i1i0 f0f1 i0i1 f1f0 i1i0", "red", "perpetual-check"),
    ("9/4k4/9/3r5/3c5/3R5/9/9/9/3KC4 w", "[d4e4 d5e5 e4d4 e5d5]x2", "draw", "repetition"),
    ("3knc3/R3ac3/9/9/9/9/9/9/9/4K4 w", "[a8a9 d9d8 a9a8 d8d9]x2", "black", "perpetual-check"),
    ("4k4/9/1c7/9/9/9/2R6/9/9/3K5 w", "[c3b3 b7c7 b3c3 c7b7]x2", "black", "perpetual-chase"),
    ("3k5/9/9/2r6/9/9/9/1C7/9/4K4 b", "[c6b6 b2c2 b6c6 c2b2]x2", "red", "perpetual-chase"),
    ("4k4/9/1c4r2/9/9/9/2R6/9/9/3K5 w", "[c3b3 b7c7 b3c3 c7b7]x2", "draw", "repetition"),
    ("4k4/9/9/r7r/9/N8/9/9/9/3K5 w", "[a4c5 a6b6 c5a4 b6a6]x2", "black", "perpetual-chase"),
    ("4k4/1c2r4/9/9/9/9/2R6/4R4/9/3K5 w", "[c3b3 b8c8 b3c3 c8b8]x2", "black", "perpetual-chase"),
    ("4k4/2R6/9/9/9/1p7/9/9/9/3K5 w", "[c8b8 b4c4 b8c8 c4b4]x2", "black", "perpetual-chase"),
    ("4k4/9/2c6/3n5/9/9/2R6/9/9/3K5 w", "[c3d3 e9e8 d3c3 e8e9]x2", "draw", "repetition"),
    ("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w", "", "draw", "insufficient-material"),
    ("4k4/9/9/9/9/9/9/9/3r5/3K5 w", "d0d1", "draw", "insufficient-material"),
]

WORD = {True: "red", False: "black", None: "draw"}


@pytest.mark.parametrize("fen,moves,result,reason", ENDINGS)
def test_verdicts_of_known_endings_equal_the_cli(fen, moves, result, reason):
    moves = expand(moves)
    board = xiangqi.Board(fen)
    for m in moves:
        if board.is_game_over():
            break
        board.push(m)
    outcome = board.outcome()
    assert outcome is not None
    ref = json.loads(cli("game", "--fen", fen, "--moves", " ".join(moves), "--json"))
    assert (WORD[outcome.winner], outcome.termination, board.ply) == (ref["result"], ref["reason"], ref["plies"])
    assert (ref["result"], ref["reason"]) == (result, reason)
    assert board.fen() == ref["fen"]
    if reason == "perpetual-chase":
        # The chased piece is named, and stands where the CLI's sentence says.
        assert outcome.chased and all(sq in ref["detail"] for sq in outcome.chased)


def test_the_chased_piece_of_a_perpetual_chase():
    board = xiangqi.Board("4k4/9/1c7/9/9/9/2R6/9/9/3K5 w")
    for m in expand("[c3b3 b7c7 b3c3 c7b7]x2"):
        if not board.is_game_over():
            board.push(m)
    outcome = board.outcome()
    # Red's chariot chased Black's cannon, now back on b7: Red loses.
    assert (outcome.winner, outcome.termination, outcome.chased) == (xiangqi.BLACK, "perpetual-chase", ["b7"])
    assert outcome.result() == "0-1"


def test_notations_push_and_pop():
    board = xiangqi.Board()
    for text in ["炮二平五", "H8+7", "H0-G2"]:
        board.push(text)
    assert [m.uci() for m in board.move_stack] == ["h2e2", "h9g7", "h0g2"]
    assert board.pop() == xiangqi.Move.from_uci("h0g2")
    assert board.san("h0g2") == "马二进三"
    assert board.san("h0g2", "wxf") == "H2+3"
    assert "h0g2" in board.legal_moves and "h0h1" not in board.legal_moves
    twin = board.copy()
    twin.push_uci("h0g2")
    assert board.ply == 2 and twin.ply == 3
    assert board.zobrist_hash() != twin.zobrist_hash()
    twin.pop()
    assert board.zobrist_hash() == twin.zobrist_hash()
    assert "炮" not in str(board) and str(board).splitlines()[0].startswith("9")
    assert board._repr_svg_().count("data-piece=") == 32


def test_check_and_mate():
    board = xiangqi.Board("4k4/8R/9/9/9/9/9/9/R8/3K5 w")
    assert not board.is_check() and board.outcome() is None
    board.push("a1a9")
    assert board.is_check() and board.is_game_over()
    assert board.outcome().result() == "1-0"
    assert len(board.legal_moves) == 0 and not board.legal_moves


def test_perft_4_from_the_start_position():
    assert xiangqi.perft(xiangqi.Board(), 4) == 3_290_240
    assert xiangqi.perft(xiangqi.Board(), 3, threads=2) == 79_666


@pytest.mark.parametrize(
    "call,reason",
    [
        (lambda: xiangqi.Board("4k4/9/9/9/9/9/9/9/9/4K4 w"), "the kings face each other"),
        (lambda: xiangqi.Board("rnbakabnr/9/1c5c1"), "expected 10 ranks"),
        (lambda: xiangqi.Board().push("e2e9"), "no legal move"),
        (lambda: xiangqi.Board().push("炮二进五"), "炮二进五"),
        (lambda: xiangqi.Board().push_uci("h2e9"), "illegal move h2e9"),
        (lambda: xiangqi.Move.from_uci("z9z9"), "z9z9"),
        (lambda: xiangqi.read_games(b"\x7fELF\x02\x01\x01\x00"), "not a PGN or XQF file"),
        (lambda: xiangqi.read_games(b"1. h2e2 h9g7 2. e2e9 *\n"), "e2e9"),
        (lambda: xiangqi.Engine("alphabeta+nonsense"), "nonsense"),
        # A search's depth has the search crate's one limit, MAX_DEPTH.
        (lambda: xiangqi.Engine().search(xiangqi.Board(), depth=121), "depth: from 1 to 120"),
        (lambda: xiangqi.Engine().trace(xiangqi.Board(), depth=121), "depth: from 1 to 120"),
        (lambda: xiangqi.move_to_index("a0b1"), "no piece ever moves a0b1"),
    ],
)
def test_bad_input_raises_value_error_with_the_rules_reason(call, reason):
    with pytest.raises(ValueError, match=reason):
        call()


def test_a_move_after_the_end_is_refused():
    board = xiangqi.Board("4k4/8R/9/9/9/9/9/9/R8/3K5 w")
    board.push("a1a9")
    with pytest.raises(ValueError, match="already over"):
        board.push("e9e8")
    with pytest.raises(IndexError):
        xiangqi.Board().pop()
