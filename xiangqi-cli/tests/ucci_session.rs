//! A UCCI session through the binary, as ElephantEye's GUIs drive it: the `ucci` switch, UCCI options, `banmoves`,
//! `go time ... movestogo`, `go draw`, pondering with `ponderhit draw`, `probe`/`pophash`, `stop` when idle, and
//! `quit` answered by `bye`; and bad input: lines that are not UTF-8, `go` values out of range.

use std::time::{Duration, Instant};

#[path = "support/engine_process.rs"]
mod engine_process;
use engine_process::Engine;
use xiangqi_core::Position;

/// UCCI helpers on top of the shared process harness.
trait Ucci {
    /// Lines up to and including the first that satisfies `done`; panics after ten seconds.
    fn within(&mut self, done: impl Fn(&str) -> bool) -> Vec<String>;
    /// The words of the final answer of a search (`bestmove ...` or `nobestmove`).
    fn answer(&mut self) -> Vec<String>;
}

impl Ucci for Engine {
    fn within(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until(Duration::from_secs(30), done)
    }

    fn answer(&mut self) -> Vec<String> {
        let lines = self.within(|l| l.starts_with("bestmove") || l == "nobestmove");
        lines.last().unwrap().split_whitespace().map(str::to_owned).collect()
    }
}

#[test]
fn ucci_handshake_search_bans_and_bye() {
    let mut e = Engine::start();
    e.send("ucci");
    let hello = e.within(|l| l == "ucciok");
    assert!(hello[0].starts_with("id name xiangqi"));
    assert!(hello.iter().any(|l| l == "option usemillisec type check default true"));
    assert!(hello.iter().any(|l| l.starts_with("option hashsize type spin")));
    e.send("setoption usemillisec true");
    e.send("setoption hashsize 8");
    e.send("setoption usebook false");
    e.send("setoption nosuchoption 3");
    assert!(e.within(|l| l.starts_with("info string error")).last().unwrap().contains("nosuchoption"));
    e.send("isready");
    e.within(|l| l == "readyok");

    // The best reply to the central cannon at depth 4, then the same search with it banned.
    e.send("position startpos moves h2e2");
    e.send("go depth 4");
    let lines = e.within(|l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.starts_with("info depth 4 score ") && l.contains(" pv ")));
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_owned();
    let mut pos = Position::startpos();
    pos.play("h2e2").unwrap();
    assert!(pos.parse_move(&best).is_ok());
    e.send(&format!("banmoves {best} h9g7"));
    e.send("go depth 4");
    let answer = e.answer();
    assert_eq!(answer[0], "bestmove");
    assert!(answer[1] != best && answer[1] != "h9g7" && pos.parse_move(&answer[1]).is_ok(), "{answer:?}");
    // `position` clears the bans: with the table cleared (the banned search filled it), the first answer comes
    // back.
    e.send("setoption newgame");
    e.send(&format!("banmoves {best} h9g7"));
    e.send("position startpos moves h2e2");
    e.send("go depth 4");
    assert_eq!(e.answer()[1], best);
    // The table knows the position just searched.
    e.send("probe startpos moves h2e2");
    let pophash = e.within(|l| l.starts_with("pophash")).pop().unwrap();
    assert!(pophash.starts_with(&format!("pophash bestmove {best} ")) && pophash.contains(" depth "), "{pophash}");
    e.send("probe fen 4k4/9/9/9/9/9/9/9/9/3K5 w");
    assert_eq!(e.within(|l| l.starts_with("pophash")).pop().unwrap(), "pophash");

    // A time limit with movestogo, in milliseconds.
    e.send("position startpos");
    // A search that ignored its 0.3 s clock would never answer (`answer` waits 30 s at most).
    e.send("go time 300 movestogo 1 opptime 300");
    assert_eq!(e.answer()[0], "bestmove");
    // With every legal move banned there is nothing to play.
    e.send("position fen 3k5/9/9/9/9/9/9/9/4A4/4K4 w");
    e.send("banmoves e0f0 e1d0 e1f0 e1d2 e1f2");
    e.send("go depth 3");
    assert_eq!(e.answer(), ["nobestmove"]);

    // A draw offer in a lost position is accepted; `stop` with no search gives `nobestmove`.
    e.send("position fen 3k5/9/9/9/9/9/9/9/4A4/4K4 b");
    e.send("go draw depth 3");
    let answer = e.answer();
    assert_eq!(answer.last().unwrap(), "draw", "{answer:?}");
    e.send("stop");
    assert_eq!(e.within(|l| l == "nobestmove").len(), 1);

    // Pondering waits for ponderhit; `ponderhit draw` offers a draw the engine may take.
    e.send("position startpos");
    e.send("go ponder time 200 opptime 200");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let seen = e.within(|l| l == "readyok");
    assert!(!seen.iter().any(|l| l.starts_with("bestmove")), "{seen:?}");
    e.send("ponderhit");
    assert_eq!(e.answer()[0], "bestmove");

    e.send("go nodes x");
    assert!(e.within(|l| l.starts_with("info string error")).last().unwrap().contains("not a number"));
    e.send("quit");
    e.within(|l| l == "bye");
    let end = Instant::now() + engine_process::time_scale::scaled(Duration::from_secs(5));
    while e.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < end, "the engine did not exit after bye");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// GBK bytes from a GUI on a Chinese system do not end the session; out-of-range `go` values are errors and start
/// no search; `d` shows the position as in UCI.
#[test]
fn ucci_bad_input_is_reported_and_the_engine_goes_on() {
    let mut e = Engine::start();
    e.send("ucci");
    e.within(|l| l == "ucciok");
    // 中文 in GBK as a book path (accepted, and without effect) and as a hash size.
    e.send_bytes(b"setoption bookfiles C:\\\xd6\xd0\xce\xc4\\book.obk\n");
    e.send_bytes(b"setoption hashsize \xd6\xd0\n");
    e.send_bytes(b"isready\xb0\n");
    let lines = e.within(|l| l == "readyok");
    assert_eq!(lines.len(), 5, "{lines:?}");
    for i in [0, 1, 3] {
        assert!(lines[i].starts_with("info string error: the line is not valid UTF-8"), "{lines:?}");
    }
    assert!(lines[2].starts_with("info string error: option hashsize:"), "{lines:?}");
    e.send("position startpos moves h2e2");
    for (cmd, needle) in [
        ("go depth 0", "go depth must be from 1 to 120, not 0"),
        ("go depth 500", "go depth must be from 1 to 120, not 500"),
        ("go nodes 0", "go nodes must be at least 1, not 0"),
        ("go time 1000 movestogo 0", "go movestogo must be at least 1, not 0"),
        ("go time -5", "go time: -5 is negative"),
    ] {
        e.send(cmd);
        e.send("isready");
        let lines = e.within(|l| l == "readyok");
        assert_eq!(lines.len(), 2, "{cmd}: {lines:?}");
        assert!(lines[0].starts_with("info string error: ") && lines[0].contains(needle), "{cmd}: {lines:?}");
    }
    e.send("d");
    let fen = e.within(|l| l.starts_with("Fen: ")).pop().unwrap();
    let mut pos = Position::startpos();
    pos.play("h2e2").unwrap();
    assert_eq!(fen, format!("Fen: {}", pos.fen()));
    e.send("go depth 1");
    let answer = e.answer();
    assert!(answer[0] == "bestmove" && pos.parse_move(&answer[1]).is_ok(), "{answer:?}");
    e.send("quit");
    e.within(|l| l == "bye");
}
