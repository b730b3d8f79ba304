//! Tuned numbers reach the search from every front door: `setoption name <Param>` (what `xiangqi tune` sends to
//! each engine of its games), `uci --params FILE`, `search --params FILE` and `bench --params FILE` each give the
//! node count of the library's own search with the same parameters, and a count different from the defaults'.

use std::process::Command;
use std::time::Duration;

use xiangqi_core::Position;
use xiangqi_eval::EvalChoice;
use xiangqi_search::bench::bench_with_params;
use xiangqi_search::{Limits, Params, SearchEngine, VariantConfig};

#[path = "support/engine_process.rs"]
mod engine_process;

const XQ: &str = env!("CARGO_BIN_EXE_xiangqi");

/// The tuned values: far enough from the defaults to change a shallow search.
const TUNED: &[(&str, i64)] = &[("LmrDivisor", 80), ("RfpMargin", 20), ("RazorMargin", 900), ("AspWindow", 5)];

/// The depth of every search here (iterative deepening, the engine's way).
const DEPTH: u32 = 6;

/// The middlegame every search starts from.
const FEN: &str = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 0 1";

fn tuned() -> Params {
    let mut p = Params::default();
    for (name, value) in TUNED {
        p.set(name, *value).expect("a declared parameter in range");
    }
    p
}

/// The parameter file of [`TUNED`], in a fresh directory.
fn params_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-params-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tuned.params");
    let text: String = TUNED.iter().map(|(n, v)| format!("{n} = {v}\n")).collect();
    std::fs::write(&file, text).unwrap();
    file
}

/// The library's search of [`FEN`] with the handcrafted evaluator, the playing engine's variant, the default
/// table and one thread, as `xiangqi search` and a UCI `go depth` run it.
fn library_nodes(params: Params) -> u64 {
    let mut engine = SearchEngine::new(EvalChoice::Handcrafted).unwrap();
    engine.set_variant(xiangqi_search::ENGINE_VARIANT.parse::<VariantConfig>().unwrap());
    engine.set_params(params);
    engine.set_hash(xiangqi_search::DEFAULT_HASH_MB).unwrap();
    engine.set_threads(1).unwrap();
    engine.new_game();
    let pos = Position::from_fen(FEN).unwrap();
    engine.search(&pos, &Limits { depth: Some(DEPTH), iterative: true, ..Limits::default() }).stats.nodes()
}

/// The nodes of the last `info depth` line before `bestmove` of a UCI engine given `setup` commands.
fn uci_nodes(args: &[&str], setup: &[String]) -> u64 {
    let mut engine = engine_process::Engine::start_with(args);
    engine.send("uci");
    engine.until(Duration::from_secs(10), |l| l == "uciok");
    engine.send("setoption name Use NNUE value false");
    for line in setup {
        engine.send(line);
    }
    engine.send(&format!("position fen {FEN}"));
    engine.ready();
    engine.send(&format!("go depth {DEPTH}"));
    let (lines, _) = engine.bestmove(Duration::from_secs(120));
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let last = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("an info line");
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").expect("nodes in the info line");
    words[at + 1].parse().unwrap()
}

fn json_nodes(args: &[&str]) -> u64 {
    let out = Command::new(XQ).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["nodes"].as_u64().expect("a node count")
}

#[test]
fn setoption_of_each_parameter_changes_the_search_as_the_library_does() {
    let (default, tuned) = (library_nodes(Params::default()), library_nodes(tuned()));
    assert_ne!(default, tuned, "the tuned values change the library's search");
    assert_eq!(uci_nodes(&["uci"], &[]), default, "UCI with the defaults");
    let setup: Vec<String> = TUNED.iter().map(|(n, v)| format!("setoption name {n} value {v}")).collect();
    assert_eq!(uci_nodes(&["uci"], &setup), tuned, "UCI after setoption, as xiangqi tune sets its engines");
}

#[test]
fn uci_params_file_changes_the_search_as_the_library_does() {
    let file = params_file("uci");
    let tuned = library_nodes(tuned());
    assert_ne!(tuned, library_nodes(Params::default()));
    assert_eq!(uci_nodes(&["uci", "--params", file.to_str().unwrap()], &[]), tuned);
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn search_params_file_changes_the_search_as_the_library_does() {
    let file = params_file("search");
    let depth = DEPTH.to_string();
    let base = ["search", "--handcrafted", "--json", "--depth", depth.as_str(), "--fen", FEN];
    let default = library_nodes(Params::default());
    let tuned = library_nodes(tuned());
    assert_ne!(tuned, default);
    assert_eq!(json_nodes(&base), default);
    assert_eq!(json_nodes(&[&base[..], &["--params", file.to_str().unwrap()]].concat()), tuned);
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn bench_params_file_changes_the_search_as_the_library_does() {
    let file = params_file("bench");
    let depth = 4;
    let library = |params: &Params| {
        let variant: VariantConfig = xiangqi_search::ENGINE_VARIANT.parse().unwrap();
        let make_eval = |p: &Position| EvalChoice::Handcrafted.for_search(p);
        bench_with_params(&variant, params, depth, 16, 1, make_eval).unwrap().total
    };
    let (default, tuned) = (library(&Params::default()), library(&tuned()));
    assert_ne!(tuned, default);
    let base = ["bench", "--handcrafted", "--json", "--depth", "4", "--threads", "1", "--hash", "16"];
    assert_eq!(json_nodes(&base), default);
    assert_eq!(json_nodes(&[&base[..], &["--params", file.to_str().unwrap()]].concat()), tuned);
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}
