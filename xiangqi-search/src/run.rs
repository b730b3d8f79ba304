//! Running a [`VariantConfig`]: it is mapped onto a monomorphized [`Searcher`], a composition of fixed policies
//! for the presets that play (where speed counts) and one composition of the dynamic policies for every other
//! variant (which visits the same nodes).

use crate::config::{FormKind, VariantConfig};
use crate::game::{Evaluator, FastPaths};
use crate::limits::Limits;
use crate::memory::SearchMemory;
use crate::ordering;
use crate::policy::{child, null_move, quiescence};
use crate::policy::{
    Additions, Compose, DynamicChild, DynamicForm, DynamicLeaf, DynamicNull, DynamicOrder, NegamaxAbSoftForm,
    NoAdditions, NullMove, Observer, OrderPolicy, Ordered, PrincipalVariation, Quiescence, Silent, SwitchedAdditions,
    Variant,
};
use crate::registry::Group;
use crate::searcher::Searcher;
use crate::stats::SearchResult;
use crate::techniques::verified_null::{self, ChosenNull};
use crate::techniques::TECHNIQUES;
use crate::tt::TranspositionTable;
use std::sync::Arc;

/// One monomorphized run. Kept out of line so that the dispatch's four arms do not each reserve room for a
/// searcher on the caller's stack (in unoptimised builds that alone overflowed an 8 MB stack).
#[inline(never)]
fn run_variant<G: FastPaths, E: Evaluator<G, G::Move>, W: Observer<G>, V: Variant>(
    game: G,
    eval: E,
    config: VariantConfig,
    limits: &Limits,
    setup: &RunSetup,
    on_iteration: impl FnMut(&SearchResult<G::Move>),
    observer: W,
) -> (SearchResult<G::Move>, W) {
    let mut s = Box::new(Searcher::<G, E, V, W>::new(game, eval).with_config(config));
    s.observer = observer;
    s.depth_offset = setup.depth_offset;
    s.set_params(&setup.params);
    if V::Additions::ENABLED {
        s.set_tt(setup.tt.clone().unwrap_or_else(|| Arc::new(TranspositionTable::new(16))));
    }
    if let Some(saved) = setup.memory.as_ref().and_then(|m| m.take(setup.thread)) {
        s.histories.import(saved);
    }
    let r = s.search_with(limits, on_iteration);
    if let Some(memory) = setup.memory.as_ref().filter(|_| V::Order::learns(&s.order)) {
        memory.put(setup.thread, std::mem::take(&mut s.histories));
    }
    (r, std::mem::take(&mut s.observer))
}

/// What a run gets besides the game, the evaluator and the limits: a transposition table (used by the engine's
/// additions), the ordering's memory, and the thread's place among the threads of a search.
#[derive(Clone, Default)]
pub struct RunSetup {
    /// The (shared) transposition table; the engine builds a small one of its own when none is given.
    pub tt: Option<Arc<TranspositionTable>>,
    /// Where the ordering's tables are kept between the searches of a game; `None` starts fresh.
    pub memory: Option<Arc<SearchMemory>>,
    /// The thread's slot in `memory`.
    pub thread: usize,
    /// How many iterations deeper than the first this thread starts when deepening (Lazy SMP's helpers start
    /// some deeper than the main thread).
    pub depth_offset: u32,
    /// The techniques' tunable numbers ([`crate::params`]; the compiled defaults by default).
    pub params: crate::params::Params,
}

impl VariantConfig {
    /// Runs this variant on `game` with `eval` within `limits`, through the monomorphized searcher it names.
    pub fn run<G: FastPaths, E: Evaluator<G, G::Move>>(
        &self,
        game: G,
        eval: E,
        limits: &Limits,
    ) -> SearchResult<G::Move> {
        self.run_observed::<G, E, Silent>(game, eval, limits, &RunSetup::default(), |_| {}).0
    }

    /// [`VariantConfig::run`] with a table, the ordering's memory, the thread's settings, and a callback after each
    /// iteration of iterative deepening.
    pub fn run_with<G: FastPaths, E: Evaluator<G, G::Move>>(
        &self,
        game: G,
        eval: E,
        limits: &Limits,
        setup: &RunSetup,
        on_iteration: impl FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        self.run_observed::<G, E, Silent>(game, eval, limits, setup, on_iteration).0
    }

    /// [`VariantConfig::run_with`] watched by an observer `W`, returned with the result.
    pub fn run_observed<G: FastPaths, E: Evaluator<G, G::Move>, W: Observer<G>>(
        &self,
        game: G,
        eval: E,
        limits: &Limits,
        setup: &RunSetup,
        on_iteration: impl FnMut(&SearchResult<G::Move>),
    ) -> (SearchResult<G::Move>, W) {
        self.run_observing(game, eval, limits, setup, on_iteration, W::default())
    }

    /// [`VariantConfig::run_observed`] with the observer given (a recorder with chosen capacities, say).
    pub fn run_observing<G: FastPaths, E: Evaluator<G, G::Move>, W: Observer<G>>(
        &self,
        game: G,
        eval: E,
        limits: &Limits,
        setup: &RunSetup,
        on_iteration: impl FnMut(&SearchResult<G::Move>),
        observer: W,
    ) -> (SearchResult<G::Move>, W) {
        let config = *self;
        macro_rules! go {
            ($v:ty) => {
                run_variant::<G, E, W, $v>(game, eval, config, limits, setup, on_iteration, observer)
            };
        }
        let any_addition = TECHNIQUES.iter().any(|t| t.group == Group::Addition && config.has(t.id));
        // The presets that play get compositions of fixed policies (a technique that is off costs nothing); every
        // other variant runs on one composition of dynamic policies, which visits the same nodes.
        let pvs_nmp_qs_order =
            [child::ID, null_move::ID, quiescence::ID, ordering::ID].into_iter().all(|id| config.has(id));
        if config.is_engine() && pvs_nmp_qs_order && config.has(verified_null::ID) {
            go!(crate::EnginePreset)
        } else if config.is_engine() || any_addition {
            go!(Compose<DynamicForm, DynamicLeaf, DynamicNull<ChosenNull>, DynamicChild, DynamicOrder, SwitchedAdditions>)
        } else if config.form() == FormKind::NegamaxAb && pvs_nmp_qs_order {
            go!(Compose<NegamaxAbSoftForm, Quiescence, NullMove<3>, PrincipalVariation, Ordered, NoAdditions>)
        } else {
            go!(Compose<DynamicForm, DynamicLeaf, DynamicNull<NullMove<3>>, DynamicChild, DynamicOrder, NoAdditions>)
        }
    }
}
