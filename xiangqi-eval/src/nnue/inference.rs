//! Inference: the accumulators of a position from scratch ([`Network::refresh`]) and along a line of play
//! ([`NnueStack`]), and the output layer ([`Network::output`]), in integers, in loops the compiler vectorizes.
//!
//! The network's layout (king buckets, output buckets) is fixed when it is loaded; the hot paths branch on it once
//! per call and run a loop monomorphized for it (a `const` generic for the king buckets), so the plain network's
//! loops are the same as before buckets existed.

use super::features::{bucketed_feature, feature, king_view, output_bucket, KingView};
use super::network::{Network, MAX_HIDDEN, QA, QB};
use crate::{Evaluate, EVAL_MAX};
use xiangqi_core::{Color, Move, Piece, PieceKind, Position, Square};

impl Network {
    #[inline(always)]
    fn row(&self, f: usize) -> &[i16] {
        &self.w1[f * self.hidden..(f + 1) * self.hidden]
    }

    /// The feature of `piece` on `sq` for `view` whose king view is `kv` (ignored by a plain network).
    #[inline(always)]
    fn feature_of<const KB: bool>(view: Color, piece: Piece, sq: Square, kv: KingView) -> usize {
        if KB {
            bucketed_feature(view, piece, sq, kv)
        } else {
            feature(view, piece, sq)
        }
    }

    /// The [`KingView`] of `view` in `pos` (a fixed one for a plain network, which does not use it).
    #[inline(always)]
    fn king_view_in<const KB: bool>(pos: &Position, view: Color) -> KingView {
        if KB {
            king_view(view, pos.king(view))
        } else {
            KingView { bucket: 0, mirror: false }
        }
    }

    /// One perspective's accumulator of `pos` from scratch into `acc` (`H` values).
    fn refresh_view<const KB: bool>(&self, pos: &Position, view: Color, acc: &mut [i16]) {
        let kv = Network::king_view_in::<KB>(pos, view);
        acc.copy_from_slice(&self.b1);
        for sq in pos.occupied() {
            let p = pos.piece_at(sq).expect("an occupied square has a piece");
            add_row(acc, self.row(Network::feature_of::<KB>(view, p, sq, kv)));
        }
    }

    /// One perspective's accumulator of `pos` from scratch, whatever the layout.
    fn refresh_one(&self, pos: &Position, view: Color, acc: &mut [i16]) {
        if self.king_buckets == 1 {
            self.refresh_view::<false>(pos, view, acc)
        } else {
            self.refresh_view::<true>(pos, view, acc)
        }
    }

    /// Computes both accumulators of `pos` from scratch into `acc` (`2H` values: Red's view, then Black's).
    pub fn refresh(&self, pos: &Position, acc: &mut [i16]) {
        let h = self.hidden;
        let (red, black) = acc[..2 * h].split_at_mut(h);
        self.refresh_one(pos, Color::Red, red);
        self.refresh_one(pos, Color::Black, black);
    }

    /// The output bucket of `pos` ([`output_bucket`] of its chariots, horses, cannons, advisors and elephants);
    /// always 0 for a network of one output bucket.
    #[inline(always)]
    pub fn output_bucket(&self, pos: &Position) -> usize {
        if self.output_buckets == 1 {
            return 0;
        }
        let kings_and_soldiers = pos.kind_bb(PieceKind::King) | pos.kind_bb(PieceKind::Soldier);
        output_bucket((pos.occupied() & !kings_and_soldiers).count(), self.output_buckets)
    }

    /// The evaluation from a pair of accumulators (`2H` values: Red's view, then Black's) for `turn` to move, with
    /// the output layer of bucket `bucket` (see [`Network::output_bucket`]; 0 for one output bucket).
    ///
    /// # Panics
    /// When `bucket` is not below the network's output buckets.
    #[inline]
    pub fn output(&self, acc: &[i16], turn: Color, bucket: usize) -> i32 {
        let h = self.hidden;
        self.output_with(acc, turn, &self.w2[bucket * 2 * h..(bucket + 1) * 2 * h], self.b2[bucket])
    }

    /// The output layer with the weights `w2` (`2H`, the side to move's half first) and the bias `b2`.
    #[inline(always)]
    fn output_with(&self, acc: &[i16], turn: Color, w2: &[i16], b2: i32) -> i32 {
        let h = self.hidden;
        let (red, black) = (&acc[..h], &acc[h..2 * h]);
        let (us, them) = match turn {
            Color::Red => (red, black),
            Color::Black => (black, red),
        };
        let sum = i64::from(screlu_dot(us, &w2[..h])) + i64::from(screlu_dot(them, &w2[h..]));
        let v = (sum / i64::from(QA) + i64::from(b2)) * i64::from(self.scale) / i64::from(QA * QB);
        v.clamp(-i64::from(EVAL_MAX), i64::from(EVAL_MAX)) as i32
    }
}

impl Evaluate for Network {
    /// The evaluation from scratch (both accumulators computed for this position alone).
    fn evaluate(&self, pos: &Position) -> i32 {
        let mut acc = [0i16; 2 * MAX_HIDDEN];
        self.refresh(pos, &mut acc);
        self.output(&acc, pos.turn(), self.output_bucket(pos))
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

impl Dirty {
    /// Whether the move took `view`'s own king to another [`KingView`] (bucket or mirroring), which a
    /// king-bucketed network cannot follow incrementally: that perspective is computed again from scratch.
    #[inline(always)]
    fn moves_king_view(&self, view: Color) -> bool {
        self.piece.kind == PieceKind::King
            && self.piece.color == view
            && king_view(view, self.from) != king_view(view, self.to)
    }
}

/// The accumulators along a line of play, one pair per ply, computed lazily (see the [module](super) docs).
///
/// Like the handcrafted [`crate::Accumulator`], the caller drives it: [`NnueStack::make`] just *before*
/// [`Position::make_move`], [`NnueStack::unmake`] with [`Position::unmake_move`]; a null move changes no feature
/// and needs no call. Nothing is allocated after [`NnueStack::new`].
///
/// With a king-bucketed network each perspective is kept on its own: a move of a side's king to another
/// [`KingView`] (another bucket or the other mirroring) makes that side's accumulator be computed from scratch
/// from the position at the next evaluation, while the other side's is still updated by the move, as Stockfish
/// refreshes only the perspective whose king crossed buckets.
#[derive(Clone)]
pub struct NnueStack {
    hidden: usize,
    /// `CAPACITY` pairs of accumulators of `2 * hidden` values (Red's view, then Black's).
    acc: Box<[i16]>,
    /// Whether each ply's accumulators (Red's view, Black's view) are up to date.
    computed: Box<[[bool; 2]]>,
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
            computed: vec![[false; 2]; NnueStack::CAPACITY].into_boxed_slice(),
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
        self.computed[0] = [true; 2];
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
        self.computed[self.ply] = [false; 2];
    }

    /// Takes back the last [`NnueStack::make`]. Does nothing at the root.
    #[inline]
    pub fn unmake(&mut self) {
        self.ply = self.ply.saturating_sub(1);
    }

    /// Brings the current ply's accumulators up to date; `pos` is the current position.
    #[inline]
    fn update(&mut self, net: &Network, pos: &Position) {
        if net.king_buckets == 1 {
            self.update_plain(net)
        } else {
            self.update_bucketed(net, pos)
        }
    }

    /// A plain network: both perspectives from the nearest computed ancestor, move by move.
    #[inline]
    fn update_plain(&mut self, net: &Network) {
        if self.computed[self.ply][0] {
            return;
        }
        let mut base = self.ply;
        while !self.computed[base][0] {
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
            self.computed[ply] = [true; 2];
        }
    }

    /// A king-bucketed network: each perspective from its nearest computed ancestor, or from scratch when its king
    /// changed [`KingView`] since then. Without such a move the king view of every ply in between is the current
    /// one.
    #[inline]
    fn update_bucketed(&mut self, net: &Network, pos: &Position) {
        let (h, w) = (self.hidden, 2 * self.hidden);
        for (half, view) in [Color::Red, Color::Black].into_iter().enumerate() {
            if self.computed[self.ply][half] {
                continue;
            }
            let mut base = self.ply;
            let mut refresh = false;
            while !self.computed[base][half] {
                if self.dirty[base].is_some_and(|d| d.moves_king_view(view)) {
                    refresh = true;
                    break;
                }
                base -= 1;
            }
            if refresh {
                let at = self.ply * w + half * h;
                net.refresh_view::<true>(pos, view, &mut self.acc[at..at + h]);
                self.computed[self.ply][half] = true;
                continue;
            }
            let kv = king_view(view, pos.king(view));
            for ply in base + 1..=self.ply {
                let d = self.dirty[ply].expect("a ply above the root has its move");
                let (done, rest) = self.acc.split_at_mut(ply * w);
                let src = &done[(ply - 1) * w + half * h..(ply - 1) * w + (half + 1) * h];
                let dst = &mut rest[half * h..(half + 1) * h];
                let add = net.row(bucketed_feature(view, d.piece, d.to, kv));
                let sub = net.row(bucketed_feature(view, d.piece, d.from, kv));
                match d.captured {
                    None => add_sub(dst, src, add, sub),
                    Some(c) => add_sub_sub(dst, src, add, sub, net.row(bucketed_feature(view, c, d.to, kv))),
                }
                self.computed[ply][half] = true;
            }
        }
    }

    /// The accumulators of `pos`, the position the made moves lead to (`2H` values: Red's view, then Black's),
    /// brought up to date.
    pub fn current(&mut self, net: &Network, pos: &Position) -> &[i16] {
        self.update(net, pos);
        let w = 2 * self.hidden;
        &self.acc[self.ply * w..(self.ply + 1) * w]
    }

    /// The evaluation of `pos`, the position the made moves lead to, for its side to move.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let w = 2 * self.hidden;
        if net.king_buckets == 1 && net.output_buckets == 1 {
            // The plain network (the first one): its own path, with nothing of the buckets in it.
            self.update_plain(net);
            return net.output_with(&self.acc[self.ply * w..(self.ply + 1) * w], pos.turn(), &net.w2, net.b2[0]);
        }
        self.update(net, pos);
        net.output(&self.acc[self.ply * w..(self.ply + 1) * w], pos.turn(), net.output_bucket(pos))
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
