//! # xiangqi-uci: the engine's side of UCI and UCCI
//!
//! The UCI protocol as Pikafish speaks it, so that GUIs which run Pikafish can run this engine; and UCCI as
//! ElephantEye speaks it, for the GUIs and match runners of the UCCI world.
//!
//! The loop is a front end of the library's engine ([`xiangqi_search::SearchEngine`]: threads, table, ordering
//! memory, variant, evaluator and options) and keeps none of these of its own. It never blocks on the search: `go`
//! starts the search through the engine's handle, whose listener prints `info` and `bestmove`
//! ([`output`]), and `isready`, `stop`, `ponderhit` and `quit` are answered while it runs. The `option` lines and
//! the checks of `setoption` come from the engine's option declarations ([`options`]); the loop is split by job:
//! [`session`] (commands, position, the search's life), [`go`] (`go` and its limits), [`options`], [`output`]
//! and [`ucci`]. Bad input (an illegal move or a bad FEN in `position`, an
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
//! The loop on any writer, fed line by line (what `xiangqi uci` does on standard input and output,
//! [`run_stdio`]):
//!
//! ```
//! use std::io::Write;
//! use std::sync::{Arc, Mutex};
//! use xiangqi_uci::{Output, Uci};
//!
//! #[derive(Clone, Default)]
//! struct Sink(Arc<Mutex<Vec<u8>>>);
//! impl Write for Sink {
//!     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
//!         self.0.lock().unwrap().write(b)
//!     }
//!     fn flush(&mut self) -> std::io::Result<()> {
//!         Ok(())
//!     }
//! }
//!
//! let sink = Sink::default();
//! let mut uci = Uci::new(Output::new(sink.clone()));
//! uci.feed(b"position startpos moves h2e2\n");
//! uci.feed(b"go depth 3\n");
//! // The search runs on its own thread; the loop keeps reading commands meanwhile.
//! let text = loop {
//!     let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
//!     if text.contains("bestmove ") {
//!         break text;
//!     }
//!     std::thread::sleep(std::time::Duration::from_millis(10));
//! };
//! assert!(text.lines().any(|l| l.starts_with("info depth 3 ")), "{text}");
//! ```
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

pub mod go;
pub mod options;
pub mod output;
pub mod session;
pub mod ucci;

pub use go::{Go, GO_WORDS, MAX_GO_DEPTH, MAX_GO_MATE, MAX_UCI_PERFT};
pub use options::{ucci_line, uci_line};
pub use output::{uci_score, Output};
pub use session::{parse_position, parse_position_with, run_stdio, run_stdio_with, Uci, ENGINE_NAME};
pub use ucci::parse_ucci_go;

/// The variant the engine plays with by default (the `Variant` option's default).
pub const DEFAULT_VARIANT: &str = xiangqi_search::ENGINE_VARIANT;
