//! The engine in-process for the input fuzzer: [`Driver`] feeds it lines through `Uci::feed`, collects what it
//! prints through a writer that sends whole lines down a channel, checks every line (see `fuzz_validate.rs`), and
//! after a command that gave an error checks that the engine still answers `isready` and plays a legal move.

#![allow(dead_code)]

use super::fuzz_validate::{self as validate, Line};
use std::collections::BTreeMap;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Once;
use std::time::{Duration, Instant};
use xiangqi_core::Position;
use xiangqi_uci::{Output, Uci};

/// How long a `go depth 1` may take to answer on a loaded machine before the engine counts as hung (times the scale
/// of `XIANGQI_TEST_TIME_SCALE`).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// The scale of every timeout (`XIANGQI_TEST_TIME_SCALE`).
#[path = "../../../xiangqi-search/tests/support/time_scale.rs"]
pub mod time_scale;

/// The engine's output: bytes in, whole lines out.
struct LineSink {
    tx: Sender<String>,
    partial: Vec<u8>,
}

impl Write for LineSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(i) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=i).collect();
            let text = String::from_utf8(line[..i].to_vec()).unwrap_or_else(|e| format!("<not UTF-8: {e}>"));
            let _ = self.tx.send(text);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

static PANICS: AtomicUsize = AtomicUsize::new(0);
static HOOK: Once = Once::new();

/// Counts the panics of the engine's own threads (the search threads and the perft pool): the input loop's are
/// caught where they happen, and the test threads' are the tests' own business.
pub fn count_engine_panics() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let name = std::thread::current().name().map(str::to_owned);
            if name.as_deref().is_none_or(|n| n.starts_with("search-")) {
                PANICS.fetch_add(1, Ordering::SeqCst);
            }
            previous(info);
        }));
    });
}

/// Panics of the engine's threads so far.
pub fn engine_panics() -> usize {
    PANICS.load(Ordering::SeqCst)
}

/// A line of input as a transcript shows it: text, with bytes that are not printable UTF-8 escaped; long lines cut.
pub fn show_bytes(line: &[u8]) -> String {
    let text: String = line.utf8_chunks().fold(String::new(), |mut s, c| {
        s.extend(c.valid().chars().flat_map(char::escape_debug));
        for b in c.invalid() {
            s.push_str(&format!("\\x{b:02x}"));
        }
        s
    });
    clip(&text, 300)
}

fn clip(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}... ({} bytes)", &s[..i], s.len()),
        None => s.to_owned(),
    }
}

/// The words of a line as the engine reads them: a final `\n` or `\r\n` dropped, and when the line is not UTF-8
/// each run of bad bytes a word of its own.
pub fn engine_words(line: &[u8]) -> Vec<String> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let mut text = String::new();
    for chunk in line.utf8_chunks() {
        text.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            text.push_str(" \u{FFFD} ");
        }
    }
    text.split_whitespace().map(str::to_owned).collect()
}

/// What one line did.
pub struct Fed {
    /// The loop goes on (`false` after `quit`).
    pub going: bool,
    /// Everything printed while the line was handled (search lines included).
    pub lines: Vec<Line>,
    /// The line got `info string error: ...`.
    pub error: bool,
}

/// The engine, in-process, with the checks around it.
pub struct Driver {
    uci: Option<Uci>,
    rx: Receiver<String>,
    /// The engine speaks UCCI (it answered `ucciok`).
    pub ucci: bool,
    /// The last lines in and out, for the report of a failure.
    transcript: Vec<String>,
    /// Lines the engine printed.
    pub printed: u64,
    /// Recovery checks made after errors.
    pub probes: u64,
    /// Lines printed, by kind.
    pub tally: BTreeMap<&'static str, u64>,
    panics_at_start: usize,
}

impl Default for Driver {
    fn default() -> Driver {
        Driver::new()
    }
}

impl Driver {
    /// A new engine at the start position.
    pub fn new() -> Driver {
        count_engine_panics();
        let (tx, rx) = channel();
        let uci = Uci::new(Output::new(LineSink { tx, partial: Vec::new() }));
        Driver {
            uci: Some(uci),
            rx,
            ucci: false,
            transcript: Vec::new(),
            printed: 0,
            probes: 0,
            tally: BTreeMap::new(),
            panics_at_start: engine_panics(),
        }
    }

    fn engine(&mut self) -> &mut Uci {
        self.uci.as_mut().expect("the engine is running")
    }

    /// The last lines in and out.
    pub fn transcript(&self) -> String {
        let from = self.transcript.len().saturating_sub(80);
        self.transcript[from..].join("\n")
    }

    fn note(&mut self, entry: String) {
        self.transcript.push(entry);
        if self.transcript.len() > 400 {
            self.transcript.drain(..200);
        }
    }

    fn no_engine_panic(&self) -> Result<(), String> {
        match engine_panics() - self.panics_at_start {
            0 => Ok(()),
            n => Err(format!("{n} panic(s) in the engine's threads")),
        }
    }

    /// Checks one printed line: its form, and a search line against the position searched.
    fn take(&mut self, text: String, searched: &Position) -> Result<Line, String> {
        self.printed += 1;
        self.note(format!("< {}", clip(&text, 300)));
        let line = validate::parse(&text).map_err(|e| format!("malformed line {:?}: {e}", clip(&text, 200)))?;
        validate::check_search_line(&line, searched)?;
        *self.tally.entry(line.kind()).or_default() += 1;
        if line == Line::UcciOk {
            self.ucci = true;
        }
        Ok(line)
    }

    /// Feeds one line and checks everything printed by the time it is handled. A search line is checked against
    /// the position before the line: the position cannot change while a search runs, and a line that changes it
    /// first collects a finished search's `bestmove`.
    pub fn feed(&mut self, line: &[u8]) -> Result<Fed, String> {
        let before = self.engine().position().clone();
        let ucci = self.ucci;
        self.note(format!("> {}", show_bytes(line)));
        let engine = self.engine();
        let going = catch_unwind(AssertUnwindSafe(|| engine.feed(line))).map_err(|p| {
            let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            format!("panic: {}", msg.unwrap_or_default())
        })?;
        self.no_engine_panic()?;
        let mut lines = Vec::new();
        while let Ok(text) = self.rx.try_recv() {
            lines.push(self.take(text, &before)?);
        }
        let answer: Vec<Line> =
            lines.iter().filter(|l| !l.is_async() && !matches!(l, Line::Error(_))).cloned().collect();
        let words = engine_words(line);
        let word = words.first().map_or("", String::as_str);
        validate::check_answer(word, ucci, &answer, &before, going)?;
        let error = lines.iter().any(|l| matches!(l, Line::Error(_)));
        Ok(Fed { going, lines, error })
    }

    /// Feeds a command that must not fail.
    fn must(&mut self, line: &str) -> Result<Fed, String> {
        let fed = self.feed(line.as_bytes())?;
        if fed.error {
            return Err(format!("the engine did not recover: {line:?} failed"));
        }
        Ok(fed)
    }

    /// The final answer of a search (`bestmove ...` or `nobestmove`), among `seen` or still to come.
    fn answer(&mut self, seen: Vec<Line>, searched: &Position) -> Result<Line, String> {
        if let Some(l) = seen.into_iter().find(|l| matches!(l, Line::BestMove(..) | Line::NoBestMove)) {
            return Ok(l);
        }
        let end = Instant::now() + time_scale::scaled(ANSWER_TIMEOUT);
        loop {
            match self.rx.recv_timeout(end.saturating_duration_since(Instant::now())) {
                Ok(text) => {
                    let l = self.take(text, searched)?;
                    if matches!(l, Line::BestMove(..) | Line::NoBestMove) {
                        return Ok(l);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err("no bestmove within a minute".to_owned()),
                Err(RecvTimeoutError::Disconnected) => return Err("the engine's output closed".to_owned()),
            }
        }
    }

    /// After an error: the engine answers `isready`, shows its position with `d`, and plays a legal move in it
    /// with `go depth 1` (any search stopped first; in UCCI the banned moves cleared).
    pub fn probe(&mut self) -> Result<(), String> {
        self.probes += 1;
        self.must("stop")?;
        if self.ucci {
            self.must("banmoves")?;
        }
        self.must("isready")?;
        let shown = self.must("d")?;
        let fen = shown.lines.iter().find_map(|l| if let Line::Fen(f) = l { Some(f.clone()) } else { None });
        let fen = fen.ok_or("d shows no Fen line")?;
        let pos = Position::from_fen(&fen).map_err(|e| format!("d's FEN {fen} does not read back: {e}"))?;
        let searched = self.engine().position().clone();
        let fed = self.must("go depth 1")?;
        match self.answer(fed.lines, &searched)? {
            Line::BestMove(Some(m), _) => {
                pos.parse_move(&m.to_string()).map_err(|e| format!("go depth 1 played {m}: {e} in {fen}"))?;
            }
            _ if pos.has_legal_move() && !self.ucci => return Err(format!("no move played in {fen}")),
            // UCCI's nobestmove: none to play (bans are cleared).
            _ if pos.has_legal_move() => return Err(format!("nobestmove in {fen}")),
            _ => {}
        }
        Ok(())
    }

    /// Ends the session: stops any search, checks `isready` once more, drops the engine (which stops a search
    /// still running) and checks what it printed last.
    pub fn finish(&mut self, quit: bool) -> Result<(), String> {
        if !quit {
            self.must("stop")?;
            self.must("isready")?;
        }
        let last = self.engine().position().clone();
        drop(self.uci.take());
        while let Ok(text) = self.rx.try_recv() {
            self.take(text, &last)?;
        }
        self.no_engine_panic()
    }
}
