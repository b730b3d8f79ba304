//! `xiangqi match` through the binary: a short self-play match between two variants whose record replays legally,
//! fake engines (shell scripts) that play an illegal move, crash or hang and lose by that reason without stopping
//! the match, UCCI on both sides, and bad input refused before any game.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use xiangqi_core::{Color, Game, Position};

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

/// A fake UCI engine: a shell script that answers the handshake, keeps the last `position` line in `$pos` and does
/// `on_go` when told `go`.
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok ;;\n    \
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

/// The JSON summary: the last line of standard output.
fn summary(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

/// One game of a PGN file: its headers and its moves.
struct PgnGame {
    headers: Vec<(String, String)>,
    moves: Vec<String>,
}

impl PgnGame {
    fn header(&self, key: &str) -> &str {
        &self.headers.iter().find(|(k, _)| k == key).unwrap_or_else(|| panic!("no {key} header")).1
    }
}

/// Reads the games of a PGN file (headers, and move text without numbers, comments and the result).
fn read_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    for block in text.split("\n\n[").filter(|b| !b.trim().is_empty()) {
        let block = block.trim_start_matches('[');
        let (head, body) = block.split_once("\n\n").expect("headers, a blank line, moves");
        let headers = head
            .lines()
            .map(|l| {
                let l = l.trim_start_matches('[').trim_end_matches(']');
                let (k, v) = l.split_once(' ').unwrap();
                (k.to_owned(), v.trim_matches('"').to_owned())
            })
            .collect();
        let mut moves = Vec::new();
        let mut in_comment = false;
        for word in body.split_whitespace() {
            if word.starts_with('{') {
                in_comment = true;
            }
            if in_comment {
                in_comment = !word.ends_with('}');
                continue;
            }
            if word.ends_with('.') || matches!(word, "1-0" | "0-1" | "1/2-1/2") {
                continue;
            }
            moves.push(word.to_owned());
        }
        games.push(PgnGame { headers, moves });
    }
    games
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

    // The record: four games, each replaying legally to the result and reason it claims.
    let games = read_pgn(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(games.len(), 4);
    let mut rounds: Vec<&str> = games.iter().map(|g| g.header("Round")).collect();
    rounds.sort();
    assert_eq!(rounds, ["1", "2", "3", "4"]);
    let mut first_points = 0.0;
    for g in &games {
        let mut game = Game::new(&Position::from_fen(g.header("FEN")).unwrap());
        for m in &g.moves {
            game.play(m).unwrap_or_else(|e| panic!("round {}: {e}", g.header("Round")));
        }
        assert_eq!(g.header("PlyCount"), g.moves.len().to_string());
        let result = game.result().expect("the replayed game is over");
        assert_eq!(result.reason.as_str(), g.header("Termination"));
        let text = match result.winner {
            Some(Color::Red) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        };
        assert_eq!(g.header("Result"), text);
        assert!(g.moves.join(" ").starts_with(g.header("Opening")));
        let red_points = match text {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        first_points += if g.header("Red") == "engine" { red_points } else { 1.0 - red_points };
    }
    assert_eq!(first_points, w as f64 + d as f64 / 2.0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn illegal_moves_crashes_and_hangs_lose_without_stopping_the_match() {
    let dir = temp_dir("fakes");
    // e0e5 is never legal (a king moves one point); the crasher exits when asked to move; the sleeper never answers;
    // the mute one answers `bestmove` without a move.
    let cases = [
        (
            "illegal",
            fake_engine(&dir, "illegal", "echo 'info depth 1 score cp 5'; echo 'bestmove e0e5'"),
            "illegal-move",
        ),
        ("crash", fake_engine(&dir, "crash", "exit 3"), "crash"),
        ("hang", fake_engine(&dir, "hang", ":"), "timeout"),
        ("mute", fake_engine(&dir, "mute", "echo bestmove"), "no-move"),
    ];
    for (name, path, reason) in cases {
        let pgn = dir.join(format!("{name}.pgn"));
        let out = run(&[
            "--engine",
            &format!("cmd={XQ}"),
            "name=engine",
            "--engine",
            &format!("cmd={path}"),
            &format!("name={name}"),
            "--nodes",
            "500",
            "--timeout",
            "1",
            "--games",
            "4",
            "--pgn",
            pgn.to_str().unwrap(),
            "--json",
        ]);
        let s = summary(&out);
        assert_eq!((s["games"].as_u64(), s["wins"].as_u64()), (Some(4), Some(4)), "{name}: {s}");
        assert_eq!(s["reasons"][reason], 4, "{name}: {s}");
        let games = read_pgn(&std::fs::read_to_string(&pgn).unwrap());
        assert_eq!(games.len(), 4);
        assert!(games.iter().all(|g| g.header("Termination") == reason));
        if matches!(name, "crash" | "hang") {
            // Every game after the first needed a new process.
            assert!(s["restarts"].as_u64().unwrap() >= 3, "{name}: {s}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that dies between its moves loses the game: the runner does not start a new process in the middle of
/// a game (it did, and the game went on).
#[test]
fn an_engine_that_dies_between_moves_loses() {
    let dir = temp_dir("movecrash");
    // Plays one real move (ours, at depth 1) and exits; its opponent then thinks 200 ms, so it is surely dead when
    // it is to move again.
    let on_go = format!("printf '%s\\ngo depth 1\\n' \"$pos\" | {XQ} | grep -m1 '^bestmove'; exit 7");
    let fake = fake_engine(&dir, "movecrash", &on_go);
    let out = run(&[
        "--engine",
        &format!("cmd={XQ}"),
        "name=engine",
        "--engine",
        &format!("cmd={fake}"),
        "name=movecrash",
        "--st",
        "0.2",
        "--games",
        "2",
        "--json",
    ]);
    let s = summary(&out);
    assert_eq!((s["games"].as_u64(), s["wins"].as_u64()), (Some(2), Some(2)), "{s}");
    assert_eq!(s["reasons"]["crash"], 2, "{s}");
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
    let cases: [(Vec<&str>, &str); 8] = [
        (vec!["--engine", "cmd=/nonexistent/engine", "--engine", &engine, "--nodes", "100"], "cannot start"),
        (
            vec!["--engine", &engine, "option.NoSuchOption=1", "name=a", "--engine", &engine, "--nodes", "100"],
            "unknown option",
        ),
        (
            vec!["--engine", &engine, "option.Hash=lots", "name=a", "--engine", &engine, "--nodes", "100"],
            "rejected its options: info string error: option Hash: \"lots\" is not a number",
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
        ),
        (vec!["--engine", &engine, "name=a", "--engine", &engine], "exactly one of"),
        (vec!["--engine", &engine, "--nodes", "100"], "two or more"),
        (
            vec!["--engine", &engine, "name=a", "--engine", &engine, "--nodes", "100", "--sprt", "elo0=5", "elo1=0"],
            "elo1",
        ),
        (vec!["--engine", &engine, "name=a", "--engine", &engine, "speed=9", "--nodes", "100"], "unknown engine key"),
    ];
    for (mut args, message) in cases {
        args.extend(["--pgn", pgn.to_str().unwrap()]);
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
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
