//! The default evaluator behind the search's `Evaluator` trait.

use std::fmt::Write as _;
use std::sync::Arc;
use xiangqi_core::{Color, Move, Position};
use xiangqi_eval::{Accumulator, EvalCache, Evaluator, Score as TermScore, Term, Trace};
use xiangqi_search::record::Recorder;
use xiangqi_search::{
    Limits, RunSetup, Score, SearchMemory, SearchPool, SearchResult, TranspositionTable, VariantSpec,
};

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

/// One search of `pos` by `spec` with the default evaluator, on the calling thread.
///
/// The generic searcher is instantiated for the default evaluator here, once: the binary, the benches and the
/// UCI loop call these functions rather than naming the generic searcher themselves, each of which would compile
/// every variant of the search again.
pub fn search(spec: &VariantSpec, pos: &Position, limits: &Limits) -> SearchResult<Move> {
    spec.run(pos.clone(), EngineEval::new(pos), limits)
}

/// A Lazy SMP search of `pos` by `spec` with the default evaluator on the threads of `pool` sharing `tt`
/// ([`SearchPool::search`]), starting from and keeping what earlier searches of the game learnt about move
/// ordering in `memory` (none: a fresh search), calling `on_iteration` after each iteration.
pub fn search_threads(
    spec: &VariantSpec,
    pos: &Position,
    limits: &Limits,
    tt: Arc<TranspositionTable>,
    memory: Option<Arc<SearchMemory>>,
    pool: &SearchPool,
    on_iteration: &mut (dyn FnMut(&SearchResult<Move>) + Send),
) -> SearchResult<Move> {
    pool.search(spec, pos, EngineEval::new, limits, tt, memory, on_iteration)
}

/// One search of `pos` by `spec` with the default evaluator, recorded node by node (`xiangqi tree`).
pub fn search_recorded(spec: &VariantSpec, pos: &Position, limits: &Limits) -> (SearchResult<Move>, Recorder<Move>) {
    spec.run_observed::<_, _, Recorder<Move>>(pos.clone(), EngineEval::new(pos), limits, &RunSetup::default(), |_| {})
}

/// The total from Red's view.
pub fn red_view(t: &Trace) -> i32 {
    match t.turn {
        Color::Red => t.total,
        Color::Black => -t.total,
    }
}

/// The breakdown of an evaluation as a table, in the manner of Stockfish's `eval` (`xiangqi eval`, and `eval` in
/// the UCI loop).
pub fn trace_table(fen: &str, t: &Trace) -> String {
    let mut out = String::new();
    let pct = 100 * t.phase / t.phase_max;
    let _ = writeln!(out, "Position: {fen}");
    let _ = writeln!(out, "Phase: {}/{} ({pct}% middlegame)", t.phase, t.phase_max);
    let _ = writeln!(out);
    let _ = writeln!(out, "        Term |       Red       |      Black      |    Red - Black  | Value");
    let _ = writeln!(out, "             |    MG      EG   |    MG      EG   |    MG      EG   |");
    let rule = "-------------+-----------------+-----------------+-----------------+-------";
    let _ = writeln!(out, "{rule}");
    let row = |out: &mut String, name: &str, red: TermScore, black: TermScore, value: i32| {
        let net = red - black;
        let _ = writeln!(
            out,
            "{name:>12} | {:>6}  {:>6}  | {:>6}  {:>6}  | {:>6}  {:>6}  | {value:>6}",
            red.mg, red.eg, black.mg, black.eg, net.mg, net.eg
        );
    };
    let (mut red, mut black) = (TermScore::ZERO, TermScore::ZERO);
    for term in Term::ALL {
        let (r, b) = (t.get(term, Color::Red), t.get(term, Color::Black));
        red += r;
        black += b;
        row(&mut out, term.name(), r, b, t.value(term));
    }
    let _ = writeln!(out, "{rule}");
    row(&mut out, "total", red, black, red_view(t));
    let _ = writeln!(out);
    let _ = writeln!(out, "Value: the term tapered by the phase, from Red's view; the total tapers the sum once.");
    let _ = writeln!(out, "Evaluation: {:+} for {} (side to move), {:+} from Red's view", t.total, t.turn, red_view(t));
    out
}
