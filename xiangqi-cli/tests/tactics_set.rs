//! The tactical test sets (`tests/data/tactics/`): every position loads, and the engine at a fixed node budget on one
//! thread (deterministic) solves the first set's short mates, and at least a floor of each set, printed for both
//! (`cargo test -p xiangqi-cli --test tactics_set -- --nocapture`).

use xiangqi_eval::EvalChoice;
use xiangqi_match::tactics::{parse, solve};
use xiangqi_search::{Limits, SearchEngine, VariantConfig};

const SET: &str = include_str!("data/tactics/eleeye-batch.epd");

/// The positions of the same batch that `SET` leaves out, verified by long searches only (see the data's README).
const REST: &str = include_str!("data/tactics/eleeye-batch-rest.epd");

/// Nodes a position: about 0.05 s each at the release build's speed, so that the whole set takes a few seconds.
const NODES: u64 = 50_000;

/// The mates this short are found by any sound search at the budget: each must be solved.
const SHORT_MATE: u32 = 4;

/// The first set's floor: 87 of 95 solved at 50,000 nodes on 2026-12-07 (the built-in network of that day), less a
/// margin of 3 positions (about 3%) for changes of the engine that trade one tactic for another.
const FLOOR: usize = 84;

/// The rest's floor: 76 of 90 solved on the same day, less a margin of 4 positions (about 4%).
const FLOOR_REST: usize = 72;

#[test]
fn the_set_loads_with_its_sources() {
    let set = parse(SET).unwrap();
    assert!((40..=100).contains(&set.len()), "{} positions", set.len());
    assert!(set.iter().all(|t| !t.id.is_empty() && t.source.starts_with("xqbase/eleeye TEST/BATCH.TXT")));
    let mut ids: Vec<&str> = set.iter().map(|t| t.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), set.len(), "ids are unique");
}

#[test]
fn the_rest_of_the_batch_loads_and_shares_no_position_with_the_first_set() {
    let (first, rest) = (parse(SET).unwrap(), parse(REST).unwrap());
    assert_eq!(rest.len(), 90);
    assert!(rest.iter().all(|t| t.source.starts_with("xqbase/eleeye TEST/BATCH.TXT")));
    let fens: Vec<String> = first.iter().map(|t| t.position.fen()).collect();
    for t in &rest {
        assert!(!first.iter().any(|f| f.id == t.id), "{} is in both sets", t.id);
        assert!(!fens.contains(&t.position.fen()), "{}'s position is in both sets", t.id);
    }
    // The same position numbering as the first set: with it, the two cover at most the batch's 240.
    assert!(first.len() + rest.len() <= 240);
}

#[test]
fn the_engine_solves_the_short_mates_at_a_fixed_node_budget() {
    let set = parse(SET).unwrap();
    let variant = VariantConfig::engine();
    let mut engine = SearchEngine::new(EvalChoice::engine_default()).unwrap();
    // One search thread: at a fixed node count, the same moves every run.
    engine.set_threads(1).unwrap();
    let limits = Limits::nodes(NODES);
    let mut solved = 0;
    let mut missed_short = Vec::new();
    for t in &set {
        let o = solve(&mut engine, &variant, t, &limits);
        solved += usize::from(o.solved);
        if t.mate.is_some_and(|n| n <= SHORT_MATE) && !o.solved {
            missed_short.push(format!("{} (chose {:?}, score {})", t.id, o.chosen.map(|m| m.to_string()), o.score));
        }
    }
    println!(
        "tactics: engine solved {solved} of {} ({:.1}%) at {NODES} nodes a position",
        set.len(),
        100.0 * solved as f64 / set.len() as f64
    );
    assert!(missed_short.is_empty(), "mates in {SHORT_MATE} or fewer missed: {missed_short:?}");
    // The short mates are a floor of the share, with every other position allowed to fail.
    let short = set.iter().filter(|t| t.mate.is_some_and(|n| n <= SHORT_MATE)).count();
    assert!(short > 0 && solved >= short);
    assert!(solved >= FLOOR, "solved {solved} of {}, below the floor of {FLOOR}", set.len());

    let rest = parse(REST).unwrap();
    let solved_rest = rest.iter().filter(|t| solve(&mut engine, &variant, t, &limits).solved).count();
    println!(
        "tactics: engine solved {solved_rest} of {} ({:.1}%) of the rest of the batch at {NODES} nodes a position",
        rest.len(),
        100.0 * solved_rest as f64 / rest.len() as f64
    );
    assert!(solved_rest >= FLOOR_REST, "solved {solved_rest} of {}, below the floor of {FLOOR_REST}", rest.len());
}
