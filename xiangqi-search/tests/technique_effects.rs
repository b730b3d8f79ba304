//! The effect of each of four engine techniques that no other test isolates: the singular extension extends, on a
//! position chosen for it, and keeps the mate the engine finds without it; internal iterative reductions reduce
//! nodes without a table move and save nodes; "improving" acts only through the margins it adjusts; the bounded
//! history scale changes the ordering (so the nodes) but never the score of an exact search.

use xiangqi_core::Position;
use xiangqi_eval::ChosenEval;
use xiangqi_search::techniques::{iir, singular};
use xiangqi_search::{Limits, SearchResult, VariantConfig, MATE};

/// Positions of the bench: a middlegame of each kind, with captures, checks and quiet moves.
const POSITIONS: &[&str] = &[
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
];

/// Red mates in 3 (five plies), and only one first move does: `g4e5` (see `see_pruning.rs` for the game).
const MATE_IN_3: &str = "3c1a3/4ak2r/6R2/8p/9/6N2/9/B7B/4K4/9 w - - 0 2";

fn search(variant: &str, fen: &str, depth: u32, iterative: bool) -> SearchResult<xiangqi_core::Move> {
    let pos = Position::from_fen(fen).unwrap();
    let spec: VariantConfig = variant.parse().unwrap_or_else(|e| panic!("{variant}: {e}"));
    let eval = ChosenEval::handcrafted(&pos);
    spec.run(pos, eval, &Limits { depth: Some(depth), iterative, ..Limits::default() })
}

/// The singular extension, at its minimum depth (8) and above, extends the table move of a forced line: here the
/// only mate. It extends at least once, and the engine finds the same mate, with the same line's first move, as
/// the engine without it.
#[test]
fn the_singular_extension_extends_on_a_forced_mate_and_keeps_it() {
    let with = search("engine", MATE_IN_3, 11, true);
    let without = search("engine+no-singular", MATE_IN_3, 11, true);
    assert_eq!(without.score, MATE - 5, "the engine without singular finds the mate");
    assert_eq!(with.score, without.score, "singular keeps the mate");
    assert_eq!(with.best_move, without.best_move);
    assert!(with.stats.get(singular::EXTENSIONS) > 0, "no singular extension: {:?}", with.stats);
    assert_eq!(without.stats.get(singular::EXTENSIONS), 0);
}

/// IIR reduces a node without a table move by a ply: with it the counter counts such nodes, and the searches of
/// a table-using negamax visit fewer nodes in total; without it nothing is counted.
#[test]
fn iir_reduces_nodes_without_a_table_move_and_saves_nodes() {
    let (mut with_nodes, mut without_nodes, mut reductions) = (0, 0, 0);
    for fen in POSITIONS {
        let with = search("negamax-ab+order+tt+iir", fen, 6, true);
        let without = search("negamax-ab+order+tt", fen, 6, true);
        assert_eq!(without.stats.get(iir::REDUCTIONS), 0);
        reductions += with.stats.get(iir::REDUCTIONS);
        with_nodes += with.stats.nodes();
        without_nodes += without.stats.nodes();
    }
    assert!(reductions > 0, "IIR reduced nothing");
    assert!(with_nodes < without_nodes, "IIR: {with_nodes} nodes, without: {without_nodes}");
}

/// "Improving" only adjusts the margins of reverse futility pruning, late move pruning (futility), late move
/// reductions and ProbCut: beside an addition that reads none of them (razoring) it changes nothing (the same
/// nodes, score and line), and with those techniques it changes the search.
#[test]
fn improving_acts_only_through_the_margins_it_adjusts() {
    let mut changed = false;
    for fen in POSITIONS {
        let base = "negamax-ab+order+razor";
        let (alone, plain) = (search(&format!("{base}+improving"), fen, 5, false), search(base, fen, 5, false));
        assert_eq!(
            (alone.stats.nodes(), alone.score, &alone.pv),
            (plain.stats.nodes(), plain.score, &plain.pv),
            "{fen}"
        );
        let base = "negamax-ab+order+rfp+futility+lmr";
        let (with, without) = (search(&format!("{base}+improving"), fen, 6, true), search(base, fen, 6, true));
        changed |= with.stats.nodes() != without.stats.nodes();
    }
    assert!(changed, "improving changed no search with rfp, futility and lmr");
}

/// The history scale changes what the ordering learns, so the order of quiet moves and the nodes, but never the
/// score of an exact search (alpha-beta returns the same value in any order). Both sides have an addition that
/// keeps the score (mate distance pruning), so that the engine's node runs on both and only the scale differs.
#[test]
fn the_history_scale_reorders_but_keeps_the_exact_score() {
    let mut changed = false;
    for fen in POSITIONS {
        let base = "negamax-ab+order+mdp";
        let (with, without) = (search(&format!("{base}+hscale"), fen, 5, true), search(base, fen, 5, true));
        assert_eq!(with.score, without.score, "{fen}");
        changed |= with.stats.nodes() != without.stats.nodes();
    }
    assert!(changed, "the history scale changed no node count");
}
