//! The session: [`Uci`] reads commands, keeps the position and drives the engine's handle
//! ([`xiangqi_search::SearchEngine::go`]); the search prints its own `info` and `bestmove` lines
//! (its listener, `output::Reporter`) while the loop goes on reading.

use crate::go::{clip, Go};
use crate::output::{Output, Reporter};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use xiangqi_core::{Move, Position, Validation};
use xiangqi_eval::EvalSettings;
use xiangqi_search::{SearchEngine, SearchHandle};

/// Engine name sent in `id name`.
pub const ENGINE_NAME: &str = concat!("xiangqi ", env!("CARGO_PKG_VERSION"));

/// A search under way.
pub(crate) struct Running {
    pub(crate) handle: SearchHandle<Move>,
    /// UCCI: a draw offered by `go draw` or `ponderhit draw` (the reporter reads it for `bestmove`).
    pub(crate) draw_offer: Arc<AtomicBool>,
}

/// The UCI (and UCCI) engine: the current position, the engine and the running search.
pub struct Uci {
    pub(crate) out: Output,
    pub(crate) pos: Position,
    /// The engine: its threads, table, ordering memory, variant, evaluator and options.
    pub(crate) engine: SearchEngine<EvalSettings>,
    pub(crate) running: Option<Running>,
    /// Speaking UCCI (after a `ucci` command).
    pub(crate) ucci: bool,
    /// UCCI: `go` times are in milliseconds (else seconds).
    pub(crate) millis: bool,
    /// UCCI: moves the next search may not play (`banmoves`).
    pub(crate) bans: Vec<Move>,
}

impl Uci {
    /// An engine writing to `out`, at the start position.
    ///
    /// # Panics
    /// When the default table (16 MB) or the search thread cannot be had.
    pub fn new(out: Output) -> Uci {
        let engine = SearchEngine::new(EvalSettings::default()).expect("the default table and a search thread");
        Uci { out, pos: Position::startpos(), engine, running: None, ucci: false, millis: true, bans: Vec::new() }
    }

    /// The current position: the one `go` searches (it does not change while a search runs).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Reads commands until `quit` or the end of input (or an input error), then stops any search. Lines are
    /// read as bytes and handed to [`Uci::feed`]: a line that is not UTF-8 does not end the loop.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut line = Vec::new();
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if !self.feed(&line) {
                break;
            }
        }
        self.stop();
    }

    /// Handles one line of input as it arrived, in bytes (a final `\n` or `\r\n` is allowed); `false` after
    /// `quit`. A line that is not UTF-8 (GBK text from a GUI on a Chinese system, a stray byte) gets
    /// `info string error: ...` saying so, and is then read as a command like any other: each run of bytes that
    /// are not UTF-8 becomes a word of its own, U+FFFD, so that the words around it stay intact (`isready`
    /// followed by a stray byte answers `readyok`) and a garbled move or value is an error, not a different move.
    ///
    /// ```
    /// use std::io::Write;
    /// use std::sync::{Arc, Mutex};
    /// use xiangqi_uci::{Output, Uci};
    ///
    /// #[derive(Clone, Default)]
    /// struct Sink(Arc<Mutex<Vec<u8>>>);
    /// impl Write for Sink {
    ///     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
    ///         self.0.lock().unwrap().write(b)
    ///     }
    ///     fn flush(&mut self) -> std::io::Result<()> {
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let sink = Sink::default();
    /// let mut uci = Uci::new(Output::new(sink.clone()));
    /// assert!(uci.feed(b"isready\xb0\n"));
    /// let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
    /// let lines: Vec<&str> = text.lines().collect();
    /// assert!(lines[0].starts_with("info string error: the line is not valid UTF-8"), "{text}");
    /// assert_eq!(lines[1], "readyok");
    /// assert!(!uci.feed(b"quit"));
    /// ```
    pub fn feed(&mut self, line: &[u8]) -> bool {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        match std::str::from_utf8(line) {
            Ok(text) => self.command(text),
            Err(_) => {
                let mut text = String::with_capacity(line.len() + 8);
                for chunk in line.utf8_chunks() {
                    text.push_str(chunk.valid());
                    if !chunk.invalid().is_empty() {
                        text.push_str(" \u{FFFD} ");
                    }
                }
                let shown = clip(&String::from_utf8_lossy(line), 80);
                self.out.error(&format!(
                    "the line is not valid UTF-8 (each run of bytes that are not is read as a word of its own, \
                     U+FFFD): {shown:?}"
                ));
                self.command(&text)
            }
        }
    }

    /// Handles one command line; `false` after `quit`.
    pub fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { return true };
        self.reap();
        if self.ucci {
            return self.ucci_command(&words);
        }
        match cmd {
            "uci" => self.uci(),
            "ucci" => {
                self.ucci = true;
                self.ucci_hello();
            }
            "isready" => self.out.line("readyok"),
            "ucinewgame" => {
                self.stop();
                self.engine.new_game();
                self.pos = Position::startpos();
            }
            "setoption" => self.setoption(&words[1..]),
            "position" => self.set_position(&words[1..]),
            "go" => self.go(&words[1..]),
            "stop" => self.stop(),
            "ponderhit" => {
                if let Some(r) = &self.running {
                    r.handle.ponderhit();
                }
            }
            "quit" => return false,
            "d" => self.show(),
            "eval" => self.eval(),
            other => self.out.error(&format!("unknown command {:?}", clip(other, 40))),
        }
        true
    }

    /// `d`: the board, its FEN and its key.
    pub(crate) fn show(&self) {
        for l in self.pos.to_string().lines() {
            self.out.line(l);
        }
        self.out.line(&format!("Fen: {}", self.pos.fen()));
        self.out.line(&format!("Key: {:016X}", self.pos.key()));
    }

    /// `eval`: the evaluation's breakdown by term.
    pub(crate) fn eval(&self) {
        let trace = xiangqi_eval::Handcrafted::default().trace(&self.pos);
        for l in trace.table(&self.pos.fen()).lines() {
            self.out.line(l);
        }
        if let choice @ xiangqi_eval::EvalChoice::Nnue(_) = self.engine.evaluator().choice() {
            let v = choice.evaluate(&self.pos);
            self.out.line(&format!("NNUE evaluation: {v:+} for {} (side to move), searches use it", self.pos.turn()));
        }
    }

    fn uci(&self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line("id author the xiangqi workspace authors");
        for line in self.uci_options() {
            self.out.line(&line);
        }
        self.out.line("uciok");
    }

    /// How `position fen` checks its FEN: the `Lenient` option.
    fn validation(&self) -> Validation {
        if self.engine.settings().lenient {
            Validation::Lenient
        } else {
            Validation::Strict
        }
    }

    /// `position startpos|fen <fen> [moves m1 m2 ...]`: builds the new position completely before replacing the old.
    pub(crate) fn set_position(&mut self, words: &[&str]) {
        match parse_position_with(words, self.validation()) {
            Ok(pos) => {
                if self.running.is_some() {
                    self.out.error("position ignored during a search (send stop first)");
                } else {
                    self.pos = pos;
                }
            }
            Err(e) => self.out.error(&e),
        }
    }

    fn go(&mut self, words: &[&str]) {
        if self.running.is_some() {
            return self.out.error("a search is already running (send stop first)");
        }
        let go = match Go::parse(words) {
            Ok(go) => go,
            Err(e) => return self.out.error(&e),
        };
        if let Some(depth) = go.perft {
            return self.perft(depth);
        }
        let mut root_moves = Vec::with_capacity(go.searchmoves.len());
        for m in &go.searchmoves {
            match self.pos.parse_move(m) {
                Ok(m) => root_moves.push(m),
                Err(e) => return self.out.error(&format!("go searchmoves {}: {e}", clip(m, 40))),
            }
        }
        let root_moves = (!root_moves.is_empty()).then_some(root_moves);
        self.start_search(&go, root_moves.as_deref(), None);
    }

    /// `go perft N`: the leaf count under each legal move, then the total, as Stockfish prints them. It runs on
    /// the command thread (like Stockfish's): nothing else is read until it is done.
    fn perft(&self, depth: u32) {
        let rows = xiangqi_movegen::divide(&self.pos, depth, self.engine.settings().threads);
        for (m, n) in &rows {
            self.out.line(&format!("{m}: {n}"));
        }
        let total: u64 = rows.iter().map(|(_, n)| n).sum();
        self.out.line("");
        self.out.line(&format!("Nodes searched: {total}"));
        self.out.line("");
    }

    /// Starts the search of the current position on the engine's threads: it prints its `info` lines and its
    /// `bestmove` (UCCI's when `ucci_draw` is given: whether a draw was offered) by itself.
    pub(crate) fn start_search(&mut self, go: &Go, root_moves: Option<&[Move]>, ucci_draw: Option<bool>) {
        let start = Instant::now();
        let overhead = self.engine.settings().move_overhead;
        let (limits, mode) = go.limits(&self.pos, root_moves, overhead, start);
        let draw_offer = Arc::new(AtomicBool::new(ucci_draw == Some(true)));
        let chooses = self.engine.skill().limits_search(xiangqi_search::skill::GamePly::game_ply(&self.pos));
        let reporter =
            Reporter { out: self.out.clone(), ucci: ucci_draw.is_some(), draw_offer: draw_offer.clone(), chooses };
        let handle = self.engine.go_with(&self.pos, limits, mode, reporter);
        self.running = Some(Running { handle, draw_offer });
    }

    /// UCCI's `ponderhit [draw]`.
    pub(crate) fn ponderhit(&mut self, draw: bool) {
        if let Some(r) = &self.running {
            if draw {
                r.draw_offer.store(true, Ordering::Relaxed);
            }
            r.handle.ponderhit();
        }
    }

    /// A new game: the engine forgets its table and move-ordering memory; the start position; no banned moves.
    pub(crate) fn new_game(&mut self) {
        self.engine.new_game();
        self.pos = Position::startpos();
        self.bans.clear();
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    pub(crate) fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.handle.stop();
            r.handle.wait();
        }
    }

    /// Forgets a search that has finished by itself (waiting the moment it takes to print `bestmove`).
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.handle.is_finished()) {
            if let Some(r) = self.running.take() {
                r.handle.wait();
            }
        }
    }
}

impl Drop for Uci {
    /// Stops a search still running (one under `go infinite` would never end by itself).
    fn drop(&mut self) {
        self.stop();
    }
}

/// Parses the words after `position`, checking a FEN strictly.
pub fn parse_position(words: &[&str]) -> Result<Position, String> {
    parse_position_with(words, Validation::Strict)
}

/// Parses the words after `position`, checking a FEN as `validation` asks.
pub fn parse_position_with(words: &[&str], validation: Validation) -> Result<Position, String> {
    let (mut pos, rest) = match words.first() {
        Some(&"startpos") => (Position::startpos(), &words[1..]),
        Some(&"fen") => {
            let end = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
            let fen = words[1..end].join(" ");
            let pos = Position::from_fen_with(&fen, validation).map_err(|e| format!("bad FEN: {e}"))?;
            (pos, &words[end..])
        }
        _ => return Err("position needs startpos or fen <fen>".to_owned()),
    };
    match rest.first() {
        None => {}
        Some(&"moves") => {
            for (i, text) in rest[1..].iter().enumerate() {
                pos.play(text).map_err(|e| format!("move {} ({}): {e}", i + 1, clip(text, 40)))?;
            }
        }
        Some(other) => return Err(format!("expected moves, found {:?}", clip(other, 40))),
    }
    Ok(pos)
}

/// Runs the UCI loop on standard input and output.
pub fn run_stdio() {
    run_stdio_with(xiangqi_search::Params::default());
}

/// Runs the UCI loop on standard input and output, searching with the tunable numbers `params` (a parameter file
/// given on the command line) until options change them.
pub fn run_stdio_with(params: xiangqi_search::Params) {
    let mut uci = Uci::new(Output::new(std::io::stdout()));
    uci.engine.set_params(params);
    uci.run(std::io::stdin().lock());
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::Mutex;

    /// The lines an engine prints for `input`, fed line by line (any search stopped at the end).
    fn session(input: &[String]) -> Vec<String> {
        #[derive(Clone, Default)]
        struct Sink(Arc<Mutex<Vec<u8>>>);
        impl Write for Sink {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let sink = Sink::default();
        let mut uci = Uci::new(Output::new(sink.clone()));
        for line in input {
            uci.feed(line.as_bytes());
        }
        drop(uci);
        let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_owned).collect()
    }

    /// The `uci` and `ucci` answers, line for line: what GUIs and match runners read the options from.
    #[test]
    fn uci_and_ucci_list_every_option_as_before() {
        let uci = session(&["uci".to_owned()]);
        let id = format!("id name {ENGINE_NAME}");
        // After the engine's and the evaluator's options: one spin per tunable parameter, then `uciok`.
        let tunable: Vec<String> = xiangqi_search::params::PARAMS
            .iter()
            .map(|p| format!("option name {} type spin default {} min {} max {}", p.name, p.default, p.min, p.max))
            .chain(["uciok".to_owned()])
            .collect();
        let (uci, rest) = uci.split_at(uci.len() - tunable.len());
        // UCI_Elo's range is that of the measured levels.
        let (lo, hi) = (xiangqi_search::skill::MIN_ELO, xiangqi_search::skill::MAX_ELO);
        let elo = format!("option name UCI_Elo type spin default {lo} min {lo} max {hi}");
        assert_eq!(rest, tunable);
        assert_eq!(
            uci,
            [
                id.as_str(),
                "id author the xiangqi workspace authors",
                "option name Hash type spin default 16 min 1 max 32768",
                "option name Threads type spin default 1 min 1 max 256",
                "option name MultiPV type spin default 1 min 1 max 128",
                "option name Clear Hash type button",
                "option name Move Overhead type spin default 10 min 0 max 5000",
                "option name Ponder type check default false",
                "option name Lenient type check default false",
                "option name Variant type string default engine",
                "option name Skill Level type spin default 10 min 1 max 10",
                "option name UCI_LimitStrength type check default false",
                elo.as_str(),
                "option name Variety type spin default 0 min 0 max 200",
                "option name Seed type spin default 0 min 0 max 2147483647",
                "option name Use NNUE type check default true",
                "option name EvalFile type string default <embedded>",
                "option name ParamFile type string default <empty>",
            ]
        );
        let ucci = session(&["ucci".to_owned()]);
        assert_eq!(
            ucci,
            [
                id.as_str(),
                "id author the xiangqi workspace authors",
                "option usemillisec type check default true",
                "option ponder type check default false",
                "option hashsize type spin min 1 max 32768 default 16",
                "option threads type spin min 1 max 256 default 1",
                "option variant type string default engine",
                "option newgame type button",
                "ucciok",
            ]
        );
    }

    #[test]
    fn errors_never_echo_a_long_input_back() {
        let (number, word) = ("9".repeat(100_000), "h2e2".repeat(25_000));
        let input = [
            format!("setoption name Hash value {number}"),
            format!("setoption name {word} value 1"),
            format!("setoption name Ponder value {word}"),
            format!("position startpos moves {word}"),
            format!("position startpos {word}"),
            format!("go searchmoves {word}"),
            "ucci".to_owned(),
            format!("setoption hashsize {number}"),
            format!("setoption usemillisec {word}"),
            format!("banmoves {word}"),
            format!("probe startpos moves h2e2 {word}"),
        ];
        let lines = session(&input);
        let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string error: ")).collect();
        assert_eq!(errors.len(), 10, "{lines:?}");
        for e in errors {
            assert!(e.len() < 200 && e.contains("..."), "{e}");
        }
    }

    /// An engine dropped during `go infinite` stops its search (and says its move) instead of leaving the search
    /// thread to run for ever.
    #[test]
    fn dropping_the_engine_stops_its_search() {
        // On a thread of its own, bounded: a regression fails instead of hanging the test run.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(session(&["position startpos".to_owned(), "go infinite".to_owned()]));
        });
        let lines = rx.recv_timeout(std::time::Duration::from_secs(60)).expect("the dropped engine stops its search");
        let best = lines.last().and_then(|l| l.strip_prefix("bestmove ")).unwrap_or_else(|| panic!("{lines:?}"));
        assert!(Position::startpos().parse_move(best.split(' ').next().unwrap()).is_ok(), "{best}");
    }

    #[test]
    fn a_rule_book_setup_loads_when_lenient() {
        let fen = "position fen 4k4/9/9/9/9/9/9/9/9/3KP4 w";
        let lines = |input: &[&str]| session(&input.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        let strict = lines(&[fen, "d"]);
        assert!(strict.iter().any(|l| l.starts_with("info string error: bad FEN")), "{strict:?}");
        let lenient = lines(&["setoption name Lenient value true", fen, "d"]);
        assert!(!lenient.iter().any(|l| l.contains("error")), "{lenient:?}");
        assert!(lenient.iter().any(|l| l.contains("3KP4")), "{lenient:?}");
        let bad = lines(&["setoption name Lenient value maybe"]);
        assert!(bad[0].contains("not true or false"), "{bad:?}");
    }

    #[test]
    fn position_errors_keep_nothing() {
        assert!(parse_position(&["startpos", "moves", "h2e2", "h9g7"]).is_ok());
        let e = parse_position(&["startpos", "moves", "h2e2", "h2e3"]).unwrap_err();
        assert!(e.contains("move 2"), "{e}");
        assert!(parse_position(&["fen", "bad"]).unwrap_err().contains("bad FEN"));
        assert!(parse_position(&[]).is_err());
        assert!(parse_position(&["startpos", "extra"]).is_err());
    }
}
