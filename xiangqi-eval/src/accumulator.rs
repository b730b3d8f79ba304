//! [`Accumulator`]: material, piece-square sums and phase kept incrementally along a line of play.

use crate::handcrafted::Handcrafted;
use crate::score::TaperedScore;
use xiangqi_core::{Move, Position};

/// The incremental part of an evaluation: material and piece-square sums per side (index [`Color::index`]) and the
/// raw phase count (the sum of [`Weights::phase_weight`] over the pieces on the board).
///
/// [`Handcrafted::psq`] computes it from scratch; an [`Accumulator`] keeps it up to date move by move. Both must agree.
///
/// [`Color::index`]: xiangqi_core::Color::index
/// [`Weights::phase_weight`]: crate::Weights::phase_weight
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PsqState {
    /// Base values of each side's pieces.
    pub material: [TaperedScore; 2],
    /// Piece-square bonuses of each side's pieces.
    pub pst: [TaperedScore; 2],
    /// Raw phase count of all pieces.
    pub phase: i32,
}

/// What an [`Accumulator`] keeps beside a [`PsqState`] for the positional terms: the attack counts (see
/// `Handcrafted::pressures`), the strength surplus (Red's [`Weights::attack_material`] sum minus Black's) and each
/// side's attack units ([`Weights::attack_unit`]) of its pieces across the river, and each side's pieces file by file
/// (`bits::FILE_MAJOR`).
///
/// [`Weights::attack_material`]: crate::Weights::attack_material
/// [`Weights::attack_unit`]: crate::Weights::attack_unit
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Extra {
    /// Red's strength minus Black's.
    pub(crate) surplus: i32,
    /// Attack units of each side's pieces across the river, `[color]`.
    pub(crate) units: [i32; 2],
    /// Each side's pieces, file-major, `[color]`.
    pub(crate) files: [[u64; 2]; 2],
}

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
