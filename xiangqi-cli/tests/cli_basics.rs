//! The `xiangqi` binary driven as a user would: perft, moves, show, compare, variants, and bad input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn xiangqi(args: &[&str], stdin: Option<&str>) -> Output {
    xiangqi_bytes(args, stdin.map(str::as_bytes))
}

/// [`xiangqi`] with standard input given as bytes (which need not be UTF-8).
fn xiangqi_bytes(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
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
    assert_eq!((v["depth"].as_u64(), v["threads"].as_u64(), v["bulk"].as_bool()), (Some(3), Some(2), Some(true)));
    // Time is measured, so never exactly zero, and nps is the node count over it, rounded down.
    let seconds = v["seconds"].as_f64().unwrap();
    assert!(seconds > 0.0, "{v}");
    let nps = v["nps"].as_u64().unwrap();
    assert!((nps as f64 - 79_666.0 / seconds).abs() <= 1.0, "{v}");
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
    // Every line is answered, and the exit code says that one was bad.
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].split_whitespace().count(), 44);
    assert!(lines[1].starts_with("error: "), "{}", lines[1]);
    assert_eq!(lines[2], "e9f9");
}

#[test]
fn moves_stdin_reports_a_line_that_is_not_utf8_and_goes_on() {
    let mut input = b"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n".to_vec();
    input.extend_from_slice(b"4k4/9/9/9/9/9/9/9/4R4/3K5 \xff\xfe b\n");
    input.extend_from_slice(b"4k4/9/9/9/9/9/9/9/4R4/3K5 b\n");
    let o = xiangqi_bytes(&["moves", "--stdin"], Some(&input));
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0].split_whitespace().count(), 44);
    assert!(lines[1].starts_with("error: ") && lines[1].contains("UTF-8"), "{}", lines[1]);
    assert_eq!(lines[2], "e9f9");
}

#[test]
fn moves_stdin_with_only_good_lines_succeeds() {
    let o = xiangqi(&["moves", "--stdin"], Some("4k4/9/9/9/9/9/9/9/4R4/3K5 b\n\n"));
    // An empty line is a bad FEN like any other.
    assert_eq!(o.status.code(), Some(1));
    let o = xiangqi(&["moves", "--stdin"], Some("4k4/9/9/9/9/9/9/9/4R4/3K5 b\n"));
    assert!(o.status.success());
    assert_eq!(stdout(&o), "e9f9\n");
}

/// A reader that goes away (`xiangqi perft --divide | head -2`) ends the command quietly and successfully.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    for args in [
        &["perft", "--depth", "3", "--divide"][..],
        &["moves"],
        &["show"],
        &["eval"],
        &["eval", "--json"],
        &["search", "--depth", "2"],
        &["search", "--list"],
        &["compare", "--depth", "1", "--variants", "minimax"],
        &["bench", "--depth", "1"],
        &["game", "--moves", "h2e2"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before the command writes anything.
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{args:?}: {:?} {err}", o.status);
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

#[test]
fn help_gives_each_default_once() {
    for cmd in ["perft", "moves", "show", "eval", "game", "search", "compare", "tree"] {
        let o = xiangqi(&[cmd, "--help"], None);
        let help = stdout(&o);
        assert!(help.contains("(default: the start position)"), "{cmd}: {help}");
        assert!(!help.contains("rnbakabnr"), "{cmd} prints the start FEN besides saying it is the default: {help}");
    }
}

#[test]
fn range_errors_say_what_is_allowed() {
    for (args, want) in [
        (&["perft", "--depth", "0"][..], "depth must be at least 1"),
        (&["perft", "--depth", "-1"], "depth must be positive (from 1 to 12)"),
        (&["perft", "--depth", "13"], "depth must be at most 12"),
        (&["perft", "--threads", "0"], "threads must be at least 1"),
        (&["search", "--nodes", "0"], "nodes must be at least 1"),
        (&["search", "--movetime", "-5"], "movetime must be positive"),
        (&["search", "--depth", "x"], "depth must be a whole number from 1 to 120"),
        // Every search depth has the one limit, xiangqi_search::MAX_DEPTH.
        (&["search", "--depth", "121"], "invalid value '121' for --depth: depth must be at most 120"),
        (&["compare", "--depth", "121"], "invalid value '121' for --depth: depth must be at most 120"),
        (&["tree", "--depth", "121"], "invalid value '121' for --depth: depth must be at most 120"),
        (&["bench", "--depth", "121"], "invalid value '121' for --depth: depth must be at most 120"),
        (&["analyze", "game.pgn", "--depth", "121"], "invalid value '121' for --depth: depth must be at most 120"),
        (
            &["match", "--engine", "cmd=x", "--depth", "121"],
            "invalid value '121' for --depth: depth must be at most 120",
        ),
        (&["bench", "--hash", "0"], "hash must be at least 1"),
        (&["tree", "--max-nodes", "0", "--out", "x.dot"], "max nodes must be at least 1"),
    ] {
        let o = xiangqi(args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("18446744073709551615") && !err.contains("panicked"), "{args:?}: {err}");
    }
}

/// `show` and UCI's `d` label the FEN and the key alike.
#[test]
fn show_and_uci_d_agree() {
    let fen = "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1";
    let show = stdout(&xiangqi(&["show", "--fen", fen], None));
    let d = stdout(&xiangqi(&[], Some(&format!("position fen {fen}\nd\nquit\n"))));
    let labelled =
        |text: &str| -> Vec<String> { text.lines().filter(|l| l.contains(": ")).map(str::to_owned).collect() };
    assert_eq!(labelled(&show), labelled(&d));
    assert!(show.contains(&format!("Fen: {fen}")), "{show}");
    assert!(show.lines().any(|l| l.starts_with("Key: ") && l.len() == 21), "{show}");
}

/// The node counts add up, under the same names in the text and the JSON of `search`, for every preset:
/// nodes = main + quiescence, main = interior + leaves, and nodes per second are counted over all nodes.
#[test]
fn search_node_counts_add_up_for_every_preset() {
    for preset in
        ["minimax", "alphabeta", "negamax", "negamax-ab", "negamax-ab-hard", "pvs", "nmp", "qs", "pvs+nmp+qs", "engine"]
    {
        let o = xiangqi(&["search", "--variant", preset, "--depth", "3", "--json"], None);
        assert!(o.status.success(), "{preset}: {}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let s = &v["stats"];
        let n = |k: &str| s[k].as_u64().unwrap_or_else(|| panic!("{preset}: no {k} in {s}"));
        assert_eq!(v["nodes"].as_u64(), Some(n("nodes")), "{preset}");
        assert_eq!(n("nodes"), n("main_nodes") + n("quiescence_nodes"), "{preset}: {s}");
        assert_eq!(n("main_nodes"), n("interior_nodes") + n("leaf_nodes"), "{preset}: {s}");
        assert!(n("leaf_nodes") <= n("nodes") && n("leaf_nodes") > 0, "{preset}: {s}");
        let nps = s["nps"].as_u64().unwrap() as f64;
        let seconds = s["seconds"].as_f64().unwrap();
        assert!((nps - n("nodes") as f64 / seconds).abs() <= 1.0, "{preset}: {s}");
        if preset.contains("qs") || preset == "engine" {
            assert!(n("quiescence_nodes") > 0, "{preset}: {s}");
        }
        // The text form says the same.
        let o = xiangqi(&["search", "--variant", preset, "--depth", "3"], None);
        let text = stdout(&o);
        let line = text.lines().find(|l| l.starts_with("nodes ")).unwrap();
        let numbers: Vec<u64> =
            line.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).map(|w| w.parse().unwrap()).collect();
        let [total, main, interior, leaves, quiescence] = numbers[..] else { panic!("{line}") };
        assert_eq!((total, main), (main + quiescence, interior + leaves), "{preset}: {line}");
        if preset != "engine" {
            // One thread at a fixed depth: the same search both times.
            assert_eq!((total, leaves), (n("nodes"), n("leaf_nodes")), "{preset}: {line}");
        }
    }
}

#[test]
fn compare_with_no_variant_is_an_error() {
    for list in [",", " , ,", ""] {
        let o = xiangqi(&["compare", "--depth", "1", "--variants", list], None);
        // A command-line error: clap's usage error (exit code 2).
        assert_eq!(o.status.code(), Some(2), "{list:?}");
        assert!(o.stdout.is_empty(), "{list:?}: {}", stdout(&o));
        let err = String::from_utf8(o.stderr.clone()).unwrap();
        assert!(err.starts_with("error: --variants names no variant"), "{list:?}: {err}");
    }
    // One name among the commas is enough.
    let o = xiangqi(&["compare", "--depth", "1", "--variants", ",minimax,", "--json"], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let rows = v["variants"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["variant"], "minimax");
    // Depth 1 from the start: minimax visits the root and its 44 children.
    assert_eq!(rows[0]["nodes"], 45);
}

#[test]
fn variant_switches_are_listed_and_need_the_engine() {
    let o = xiangqi(&["search", "--list"], None);
    assert!(o.status.success());
    let list = stdout(&o);
    for switch in ["no-nmp", "no-order", "no-pvs", "no-qs", "no-tt", "no-qsee"] {
        assert!(list.contains(switch), "{switch} is not listed:\n{list}");
    }
    let o = xiangqi(&["search", "--depth", "1", "--variant", "negamax-ab+no-tt"], None);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    assert!(err.contains("\"no-tt\" needs the engine part") && err.contains("engine+no-tt"), "{err}");
    let o = xiangqi(&["search", "--depth", "1", "--variant", "engine+no-tt", "--json"], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["variant"], "negamax-ab+pvs+nmp+qs+order+engine+no-tt");
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
    assert!(out.contains("Fen: 4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1"), "{out}");
}

/// A `--hash` the machine cannot give (here a 2 GB address-space limit against a 4 GB table) is an error, not an
/// abort.
#[test]
fn a_table_the_machine_cannot_give_is_an_error() {
    for args in ["bench --depth 1 --hash 4096", "search --variant engine --depth 2 --hash 4096"] {
        let script = format!("ulimit -v 2000000 && exec {} {args}", env!("CARGO_BIN_EXE_xiangqi"));
        let out = Command::new("sh").args(["-c", &script]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args}: {stderr}");
        assert!(stderr.contains("cannot allocate 4096 MB for the transposition table"), "{args}: {stderr}");
    }
}

/// Every technique reaches the commands that take a variant: the engine's additions added to a textbook search, and
/// taken from the engine, in `compare`, `search` and `tree`, and listed by `search --list`.
#[test]
fn the_commands_take_every_technique() {
    let list = stdout(&xiangqi(&["search", "--list"], None));
    for part in ["tt", "lmr", "futility", "rfp", "razor", "checkext", "rules", "aspiration", "qsprune", "verified"] {
        assert!(list.contains(part), "{part} is not listed:\n{list}");
    }
    let variants = "pvs,pvs+tt,negamax-ab+order+lmr,negamax-ab+qs+qsprune,engine+no-lmr,alphabeta-hard";
    let o = xiangqi(&["compare", "--depth", "3", "--variants", variants, "--json"], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let rows = v["variants"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    // The table keeps PVS's score at a fixed depth, with fewer nodes.
    assert_eq!(rows[0]["score"], rows[1]["score"]);
    assert!(rows[1]["nodes"].as_u64() < rows[0]["nodes"].as_u64(), "{}", v);
    let o = xiangqi(&["search", "--variant", "negamax+checkext+tt", "--depth", "3", "--json"], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dir = std::env::temp_dir().join(format!("xiangqi-tree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("t.dot");
    let o = xiangqi(&["tree", "--depth", "2", "--variant", "pvs+tt+rfp", "--out", out.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("digraph"));
    let _ = std::fs::remove_dir_all(&dir);
    // What makes no sense is refused with a reason.
    let o = xiangqi(&["compare", "--depth", "2", "--variants", "alphabeta+lmr"], None);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("written for the negamax node"));
    // The table joins the two-sided form too.
    let o = xiangqi(&["compare", "--depth", "4", "--variants", "alphabeta,alphabeta+tt", "--json"], None);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let rows = v["variants"].as_array().unwrap();
    assert_eq!(rows[0]["score"], rows[1]["score"]);
    assert!(rows[1]["nodes"].as_u64() < rows[0]["nodes"].as_u64(), "{}", v);
}

/// A rule book's setup (a soldier on a point it can never reach) is refused by default with a hint, and loads with
/// `--lenient`.
#[test]
fn game_loads_a_rule_book_setup_when_lenient() {
    let fen = "4k4/9/9/9/9/9/9/9/9/3KP4 w";
    let o = xiangqi(&["game", "--fen", fen, "--moves", "d0d1"], None);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--lenient"), "{}", String::from_utf8_lossy(&o.stderr));
    let o = xiangqi(&["game", "--fen", fen, "--moves", "d0d1", "--lenient", "--json"], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["result"], "ongoing");
}

/// `search` plays the engine unless told otherwise, and says what it searched with: the variant as asked with its
/// canonical form, and the evaluator (in the text and in the JSON).
#[test]
fn search_defaults_to_the_engine_and_names_variant_and_evaluator() {
    let v = |args: &[&str]| -> serde_json::Value {
        let o = xiangqi(args, None);
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_str(&stdout(&o)).unwrap()
    };
    let default = v(&["search", "--depth", "3", "--json"]);
    let engine = v(&["search", "--depth", "3", "--json", "--variant", "engine"]);
    assert_eq!(default["variant_asked"], "engine");
    assert_eq!(default["variant"], engine["variant"]);
    assert_eq!((&default["nodes"], &default["best_move"]), (&engine["nodes"], &engine["best_move"]));
    assert!(default["eval"].as_str().unwrap().starts_with("nnue (hidden "), "{default}");
    let plain = v(&["search", "--depth", "3", "--json", "--variant", "pvs+nmp+qs+order", "--handcrafted"]);
    assert_eq!(
        (&plain["variant"], &plain["variant_asked"]),
        (&"negamax-ab+pvs+nmp+qs+order".into(), &"pvs+nmp+qs+order".into())
    );
    assert_eq!(plain["eval"], "handcrafted");
    let text = stdout(&xiangqi(&["search", "--depth", "2", "--handcrafted"], None));
    let canonical = engine["variant"].as_str().unwrap();
    assert!(text.lines().any(|l| l == format!("variant            engine ({canonical})")), "{text}");
    assert!(text.lines().any(|l| l == "evaluator          handcrafted"), "{text}");
}

/// The crate doc's rule for errors: what is wrong in the command line, whether clap or the command finds it, is
/// reported as clap reports it (`error: ...`, the usage, the hint to `--help`; exit code 2); what goes wrong while
/// running is one line `error: ...` (exit code 1).
#[test]
fn errors_follow_one_rule() {
    for (args, usage, want) in [
        (&["perft", "--depth", "0"][..], "xiangqi perft", "invalid value '0' for --depth: depth must be at least 1"),
        (&["perft", "--bogus"], "xiangqi perft", "unexpected argument '--bogus'"),
        (&["perft", "--fen", "rnbakabnr/9 w"], "xiangqi perft", "invalid value 'rnbakabnr/9 w' for --fen: "),
        (&["show", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w"], "xiangqi show", "invalid value '4k4/9/9/9/9/9/9/9/9/4K4 w'"),
        (&["bench", "--variant", "bogus"], "xiangqi bench", "invalid value 'bogus' for --variant: "),
        (&["game", "--moves", "h2e2 h9g7 e2e9"], "xiangqi game", "for --moves: ply 3: illegal move e2e9"),
        (&["game", "--fen", "4k4/9/9/9/9/9/9/9/9/3KP4 w"], "xiangqi game", "(--lenient loads the setups"),
        (&["convert", "in.pgn"], "xiangqi convert", "the following required arguments were not provided"),
    ] {
        let o = xiangqi(args, None);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o));
        assert!(err.starts_with("error: ") && err.contains(want), "{args:?}: {err}");
        assert!(err.contains(&format!("Usage: {usage}")), "{args:?}: {err}");
        assert!(err.ends_with("\n\nFor more information, try '--help'.\n"), "{args:?}: {err}");
    }
    let missing = std::env::temp_dir().join(format!("xiangqi-no-such-file-{}.pgn", std::process::id()));
    let missing = missing.to_str().unwrap();
    for (args, want) in [
        (vec!["game", "--pgn", missing], format!("error: cannot read {missing}: ")),
        (vec!["convert", missing, "-"], format!("error: cannot read {missing}: ")),
        (vec!["eval", "--nnue", missing], "error: ".to_string()),
    ] {
        let o = xiangqi(&args, None);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.starts_with(&want), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(!err.contains("--help") && !err.contains("Usage"), "{args:?}: {err}");
    }
}
