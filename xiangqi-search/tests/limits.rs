//! Stop conditions hold across iterations: a node limit counts every iteration, and iterations too small to reach
//! the periodic check still stop the search (a position the rules decide everywhere deepens to the maximum depth in
//! a few nodes per iteration).

use std::sync::{mpsc, Arc};
use std::time::Duration;
use xiangqi_core::Position;
use xiangqi_eval::ChosenEval;
use xiangqi_search::{
    EnginePreset, Evaluator, Limits, Score, SearchResult, Searcher, TranspositionTable, VariantConfig,
};

#[path = "support/time_scale.rs"]
mod time_scale;

/// Material only, enough for the stop conditions.
struct Material;

impl Evaluator<Position> for Material {
    fn evaluate(&mut self, pos: &Position) -> Score {
        let v: i32 = pos.color_bb(pos.turn()).count() as i32 - pos.color_bb(!pos.turn()).count() as i32;
        v * 100
    }
}

fn engine(fen: &str) -> Searcher<Position, Material, EnginePreset> {
    Searcher::new(Position::from_fen(fen).unwrap(), Material).with_tt(Arc::new(TranspositionTable::new(1)))
}

/// Kings and advisors only: every node after the root is a material draw, so each iteration is tiny.
const DEAD_DRAW: &str = "3ak4/9/9/9/9/9/9/9/4A4/4K4 w";

#[test]
fn a_node_limit_counts_all_iterations() {
    let mut s = engine(DEAD_DRAW);
    let limit = 50;
    let r = s.search(&Limits { nodes: Some(limit), ..Limits::default() });
    let total = r.stats.nodes();
    assert!(total >= limit && total < 2 * limit, "{total} nodes for a limit of {limit}");
    assert!(r.depth < 100, "stopped at depth {}", r.depth);
}

#[test]
fn without_a_limit_the_same_search_deepens_to_the_end() {
    // The contrast that makes the test above meaningful: unlimited, it runs through every depth.
    let mut s = engine(DEAD_DRAW);
    let r = s.search(&Limits { depth: Some(100), iterative: true, ..Limits::default() });
    assert_eq!(r.depth, 100);
    assert!(r.stats.nodes() > 2 * 50, "{} nodes", r.stats.nodes());
}

#[test]
fn root_moves_restrict_the_root_and_nothing_below() {
    use xiangqi_search::GameTree;
    let start = Position::startpos();
    let legal = xiangqi_movegen::legal_moves(&start);
    // Two chariot moves only: the answer is one of them, and the search below the root is not restricted (a
    // full-length PV of replies).
    let allowed: Vec<_> =
        legal.iter().copied().filter(|m| ["a0a1", "i0i1"].contains(&m.to_string().as_str())).collect();
    assert_eq!(allowed.len(), 2);
    let codes: Vec<u16> = allowed.iter().map(|&m| <Position as GameTree>::encode_move(m)).collect();
    let mut s = engine(&start.fen());
    let r = s.search(&Limits { depth: Some(3), root_moves: Some(codes), ..Limits::default() });
    assert!(allowed.contains(&r.best_move.unwrap()), "{:?}", r.best_move);
    assert_eq!(r.pv.len(), 3, "{:?}", r.pv);
    // Two root moves of 44, fewer nodes than the unrestricted search of the same depth (less than half of them).
    let mut free = engine(&start.fen());
    let f = free.search(&Limits::depth(3));
    assert!(r.stats.nodes() < f.stats.nodes() / 2, "{} vs {}", r.stats.nodes(), f.stats.nodes());
    // No legal move among them: the result of a position without moves.
    let mut none = engine(&start.fen());
    let n = none.search(&Limits { depth: Some(3), root_moves: Some(vec![0]), ..Limits::default() });
    assert_eq!(n.best_move, None);
}

#[test]
fn a_mate_limit_stops_deepening_at_the_mate() {
    // Red mates in three (chariot and advisors against the bare king); unlimited otherwise.
    let mut s = engine("3k5/9/9/9/9/9/9/9/4A4/3AKR3 w");
    let r = s.search(&Limits { mate: Some(3), ..Limits::default() });
    assert!(r.score >= xiangqi_search::MATE_BOUND, "{}", r.score);
    // It stopped at the first iteration that found the mate: one ply less does not find it.
    let mut shallower = engine("3k5/9/9/9/9/9/9/9/4A4/3AKR3 w");
    let before = shallower.search(&Limits::depth(r.depth - 1));
    assert!(before.score < xiangqi_search::MATE_BOUND, "found at depth {} already", r.depth - 1);
}

/// What a search learns about move ordering is kept for the next search of the game when it is given a memory: a
/// first search with an empty memory is a fresh search, node for node; the next one starts from what the first
/// learnt (and so searches differently); a cleared memory is fresh again.
#[test]
fn search_memory_carries_the_ordering_from_one_search_to_the_next() {
    use xiangqi_search::{search_smp, search_smp_with, RunSetup, SearchMemory, VariantConfig};
    let variant: VariantConfig = "engine".parse().unwrap();
    let pos = Position::startpos();
    let limits = Limits::depth(7);
    let fresh_tt = || Arc::new(TranspositionTable::new(4));
    let run = |memory: Option<Arc<SearchMemory>>| {
        let setup = RunSetup { tt: Some(fresh_tt()), memory, ..RunSetup::default() };
        search_smp_with(&variant, &pos, |_| Material, &limits, &setup, 1, |_| {}).stats.nodes()
    };
    let fresh = search_smp(&variant, &pos, |_| Material, &limits, fresh_tt(), 1, |_| {}).stats.nodes();
    let memory = Arc::new(SearchMemory::new());
    assert!(memory.is_empty());
    assert_eq!(run(Some(memory.clone())), fresh, "an empty memory is a fresh search");
    assert!(!memory.is_empty());
    let second = run(Some(memory.clone()));
    assert_ne!(second, fresh, "the second search starts from the first one's history");
    memory.clear();
    assert_eq!(run(Some(memory.clone())), fresh, "a cleared memory is fresh again");
    // Variants that learn nothing keep nothing.
    let plain: VariantConfig = "pvs+nmp".parse().unwrap();
    let memory = Arc::new(SearchMemory::new());
    let setup = RunSetup { tt: Some(fresh_tt()), memory: Some(memory.clone()), ..RunSetup::default() };
    search_smp_with(&plain, &pos, |_| Material, &Limits::depth(3), &setup, 1, |_| {});
    assert!(memory.is_empty());
}

/// From a game at 10,000 nodes a move: Red's cannon and Black's cannon check in turn, and most evasions screen a
/// cannon, so they check as well. With quiescence evasions (`qsevasion`) unbounded, quiescence here searched evasions
/// answered by evasions to the maximum ply, and neither the depth nor the node limit ended the search.
const CHECKS_ANSWERED_BY_CHECKS: &str = "3k4C/4a1P2/N2a5/4n4/9/9/9/9/4K4/2B2c3 w - - 2 154";

/// `engine+qsevasion` with the built-in network on [`CHECKS_ANSWERED_BY_CHECKS`], or a failure when the search does
/// not end within a minute (generous: the machine may be busy).
fn search_checks_answered_by_checks(limits: Limits) -> SearchResult<xiangqi_core::Move> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let pos = Position::from_fen(CHECKS_ANSWERED_BY_CHECKS).unwrap();
        let variant: VariantConfig = "engine+qsevasion".parse().unwrap();
        let eval = ChosenEval::new(&pos);
        let _ = tx.send(variant.run(pos, eval, &limits));
    });
    rx.recv_timeout(time_scale::scaled(Duration::from_secs(60))).expect("the search ends")
}

#[test]
fn quiescence_evasions_that_check_in_turn_end() {
    let r = search_checks_answered_by_checks(Limits { depth: Some(10), iterative: true, ..Limits::default() });
    assert!(r.stats.get(xiangqi_search::techniques::qs_evasions::NODES) > 0 && r.best_move.is_some());
}

#[test]
fn a_node_limit_holds_inside_quiescence() {
    // The limit is looked at every 1024 nodes, quiescence's included.
    let r = search_checks_answered_by_checks(Limits::nodes(10_000));
    assert!(r.stats.nodes() <= 10_000 + 1024, "{} nodes", r.stats.nodes());
}
