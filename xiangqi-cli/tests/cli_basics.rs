//! The `xiangqi` binary driven as a user would: perft, moves, show, and bad input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn xiangqi(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn perft_json_counts_and_divides() {
    let o = xiangqi(&["perft", "--depth", "3", "--json", "--divide", "--threads", "2"], None);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["nodes"], 79_666);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert!(v["nps"].is_u64());
    let divide = v["divide"].as_object().unwrap();
    assert_eq!(divide.len(), 44);
    assert_eq!(divide.values().map(|n| n.as_u64().unwrap()).sum::<u64>(), 79_666);
    assert!(divide.contains_key("h2e2"));
}

#[test]
fn perft_text_and_no_bulk_agree() {
    let fen = "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1";
    for extra in [None, Some("--no-bulk")] {
        let mut args = vec!["perft", "--fen", fen, "--depth", "3"];
        args.extend(extra);
        let o = xiangqi(&args, None);
        assert!(stdout(&o).contains("nodes 9850"), "{}", stdout(&o));
    }
}

#[test]
fn moves_lists_legal_moves() {
    let o = xiangqi(&["moves"], None);
    let line = stdout(&o);
    let moves: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(moves.len(), 44);
    assert!(moves.contains(&"h2e2") && moves.contains(&"b0c2"));
}

#[test]
fn moves_stdin_reports_bad_lines_and_goes_on() {
    let input = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\nnot a fen\n4k4/9/9/9/9/9/9/9/4R4/3K5 b\n";
    let o = xiangqi(&["moves", "--stdin"], Some(input));
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].split_whitespace().count(), 44);
    assert!(lines[1].starts_with("error: "), "{}", lines[1]);
    assert_eq!(lines[2], "e9f9");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let o = xiangqi(&["moves", "--fen", "rnbakabnr/9 w"], None);
    assert!(!o.status.success());
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    assert!(err.starts_with("error: ") && err.contains("10 ranks"), "{err}");
    for args in [&["perft", "--depth", "0"][..], &["perft", "--depth", "x"], &["perft", "--bogus"], &["nope"]] {
        let o = xiangqi(args, None);
        assert!(!o.status.success(), "{args:?}");
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    }
}

#[test]
fn show_draws_the_board() {
    let o = xiangqi(&["show", "--fen", "4k4/9/9/9/9/9/9/9/4R4/3K5 b"], None);
    let out = stdout(&o);
    assert!(out.contains("a b c d e f g h i"));
    assert!(out.contains("black is in check"));
}
