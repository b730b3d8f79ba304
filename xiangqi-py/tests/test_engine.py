"""The engine through the binding: a mate in 3, stop() from another thread, the variants, the recorded tree."""

import json
import sys
import threading
import time

import xiangqi
from conftest import cli

# From hbsxcjp-cchess/01.XQF: Red mates in 3 with a chariot sacrifice (2. 马三进五 炮４平５ 3. 车三平四 士５进６
# 4. 马五进三).
MATE_IN_3 = "3c1a3/4ak2r/6R2/8p/9/6N2/9/B7B/4K4/9 w - - 0 2"


def test_the_engine_finds_the_mate_in_3():
    board = xiangqi.Board(MATE_IN_3)
    r = xiangqi.Engine().search(board, depth=8)
    assert r.mate == 3
    assert r.score == 30000 - 5
    assert [m.uci() for m in r.pv][::2] == ["g4e5", "g7f7", r.pv[4].uci()]
    for m in r.pv:
        board.push(m)
    assert board.outcome().termination == "checkmate" and board.outcome().winner == xiangqi.RED
    assert r.nodes == r.stats["nodes"] > 0 and r.depth >= 5


def test_stop_ends_an_infinite_search_from_another_thread():
    engine = xiangqi.Engine()
    board = xiangqi.Board()
    box = {}
    thread = threading.Thread(target=lambda: box.setdefault("r", engine.search(board, infinite=True)))
    thread.start()
    time.sleep(0.5)
    assert thread.is_alive()  # the GIL is free while it searches: this thread runs
    engine.stop()
    thread.join(timeout=20)
    assert not thread.is_alive()
    r = box["r"]
    assert r.depth >= 1 and board.is_legal(r.best_move)


def test_a_stop_that_comes_before_the_search_has_started_is_not_lost():
    # With a long switch interval the searching thread keeps the GIL until the binding releases it, so stop() comes
    # the instant the search was asked for, before the engine has started it: it must still end the search.
    engine = xiangqi.Engine()
    board = xiangqi.Board()
    old = sys.getswitchinterval()
    sys.setswitchinterval(100)
    try:
        for _ in range(10):
            box = {}
            thread = threading.Thread(target=lambda: box.setdefault("r", engine.search(board, infinite=True)))
            thread.start()
            engine.stop()
            thread.join(timeout=20)
            assert not thread.is_alive(), "the stop was lost"
            assert board.is_legal(box["r"].best_move)
    finally:
        sys.setswitchinterval(old)
    # With no search asked for, stop() does nothing: the next search is not stopped by it.
    engine.stop()
    assert engine.search(board, depth=3).depth == 3


def test_textbook_variants_agree_and_count_their_nodes():
    board = xiangqi.Board("4k4/9/9/9/5r3/9/9/9/9/3K1R3 w")
    minimax = xiangqi.Engine("minimax", network="handcrafted").search(board, depth=3)
    alphabeta = xiangqi.Engine("alphabeta", network="handcrafted").search(board, depth=3)
    assert minimax.score == alphabeta.score
    assert alphabeta.stats["main_nodes"] < minimax.stats["main_nodes"]
    assert alphabeta.best_move.uci() == "f0f5"


def test_multipv_lines():
    r = xiangqi.Engine().search(xiangqi.Board(), depth=4, multipv=3)
    assert len(r.lines) == 3
    assert len({line[1][0] for line in r.lines}) == 3
    assert r.lines[0][0] >= r.lines[1][0] >= r.lines[2][0]


def test_the_trace_is_the_recorded_tree_of_xiangqi_tree(tmp_path):
    fen = "4k4/9/9/9/5r3/9/9/9/9/3K1R3 w"
    board = xiangqi.Board(fen)
    engine = xiangqi.Engine("alphabeta")
    trace = engine.trace(board, depth=2)
    root = trace.nodes[0]
    assert root.edge == "root" and root.parent is None and root.kind == "root"
    assert root.value == trace.score
    # Every root move is a child, searched or cut off; the children point back to the root.
    children = [trace.nodes[i] for i in root.children]
    assert {c.move for c in children} <= {m.uci() for m in board.legal_moves}
    assert all(c.parent == 0 and c.ply == 1 for c in children)
    searched = [c for c in children if c.searched]
    # Negamax view: the root's value is the best of minus its children's values.
    assert root.value == max(-c.value for c in searched)
    # The CLI's `xiangqi tree` records the same search: the same value, best move, nodes entered and moves pruned.
    out = cli("tree", "--fen", fen, "--depth", "2", "--variant", "alphabeta", "--out", str(tmp_path / "t.dot"))
    entered = sum(1 for n in trace.nodes if n.searched)
    pruned = sum(1 for n in trace.nodes if not n.searched)
    summary = f"value {trace.score}, best move {trace.best_move.uci()}; the search entered {entered} nodes and pruned {pruned} moves"
    assert summary in out
    assert trace.to_dot().startswith("digraph search {")


def test_ctrl_c_interrupts_a_search():
    import _thread

    engine = xiangqi.Engine()
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    started = time.perf_counter()
    try:
        engine.search(xiangqi.Board(), infinite=True)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the search was not interrupted")
    finally:
        timer.cancel()
    assert time.perf_counter() - started < 10
    # The engine is usable afterwards.
    assert engine.search(xiangqi.Board(), depth=2).best_move is not None


def test_the_trace_steps_are_those_of_xiangqi_tree_trace():
    fen = "4k4/9/9/9/5r3/9/9/9/9/3K1R3 w"
    trace = xiangqi.Engine().trace(xiangqi.Board(fen), depth=2, variant="alphabeta")
    ref = json.loads(cli("tree", "--fen", fen, "--depth", "2", "--variant", "alphabeta", "--trace", "--json"))
    fields = ["label", "ply", "depth", "alpha", "beta", "value", "best", "move", "node"]
    ours = [{f: getattr(s, f) for f in fields} for s in trace.steps]
    assert ours == [{f: s[f] for f in fields} for s in ref["steps"]]
    assert (trace.score, trace.best_move.uci()) == (ref["score"], ref["best_move"])
    # The root enters first and returns the search's value last.
    assert (ours[0]["label"], ours[0]["ply"]) == ("enter", 0)
    assert (ours[-1]["label"], ours[-1]["ply"], ours[-1]["value"]) == ("return", 0, trace.score)
    # Every node whose moves the tree shows as cut off ran the cutoff line.
    cut = {n.parent for n in trace.nodes if n.pruned == "cutoff"}
    assert cut and cut <= {s.node for s in trace.steps if s.label == "cutoff"}
