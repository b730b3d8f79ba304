"""Game records through the binding read the same moves as the CLI (`xiangqi convert ... --notation uci`)."""

import re

import pytest

import xiangqi
from conftest import RECORDS, cli

UCI = re.compile(r"^[a-i][0-9][a-i][0-9]$")


def cli_main_lines(path) -> list:
    """The main line of each game of a record, as `xiangqi convert FILE - --notation uci` writes it."""
    text = cli("convert", str(path), "-", "--notation", "uci")
    games, moves, depth, in_tags = [], [], 0, False
    for line in text.splitlines():
        if line.startswith("["):
            if not in_tags and moves:
                games.append(moves)
                moves = []
            in_tags = True
            continue
        in_tags = False
        # Comments and variations out, then the move tokens.
        line = re.sub(r"\{[^}]*\}", " ", line)
        for tok in re.findall(r"\(|\)|[^\s()]+", line):
            if tok == "(":
                depth += 1
            elif tok == ")":
                depth -= 1
            elif depth == 0 and UCI.match(tok.split(".")[-1]):
                moves.append(tok.split(".")[-1])
    if moves:
        games.append(moves)
    return games


@pytest.mark.parametrize(
    "name",
    ["walker8088-cchess/test.pgn", "hbsxcjp-cchess/01.pgn", "walker8088-cchess/test.xqf", "hbsxcjp-cchess/01.XQF"],
)
def test_a_gbk_pgn_and_an_xqf_read_to_the_same_moves_as_the_cli(name):
    path = RECORDS / name
    raw = path.read_bytes()
    if name.endswith(".pgn"):
        with pytest.raises(UnicodeDecodeError):
            raw.decode("utf-8")  # the file is GBK
    games = xiangqi.read_games(str(path))
    assert games and all(len(g) > 0 for g in games)
    ours = [[m.uci() for m in g.moves] for g in games]
    assert ours == cli_main_lines(path)
    # Bytes read the same as the path.
    assert [[m.uci() for m in g.moves] for g in xiangqi.read_games(raw)] == ours


def test_tags_texts_comments_and_the_pgn_round_trip():
    games = xiangqi.read_games(RECORDS / "walker8088-cchess" / "test.pgn")
    game = games[0]
    assert game.notation == "Chinese"
    assert all(t for t in game.move_texts)
    board = game.board()
    assert board.ply == len(game) or board.is_game_over()
    for notation in ["chinese", "wxf", "iccs", "uci"]:
        text = xiangqi.write_pgn(games, notation)
        again = xiangqi.read_games(text.encode())
        assert [[m.uci() for m in g.moves] for g in again] == [[m.uci() for m in g.moves] for g in games]
        # The same tags (the writer fills an empty Opening tag with the opening's name).
        for g2, g in zip(again, games):
            assert {k: v for k, v in g2.tags.items() if k != "Opening"} == {
                k: v for k, v in g.tags.items() if k != "Opening"
            }
            assert g2.tags["Opening"] != "" or g.tags.get("Opening", "") == ""


def test_a_record_of_a_board():
    board = xiangqi.Board()
    for m in ["炮二平五", "马８进７", "马二进三"]:
        board.push(m)
    record = xiangqi.GameRecord(board, tags=[("Event", "demo")])
    text = xiangqi.write_pgn([record])
    assert text.startswith('[Event "demo"]')
    assert "炮二平五" in text and "马８进７" in text
    assert [m.uci() for m in xiangqi.read_games(text.encode("utf-8"))[0].moves] == ["h2e2", "h9g7", "h0g2"]
