"""Xiangqi (Chinese chess) from Python.

The rules, game records, the engine and batches for learning, from the Rust crates of the xiangqi workspace:

>>> import xiangqi
>>> board = xiangqi.Board()
>>> len(board.legal_moves)
44
>>> board.push("炮二平五")          # any notation: Chinese, WXF (C2.5), ICCS (H2-E2), UCI (h2e2)
>>> board.push_uci("h9g7")
Move.from_uci('h9g7')
>>> board.fen()
'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2'

Names follow python-chess where a python-chess user would look: ``Board``, ``legal_moves``, ``push``/``pop``,
``fen()``, ``is_check()``, ``outcome()``, ``_repr_svg_()``. ``RED`` is ``True`` and ``BLACK`` ``False``, as
python-chess's ``WHITE`` and ``BLACK``.
"""

from ._xiangqi import (
    MOVE_COUNT,
    PLANES,
    START_FEN,
    Board,
    Boards,
    Engine,
    GameRecord,
    LegalMoves,
    Move,
    Outcome,
    SearchResult,
    Trace,
    TraceNode,
    TraceStep,
    encode,
    index_to_move,
    mirror_indices,
    move_to_index,
    perft,
    read_games,
    write_pgn,
)

RED = True
"""The side that moves first (python-chess's ``WHITE``)."""
BLACK = False
"""The second side."""

FILE_NAMES = "abcdefghi"
"""Files a-i from Red's left."""
SQUARE_NAMES = [f + str(r) for r in range(10) for f in FILE_NAMES]
"""Square names by index: ``rank * 9 + file``, a0 = 0, i9 = 89."""


def square_name(square: int) -> str:
    """The name of a square index (0-89): ``square_name(4) == 'e0'``."""
    return SQUARE_NAMES[square]


def parse_square(name: str) -> int:
    """The index of a square name: ``parse_square('e0') == 4``. Raises ``ValueError`` for a bad name."""
    try:
        return SQUARE_NAMES.index(name.lower())
    except ValueError:
        raise ValueError(f"no square {name!r}: files a-i, ranks 0-9") from None


__all__ = [
    "BLACK",
    "FILE_NAMES",
    "MOVE_COUNT",
    "PLANES",
    "RED",
    "SQUARE_NAMES",
    "START_FEN",
    "Board",
    "Boards",
    "Engine",
    "GameRecord",
    "LegalMoves",
    "Move",
    "Outcome",
    "SearchResult",
    "Trace",
    "TraceNode",
    "TraceStep",
    "encode",
    "index_to_move",
    "mirror_indices",
    "move_to_index",
    "parse_square",
    "perft",
    "read_games",
    "square_name",
    "write_pgn",
]
