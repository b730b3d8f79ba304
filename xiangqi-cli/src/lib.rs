//! # xiangqi-cli: the `xiangqi` binary
//!
//! The binary (`xiangqi perft | moves | show | eval | game | convert | analyze | search | compare | tree | tactics |
//! bench | match | ablate | datagen | serve | uci`) lives in `main.rs`; run without arguments it speaks UCI
//! (`xiangqi_uci`), as GUIs expect. It is a front end: the engine itself (the `engine` composition, the table, the
//! threads, time management, the handcrafted and the neural evaluator) is in the library crates, `xiangqi-search` and
//! `xiangqi-eval`; the UCI and UCCI loop in `xiangqi-uci`; matches, self-play, shards, the tuner and the tactical test
//! sets in `xiangqi-match`; a program uses them without this crate. This library holds only the run of the book's
//! Rust examples.
//!
//! ## Errors
//!
//! Every command reports an error in one of two ways, chosen by what is wrong:
//!
//! - **The command line**: an unknown command or flag, a missing or conflicting argument, a value that is not
//!   allowed (a number out of its range, a notation or encoding that does not exist, a `--fen` that is no position,
//!   a `--variant` that does not exist, an illegal move in `--moves`). It is reported as clap reports its own:
//!   `error: ...` on standard error, then (for most) the command's usage, then `For more information, try
//!   '--help'.`, and the exit code is 2. What clap cannot check by itself is checked by the command and reported
//!   the same way (`invalid value 'TEXT' for --FLAG: why`).
//! - **Running**: a file that cannot be read or written, a file that is neither PGN nor XQF, a game in a file that
//!   cannot be read or replayed, a bad FEN inside a file, an engine that fails, memory the machine cannot give.
//!   It is one line, `error: ...`, on standard error, with no usage and no hint, and the exit code is 1.
//!
//! A command that answers its input line by line (`xiangqi moves --stdin`) or game by game (`xiangqi game --pgn`,
//! `xiangqi convert`) reports each bad line or game where it reports the good ones and goes on; its exit code is
//! then 1 at the end. A closed standard output (`xiangqi perft --divide | head -2`) ends a command quietly, with
//! exit code 0.
//!
//! `xiangqi uci` is the loop of `xiangqi-uci` on standard input and output; what it makes of a `position` command:
//!
//! ```
//! let pos = xiangqi_uci::parse_position(&["startpos", "moves", "h2e2"]).unwrap();
//! assert_eq!(pos.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! assert!(xiangqi_uci::parse_position(&["startpos", "moves", "a0a5"]).is_err()); // the soldier on a3 is in the way
//! ```

/// The Rust examples of the book, run as doc tests so that they compile and run against the workspace
/// (`tests/book_examples.rs` checks that every page with a Rust example is listed here).
#[cfg(doctest)]
mod book_examples {
    #[doc = include_str!("../../README.md")]
    struct Readme;
    #[doc = include_str!("../../book/src/library.md")]
    struct Library;
}
