//! Inference: the accumulators of a position from scratch ([`Network::refresh`]) and along a line of play
//! ([`NnueStack`]), and the output layer ([`Network::output`]), in integers, in loops the compiler vectorizes.

use super::features::feature;
use super::network::{Network, MAX_HIDDEN, QA, QB};
use crate::{Evaluate, EVAL_MAX};
use xiangqi_core::{Color, Move, Piece, Position, Square};

impl Network {
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

/// The accumulators along a line of play, one pair per ply, computed lazily (see the [module](super) docs).
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
}
