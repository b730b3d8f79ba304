//! Lazy SMP: several threads search the same position and share the transposition table.

use crate::config::VariantConfig;
use crate::game::{Evaluator, FastPaths};
use crate::limits::{Limits, Signals};
use crate::run::RunSetup;
use crate::stats::SearchResult;
use crate::tt::TranspositionTable;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// Stack size of search threads: deep lines (quiescence, check extensions) in unoptimised builds need more than a
/// default thread's 2 MB. Only the pages touched are committed.
pub const SEARCH_STACK: usize = 64 << 20;

/// Searches `game` with `threads` threads (Lazy SMP) sharing `tt`. Helper threads run the same variant, half of
/// them starting one iteration deeper, and fill the table for the main thread; the main thread runs on the caller's
/// thread's behalf (on a thread with a [`SEARCH_STACK`] stack), calls `on_iteration`, and its result is returned with
/// the node counts of all threads added. With one thread this is exactly the single-threaded search (reproducible
/// node counts).
pub fn search_smp<G, E>(
    variant: &VariantConfig,
    game: &G,
    make_eval: impl Fn(&G) -> E + Sync,
    limits: &Limits,
    tt: Arc<TranspositionTable>,
    threads: usize,
    on_iteration: impl FnMut(&SearchResult<G::Move>) + Send,
) -> SearchResult<G::Move>
where
    G: FastPaths + Clone + Send + Sync,
    G::Move: Send,
    E: Evaluator<G, G::Move> + Send,
{
    search_smp_with(
        variant,
        game,
        make_eval,
        limits,
        &RunSetup { tt: Some(tt), ..RunSetup::default() },
        threads,
        on_iteration,
    )
}

/// [`search_smp`] with the table, the ordering's memory and the tunable parameters of `setup` (see
/// [`SearchPool::search_in`]): with a [`crate::SearchMemory`] each thread starts from what it learnt about move
/// ordering in the last search kept there (history and countermoves), and keeps what it learns there for the
/// next, the search of a game's next move. The threads live for this one search; [`SearchPool::search_in`] keeps
/// them for the next.
pub fn search_smp_with<G, E>(
    variant: &VariantConfig,
    game: &G,
    make_eval: impl Fn(&G) -> E + Sync,
    limits: &Limits,
    setup: &RunSetup,
    threads: usize,
    on_iteration: impl FnMut(&SearchResult<G::Move>) + Send,
) -> SearchResult<G::Move>
where
    G: FastPaths + Clone + Send + Sync,
    G::Move: Send,
    E: Evaluator<G, G::Move> + Send,
{
    let pool = SearchPool::new(threads).expect("the search threads start");
    pool.search_in(variant, game, make_eval, limits, setup, on_iteration)
}

/// Search threads that live from one search to the next, as Stockfish keeps its threads until the `Threads`
/// option changes: a game's searches pay for starting them once, not at every move.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use xiangqi_core::Position;
/// use xiangqi_search::{Limits, RunSetup, SearchPool, TranspositionTable, VariantConfig};
/// # use xiangqi_search::{Evaluator, Score};
/// # struct Material;
/// # impl Evaluator<Position> for Material {
/// #     fn evaluate(&mut self, _: &Position) -> Score { 0 }
/// # }
///
/// let pool = SearchPool::new(2).unwrap();
/// let setup = RunSetup { tt: Some(Arc::new(TranspositionTable::new(1))), ..RunSetup::default() };
/// let variant: VariantConfig = "engine".parse().unwrap();
/// for _ in 0..2 {
///     let r = pool.search_in(&variant, &Position::startpos(), |_| Material, &Limits::depth(3), &setup, |_| {});
///     assert!(r.best_move.is_some());
/// }
/// ```
pub struct SearchPool {
    pool: rayon::ThreadPool,
    threads: usize,
}

impl std::fmt::Debug for SearchPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchPool").field("threads", &self.threads).finish()
    }
}

impl SearchPool {
    /// Starts `threads` search threads (at least one), each with a [`SEARCH_STACK`] stack, named `search-N`.
    ///
    /// # Errors
    /// When the system refuses to start a thread.
    pub fn new(threads: usize) -> Result<SearchPool, rayon::ThreadPoolBuildError> {
        let threads = threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(SEARCH_STACK)
            .thread_name(|i| format!("search-{i}"))
            .build()?;
        Ok(SearchPool { pool, threads })
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `f` on one of this pool's threads (with a [`SEARCH_STACK`] stack) and returns what it returns.
    pub(crate) fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }

    /// [`search_smp_with`] on this pool's threads: the main thread and `threads - 1` helpers, with the table, the
    /// ordering's memory and the tunable parameters of `setup` (its `thread` and `depth_offset` are set for each
    /// thread; without a table each thread makes a small one of its own, so give one). With one thread this is
    /// exactly the single-threaded search (reproducible node counts).
    pub fn search_in<G, E>(
        &self,
        variant: &VariantConfig,
        game: &G,
        make_eval: impl Fn(&G) -> E + Sync,
        limits: &Limits,
        setup: &RunSetup,
        on_iteration: impl FnMut(&SearchResult<G::Move>) + Send,
    ) -> SearchResult<G::Move>
    where
        G: FastPaths + Clone + Send + Sync,
        G::Move: Send,
        E: Evaluator<G, G::Move> + Send,
    {
        let signals = limits.signals.clone().unwrap_or_else(|| Arc::new(Signals::default()));
        let limits = Limits { signals: Some(signals.clone()), iterative: true, ..limits.clone() };
        // Helpers search until the main thread is done.
        let helper_limits =
            Limits { depth: None, nodes: None, movetime: None, soft_time: None, mate: None, ..limits.clone() };
        let helper_stats = Mutex::new(Vec::with_capacity(self.threads));
        let mut result = self.pool.scope(|scope| {
            for i in 1..self.threads {
                let (g, e) = (game.clone(), make_eval(game));
                let setup = RunSetup { thread: i, depth_offset: (i % 2) as u32, ..setup.clone() };
                let (helper_limits, helper_stats) = (&helper_limits, &helper_stats);
                scope.spawn(move |_| {
                    let r = variant.run_with(g, e, helper_limits, &setup, |_| {});
                    helper_stats.lock().unwrap_or_else(|e| e.into_inner()).push(r.stats);
                });
            }
            let main_setup = RunSetup { thread: 0, depth_offset: 0, ..setup.clone() };
            let result = variant.run_with(game.clone(), make_eval(game), &limits, &main_setup, on_iteration);
            signals.stop.store(true, Ordering::Relaxed);
            result
        });
        let elapsed = result.stats.elapsed;
        for stats in helper_stats.into_inner().unwrap_or_else(|e| e.into_inner()) {
            result.stats.add(&stats);
        }
        result.stats.elapsed = elapsed;
        result
    }
}
