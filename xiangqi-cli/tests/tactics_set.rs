//! The tactical test set (`tests/data/tactics/`): every position loads, and the engine at a fixed node budget solves
//! the short mates and a share of the rest, printed (`cargo test -p xiangqi-cli --test tactics_set -- --nocapture`).

use xiangqi_cli::tactics::{parse, solve};
use xiangqi_eval::EvalChoice;
use xiangqi_search::{Limits, SearchEngine, VariantConfig};

const SET: &str = include_str!("data/tactics/eleeye-batch.epd");

/// Nodes a position: about 0.05 s each at the release build's speed, so that the whole set takes a few seconds.
const NODES: u64 = 50_000;

/// The mates this short are found by any sound search at the budget: each must be solved.
const SHORT_MATE: u32 = 4;

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
fn the_engine_solves_the_short_mates_at_a_fixed_node_budget() {
    let set = parse(SET).unwrap();
    let variant = VariantConfig::engine();
    let mut engine = SearchEngine::new(EvalChoice::engine_default()).unwrap();
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
}
