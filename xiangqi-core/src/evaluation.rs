//! [`Evaluator`]: the small trait that joins a static evaluation to a search.
//!
//! It lives here, at the bottom of the workspace, because it is the one crate both sides depend on: `xiangqi-eval`
//! implements it for its evaluators, `xiangqi-search` calls it, and neither knows the other. A new evaluator needs
//! this crate only.

use crate::{Move, Position};

/// A static evaluation that follows the line a search plays: the score of the position for the side to move, and two
/// hooks that let an incremental evaluator keep its state (accumulators, a network's hidden layer) in step with the
/// moves made and taken back.
///
/// `G` is the game state (a [`Position`] by default; the search's synthetic test trees are other games) and `M` its
/// move. The search calls [`Evaluator::on_make`] before each move it makes and [`Evaluator::on_unmake`] after each
/// move it takes back, never for null moves (which change no material); a stateless evaluator leaves both as they
/// are, and they cost nothing.
///
/// ```
/// use xiangqi_core::evaluation::Evaluator;
/// use xiangqi_core::{PieceKind, Position};
///
/// /// Chariots only, for the side to move.
/// struct Chariots;
/// impl Evaluator for Chariots {
///     fn evaluate(&mut self, pos: &Position) -> i32 {
///         let us = pos.turn();
///         900 * (pos.pieces(us, PieceKind::Chariot).count() as i32 - pos.pieces(!us, PieceKind::Chariot).count() as i32)
///     }
/// }
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K1R3 b").unwrap();
/// assert_eq!(Chariots.evaluate(&pos), -900);
/// ```
pub trait Evaluator<G: ?Sized = Position, M = Move> {
    /// The score for the side to move, well inside the search's mate scores (within `-10_000..=10_000` for the
    /// evaluators of `xiangqi-eval`).
    fn evaluate(&mut self, game: &G) -> i32;

    /// The score when only its relation to `[alpha, beta]` matters (quiescence's stand pat): an evaluator may return
    /// a bound, at most `alpha` or at least `beta`, without computing every term (lazy evaluation). The default is the
    /// full evaluation.
    #[inline(always)]
    fn evaluate_in_window(&mut self, game: &G, _alpha: i32, _beta: i32) -> i32 {
        self.evaluate(game)
    }

    /// Called before `m` is made in `game`.
    #[inline(always)]
    fn on_make(&mut self, _game: &G, _m: M) {}

    /// Called after a move (not a null move) is taken back.
    #[inline(always)]
    fn on_unmake(&mut self) {}
}
