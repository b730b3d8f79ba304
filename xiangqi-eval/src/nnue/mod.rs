//! The neural evaluation (NNUE): a perspective network over piece-on-point features, in integers.
//!
//! # Features
//! For a perspective `p` (Red or Black), a piece of colour `c` and kind `k` (index in [`PieceKind`](xiangqi_core::PieceKind) order) on square
//! `s` is feature `((c == p ? 0 : 1) * 7 + k) * 90 + s'`, where `s' = s` for Red and, for Black, the square with its
//! rank mirrored (`(9 - rank) * 9 + file`, files kept): each side sees the board from its own side. That makes
//! [`INPUTS`] = 2 x 7 x 90 = 1260 inputs.
//!
//! # King buckets (optional)
//! A network may read its inputs relative to its own king ([`Architecture::king_buckets`] = [`KING_BUCKETS`]):
//! the own king's palace point, seen from its own side, picks one of six buckets (3 ranks x the edge or centre
//! file), and a king on the right-hand file mirrors every point left-right first ([`king_view`]); each bucket has
//! its own 1260 rows of `W1`, so [`bucketed_feature`] is `bucket * 1260 + f` over 7560 inputs. This is the king
//! bucketing of Stockfish's and Pikafish's HalfKA-style inputs, with their left-right mirroring.
//!
//! # Network
//! One hidden layer of `H` neurons per perspective (the same weights for both): `acc_p = b1 + sum W1[f]` over the
//! active features. The activation is the squared clipped ReLU, `clamp(x, 0, QA)^2` in integers, and the output is
//! `sum_j a(acc_stm[j]) W2[j] + sum_j a(acc_other[j]) W2[H + j]`, divided by `QA`, plus `b2`, times `SCALE / (QA QB)`:
//! the score for the side to move in the handcrafted evaluator's units (clamped to [`EVAL_MAX`](crate::EVAL_MAX)). Because the side to
//! move's accumulator always comes first, a position and its colour-flipped twin evaluate exactly alike.
//! With output buckets ([`Architecture::output_buckets`] > 1) each bucket has its own `W2` row and `b2`, and the
//! position's material picks one ([`output_bucket`], as Stockfish's and Pikafish's layer stacks are picked by the
//! piece count).
//!
//! # File format (`.nnue`, little-endian), version 2
//! | bytes | what |
//! |---|---|
//! | 8 | magic `XQNNUE\0\0` |
//! | 4 | `u32` format version, [`VERSION`] (2) |
//! | 20 | `u32` inputs per king bucket (1260), king buckets `KB` (1 or 6), hidden size `H`, output buckets `OB` (1 to 16), outputs (1) |
//! | 12 | `u32` `QA` (255), `QB` (64), `SCALE` |
//! | 8 | `u64` training hash (0 when unknown) |
//! | 2 x KB x 1260 x H | `i16` `W1` bucket-major, then feature-major (the `H` weights of feature 0, then feature 1, ...) |
//! | 2 x H | `i16` `b1` |
//! | 2 x OB x 2H | `i16` `W2`, a row per output bucket, each the side to move's half first |
//! | 4 x OB | `i32` `b2`, one per output bucket |
//!
//! Version 1 (written by earlier trainers, still read) is the plain network only: after the version, `u32` inputs
//! (1260), `H`, outputs (1), then `QA`, `QB`, `SCALE`, the hash, `W1` (1260 x H), `b1`, `W2` (2H) and one `b2`.
//!
//! Nothing may follow. A file that is missing, shorter or longer than its header says, or of another magic,
//! version, architecture (king buckets, hidden size, output buckets) or quantization is refused with a
//! [`LoadError`] that names what is wrong. [`Network`] is the one definition of the file: the engine reads it with
//! [`Network::load`], the trainer (`xiangqi-train`) builds it with [`Network::from_arch_parts`] and writes it with
//! [`Network::save`].
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
//! With king buckets, a king move to another bucket or mirroring makes that side's accumulator be computed from
//! scratch.
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

pub use features::{
    bucketed_feature, feature, king_view, output_bucket, KingView, BUCKET_PIECES, INPUTS, KING_BUCKETS,
    MAX_OUTPUT_BUCKETS,
};
pub use inference::NnueStack;
pub use network::{
    Architecture, LoadError, Network, CHUNK, DEFAULT_HIDDEN, DEFAULT_SCALE, HEADER_LEN, HEADER_LEN_V1, MAGIC,
    MAX_HIDDEN, MAX_OUTPUT_WEIGHT, MAX_SCALE, OUTPUTS, QA, QB, VERSION, VERSION_1,
};
