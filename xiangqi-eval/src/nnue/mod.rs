//! The neural evaluation (NNUE): a perspective network over piece-on-point features, in integers.
//!
//! # Features
//! For a perspective `p` (Red or Black), a piece of colour `c` and kind `k` (index in [`PieceKind`](xiangqi_core::PieceKind) order) on square
//! `s` is feature `((c == p ? 0 : 1) * 7 + k) * 90 + s'`, where `s' = s` for Red and, for Black, the square with its
//! rank mirrored (`(9 - rank) * 9 + file`, files kept): each side sees the board from its own side. That makes
//! [`INPUTS`] = 2 x 7 x 90 = 1260 inputs.
//!
//! # Network
//! One hidden layer of `H` neurons per perspective (the same weights for both): `acc_p = b1 + sum W1[f]` over the
//! active features. The activation is the squared clipped ReLU, `clamp(x, 0, QA)^2` in integers, and the output is
//! `sum_j a(acc_stm[j]) W2[j] + sum_j a(acc_other[j]) W2[H + j]`, divided by `QA`, plus `b2`, times `SCALE / (QA QB)`:
//! the score for the side to move in the handcrafted evaluator's units (clamped to [`EVAL_MAX`](crate::EVAL_MAX)). Because the side to
//! move's accumulator always comes first, a position and its colour-flipped twin evaluate exactly alike.
//!
//! # File format (`.nnue`, little-endian)
//! | bytes | what |
//! |---|---|
//! | 8 | magic `XQNNUE\0\0` |
//! | 4 | `u32` format version, [`VERSION`] |
//! | 12 | `u32` inputs (1260), hidden size `H`, outputs (1) |
//! | 12 | `u32` `QA` (255), `QB` (64), `SCALE` |
//! | 8 | `u64` training hash (0 when unknown) |
//! | 2 x 1260 x H | `i16` `W1` feature-major (the `H` weights of feature 0, then feature 1, ...) |
//! | 2 x H | `i16` `b1` |
//! | 2 x 2H | `i16` `W2`, the side to move's half first |
//! | 4 | `i32` `b2` |
//!
//! Nothing may follow. A file that is missing, shorter or longer than its header says, or of another magic,
//! version, architecture or quantization is refused with a [`LoadError`] that names what is wrong. [`Network`] is
//! the one definition of the file: the engine reads it with [`Network::load`], the trainer (`xiangqi-train`) builds
//! it with [`Network::from_parts`] and writes it with [`Network::save`].
//!
//! # Training data (`XQDATA01`)
//! The records `xiangqi datagen` writes and the trainer reads are defined once too, in [`data`]: [`data::Record`]
//! with its 50-byte layout, its checks and the data file.
//!
//! # Incremental updates
//! A [`NnueStack`] keeps one pair of accumulators per ply. [`NnueStack::make`] only notes which piece moved and
//! what it took; the accumulators of a ply are computed when that ply is evaluated, by copying the nearest computed
//! ancestor and adding and removing the feature rows of the moves in between (so that nodes never evaluated cost
//! nothing). [`NnueStack::unmake`] pops a ply. The loops run over fixed-size chunks that the compiler vectorizes.
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_eval::nnue::{Network, NnueStack};
//! use xiangqi_eval::Evaluate;
//!
//! let net = Network::random(64, 1); // a seeded random network, for examples and tests
//! let mut pos = Position::startpos();
//! let mut stack = NnueStack::new(&net, &pos);
//! let m = pos.parse_move("h2e2").unwrap();
//! stack.make(&pos, m); // before the move is played
//! pos.make_move(m);
//! assert_eq!(stack.evaluate(&net, &pos), net.evaluate(&pos)); // incremental equals from scratch
//!
//! // A file that is not a network is refused with a clear error.
//! let err = Network::from_bytes(b"XQDATA01 and more").unwrap_err();
//! assert!(err.to_string().contains("magic"));
//! ```

pub mod data;
mod features;
mod inference;
mod network;

pub use features::{feature, INPUTS};
pub use inference::NnueStack;
pub use network::{
    LoadError, Network, CHUNK, DEFAULT_HIDDEN, DEFAULT_SCALE, HEADER_LEN, MAGIC, MAX_HIDDEN, MAX_OUTPUT_WEIGHT,
    MAX_SCALE, OUTPUTS, QA, QB, VERSION,
};
