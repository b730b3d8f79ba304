//! # xiangqi-cli: the `xiangqi` binary
//!
//! The binary (`xiangqi perft | moves | show | eval | game | convert | analyze | search | compare | tree | bench |
//! match | ablate | datagen | uci`) lives in `main.rs`; run without arguments it speaks UCI ([`uci`]), as GUIs
//! expect. It is a front end: the engine itself (the `engine` composition, the table, the threads, time management,
//! the handcrafted and the neural evaluator) is in the library crates, `xiangqi-search` and `xiangqi-eval`, which a
//! program uses without this crate. This library holds the UCI loop, so that tests drive it in-process.
//!
//! ```
//! use std::io::Write;
//! use std::sync::{Arc, Mutex};
//! use xiangqi_cli::uci::{Output, Uci};
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

pub mod uci;
