//! # xiangqi-eval: static evaluation for xiangqi
//!
//! A small trait, [`Evaluate`], gives the score of a position for the side to move in centipawn-like units, within
//! `-EVAL_MAX..=EVAL_MAX` (10 000), which leaves room above for mate scores (a search may use about 30 000).
//!
//! The default [`Handcrafted`] is in the spirit of ElephantEye: material and piece-square tables for every piece
//! (Red's tables turned for Black, and left-right symmetric by construction), soldiers across the river and near the
//! palace, horse mobility with blocked legs, cannons against the king (empty-headed cannon, two screens, central
//! horse, bottom cannon), chariot mobility, open files and pins, and king safety from intact advisors and elephants
//! against the attacker's pressure. Every term is a middlegame/endgame pair ([`TaperedScore`]) tapered by a material-based
//! game phase, and every number lives in one table, [`Weights`], for tuning.
//!
//! Material and piece-square sums can be kept incrementally by an [`Accumulator`] that the caller updates around
//! make/unmake; [`Handcrafted::evaluate`] is the from-scratch path and [`Handcrafted::trace`] the breakdown.
//!
//! The neural evaluation is in [`nnue`]: a perspective network read from a file ([`nnue::Network`], which also
//! implements [`Evaluate`]), with accumulators kept along a line of play by a [`nnue::NnueStack`]. It also holds the
//! one definition of the two formats the engine shares with the trainer (`xiangqi-train`) and `xiangqi datagen`: the
//! network file ([`nnue::Network`]) and the training records ([`nnue::data::Record`]).
//!
//! A search takes the evaluator an [`EvalChoice`] names (handcrafted or a network) as a [`ChosenEval`],
//! which implements the search's trait, [`xiangqi_core::evaluation::Evaluator`], keeping its incremental state in step
//! with the search's moves and caching full evaluations. This crate never depends on the search:
//!
//! ```
//! use std::sync::Arc;
//! use xiangqi_core::Position;
//! use xiangqi_eval::{nnue::Network, EvalChoice};
//! use xiangqi_search::{Limits, SearchEngine};
//!
//! let pos = Position::startpos();
//! let net = EvalChoice::Nnue(Arc::new(Network::random(32, 1))); // or EvalChoice::load(path)
//! for eval in [EvalChoice::Handcrafted, net] {
//!     let mut engine = SearchEngine::new(|p: &Position| eval.for_search(p)).unwrap();
//!     let r = engine.search(&pos, &Limits::depth(4));
//!     assert!(pos.is_legal(r.best_move.unwrap()));
//! }
//! ```
//!
//! The handcrafted evaluator on its own:
//!
//! ```
//! use xiangqi_core::{Position, Setup, Validation};
//! use xiangqi_eval::{Accumulator, Evaluate, Handcrafted, Term};
//!
//! let eval = Handcrafted::default();
//! let mut pos = Position::startpos();
//! assert!(eval.evaluate(&pos).abs() < 50); // balanced, a small bonus for the move
//!
//! // In a search: update the accumulator just before each move, and take it back with the move.
//! let mut acc = Accumulator::new(&eval, &pos);
//! let m = pos.parse_move("h2e2").unwrap(); // central cannon
//! acc.make(&eval, &pos, m);
//! pos.make_move(m);
//! let score = eval.evaluate_with(&pos, &acc);
//! assert_eq!(score, eval.evaluate(&pos));
//!
//! // Symmetric: the colour-flipped position (board turned, colours and side to move swapped) scores the same.
//! let flipped = Position::from_setup(&pos.setup().flip_colors(), Validation::Strict).unwrap();
//! assert_eq!(eval.evaluate(&flipped), score);
//!
//! // A chariot up is clearly ahead.
//! let up = Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
//! assert!(eval.evaluate(&up) > 700);
//! assert!(eval.trace(&up).value(Term::Material) > 700);
//! ```

mod bits;
mod cache;
mod choice;
mod handcrafted;
pub mod nnue;
mod score;
mod weights;

pub use cache::{EvalCache, DEFAULT_EVAL_CACHE_SLOTS};
pub use choice::{
    embedded_network, ChosenEval, EvalChoice, EvalSettings, EMBEDDED_NAME, EMBEDDED_NETWORK, EVAL_OPTIONS,
};
pub use handcrafted::{Accumulator, Handcrafted, PsqState, Term, Trace, DEFAULT_LAZY_MARGIN};
pub use score::TaperedScore;
pub use weights::{Pst, Weights, WrongLength};

use xiangqi_core::{Color, PieceKind, Position};

/// The largest evaluation in absolute value. Evaluations are clamped to `-EVAL_MAX..=EVAL_MAX`, so scores beyond it
/// (mate scores) never collide with them.
pub const EVAL_MAX: i32 = 10_000;

/// A static evaluation: the score of a position for the side to move, positive when the side to move stands better,
/// within `-EVAL_MAX..=EVAL_MAX`.
///
/// Implementations must be symmetric: the colour-flipped position (see [`xiangqi_core::Setup::flip_colors`]) scores
/// the same for its side to move.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_eval::{Evaluate, Handcrafted, MaterialOnly};
///
/// fn best_of<E: Evaluate>(eval: &E, positions: &[Position]) -> i32 {
///     positions.iter().map(|p| eval.evaluate(p)).max().unwrap()
/// }
/// let positions = [Position::startpos()];
/// assert_eq!(best_of(&MaterialOnly, &positions), 0);
/// assert!(best_of(&Handcrafted::default(), &positions) < 50);
/// ```
pub trait Evaluate {
    /// The score of `pos` for the side to move.
    fn evaluate(&self, pos: &Position) -> i32;
}

impl<E: Evaluate + ?Sized> Evaluate for &E {
    #[inline(always)]
    fn evaluate(&self, pos: &Position) -> i32 {
        (**self).evaluate(pos)
    }
}

/// The plainest evaluation: the middlegame base values of [`Weights::DEFAULT`], nothing else. A baseline for tests and
/// comparisons.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_eval::{Evaluate, MaterialOnly, Weights};
/// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1").unwrap();
/// assert_eq!(MaterialOnly.evaluate(&pos), -Weights::DEFAULT.material[4].mg); // Black to move, a chariot down
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MaterialOnly;

impl Evaluate for MaterialOnly {
    fn evaluate(&self, pos: &Position) -> i32 {
        let side = |c: Color| -> i32 {
            PieceKind::ALL.iter().map(|&k| Weights::DEFAULT.material_of(k).mg * pos.pieces(c, k).count() as i32).sum()
        };
        let us = pos.turn();
        (side(us) - side(!us)).clamp(-EVAL_MAX, EVAL_MAX)
    }
}
