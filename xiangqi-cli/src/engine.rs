//! The default evaluator behind the search's `Evaluator` trait.

use xiangqi_core::{Move, Position};
use xiangqi_eval::{Accumulator, Evaluator};
use xiangqi_search::Score;

/// The search's view of the default evaluator, with the incremental accumulator kept in step by the search's
/// make/unmake hooks.
pub struct EngineEval {
    eval: Evaluator,
    acc: Accumulator,
}

impl EngineEval {
    /// The default evaluator, its accumulator set to `pos`.
    pub fn new(pos: &Position) -> EngineEval {
        let eval = Evaluator::default();
        let acc = Accumulator::new(&eval, pos);
        EngineEval { eval, acc }
    }
}

impl xiangqi_search::Evaluator<Position> for EngineEval {
    #[inline(always)]
    fn evaluate(&mut self, pos: &Position) -> Score {
        self.eval.evaluate_with(pos, &self.acc)
    }

    #[inline(always)]
    fn evaluate_in_window(&mut self, pos: &Position, alpha: Score, beta: Score) -> Score {
        self.eval.evaluate_lazy(pos, &self.acc, alpha, beta)
    }

    #[inline(always)]
    fn on_make(&mut self, pos: &Position, m: Move) {
        self.acc.make(&self.eval, pos, m);
    }

    #[inline(always)]
    fn on_unmake(&mut self) {
        self.acc.unmake();
    }
}
