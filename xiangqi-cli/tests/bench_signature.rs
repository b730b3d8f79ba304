//! The bench signature: the total node count of `xiangqi bench` (one thread, fixed depth, fresh table per
//! position). Any change to the search or the evaluation changes it; a changed snapshot is a decision to review.

use std::process::Command;
use xiangqi_eval::ChosenEval;
use xiangqi_search::bench::{bench, BENCH_DEPTH, BENCH_FENS};
use xiangqi_search::VariantConfig;

/// `xiangqi bench --json` with `extra` flags, as the text of its snapshot: the total, the nodes of each position
/// and the best moves, one per bench position.
fn signature(extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi")).args(["bench", "--json"]).args(extra).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["depth"], BENCH_DEPTH);
    let positions: Vec<u64> = v["positions"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    let best: Vec<&str> = v["best_moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!((positions.len(), best.len()), (BENCH_FENS.len(), BENCH_FENS.len()), "one count and move a position");
    assert_eq!(positions.iter().sum::<u64>(), v["nodes"].as_u64().unwrap());
    format!("nodes {}\npositions {:?}\nbest {}\n", v["nodes"], positions, best.join(" "))
}

#[test]
fn bench_signature() {
    insta::assert_snapshot!(signature(&[]));
}

/// The signature of the handcrafted evaluator (`xiangqi bench --handcrafted`).
#[test]
fn bench_signature_handcrafted() {
    insta::assert_snapshot!(signature(&["--handcrafted"]));
}

#[test]
fn single_thread_search_is_reproducible() {
    // Same positions, depth and hash size: the same node counts and moves, run after run.
    let variant: VariantConfig = "engine".parse().unwrap();
    let a = bench(&variant, 6, 4, 1, ChosenEval::new).unwrap();
    let b = bench(&variant, 6, 4, 1, ChosenEval::new).unwrap();
    assert_eq!(a.nodes.len(), BENCH_FENS.len());
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best, b.best);
    assert!(a.total > 0);
}

#[test]
fn two_threads_find_legal_moves() {
    let variant: VariantConfig = "engine".parse().unwrap();
    let r = bench(&variant, 5, 4, 2, ChosenEval::new).unwrap();
    assert_eq!(r.best.len(), BENCH_FENS.len());
    for (fen, best) in BENCH_FENS.iter().zip(&r.best) {
        let pos = xiangqi_core::Position::from_fen(fen).unwrap();
        assert!(pos.parse_move(best).is_ok(), "{best} in {fen}");
    }
}
