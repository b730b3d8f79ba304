//! `xiangqi ablate` through the binary: one row per technique with the node counts of that variant's own search,
//! a run stopped after a batch and started again ends with the totals of an uninterrupted run and plays no game
//! twice, and bad options are refused before any search.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use xiangqi_core::Position;
use xiangqi_eval::ChosenEval;
use xiangqi_search::{Limits, VariantConfig};

const XQ: &str = env!("CARGO_BIN_EXE_xiangqi");

/// The bench positions (the node part searches them).
const FENS: &[&str] = xiangqi_search::bench::BENCH_FENS;

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-ablate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn xq(args: &[&str]) -> Output {
    Command::new(XQ).args(args).output().expect("the binary runs")
}

/// Runs `xiangqi ablate ARGS --json` and returns its JSON.
fn ablate_json(args: &[&str]) -> serde_json::Value {
    let out = xq(&[&["ablate"], args, &["--json"]].concat());
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The nodes `xiangqi search` visits on `fen` to `depth` with `variant`.
fn search_nodes(fen: &str, depth: u32, variant: &str) -> u64 {
    let out = xq(&["search", "--fen", fen, "--depth", &depth.to_string(), "--variant", variant, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["nodes"].as_u64().unwrap()
}

/// The nodes the library's search of `variant` visits on `fen`, deepening iteratively to `depth` (as the engine
/// and `xiangqi bench` do), with a fresh table.
fn library_nodes(fen: &str, depth: u32, variant: &str) -> u64 {
    let pos = Position::from_fen(fen).unwrap();
    let spec: VariantConfig = variant.parse().unwrap();
    let limits = Limits { depth: Some(depth), iterative: true, ..Limits::default() };
    spec.run(pos.clone(), ChosenEval::new(&pos), &limits).stats.nodes()
}

#[test]
fn one_row_per_technique_with_the_nodes_of_its_own_search() {
    let v = ablate_json(&["--base", "pvs+qs+order+tt", "--depth", "3"]);
    let rows = v["rows"].as_array().unwrap();
    let techniques: Vec<&str> = rows.iter().map(|r| r["technique"].as_str().unwrap()).collect();
    assert_eq!(techniques, ["pvs", "qs", "order", "tt"]);
    let variants: Vec<&str> = rows.iter().map(|r| r["variant"].as_str().unwrap()).collect();
    assert_eq!(
        variants,
        ["negamax-ab+qs+order+tt", "negamax-ab+pvs+order+tt", "negamax-ab+pvs+qs+tt", "negamax-ab+pvs+qs+order"]
    );
    // Each variant's count on each position is what its own search visits there, and the total their sum.
    let base: Vec<u64> = FENS.iter().map(|f| library_nodes(f, 3, "pvs+qs+order+tt")).collect();
    assert_eq!(v["base_positions"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect::<Vec<_>>(), base);
    assert_eq!(v["base_nodes"].as_u64().unwrap(), base.iter().sum::<u64>());
    for r in rows {
        let variant = r["variant"].as_str().unwrap();
        let direct: Vec<u64> = FENS.iter().map(|f| library_nodes(f, 3, variant)).collect();
        let got: Vec<u64> = r["positions"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
        assert_eq!(got, direct, "{variant}");
        let total: u64 = direct.iter().sum();
        assert_eq!(r["nodes"].as_u64(), Some(total));
        let ratio = r["node_ratio"].as_f64().unwrap();
        assert!((ratio - total as f64 / base.iter().sum::<u64>() as f64).abs() < 1e-9);
        assert_eq!(r["games"], 0);
    }
    // Ordering and the table save nodes at depth 3: taking either away costs more nodes. (PVS does not, there, with
    // the built-in network: its re-searches cost about as much as its null windows save.)
    assert!(rows[2]["node_ratio"].as_f64().unwrap() > 1.0 && rows[3]["node_ratio"].as_f64().unwrap() > 1.0);
    // The same run twice: the same counts (one thread, a cleared table per position).
    let again = ablate_json(&["--base", "pvs+qs+order+tt", "--depth", "3"]);
    assert_eq!(again["rows"].as_array().unwrap().len(), rows.len(), "the same rows twice");
    for (a, b) in rows.iter().zip(again["rows"].as_array().unwrap()) {
        assert_eq!(a["positions"], b["positions"]);
    }
}

#[test]
fn the_engine_loses_one_technique_per_row_and_the_build_up_adds_one() {
    let v = ablate_json(&["--depth", "2"]);
    let techniques: Vec<&str> =
        v["rows"].as_array().unwrap().iter().map(|r| r["technique"].as_str().unwrap()).collect();
    assert_eq!(
        techniques,
        [
            "pvs",
            "nmp",
            "qs",
            "order",
            "tt",
            "lmr",
            "futility",
            "rfp",
            "razor",
            "checkext",
            "rules",
            "aspiration",
            "verified",
            "improving",
            "iir",
            "singular",
            "qsee",
            "tm",
            "hscale"
        ]
    );
    for r in v["rows"].as_array().unwrap() {
        let t = r["technique"].as_str().unwrap();
        assert_eq!(r["variant"], format!("engine+no-{t}"));
        assert_eq!(r["with"], "negamax-ab+pvs+nmp+qs+order+engine");
    }
    // The engine's variants as `xiangqi search` runs them (it deepens iteratively for the engine).
    for r in &v["rows"].as_array().unwrap()[..6] {
        let variant = r["variant"].as_str().unwrap();
        let direct: Vec<u64> = FENS.iter().map(|f| search_nodes(f, 2, variant)).collect();
        let got: Vec<u64> = r["positions"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
        assert_eq!(got, direct, "{variant}");
    }
    let v = ablate_json(&["--build-up", "--depth", "2", "--only", "tt,qsprune"]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(v["base"], "negamax-ab+order");
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0]["technique"].as_str(), rows[0]["variant"].as_str()), (Some("tt"), Some("negamax-ab+order+tt")));
    // An addition that needs another technique is measured on top of it.
    assert_eq!(rows[1]["technique"], "qs+qsprune");
    assert_eq!(
        (rows[1]["with"].as_str(), rows[1]["without"].as_str()),
        (Some("negamax-ab+qs+order+qsprune"), Some("negamax-ab+qs+order"))
    );
    assert_eq!(rows[1]["nodes_without"].as_u64(), Some(FENS.iter().map(|f| library_nodes(f, 2, "qs+order")).sum()));
}

/// The results file's batches: (with, first game, the games' scores) per line.
fn batch_scores(path: &Path) -> Vec<(String, u64, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["technique"].as_str().unwrap().to_owned(),
                v["first"].as_u64().unwrap(),
                v["scores"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The results file's batches: (with, first game, games) per line.
fn batches(path: &Path) -> Vec<(String, u64, usize)> {
    batch_scores(path).into_iter().map(|(t, first, scores)| (t, first, scores.len())).collect()
}

#[test]
fn a_stopped_run_resumes_to_the_totals_of_an_uninterrupted_one() {
    let dir = temp_dir("resume");
    let (split, whole) = (dir.join("split.jsonl"), dir.join("whole.jsonl"));
    let common = ["--depth", "0", "--nodes", "300", "--games", "8", "--batch", "2", "--only", "rfp,razor"];
    let with_out = |path: &Path, extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = common.iter().map(|s| s.to_string()).collect();
        v.extend(["--out".to_owned(), path.to_str().unwrap().to_owned()]);
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |args: Vec<String>| ablate_json(&args.iter().map(String::as_str).collect::<Vec<_>>());
    // Stopped after three batches: the first batch of each pairing, then the second of the first.
    let first = run(with_out(&split, &["--max-batches", "3"]));
    assert_eq!(batches(&split), [("rfp".to_owned(), 0, 2), ("razor".to_owned(), 0, 2), ("rfp".to_owned(), 2, 2)]);
    let games: Vec<u64> = first["rows"].as_array().unwrap().iter().map(|r| r["games"].as_u64().unwrap()).collect();
    assert_eq!(games, [4, 2]);
    // Started again: it continues where it stopped.
    let resumed = run(with_out(&split, &[]));
    let uninterrupted = run(with_out(&whole, &[]));
    let (resumed_rows, whole_rows) = (resumed["rows"].as_array().unwrap(), uninterrupted["rows"].as_array().unwrap());
    assert_eq!((resumed_rows.len(), whole_rows.len()), (2, 2), "a row per pairing, rfp and razor");
    for (a, b) in resumed_rows.iter().zip(whole_rows) {
        assert_eq!(a["games"], 8);
        for key in ["wins", "draws", "losses", "pentanomial", "reasons", "elo"] {
            assert_eq!(a[key], b[key], "{key}: {a} / {b}");
        }
    }
    // No game twice: each pairing's batches cover games 0..8 once each.
    let lines = batches(&split);
    assert_eq!(lines.len(), 8);
    for t in ["rfp", "razor"] {
        let mut covered: Vec<u64> =
            lines.iter().filter(|l| l.0 == t).flat_map(|&(_, first, n)| first..first + n as u64).collect();
        covered.sort();
        assert_eq!(covered, (0..8).collect::<Vec<_>>(), "{t}");
    }
    // The file holds the same games as the uninterrupted run's, game by game.
    let scores = |path: &Path| {
        let mut v = batch_scores(path);
        v.sort();
        v
    };
    assert_eq!(scores(&split), scores(&whole));
    // A finished run started again plays nothing more.
    let again = run(with_out(&split, &[]));
    assert_eq!(again["rows"], resumed["rows"]);
    assert_eq!(batches(&split).len(), 8);
    // The text table and the chart.
    let svg = dir.join("chart.svg");
    let mut args = vec!["ablate".to_owned()];
    args.extend(with_out(&split, &["--svg", svg.to_str().unwrap()]));
    let out = Command::new(XQ).args(&args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("rfp ") || l.starts_with("razor ")).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(rows[0].contains("engine+no-rfp") && rows[0].contains(" 8 "), "{text}");
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.starts_with("<svg") && chart.contains("rfp") && chart.contains("razor"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_results_file_is_an_error() {
    let dir = temp_dir("damaged");
    let path = dir.join("out.jsonl");
    let line = |first: u64, scores: &str| {
        format!(
            "{{\"with\":\"negamax-ab+pvs+nmp+qs+order+engine\",\"without\":\"negamax-ab+pvs+nmp+qs+order+engine+no-rfp\",\
             \"tc\":\"nodes=300\",\"random_plies\":2,\"first\":{first},\"scores\":\"{scores}\",\"technique\":\"rfp\"}}\n"
        )
    };
    let args = ["ablate", "--depth", "0", "--nodes", "300", "--games", "4", "--batch", "2", "--only", "rfp", "--out"];
    for (content, message) in [
        (format!("{}{}", line(0, "1="), line(0, "01")), "game 0 is recorded twice"),
        (line(2, "1="), "have a gap"),
        (format!("not json\n{}", line(0, "1=")), "line 1: not JSON"),
        (line(0, "1x"), "is not 1, = or 0"),
        (line(u64::MAX - 1, "1="), "beyond any run"),
        (line(1 << 40, "1="), "beyond any run"),
    ] {
        std::fs::write(&path, content).unwrap();
        let out = xq(&[&args[..], &[path.to_str().unwrap()]].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(message), "{message}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_options_are_refused() {
    for (args, message) in [
        (&["--base", "bogus"][..], "--base: unknown variant part"),
        (&["--base", "minimax"], "no technique to take away"),
        (&["--only", "nope"], "--only nope: not a technique of this run"),
        (&["--games", "4"], "--games needs --nodes N, --movetime MS (the time of a move) or --tc CLOCK"),
        (&["--games", "3", "--nodes", "100"], "--games 3: must be even"),
        (&["--games", "4", "--nodes", "100", "--batch", "3"], "--batch 3: must be even"),
        (&["--games", "4", "--nodes", "100", "--batch", "0"], "--batch 0: must be even"),
        (&["--nodes", "0"], "invalid value '0' for --nodes: nodes must be at least 1"),
        (&["--nodes", "10", "--movetime", "10"], "give one of --nodes, --movetime and --tc, not more"),
        (&["--movetime", "10", "--tc", "8+0.08"], "not more"),
        (&["--games", "4", "--tc", "abc"], "--tc \"abc\": the time \"abc\" is not a number of seconds"),
        (&["--games", "4", "--tc", "10+1e20"], "the increment 100000000000000000000: must be from 0.001"),
        (&["--movetime", "0"], "invalid value '0' for --movetime: movetime must be at least 1"),
        (&["--depth", "121"], "invalid value '121' for --depth: depth must be at most 120"),
        (&["--depth", "0"], "nothing to measure"),
        (&["--sprt", "elo0=0", "elo1=5"], "--sprt needs --games"),
        (&["--games", "4", "--nodes", "100", "--sprt", "elo0=5", "elo1=0"], "must be above elo0"),
        (&["--games", "4", "--nodes", "100", "--concurrency", "0"], "concurrency must be at least 1"),
        (&["--games", "4", "--nodes", "100", "--max-batches", "0"], "max batches must be at least 1"),
        (&["--hash", "0"], "for --hash: hash must be at least 1"),
        (&["--openings", "/nonexistent/openings.txt"], "openings.txt"),
    ] {
        let out = xq(&[&["ablate"], args].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(message), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
