//! `xiangqi tune` through the binary: a run stopped after one iteration and started again ends with the state of
//! an uninterrupted run, writes the tuned values as a parameter file the engine reads, and draws the chart; bad
//! flags and another run's state are usage errors; `--params FILE` of `bench` refuses a bad file by name.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const XQ: &str = env!("CARGO_BIN_EXE_xiangqi");

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn xq(args: &[&str]) -> Output {
    Command::new(XQ).args(args).output().expect("the binary runs")
}

fn state(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The flags of the tiny run: two iterations of one game pair at 300 nodes a move.
const RUN: &[&str] = &["tune", "--params", "RazorMargin,LmrDivisor", "--iterations", "2", "--nodes", "300"];

#[test]
fn a_stopped_run_resumes_and_writes_the_values_and_the_chart() {
    let dir = temp_dir("resume");
    let (split, whole) = (dir.join("split.json"), dir.join("whole.json"));
    let (out, svg) = (dir.join("tuned.params"), dir.join("tune.svg"));
    let p = |path: &Path| path.to_str().unwrap().to_owned();
    // One iteration, then the rest.
    let first = xq(&[RUN, &["--state", &p(&split), "--max-iterations", "1"]].concat());
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let after_one = state(&split);
    assert_eq!(after_one["iteration"], 1);
    assert_eq!(after_one["history"].as_array().unwrap().len(), 2);
    assert_eq!(after_one["results"].as_array().unwrap().len(), 1);
    assert!(!dir.join("split.json.tmp").exists(), "the state is renamed into place");
    let second = xq(&[RUN, &["--state", &p(&split), "--out", &p(&out), "--svg", &p(&svg)]].concat());
    assert!(second.status.success(), "{}", String::from_utf8_lossy(&second.stderr));
    assert!(String::from_utf8_lossy(&second.stderr).contains("resuming at iteration 2 of 2"));
    // An uninterrupted run from the same seed (fixed nodes: deterministic games) ends in the same state.
    let third = xq(&[RUN, &["--state", &p(&whole)]].concat());
    assert!(third.status.success(), "{}", String::from_utf8_lossy(&third.stderr));
    let (resumed, uninterrupted) = (state(&split), state(&whole));
    assert_eq!(resumed["iteration"], 2);
    assert_eq!(resumed["history"][1], after_one["history"][1]);
    for key in ["theta", "history", "results"] {
        assert_eq!(resumed[key], uninterrupted[key], "{key}");
    }
    // The values file holds theta rounded, and the engine reads it.
    let text = std::fs::read_to_string(&out).unwrap();
    let theta = resumed["theta"].as_array().unwrap();
    for (name, t) in ["RazorMargin", "LmrDivisor"].iter().zip(theta) {
        let line = format!("{name} = {}", t.as_f64().unwrap().round() as i64);
        assert!(text.lines().any(|l| l == line), "{line} in {text}");
    }
    let searched = xq(&["search", "--depth", "3", "--params", &p(&out)]);
    assert!(searched.status.success(), "{}", String::from_utf8_lossy(&searched.stderr));
    // The chart: one panel per parameter, each named.
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.starts_with("<svg") && chart.contains("RazorMargin") && chart.contains("LmrDivisor"));
    // --report writes the same file again without playing.
    std::fs::remove_file(&out).unwrap();
    let report = xq(&["tune", "--report", "--state", &p(&split), "--out", &p(&out)]);
    assert!(report.status.success(), "{}", String::from_utf8_lossy(&report.stderr));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    // The same state with other settings is another run's: refused, the state untouched.
    let other = xq(&["tune", "--params", "RazorMargin", "--iterations", "2", "--nodes", "300", "--state", &p(&split)]);
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("--params: the state has RazorMargin,LmrDivisor"));
    assert_eq!(state(&split), resumed);
    assert!(resumed["variant"].as_str().unwrap().ends_with("+engine"), "{}", resumed["variant"]);
    let other = xq(&[RUN, &["--variant", "engine+conthist", "--state", &p(&split)]].concat());
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("+engine, not negamax-ab+pvs+nmp+qs+order+engine+conthist"));
    assert_eq!(state(&split), resumed);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_flags_are_usage_errors() {
    for (args, says) in [
        (&["tune", "--nodes", "100", "--params", "NoSuch"][..], "--params NoSuch: no such parameter"),
        (&["tune", "--params", "RazorMargin"][..], "give --nodes N or --movetime MS"),
        (&["tune", "--nodes", "100", "--movetime", "10"][..], "not both"),
        (&["tune", "--nodes", "100", "--iterations", "0"][..], "for --iterations: iterations must be at least 1"),
        (&["tune", "--report"][..], "--report needs --state"),
        (&["tune", "--nodes", "100", "--params", "RazorMargin,razormargin"][..], "named twice"),
        (&["tune", "--nodes", "100", "--variant", "engine+nosuch"][..], "--variant engine+nosuch:"),
    ] {
        let out = xq(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn a_bad_parameter_file_is_refused_by_name() {
    let dir = temp_dir("bad");
    let file = dir.join("bad.params");
    for (text, says) in [
        ("RazorMargin = 99999\n", "line 1: parameter RazorMargin: 99999 is out of range 0..=1000"),
        ("# ok\nNoSuch = 3\n", "line 2: unknown parameter \"NoSuch\""),
        ("RfpMargin = ten\n", "line 1: parameter RfpMargin: \"ten\" is not a whole number"),
    ] {
        std::fs::write(&file, text).unwrap();
        let out = xq(&["bench", "--depth", "1", "--params", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("bad.params") && err.contains(says), "{text}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
