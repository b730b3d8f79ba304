//! The `trace` and `compare` messages against the search crate: a trace's steps, listing and prune sentences are
//! the recorder's (the one recording function `xiangqi tree --trace` uses), and `compare`'s counts and values are
//! the engine's searches of each variant.

mod common;

use common::{start_with, Client};
use serde_json::{json, Value};
use xiangqi_core::Position;
use xiangqi_search::record::pseudocode::listing;
use xiangqi_search::record::{record_tree, RecordOptions, Sides};
use xiangqi_search::{Limits, SearchEngine, VariantConfig};

const SPEC_TREE: &str = "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trace_is_the_recorders_for_every_exact_variant() {
    let addr = start_with(2).await;
    let mut c = Client::connect(addr).await;
    for variant in ["minimax", "alphabeta", "alphabeta-hard", "negamax", "negamax-ab", "negamax-ab-hard", "pvs"] {
        let t = c.ask(json!({"type": "trace", "id": 1, "synthetic": SPEC_TREE, "variant": variant})).await;
        assert_eq!(t["type"], "trace", "{t}");
        let r = record_tree(SPEC_TREE, variant, None, &RecordOptions { fill_pruned: 20_000, ..Default::default() })
            .expect("a recording");
        let rec = &r.recorder;
        assert_eq!(t["value"], 6, "{variant}: the spec's root value");
        assert_eq!(t["searched"], r.searched, "{variant}");
        assert_eq!(t["pruned"], r.pruned, "{variant}");
        let steps = t["steps"].as_array().unwrap();
        assert_eq!(steps.len(), rec.trace().len(), "{variant}: every step sent");
        assert_eq!(t["steps_total"], rec.trace().len(), "{variant}");
        for (s, ts) in steps.iter().zip(rec.trace()) {
            assert_eq!(s["label"], ts.step.label.name(), "{variant}");
            assert_eq!(s["node"], json!(ts.node), "{variant}");
            assert_eq!(
                (s["alpha"].as_i64(), s["beta"].as_i64()),
                (Some(ts.step.alpha.into()), Some(ts.step.beta.into()))
            );
            assert_eq!(s["value"], json!(ts.step.value), "{variant}");
        }
        // Every label a step names is on one line of the listing sent, which is the variant's.
        let config: VariantConfig = variant.parse().unwrap();
        let lines: Vec<&Value> =
            t["listing"].as_array().unwrap().iter().flat_map(|f| f["lines"].as_array().unwrap()).collect();
        assert_eq!(lines.len(), listing(&config).functions.iter().map(|f| f.lines.len()).sum::<usize>());
        for s in steps {
            assert_eq!(lines.iter().filter(|l| l["label"] == s["label"]).count(), 1, "{variant}: {s}");
        }
        // The prunes: one per pruned node sent, with the recorder's sentence.
        let prunes = t["prunes"].as_array().unwrap();
        let pruned_nodes = t["nodes"].as_array().unwrap().iter().filter(|n| n["pruned"] == true).count();
        assert_eq!(prunes.len(), pruned_nodes, "{variant}");
        for p in prunes {
            let id = p["id"].as_u64().unwrap() as usize;
            let text = rec.explain_text(id, |ch| format!("#{ch}"), Sides::default()).unwrap();
            assert_eq!(p["text"], text, "{variant}");
        }
        if variant == "alphabeta" {
            let first = prunes.iter().find(|p| p["kind"] == "cutoff").unwrap();
            assert_eq!(
                (&first["at_name"], &first["child_move"], &first["value"], &first["alpha"], &first["beta"]),
                (&json!("#0 #0 #1"), &json!("#1"), &json!(4), &json!(5), &json!(4)),
                "the spec's first prune: {first}"
            );
        }
    }
    let bad = c.ask(json!({"type": "trace", "id": 2, "depth": 6, "variant": "alphabeta"})).await;
    assert_eq!(bad["type"], "error", "a position is traced to depth 5 at most: {bad}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compare_counts_as_the_engine_searches() {
    let addr = start_with(2).await;
    let mut c = Client::connect(addr).await;
    let variants = ["minimax", "alphabeta", "negamax-ab", "negamax-ab+order", "pvs"];
    let fen = "3k5/4r4/9/9/4p4/9/9/9/4R4/5K3 w - - 0 1";
    let r = c.ask(json!({"type": "compare", "id": 3, "fen": fen, "variants": variants, "depth": 2})).await;
    assert_eq!(r["type"], "compare", "{r}");
    let rows = r["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2 * variants.len());
    let pos = Position::from_fen(fen).unwrap();
    // The test server's evaluator (tests/common).
    let mut engine = SearchEngine::new(xiangqi_eval::EvalChoice::Handcrafted).unwrap();
    for row in rows {
        let spec: VariantConfig = row["variant"].as_str().unwrap().parse().unwrap();
        engine.set_variant(spec);
        engine.new_game();
        let depth = row["depth"].as_u64().unwrap() as u32;
        let s = engine.search(&pos, &Limits::depth(depth));
        assert_eq!((row["nodes"].as_u64(), row["score"].as_i64()), (Some(s.stats.nodes()), Some(s.score.into())));
    }
    // The exact variants agree on the value at each depth.
    for d in 1..=2 {
        let scores: Vec<&Value> = rows.iter().filter(|x| x["depth"] == d).map(|x| &x["score"]).collect();
        assert!(scores.windows(2).all(|w| w[0] == w[1]), "depth {d}: {scores:?}");
    }
    let bad = c.ask(json!({"type": "compare", "id": 4, "variants": ["nonsense"]})).await;
    assert_eq!(bad["type"], "error", "{bad}");
}
