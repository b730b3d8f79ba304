"""Shared helpers of the tests: the repository's paths, the `xiangqi` binary, random positions."""

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

import xiangqi

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "xiangqi-core" / "tests" / "data" / "records"


def xiangqi_bin() -> str:
    """The CLI the tests compare with: $XIANGQI_BIN, else the workspace's release build, else `xiangqi` on PATH."""
    env = os.environ.get("XIANGQI_BIN")
    if env:
        return env
    built = ROOT / "target" / "release" / "xiangqi"
    if built.exists():
        return str(built)
    found = shutil.which("xiangqi")
    if found:
        return found
    pytest.fail("no xiangqi binary: build it (cargo build --release -p xiangqi-cli) or set XIANGQI_BIN")


def cli(*args: str) -> str:
    """Runs the CLI and returns its standard output (a failure fails the test)."""
    out = subprocess.run([xiangqi_bin(), *args], capture_output=True, text=True, check=True)
    return out.stdout


def random_positions(n: int, seed: int = 7, max_plies: int = 150) -> list:
    """`n` boards met in random games from the start position (each game played until it ends or `max_plies`)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < n:
        board = xiangqi.Board()
        for _ in range(max_plies):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
            boards.append(board.copy())
            if len(boards) == n:
                break
    return boards


def colour_flip(fen: str) -> str:
    """The FEN of the colour-flipped position: ranks mirrored, cases swapped, the other side to move."""
    fields = fen.split()
    ranks = fields[0].split("/")[::-1]
    placement = "/".join(r.swapcase() for r in ranks)
    turn = "b" if fields[1] == "w" else "w"
    return " ".join([placement, turn, *fields[2:]])
