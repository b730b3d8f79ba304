//! The neural evaluation in the UCI loop and on the command line: options `EvalFile` and `Use NNUE`, a bad network
//! file refused with the evaluator kept, and `--nnue FILE` for `eval`, `search` and `bench`.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;
use xiangqi_core::Position;
use xiangqi_eval::nnue::Network;
use xiangqi_eval::Evaluate;

#[path = "support/engine_process.rs"]
mod engine_process;
use engine_process::Engine;

/// A random network written to a temporary file.
fn net_file(name: &str, net: &Network) -> PathBuf {
    let path = std::env::temp_dir().join(format!("xiangqi-cli-{}-{name}.nnue", std::process::id()));
    std::fs::write(&path, net.to_bytes()).unwrap();
    path
}

fn nnue_line(e: &mut Engine) -> Option<String> {
    e.send("eval");
    e.send("isready");
    let lines = e.until(Duration::from_secs(10), |l| l == "readyok");
    lines.into_iter().find(|l| l.starts_with("NNUE evaluation:"))
}

#[test]
fn eval_file_and_use_nnue() {
    let net = Network::random(32, 21);
    let good = net_file("good", &net);
    let mut bytes = net.to_bytes();
    bytes.truncate(bytes.len() - 10);
    let truncated = std::env::temp_dir().join(format!("xiangqi-cli-{}-truncated.nnue", std::process::id()));
    std::fs::write(&truncated, &bytes).unwrap();

    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(Duration::from_secs(5), |l| l == "uciok");
    for opt in ["Use NNUE", "EvalFile"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {opt} type"))), "{opt} in {lines:?}");
    }
    // On by default, with the built-in network.
    let builtin = xiangqi_eval::embedded_network();
    let builtin_line = format!("NNUE evaluation: {:+} for red", builtin.evaluate(&Position::startpos()));
    assert!(lines.iter().any(|l| l == "option name Use NNUE type check default true"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "option name EvalFile type string default <embedded>"), "{lines:?}");
    assert!(nnue_line(&mut e).unwrap().starts_with(&builtin_line));
    e.send("setoption name EvalFile value /no/such/file.nnue");
    let lines = e.until(Duration::from_secs(5), |l| l.contains("not found"));
    assert!(lines.last().unwrap().starts_with("info string error"), "{lines:?}");
    assert!(nnue_line(&mut e).unwrap().starts_with(&builtin_line), "a missing file leaves the network as it was");
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    e.until(Duration::from_secs(5), |l| l.starts_with("info string loaded network"));
    let expected = format!("NNUE evaluation: {:+} for red", net.evaluate(&Position::startpos()));
    assert!(nnue_line(&mut e).unwrap().starts_with(&expected));
    // A truncated file is refused, and the network loaded before stays.
    e.send(&format!("setoption name EvalFile value {}", truncated.display()));
    let lines = e.until(Duration::from_secs(5), |l| l.contains("truncated"));
    assert!(lines.last().unwrap().contains("unchanged"), "{lines:?}");
    assert!(nnue_line(&mut e).unwrap().starts_with(&expected));
    // Searches run with it and play legal moves.
    e.send("position startpos moves h2e2");
    e.send("go depth 4");
    let (_, best) = e.bestmove(Duration::from_secs(60));
    let mut pos = Position::startpos();
    pos.play("h2e2").unwrap();
    assert!(pos.parse_move(&best).is_ok(), "{best}");
    // Off: the handcrafted evaluator.
    e.send("setoption name Use NNUE value false");
    assert_eq!(nnue_line(&mut e), None);
    // On again, and back to the built-in network by its name.
    e.send("setoption name Use NNUE value true");
    e.send("setoption name EvalFile value <embedded>");
    e.send("position startpos");
    assert!(nnue_line(&mut e).unwrap().starts_with(&builtin_line));
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
    let _ = std::fs::remove_file(&good);
    let _ = std::fs::remove_file(&truncated);
}

#[test]
fn command_line_nnue_flag() {
    let net = Network::random(32, 22);
    let path = net_file("cli", &net);
    let xiangqi = env!("CARGO_BIN_EXE_xiangqi");
    let fen = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
    let out = Command::new(xiangqi).args(["eval", "--json", "--fen", fen, "--nnue"]).arg(&path).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let expected = net.evaluate(&Position::from_fen(fen).unwrap());
    assert_eq!(v["total"], expected);
    assert_eq!(v["total_red"], -expected);

    let out = Command::new(xiangqi)
        .args(["search", "--variant", "engine", "--depth", "4", "--json", "--nnue"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(Position::startpos().parse_move(v["best_move"].as_str().unwrap()).is_ok());

    let out = Command::new(xiangqi).args(["bench", "--depth", "3", "--json", "--nnue"]).arg(&path).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["eval"].as_str().unwrap().starts_with("nnue (hidden 32"), "{v}");

    // Without a flag, `eval` shows the handcrafted breakdown and the built-in network's total.
    let out = Command::new(xiangqi).args(["eval", "--json", "--fen", fen]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let builtin = xiangqi_eval::embedded_network().evaluate(&Position::from_fen(fen).unwrap());
    assert_eq!(v["network"]["total"], builtin, "{v}");
    assert!(v["terms"].is_object(), "{v}");

    // A bad file is an error naming what is wrong, not a panic.
    let out = Command::new(xiangqi).args(["eval", "--nnue", "/no/such/net.nnue"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not found"));
    let _ = std::fs::remove_file(&path);
}
