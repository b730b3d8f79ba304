//! The UCI protocol as Pikafish speaks it, so that GUIs which run Pikafish can run this engine; and UCCI as
//! ElephantEye speaks it, for the GUIs and match runners of the UCCI world.
//!
//! The input loop never blocks on the search: `go` starts the search on its own thread, and `isready`, `stop`,
//! `ponderhit` and `quit` are answered while it runs. Bad input (an illegal move or a bad FEN in `position`, an
//! unknown command or option, a malformed `go`, a value out of range) gets `info string error: ...` and changes
//! nothing. A line that is not UTF-8 (GBK text from a GUI on a Chinese system, a stray byte) is not the end of
//! the input: it gets an error saying so, and its words are then read as usual, each run of bytes that are not
//! UTF-8 read as a word of its own (U+FFFD), so that `isready` followed by a stray byte still answers
//! `readyok` while a garbled move or option value is rejected (see [`Uci::feed`]).
//!
//! `go` takes what Pikafish's does: `wtime`, `btime`, `winc`, `binc`, `movetime` (milliseconds, not negative),
//! `movestogo` (at least 1), `depth` (1 to [`MAX_GO_DEPTH`]), `nodes` (at least 1), `infinite`, `ponder`,
//! `mate <n>` (1 to [`MAX_GO_MATE`]; stop once a mate in at most n moves is found), `searchmoves <m1> <m2> ...`
//! (search only these root moves; each must be legal) and `perft <n>` (1 to [`MAX_UCI_PERFT`]; the leaf count
//! under each move and the total, printed as `<move>: <count>` lines and `Nodes searched: <total>`, on the command
//! thread). A value out of its range is an error, never quietly moved into it. As in Stockfish, `d` draws the
//! position with its FEN and key, and `eval` prints the evaluation's breakdown by term (in UCCI too).
//!
//! # UCCI
//!
//! The engine starts in UCI; a `ucci` command switches it to UCCI for the rest of the session (answered with the
//! `id` lines, the options and `ucciok`). UCCI differs from UCI in these commands, as the UCCI specification and
//! ElephantEye have them:
//!
//! - `setoption <name> [<value>]`: `usemillisec` (on by default, as in ElephantEye; off means `go` times are in
//!   seconds), `hashsize` (MB), `threads`, `variant`, `newgame`, `ponder`; the other options of the specification
//!   (`batch`, `debug`, `usebook`, `bookfiles`, `useegtb`, `egtbpaths`, `promotion`, `idle`, `pruning`,
//!   `knowledge`, `randomness`, `style`, `repetition`, `drawmoves`) are accepted and have no effect.
//! - `position {fen <FEN> | startpos} [moves ...]` as in UCI; it clears the banned moves.
//! - `banmoves <m1> <m2> ...`: the next search does not play these moves (they are left out of the root moves, as
//!   UCI's `searchmoves` leaves out the moves it does not name).
//! - `go [ponder | draw] {depth <n> | depth infinite | nodes <n> | time <t> [movestogo <n> | increment <i>]
//!   [opptime <t> [oppmovestogo <n> | oppincrement <i>]]}`; a bare `go` searches until `stop`. `draw` offers a
//!   draw: the answer `bestmove <m> draw` accepts it, which the engine does when its score is not positive. The
//!   ranges are UCI's: `depth` 1 to [`MAX_GO_DEPTH`], `nodes` and `movestogo` at least 1.
//! - `ponderhit [draw]`, `stop`, `isready` as in UCI; `stop` with no search running answers `nobestmove`.
//! - `probe {fen <FEN> | startpos} [moves ...]`: `pophash [bestmove <m>] [lowerbound <v> depth <d>]
//!   [upperbound <v> depth <d>]` from the transposition table, or a bare `pophash`.
//! - `info depth <d> score <v> pv ...` and `info time <ms> nodes <n>` while searching; `bestmove <m> [ponder <m>]
//!   [draw]`, or `nobestmove` when there is no move to play.
//! - `quit` (or `bye`) is answered with `bye`.
//! - `d` and `eval` as in UCI (they are this engine's, not the specification's).

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use xiangqi_core::{Color, Move, Position, Validation};
use xiangqi_eval::EvalChoice;
use xiangqi_search::tt::Bound;
use xiangqi_search::{
    Clock, GameTree, Limits, Score, SearchMemory, SearchPool, SearchResult, Signals, TranspositionTable, VariantSpec,
    MATE, MATE_BOUND,
};

/// Engine name sent in `id name`.
pub const ENGINE_NAME: &str = concat!("xiangqi ", env!("CARGO_PKG_VERSION"));

/// The variant the engine plays with by default.
pub const DEFAULT_VARIANT: &str = "engine";

/// Where UCI output goes; shared by the input loop and the search thread, one whole line at a time.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to `w`.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line and flushes it.
    pub fn line(&self, text: &str) {
        if let Ok(mut w) = self.0.lock() {
            let _ = writeln!(w, "{text}");
            let _ = w.flush();
        }
    }

    fn error(&self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }
}

/// The engine's settings (`setoption`).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Time kept back for communication, per move.
    pub move_overhead: Duration,
    /// The search variant.
    pub variant: VariantSpec,
    /// The variant's text, as given.
    pub variant_text: String,
    /// How `position fen` checks its FEN (option `Lenient`: load the setups of rule books and studies).
    pub validation: Validation,
    /// Option `Use NNUE` (on by default): search with the network instead of the handcrafted evaluator.
    pub use_nnue: bool,
    /// The network of option `EvalFile`, with the file's name as given (the built-in network at first,
    /// [`xiangqi_eval::EMBEDDED_NAME`]).
    pub network: (String, Arc<xiangqi_eval::nnue::Network>),
}

impl Settings {
    /// The evaluator searches use: the network when `Use NNUE` is on, else the handcrafted one.
    pub fn eval_choice(&self) -> EvalChoice {
        if self.use_nnue {
            EvalChoice::Nnue(self.network.1.clone())
        } else {
            EvalChoice::Handcrafted
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            variant: DEFAULT_VARIANT.parse().expect("the default variant parses"),
            variant_text: DEFAULT_VARIANT.to_owned(),
            validation: Validation::Strict,
            use_nnue: true,
            network: (xiangqi_eval::EMBEDDED_NAME.to_owned(), xiangqi_eval::embedded_network()),
        }
    }
}

/// The parameters of `go`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go {
    /// Red's clock.
    pub wtime: Option<u64>,
    /// Black's clock.
    pub btime: Option<u64>,
    /// Red's increment.
    pub winc: Option<u64>,
    /// Black's increment.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u64>,
    /// Time for this move.
    pub movetime: Option<u64>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search only these root moves (as written; checked against the position when the search starts).
    pub searchmoves: Vec<String>,
    /// Count the leaves of the move tree to this depth, move by move, instead of searching.
    pub perft: Option<u32>,
}

/// The deepest `go perft` the UCI loop runs: under a second at the start position on one thread (6 takes half a
/// minute).
pub const MAX_UCI_PERFT: u64 = 5;

/// The deepest `go depth` (UCI and UCCI): the search's iterations go no deeper.
pub const MAX_GO_DEPTH: u64 = 120;

/// The longest mate `go mate` looks for, in moves.
pub const MAX_GO_MATE: u64 = 60;

/// The words `go` takes as parameter names: `searchmoves` takes the moves up to the next one.
pub const GO_WORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
    "perft",
];

/// `text`, from the input, as an error message shows it: at most `n` characters, `...` marking a cut (a 100 KB
/// line is not echoed back).
fn clip(text: &str, n: usize) -> String {
    match text.char_indices().nth(n) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_owned(),
    }
}

/// The value `v` of the `go` parameter `name`: a whole number from 0 up. A negative number says so (a time
/// included: a clock below zero is the GUI's error, and a search on it would be a guess).
fn go_number(name: &str, v: &str) -> Result<u64, String> {
    let shown = clip(v, 40);
    let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        Err(format!("go {name}: {shown:?} is not a number"))
    } else if v.starts_with('-') && digits.bytes().any(|b| b != b'0') {
        Err(format!("go {name}: {shown} is negative"))
    } else {
        digits.parse::<u64>().map_err(|_| format!("go {name}: {shown} is too large"))
    }
}

/// `n`, the value of the `go` parameter `name`, when it lies in `lo..=hi`; else an error naming the range.
fn go_range(name: &str, n: u64, lo: u64, hi: u64) -> Result<u64, String> {
    match (n < lo, n > hi) {
        (false, false) => Ok(n),
        _ if hi == u64::MAX => Err(format!("go {name} must be at least {lo}, not {n}")),
        _ => Err(format!("go {name} must be from {lo} to {hi}, not {n}")),
    }
}

impl Go {
    /// Parses the words after `go`. Every value is checked against its range (see the module's documentation);
    /// none is quietly changed.
    pub fn parse(words: &[&str]) -> Result<Go, String> {
        let mut go = Go::default();
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            let mut value = |name: &str| -> Result<u64, String> {
                i += 1;
                go_number(name, words.get(i).ok_or_else(|| format!("go {name} needs a value"))?)
            };
            match w {
                "wtime" => go.wtime = Some(value(w)?),
                "btime" => go.btime = Some(value(w)?),
                "winc" => go.winc = Some(value(w)?),
                "binc" => go.binc = Some(value(w)?),
                "movetime" => go.movetime = Some(value(w)?),
                "movestogo" => go.movestogo = Some(go_range(w, value(w)?, 1, u64::MAX)?),
                "depth" => go.depth = Some(go_range(w, value(w)?, 1, MAX_GO_DEPTH)? as u32),
                "nodes" => go.nodes = Some(go_range(w, value(w)?, 1, u64::MAX)?),
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "mate" => go.mate = Some(go_range(w, value(w)?, 1, MAX_GO_MATE)? as u32),
                "perft" => {
                    // It runs on the command thread: a count that takes minutes would leave the engine deaf.
                    let depth = value(w)?;
                    if depth > MAX_UCI_PERFT {
                        return Err(format!(
                            "go perft must be from 1 to {MAX_UCI_PERFT}, not {depth} (xiangqi perft --depth {depth} \
                             counts deeper)"
                        ));
                    }
                    go.perft = Some(go_range(w, depth, 1, MAX_UCI_PERFT)? as u32);
                }
                "searchmoves" => {
                    while let Some(m) = words.get(i + 1).filter(|m| !GO_WORDS.contains(m)) {
                        go.searchmoves.push((*m).to_owned());
                        i += 1;
                    }
                    if go.searchmoves.is_empty() {
                        return Err("go searchmoves needs at least one move".to_owned());
                    }
                }
                other => return Err(format!("unknown go parameter {:?}", clip(other, 40))),
            }
            i += 1;
        }
        Ok(go)
    }

    /// Soft (optimum) and hard (maximum) time for the side `us`, or `None` when the clock does not limit the
    /// search. The hard limit never exceeds 80% of the remaining time less the overhead, counted from the moment
    /// `go` arrives, so the engine does not lose on time as long as its threads have cores to run on (with more
    /// threads than cores, stopping them can take longer than a short clock: raise `Move Overhead`). The search
    /// threads are started once and kept from one `go` to the next.
    pub fn time_limits(&self, us: Color, overhead: Duration) -> (Option<Duration>, Option<Duration>) {
        let ms = Duration::from_millis;
        if let Some(t) = self.movetime {
            let hard = t.saturating_sub(overhead.as_millis() as u64).max(1);
            return (None, Some(ms(hard)));
        }
        let (time, inc) = match us {
            Color::Red => (self.wtime, self.winc.unwrap_or(0)),
            Color::Black => (self.btime, self.binc.unwrap_or(0)),
        };
        let Some(time) = time else { return (None, None) };
        let moves_to_go = self.movestogo.map(|n| n.min(u64::from(u32::MAX)) as u32);
        let clock = Clock { time: ms(time), increment: ms(inc), moves_to_go };
        let (soft, hard) = clock.allocate(overhead);
        (Some(soft), Some(hard))
    }
}

/// `cp N` or `mate N` as UCI prints scores (mate in moves, negative when the engine is mated).
pub fn uci_score(score: Score) -> String {
    if score.abs() >= MATE_BOUND {
        let moves = (MATE - score.abs() + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

struct Running {
    handle: JoinHandle<()>,
    signals: Arc<Signals>,
    /// UCCI: a draw offered by `go draw` or `ponderhit draw`.
    draw_offer: Arc<AtomicBool>,
    /// Raised by the search thread just before it prints `bestmove`: whatever the GUI sends after seeing
    /// `bestmove` finds the search over.
    done: Arc<AtomicBool>,
    /// Raised by `stop` (and `quit`): under `go infinite` or `go ponder`, `bestmove` waits for it (or, pondering,
    /// for `ponderhit`). The search's own stop signal cannot serve: the search raises it itself when it ends, to
    /// stop its helper threads.
    stop_requested: Arc<AtomicBool>,
}

/// How the search thread speaks: UCI, or UCCI with its banned moves and draw offer.
#[derive(Debug, Clone, Default)]
struct Style {
    ucci: bool,
    /// The root moves the search may play (`go searchmoves`, or every move but UCCI's `banmoves`); `None` for all.
    root_moves: Option<Vec<Move>>,
    draw_offer: bool,
}

/// The UCI engine: the current position, settings, the shared table and the running search.
pub struct Uci {
    out: Output,
    pos: Position,
    settings: Settings,
    tt: Arc<TranspositionTable>,
    /// What the searches of this game learnt about move ordering (history and countermoves), kept from one
    /// `go` to the next until `ucinewgame`, as Stockfish keeps its history.
    memory: Arc<SearchMemory>,
    /// The search threads, kept from one `go` to the next while the `Threads` option stays the same (started at
    /// the first `go`).
    pool: Option<Arc<SearchPool>>,
    running: Option<Running>,
    /// Speaking UCCI (after a `ucci` command).
    ucci: bool,
    /// UCCI: `go` times are in milliseconds (else seconds).
    millis: bool,
    /// UCCI: moves the next search may not play (`banmoves`).
    bans: Vec<Move>,
}

impl Uci {
    /// An engine writing to `out`, at the start position.
    pub fn new(out: Output) -> Uci {
        let settings = Settings::default();
        let tt = Arc::new(TranspositionTable::new(settings.hash_mb));
        Uci {
            out,
            pos: Position::startpos(),
            settings,
            tt,
            memory: Arc::new(SearchMemory::new()),
            pool: None,
            running: None,
            ucci: false,
            millis: true,
            bans: Vec::new(),
        }
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
    /// use xiangqi_cli::uci::{Output, Uci};
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
                self.tt.clear();
                self.memory.clear();
                self.pos = Position::startpos();
            }
            "setoption" => self.setoption(&words[1..]),
            "position" => self.set_position(&words[1..]),
            "go" => self.go(&words[1..]),
            "stop" => self.stop(),
            "ponderhit" => {
                if let Some(r) = &self.running {
                    r.signals.ponder.store(false, Ordering::Relaxed);
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
    fn show(&self) {
        for l in self.pos.to_string().lines() {
            self.out.line(l);
        }
        self.out.line(&format!("Fen: {}", self.pos.fen()));
        self.out.line(&format!("Key: {:016X}", self.pos.key()));
    }

    /// `eval`: the evaluation's breakdown by term.
    fn eval(&self) {
        let trace = xiangqi_eval::Handcrafted::default().trace(&self.pos);
        for l in trace.table(&self.pos.fen()).lines() {
            self.out.line(l);
        }
        if let choice @ EvalChoice::Nnue(_) = self.settings.eval_choice() {
            let v = choice.evaluate(&self.pos);
            self.out.line(&format!("NNUE evaluation: {v:+} for {} (side to move), searches use it", self.pos.turn()));
        }
    }

    fn uci(&self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line("id author the xiangqi workspace authors");
        self.out.line("option name Hash type spin default 16 min 1 max 32768");
        self.out.line("option name Threads type spin default 1 min 1 max 256");
        self.out.line("option name MultiPV type spin default 1 min 1 max 128");
        self.out.line("option name Clear Hash type button");
        self.out.line("option name Move Overhead type spin default 10 min 0 max 5000");
        self.out.line("option name Ponder type check default false");
        self.out.line("option name Lenient type check default false");
        self.out.line(&format!("option name Variant type string default {DEFAULT_VARIANT}"));
        self.out.line("option name Use NNUE type check default true");
        self.out.line(&format!("option name EvalFile type string default {}", xiangqi_eval::EMBEDDED_NAME));
        self.out.line("uciok");
    }

    fn setoption(&mut self, words: &[&str]) {
        // setoption name <name words> [value <value words>]; `value` with nothing after it gives no value.
        let (Some(&"name"), Some(rest)) = (words.first(), words.get(1..).filter(|r| !r.is_empty())) else {
            return self.out.error("setoption needs: setoption name <name> [value <value>]");
        };
        let (name, value) = match rest.iter().position(|&w| w == "value") {
            Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" ")).filter(|v| !v.is_empty())),
            None => (rest.join(" "), None),
        };
        let (name, value) = (name.as_str(), value.as_deref());
        let lname = name.to_ascii_lowercase();
        if self.running.is_some() && lname != "ponder" {
            return self.out.error(&format!("cannot change {} during a search", clip(name, 40)));
        }
        let name = clip(name, 40);
        let name = name.as_str();
        let number = |lo: u64, hi: u64| -> Result<u64, String> {
            let v = value.ok_or_else(|| format!("option {name} needs a value"))?;
            match v.parse::<u64>() {
                Ok(n) if (lo..=hi).contains(&n) => Ok(n),
                _ => Err(format!("option {name}: {:?} is not a number from {lo} to {hi}", clip(v, 40))),
            }
        };
        let result = match lname.as_str() {
            "hash" => number(1, 32768).and_then(|mb| self.resize_table(mb as usize)),
            "threads" => number(1, 256).map(|n| self.settings.threads = n as usize),
            "multipv" => number(1, 128).map(|n| self.settings.multipv = n as usize),
            "move overhead" => number(0, 5000).map(|n| self.settings.move_overhead = Duration::from_millis(n)),
            "clear hash" => {
                self.tt.clear();
                Ok(())
            }
            // Pondering is the GUI's choice (`go ponder`); the option only tells the GUI that the engine can.
            "lenient" => match value {
                Some("true") => Ok(Validation::Lenient),
                Some("false") => Ok(Validation::Strict),
                Some(v) => Err(format!("option Lenient: {:?} is not true or false", clip(v, 40))),
                None => Err("option Lenient needs a value".to_owned()),
            }
            .map(|v| self.settings.validation = v),
            "ponder" => match value {
                Some("true" | "false") => Ok(()),
                Some(v) => Err(format!("option Ponder: {:?} is not true or false", clip(v, 40))),
                None => Err("option Ponder needs a value".to_owned()),
            },
            "variant" => match value.map(str::parse::<VariantSpec>) {
                Some(Ok(v)) => {
                    self.settings.variant = v;
                    self.settings.variant_text = value.unwrap_or_default().to_owned();
                    Ok(())
                }
                Some(Err(e)) => Err(e.to_string()),
                None => Err("option Variant needs a value".to_owned()),
            },
            "use nnue" => match value {
                Some("true") => {
                    self.settings.use_nnue = true;
                    Ok(())
                }
                Some("false") => {
                    self.settings.use_nnue = false;
                    Ok(())
                }
                Some(v) => Err(format!("option Use NNUE: {:?} is not true or false", clip(v, 40))),
                None => Err("option Use NNUE needs a value".to_owned()),
            },
            "evalfile" => match value {
                Some(xiangqi_eval::EMBEDDED_NAME) => {
                    self.settings.network = (xiangqi_eval::EMBEDDED_NAME.to_owned(), xiangqi_eval::embedded_network());
                    self.out.line("info string the built-in network is loaded");
                    Ok(())
                }
                Some(path) => match xiangqi_eval::nnue::Network::load(std::path::Path::new(path)) {
                    Ok(net) => {
                        self.out.line(&format!(
                            "info string loaded network {} (hidden {}, hash {:016x})",
                            clip(path, 200),
                            net.hidden(),
                            net.hash()
                        ));
                        self.settings.network = (path.to_owned(), Arc::new(net));
                        Ok(())
                    }
                    Err(e) => Err(format!("{e}; the evaluator is unchanged")),
                },
                None => Err("option EvalFile needs a value".to_owned()),
            },
            _ => Err(format!("unknown option {:?}", clip(name, 40))),
        };
        if let Err(e) = result {
            self.out.error(&e);
        }
    }

    /// `position startpos|fen <fen> [moves m1 m2 ...]`: builds the new position completely before replacing the old.
    fn set_position(&mut self, words: &[&str]) {
        match parse_position_with(words, self.settings.validation) {
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
        self.start_search(go, Style { root_moves, ..Style::default() });
    }

    /// `go perft N`: the leaf count under each legal move, then the total, as Stockfish prints them. It runs on
    /// the command thread (like Stockfish's): nothing else is read until it is done.
    fn perft(&self, depth: u32) {
        let rows = xiangqi_movegen::divide(&self.pos, depth, self.settings.threads);
        for (m, n) in &rows {
            self.out.line(&format!("{m}: {n}"));
        }
        let total: u64 = rows.iter().map(|(_, n)| n).sum();
        self.out.line("");
        self.out.line(&format!("Nodes searched: {total}"));
        self.out.line("");
    }

    /// Starts the search of the current position on its own thread.
    fn start_search(&mut self, go: Go, style: Style) {
        let start = Instant::now();
        let (soft, hard) = go.time_limits(self.pos.turn(), self.settings.move_overhead);
        let signals = Arc::new(Signals::default());
        signals.ponder.store(go.ponder, Ordering::Relaxed);
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: if go.infinite { None } else { hard },
            soft_time: if go.infinite { None } else { soft },
            signals: Some(signals.clone()),
            iterative: true,
            root_moves: style
                .root_moves
                .as_ref()
                .map(|r| r.iter().map(|&m| <Position as GameTree>::encode_move(m)).collect()),
            mate: go.mate,
            start: Some(start),
            multipv: self.settings.multipv,
        };
        let pos = self.pos.clone();
        let eval = self.settings.eval_choice();
        let spec = self.settings.variant;
        let draw_offer = Arc::new(AtomicBool::new(style.draw_offer));
        let draw_flag = draw_offer.clone();
        let Some(pool) = self.search_pool() else {
            return self.out.line("bestmove (none)");
        };
        let tt = self.tt.clone();
        let memory = Some(self.memory.clone());
        let out = self.out.clone();
        let wait_for_stop = go.infinite || go.ponder;
        let sig = signals.clone();
        let done = Arc::new(AtomicBool::new(false));
        let done_flag = done.clone();
        let stop_requested = Arc::new(AtomicBool::new(false));
        let released = stop_requested.clone();
        let handle = std::thread::spawn(move || {
            let make_eval = |p: &Position| eval.for_search(p);
            let result = pool.search(&spec, &pos, make_eval, &limits, tt.clone(), memory, |r: &SearchResult<Move>| {
                if style.ucci {
                    report_ucci(&out, r, &sig, start)
                } else {
                    report(&out, r, &sig, &tt, start)
                }
            });
            // Under `go infinite` or `go ponder`, bestmove waits for stop (or ponderhit, for ponder).
            while wait_for_stop
                && !released.load(Ordering::Relaxed)
                && (go.infinite || sig.ponder.load(Ordering::Relaxed))
            {
                std::thread::sleep(Duration::from_millis(2));
            }
            if style.ucci {
                done_flag.store(true, Ordering::Release);
                return out.line(&ucci_bestmove(&result, draw_flag.load(Ordering::Relaxed)));
            }
            let best = result.best_move.map_or("(none)".to_owned(), |m| m.to_string());
            done_flag.store(true, Ordering::Release);
            match result.pv.get(1) {
                Some(p) => out.line(&format!("bestmove {best} ponder {p}")),
                None => out.line(&format!("bestmove {best}")),
            }
        });
        self.running = Some(Running { handle, signals, draw_offer, done, stop_requested });
    }

    /// The search threads for `Threads`: the pool of the last search when its size is still right, else a new one
    /// (on an error, said as such, the old pool when there is one).
    fn search_pool(&mut self) -> Option<Arc<SearchPool>> {
        let threads = self.settings.threads;
        if self.pool.as_ref().is_none_or(|p| p.threads() != threads) {
            match SearchPool::new(threads) {
                Ok(pool) => self.pool = Some(Arc::new(pool)),
                Err(e) => self.out.error(&format!("cannot start {threads} search threads: {e}")),
            }
        }
        self.pool.clone()
    }

    /// A new table of `mb` megabytes, or an error (and the old table kept) when the memory cannot be had.
    fn resize_table(&mut self, mb: usize) -> Result<(), String> {
        let tt = Arc::new(TranspositionTable::try_new(mb).map_err(|e| e.to_string())?);
        // `readyok` comes at once; the pages are faulted in meanwhile, before the first search needs them.
        tt.prefault_in_background();
        self.settings.hash_mb = mb;
        self.tt = tt;
        Ok(())
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop_requested.store(true, Ordering::Relaxed);
            r.signals.stop.store(true, Ordering::Relaxed);
            r.signals.ponder.store(false, Ordering::Relaxed);
            let _ = r.handle.join();
        }
    }

    /// Forgets a search that has finished by itself (waiting the moment it takes to print `bestmove`).
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.done.load(Ordering::Acquire) || r.handle.is_finished()) {
            if let Some(r) = self.running.take() {
                let _ = r.handle.join();
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

impl Uci {
    fn ucci_hello(&self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line("id author the xiangqi workspace authors");
        self.out.line("option usemillisec type check default true");
        self.out.line("option ponder type check default false");
        self.out.line("option hashsize type spin min 1 max 32768 default 16");
        self.out.line("option threads type spin min 1 max 256 default 1");
        self.out.line(&format!("option variant type string default {DEFAULT_VARIANT}"));
        self.out.line("option newgame type button");
        self.out.line("ucciok");
    }

    /// Handles one UCCI command line; `false` after `quit`/`bye`.
    fn ucci_command(&mut self, words: &[&str]) -> bool {
        match words[0] {
            "ucci" => self.ucci_hello(),
            "isready" => self.out.line("readyok"),
            "setoption" => self.ucci_setoption(&words[1..]),
            "position" => {
                self.set_position(&words[1..]);
                if self.running.is_none() {
                    self.bans.clear();
                }
            }
            "banmoves" => {
                let bans: Result<Vec<Move>, String> = words[1..]
                    .iter()
                    .map(|m| self.pos.parse_move(m).map_err(|e| format!("banmoves {}: {e}", clip(m, 40))))
                    .collect();
                match bans {
                    Ok(b) => self.bans = b,
                    Err(e) => self.out.error(&e),
                }
            }
            "go" => {
                if self.running.is_some() {
                    self.out.error("a search is already running (send stop first)");
                    return true;
                }
                match parse_ucci_go(&words[1..], self.millis, self.pos.turn()) {
                    Ok((go, draw_offer)) => {
                        // Banned moves leave the root: the search plays the best of the others.
                        let root_moves = (!self.bans.is_empty()).then(|| {
                            let legal = xiangqi_movegen::legal_moves(&self.pos);
                            legal.iter().copied().filter(|m| !self.bans.contains(m)).collect()
                        });
                        let style = Style { ucci: true, root_moves, draw_offer };
                        self.start_search(go, style);
                    }
                    Err(e) => self.out.error(&e),
                }
            }
            "ponderhit" => {
                if let Some(r) = &self.running {
                    if words.get(1) == Some(&"draw") {
                        r.draw_offer.store(true, Ordering::Relaxed);
                    }
                    r.signals.ponder.store(false, Ordering::Relaxed);
                }
            }
            "stop" => {
                if self.running.is_some() {
                    self.stop();
                } else {
                    self.out.line("nobestmove");
                }
            }
            "probe" => match parse_position(&words[1..]) {
                Ok(pos) => self.out.line(&probe(&self.tt, &pos)),
                Err(e) => self.out.error(&e),
            },
            "quit" | "bye" => {
                self.stop();
                self.out.line("bye");
                return false;
            }
            "d" => self.show(),
            "eval" => self.eval(),
            other => self.out.error(&format!("unknown command {:?}", clip(other, 40))),
        }
        true
    }

    /// `setoption <name> [<value>]`, the UCCI form.
    fn ucci_setoption(&mut self, words: &[&str]) {
        let Some((name, value)) = words.split_first() else {
            return self.out.error("setoption needs: setoption <name> [<value>]");
        };
        let name = name.to_ascii_lowercase();
        let value = value.join(" ");
        let shown = clip(&name, 40);
        if self.running.is_some() {
            return self.out.error(&format!("cannot change {shown} during a search"));
        }
        let check = |v: &str| match v {
            "true" | "on" => Ok(true),
            "false" | "off" => Ok(false),
            _ => Err(format!("option {shown}: {:?} is not true or false", clip(v, 40))),
        };
        let number = |lo: usize, hi: usize| match value.parse::<usize>() {
            Ok(n) if (lo..=hi).contains(&n) => Ok(n),
            _ => Err(format!("option {shown}: {:?} is not a number from {lo} to {hi}", clip(&value, 40))),
        };
        let result = match name.as_str() {
            "usemillisec" => check(&value).map(|b| self.millis = b),
            "hashsize" => number(1, 32768).and_then(|mb| self.resize_table(mb)),
            "threads" => number(1, 256).map(|n| self.settings.threads = n),
            "variant" => value.parse::<VariantSpec>().map_err(|e| e.to_string()).map(|v| {
                self.settings.variant = v;
                self.settings.variant_text = value.clone();
            }),
            "newgame" => {
                self.tt.clear();
                self.memory.clear();
                self.pos = Position::startpos();
                self.bans.clear();
                Ok(())
            }
            "ponder" | "batch" | "debug" | "usebook" | "bookfiles" | "useegtb" | "egtbpaths" | "promotion" | "idle"
            | "pruning" | "knowledge" | "randomness" | "style" | "repetition" | "drawmoves" => Ok(()),
            _ => Err(format!("unknown option {:?}", shown)),
        };
        if let Err(e) = result {
            self.out.error(&e);
        }
    }
}

/// Parses the words after a UCCI `go` into the UCI form, for the side `us`, with times in milliseconds
/// (`millis`) or seconds; also says whether a draw was offered (`go draw`).
pub fn parse_ucci_go(words: &[&str], millis: bool, us: Color) -> Result<(Go, bool), String> {
    let mut go = Go::default();
    let mut words = words;
    let mut draw = false;
    match words.first() {
        Some(&"ponder") => {
            go.ponder = true;
            words = &words[1..];
        }
        Some(&"draw") => {
            draw = true;
            words = &words[1..];
        }
        _ => {}
    }
    let unit = if millis { 1 } else { 1000 };
    let number = |i: usize, name: &str| -> Result<u64, String> {
        go_number(name, words.get(i).ok_or_else(|| format!("go {name} needs a value"))?)
    };
    let (mine, theirs) = match us {
        Color::Red => ((&mut go.wtime, &mut go.winc), (&mut go.btime, &mut go.binc)),
        Color::Black => ((&mut go.btime, &mut go.binc), (&mut go.wtime, &mut go.winc)),
    };
    let mut i = 0;
    match words.first() {
        None | Some(&"infinite") => go.infinite = true,
        Some(&"depth") if words.get(1) == Some(&"infinite") => go.infinite = true,
        Some(&"depth") => go.depth = Some(go_range("depth", number(1, "depth")?, 1, MAX_GO_DEPTH)? as u32),
        Some(&"nodes") => go.nodes = Some(go_range("nodes", number(1, "nodes")?, 1, u64::MAX)?),
        Some(&"time") => {
            *mine.0 = Some(number(1, "time")?.saturating_mul(unit));
            i = 2;
            while i < words.len() {
                let w = words[i];
                if !["movestogo", "increment", "opptime", "oppincrement", "oppmovestogo"].contains(&w) {
                    return Err(format!("unknown go parameter {:?}", clip(w, 40)));
                }
                let v = number(i + 1, w)?;
                match w {
                    "movestogo" => go.movestogo = Some(go_range(w, v, 1, u64::MAX)?),
                    "increment" => *mine.1 = Some(v.saturating_mul(unit)),
                    "opptime" => *theirs.0 = Some(v.saturating_mul(unit)),
                    "oppincrement" => *theirs.1 = Some(v.saturating_mul(unit)),
                    _ => {
                        go_range(w, v, 1, u64::MAX)?;
                    }
                }
                i += 2;
            }
        }
        Some(other) => return Err(format!("unknown go mode {:?}", clip(other, 40))),
    }
    if i == 0 && words.len() > 2 {
        return Err(format!("unexpected {:?} after go {}", clip(words[2], 40), words[0]));
    }
    Ok((go, draw))
}

/// The final UCCI answer: the search's move (banned moves never reach it), with `ponder` and with `draw` when a
/// draw was offered and the score is not positive; `nobestmove` when there is no move to play.
fn ucci_bestmove(result: &SearchResult<Move>, draw_offered: bool) -> String {
    let Some(best) = result.best_move else { return "nobestmove".to_owned() };
    let mut s = format!("bestmove {best}");
    if let Some(p) = result.pv.get(1) {
        s.push_str(&format!(" ponder {p}"));
    }
    if draw_offered && result.score <= 0 {
        s.push_str(" draw");
    }
    s
}

/// The UCCI `pophash` answer for `pos` from the table.
fn probe(tt: &TranspositionTable, pos: &Position) -> String {
    let Some(hit) = tt.probe(pos.key(), 0) else { return "pophash".to_owned() };
    let mut s = "pophash".to_owned();
    if let Some(m) = Move::from_raw(hit.mv).filter(|&m| pos.is_legal(m)) {
        s.push_str(&format!(" bestmove {m}"));
    }
    if matches!(hit.bound, Bound::Lower | Bound::Exact) {
        s.push_str(&format!(" lowerbound {} depth {}", hit.score, hit.depth));
    }
    if matches!(hit.bound, Bound::Upper | Bound::Exact) {
        s.push_str(&format!(" upperbound {} depth {}", hit.score, hit.depth));
    }
    s
}

/// UCCI `info` lines: depth, score and the best line that is not banned; time and nodes.
fn report_ucci(out: &Output, r: &SearchResult<Move>, sig: &Signals, start: Instant) {
    let nodes = sig.nodes.load(Ordering::Relaxed).max(r.stats.nodes());
    if let Some(line) = r.lines.first() {
        let pv: Vec<String> = line.pv.iter().map(Move::to_string).collect();
        out.line(&format!("info depth {} score {} pv {}", r.depth, line.score, pv.join(" ")));
    }
    out.line(&format!("info time {} nodes {nodes}", start.elapsed().as_millis()));
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

fn report(out: &Output, r: &SearchResult<Move>, sig: &Signals, tt: &TranspositionTable, start: Instant) {
    let elapsed = start.elapsed();
    let nodes = sig.nodes.load(Ordering::Relaxed).max(r.stats.nodes());
    let ms = elapsed.as_millis().max(1) as u64;
    let nps = nodes * 1000 / ms;
    for (k, line) in r.lines.iter().enumerate() {
        let pv: Vec<String> = line.pv.iter().map(Move::to_string).collect();
        out.line(&format!(
            "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
            r.depth,
            r.stats.seldepth,
            k + 1,
            uci_score(line.score),
            nodes,
            nps,
            tt.hashfull(),
            ms,
            pv.join(" ")
        ));
    }
}

/// Runs the UCI loop on standard input and output.
pub fn run_stdio() {
    let mut uci = Uci::new(Output::new(std::io::stdout()));
    uci.run(std::io::stdin().lock());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_parses_every_parameter() {
        let go = Go::parse(
            &"wtime 1000 btime 2000 winc 10 binc 20 searchmoves h2e2 b0c2 movestogo 5 depth 7 nodes 99 ponder mate 3"
                .split(' ')
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!(
            go,
            Go {
                wtime: Some(1000),
                btime: Some(2000),
                winc: Some(10),
                binc: Some(20),
                movestogo: Some(5),
                movetime: None,
                depth: Some(7),
                nodes: Some(99),
                infinite: false,
                ponder: true,
                mate: Some(3),
                searchmoves: vec!["h2e2".to_owned(), "b0c2".to_owned()],
                perft: None,
            }
        );
        assert_eq!(Go::parse(&["perft", "3"]).unwrap().perft, Some(3));
        assert!(Go::parse(&["perft", "6"]).unwrap_err().contains("from 1 to 5"));
        assert!(Go::parse(&["searchmoves"]).is_err());
        assert!(Go::parse(&["searchmoves", "depth", "3"]).is_err());
        assert!(Go::parse(&["mate"]).is_err());
        assert!(Go::parse(&["depth"]).is_err());
        assert!(Go::parse(&["depth", "x"]).is_err());
        assert!(Go::parse(&["bogus"]).is_err());
        assert_eq!(Go::parse(&["wtime", "0", "btime", "-0"]).unwrap().btime, Some(0));
    }

    #[test]
    fn go_values_out_of_range_are_errors() {
        fn err(text: &str) -> String {
            Go::parse(&text.split(' ').collect::<Vec<_>>()).unwrap_err()
        }
        for time in ["wtime", "btime", "winc", "binc", "movetime"] {
            let e = err(&format!("{time} -5"));
            assert!(e.contains(&format!("go {time}: -5 is negative")), "{e}");
        }
        assert!(err("depth 0").contains("go depth must be from 1 to 120, not 0"));
        assert!(err("depth 1000").contains("go depth must be from 1 to 120, not 1000"));
        assert!(err("mate 0").contains("go mate must be from 1 to 60"));
        assert!(err("mate 61").contains("go mate must be from 1 to 60"));
        assert!(err("nodes 0").contains("go nodes must be at least 1"));
        assert!(err("movestogo 0").contains("go movestogo must be at least 1"));
        assert!(err("perft 0").contains("go perft must be from 1 to 5, not 0"));
        assert!(err("perft 6").contains("go perft must be from 1 to 5, not 6"));
        assert!(err("nodes 99999999999999999999999").contains("too large"));
        assert!(err("depth +").contains("not a number"));
        // The bounds themselves are in range.
        let go = Go::parse(&["depth", "120", "mate", "60", "nodes", "1", "movestogo", "1"]).unwrap();
        assert_eq!((go.depth, go.mate, go.nodes, go.movestogo), (Some(120), Some(60), Some(1), Some(1)));
        assert_eq!(Go::parse(&["depth", "1"]).unwrap().depth, Some(1));
        assert_eq!(Go::parse(&["perft", "1"]).unwrap().perft, Some(1));
    }

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
        let lines = session(&["position startpos".to_owned(), "go infinite".to_owned()]);
        let best = lines.last().and_then(|l| l.strip_prefix("bestmove ")).unwrap_or_else(|| panic!("{lines:?}"));
        assert!(Position::startpos().parse_move(best.split(' ').next().unwrap()).is_ok(), "{best}");
    }

    #[test]
    fn time_limits_never_exceed_the_clock() {
        let overhead = Duration::from_millis(10);
        for time in [0u64, 5, 50, 1000, 60_000, 3_600_000] {
            for inc in [0u64, 100, 5000] {
                for mtg in [None, Some(1), Some(40)] {
                    let go = Go { wtime: Some(time), winc: Some(inc), movestogo: mtg, ..Go::default() };
                    let (soft, hard) = go.time_limits(Color::Red, overhead);
                    let (soft, hard) = (soft.unwrap(), hard.unwrap());
                    assert!(soft <= hard);
                    assert!(hard.as_millis() as u64 <= (time.saturating_sub(10) * 8 / 10).max(1));
                }
            }
        }
        let go = Go { movetime: Some(500), ..Go::default() };
        assert_eq!(go.time_limits(Color::Black, overhead), (None, Some(Duration::from_millis(490))));
        assert_eq!(Go::default().time_limits(Color::Red, overhead), (None, None));
    }

    #[test]
    fn ucci_go_maps_onto_the_side_to_move() {
        fn w(t: &str) -> Vec<&str> {
            t.split_whitespace().collect()
        }
        let (go, draw) =
            parse_ucci_go(&w("time 5000 increment 100 opptime 4000 oppincrement 100"), true, Color::Black).unwrap();
        assert!(!draw);
        assert_eq!((go.btime, go.binc, go.wtime, go.winc), (Some(5000), Some(100), Some(4000), Some(100)));
        // Seconds unless usemillisec.
        let (go, _) = parse_ucci_go(&w("time 30 movestogo 10"), false, Color::Red).unwrap();
        assert_eq!((go.wtime, go.movestogo, go.btime), (Some(30_000), Some(10), None));
        let (go, draw) = parse_ucci_go(&w("draw depth 6"), true, Color::Red).unwrap();
        assert!(draw && go.depth == Some(6));
        let (go, _) = parse_ucci_go(&w("ponder nodes 700"), true, Color::Red).unwrap();
        assert!(go.ponder && go.nodes == Some(700));
        assert!(parse_ucci_go(&[], true, Color::Red).unwrap().0.infinite);
        assert!(parse_ucci_go(&w("depth infinite"), true, Color::Red).unwrap().0.infinite);
        for bad in ["depth", "nodes x", "time 5 bogus 3", "wtime 5", "depth 5 nodes 7", "time 5 movestogo"] {
            assert!(parse_ucci_go(&w(bad), true, Color::Red).is_err(), "{bad}");
        }
        for (bad, needle) in [
            ("depth 0", "go depth must be from 1 to 120, not 0"),
            ("depth 121", "go depth must be from 1 to 120, not 121"),
            ("nodes 0", "go nodes must be at least 1"),
            ("time 5 movestogo 0", "go movestogo must be at least 1"),
            ("time -5", "go time: -5 is negative"),
            ("ponder time 5 opptime -1", "go opptime: -1 is negative"),
        ] {
            let e = parse_ucci_go(&w(bad), true, Color::Red).unwrap_err();
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }

    #[test]
    fn scores_print_as_uci_wants() {
        assert_eq!(uci_score(35), "cp 35");
        assert_eq!(uci_score(MATE - 1), "mate 1");
        assert_eq!(uci_score(MATE - 4), "mate 2");
        assert_eq!(uci_score(-MATE + 2), "mate -1");
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
