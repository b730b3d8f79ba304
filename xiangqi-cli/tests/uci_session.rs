//! A UCI session driven through the binary's standard input and output, as a GUI would: every command, the error
//! cases, `isready` and `stop` during `go infinite`, pondering, MultiPV and options.

use std::time::{Duration, Instant};
use xiangqi_core::Position;

#[path = "support/engine_process.rs"]
mod engine_process;
use engine_process::Engine;

#[test]
fn handshake_lists_the_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(Duration::from_secs(5), |l| l == "uciok");
    assert!(lines[0].starts_with("id name "));
    for opt in ["Hash", "Threads", "MultiPV", "Clear Hash", "Move Overhead", "Ponder", "Variant"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {opt} type"))), "{opt} in {lines:?}");
    }
    e.ready();
    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn position_and_go_depth_give_a_legal_move_and_info_lines() {
    let mut e = Engine::start();
    e.send("ucinewgame");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 5");
    let (lines, best) = e.bestmove(Duration::from_secs(60));
    let mut pos = Position::startpos();
    pos.play("h2e2").unwrap();
    pos.play("h9g7").unwrap();
    assert!(pos.parse_move(&best).is_ok(), "{best} is not legal");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 5, "{lines:?}");
    for word in ["seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv"] {
        assert!(infos[4].split_whitespace().any(|w| w == word), "{word} missing in {}", infos[4]);
    }
    // The ponder move is legal after the best move.
    let last = lines.last().unwrap();
    if let Some(ponder) = last.split_whitespace().nth(3) {
        pos.play(&best).unwrap();
        assert!(pos.parse_move(ponder).is_ok(), "{last}");
    }
}

#[test]
fn bad_input_is_reported_and_the_state_is_kept() {
    let mut e = Engine::start();
    e.send("position startpos moves h2e2");
    let fen = e.fen();
    for (cmd, needle) in [
        ("position startpos moves h2e2 h9h1", "move 2"),
        ("position fen rnbakabnr/9 w", "bad FEN"),
        ("position fen 4k4/9/9/9/9/9/9/9/9/4K4 w", "face"),
        ("position", "startpos or fen"),
        ("frobnicate", "unknown command"),
        ("setoption name Hash value lots", "not a number"),
        ("setoption name Threads value 0", "from 1 to 256"),
        ("setoption name Bogus value 1", "unknown option"),
        ("setoption name Variant value minimax+pvs", "needs alpha-beta"),
        ("go depth", "needs a value"),
        ("go sideways", "unknown go parameter"),
        ("go nodes -1", "negative"),
        ("go perft -3", "negative"),
        ("setoption name Hash value", "needs a value"),
        ("setoption name Ponder value maybe", "not true or false"),
    ] {
        e.send(cmd);
        let lines = e.until(Duration::from_secs(5), |l| l.starts_with("info string error"));
        assert!(lines.last().unwrap().contains(needle), "{cmd}: {lines:?}");
    }
    assert_eq!(e.fen(), fen, "a rejected command changed the position");
    // And the engine still plays.
    e.send("go depth 3");
    let (_, best) = e.bestmove(Duration::from_secs(30));
    let mut pos = Position::from_fen(&fen).unwrap();
    assert!(pos.play(&best).is_ok());
}

/// A line that is not UTF-8 (a GBK name from a GUI on a Chinese system, a stray byte) is reported and the loop goes
/// on: the words around the bad bytes still act, and a garbled move or value is rejected.
#[test]
fn a_line_that_is_not_utf8_is_an_error_and_the_loop_goes_on() {
    let mut e = Engine::start();
    // The whole session at once, as `printf 'caf\xe9\nisready\nquit\n' | xiangqi` sends it.
    e.send_bytes(b"caf\xe9\nisready\n");
    let lines = e.until(Duration::from_secs(5), |l| l == "readyok");
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with("info string error: the line is not valid UTF-8"), "{lines:?}");
    assert!(lines[0].ends_with("\"caf\u{FFFD}\""), "{lines:?}");
    assert_eq!(lines[1], "info string error: unknown command \"caf\"");
    // `isready` followed by a stray GBK lead byte, with and without a space.
    for line in [&b"isready\xb0\n"[..], b"isready \xd6\r\n"] {
        e.send_bytes(line);
        let lines = e.until(Duration::from_secs(5), |l| l == "readyok");
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].contains("not valid UTF-8"), "{lines:?}");
    }
    // A GBK word (中文) as a move or an option value is an error; nothing changes.
    e.send("position startpos moves h2e2");
    let fen = e.fen();
    e.send_bytes(b"position startpos moves h2e2 \xd6\xd0\xce\xc4\n");
    let lines = e.until(Duration::from_secs(5), |l| l.starts_with("info string error: move 2"));
    assert!(lines[lines.len() - 2].contains("not valid UTF-8"), "{lines:?}");
    e.send_bytes(b"setoption name Variant value \xd6\xd0\xce\xc4\n");
    e.until(Duration::from_secs(5), |l| l.starts_with("info string error") && !l.contains("UTF-8"));
    assert_eq!(e.fen(), fen);
    // The engine still plays, with its default variant.
    e.send("go depth 2");
    let (_, best) = e.bestmove(Duration::from_secs(30));
    assert!(Position::from_fen(&fen).unwrap().parse_move(&best).is_ok(), "{best}");
    e.send_bytes(b"quit\n");
    assert!(e.child.wait().unwrap().success());
}

/// Out-of-range `go` values are errors, and nothing is searched: no quiet clamping to a depth of 1 or a clock of 0.
#[test]
fn go_values_out_of_range_are_errors_and_nothing_is_searched() {
    let mut e = Engine::start();
    e.send("position startpos");
    for (cmd, needle) in [
        ("go depth 0", "go depth must be from 1 to 120, not 0"),
        ("go depth 1000", "go depth must be from 1 to 120, not 1000"),
        ("go wtime -5", "go wtime: -5 is negative"),
        ("go wtime 1000 btime -1", "go btime: -1 is negative"),
        ("go movetime -100", "go movetime: -100 is negative"),
        ("go mate 0", "go mate must be from 1 to 60, not 0"),
        ("go nodes 0", "go nodes must be at least 1, not 0"),
        ("go movestogo 0 wtime 1000", "go movestogo must be at least 1, not 0"),
        ("go perft 0", "go perft must be from 1 to 5, not 0"),
    ] {
        e.send(cmd);
        e.send("isready");
        let lines = e.until(Duration::from_secs(10), |l| l == "readyok");
        assert_eq!(lines.len(), 2, "{cmd}: {lines:?}");
        assert!(lines[0].starts_with("info string error: ") && lines[0].contains(needle), "{cmd}: {lines:?}");
    }
}

#[test]
fn isready_and_stop_during_go_infinite() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    e.until(Duration::from_secs(10), |l| l.starts_with("info depth 3"));
    // isready is answered while the search runs.
    e.send("isready");
    let lines = e.until(Duration::from_secs(5), |l| l == "readyok");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")), "the search stopped by itself: {lines:?}");
    std::thread::sleep(Duration::from_millis(300));
    // An infinite search answers only when stopped: bestmove at all (within a generous bound) is the fact checked.
    e.send("stop");
    let (_, best) = e.bestmove(Duration::from_secs(30));
    assert!(Position::startpos().parse_move(&best).is_ok());
}

/// No `bestmove` before `stop` under `go infinite`, nor before `ponderhit` under `go ponder`, even when the search
/// ends by itself (a depth limit, a position without moves).
#[test]
fn infinite_and_ponder_wait_even_when_the_search_is_over() {
    let mut e = Engine::start();
    let quiet_for_a_while = |e: &mut Engine| {
        std::thread::sleep(Duration::from_millis(300));
        e.send("isready");
        let lines = e.until(Duration::from_secs(5), |l| l == "readyok");
        assert!(lines.iter().all(|l| !l.starts_with("bestmove")), "bestmove unasked: {lines:?}");
    };
    e.send("position startpos");
    e.send("go infinite depth 2");
    e.until(Duration::from_secs(10), |l| l.starts_with("info depth 2"));
    quiet_for_a_while(&mut e);
    e.send("stop");
    let (_, best) = e.bestmove(Duration::from_secs(5));
    assert!(Position::startpos().parse_move(&best).is_ok(), "{best}");
    // Black is mated: there is nothing to search, and still bestmove waits for stop.
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/3RK4 b");
    e.send("go infinite");
    quiet_for_a_while(&mut e);
    e.send("stop");
    assert_eq!(e.bestmove(Duration::from_secs(5)).1, "(none)");
    e.send("position startpos");
    e.send("go ponder depth 2");
    e.until(Duration::from_secs(10), |l| l.starts_with("info depth 2"));
    quiet_for_a_while(&mut e);
    e.send("ponderhit");
    let (_, best) = e.bestmove(Duration::from_secs(5));
    assert!(Position::startpos().parse_move(&best).is_ok(), "{best}");
}

#[test]
fn clock_and_limits_are_obeyed() {
    let mut e = Engine::start();
    e.send("position startpos moves b2e2");
    // Black's 8 s clock for 20 moves: the engine plans about 0.4 s and never more than 1.6 s (`Go::time_limits`'
    // unit test checks the arithmetic); the move must come before the clock runs out, five times the most it plans.
    let t = Instant::now();
    e.send("go wtime 8000 btime 8000 winc 10 binc 10 movestogo 20");
    let (_, best) = e.bestmove(Duration::from_secs(30));
    assert!(t.elapsed() < Duration::from_secs(8), "used {:?} of an 8 s clock", t.elapsed());
    let mut pos = Position::startpos();
    pos.play("b2e2").unwrap();
    assert!(pos.parse_move(&best).is_ok(), "{best} is not legal");
    // A search that ignored its movetime would never answer.
    let t = Instant::now();
    e.send("go movetime 200");
    e.bestmove(Duration::from_secs(30));
    assert!(t.elapsed() < Duration::from_secs(10), "go movetime 200 took {:?}", t.elapsed());
    e.send("go nodes 5000");
    let (lines, _) = e.bestmove(Duration::from_secs(30));
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder wtime 1000 btime 1000");
    e.until(Duration::from_secs(10), |l| l.starts_with("info depth 2"));
    std::thread::sleep(Duration::from_millis(1200));
    // Pondering ignores the clock: no bestmove before ponderhit.
    e.send("isready");
    let lines = e.until(Duration::from_secs(30), |l| l == "readyok");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")), "bestmove before ponderhit: {lines:?}");
    e.send("ponderhit");
    let (_, best) = e.bestmove(Duration::from_secs(10));
    let mut pos = Position::startpos();
    pos.play("h2e2").unwrap();
    pos.play("h9g7").unwrap();
    assert!(pos.parse_move(&best).is_ok());
}

#[test]
fn options_multipv_threads_hash() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 8");
    e.send("setoption name Clear Hash");
    e.send("setoption name Move Overhead value 30");
    e.send("setoption name Threads value 2");
    e.send("setoption name MultiPV value 3");
    e.ready();
    e.send("position startpos");
    e.send("go depth 4");
    let (lines, _) = e.bestmove(Duration::from_secs(60));
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    let last_depth: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth 4 ")).collect();
    assert_eq!(last_depth.len(), 3, "{lines:?}");
    for (k, l) in last_depth.iter().enumerate() {
        assert!(l.contains(&format!(" multipv {} ", k + 1)), "{l}");
    }
    // Three different first moves.
    let firsts: std::collections::HashSet<&str> =
        last_depth.iter().map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap()).collect();
    assert_eq!(firsts.len(), 3);
    e.send("setoption name Variant value alphabeta");
    e.send("setoption name MultiPV value 1");
    e.send("go depth 3");
    let (_, best) = e.bestmove(Duration::from_secs(60));
    assert!(Position::startpos().parse_move(&best).is_ok());
}

#[test]
fn mated_side_answers_bestmove_none() {
    let mut e = Engine::start();
    // Black is mated (the chariot checks on d0, the facing king covers e9).
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/3RK4 b");
    e.send("go depth 3");
    let (lines, best) = e.bestmove(Duration::from_secs(10));
    assert_eq!(best, "(none)", "{lines:?}");
}

#[test]
fn go_searchmoves_searches_only_the_moves_named() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 6 searchmoves a0a1 i0i1");
    let (lines, best) = e.bestmove(Duration::from_secs(60));
    assert!(best == "a0a1" || best == "i0i1", "{lines:?}");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 6, "{lines:?}");
    for info in infos {
        let first = info.split_whitespace().skip_while(|&w| w != "pv").nth(1).unwrap();
        assert!(first == "a0a1" || first == "i0i1", "{info}");
    }
    // Unrestricted, the engine plays another move from the start (a central cannon or a horse).
    e.send("go depth 6");
    let (_, free) = e.bestmove(Duration::from_secs(60));
    assert!(free != "a0a1" && free != "i0i1", "{free}");
    // A move that is not legal here is an error, and nothing is searched.
    for (cmd, needle) in [("go searchmoves zz", "searchmoves zz"), ("go depth 2 searchmoves e0e2", "searchmoves e0e2")]
    {
        e.send(cmd);
        let lines = e.until(Duration::from_secs(5), |l| l.starts_with("info string error"));
        assert!(lines.last().unwrap().contains(needle), "{cmd}: {lines:?}");
    }
    e.send("go depth 1");
    let (lines, _) = e.bestmove(Duration::from_secs(10));
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{lines:?}");
}

#[test]
fn go_mate_stops_at_the_mate() {
    let mut e = Engine::start();
    // Red mates in three: the chariot drives the king up the d file.
    e.send("position fen 3k5/9/9/9/9/9/9/9/4A4/3AKR3 w");
    e.send("go mate 3");
    let (lines, best) = e.bestmove(Duration::from_secs(30));
    let last = lines.iter().rev().find(|l| l.starts_with("info depth")).unwrap();
    let mate: i32 = last.split_whitespace().skip_while(|&w| w != "mate").nth(1).unwrap().parse().unwrap();
    assert!((1..=3).contains(&mate), "{last}");
    // No limit but the mate: the search stopped as soon as an iteration found it.
    let depth: usize = last.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(depth <= 2 * 3, "{lines:?}");
    assert!(best == last.split_whitespace().skip_while(|&w| w != "pv").nth(1).unwrap());
}

#[test]
fn go_perft_prints_the_divide() {
    let mut e = Engine::start();
    e.send("position startpos moves h2e2");
    e.send("go perft 3");
    let lines = e.until(Duration::from_secs(30), |l| l.starts_with("Nodes searched"));
    let mut pos = Position::startpos();
    pos.play("h2e2").unwrap();
    let rows: Vec<(String, u64)> = lines
        .iter()
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_once(": ").map(|(m, n)| (m.to_owned(), n.parse().unwrap())))
        .collect();
    assert_eq!(rows.len() as u64, xiangqi_movegen::perft(&pos, 1), "{lines:?}");
    for (m, n) in &rows {
        let mut child = pos.clone();
        child.play(m).unwrap();
        assert_eq!(*n, xiangqi_movegen::perft(&child, 2), "{m}");
    }
    let total: u64 = lines.last().unwrap().strip_prefix("Nodes searched: ").unwrap().parse().unwrap();
    assert_eq!(total, xiangqi_movegen::perft(&pos, 3));
    assert_eq!(total, rows.iter().map(|(_, n)| n).sum::<u64>());
    // The engine still answers afterwards.
    e.ready();
}

#[test]
fn eval_prints_the_breakdown_of_the_current_position() {
    let mut e = Engine::start();
    e.send("position startpos moves h2e2");
    e.send("eval");
    let lines = e.until(Duration::from_secs(5), |l| l.starts_with("Evaluation:"));
    let mut pos = Position::startpos();
    pos.play("h2e2").unwrap();
    assert!(lines.iter().any(|l| l == &format!("Position: {}", pos.fen())), "{lines:?}");
    let total = xiangqi_eval::Handcrafted::default().evaluate(&pos);
    assert_eq!(
        lines.last().unwrap(),
        &format!("Evaluation: {total:+} for black (side to move), {:+} from Red's view", -total)
    );
}

/// `ucinewgame` forgets what the searches of the last game learnt (the table and the ordering's history): the same
/// search after it visits exactly the nodes it did after the first `ucinewgame`, although a search in between
/// taught the engine things.
#[test]
fn ucinewgame_makes_searches_reproducible_again() {
    let mut e = Engine::start();
    let nodes = |e: &mut Engine| -> String {
        e.send("position startpos moves h2e2");
        e.send("go depth 6");
        let (lines, _) = e.bestmove(Duration::from_secs(60));
        let last = lines.iter().rev().find(|l| l.starts_with("info depth")).unwrap().clone();
        let words: Vec<&str> = last.split_whitespace().collect();
        let i = words.iter().position(|&w| w == "nodes").unwrap();
        words[i + 1].to_owned()
    };
    e.send("ucinewgame");
    let first = nodes(&mut e);
    e.send("position startpos");
    e.send("go depth 7");
    let _ = e.bestmove(Duration::from_secs(60));
    e.send("ucinewgame");
    assert_eq!(nodes(&mut e), first);
}
