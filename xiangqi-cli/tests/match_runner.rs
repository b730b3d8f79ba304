//! `xiangqi match` through the binary: a short self-play match between two variants whose record `xiangqi game
//! --pgn` replays to the results and reasons it claims, fake engines (shell scripts) that play an illegal move,
//! crash or hang and lose by that reason without stopping the match, a `nobestmove` counted as a claimed draw (or a
//! forfeit when asked), UCCI on both sides, and bad input refused before any game.
//!
//! No test depends on how fast the machine is: games are played at fixed node counts, and the one limit that is a
//! time (an engine that never answers) is tens of times what the answers take.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use xiangqi_core::record::{read_pgn, GameRecord, ReadOptions};

#[path = "../../xiangqi-search/tests/support/time_scale.rs"]
mod time_scale;

const XQ: &str = env!("CARGO_BIN_EXE_xiangqi");

/// The reasons the rules end a game by.
const RULES: [&str; 7] = [
    "checkmate",
    "stalemate",
    "perpetual-check",
    "perpetual-chase",
    "repetition",
    "move-limit",
    "insufficient-material",
];

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fake engine: a shell script that answers the handshake of UCI (`uci`) or UCCI (`ucci`), keeps the last
/// `position` line in `$pos` and does `on_go` when told `go`.
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok ;;\n    \
         ucci) echo 'id name {name}'; echo ucciok ;;\n    \
         isready) echo readyok ;;\n    position*) pos=\"$line\" ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\n\
         done\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_string_lossy().into_owned()
}

fn run(args: &[&str]) -> Output {
    Command::new(XQ).arg("match").args(args).output().unwrap()
}

/// [`run`], killed and failed when it takes longer than `limit`: a runner that waited on a hung engine forever
/// would otherwise hang the test.
fn run_within(args: &[&str], limit: Duration) -> Output {
    let dir = std::env::temp_dir().join(format!("xiangqi-match-within-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out_path, err_path) = (dir.join("stdout"), dir.join("stderr"));
    let mut child = Command::new(XQ)
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("xiangqi match {args:?} still running after {limit:?}: killed");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = Output { status, stdout: std::fs::read(&out_path).unwrap(), stderr: std::fs::read(&err_path).unwrap() };
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// The runner's `--timeout` for engines that answer (this binary at 500 nodes a move, or a fake that answers at
/// once): far above what they take, times `XIANGQI_TEST_TIME_SCALE`.
fn answer_timeout() -> String {
    format!("{}", (60.0 * time_scale::factor()).ceil())
}

/// The JSON summary: the last line of standard output.
fn summary(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

/// The games of a PGN file, read by `xiangqi_core::record` (every one must read).
fn records(pgn: &Path) -> Vec<GameRecord> {
    let file = read_pgn(&std::fs::read(pgn).unwrap(), &ReadOptions::default());
    file.games.into_iter().map(|g| g.unwrap_or_else(|e| panic!("{}: {e}", pgn.display()))).collect()
}

/// The value of a record's tag.
fn tag<'a>(record: &'a GameRecord, name: &str) -> &'a str {
    record.tag(name).unwrap_or_else(|| panic!("no {name} tag"))
}

/// `xiangqi game --pgn FILE --json`: the referee's judgement of every game of the file, which it must read and
/// replay without an error.
fn judged(pgn: &Path) -> Vec<serde_json::Value> {
    let out = Command::new(XQ).args(["game", "--json", "--pgn"]).arg(pgn).output().unwrap();
    assert!(out.status.success(), "{}: {}", pgn.display(), String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The referee's word (`xiangqi game`) for a PGN result.
fn result_word(result: &str) -> &'static str {
    match result {
        "1-0" => "red",
        "0-1" => "black",
        "1/2-1/2" => "draw",
        other => panic!("result {other:?}"),
    }
}

#[test]
fn self_play_match_ends_by_rules_and_replays() {
    let dir = temp_dir("selfplay");
    let pgn = dir.join("games.pgn");
    let out = run(&[
        "--engine",
        &format!("cmd={XQ}"),
        "name=engine",
        "--engine",
        &format!("cmd={XQ}"),
        "name=no-lmr",
        "option.Variant=engine+no-lmr",
        "--nodes",
        "1500",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
    ]);
    let s = summary(&out);
    let (w, d, l) = (s["wins"].as_u64().unwrap(), s["draws"].as_u64().unwrap(), s["losses"].as_u64().unwrap());
    assert_eq!(s["games"], 4);
    assert_eq!(w + d + l, 4);
    let score = s["score"].as_f64().unwrap();
    assert!((score - (w as f64 + d as f64 / 2.0) / 4.0).abs() < 1e-12);
    let reasons = s["reasons"].as_object().unwrap();
    assert_eq!(reasons.values().map(|v| v.as_u64().unwrap()).sum::<u64>(), 4);
    for r in reasons.keys() {
        assert!(RULES.contains(&r.as_str()), "a game ended by {r}");
    }
    assert_eq!(s["pentanomial"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).sum::<u64>(), 2);
    let table = s["table"].as_array().unwrap();
    let points: f64 = table.iter().map(|e| e["points"].as_f64().unwrap()).sum();
    assert_eq!(points, 4.0);

    // The record: four games, each read by `xiangqi game --pgn` and replayed to the result and reason it claims.
    let games = records(&pgn);
    assert_eq!(games.len(), 4);
    let mut rounds: Vec<&str> = games.iter().map(|g| tag(g, "Round")).collect();
    rounds.sort();
    assert_eq!(rounds, ["1", "2", "3", "4"]);
    let referee = judged(&pgn);
    assert_eq!(referee.len(), 4);
    let mut first_points = 0.0;
    for (g, j) in games.iter().zip(&referee) {
        let round = tag(g, "Round");
        assert_eq!(j["tags"]["Round"], round);
        assert_eq!(j["recorded_result"], tag(g, "Result"), "round {round}: {j}");
        assert_eq!(j["result"], result_word(tag(g, "Result")), "round {round}: {j}");
        assert_eq!(j["reason"], tag(g, "Termination"), "round {round}: {j}");
        assert_eq!(j["unplayed"], 0, "round {round}: {j}");
        assert_eq!(j["plies"].to_string(), tag(g, "PlyCount"), "round {round}: {j}");
        assert_eq!(g.main_line().len().to_string(), tag(g, "PlyCount"));
        let moves: Vec<String> = g.main_line().iter().map(|m| m.to_string()).collect();
        assert!(moves.join(" ").starts_with(tag(g, "Opening")));
        let red_points = match tag(g, "Result") {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        first_points += if tag(g, "Red") == "engine" { red_points } else { 1.0 - red_points };
    }
    assert_eq!(first_points, w as f64 + d as f64 / 2.0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match of `engine` (this binary) against the fake `path` named `name`, at 500 nodes a move, with the flags
/// `extra`; the games go to `pgn`.
fn against_fake(path: &str, name: &str, pgn: &Path, extra: &[&str]) -> Output {
    let (ours, theirs, name) = (format!("cmd={XQ}"), format!("cmd={path}"), format!("name={name}"));
    let mut args = vec!["--engine", &ours, "name=engine", "--engine", &theirs, &name];
    args.extend(extra);
    args.extend(["--nodes", "500", "--pgn", pgn.to_str().unwrap()]);
    run(&args)
}

/// [`against_fake`] with `--json`: the summary.
fn against_fake_json(path: &str, name: &str, pgn: &Path, extra: &[&str]) -> serde_json::Value {
    summary(&against_fake(path, name, pgn, &[extra, &["--json"]].concat()))
}

/// The PGN file has `games` games, every one ended by `reason` (no rule of the game), and `xiangqi game --pgn`
/// reads and replays each one with its recorded result. Returns the results, in file order.
fn recorded(pgn: &Path, games: usize, reason: &str) -> Vec<String> {
    let records = records(pgn);
    assert_eq!(records.len(), games, "{}", pgn.display());
    let referee = judged(pgn);
    assert_eq!(referee.len(), games);
    for (g, j) in records.iter().zip(&referee) {
        assert_eq!(tag(g, "Termination"), reason, "{}", pgn.display());
        assert_eq!(j["recorded_result"], tag(g, "Result"), "{j}");
        // No rule ended the game: the referee says it goes on, after the moves the record has.
        assert_eq!(j["result"], "ongoing", "{j}");
        assert_eq!(j["plies"].to_string(), tag(g, "PlyCount"), "{j}");
    }
    records.iter().map(|g| tag(g, "Result").to_owned()).collect()
}

#[test]
fn illegal_moves_crashes_and_hangs_lose_without_stopping_the_match() {
    let dir = temp_dir("fakes");
    // e0e5 is never legal (a king moves one point); the crasher exits when asked to move; the mute one answers
    // `bestmove` without a move. None of them makes the runner wait: the timeout only guards against a hang.
    let cases = [
        (
            "illegal",
            fake_engine(&dir, "illegal", "echo 'info depth 1 score cp 5'; echo 'bestmove e0e5'"),
            "illegal-move",
        ),
        ("crash", fake_engine(&dir, "crash", "exit 3"), "crash"),
        ("mute", fake_engine(&dir, "mute", "echo bestmove"), "no-move"),
    ];
    for (name, path, reason) in cases {
        let pgn = dir.join(format!("{name}.pgn"));
        let s = against_fake_json(&path, name, &pgn, &["--timeout", &answer_timeout(), "--games", "4"]);
        assert_eq!((s["games"].as_u64(), s["wins"].as_u64()), (Some(4), Some(4)), "{name}: {s}");
        assert_eq!(s["reasons"][reason], 4, "{name}: {s}");
        assert_eq!(s["draw_claims"], 0, "{name}: {s}");
        // Black wins where the fake had Red, and the other way round.
        let mut results: Vec<String> =
            records(&pgn).iter().map(|g| format!("{} {}", tag(g, "Red"), tag(g, "Result"))).collect();
        results.sort();
        let mut expected =
            ["engine 1-0".to_owned(), "engine 1-0".to_owned(), format!("{name} 0-1"), format!("{name} 0-1")];
        expected.sort();
        assert_eq!(results, expected);
        recorded(&pgn, 4, reason);
        if name == "crash" {
            // Every game needed a new process.
            assert!(s["restarts"].as_u64().unwrap() >= 3, "{name}: {s}");
        }
    }
    // The sleeper never answers `go`: it loses on the runner's timeout, its own (5 s times the scale), which bounds
    // nothing else that waits (the handshakes and the 500-node moves of this binary take milliseconds). The match
    // itself must end well within the test's own limit, or the runner waited on the hung engine.
    let hang = fake_engine(&dir, "hang", ":");
    let pgn = dir.join("hang.pgn");
    let hang_timeout = 5.0 * time_scale::factor();
    let (ours, theirs) = (format!("cmd={XQ}"), format!("cmd={hang}"));
    let timeout = format!("{hang_timeout}");
    let args = ["--engine", &ours, "name=engine", "--engine", &theirs, "name=hang", "--timeout", &timeout]
        .into_iter()
        .chain(["--games", "2", "--nodes", "500", "--pgn", pgn.to_str().unwrap(), "--json"])
        .collect::<Vec<_>>();
    let limit = Duration::from_secs_f64(2.0 * hang_timeout + 60.0 * time_scale::factor());
    let s = summary(&run_within(&args, limit));
    assert_eq!((s["games"].as_u64(), s["wins"].as_u64()), (Some(2), Some(2)), "{s}");
    assert_eq!(s["reasons"]["timeout"], 2, "{s}");
    assert!(s["restarts"].as_u64().unwrap() >= 1, "{s}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// ElephantEye answers `nobestmove` in a position with legal moves when its own rules judge it drawn: a claimed
/// draw, counted as a draw unless `--nobestmove forfeit` is asked, and counted in the summary either way.
#[test]
fn a_nobestmove_in_a_live_position_is_a_claimed_draw() {
    let dir = temp_dir("claim");
    let claim = fake_engine(&dir, "claim", "echo 'info depth 1 score 0'; echo nobestmove");
    let pgn = dir.join("claims.pgn");
    let s = against_fake_json(&claim, "claim", &pgn, &["--games", "4"]);
    let wdl = |s: &serde_json::Value| (s["wins"].as_u64(), s["draws"].as_u64(), s["losses"].as_u64());
    assert_eq!(wdl(&s), (Some(0), Some(4), Some(0)), "{s}");
    assert_eq!((s["reasons"]["draw-claim"].as_u64(), s["draw_claims"].as_u64()), (Some(4), Some(4)), "{s}");
    assert_eq!(recorded(&pgn, 4, "draw-claim"), ["1/2-1/2"; 4]);
    // Standard error is not a terminal: a progress line after every tenth game (so a run in the background shows
    // its state in its log), and none between.
    let out = against_fake(&claim, "claim", &pgn, &["--games", "20", "--json"]);
    let log = String::from_utf8(out.stderr.clone()).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2, "{log}");
    assert!(lines[0].starts_with("[10/20] 10 games: engine vs others +0 =10 -0"), "{log}");
    assert!(lines[1].starts_with("[20/20] 20 games:"), "{log}");
    assert_eq!(summary(&out)["draws"], 20);
    // The same engine spoken to in UCCI, ElephantEye's protocol.
    let ucci = against_fake_json(&claim, "claim", &pgn, &["proto=ucci", "--games", "2"]);
    assert_eq!(wdl(&ucci), (Some(0), Some(2), Some(0)), "{ucci}");
    assert_eq!(ucci["draw_claims"], 2, "{ucci}");
    // As a forfeit: the claimer loses each game, and the claims are still counted.
    let s = against_fake_json(&claim, "claim", &pgn, &["--games", "4", "--nobestmove", "forfeit"]);
    assert_eq!(wdl(&s), (Some(4), Some(0), Some(0)), "{s}");
    assert_eq!((s["reasons"]["draw-claim"].as_u64(), s["draw_claims"].as_u64()), (Some(4), Some(4)), "{s}");
    let mut results: Vec<String> =
        records(&pgn).iter().map(|g| format!("{} {}", tag(g, "Red"), tag(g, "Result"))).collect();
    results.sort();
    assert_eq!(results, ["claim 0-1", "claim 0-1", "engine 1-0", "engine 1-0"]);
    // The text summary says how many claims there were and how they were counted.
    for (flags, counted) in [
        (&["--games", "2"][..], "2, counted as draws"),
        (&["--games", "2", "--nobestmove", "forfeit"][..], "2, counted as the claimer's losses (--nobestmove forfeit)"),
    ] {
        let out = against_fake(&claim, "claim", &pgn, flags);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        let line = format!("Draw claims (nobestmove in a position with legal moves): {counted}\n");
        assert!(text.contains(&line) && text.contains("Ended by: draw-claim 2\n"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that dies between its moves loses the game: the runner does not start a new process in the middle of
/// a game (it did, and the game went on).
#[test]
fn an_engine_that_dies_between_moves_loses() {
    let dir = temp_dir("movecrash");
    // Plays one real move (ours, at depth 1) and exits. At fixed nodes no clock runs: however slow the machine, the
    // move is in time, and at its next turn the engine has exited (or exits while the runner waits, which the
    // runner sees as the same crash).
    let on_go = format!("printf '%s\\ngo depth 1\\n' \"$pos\" | {XQ} | grep -m1 '^bestmove'; exit 7");
    let fake = fake_engine(&dir, "movecrash", &on_go);
    let pgn = dir.join("movecrash.pgn");
    let s = against_fake_json(&fake, "movecrash", &pgn, &["--timeout", &answer_timeout(), "--games", "2"]);
    assert_eq!((s["games"].as_u64(), s["wins"].as_u64()), (Some(2), Some(2)), "{s}");
    assert_eq!(s["reasons"]["crash"], 2, "{s}");
    // Each game has the fake's one move after the opening, and the engine's answers to it.
    for g in records(&pgn) {
        let opening = tag(&g, "Opening").split_whitespace().count();
        let engine_red = tag(&g, "Red") == "engine";
        // Red: the engine, the fake, the engine, and the fake is dead; Black: the fake, the engine, the fake is dead.
        assert_eq!(g.main_line().len(), opening + if engine_red { 3 } else { 2 }, "{:?}", g.tags);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A line in another encoding (GBK here) is read lossily, not taken for the end of the engine's output.
#[test]
fn an_engine_that_writes_gbk_plays_on() {
    let dir = temp_dir("gbk");
    let on_go =
        format!("printf 'info string \\317\\363\\306\\345\\n'; printf '%s\\ngo depth 1\\n' \"$pos\" | {XQ} | grep -m1 '^bestmove'");
    let fake = fake_engine(&dir, "gbk", &on_go);
    let (ours, theirs) = (format!("cmd={XQ}"), format!("cmd={fake}"));
    let out = run(&[
        "--engine",
        &ours,
        "name=engine",
        "--engine",
        &theirs,
        "name=gbk",
        "--nodes",
        "1000",
        "--games",
        "2",
        "--json",
    ]);
    games_end_by_the_rules(&summary(&out), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The summary counts `games` games, every one ended by a rule of the game (no crash, timeout or disconnect).
fn games_end_by_the_rules(s: &serde_json::Value, games: u64) {
    assert_eq!(s["games"], games, "{s}");
    for r in s["reasons"].as_object().unwrap().keys() {
        assert!(RULES.contains(&r.as_str()), "a game ended by {r}: {s}");
    }
}

#[test]
fn ucci_engine_against_uci_engine() {
    let out = run(&[
        "--engine",
        &format!("cmd={XQ}"),
        "name=uci",
        "--engine",
        &format!("cmd={XQ}"),
        "name=ucci",
        "proto=ucci",
        "option.hashsize=8",
        "--nodes",
        "1000",
        "--games",
        "2",
        "--json",
    ]);
    games_end_by_the_rules(&summary(&out), 2);
}

#[test]
fn bad_input_is_refused_before_any_game() {
    let dir = temp_dir("bad");
    let pgn = dir.join("never.pgn");
    let engine = format!("cmd={XQ}");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "startpos moves h2e2\nstartpos moves h2e2 h9g7 e2e9\n").unwrap();
    // Engines that fail and files that do not read are run-time errors (exit code 1); flags that cannot be used are
    // usage errors (exit code 2, with clap's usage and hint).
    let cases: [(Vec<&str>, &str, i32); 8] = [
        (vec!["--engine", "cmd=/nonexistent/engine", "--engine", &engine, "--nodes", "100"], "cannot start", 1),
        (
            vec!["--engine", &engine, "option.NoSuchOption=1", "name=a", "--engine", &engine, "--nodes", "100"],
            "unknown option",
            1,
        ),
        (
            vec!["--engine", &engine, "option.Hash=lots", "name=a", "--engine", &engine, "--nodes", "100"],
            "rejected its options: info string error: option Hash: \"lots\" is not a number",
            1,
        ),
        (
            vec![
                "--engine",
                &engine,
                "name=a",
                "--engine",
                &engine,
                "--nodes",
                "100",
                "--openings",
                openings.to_str().unwrap(),
            ],
            "line 2",
            1,
        ),
        (vec!["--engine", &engine, "name=a", "--engine", &engine], "exactly one of", 2),
        (vec!["--engine", &engine, "--nodes", "100"], "two or more", 2),
        (
            vec!["--engine", &engine, "name=a", "--engine", &engine, "--nodes", "100", "--sprt", "elo0=5", "elo1=0"],
            "elo1",
            2,
        ),
        (
            vec!["--engine", &engine, "name=a", "--engine", &engine, "speed=9", "--nodes", "100"],
            "unknown engine key",
            2,
        ),
    ];
    for (mut args, message, code) in cases {
        args.extend(["--pgn", pgn.to_str().unwrap()]);
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"));
        assert!(!pgn.exists(), "{args:?}: a game was written");
    }
    // An unknown flag is clap's usage error.
    let out = run(&["--engine", &engine, "--engine", &engine, "--nodes", "100", "--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_the_match_when_a_bound_is_crossed() {
    // Move ordering is worth hundreds of Elo at 1000 nodes: H1 (+150) is accepted long before 30 games. Fixed nodes
    // on one thread make the games the same every run.
    let out = run(&[
        "--engine",
        &format!("cmd={XQ}"),
        "name=engine",
        "--engine",
        &format!("cmd={XQ}"),
        "name=no-order",
        "option.Variant=engine+no-order",
        "--nodes",
        "1000",
        "--games",
        "30",
        "--sprt",
        "elo0=0",
        "elo1=150",
        "--json",
    ]);
    let s = summary(&out);
    let sprt = &s["sprt"];
    assert_eq!(sprt["result"], "H1", "{s}");
    let decided_at = sprt["decided_at_games"].as_u64().unwrap();
    let games = s["games"].as_u64().unwrap();
    // Only a game already under way is played after the decision.
    assert!(decided_at < 30 && games <= decided_at + 1, "{s}");
    assert!(sprt["decided_llr"].as_f64().unwrap() >= sprt["upper_bound"].as_f64().unwrap());
    let upper = (0.95f64 / 0.05).ln();
    assert!((sprt["upper_bound"].as_f64().unwrap() - upper).abs() < 1e-12);
}

#[test]
fn score_adjudication_ends_games() {
    let base = |extra: &[&str]| {
        let engine = format!("cmd={XQ}");
        let mut args = vec!["--engine", &engine, "name=a", "--engine", &engine, "name=b", "--nodes", "300"];
        args.extend(["--games", "2", "--json"]);
        args.extend(extra);
        summary(&run(&args))
    };
    // Every score is within a million centipawns of 0: the game is drawn once both sides have moved.
    let s = base(&["--draw", "movenumber=1", "movecount=1", "score=1000000"]);
    assert_eq!(s["reasons"]["adjudication-draw"], 2, "{s}");
    assert_eq!(s["draws"], 2);
    // A side that sees itself at 0 or worse resigns at once: somebody does in each game.
    let s = base(&["--resign", "movecount=1", "score=0"]);
    let reasons = s["reasons"].as_object().unwrap();
    assert_eq!(reasons.get("adjudication-resign").and_then(|v| v.as_u64()), Some(2), "{s}");
    assert_eq!(s["draws"], 0);
}

/// The text summary says what it measured in words: the time control, whose Elo over whom, an infinite Elo and why.
#[test]
fn the_text_summary_reads_plainly() {
    let dir = temp_dir("summary");
    let crash = fake_engine(&dir, "crash", "exit 3");
    let out = run(&[
        "--engine",
        &format!("cmd={XQ}"),
        "name=engine",
        "--engine",
        &format!("cmd={crash}"),
        "name=crash",
        "--nodes",
        "2000",
        "--games",
        "2",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let line = |start: &str| text.lines().find(|l| l.starts_with(start)).unwrap_or_else(|| panic!("{start}: {text}"));
    assert!(line("Time control: ").starts_with("Time control: 2000 nodes a move (the match took "), "{text}");
    assert_eq!(
        line("Elo of "),
        "Elo of engine over crash: +inf (every one won: no finite estimate) (95% interval, game by game)"
    );
    assert!(
        text.contains("Game pairs scoring [0, ½, 1, 1½, 2]: [0, 0, 0, 0, 1]; Elo of engine over crash: +inf"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
