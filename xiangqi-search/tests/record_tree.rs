//! The recording observer: the tree it records is the tree the search walked (the spec's figure, with exactly its
//! grey leaves), its counts agree with the search's statistics, and its DOT output is a well-formed graph of it.

#[path = "support/dot.rs"]
mod dot;

use std::collections::BTreeSet;
use std::sync::Arc;
use xiangqi_core::{Move, PieceKind, Position};
use xiangqi_search::policy::{child, null_move};
use xiangqi_search::record::{DotOptions, Edge, Node, PruneReason, Recorder, State, View};
use xiangqi_search::synthetic::{Child, Tree, TreeEval};
use xiangqi_search::techniques::{futility, late_move_reductions, table};
use xiangqi_search::{
    AlphaBeta, EnginePreset, Evaluator, Exit, GameTree, Limits, NegamaxAb, NegamaxAbHard, Nmp, NodeKind, Pvs, Qs,
    Score, SearchResult, Searcher, Stats, TranspositionTable, Variant,
};

/// The spec's alpha-beta figure.
const SPEC_TREE: &str = "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))";
/// Its leaf values, left to right.
const SPEC_LEAVES: [Score; 14] = [5, 6, 7, 4, 5, 3, 6, 6, 9, 7, 5, 9, 8, 6];
/// Nodes of the spec's tree, inner nodes and leaves: 1 + 3 + 6 + 9 + 14.
const SPEC_NODES: usize = 33;

fn record<V: Variant>(tree: Tree, depth: u32) -> (Recorder<Child>, Stats, Tree) {
    let mut s = Searcher::<Tree, TreeEval, V, Recorder<Child>>::new(tree, TreeEval);
    let r = s.search(&Limits::depth(depth));
    (std::mem::take(&mut s.observer), r.stats, s.game)
}

/// The moves (child indices) from the root down to `id`.
fn moves_to(rec: &Recorder<Child>, id: usize) -> Vec<Child> {
    rec.path(id)
        .into_iter()
        .map(|e| match e {
            Edge::Move(m) => m,
            other => panic!("unexpected edge {other:?} in a tree without null moves"),
        })
        .collect()
}

/// The leaves (left-to-right indices) in the subtree reached by `path`.
fn leaves_under(tree: &Tree, path: &[Child]) -> Vec<usize> {
    fn walk(t: &mut Tree) {
        let mut moves = xiangqi_search::MoveBuf::new();
        t.generate(false, &mut moves);
        if moves.is_empty() {
            TreeEval.evaluate(t);
        }
        for m in moves {
            t.make(m);
            walk(t);
            t.unmake();
        }
    }
    let mut t = tree.clone();
    t.clear_visits();
    for &m in path {
        t.make(m);
    }
    walk(&mut t);
    t.visited_leaves()
}

/// The number of children of the node reached by `path`.
fn children_count(tree: &Tree, path: &[Child]) -> usize {
    let mut t = tree.clone();
    for &m in path {
        t.make(m);
    }
    let mut moves = xiangqi_search::MoveBuf::new();
    t.generate(false, &mut moves);
    moves.len()
}

fn searched_leaves(rec: &Recorder<Child>, tree: &Tree) -> Vec<usize> {
    rec.nodes()
        .iter()
        .enumerate()
        .filter(|(_, n)| n.visit().is_some_and(|v| v.depth == 0))
        .flat_map(|(id, _)| leaves_under(tree, &moves_to(rec, id)))
        .collect()
}

fn exit_of<M>(n: &Node<M>) -> Option<Exit> {
    n.visit().and_then(|v| v.exit)
}

#[test]
fn spec_tree_records_exactly_the_grey_leaves_of_the_figure() {
    let tree = Tree::parse(SPEC_TREE).unwrap();
    for (name, (mut rec, stats, _)) in [
        ("alphabeta", record::<AlphaBeta>(tree.clone(), 4)),
        ("negamax-ab", record::<NegamaxAb>(tree.clone(), 4)),
        ("negamax-ab-hard", record::<NegamaxAbHard>(tree.clone(), 4)),
        ("nmp", record::<Nmp>(tree.clone(), 4)),
        ("qs", record::<Qs>(tree.clone(), 4)),
    ] {
        assert_eq!(rec.unbalanced(), 0, "{name}");
        assert_eq!(rec.roots().len(), 1, "{name}");
        assert_eq!(rec.searched_count() as u64, stats.main_nodes, "{name}");
        assert_eq!(rec.node(rec.roots()[0]).visit().unwrap().value, Some(6), "{name}");
        // The leaves searched, in the order searched: the synthetic-tree test's list.
        assert_eq!(searched_leaves(&rec, &tree), vec![0, 1, 2, 3, 5, 6, 7, 9, 10], "{name}");
        // Three moves were never searched: the 5 after 7 and 4, the 9 after 6, and the MAX node over 9 8 | 6.
        let pruned: Vec<usize> = (0..rec.len()).filter(|&i| rec.node(i).is_pruned()).collect();
        assert_eq!(pruned.len(), 3, "{name}");
        let grey: BTreeSet<usize> = pruned.iter().flat_map(|&id| leaves_under(&tree, &moves_to(&rec, id))).collect();
        assert_eq!(grey, BTreeSet::from([4, 8, 11, 12, 13]), "{name}");
        // Each pruned move hangs under a node that ended in a beta cutoff. Five nodes cut off, two of them on
        // their last move (the MAX node over 7 and the MIN node over 5), which leaves nothing to prune.
        let mut cut_parents = BTreeSet::new();
        for &id in &pruned {
            assert_eq!(rec.node(id).state, State::Pruned(PruneReason::Cutoff), "{name}");
            let parent = rec.node(id).parent.unwrap();
            assert_eq!(exit_of(rec.node(parent)), Some(Exit::BetaCutoff), "{name}");
            cut_parents.insert(parent);
        }
        assert_eq!(cut_parents.len(), 3, "{name}");
        let cutoffs: Vec<usize> = (0..rec.len()).filter(|&i| exit_of(rec.node(i)) == Some(Exit::BetaCutoff)).collect();
        assert_eq!(cutoffs.len() as u64, stats.beta_cutoffs, "{name}");
        assert_eq!(cutoffs.len(), 5, "{name}");
        for id in cutoffs.into_iter().filter(|i| !cut_parents.contains(i)) {
            let n = rec.node(id);
            assert_eq!(n.children.len(), children_count(&tree, &moves_to(&rec, id)), "{name}");
        }

        // Filling the pruned subtrees in gives back the whole tree, the grey leaves with their values.
        assert!(rec.fill_pruned(&tree, &mut TreeEval, 1000), "{name}");
        assert_eq!(rec.len(), SPEC_NODES, "{name}");
        let mut grey_values = Vec::new();
        for (id, n) in rec.nodes().iter().enumerate() {
            if n.is_pruned() && n.children.is_empty() {
                let leaf = leaves_under(&tree, &moves_to(&rec, id));
                assert_eq!(leaf.len(), 1, "{name}");
                grey_values.push((leaf[0], n.static_value.unwrap()));
            }
        }
        grey_values.sort();
        let expected: Vec<(usize, Score)> = [4, 8, 11, 12, 13].iter().map(|&i| (i, SPEC_LEAVES[i])).collect();
        assert_eq!(grey_values, expected, "{name}");
    }
}

#[test]
fn pvs_re_searches_follow_their_failed_zero_window() {
    let tree = Tree::parse(SPEC_TREE).unwrap();
    let (rec, stats, _) = record::<Pvs>(tree.clone(), 4);
    assert_eq!(rec.unbalanced(), 0);
    assert_eq!(rec.searched_count() as u64, stats.main_nodes);
    let researches: Vec<usize> =
        (0..rec.len()).filter(|&i| rec.node(i).visit().is_some_and(|v| v.kind == NodeKind::Research)).collect();
    assert_eq!(researches.len() as u64, stats.get(child::RESEARCHES));
    assert_eq!(researches.len(), 2);
    for &id in &researches {
        let parent = rec.node(rec.node(id).parent.unwrap());
        let at = parent.children.iter().position(|&c| c == id).unwrap();
        let before = rec.node(parent.children[at - 1]);
        // The same move, first searched with a zero window that failed high: value >= its beta.
        assert_eq!(before.edge, rec.node(id).edge);
        let zw = before.visit().unwrap();
        assert_eq!(zw.kind, NodeKind::ZeroWindow);
        assert_eq!(zw.beta - zw.alpha, 1);
        let v = zw.value.unwrap();
        // From the parent's side the zero window failed high: the child's value is at most its alpha.
        assert!(v <= zw.alpha, "{v} in [{}, {}]", zw.alpha, zw.beta);
    }
    assert_eq!(searched_leaves(&rec, &tree), vec![0, 1, 2, 3, 5, 5, 6, 9, 6, 7, 9, 10]);
}

#[test]
fn null_move_nodes_match_the_statistics() {
    // Distinct values, uniform 3-way tree 6 plies deep: null moves are tried below the root from depth 4 on.
    let mut values: Vec<Score> = (0..729).map(|i| (i * 37 % 729) - 364).collect();
    values.reverse();
    let tree = Tree::uniform(3, 6, |i| values[i]);
    let (rec, stats, _) = record::<Nmp>(tree, 6);
    assert_eq!(rec.unbalanced(), 0);
    assert_eq!(rec.searched_count() as u64, stats.main_nodes);
    let nulls: Vec<&Node<Child>> = rec.nodes().iter().filter(|n| n.edge == Edge::Null).collect();
    assert!(stats.get(null_move::TRIES) > 0);
    assert_eq!(nulls.len() as u64, stats.get(null_move::TRIES));
    assert!(nulls.iter().all(|n| n.visit().unwrap().kind == NodeKind::Null));
    // A null-move search uses the zero window [-beta, -beta + 1] of the node it passes from.
    for n in &nulls {
        let v = n.visit().unwrap();
        let parent = rec.node(n.parent.unwrap()).visit().unwrap();
        assert_eq!((v.alpha, v.beta), (-parent.beta, -parent.beta + 1));
        assert_eq!(v.depth, parent.depth - 4);
    }
    let null_cutoffs = rec.nodes().iter().filter(|n| exit_of(n) == Some(Exit::NullCutoff)).count();
    assert_eq!(null_cutoffs as u64, stats.get(null_move::CUTOFFS));
}

/// Material only, for the side to move.
struct Material;
impl Evaluator<Position> for Material {
    fn evaluate(&mut self, pos: &Position) -> Score {
        let value = |k| match k {
            PieceKind::Chariot => 900,
            PieceKind::Cannon => 450,
            PieceKind::Horse => 400,
            PieceKind::King => 0,
            PieceKind::Soldier => 100,
            _ => 200,
        };
        let us = pos.turn();
        PieceKind::ALL
            .iter()
            .map(|&k| value(k) * (pos.pieces(us, k).count() as i32 - pos.pieces(!us, k).count() as i32))
            .sum()
    }
}

/// A middlegame with captures on both sides.
const MIDDLEGAME: &str = "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/2P3n2/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1";

fn record_xiangqi<V: Variant>(fen: &str, depth: u32) -> (Recorder<Move>, SearchResult<Move>) {
    let pos = Position::from_fen(fen).unwrap();
    let mut s = Searcher::<Position, Material, V, Recorder<Move>>::new(pos, Material)
        .with_tt(Arc::new(TranspositionTable::new(4)));
    let r = s.search(&Limits::depth(depth));
    (std::mem::take(&mut s.observer), r)
}

/// Checks what every recording of a complete search must satisfy.
fn check_counts(rec: &Recorder<Move>, stats: &Stats) {
    assert_eq!(rec.unbalanced(), 0);
    assert_eq!(rec.dropped(), 0);
    let main = rec.nodes().iter().filter(|n| n.visit().is_some_and(|v| v.kind != NodeKind::Quiescence)).count();
    assert_eq!(main as u64, stats.main_nodes);
    // Quiescence nodes reached by a capture (razoring's probe of the node itself is reached by no move).
    let quiet = rec
        .nodes()
        .iter()
        .filter(|n| n.visit().is_some_and(|v| v.kind == NodeKind::Quiescence) && matches!(n.edge, Edge::Move(_)))
        .count();
    assert_eq!(quiet as u64, stats.quiescence_nodes);
    let cutoffs = rec.nodes().iter().filter(|n| exit_of(n) == Some(Exit::BetaCutoff)).count() as u64;
    assert!(cutoffs >= stats.beta_cutoffs, "quiescence cutoffs come on top of the main search's");
    // Every pruned move is a legal move of the position it hangs under.
    let root = Position::from_fen(MIDDLEGAME).unwrap();
    for (id, n) in rec.nodes().iter().enumerate().filter(|(_, n)| n.is_pruned()).take(200) {
        let mut pos = root.clone();
        let path = rec.path(id);
        for e in &path[..path.len() - 1] {
            match *e {
                Edge::Move(m) => pos.make(m),
                Edge::Null => pos.make_null(),
                _ => {}
            }
        }
        let Edge::Move(m) = n.edge else { panic!("a pruned node is a move") };
        assert!(pos.is_legal(m), "{m} at {}", pos.fen());
    }
}

#[test]
fn quiescence_nodes_are_reached_by_their_captures() {
    let (rec, r) = record_xiangqi::<Qs>(MIDDLEGAME, 2);
    assert!(r.stats.quiescence_nodes > 0);
    check_counts(&rec, &r.stats);
    assert_eq!(rec.node(0).visit().unwrap().value, Some(r.score));
}

#[test]
fn the_engine_preset_keeps_the_recording_balanced() {
    let (rec, r) = record_xiangqi::<EnginePreset>(MIDDLEGAME, 5);
    check_counts(&rec, &r.stats);
    let futility = rec.nodes().iter().filter(|n| n.state == State::Pruned(PruneReason::Futility)).count();
    assert_eq!(futility as u64, r.stats.get(futility::PRUNES));
    let table = rec.nodes().iter().filter(|n| exit_of(n) == Some(Exit::TableHit)).count();
    assert_eq!(table as u64, r.stats.get(table::CUTOFFS));
    let reduced = rec.nodes().iter().filter(|n| n.visit().is_some_and(|v| v.kind == NodeKind::Reduced)).count();
    assert_eq!(reduced as u64, r.stats.get(late_move_reductions::REDUCTIONS));
    assert!(
        r.stats.get(late_move_reductions::REDUCTIONS) > 0
            && r.stats.get(futility::PRUNES) + r.stats.get(null_move::TRIES) > 0
    );
}

fn dot_of(rec: &Recorder<Child>, view: View) -> dot::Dot {
    let text =
        rec.to_dot_with(&DotOptions { title: "spec".into(), view, ..DotOptions::default() }, |c| format!("#{}", c.0));
    dot::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Checks that the DOT graph has one node per recorded node and one edge per parent link.
fn check_dot_shape<M: Copy>(rec: &Recorder<M>, g: &dot::Dot) {
    assert!(g.directed);
    let tree_nodes: Vec<&str> = g.nodes.iter().map(|(n, _)| n.as_str()).filter(|n| n.starts_with('n')).collect();
    assert_eq!(tree_nodes.len(), rec.len());
    for id in 0..rec.len() {
        assert!(g.node(&format!("n{id}")).is_some());
    }
    let links: Vec<_> = g.edges.iter().filter(|(a, b, _)| a.starts_with('n') && b.starts_with('n')).collect();
    assert_eq!(links.len(), rec.len() - rec.roots().len());
    for (a, b, _) in &links {
        let (a, b): (usize, usize) = (a[1..].parse().unwrap(), b[1..].parse().unwrap());
        assert_eq!(rec.node(b).parent, Some(a));
    }
    // Every endpoint is declared.
    for (a, b, _) in &g.edges {
        assert!(g.node(a).is_some() && g.node(b).is_some(), "{a} -> {b}");
    }
    let more = g.nodes.iter().filter(|(n, _)| n.starts_with('m')).count();
    assert_eq!(more, rec.nodes().iter().filter(|n| n.omitted > 0).count());
    assert_eq!(g.nodes.len(), rec.len() + more + 1, "tree nodes, '+N' boxes and the legend");
}

#[test]
fn dot_output_is_the_recorded_tree() {
    let tree = Tree::parse(SPEC_TREE).unwrap();
    let (mut rec, _, _) = record::<AlphaBeta>(tree.clone(), 4);
    let g = dot_of(&rec, View::Root);
    check_dot_shape(&rec, &g);
    let grey = |g: &dot::Dot| g.nodes.iter().filter(|(_, a)| a.get("fontcolor").is_some()).count();
    assert_eq!(grey(&g), 3);
    let red = g.nodes.iter().filter(|(_, a)| a.get("color").map(String::as_str) == Some("#dc2626")).count();
    assert_eq!(red, 5);
    assert_eq!(g.node("n0").unwrap()["label"], "root (max)\\n[-∞, ∞] d=4\\n= 6");
    // The first MIN node: the smaller of its MAX children, 5 (over 5 6 | 7 4) and 3.
    assert_eq!(g.node("n1").unwrap()["label"], "#0 (min)\\n[-∞, ∞] d=3\\n= 3");
    assert!(g.node("legend").unwrap()["label"].contains("never searched"));
    assert!(g.graph_attrs["label"].contains("spec"));

    // The negamax view negates the MIN levels.
    let g = dot_of(&rec, View::Mover);
    assert_eq!(g.node("n1").unwrap()["label"], "#0\\n[-∞, ∞] d=3\\n= -3");

    // With the grey subtrees filled in, the whole figure: 33 nodes, 14 of them grey.
    rec.fill_pruned(&tree, &mut TreeEval, 1000);
    let g = dot_of(&rec, View::Root);
    check_dot_shape(&rec, &g);
    assert_eq!(g.nodes.len(), SPEC_NODES + 1);
    assert_eq!(grey(&g), SPEC_NODES - rec.searched_count());
}

#[test]
fn a_cut_keeps_a_connected_prefix_and_counts_the_rest() {
    let (full, r) = record_xiangqi::<AlphaBeta>(MIDDLEGAME, 2);
    check_counts(&full, &r.stats);
    assert!(full.len() > 200);
    for k in [1, 10, 57, 200] {
        let cut = full.cut(k);
        assert_eq!(cut.len(), k);
        assert_eq!(cut.total(), full.total());
        assert_eq!(cut.dropped(), (full.len() - k) as u64);
        assert_eq!(cut.nodes().iter().map(|n| n.omitted).sum::<u64>(), cut.dropped());
        for (id, n) in cut.nodes().iter().enumerate() {
            assert!(n.parent.map_or(true, |p| p < id));
            assert!(n.children.iter().all(|&c| c < k));
        }
        let text = cut.to_dot(&DotOptions::default());
        let g = dot::parse(&text).unwrap();
        check_dot_shape(&cut, &g);
        // The '+N' boxes add up to what was cut.
        let counted: u64 = g
            .nodes
            .iter()
            .filter(|(n, _)| n.starts_with('m'))
            .map(|(_, a)| a["label"].trim_start_matches('+').trim_end_matches(" not drawn").parse::<u64>().unwrap())
            .sum();
        assert_eq!(counted, cut.dropped());
        assert!(g.graph_attrs["label"].contains(&format!("tree cut: {k} of {} nodes drawn", full.len())));
    }
    // A capacity during the search keeps the same prefix as a cut afterwards.
    let pos = Position::from_fen(MIDDLEGAME).unwrap();
    let mut s = Searcher::<Position, Material, AlphaBeta, Recorder<Move>>::new(pos, Material);
    s.observer = Recorder::with_capacity(57);
    s.search(&Limits::depth(2));
    let small = &s.observer;
    let cut = full.cut(57);
    assert_eq!((small.len(), small.total()), (57, full.total()));
    for id in 0..57 {
        assert_eq!(small.node(id).parent, cut.node(id).parent);
        assert_eq!(small.node(id).state, cut.node(id).state);
        assert_eq!(small.node(id).omitted, cut.node(id).omitted, "node {id}");
    }
}

#[test]
fn runs_of_pruned_moves_can_share_a_box() {
    let (rec, _) = record_xiangqi::<AlphaBeta>(MIDDLEGAME, 2);
    let opts = DotOptions { group_pruned: 3, ..DotOptions::default() };
    let g = dot::parse(&rec.to_dot(&opts)).unwrap();
    // Expected runs: maximal runs of at least 3 consecutive pruned children, counted from the recording.
    let mut runs = Vec::new();
    for n in rec.nodes() {
        let mut run = 0;
        for &c in n.children.iter().chain([usize::MAX].iter()) {
            if c != usize::MAX && rec.node(c).is_pruned() {
                run += 1;
            } else {
                if run >= 3 {
                    runs.push(run);
                }
                run = 0;
            }
        }
    }
    assert!(!runs.is_empty());
    let boxes: Vec<&dot::Attrs> = g.nodes.iter().filter(|(n, _)| n.starts_with('g')).map(|(_, a)| a).collect();
    assert_eq!(boxes.len(), runs.len());
    let mut listed: Vec<usize> =
        boxes.iter().map(|a| a["label"].split(' ').next().unwrap().parse::<usize>().unwrap()).collect();
    listed.sort();
    runs.sort();
    assert_eq!(listed, runs);
    let grouped: usize = runs.iter().sum();
    let singles = g.nodes.iter().filter(|(n, _)| n.starts_with('n')).count();
    assert_eq!(singles, rec.len() - grouped);
    // Every box and every single node hangs under exactly one edge, except the root.
    assert_eq!(g.edges.len(), singles + boxes.len() - 1);
}

/// The two-sided form honours fail-hard like the negamax forms: with `alphabeta-hard` every interior node returns
/// a value inside the window it was given (leaves return their evaluation, as in negamax-ab-hard) (observers see windows and values from the side to move's view); the fail-soft
/// `alphabeta` returns values outside it on the same tree, and both visit the same nodes.
#[test]
fn two_sided_fail_hard_keeps_values_inside_the_window() {
    use xiangqi_search::{AlphaBeta, AlphaBetaHard};
    let outside = |rec: &Recorder<Child>| {
        rec.nodes()
            .iter()
            .filter_map(|n| match &n.state {
                State::Searched(v) if v.depth > 0 => v.value.map(|x| (x, v.alpha, v.beta)),
                _ => None,
            })
            .filter(|&(x, a, b)| x < a || x > b)
            .count()
    };
    let (soft, soft_stats, _) = record::<AlphaBeta>(Tree::parse(SPEC_TREE).unwrap(), 4);
    let (hard, hard_stats, _) = record::<AlphaBetaHard>(Tree::parse(SPEC_TREE).unwrap(), 4);
    assert_eq!(soft_stats.main_nodes, hard_stats.main_nodes);
    assert!(outside(&soft) > 0, "the fail-soft search returns a value outside its window somewhere");
    assert_eq!(outside(&hard), 0);
}
