"""Speed of the binding, side by side with other libraries and with the Rust CLI, in one run.

    python -m xiangqi.bench [--xiangqi PATH] [--positions 10000] [--encode 100000]

1. Legal moves of the same random positions, from a FEN to the list of moves, through ``xiangqi``, ``pyffish``
   (Fairy-Stockfish's rules in C++) and ``cchess`` (pure Python), when installed (``pip install './xiangqi-py[bench]'``).
2. perft 4 from the start position through the binding, against ``xiangqi perft --depth 4``.
3. ``encode`` of 100,000 boards in one call, and the cost of a call for one board.
4. The engine's nodes per second through the binding, against ``xiangqi search`` on the same position.

Build the package in release mode for figures (``pip install ./xiangqi-py`` or ``maturin develop --release``).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import shutil
import subprocess
import time

import numpy as np

import xiangqi

SEARCH_FEN = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3"
SEARCH_DEPTH = 14


def random_fens(n: int, seed: int = 1) -> list[str]:
    """FENs of `n` positions met in random games from the start position."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < n:
        board = xiangqi.Board()
        for _ in range(150):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
            fens.append(board.fen())
            if len(fens) == n:
                break
    return fens


def timed(f, repeat: int = 1):
    """The result of `f()` and the best wall time of `repeat` runs."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return out, best


def legal_moves(fens: list[str]) -> list[tuple[str, float, int]]:
    rows = []
    counts, t = timed(lambda: [len([m.uci() for m in xiangqi.Board(f).legal_moves]) for f in fens])
    rows.append(("xiangqi", t, sum(counts)))
    try:
        import pyffish as sf

        theirs, t = timed(lambda: [len(sf.legal_moves("xiangqi", f, [])) for f in fens])
        rows.append(("pyffish", t, sum(theirs)))
    except ImportError:
        rows.append(("pyffish (not installed)", float("nan"), 0))
    try:
        import cchess

        def cchess_moves(fen: str) -> int:
            board = cchess.ChessBoard(fen)
            return len([m for m in board.create_moves() if board.is_valid_move_t(m)])

        theirs, t = timed(lambda: [cchess_moves(f) for f in fens])
        rows.append(("cchess", t, sum(theirs)))
    except ImportError:
        rows.append(("cchess (not installed)", float("nan"), 0))
    return rows


def cli_json(binary: str, *args: str) -> dict:
    return json.loads(subprocess.run([binary, *args, "--json"], capture_output=True, text=True, check=True).stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--xiangqi", default=shutil.which("xiangqi"), help="the CLI to compare with (default: on PATH)")
    ap.add_argument("--positions", type=int, default=10_000)
    ap.add_argument("--encode", type=int, default=100_000)
    args = ap.parse_args()
    print(f"# {platform.node()} {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")

    fens = random_fens(args.positions)
    print(f"\n## legal moves of {len(fens):,} random positions (FEN in, moves out)")
    rows = legal_moves(fens)
    base = rows[0][1]
    for name, t, total in rows:
        print(f"{name:<24} {t:8.3f} s  {len(fens) / t:>12,.0f} positions/s  {total:>9,} moves  {t / base:8.1f}x xiangqi's time")

    print("\n## perft 4 from the start position")
    # Alternated, five of each; the best of each counts (the machine may be shared).
    board = xiangqi.Board()
    times, refs = [], []
    for _ in range(5):
        nodes, t = timed(lambda: xiangqi.perft(board, 4))
        times.append(t)
        if args.xiangqi:
            refs.append(cli_json(args.xiangqi, "perft", "--depth", "4"))
    t = min(times)
    print(f"binding                  {nodes:,} nodes in {t:.3f} s = {nodes / t:,.0f} nodes/s (best of 5)")
    if refs:
        ref = max(refs, key=lambda r: r["nps"])
        print(f"xiangqi perft --depth 4  {ref['nodes']:,} nodes in {ref['seconds']:.3f} s = {ref['nps']:,.0f} nodes/s"
              f" (best of 5; binding: {100 * (nodes / t) / ref['nps']:.0f}% of it)")

    print(f"\n## encode")
    batch = xiangqi.Boards(fens=fens[: min(len(fens), args.encode)])
    reps = -(-args.encode // len(batch))
    many = xiangqi.Boards(fens=(fens * reps)[: args.encode])
    planes, t = timed(lambda: xiangqi.encode(many), repeat=5)
    print(f"encode(Boards of {len(many):,}), new array    {t:.3f} s (best of 5) = {len(many) / t:>12,.0f} boards/s ({planes.nbytes / 1e6:.0f} MB)")
    _, t = timed(lambda: xiangqi.encode(many, out=planes), repeat=5)
    print(f"encode(Boards of {len(many):,}, out=array)    {t:.3f} s = {len(many) / t:>12,.0f} boards/s")
    boards = [many[i] for i in range(len(many))]
    _, t = timed(lambda: xiangqi.encode(boards, out=planes), repeat=3)
    print(f"encode(list of {len(boards):,} Board, out=)  {t:.3f} s = {len(boards) / t:>12,.0f} boards/s")
    one = boards[0]
    n = 20_000
    _, t = timed(lambda: [xiangqi.encode(one) for _ in range(n)], repeat=3)
    print(f"encode(one Board), {n:,} calls       {1e6 * t / n:.2f} us a call = {n / t:>10,.0f} boards/s")
    _, t = timed(lambda: [one.legal_mask() for _ in range(n)], repeat=3)
    print(f"Board.legal_mask(), {n:,} calls      {1e6 * t / n:.2f} us a call")
    steps = xiangqi.Boards(4096)
    actions = np.full(4096, xiangqi.move_to_index("h2e2"))
    _, t = timed(lambda: (steps.reset(), steps.step(actions)), repeat=3)
    print(f"Boards(4096).step                {t * 1e3:.2f} ms = {4096 / t:>12,.0f} boards/s (a move, the masks and outcomes)")

    print(f"\n## search, depth {SEARCH_DEPTH}, one thread, 16 MB, the built-in network")
    # Alternated, five of each, a fresh engine each time; the best rate of each counts (the machine may be shared).
    board = xiangqi.Board(SEARCH_FEN)
    ours, refs = [], []
    for _ in range(5):
        ours.append(xiangqi.Engine().search(board, depth=SEARCH_DEPTH))
        if args.xiangqi:
            refs.append(cli_json(args.xiangqi, "search", "--fen", SEARCH_FEN, "--depth", str(SEARCH_DEPTH)))
    r = max(ours, key=lambda r: r.nps)
    print(f"binding                   {r.nodes:,} nodes in {r.time:.3f} s = {r.nps:,} nodes/s, best {r.best_move} (best of 5)")
    if refs:
        ref = max(refs, key=lambda r: r["stats"]["nps"])
        print(f"xiangqi search            {ref['nodes']:,} nodes in {ref['stats']['seconds']:.3f} s = "
              f"{ref['stats']['nps']:,} nodes/s, best {ref['best_move']} (best of 5; binding: {100 * r.nps / ref['stats']['nps']:.1f}% of it)")


if __name__ == "__main__":
    main()
