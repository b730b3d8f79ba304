//! The default evaluator behind the search's `Evaluator` trait.

use xiangqi_core::{Move, Position};
use xiangqi_eval::{Accumulator, EvalCache, Evaluator};
use xiangqi_search::Score;

/// The search's view of the default evaluator, with the incremental accumulator kept in step by the search's
/// make/unmake hooks, and full evaluations remembered in an [`EvalCache`]. The cache only saves time: every value
/// it returns is the one the evaluator would compute, so searches visit the same nodes with or without it.
pub struct EngineEval {
    eval: Evaluator,
    acc: Accumulator,
    cache: EvalCache,
}

impl EngineEval {
    /// The default evaluator, its accumulator set to `pos`.
    pub fn new(pos: &Position) -> EngineEval {
        let eval = Evaluator::default();
        let acc = Accumulator::new(&eval, pos);
        EngineEval { eval, acc, cache: EvalCache::default() }
    }

    /// The full evaluation, from the cache when the position was met before.
    #[inline(always)]
    fn full(&mut self, pos: &Position) -> Score {
        let key = pos.key();
        if let Some(v) = self.cache.probe(key) {
            return v;
        }
        let v = self.eval.evaluate_with(pos, &self.acc);
        self.cache.store(key, v);
        v
    }
}

impl xiangqi_search::Evaluator<Position> for EngineEval {
    #[inline(always)]
    fn evaluate(&mut self, pos: &Position) -> Score {
        self.full(pos)
    }

    #[inline(always)]
    fn evaluate_in_window(&mut self, pos: &Position, alpha: Score, beta: Score) -> Score {
        match self.eval.lazy_bound(pos, &self.acc, alpha, beta) {
            Some(bound) => bound,
            None => self.full(pos),
        }
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
