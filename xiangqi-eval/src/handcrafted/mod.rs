//! The handcrafted evaluation: [`Handcrafted`] from scratch (`evaluator.rs`), the incremental terms as plain data
//! ([`PsqState`], `state.rs`), and the [`Accumulator`] that keeps them along a line of play with the evaluations
//! that read it (`accumulator.rs`). The files depend one way: `state` <- `evaluator` <- `accumulator`.

mod accumulator;
mod evaluator;
mod state;

pub use accumulator::Accumulator;
pub use evaluator::{Handcrafted, Term, Trace, DEFAULT_LAZY_MARGIN};
pub use state::PsqState;
