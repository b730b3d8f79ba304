//! [`Accumulator`]: material, piece-square sums and phase kept incrementally along a line of play, and the
//! evaluations that read it ([`Handcrafted::evaluate_with`], [`Handcrafted::evaluate_lazy`],
//! [`Handcrafted::lazy_bound`]).

use super::evaluator::Handcrafted;
use super::state::{Extra, PsqState};
use xiangqi_core::{Color, Move, Position};

/// Keeps a [`PsqState`] up to date around `make`/`unmake` with a fixed-size stack: nothing is allocated after
/// [`Accumulator::new`].
///
/// [`Position`] knows nothing of evaluation, so the caller drives the accumulator: [`Accumulator::make`] just
/// *before* [`Position::make_move`] (it reads the moving and the captured piece from the board), and
/// [`Accumulator::unmake`] with [`Position::unmake_move`]. A null move changes nothing here; [`Accumulator::make_null`]
/// exists so that every `unmake` can be paired with a push.
///
/// The accumulator belongs to the [`Handcrafted`] that built it: pass the same one to `make` and
/// [`Handcrafted::evaluate_with`] (checked in debug builds).
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_eval::{Accumulator, Handcrafted};
///
/// let eval = Handcrafted::default();
/// let mut pos = Position::startpos();
/// let mut acc = Accumulator::new(&eval, &pos);
/// for text in ["h2e2", "h9g7", "e2e6"] {
///     let m = pos.parse_move(text).unwrap();
///     acc.make(&eval, &pos, m); // before the move is played
///     pos.make_move(m);
///     assert_eq!(eval.evaluate_with(&pos, &acc), eval.evaluate(&pos));
/// }
/// assert_eq!(*acc.state(), eval.psq(&pos));
/// acc.unmake();
/// pos.unmake_move();
/// assert_eq!(*acc.state(), eval.psq(&pos));
/// ```
#[derive(Clone)]
pub struct Accumulator {
    stack: [PsqState; Accumulator::CAPACITY],
    /// The positional extras of each state (see `Handcrafted::psq_and_surplus`), beside `stack`.
    extra: [Extra; Accumulator::CAPACITY],
    len: usize,
    fingerprint: u64,
}

impl Accumulator {
    /// How many states the stack holds: the root plus `CAPACITY - 1` moves made on top of it.
    pub const CAPACITY: usize = 512;

    /// An accumulator for `pos`, with `eval`'s tables.
    pub fn new(eval: &Handcrafted, pos: &Position) -> Accumulator {
        let mut stack = [PsqState::default(); Accumulator::CAPACITY];
        let mut extra = [Extra::default(); Accumulator::CAPACITY];
        (stack[0], extra[0]) = eval.psq_and_surplus(pos);
        Accumulator { stack, extra, len: 1, fingerprint: eval.fingerprint() }
    }

    /// Starts again from `pos` (for example at the root of a new search), keeping the storage.
    pub fn reset(&mut self, eval: &Handcrafted, pos: &Position) {
        (self.stack[0], self.extra[0]) = eval.psq_and_surplus(pos);
        self.len = 1;
        self.fingerprint = eval.fingerprint();
    }

    /// The state of the current position.
    #[inline(always)]
    pub fn state(&self) -> &PsqState {
        &self.stack[self.len - 1]
    }

    /// The positional extras of the current position.
    #[inline(always)]
    pub(crate) fn extra(&self) -> &Extra {
        &self.extra[self.len - 1]
    }

    /// How many moves (and null moves) were made on top of the root.
    #[inline(always)]
    pub fn depth(&self) -> usize {
        self.len - 1
    }

    /// Whether this accumulator was built with `eval`'s weights.
    #[inline(always)]
    pub fn belongs_to(&self, eval: &Handcrafted) -> bool {
        self.fingerprint == eval.fingerprint()
    }

    /// Records `m`, which is about to be played in `pos`: call it *before* `pos.make_move(m)`.
    ///
    /// # Panics
    /// When the origin of `m` is empty (as [`Position::make_move`] does) or when more than
    /// [`Accumulator::CAPACITY`]` - 1` moves are stacked.
    #[inline]
    pub fn make(&mut self, eval: &Handcrafted, pos: &Position, m: Move) {
        debug_assert!(self.belongs_to(eval), "accumulator used with another evaluator");
        assert!(self.len < Accumulator::CAPACITY, "Accumulator: more than {} moves stacked", Accumulator::CAPACITY - 1);
        let mut st = self.stack[self.len - 1];
        let mut extra = self.extra[self.len - 1];
        let piece = pos.piece_at(m.from()).expect("Accumulator::make: no piece on the origin");
        eval.apply_move(&mut st, &mut extra, piece, m.from(), m.to(), pos.piece_at(m.to()));
        self.stack[self.len] = st;
        self.extra[self.len] = extra;
        self.len += 1;
    }

    /// Records a null move (the state does not change), to be undone by [`Accumulator::unmake`].
    #[inline]
    pub fn make_null(&mut self) {
        assert!(self.len < Accumulator::CAPACITY, "Accumulator: more than {} moves stacked", Accumulator::CAPACITY - 1);
        self.stack[self.len] = self.stack[self.len - 1];
        self.extra[self.len] = self.extra[self.len - 1];
        self.len += 1;
    }

    /// Takes back the last [`Accumulator::make`] or [`Accumulator::make_null`]. Does nothing at the root.
    #[inline]
    pub fn unmake(&mut self) {
        if self.len > 1 {
            self.len -= 1;
        }
    }
}

/// The evaluations that take the incremental terms from an [`Accumulator`].
impl Handcrafted {
    /// The evaluation of `pos` for the side to move, taking material and piece-square sums from `acc`, which must be
    /// in step with `pos` (see [`Accumulator`]). Equal to [`Handcrafted::evaluate`].
    #[inline]
    pub fn evaluate_with(&self, pos: &Position, acc: &Accumulator) -> i32 {
        debug_assert!(acc.belongs_to(self), "accumulator built by another evaluator");
        self.evaluate_psq(pos, acc.state(), acc.extra())
    }

    /// Lazy evaluation, as ElephantEye does it: when material and piece-square sums (kept by `acc`) are more than the
    /// lazy margin below `alpha` or above `beta`, the positional terms are assumed not to bring the score back into
    /// the window, and that bound is returned without computing them. Otherwise the full [`Handcrafted::evaluate_with`].
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// use xiangqi_eval::{Accumulator, Handcrafted};
    /// let eval = Handcrafted::default();
    /// let pos = Position::startpos();
    /// let acc = Accumulator::new(&eval, &pos);
    /// let full = eval.evaluate_with(&pos, &acc);
    /// assert_eq!(eval.evaluate_lazy(&pos, &acc, -100, 100), full);
    /// assert!(eval.evaluate_lazy(&pos, &acc, 5_000, 5_001) < 5_000); // far below alpha: a bound is enough
    /// ```
    #[inline]
    pub fn evaluate_lazy(&self, pos: &Position, acc: &Accumulator, alpha: i32, beta: i32) -> i32 {
        self.lazy_bound(pos, acc, alpha, beta).unwrap_or_else(|| self.evaluate_psq(pos, acc.state(), acc.extra()))
    }

    /// The lazy half of [`Handcrafted::evaluate_lazy`]: `Some(bound)` when material and piece-square sums alone put
    /// the score more than the lazy margin outside `[alpha, beta]`, `None` when the full evaluation is needed (which
    /// a caller may then take from an [`crate::EvalCache`]).
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// use xiangqi_eval::{Accumulator, Handcrafted};
    /// let eval = Handcrafted::default();
    /// let pos = Position::startpos();
    /// let acc = Accumulator::new(&eval, &pos);
    /// assert_eq!(eval.lazy_bound(&pos, &acc, -100, 100), None);
    /// assert!(eval.lazy_bound(&pos, &acc, 5_000, 5_001).is_some_and(|b| b < 5_000));
    /// ```
    #[inline(always)]
    pub fn lazy_bound(&self, pos: &Position, acc: &Accumulator, alpha: i32, beta: i32) -> Option<i32> {
        let st = acc.state();
        let (r, b) = (Color::Red.index(), Color::Black.index());
        let base = st.material[r] + st.pst[r] - st.material[b] - st.pst[b];
        let v = self.finish(pos.turn(), base, st.phase);
        if v + self.lazy_margin() <= alpha {
            Some(v + self.lazy_margin())
        } else if v - self.lazy_margin() >= beta {
            Some(v - self.lazy_margin())
        } else {
            None
        }
    }
}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Accumulator").field("depth", &self.depth()).field("state", self.state()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extras_follow_the_moves() {
        let eval = Handcrafted::default();
        let mut pos = Position::startpos();
        let mut acc = Accumulator::new(&eval, &pos);
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..400 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Prefer captures now and then, so that pieces leave the board.
            let captures: Vec<_> = moves.iter().copied().filter(|m| pos.piece_at(m.to()).is_some()).collect();
            let m = if !captures.is_empty() && seed % 3 == 0 {
                captures[(seed >> 8) as usize % captures.len()]
            } else {
                moves[(seed >> 8) as usize % moves.len()]
            };
            acc.make(&eval, &pos, m);
            pos.make_move(m);
            assert_eq!(*acc.extra(), eval.psq_and_surplus(&pos).1, "{}", pos.fen());
        }
    }
}
