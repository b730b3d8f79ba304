//! The algorithms on synthetic trees, where theory says exactly which leaves each one visits.

use xiangqi_search::policy::child;
use xiangqi_search::synthetic::{Tree, TreeEval};
use xiangqi_search::{
    AlphaBeta, Limits, Minimax, Negamax, NegamaxAb, NegamaxAbHard, Nmp, Pvs, PvsNmpQs, Qs, Searcher, Variant,
};

/// The spec's alpha-beta figure: MAX root, MIN, MAX, MIN, then the leaves 5 6 | 7 4 5 | 3 | 6 | 6 9 | 7 | 5 | 9 8 | 6.
const SPEC_TREE: &str = "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))";

fn run<V: Variant>(tree: Tree, depth: u32) -> (i32, Vec<usize>, xiangqi_search::Stats) {
    let mut s = Searcher::<Tree, TreeEval, V>::new(tree, TreeEval);
    let r = s.search(&Limits::depth(depth));
    (r.score, s.game.visited_leaves(), r.stats)
}

#[test]
fn spec_example_minimax_and_negamax_visit_every_leaf() {
    for (score, visited, _) in
        [run::<Minimax>(Tree::parse(SPEC_TREE).unwrap(), 4), run::<Negamax>(Tree::parse(SPEC_TREE).unwrap(), 4)]
    {
        assert_eq!(score, 6);
        assert_eq!(visited, (0..14).collect::<Vec<_>>());
    }
}

#[test]
fn spec_example_alpha_beta_prunes_exactly_the_grey_leaves() {
    // After 5 and 6 the first MIN node is worth 5; after 7 and 4 the next is worth at most 4, so its last leaf
    // (index 4, value 5) is pruned. Later 9 (index 8) and the whole last MAX subtree (9 8 6) fall the same way.
    let expected = vec![0, 1, 2, 3, 5, 6, 7, 9, 10];
    for (name, (score, visited, stats)) in [
        ("alphabeta", run::<AlphaBeta>(Tree::parse(SPEC_TREE).unwrap(), 4)),
        ("negamax-ab", run::<NegamaxAb>(Tree::parse(SPEC_TREE).unwrap(), 4)),
        ("negamax-ab-hard", run::<NegamaxAbHard>(Tree::parse(SPEC_TREE).unwrap(), 4)),
        // Quiescence has no captures to look at here and the null move needs depth >= R + 1 below the root, so
        // both walk the tree exactly as alpha-beta does.
        ("qs", run::<Qs>(Tree::parse(SPEC_TREE).unwrap(), 4)),
        ("nmp", run::<Nmp>(Tree::parse(SPEC_TREE).unwrap(), 4)),
    ] {
        assert_eq!(score, 6, "{name}");
        assert_eq!(visited, expected, "{name}");
        assert_eq!(stats.leaf_nodes, 9, "{name}");
    }
}

#[test]
fn spec_example_pvs_searches_again_where_zero_windows_fail() {
    // Traced by hand: the second MAX child of the first MIN node fails high on its zero window ([4, 5] from the
    // MAX side) and is searched again, visiting leaf 5 twice; the second MIN child of the root fails high and is
    // searched again too (leaves 6 and 9 twice). The set of leaves is alpha-beta's.
    let (score, visited, stats) = run::<Pvs>(Tree::parse(SPEC_TREE).unwrap(), 4);
    assert_eq!(score, 6);
    assert_eq!(visited, vec![0, 1, 2, 3, 5, 5, 6, 9, 6, 7, 9, 10]);
    assert_eq!(stats.get(child::RESEARCHES), 2);
    let (score, visited2, _) = run::<PvsNmpQs>(Tree::parse(SPEC_TREE).unwrap(), 4);
    assert_eq!((score, visited2), (6, visited));
}

/// A deterministic stream of distinct leaf values.
fn distinct_values(n: usize, seed: u64) -> Vec<i32> {
    let mut v: Vec<i32> = (0..n as i32).map(|i| i * 3 - (n as i32)).collect();
    let mut s = seed;
    for i in (1..n).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.swap(i, (s % (i as u64 + 1)) as usize);
    }
    v
}

#[test]
fn knuth_moore_minimal_tree_with_perfect_ordering() {
    for b in 2..=5usize {
        for d in 1..=6u32 {
            if b.pow(d) > 20_000 {
                continue;
            }
            let values = distinct_values(b.pow(d), (b * 31 + d as usize) as u64);
            let mut tree = Tree::uniform(b, d, |i| values[i]);
            let exact = tree.sort_best_first();
            let minimal = b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1;
            let (s, leaves, _) = run::<AlphaBeta>(tree.clone(), d);
            assert_eq!((s, leaves.len()), (exact, minimal), "alphabeta b={b} d={d}");
            let (s, leaves, _) = run::<NegamaxAb>(tree.clone(), d);
            assert_eq!((s, leaves.len()), (exact, minimal), "negamax-ab b={b} d={d}");
            let (s, leaves, _) = run::<NegamaxAbHard>(tree.clone(), d);
            assert_eq!((s, leaves.len()), (exact, minimal), "negamax-ab-hard b={b} d={d}");
            // With perfect ordering PVS never needs a re-search, and visits the minimal tree too.
            let (s, leaves, stats) = run::<Pvs>(tree.clone(), d);
            assert_eq!((s, leaves.len(), stats.get(child::RESEARCHES)), (exact, minimal, 0), "pvs b={b} d={d}");
            let (s, leaves, _) = run::<Minimax>(tree, d);
            assert_eq!((s, leaves.len()), (exact, b.pow(d)), "minimax b={b} d={d}");
        }
    }
}

#[test]
fn exact_variants_agree_on_unordered_random_trees() {
    for seed in 1..40u64 {
        let (b, d) = (2 + (seed % 4) as usize, 2 + (seed % 4) as u32);
        let values = distinct_values(b.pow(d), seed);
        let tree = Tree::uniform(b, d, |i| values[i]);
        let (mm, all, _) = run::<Minimax>(tree.clone(), d);
        assert_eq!(all.len(), b.pow(d));
        for (name, (s, leaves, _)) in [
            ("negamax", run::<Negamax>(tree.clone(), d)),
            ("alphabeta", run::<AlphaBeta>(tree.clone(), d)),
            ("negamax-ab", run::<NegamaxAb>(tree.clone(), d)),
            ("negamax-ab-hard", run::<NegamaxAbHard>(tree.clone(), d)),
            ("pvs", run::<Pvs>(tree.clone(), d)),
        ] {
            assert_eq!(s, mm, "{name} seed {seed}");
            assert!(leaves.len() <= all.len() * if name == "pvs" { 2 } else { 1 }, "{name}");
        }
        // Two-sided and negamax alpha-beta are the same algorithm: same leaves in the same order.
        assert_eq!(run::<AlphaBeta>(tree.clone(), d).1, run::<NegamaxAb>(tree.clone(), d).1);
    }
}

#[test]
fn tree_text_errors_are_reported() {
    for bad in ["", "(", "(1 2", "()", "(1 x)", "(1) 2", "(99999)"] {
        assert!(Tree::parse(bad).is_err(), "{bad:?}");
    }
}

/// The CS557 `minimizer(board, best, worst)` and `maximizer(board, worst, best)`, written as the spec writes them:
/// `worst` starts at the caller's bound and only improves, and the loop stops once `worst` meets `best`. Leaf values
/// are for MAX, the first player.
fn cs557_maximizer(tree: &mut Tree, worst: i32, best: i32) -> i32 {
    cs557_node(tree, true, worst, best)
}

fn cs557_node(tree: &mut Tree, max: bool, mut worst: i32, best: i32) -> i32 {
    use xiangqi_search::{Evaluator, GameTree, MoveBuf};
    let mut moves = MoveBuf::new();
    tree.generate(false, &mut moves);
    if moves.is_empty() {
        // eval(board) from MAX's view (the evaluator scores for the side to move).
        let v = TreeEval.evaluate(tree);
        return if tree.first_player_to_move() { v } else { -v };
    }
    for m in moves {
        if (max && worst >= best) || (!max && worst <= best) {
            break;
        }
        tree.make(m);
        let result = cs557_node(tree, !max, best, worst);
        if (max && result > worst) || (!max && result < worst) {
            worst = result;
        }
        tree.unmake();
    }
    worst
}

/// The spec's best/worst routines visit exactly the leaves two-sided alpha-beta visits, in the same order, and
/// return its value; the fail-hard two-sided form (`alphabeta-hard`) is that algorithm in this crate.
#[test]
fn cs557_best_worst_routines_visit_the_leaves_of_alphabeta() {
    use xiangqi_search::{AlphaBetaHard, VariantConfig};
    let mut trees = vec![(Tree::parse(SPEC_TREE).unwrap(), 4)];
    for seed in 1..30u64 {
        let (b, d) = (2 + (seed % 4) as usize, 2 + (seed % 4) as u32);
        let values = distinct_values(b.pow(d), seed * 7 + 1);
        trees.push((Tree::uniform(b, d, |i| values[i]), d));
    }
    for (i, (tree, depth)) in trees.into_iter().enumerate() {
        let (score, leaves, _) = run::<AlphaBeta>(tree.clone(), depth);
        let mut literal = tree.clone();
        literal.clear_visits();
        let value = cs557_maximizer(&mut literal, -1_000_000, 1_000_000);
        assert_eq!((value, literal.visited_leaves()), (score, leaves.clone()), "tree {i}");
        let hard = run::<AlphaBetaHard>(tree.clone(), depth);
        assert_eq!((hard.0, &hard.1), (score, &leaves), "alphabeta-hard, tree {i}");
        // The variant parsed from text runs the same search.
        let variant: VariantConfig = "alphabeta-hard".parse().unwrap();
        let r = variant.run(tree.clone(), TreeEval, &xiangqi_search::Limits::depth(depth));
        assert_eq!((r.score, r.stats.main_nodes), (score, hard.2.main_nodes), "alphabeta-hard from text, tree {i}");
    }
}
