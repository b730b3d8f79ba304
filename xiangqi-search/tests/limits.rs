//! Stop conditions hold across iterations: a node limit counts every iteration, and iterations too small to reach
//! the periodic check still stop the search (a position the rules decide everywhere deepens to the maximum depth in
//! a few nodes per iteration).

use std::sync::Arc;
use xiangqi_core::Position;
use xiangqi_search::{Engine, Evaluator, Limits, Score, Searcher, TranspositionTable};

/// Material only, enough for the stop conditions.
struct Material;

impl Evaluator<Position> for Material {
    fn evaluate(&mut self, pos: &Position) -> Score {
        let v: i32 = pos.color_bb(pos.turn()).count() as i32 - pos.color_bb(!pos.turn()).count() as i32;
        v * 100
    }
}

fn engine(fen: &str) -> Searcher<Position, Material, Engine> {
    Searcher::new(Position::from_fen(fen).unwrap(), Material).with_tt(Arc::new(TranspositionTable::new(1)))
}

/// Kings and advisors only: every node after the root is a material draw, so each iteration is tiny.
const DEAD_DRAW: &str = "3ak4/9/9/9/9/9/9/9/4A4/4K4 w";

#[test]
fn a_node_limit_counts_all_iterations() {
    let mut s = engine(DEAD_DRAW);
    let limit = 50;
    let r = s.search(&Limits { nodes: Some(limit), ..Limits::default() });
    let total = r.stats.total_nodes();
    assert!(total >= limit && total < 2 * limit, "{total} nodes for a limit of {limit}");
    assert!(r.depth < 100, "stopped at depth {}", r.depth);
}

#[test]
fn without_a_limit_the_same_search_deepens_to_the_end() {
    // The contrast that makes the test above meaningful: unlimited, it runs through every depth.
    let mut s = engine(DEAD_DRAW);
    let r = s.search(&Limits { depth: Some(100), iterative: true, ..Limits::default() });
    assert_eq!(r.depth, 100);
    assert!(r.stats.total_nodes() > 2 * 50, "{} nodes", r.stats.total_nodes());
}
