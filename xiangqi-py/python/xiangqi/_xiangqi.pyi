"""Type stubs of the extension module ``xiangqi._xiangqi`` (re-exported by ``xiangqi``)."""

import os
from typing import Iterator, Literal, Optional, Sequence, Union, final

from typing_extensions import Self, TypeAlias

import numpy as np
import numpy.typing as npt

MOVE_COUNT: int
"""Moves in the fixed move index (2086)."""
PLANES: int
"""Planes per position in ``encode`` (15)."""
START_FEN: str

__all__ = [
    "MOVE_COUNT",
    "PLANES",
    "START_FEN",
    "Board",
    "Boards",
    "Engine",
    "GameRecord",
    "LegalMoves",
    "Move",
    "MoveIter",
    "Outcome",
    "SearchResult",
    "Trace",
    "TraceNode",
    "TraceStep",
    "encode",
    "index_to_move",
    "mirror_indices",
    "move_to_index",
    "perft",
    "read_games",
    "write_pgn",
]

_Notation: TypeAlias = Literal["chinese", "wxf", "iccs", "uci"]
_Square: TypeAlias = Union[str, int]
_MoveLike: TypeAlias = Union["Move", str]

@final
class Move:
    """A move: from-square and to-square (0-89, ``rank * 9 + file``)."""

    def __new__(cls, from_square: int, to_square: int) -> Self: ...
    @staticmethod
    def from_uci(text: str) -> Move:
        """Reads ``h2e2`` (UCI) or ``H2-E2`` (ICCS) without a position; ``ValueError`` if malformed."""
    @property
    def from_square(self) -> int: ...
    @property
    def to_square(self) -> int: ...
    def uci(self) -> str: ...
    def iccs(self) -> str: ...
    def flip(self) -> Move:
        """The move with its ranks mirrored (the colour flip)."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Outcome:
    """How a game ended."""

    winner: Optional[bool]
    """``True`` Red won, ``False`` Black won, ``None`` a draw."""
    termination: str
    """``checkmate``, ``stalemate``, ``perpetual-check``, ``perpetual-chase``, ``repetition``, ``move-limit`` or
    ``insufficient-material``."""
    chased: list[str]
    """For a perpetual chase: the squares of the pieces the loser chased."""
    cycle_plies: Optional[int]
    """For a repetition: the length of the cycle in plies."""
    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``."""

@final
class LegalMoves:
    """The legal moves of a board, computed when asked."""

    def __len__(self) -> int: ...
    def __contains__(self, move: _MoveLike, /) -> bool: ...
    def __iter__(self) -> Iterator[Move]: ...
    def __bool__(self) -> bool: ...

@final
class MoveIter:
    def __iter__(self) -> MoveIter: ...
    def __next__(self) -> Move: ...

@final
class Board:
    """A position and the moves that led to it, judged by the rules after every move."""

    def __new__(cls, fen: Optional[str] = None, *, lenient: bool = False) -> Self:
        """``ValueError`` with the rules' reason for an impossible FEN."""
    def fen(self) -> str: ...
    @property
    def turn(self) -> bool:
        """``True`` when Red is to move."""
    @property
    def legal_moves(self) -> LegalMoves: ...
    @property
    def move_stack(self) -> list[Move]: ...
    @property
    def ply(self) -> int: ...
    def push(self, move: _MoveLike) -> None:
        """Plays a ``Move`` or text in any notation; ``ValueError`` if illegal or the game is over."""
    def push_uci(self, uci: str) -> Move: ...
    def push_san(self, text: str) -> Move:
        """Plays a move in Chinese, WXF, ICCS or UCI notation."""
    def parse_san(self, text: str) -> Move: ...
    def san(self, move: _MoveLike, notation: _Notation = "chinese") -> str: ...
    def pop(self) -> Move: ...
    def peek(self) -> Move: ...
    def is_legal(self, move: _MoveLike) -> bool: ...
    def is_check(self) -> bool: ...
    def is_game_over(self) -> bool: ...
    def outcome(self) -> Optional[Outcome]: ...
    def piece_at(self, square: _Square) -> Optional[str]:
        """The FEN letter of the piece on a square, or ``None``."""
    def copy(self) -> Board: ...
    def __copy__(self) -> Board: ...
    def __deepcopy__(self, memo: object, /) -> Board: ...
    def zobrist_hash(self) -> int: ...
    def legal_mask(self, *, relative: bool = False) -> npt.NDArray[np.bool_]:
        """A bool array of ``MOVE_COUNT`` entries, set at the legal moves' indices."""
    def svg(self, *, size: int = 400, flipped: bool = False) -> str: ...
    def _repr_svg_(self) -> str: ...

@final
class Boards:
    """A batch of games stepped in one call. Outcome codes: 0 on, 1 Red won, -1 Black won, 2 draw."""

    def __new__(
        cls,
        n: Optional[int] = None,
        *,
        fen: Optional[str] = None,
        fens: Optional[Sequence[str]] = None,
        relative: bool = False,
    ) -> Self: ...
    def __len__(self) -> int: ...
    def __getitem__(self, i: int, /) -> Board: ...
    def fens(self) -> list[str]: ...
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int8]]:
        """Plays ``actions[i]`` (a move index, -1 for none) on board ``i``; returns ``(masks, outcomes)``."""
    def legal_masks(self) -> npt.NDArray[np.bool_]: ...
    def outcomes_array(self) -> npt.NDArray[np.int8]: ...
    def terminations(self) -> list[Optional[str]]: ...
    def reset(self, indices: Optional[Sequence[int]] = None) -> None: ...

@final
class SearchResult:
    """What a search found."""

    best_move: Optional[Move]
    score: int
    mate: Optional[int]
    pv: list[Move]
    depth: int
    seldepth: int
    nodes: int
    nps: int
    time: float
    lines: list[tuple[int, list[Move]]]
    stats: dict[str, int]
    ebf: float

@final
class TraceNode:
    """One node of a recorded search tree."""

    index: int
    parent: Optional[int]
    ply: int
    edge: str
    move: Optional[str]
    searched: bool
    pruned: Optional[str]
    kind: Optional[str]
    alpha: Optional[int]
    beta: Optional[int]
    value: Optional[int]
    depth: Optional[int]
    exit: Optional[str]
    children: list[int]
    omitted: int

@final
class TraceStep:
    """One line-level step of a recorded search (a line of the algorithm's pseudocode run at a node)."""

    label: str
    node: Optional[int]
    ply: int
    depth: int
    alpha: int
    beta: int
    value: Optional[int]
    best: Optional[int]
    move: Optional[str]

@final
class Trace:
    """A recorded search: ``nodes[0]`` is the root."""

    nodes: list[TraceNode]
    steps: list[TraceStep]
    score: int
    best_move: Optional[Move]
    variant: str
    total: int
    def to_dot(self) -> str: ...
    def __len__(self) -> int: ...

@final
class Engine:
    """The engine, or any variant of the course's algorithms."""

    def __new__(
        cls,
        variant: str = "engine",
        *,
        hash_mb: int = 16,
        threads: int = 1,
        network: Union[None, str, os.PathLike[str]] = None,
    ) -> Self: ...
    @property
    def variant(self) -> str: ...
    def search(
        self,
        board: Board,
        *,
        depth: Optional[int] = None,
        movetime: Optional[float] = None,
        nodes: Optional[int] = None,
        multipv: int = 1,
        infinite: bool = False,
    ) -> SearchResult:
        """``movetime`` in milliseconds; no limit: depth 4, or until ``stop()`` with ``infinite``."""
    def stop(self) -> None: ...
    def new_game(self) -> None: ...
    def trace(
        self, board: Board, *, depth: int = 2, variant: Optional[str] = None, max_nodes: int = 20000
    ) -> Trace: ...

@final
class GameRecord:
    """One game of a record file."""

    def __new__(cls, board: Optional[Board] = None, tags: Optional[Sequence[tuple[str, str]]] = None) -> Self: ...
    @property
    def tags(self) -> dict[str, str]: ...
    def tag(self, name: str) -> Optional[str]: ...
    @property
    def fen(self) -> str: ...
    @property
    def moves(self) -> list[Move]: ...
    @property
    def move_texts(self) -> list[str]: ...
    @property
    def comments(self) -> list[list[str]]: ...
    @property
    def result(self) -> Optional[str]: ...
    @property
    def notation(self) -> Optional[str]: ...
    def start_board(self) -> Board: ...
    def board(self) -> Board: ...
    def __len__(self) -> int: ...

def move_to_index(move: _MoveLike, *, flip: bool = False) -> int: ...
def index_to_move(index: int, *, flip: bool = False) -> Move: ...
def mirror_indices() -> npt.NDArray[np.int64]: ...
def encode(
    boards: Union[Board, Boards, Sequence[Board]],
    *,
    relative: bool = False,
    out: Optional[npt.NDArray[np.uint8]] = None,
) -> npt.NDArray[np.uint8]:
    """Piece planes ``[B, 15, 10, 9]``, into ``out`` (C-contiguous, that shape) when given."""
def perft(board: Board, depth: int, *, threads: int = 1) -> int: ...
def read_games(source: Union[str, os.PathLike[str], bytes]) -> list[GameRecord]: ...
def write_pgn(games: Sequence[GameRecord], notation: _Notation = "chinese") -> str: ...
