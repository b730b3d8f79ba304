//! # xiangqi-cli: the `xiangqi` binary, and the glue it is built from
//!
//! The binary (`xiangqi perft | moves | show | eval | game | convert | analyze | search | compare | tree | bench |
//! match | ablate | datagen | uci`) lives in `main.rs`; run without arguments it speaks UCI ([`uci`]), as GUIs
//! expect. This library
//! holds the pieces that join the independent crates, so that benchmarks and other tools reuse them instead of
//! writing them again: [`engine::EngineEval`] puts the default evaluator of `xiangqi-eval` behind the search's
//! `Evaluator` trait, with its incremental accumulator kept in step by the search; [`bench`](mod@bench) is the
//! fixed search behind `xiangqi bench` and its signature test. The other subcommands (`match` among them) live in
//! the binary.
//!
//! ```
//! use xiangqi_cli::engine::EngineEval;
//! use xiangqi_core::Position;
//! use xiangqi_search::{Limits, VariantSpec};
//!
//! let pos = Position::startpos();
//! let spec: VariantSpec = "pvs+qs+order".parse().unwrap();
//! let r = spec.run(pos.clone(), EngineEval::new(&pos), &Limits::depth(3));
//! assert!(pos.is_legal(r.best_move.unwrap()));
//! ```

pub mod bench;
pub mod engine;
pub mod uci;
