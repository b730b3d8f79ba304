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
//! the score for the side to move in the handcrafted evaluator's units (clamped to [`EVAL_MAX`]). Because the side to
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
//! version, architecture or quantization is refused with a [`LoadError`] that names what is wrong.
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

use crate::{Evaluate, EVAL_MAX};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::path::{Path, PathBuf};
#[cfg(test)]
use xiangqi_core::PieceKind;
use xiangqi_core::{Color, Move, Piece, Position, Square};

/// The file's first 8 bytes.
pub const MAGIC: [u8; 8] = *b"XQNNUE\0\0";
/// The format version this engine reads.
pub const VERSION: u32 = 1;
/// The number of input features: 2 (own, other) x 7 kinds x 90 points.
pub const INPUTS: usize = 2 * 7 * 90;
/// The number of outputs.
pub const OUTPUTS: usize = 1;
/// The hidden layer's quantization: the activation clips at `QA`.
pub const QA: i32 = 255;
/// The output layer's quantization.
pub const QB: i32 = 64;
/// The default scale from the network's output to evaluation units.
pub const DEFAULT_SCALE: i32 = 400;
/// The default hidden size.
pub const DEFAULT_HIDDEN: usize = 256;
/// The largest hidden size read.
pub const MAX_HIDDEN: usize = 1024;
/// Hidden sizes are multiples of this (the width of the vectorized loops).
pub const CHUNK: usize = 16;
/// The header's length in bytes.
pub const HEADER_LEN: usize = 8 + 4 + 3 * 4 + 3 * 4 + 8;
/// The largest output weight in absolute value (the trainer clips weights to 1.98, times `QB` is 127): it keeps
/// `clamp(acc, 0, QA) * W2` within `i16`, which the vectorized output layer relies on.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// Why a network file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file does not exist.
    #[error("network file {0} not found")]
    Missing(PathBuf),
    /// The file could not be read.
    #[error("cannot read network file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is shorter than its header says.
    #[error("network file truncated: {found} bytes, the header asks for {expected}")]
    Truncated {
        /// The file's length.
        found: usize,
        /// The length its header implies.
        expected: usize,
    },
    /// The file is longer than its header says.
    #[error("network file too long: {found} bytes, the header asks for {expected}")]
    TooLong {
        /// The file's length.
        found: usize,
        /// The length its header implies.
        expected: usize,
    },
    /// The file does not start with the magic.
    #[error("not a network file: bad magic {found:?} (expected \"XQNNUE\\0\\0\")")]
    BadMagic {
        /// The first bytes of the file.
        found: Vec<u8>,
    },
    /// Another format version.
    #[error("network format version {found}, this engine reads version {VERSION}")]
    Version {
        /// The file's version.
        found: u32,
    },
    /// Another architecture.
    #[error(
        "network architecture {inputs}x{hidden}x{outputs}, this engine reads {INPUTS} inputs, one output and a \
         hidden size that is a multiple of {CHUNK} from {CHUNK} to {MAX_HIDDEN}"
    )]
    Architecture {
        /// Inputs in the file.
        inputs: u32,
        /// Hidden size in the file.
        hidden: u32,
        /// Outputs in the file.
        outputs: u32,
    },
    /// Another quantization.
    #[error("network quantization QA={qa} QB={qb} scale {scale}, this engine reads QA={QA}, QB={QB} and a scale from 1 to 10000")]
    Quantization {
        /// `QA` in the file.
        qa: u32,
        /// `QB` in the file.
        qb: u32,
        /// `SCALE` in the file.
        scale: u32,
    },
    /// An output weight beyond [`MAX_OUTPUT_WEIGHT`].
    #[error("network output weight {index} is {value}, outside -{MAX_OUTPUT_WEIGHT}..={MAX_OUTPUT_WEIGHT}")]
    OutputWeight {
        /// Its index in `W2`.
        index: usize,
        /// Its value.
        value: i16,
    },
}

/// A quantized network: the weights of the file, ready for inference.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    scale: i32,
    hash: u64,
    /// `INPUTS` rows of `hidden` weights.
    w1: Box<[i16]>,
    b1: Box<[i16]>,
    /// `2 * hidden`: the side to move's half first.
    w2: Box<[i16]>,
    b2: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &self.hidden)
            .field("scale", &self.scale)
            .field("hash", &format_args!("{:016x}", self.hash))
            .finish_non_exhaustive()
    }
}

/// The feature of `piece` on `sq` for `perspective`.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let side = usize::from(piece.color != perspective);
    let s = match perspective {
        Color::Red => sq.index(),
        Color::Black => sq.flip_rank().index(),
    };
    (side * 7 + piece.kind as usize) * 90 + s
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

impl Network {
    /// The file length for a hidden size.
    pub const fn file_len(hidden: usize) -> usize {
        HEADER_LEN + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
    }

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<Network, LoadError> {
        let bytes = std::fs::read(path).map_err(|source| match source.kind() {
            std::io::ErrorKind::NotFound => LoadError::Missing(path.to_owned()),
            _ => LoadError::Io { path: path.to_owned(), source },
        })?;
        Network::from_bytes(&bytes)
    }

    /// Parses the bytes of a network file.
    pub fn from_bytes(b: &[u8]) -> Result<Network, LoadError> {
        let head = &b[..b.len().min(8)];
        if head != &MAGIC[..head.len()] {
            return Err(LoadError::BadMagic { found: head.to_vec() });
        }
        if b.len() < HEADER_LEN {
            return Err(LoadError::Truncated { found: b.len(), expected: HEADER_LEN });
        }
        let version = u32_at(b, 8);
        if version != VERSION {
            return Err(LoadError::Version { found: version });
        }
        let (inputs, hidden, outputs) = (u32_at(b, 12), u32_at(b, 16), u32_at(b, 20));
        let h = hidden as usize;
        if inputs as usize != INPUTS || outputs as usize != OUTPUTS || h == 0 || h > MAX_HIDDEN || h % CHUNK != 0 {
            return Err(LoadError::Architecture { inputs, hidden, outputs });
        }
        let (qa, qb, scale) = (u32_at(b, 24), u32_at(b, 28), u32_at(b, 32));
        if qa != QA as u32 || qb != QB as u32 || !(1..=10_000).contains(&scale) {
            return Err(LoadError::Quantization { qa, qb, scale });
        }
        let hash = u64::from_le_bytes(b[36..44].try_into().expect("8 bytes"));
        let expected = Network::file_len(h);
        if b.len() < expected {
            return Err(LoadError::Truncated { found: b.len(), expected });
        }
        if b.len() > expected {
            return Err(LoadError::TooLong { found: b.len(), expected });
        }
        let mut at = HEADER_LEN;
        let mut take = |n: usize| -> Box<[i16]> {
            let v: Box<[i16]> = b[at..at + 2 * n].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
            at += 2 * n;
            v
        };
        let w1 = take(INPUTS * h);
        let b1 = take(h);
        let w2 = take(2 * h);
        if let Some((index, &value)) = w2.iter().enumerate().find(|(_, w)| w.abs() > MAX_OUTPUT_WEIGHT) {
            return Err(LoadError::OutputWeight { index, value });
        }
        let b2 = i32::from_le_bytes(b[expected - 4..expected].try_into().expect("4 bytes"));
        Ok(Network { hidden: h, scale: scale as i32, hash, w1, b1, w2, b2 })
    }

    /// The bytes of the network's file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Network::file_len(self.hidden));
        out.extend_from_slice(&MAGIC);
        for v in [VERSION, INPUTS as u32, self.hidden as u32, OUTPUTS as u32, QA as u32, QB as u32, self.scale as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.hash.to_le_bytes());
        for w in self.w1.iter().chain(self.b1.iter()).chain(self.w2.iter()) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// A seeded random network of `hidden` neurons (a multiple of [`CHUNK`] up to [`MAX_HIDDEN`]), with weights in
    /// the ranges a trained one has: for tests, examples and speed measurements, not for play.
    ///
    /// # Panics
    /// When `hidden` is not such a size.
    pub fn random(hidden: usize, seed: u64) -> Network {
        assert!(hidden > 0 && hidden <= MAX_HIDDEN && hidden % CHUNK == 0, "hidden size {hidden}");
        let mut rng = StdRng::seed_from_u64(seed);
        let mut fill = |n: usize, r: i32| -> Box<[i16]> { (0..n).map(|_| rng.random_range(-r..=r) as i16).collect() };
        let w1 = fill(INPUTS * hidden, 60);
        let b1 = fill(hidden, 120);
        let w2 = fill(2 * hidden, i32::from(MAX_OUTPUT_WEIGHT));
        let b2 = rng.random_range(-(QA * QB)..=QA * QB);
        Network { hidden, scale: DEFAULT_SCALE, hash: seed, w1, b1, w2, b2 }
    }

    /// The hidden size `H`.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The scale from the network's output to evaluation units.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The training hash of the header (0 when unknown).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline(always)]
    fn row(&self, f: usize) -> &[i16] {
        &self.w1[f * self.hidden..(f + 1) * self.hidden]
    }

    /// Computes both accumulators of `pos` from scratch into `acc` (`2H` values: Red's view, then Black's).
    pub fn refresh(&self, pos: &Position, acc: &mut [i16]) {
        let h = self.hidden;
        let (red, black) = acc[..2 * h].split_at_mut(h);
        red.copy_from_slice(&self.b1);
        black.copy_from_slice(&self.b1);
        for sq in pos.occupied() {
            let p = pos.piece_at(sq).expect("an occupied square has a piece");
            add_row(red, self.row(feature(Color::Red, p, sq)));
            add_row(black, self.row(feature(Color::Black, p, sq)));
        }
    }

    /// The evaluation from a pair of accumulators (`2H` values: Red's view, then Black's) for `turn` to move.
    #[inline]
    pub fn output(&self, acc: &[i16], turn: Color) -> i32 {
        let h = self.hidden;
        let (red, black) = (&acc[..h], &acc[h..2 * h]);
        let (us, them) = match turn {
            Color::Red => (red, black),
            Color::Black => (black, red),
        };
        let sum = i64::from(screlu_dot(us, &self.w2[..h])) + i64::from(screlu_dot(them, &self.w2[h..]));
        let v = (sum / i64::from(QA) + i64::from(self.b2)) * i64::from(self.scale) / i64::from(QA * QB);
        v.clamp(-i64::from(EVAL_MAX), i64::from(EVAL_MAX)) as i32
    }
}

impl Evaluate for Network {
    /// The evaluation from scratch (both accumulators computed for this position alone).
    fn evaluate(&self, pos: &Position) -> i32 {
        let mut acc = [0i16; 2 * MAX_HIDDEN];
        self.refresh(pos, &mut acc);
        self.output(&acc, pos.turn())
    }
}

/// `acc += row` (wrapping: a trained network never comes near the limits of `i16`). Every slice is cut to the same
/// length first, so that the loop has no bounds checks and the compiler vectorizes it.
#[inline(always)]
fn add_row(acc: &mut [i16], row: &[i16]) {
    let row = &row[..acc.len()];
    for i in 0..acc.len() {
        acc[i] = acc[i].wrapping_add(row[i]);
    }
}

/// `dst = src + add - sub`.
#[inline(always)]
fn add_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub: &[i16]) {
    let n = dst.len();
    let (src, add, sub) = (&src[..n], &add[..n], &sub[..n]);
    for i in 0..n {
        dst[i] = src[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
    }
}

/// `dst = src + add - sub1 - sub2`.
#[inline(always)]
fn add_sub_sub(dst: &mut [i16], src: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
    let n = dst.len();
    let (src, add, sub1, sub2) = (&src[..n], &add[..n], &sub1[..n], &sub2[..n]);
    for i in 0..n {
        dst[i] = src[i].wrapping_add(add[i]).wrapping_sub(sub1[i]).wrapping_sub(sub2[i]);
    }
}

/// `sum_j clamp(acc[j], 0, QA)^2 * w[j]`. The product `clamp * w` fits in `i16` (|w| <= 127); the second product
/// is widened to `i32`. One plain loop over slices cut to the same length: the compiler turns it into 16-bit
/// multiplies and multiply-adds (`pmullw`, `pmaddwd`) on whatever vector width the target has.
#[inline(always)]
fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
    let w = &w[..acc.len()];
    let mut sum = 0i32;
    for i in 0..acc.len() {
        let c = acc[i].clamp(0, QA as i16);
        sum = sum.wrapping_add(i32::from(c.wrapping_mul(w[i])) * i32::from(c));
    }
    sum
}

/// What a move did to the features: the piece that moved, from where to where, and what it took.
#[derive(Debug, Clone, Copy)]
struct Dirty {
    piece: Piece,
    from: Square,
    to: Square,
    captured: Option<Piece>,
}

/// The accumulators along a line of play, one pair per ply, computed lazily (see the [module](self) docs).
///
/// Like the handcrafted [`crate::Accumulator`], the caller drives it: [`NnueStack::make`] just *before*
/// [`Position::make_move`], [`NnueStack::unmake`] with [`Position::unmake_move`]; a null move changes no feature
/// and needs no call. Nothing is allocated after [`NnueStack::new`].
#[derive(Clone)]
pub struct NnueStack {
    hidden: usize,
    /// `CAPACITY` pairs of accumulators of `2 * hidden` values (Red's view, then Black's).
    acc: Box<[i16]>,
    /// Whether each ply's accumulators are up to date.
    computed: Box<[bool]>,
    /// The move that led to each ply (unused at the root).
    dirty: Box<[Option<Dirty>]>,
    /// The current ply.
    ply: usize,
}

impl NnueStack {
    /// How many plies the stack holds: the root plus `CAPACITY - 1` moves made on top of it.
    pub const CAPACITY: usize = 256;

    /// A stack for `net` at `pos`.
    pub fn new(net: &Network, pos: &Position) -> NnueStack {
        let h = net.hidden();
        let mut s = NnueStack {
            hidden: h,
            acc: vec![0i16; NnueStack::CAPACITY * 2 * h].into_boxed_slice(),
            computed: vec![false; NnueStack::CAPACITY].into_boxed_slice(),
            dirty: vec![None; NnueStack::CAPACITY].into_boxed_slice(),
            ply: 0,
        };
        s.reset(net, pos);
        s
    }

    /// Starts again from `pos` (a full refresh), keeping the storage.
    ///
    /// # Panics
    /// When `net` has another hidden size than the network the stack was built for.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        assert_eq!(net.hidden(), self.hidden, "NnueStack used with a network of another size");
        self.ply = 0;
        net.refresh(pos, &mut self.acc[..2 * self.hidden]);
        self.computed[0] = true;
    }

    /// How many moves were made on top of the root.
    pub fn depth(&self) -> usize {
        self.ply
    }

    /// Records `m`, about to be played in `pos`: call it *before* `pos.make_move(m)`.
    ///
    /// # Panics
    /// When the origin of `m` is empty, or when more than [`NnueStack::CAPACITY`]` - 1` moves are stacked.
    #[inline]
    pub fn make(&mut self, pos: &Position, m: Move) {
        assert!(self.ply + 1 < NnueStack::CAPACITY, "NnueStack: more than {} moves stacked", NnueStack::CAPACITY - 1);
        let piece = pos.piece_at(m.from()).expect("NnueStack::make: no piece on the origin");
        self.ply += 1;
        self.dirty[self.ply] = Some(Dirty { piece, from: m.from(), to: m.to(), captured: pos.piece_at(m.to()) });
        self.computed[self.ply] = false;
    }

    /// Takes back the last [`NnueStack::make`]. Does nothing at the root.
    #[inline]
    pub fn unmake(&mut self) {
        self.ply = self.ply.saturating_sub(1);
    }

    /// Brings the current ply's accumulators up to date from the nearest computed ancestor.
    #[inline]
    fn update(&mut self, net: &Network) {
        if self.computed[self.ply] {
            return;
        }
        let mut base = self.ply;
        while !self.computed[base] {
            base -= 1;
        }
        let w = 2 * self.hidden;
        for ply in base + 1..=self.ply {
            let d = self.dirty[ply].expect("a ply above the root has its move");
            let (done, rest) = self.acc.split_at_mut(ply * w);
            let src = &done[(ply - 1) * w..];
            let dst = &mut rest[..w];
            for (half, view) in [Color::Red, Color::Black].into_iter().enumerate() {
                let r = half * self.hidden..(half + 1) * self.hidden;
                let add = net.row(feature(view, d.piece, d.to));
                let sub = net.row(feature(view, d.piece, d.from));
                match d.captured {
                    None => add_sub(&mut dst[r.clone()], &src[r], add, sub),
                    Some(c) => {
                        let sub2 = net.row(feature(view, c, d.to));
                        add_sub_sub(&mut dst[r.clone()], &src[r], add, sub, sub2)
                    }
                }
            }
            self.computed[ply] = true;
        }
    }

    /// The accumulators of the current position (`2H` values: Red's view, then Black's), brought up to date.
    pub fn current(&mut self, net: &Network) -> &[i16] {
        self.update(net);
        let w = 2 * self.hidden;
        &self.acc[self.ply * w..(self.ply + 1) * w]
    }

    /// The evaluation of `pos`, the position the made moves lead to, for its side to move.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        self.update(net);
        let w = 2 * self.hidden;
        net.output(&self.acc[self.ply * w..(self.ply + 1) * w], pos.turn())
    }
}

impl std::fmt::Debug for NnueStack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NnueStack").field("hidden", &self.hidden).field("depth", &self.ply).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_cover_the_inputs_once() {
        let mut seen = vec![0u32; INPUTS];
        for view in [Color::Red, Color::Black] {
            seen.iter_mut().for_each(|s| *s = 0);
            for c in [Color::Red, Color::Black] {
                for k in PieceKind::ALL {
                    for sq in Square::all() {
                        seen[feature(view, Piece::new(c, k), sq)] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s == 1));
        }
        // Red's king on e0 is Red's own king on e0 for Red, Black's "other" king on e9 for Black's view.
        let e0 = Square::from_index(4).unwrap();
        assert_eq!(feature(Color::Red, Piece::new(Color::Red, PieceKind::King), e0), 4);
        assert_eq!(feature(Color::Black, Piece::new(Color::Red, PieceKind::King), e0), 7 * 90 + 9 * 9 + 4);
    }

    #[test]
    fn screlu_dot_is_the_plain_sum() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for n in [16, 128, 256, 512] {
            let acc: Vec<i16> = (0..n).map(|_| rng.random_range(-600..600)).collect();
            let w: Vec<i16> = (0..n).map(|_| rng.random_range(-127..=127)).collect();
            let plain: i64 = acc
                .iter()
                .zip(&w)
                .map(|(&a, &w)| {
                    let c = i64::from(a.clamp(0, QA as i16));
                    c * c * i64::from(w)
                })
                .sum();
            assert_eq!(i64::from(screlu_dot(&acc, &w)), plain, "hidden {n}");
        }
    }

    #[test]
    fn bytes_round_trip() {
        let net = Network::random(32, 5);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::file_len(32));
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    }
}
