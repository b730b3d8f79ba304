//! The playing engine as one value: [`SearchEngine`] keeps a variant (the [`crate::Engine`] composition by
//! default), a transposition table, the search threads (Lazy SMP) and what earlier searches of the game learnt
//! about move ordering, and builds an evaluator for each thread with the function it was given. It never names a
//! concrete evaluator: `xiangqi-eval`'s `EvalChoice::for_search` (or any function returning an [`Evaluator`]) is
//! passed in.

use crate::game::{Evaluator, FastPaths};
use crate::limits::Limits;
use crate::memory::SearchMemory;
use crate::smp::SearchPool;
use crate::stats::SearchResult;
use crate::tt::{TableAllocError, TranspositionTable};
use crate::variants::VariantSpec;
use std::marker::PhantomData;
use std::sync::Arc;
use xiangqi_core::Position;

/// The table size a [`SearchEngine`] starts with, in megabytes (Stockfish's default `Hash`).
pub const DEFAULT_HASH_MB: usize = 16;

/// The variant the engine plays: every technique of the playing engine.
pub const ENGINE_VARIANT: &str = "engine";

/// Why a [`SearchEngine`] could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The transposition table's memory could not be had.
    #[error(transparent)]
    Table(#[from] TableAllocError),
    /// The system refused to start the search threads.
    #[error("cannot start the search threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// The playing engine: variant, transposition table, search threads and move-ordering memory, with a function
/// that builds each thread's evaluator for the position searched (`make_eval`, e.g. `xiangqi-eval`'s
/// `EvalChoice::for_search`). Searches of one game share the table and the memory; [`SearchEngine::new_game`]
/// forgets them. With one thread (the default) searches are reproducible node for node.
///
/// ```
/// use std::time::Duration;
/// use xiangqi_core::{evaluation::Evaluator, PieceKind, Position};
/// use xiangqi_search::{Limits, SearchEngine};
///
/// struct Material; // a stand-in; `xiangqi_eval::EvalChoice::for_search` gives the engine's evaluators
/// impl Evaluator for Material {
///     fn evaluate(&mut self, pos: &Position) -> i32 {
///         let us = pos.turn();
///         PieceKind::ALL.iter().map(|&k| 100 * (pos.pieces(us, k).count() as i32 - pos.pieces(!us, k).count() as i32)).sum()
///     }
/// }
/// let mut engine = SearchEngine::new(|_: &Position| Material).unwrap();
/// let pos = Position::startpos();
/// let r = engine.search(&pos, &Limits::movetime(Duration::from_millis(100)));
/// assert!(pos.is_legal(r.best_move.unwrap()));
/// engine.set_threads(2).unwrap();
/// assert!(engine.search(&pos, &Limits::depth(4)).best_move.is_some());
/// ```
pub struct SearchEngine<F, G = Position> {
    spec: VariantSpec,
    tt: Arc<TranspositionTable>,
    pool: SearchPool,
    memory: Arc<SearchMemory>,
    make_eval: F,
    game: PhantomData<fn(&G)>,
}

impl<F, G> std::fmt::Debug for SearchEngine<F, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchEngine")
            .field("spec", &self.spec)
            .field("hash_mb", &self.tt.size_mb())
            .field("threads", &self.pool.threads())
            .finish_non_exhaustive()
    }
}

impl<F, G, E> SearchEngine<F, G>
where
    G: FastPaths + Clone + Send + Sync,
    G::Move: Send,
    F: Fn(&G) -> E + Sync,
    E: Evaluator<G, G::Move> + Send,
{
    /// The [`crate::Engine`] variant with a [`DEFAULT_HASH_MB`] table on one thread, evaluating with what
    /// `make_eval` builds.
    ///
    /// # Errors
    /// When the table's memory or the search thread cannot be had.
    pub fn new(make_eval: F) -> Result<Self, EngineError> {
        Ok(SearchEngine {
            spec: ENGINE_VARIANT.parse().expect("the engine variant parses"),
            tt: Arc::new(TranspositionTable::try_new(DEFAULT_HASH_MB)?),
            pool: SearchPool::new(1)?,
            memory: Arc::new(SearchMemory::new()),
            make_eval,
            game: PhantomData,
        })
    }

    /// Searches `game` within `limits` on the engine's threads, deepening iteratively.
    pub fn search(&mut self, game: &G, limits: &Limits) -> SearchResult<G::Move> {
        self.search_reporting(game, limits, |_| {})
    }

    /// [`SearchEngine::search`] calling `on_iteration` with the result of each completed iteration (what a UCI
    /// engine prints as `info` lines).
    pub fn search_reporting(
        &mut self,
        game: &G,
        limits: &Limits,
        on_iteration: impl FnMut(&SearchResult<G::Move>) + Send,
    ) -> SearchResult<G::Move> {
        self.pool.search(
            &self.spec,
            game,
            &self.make_eval,
            limits,
            self.tt.clone(),
            Some(self.memory.clone()),
            on_iteration,
        )
    }

    /// Forgets what earlier searches learnt (the table and the move-ordering memory): the next search is that of a
    /// fresh engine.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.memory.clear();
    }

    /// Plays `spec` instead (e.g. `"engine+no-lmr".parse()`, or a textbook variant).
    pub fn set_variant(&mut self, spec: VariantSpec) {
        self.spec = spec;
    }

    /// A new, empty table of `mb` megabytes; on an error the old table is kept.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), EngineError> {
        self.tt = Arc::new(TranspositionTable::try_new(mb)?);
        Ok(())
    }

    /// Searches on `threads` threads (Lazy SMP); on an error the old threads are kept.
    ///
    /// # Errors
    /// When the system refuses to start the threads.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), EngineError> {
        self.pool = SearchPool::new(threads)?;
        Ok(())
    }

    /// Evaluates with what `make_eval` builds from now on.
    pub fn set_evaluator(&mut self, make_eval: F) {
        self.make_eval = make_eval;
    }

    /// The variant searched.
    pub fn variant(&self) -> &VariantSpec {
        &self.spec
    }

    /// The shared transposition table.
    pub fn table(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.pool.threads()
    }
}
