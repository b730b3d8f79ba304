//! `xiangqi compare` and `xiangqi search` search the same way: for the engine (which deepens iteratively even to a
//! fixed depth) and for a plain variant, the same depth gives the same score, best move and node count, and
//! `compare` names the evaluator as `search` does.

use std::process::Command;

fn json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi")).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn compare_and_search_agree_at_the_same_depth() {
    for (variant, depth) in [("engine", "4"), ("engine", "5"), ("engine+no-lmr", "4"), ("pvs+nmp+qs+order", "3")] {
        let search = json(&["search", "--depth", depth, "--variant", variant, "--json"]);
        let compare = json(&["compare", "--depth", depth, "--variants", variant, "--json"]);
        let row = &compare["variants"][0];
        assert_eq!(row["nodes"], search["nodes"], "{variant} at depth {depth}: nodes");
        assert_eq!(row["score"], search["score"], "{variant} at depth {depth}: score");
        assert_eq!(row["best_move"], search["best_move"], "{variant} at depth {depth}: best move");
        assert_eq!(compare["eval"], search["eval"], "{variant}: the evaluator");
    }
    // With the handcrafted evaluator too, and the evaluator named as such.
    let search = json(&["search", "--depth", "4", "--handcrafted", "--json"]);
    let compare = json(&["compare", "--depth", "4", "--variants", "engine", "--handcrafted", "--json"]);
    assert_eq!(compare["variants"][0]["nodes"], search["nodes"]);
    assert_eq!(compare["eval"], "handcrafted");
}

#[test]
fn compare_says_which_evaluator_and_why_the_engine_deepens() {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["compare", "--depth", "2", "--variants", "engine,alphabeta", "--handcrafted"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.starts_with("evaluator: handcrafted\n"), "{text}");
    assert!(text.contains("the engine deepens iteratively"), "{text}");
}
