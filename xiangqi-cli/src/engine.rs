//! The engine's evaluators (handcrafted or neural) behind the search's `Evaluator` trait.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;
use xiangqi_core::{Color, Move, Position};
use xiangqi_eval::nnue::{LoadError, Network, NnueStack};
use xiangqi_eval::{Accumulator, EvalCache, Evaluate, Evaluator, Score as TermScore, Term, Trace};
use xiangqi_search::record::Recorder;
use xiangqi_search::{
    Limits, RunSetup, Score, SearchMemory, SearchPool, SearchResult, TranspositionTable, VariantSpec,
};

/// Which evaluation a search uses: the handcrafted evaluator, or a neural network (shared by all threads).
///
/// The choice is made once per search: [`EngineEval`] matches on it in each call, a branch that always goes the
/// same way, and every call inside is static.
#[derive(Debug, Clone, Default)]
pub enum EvalChoice {
    /// The handcrafted evaluator of `xiangqi-eval` ([`Evaluator`]).
    #[default]
    Handcrafted,
    /// A neural network ([`Network`]).
    Nnue(Arc<Network>),
}

impl EvalChoice {
    /// What the engine plays with when nothing else is asked for.
    pub fn engine_default() -> EvalChoice {
        EvalChoice::Handcrafted
    }

    /// A network read from `path`.
    pub fn load(path: &Path) -> Result<EvalChoice, LoadError> {
        Ok(EvalChoice::Nnue(Arc::new(Network::load(path)?)))
    }

    /// `handcrafted`, or `nnue` with the network's hidden size and hash.
    pub fn describe(&self) -> String {
        match self {
            EvalChoice::Handcrafted => "handcrafted".to_owned(),
            EvalChoice::Nnue(net) => format!("nnue (hidden {}, hash {:016x})", net.hidden(), net.hash()),
        }
    }

    /// The static evaluation of `pos` for the side to move, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            EvalChoice::Handcrafted => Evaluator::default().evaluate(pos),
            EvalChoice::Nnue(net) => net.evaluate(pos),
        }
    }
}

/// The state of the evaluation in use. The handcrafted accumulator stays inline, as it was before the network
/// came: the search's hottest path is not given a pointer to follow.
#[allow(clippy::large_enum_variant)]
enum State {
    Handcrafted { eval: Evaluator, acc: Accumulator },
    Nnue { net: Arc<Network>, stack: NnueStack },
}

/// The search's view of the engine's evaluator (handcrafted or neural, see [`EvalChoice`]), with its incremental
/// state (the handcrafted accumulator, or the network's accumulators) kept in step by the search's make/unmake
/// hooks, and full evaluations remembered in an [`EvalCache`]. The cache only saves time: every value it returns
/// is the one the evaluator would compute, so searches visit the same nodes with or without it.
pub struct EngineEval {
    state: State,
    cache: EvalCache,
}

impl EngineEval {
    /// The handcrafted evaluator, its accumulator set to `pos`.
    pub fn new(pos: &Position) -> EngineEval {
        EngineEval::with(&EvalChoice::Handcrafted, pos)
    }

    /// The evaluator `choice` names, its incremental state set to `pos`.
    pub fn with(choice: &EvalChoice, pos: &Position) -> EngineEval {
        let state = match choice {
            EvalChoice::Handcrafted => {
                let eval = Evaluator::default();
                let acc = Accumulator::new(&eval, pos);
                State::Handcrafted { eval, acc }
            }
            EvalChoice::Nnue(net) => State::Nnue { net: net.clone(), stack: NnueStack::new(net, pos) },
        };
        EngineEval { state, cache: EvalCache::default() }
    }

    /// The full evaluation, from the cache when the position was met before.
    #[inline(always)]
    fn full(&mut self, pos: &Position) -> Score {
        let key = pos.key();
        if let Some(v) = self.cache.probe(key) {
            return v;
        }
        let v = match &mut self.state {
            State::Handcrafted { eval, acc } => eval.evaluate_with(pos, acc),
            State::Nnue { net, stack } => stack.evaluate(net, pos),
        };
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
        if let State::Handcrafted { eval, acc } = &self.state {
            if let Some(bound) = eval.lazy_bound(pos, acc, alpha, beta) {
                return bound;
            }
        }
        self.full(pos)
    }

    #[inline(always)]
    fn on_make(&mut self, pos: &Position, m: Move) {
        match &mut self.state {
            State::Handcrafted { eval, acc } => acc.make(eval, pos, m),
            State::Nnue { stack, .. } => stack.make(pos, m),
        }
    }

    #[inline(always)]
    fn on_unmake(&mut self) {
        match &mut self.state {
            State::Handcrafted { acc, .. } => acc.unmake(),
            State::Nnue { stack, .. } => stack.unmake(),
        }
    }
}

/// One search of `pos` by `spec` with the engine's default evaluator, on the calling thread.
///
/// The generic searcher is instantiated for [`EngineEval`] here, once: the binary, the benches and the
/// UCI loop call these functions rather than naming the generic searcher themselves, each of which would compile
/// every variant of the search again.
pub fn search(spec: &VariantSpec, pos: &Position, limits: &Limits) -> SearchResult<Move> {
    search_with(&EvalChoice::engine_default(), spec, pos, limits)
}

/// [`search`] with the evaluator `eval`.
pub fn search_with(eval: &EvalChoice, spec: &VariantSpec, pos: &Position, limits: &Limits) -> SearchResult<Move> {
    spec.run(pos.clone(), EngineEval::with(eval, pos), limits)
}

/// A Lazy SMP search of `pos` by `spec` with the engine's default evaluator on the threads of `pool` sharing `tt`
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
    search_threads_with(&EvalChoice::engine_default(), spec, pos, limits, tt, memory, pool, on_iteration)
}

/// [`search_threads`] with the evaluator `eval`.
#[allow(clippy::too_many_arguments)]
pub fn search_threads_with(
    eval: &EvalChoice,
    spec: &VariantSpec,
    pos: &Position,
    limits: &Limits,
    tt: Arc<TranspositionTable>,
    memory: Option<Arc<SearchMemory>>,
    pool: &SearchPool,
    on_iteration: &mut (dyn FnMut(&SearchResult<Move>) + Send),
) -> SearchResult<Move> {
    pool.search(spec, pos, |p: &Position| EngineEval::with(eval, p), limits, tt, memory, on_iteration)
}

/// One search of `pos` by `spec` with the engine's default evaluator, recorded node by node (`xiangqi tree`).
pub fn search_recorded(spec: &VariantSpec, pos: &Position, limits: &Limits) -> (SearchResult<Move>, Recorder<Move>) {
    let eval = EngineEval::with(&EvalChoice::engine_default(), pos);
    spec.run_observed::<_, _, Recorder<Move>>(pos.clone(), eval, limits, &RunSetup::default(), |_| {})
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
