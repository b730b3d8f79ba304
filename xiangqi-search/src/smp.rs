//! Lazy SMP: several threads search the same position and share the transposition table.

use crate::game::{Evaluator, Game};
use crate::limits::{Limits, Signals};
use crate::memory::SearchMemory;
use crate::stats::SearchResult;
use crate::tt::TranspositionTable;
use crate::variants::{RunSetup, VariantSpec};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Stack size of search threads: deep lines (quiescence, check extensions) in unoptimised builds need more than a
/// default thread's 2 MB. Only the pages touched are committed.
pub const SEARCH_STACK: usize = 64 << 20;

/// Searches `game` with `threads` threads (Lazy SMP) sharing `tt`. Helper threads run the same variant, half of
/// them starting one iteration deeper, and fill the table for the main thread; the main thread runs on the caller's
/// thread's behalf (on a thread with a [`SEARCH_STACK`] stack), calls `on_iteration`, and its result is returned with
/// the node counts of all threads added. With one thread this is exactly the single-threaded search (reproducible
/// node counts).
pub fn search_smp<G, E>(
    spec: &VariantSpec,
    game: &G,
    make_eval: impl Fn(&G) -> E + Sync,
    limits: &Limits,
    tt: Arc<TranspositionTable>,
    threads: usize,
    on_iteration: impl FnMut(&SearchResult<G::Move>) + Send,
) -> SearchResult<G::Move>
where
    G: Game + Clone + Send + Sync,
    G::Move: Send,
    E: Evaluator<G> + Send,
{
    search_smp_remembering(spec, game, make_eval, limits, tt, None, threads, on_iteration)
}

/// [`search_smp`] that starts each thread from what it learnt about move ordering in the last search kept in
/// `memory` (history and countermoves), and keeps what it learns there for the next: the search of a game's
/// next move. `None` is [`search_smp`].
#[allow(clippy::too_many_arguments)]
pub fn search_smp_remembering<G, E>(
    spec: &VariantSpec,
    game: &G,
    make_eval: impl Fn(&G) -> E + Sync,
    limits: &Limits,
    tt: Arc<TranspositionTable>,
    memory: Option<Arc<SearchMemory>>,
    threads: usize,
    on_iteration: impl FnMut(&SearchResult<G::Move>) + Send,
) -> SearchResult<G::Move>
where
    G: Game + Clone + Send + Sync,
    G::Move: Send,
    E: Evaluator<G> + Send,
{
    let signals = limits.signals.clone().unwrap_or_else(|| Arc::new(Signals::default()));
    let limits = Limits { signals: Some(signals.clone()), iterative: true, ..limits.clone() };
    let main_setup = RunSetup { tt: Some(tt.clone()), options: None, memory: memory.clone(), thread: 0 };
    std::thread::scope(|scope| {
        let spawn = |name: String| std::thread::Builder::new().name(name).stack_size(SEARCH_STACK);
        let helpers: Vec<_> = (1..threads)
            .filter_map(|i| {
                let (g, e) = (game.clone(), make_eval(game));
                let mut options = spec.options;
                options.depth_offset = (i % 2) as u32;
                let setup =
                    RunSetup { tt: Some(tt.clone()), options: Some(options), memory: memory.clone(), thread: i };
                // Helpers search until the main thread is done.
                let helper_limits =
                    Limits { depth: None, nodes: None, movetime: None, soft_time: None, mate: None, ..limits.clone() };
                spawn(format!("search-{i}"))
                    .spawn_scoped(scope, move || spec.run_with(g, e, &helper_limits, &setup, |_| {}))
                    .ok()
            })
            .collect();
        let (g, e) = (game.clone(), make_eval(game));
        let main = spawn("search-0".to_owned())
            .spawn_scoped(scope, || spec.run_with(g, e, &limits, &main_setup, on_iteration))
            .expect("the search thread starts");
        let mut result = main.join().expect("the search thread does not panic");
        signals.stop.store(true, Ordering::Relaxed);
        for h in helpers {
            if let Ok(r) = h.join() {
                let elapsed = result.stats.elapsed;
                result.stats.add(&r.stats);
                result.stats.elapsed = elapsed;
            }
        }
        result
    })
}
