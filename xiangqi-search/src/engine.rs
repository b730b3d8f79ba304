//! The playing engine as one value: [`SearchEngine`] keeps a variant (the [`crate::EnginePreset`] composition by
//! default), a transposition table, the search threads (Lazy SMP), what earlier searches of the game learnt about
//! move ordering, the evaluator's source and the options ([`crate::options`]). [`SearchEngine::go`] starts a search
//! and returns its [`SearchHandle`] at once; [`SearchEngine::search`] waits for the result. It never names a
//! concrete evaluator: it is generic over an [`EvalSource`] (`xiangqi-eval`'s `EvalSettings` or `EvalChoice`, or any
//! function returning an [`Evaluator`](crate::Evaluator)), whose options it lists after its own.

use crate::config::VariantConfig;
use crate::game::FastPaths;
use crate::handle::{Control, GoMode, Info, Listener, MarkDone, SearchHandle};
use crate::limits::{Limits, Signals};
use crate::memory::SearchMemory;
use crate::options::{self, Effect, OptionDecl, OptionValue, SearchEngineSettings, ENGINE_OPTIONS};
use crate::params::{self, Params};
use crate::run::RunSetup;
use crate::skill::{self, Choice, GamePly, Skill};
use crate::smp::SearchPool;
use crate::stats::SearchResult;
use crate::tt::{TableAllocError, TranspositionTable};
use std::marker::PhantomData;
use std::sync::atomic::Ordering;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use xiangqi_core::evaluation::EvalSource;
use xiangqi_core::Position;

/// The table size a [`SearchEngine`] starts with, in megabytes (the `Hash` option's default).
pub const DEFAULT_HASH_MB: usize = options::HASH.spin().0 as usize;

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

/// The playing engine: variant, transposition table, search threads, move-ordering memory and the source of each
/// thread's evaluator (`source`, e.g. `xiangqi-eval`'s `EvalChoice`). Searches of one game share the table and the
/// memory; [`SearchEngine::new_game`] forgets them. With one thread (the default) searches are reproducible node
/// for node.
///
/// ```
/// use std::time::Duration;
/// use xiangqi_core::{evaluation::Evaluator, PieceKind, Position};
/// use xiangqi_search::{GoMode, Limits, SearchEngine};
///
/// struct Material; // a stand-in; `xiangqi_eval::EvalChoice` gives the engine's evaluators
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
/// // A search of its own: reports as it goes, stopped from here.
/// let handle = engine.go(&pos, Limits::default(), GoMode::default());
/// let first = handle.reports().next().unwrap();
/// assert!(first.result.depth >= 1);
/// handle.stop();
/// assert!(pos.is_legal(handle.wait().best_move.unwrap()));
/// ```
pub struct SearchEngine<S, G = Position> {
    variant: VariantConfig,
    params: Params,
    settings: SearchEngineSettings,
    tt: Arc<TranspositionTable>,
    pool: Arc<SearchPool>,
    memory: Arc<SearchMemory>,
    source: Arc<S>,
    /// The last search started with `go`, stopped before the next search starts.
    last: Option<Arc<Control>>,
    /// New games since the `Seed` option was set (mixed into the game's seed).
    games: u64,
    /// The seed of this game's random choices (levels and `Variety`, [`crate::skill`]).
    game_seed: u64,
    game: PhantomData<fn(&G)>,
}

impl<S, G> std::fmt::Debug for SearchEngine<S, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchEngine")
            .field("variant", &self.variant)
            .field("settings", &self.settings)
            .field("hash_mb", &self.tt.size_mb())
            .field("threads", &self.pool.threads())
            .finish_non_exhaustive()
    }
}

impl<S, G> SearchEngine<S, G>
where
    G: FastPaths + GamePly + Clone + Send + Sync,
    G::Move: Send,
    S: EvalSource<G, G::Move> + Sync,
    S::Eval: Send,
{
    /// The [`crate::EnginePreset`] variant with a [`DEFAULT_HASH_MB`] table on one thread, every option at its default,
    /// evaluating with what `source` builds.
    ///
    /// # Errors
    /// When the table's memory or the search thread cannot be had.
    pub fn new(source: S) -> Result<Self, EngineError> {
        let settings = SearchEngineSettings::default();
        Ok(SearchEngine {
            variant: settings.variant.parse().expect("the engine variant parses"),
            params: Params::default(),
            tt: Arc::new(TranspositionTable::try_new(settings.hash_mb)?),
            pool: Arc::new(SearchPool::new(settings.threads)?),
            memory: Arc::new(SearchMemory::new()),
            source: Arc::new(source),
            last: None,
            games: 0,
            game_seed: skill::game_seed(settings.seed, 0),
            settings,
            game: PhantomData,
        })
    }

    /// Searches `game` within `limits` on the engine's threads and waits for the result. With one thread and only a
    /// depth limit (`limits.iterative` off) it is one fixed-depth pass, as [`VariantConfig::run`]; otherwise it deepens
    /// iteratively. [`SearchEngine::go`] runs a search in the background instead.
    pub fn search(&mut self, game: &G, limits: &Limits) -> SearchResult<G::Move> {
        self.search_reporting(game, limits, |_| {})
    }

    /// [`SearchEngine::search`] calling `on_iteration` with the result of each completed iteration.
    pub fn search_reporting(
        &mut self,
        game: &G,
        limits: &Limits,
        on_iteration: impl FnMut(&SearchResult<G::Move>) + Send,
    ) -> SearchResult<G::Move> {
        self.stop_last();
        let choice = self.skill().choice(game.game_ply());
        let (variant, limits) = (self.variant, &skill_limits(self.playing_limits(limits.clone()), choice));
        let source = &*self.source;
        let setup = self.run_setup();
        let result = if self.pool.threads() == 1 && !limits.iterative() {
            self.pool.run(|| variant.run_with(game.clone(), source.for_search(game), limits, &setup, on_iteration))
        } else {
            let make_eval = |g: &G| source.for_search(g);
            self.pool.search_in(&variant, game, make_eval, limits, &setup, on_iteration)
        };
        match choice {
            Some(c) => skill::apply(result, &c, self.game_seed, game.hash()),
            None => result,
        }
    }

    /// The strength played: level, `Variety` and this game's seed.
    pub fn skill(&self) -> Skill {
        Skill { level: self.settings.level(), variety: self.settings.variety, game_seed: self.game_seed }
    }

    /// What every search thread is given: the table, the ordering's memory and the tunable parameters.
    fn run_setup(&self) -> RunSetup {
        RunSetup {
            tt: Some(self.tt.clone()),
            memory: Some(self.memory.clone()),
            params: self.params,
            ..RunSetup::default()
        }
    }

    /// Stops the last search started with `go` if it still runs, and waits until it no longer uses the threads.
    fn stop_last(&mut self) {
        if let Some(last) = self.last.take() {
            last.stop();
            while !last.done.load(Ordering::Acquire) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }

    /// The limits as searched: `limits` with the `MultiPV` option's lines (the one place where the engine's
    /// options reach the search's).
    fn playing_limits(&self, limits: Limits) -> Limits {
        Limits { multipv: self.settings.multipv, ..limits }
    }

    /// Forgets what earlier searches learnt (the table and the move-ordering memory): the next search is that of a
    /// fresh engine. A search still running is stopped first: nothing is cleared under it.
    pub fn new_game(&mut self) {
        self.stop_last();
        self.tt.clear();
        self.memory.clear();
        self.games += 1;
        self.game_seed = skill::game_seed(self.settings.seed, self.games);
    }

    /// Forgets what earlier searches learnt about move ordering, keeping the table: the next search orders its
    /// moves as a first search does (an analysis of unrelated positions, self-play that reproduces its games). A
    /// search still running is stopped first.
    pub fn forget_ordering(&mut self) {
        self.stop_last();
        self.memory.clear();
    }

    /// Plays `variant` instead (e.g. `"engine+no-lmr".parse()`, or a textbook variant).
    pub fn set_variant(&mut self, variant: VariantConfig) {
        self.settings.variant = variant.to_string();
        self.variant = variant;
    }

    /// Searches with the tunable numbers `params` ([`crate::params`]; a new engine has the compiled defaults).
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
    }

    /// The tunable numbers searched with.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// A new, empty table of `mb` megabytes, faulted in on a background thread; on an error the old table is kept.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), EngineError> {
        let tt = Arc::new(TranspositionTable::try_new(mb)?);
        tt.prefault_in_background();
        self.tt = tt;
        self.settings.hash_mb = mb;
        Ok(())
    }

    /// Searches on `threads` threads (Lazy SMP); on an error the old threads are kept.
    ///
    /// # Errors
    /// When the system refuses to start the threads.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), EngineError> {
        if threads != self.pool.threads() {
            self.pool = Arc::new(SearchPool::new(threads)?);
        }
        self.settings.threads = threads.max(1);
        Ok(())
    }

    /// Searches and reports `lines` principal variations (at least one).
    pub fn set_multipv(&mut self, lines: usize) {
        self.settings.multipv = lines.max(1);
    }

    /// Evaluates with what `source` builds from now on.
    pub fn set_evaluator(&mut self, source: S) {
        self.source = Arc::new(source);
    }

    /// The source of the evaluators.
    pub fn evaluator(&self) -> &S {
        &self.source
    }

    /// The variant searched.
    pub fn variant(&self) -> &VariantConfig {
        &self.variant
    }

    /// The shared transposition table.
    pub fn table(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.pool.threads()
    }

    /// The values of the engine's own options.
    pub fn settings(&self) -> &SearchEngineSettings {
        &self.settings
    }

    /// Every option, in the order UCI lists them: the engine's ([`ENGINE_OPTIONS`]), the evaluator's, then
    /// [`options::PARAM_FILE`] and one spin option per tunable parameter ([`params::PARAMS`]).
    pub fn options(&self) -> Vec<OptionDecl> {
        let tunable = std::iter::once(options::PARAM_FILE).chain(params::PARAMS.iter().map(|p| p.option()));
        ENGINE_OPTIONS.iter().map(|o| o.decl).chain(self.source.options().iter().copied()).chain(tunable).collect()
    }

    /// The option of UCI name `name` (without regard to case).
    pub fn option(&self, name: &str) -> Option<OptionDecl> {
        self.options().into_iter().find(|o| o.name.eq_ignore_ascii_case(name))
    }
}

impl<S, G> SearchEngine<S, G>
where
    G: FastPaths + GamePly + Clone + Send + Sync,
    G::Move: Send,
    S: EvalSource<G, G::Move> + Sync + Clone,
    S::Eval: Send,
{
    /// Sets the option `decl` (one of [`SearchEngine::options`]) to `value`, checked with [`OptionDecl::parse`]. `Ok`
    /// may carry a message for the user (the evaluator's: what was loaded); on an error nothing changes.
    ///
    /// ```
    /// use xiangqi_core::{evaluation::Evaluator, Position};
    /// use xiangqi_search::{options, SearchEngine};
    /// # struct Zero;
    /// # impl Evaluator for Zero { fn evaluate(&mut self, _: &Position) -> i32 { 0 } }
    /// let mut engine = SearchEngine::new(|_: &Position| Zero).unwrap();
    /// let hash = engine.option("hash").unwrap();
    /// engine.set_option(&hash, &hash.parse("Hash", Some("32")).unwrap()).unwrap();
    /// assert_eq!(engine.table().size_mb(), 32);
    /// let variant = options::VARIANT;
    /// assert!(engine.set_option(&variant, &variant.parse("Variant", Some("pvs+bogus")).unwrap()).is_err());
    /// assert_eq!(engine.settings().variant, "engine");
    /// ```
    ///
    /// # Errors
    /// When the setting cannot be made (a table too large for the memory, threads the system refuses, a variant
    /// that does not parse, the evaluator's errors) or the option is none of the engine's.
    pub fn set_option(&mut self, decl: &OptionDecl, value: &OptionValue) -> Result<Option<String>, String> {
        let name = decl.name;
        if let Some(option) = options::find(name) {
            let mut next = self.settings.clone();
            let effect = (option.set)(&mut next, value)?;
            match effect {
                Effect::Stored => {}
                Effect::NewTable => self.set_hash(next.hash_mb).map_err(|e| e.to_string())?,
                Effect::Threads => self
                    .set_threads(next.threads)
                    .map_err(|e| format!("cannot start {} search threads: {e}", next.threads))?,
                // The table is cleared under no search.
                Effect::ClearTable => {
                    self.stop_last();
                    self.tt.clear();
                }
                Effect::NewSeed => {
                    self.games = 0;
                    self.game_seed = skill::game_seed(next.seed, 0);
                }
                Effect::Variant => self.variant = next.variant.parse::<VariantConfig>().map_err(|e| e.to_string())?,
            }
            self.settings = next;
        } else if name == options::PARAM_FILE.name {
            let OptionValue::Text(path) = value else { return Err(format!("option {name} needs a file name")) };
            if !path.trim().is_empty() && path.trim() != "<empty>" {
                self.params = self.params.load(std::path::Path::new(path.trim())).map_err(|e| e.to_string())?;
                return Ok(Some(format!("parameters from {}", path.trim())));
            }
        } else if let Some(p) = params::find(name) {
            self.params.set(p.name, options::spin(*decl, value)?).map_err(|e| e.to_string())?;
        } else if self.source.options().iter().any(|o| o.name == name) {
            let mut source = (*self.source).clone();
            let said = source.set_option(name, value)?;
            self.source = Arc::new(source);
            return Ok(said);
        } else {
            return Err(format!("unknown option {name:?}"));
        }
        Ok(None)
    }
}

impl<S, G> SearchEngine<S, G>
where
    G: FastPaths + GamePly + Clone + Send + Sync + 'static,
    G::Move: Clone + Send + 'static,
    S: EvalSource<G, G::Move> + Send + Sync + 'static,
    S::Eval: Send,
{
    /// Starts a search of `game` within `limits` on the engine's threads and returns at once. The handle stops it,
    /// passes `ponderhit`, hands out one [`Info`] per completed iteration ([`SearchHandle::try_report`],
    /// [`SearchHandle::reports`]) and waits for the result. The search always deepens iteratively; the clock of
    /// `limits` starts at `limits.start` when given (the moment a UCI `go` arrived), else now. The search uses the
    /// table, threads, evaluator and options the engine has now; changing them later does not reach it. One search
    /// runs at a time: a search still running when another starts is stopped first (its handle gets its result).
    pub fn go(&mut self, game: &G, limits: Limits, mode: GoMode) -> SearchHandle<G::Move> {
        let (tx, rx) = mpsc::channel();
        let mut handle = self.go_with(game, limits, mode, tx);
        handle.reports = Some(rx);
        handle
    }

    /// [`SearchEngine::go`] telling `listener`, on the search's thread, of each iteration and of the result (a UCI
    /// loop prints its `info` and `bestmove` lines there); the handle then has no reports of its own.
    pub fn go_with(
        &mut self,
        game: &G,
        limits: Limits,
        mode: GoMode,
        mut listener: impl Listener<G::Move>,
    ) -> SearchHandle<G::Move> {
        self.stop_last();
        let signals = limits.signals.clone().unwrap_or_else(|| Arc::new(Signals::default()));
        signals.ponder.store(mode.ponder, Ordering::Release);
        let control = Arc::new(Control { signals: signals.clone(), ..Control::default() });
        let start = limits.start.unwrap_or_else(Instant::now);
        let choice = self.skill().choice(game.game_ply());
        let (game_seed, key) = (self.game_seed, game.hash());
        let limits = Limits {
            signals: Some(signals),
            iterative: true,
            start: Some(start),
            ..skill_limits(self.playing_limits(limits), choice)
        };
        let (variant, game, pool) = (self.variant, game.clone(), self.pool.clone());
        let (tt, source, setup) = (self.tt.clone(), self.source.clone(), self.run_setup());
        let ctl = control.clone();
        self.last = Some(control.clone());
        let thread = std::thread::Builder::new().name("search-control".to_owned()).spawn(move || {
            let _done = MarkDone(ctl.clone());
            let make_eval = |g: &G| source.for_search(g);
            let report = |r: &SearchResult<G::Move>| {
                let nodes = ctl.signals.nodes.load(Ordering::Relaxed).max(r.stats.nodes());
                let info = Info { result: r.clone(), nodes, elapsed: start.elapsed(), hashfull: tt.hashfull() };
                listener.iteration(&info);
            };
            let result = pool.search_in(&variant, &game, make_eval, &limits, &setup, report);
            let result = match choice {
                Some(c) => skill::apply(result, &c, game_seed, key),
                None => result,
            };
            ctl.hold_then_finish(mode);
            listener.finished(&result);
            result
        });
        let thread = thread.expect("the system starts a thread");
        SearchHandle { control, reports: None, thread: Some(thread) }
    }
}

/// `limits` as a level or `Variety` searches them ([`Choice`]): at most the level's nodes, at least its lines.
fn skill_limits(limits: Limits, choice: Option<Choice>) -> Limits {
    let Some(c) = choice else { return limits };
    let nodes = match (limits.nodes, c.nodes) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    Limits { nodes, multipv: limits.multipv.max(c.lines), ..limits }
}
