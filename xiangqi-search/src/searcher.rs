//! The searcher: one variant on one game, its tables, the root, iterative deepening with aspiration windows, stop
//! conditions, and what the node functions ([`crate::node`]) and the move picker ([`crate::movepick`], [`crate::picker`]) share:
//! the histories ([`crate::history`]) and the stack of per-ply state (`stack.rs`).

use crate::config::VariantConfig;
use crate::game::{mate_moves, Evaluator, FastPaths, MoveBuf, Score, INFINITY, MAX_PLY};
use crate::history::{ContinuationHistory, Histories};
use crate::limits::Limits;
use crate::ordering::OrderPolicy;
use crate::policy::{Additions, Form, NodeKind, Observer, Search, Silent, Variant};
use crate::registry::Params;
use crate::stack::Stack;
use crate::stats::{Line, SearchResult, Stats};
use crate::techniques::aspiration::{self, Aspiration};
use crate::techniques::late_move_reductions::LmrTable;
use crate::techniques::table;
use crate::techniques::time_management::{self, TimeManagement};
use crate::tt::{TranspositionTable, TtHit};
use smallvec::SmallVec;
use std::marker::PhantomData;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Runs one variant `V` on a game `G` with an evaluator `E`, watched by `W` (nothing by default).
pub struct Searcher<G: FastPaths, E: Evaluator<G, G::Move>, V: Variant, W: Observer<G> = Silent> {
    /// The game, restored after every search.
    pub game: G,
    /// The evaluator.
    pub eval: E,
    /// The observer.
    pub observer: W,
    /// The variant as chosen at run time: which techniques are on (the engine's additions, and the spec's for
    /// the dynamic policies) and the form.
    pub(crate) config: VariantConfig,
    /// How many iterations deeper than the first this searcher starts when deepening (see
    /// [`crate::RunSetup::depth_offset`]).
    pub(crate) depth_offset: u32,
    pub(crate) stats: Stats,
    pub(crate) stopped: bool,
    pub(crate) tt: Option<Arc<TranspositionTable>>,
    /// The ordering policy's own state.
    pub(crate) order: <V::Order as OrderPolicy>::State,
    /// The history tables ([`crate::history`]), kept when the ordering learns ([`OrderPolicy::learns`]).
    pub(crate) histories: Histories,
    pub(crate) pv: Vec<Option<G::Move>>,
    /// The state of each ply of the current line ([`crate::stack::StackEntry`]), from the root (`stack[0]`)
    /// down.
    pub(crate) stack: Stack,
    /// The depth of the root's current iteration (singular extension extends only within twice that many plies).
    pub(crate) root_depth: i32,
    pub(crate) excluded: SmallVec<[G::Move; 8]>,
    pub(crate) lmr: LmrTable,
    /// The techniques' tunable numbers ([`crate::params`]); `lmr` is built from them.
    pub(crate) params: Params,
    pub(crate) limits: Limits,
    pub(crate) start: Instant,
    pub(crate) reported_nodes: u64,
    /// Nodes of the earlier iterations of this search (`stats` counts the current one).
    pub(crate) nodes_before: u64,
    /// Nodes entered since the search started, for the periodic clock check.
    pub(crate) tick: u64,
    /// Time management from best-move stability ([`TimeManagement`]): its state, whether it acts in this search
    /// (a clock and the technique on), the nodes under each root move in the current iteration, and the soft
    /// limit it set.
    pub(crate) tm: TimeManagement,
    pub(crate) tm_active: bool,
    pub(crate) root_nodes: Vec<(G::Move, u64)>,
    pub(crate) tm_soft: Option<Duration>,
    _variant: PhantomData<V>,
}

impl<G: FastPaths, E: Evaluator<G, G::Move>, V: Variant, W: Observer<G>> Searcher<G, E, V, W> {
    /// A searcher for `game` with `eval`. All tables are allocated here, none during the search.
    pub fn new(game: G, eval: E) -> Self {
        // What the policy types show makes no sense fails to compile (see `Variant::CHECK`).
        #[allow(clippy::let_unit_value)]
        let () = V::CHECK;
        Searcher {
            game,
            eval,
            observer: W::default(),
            config: VariantConfig::engine(),
            depth_offset: 0,
            stats: Stats::default(),
            stopped: false,
            tt: None,
            order: V::Order::new_state(),
            histories: Histories::new(G::MOVE_KEYS),
            pv: vec![None; (MAX_PLY + 1) * (MAX_PLY + 1)],
            stack: Stack::new(),
            root_depth: 0,
            excluded: SmallVec::new(),
            lmr: LmrTable::default(),
            params: Params::default(),
            limits: Limits::default(),
            start: Instant::now(),
            reported_nodes: 0,
            nodes_before: 0,
            tick: 0,
            tm: TimeManagement::with_capacity(MAX_PLY),
            tm_active: false,
            root_nodes: Vec::with_capacity(256),
            tm_soft: None,
            _variant: PhantomData,
        }
    }

    /// Gives the searcher a transposition table (shared with other threads). Variants without the engine's
    /// additions never use it.
    pub fn with_tt(mut self, tt: Arc<TranspositionTable>) -> Self {
        self.tt = Some(tt);
        self
    }

    /// Gives the searcher a transposition table in place (see [`Searcher::with_tt`]).
    pub fn set_tt(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = Some(tt);
    }

    /// Searches the variant `config` (for a composition of fixed policies, only its switches of the engine's
    /// additions matter). A new searcher has the `engine` preset's, [`VariantConfig::engine`].
    pub fn with_config(mut self, config: VariantConfig) -> Self {
        self.config = config;
        self
    }

    /// Searches with the tunable numbers `params` (a new searcher has the compiled defaults); the tables built
    /// from them are rebuilt when they change.
    pub fn set_params(&mut self, params: &Params) {
        if *params != self.params {
            self.params = *params;
            self.lmr = LmrTable::new(params);
        }
    }

    /// The variant as chosen at run time (see [`Searcher::with_config`]).
    pub fn config(&self) -> &VariantConfig {
        &self.config
    }

    /// Searches within `limits`. See [`Limits`] for fixed depth versus iterative deepening.
    pub fn search(&mut self, limits: &Limits) -> SearchResult<G::Move> {
        self.search_with(limits, |_| {})
    }

    /// Like [`Searcher::search`], calling `on_iteration` after each completed iteration when deepening.
    pub fn search_with(
        &mut self,
        limits: &Limits,
        mut on_iteration: impl FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        self.limits = limits.clone();
        V::Order::configure(&mut self.order, &self.config);
        if V::Order::learns(&self.order) {
            self.histories.configure::<G>(&self.config, &self.params, V::Additions::ENABLED);
        }
        self.start = limits.start.unwrap_or_else(Instant::now);
        self.stopped = false;
        self.reported_nodes = 0;
        self.nodes_before = 0;
        self.tick = 0;
        self.tm.clear();
        self.tm_soft = None;
        self.tm_active = V::Additions::ENABLED && self.config.has(time_management::ID) && limits.soft_time.is_some();
        if let Some(tt) = self.tt_enabled() {
            tt.new_search();
        }
        let mut total = Stats::default();
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        let iterative = limits.iterative();
        let first = if iterative { (1 + self.depth_offset).min(max_depth) } else { max_depth };
        let multipv = if V::Additions::ENABLED { limits.multipv.max(1) } else { 1 };
        let mut best: Option<SearchResult<G::Move>> = None;
        for depth in first..=max_depth {
            self.nodes_before += self.stats.nodes();
            self.stats = Stats::default();
            let mut lines: Vec<Line<G::Move>> = Vec::with_capacity(multipv);
            self.excluded.clear();
            self.root_nodes.clear();
            for k in 0..multipv {
                let previous = best.as_ref().and_then(|b| b.lines.get(k)).map(|l| l.score);
                let score = self.aspiration_root(depth as i32, previous);
                if self.stopped && (best.is_some() || k > 0) {
                    break;
                }
                let pv: Vec<G::Move> = self.pv[..self.stack[0].pv_len].iter().flatten().copied().collect();
                let Some(&first_move) = pv.first() else { break };
                lines.push(Line { score, pv });
                self.excluded.push(first_move);
                if self.stopped {
                    break;
                }
            }
            total.add(&self.stats);
            total.elapsed = self.start.elapsed();
            if iterative && !self.stopped {
                total.iteration_nodes.push(self.stats.main_nodes);
            }
            if lines.is_empty() {
                if best.is_none() {
                    // No legal move at the root: report the score the game gives. (Stopped before the first
                    // iteration gave a move: fall back on the first legal move, so a move is always returned.)
                    let mut moves = MoveBuf::new();
                    self.game.generate(false, &mut moves);
                    let fallback = moves.iter().copied().find(|&m| self.root_allows(m));
                    best = Some(SearchResult {
                        best_move: fallback,
                        score: if fallback.is_some() { 0 } else { self.game.no_moves_score(0) },
                        pv: fallback.into_iter().collect(),
                        depth,
                        lines: Vec::new(),
                        stats: total.clone(),
                    });
                }
                break;
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            let result = SearchResult {
                best_move: lines[0].pv.first().copied(),
                score: lines[0].score,
                pv: lines[0].pv.clone(),
                depth,
                lines,
                stats: total.clone(),
            };
            if iterative {
                on_iteration(&result);
            }
            let mate_found =
                limits.mate.is_some_and(|n| mate_moves(result.score).is_some_and(|m| m.abs() <= n as Score));
            if self.tm_active && !self.stopped {
                self.manage_time(&result);
            }
            best = Some(result);
            if mate_found {
                break;
            }
            // Iterations can be too small to reach the periodic check (a position the rules decide everywhere
            // finishes an iteration in a few hundred nodes): look at the clock and the node count here too.
            self.check_limits();
            if self.stopped || self.soft_time_over() {
                break;
            }
        }
        self.publish_nodes();
        let mut result = best.expect("at least one iteration runs");
        result.stats = total;
        result
    }

    pub(crate) fn tt_enabled(&self) -> Option<&Arc<TranspositionTable>> {
        if V::Additions::ENABLED && self.config.has(table::ID) {
            self.tt.as_ref()
        } else {
            None
        }
    }

    fn soft_time_over(&self) -> bool {
        let pondering = self.limits.signals.as_ref().is_some_and(|s| s.ponder.load(Ordering::Relaxed));
        !pondering && self.tm_soft.or(self.limits.soft_time).is_some_and(|t| self.start.elapsed() >= t)
    }

    /// Time management's hook after a completed iteration: the soft limit from the clock's optimum, scaled by
    /// [`TimeManagement::iteration`] with the best move's share of the iteration's root nodes.
    fn manage_time(&mut self, result: &SearchResult<G::Move>) {
        let (Some(best), Some(optimum)) = (result.best_move, self.limits.soft_time) else { return };
        let total: u64 = self.root_nodes.iter().map(|&(_, n)| n).sum();
        let on_best: u64 = self.root_nodes.iter().filter(|&&(m, _)| m == best).map(|&(_, n)| n).sum();
        let effort = if total == 0 { 0.0 } else { on_best as f64 / total as f64 };
        let scale = self.tm.iteration(G::encode_move(best), result.score, effort);
        self.tm_soft = Some(TimeManagement::soft_limit(optimum, scale, self.limits.movetime));
    }

    /// Adds the nodes searched under the root move `m` since the count was `before` (the negamax node calls it
    /// after each root move; time management's node effort).
    #[inline(always)]
    pub(crate) fn note_root_move(&mut self, m: G::Move, before: u64) {
        if !self.tm_active {
            return;
        }
        let spent = self.stats.nodes() - before;
        match self.root_nodes.iter_mut().find(|(r, _)| *r == m) {
            Some((_, n)) => *n += spent,
            None => self.root_nodes.push((m, spent)),
        }
    }

    /// One iteration at the root, in an aspiration window around `previous` when the variant has them (the
    /// aspiration technique's hook: [`Aspiration::window`] and [`Aspiration::widen`]).
    fn aspiration_root(&mut self, depth: i32, previous: Option<Score>) -> Score {
        let aspire = V::Additions::ENABLED && !V::Form::two_sided(&self.config);
        let window = aspire.then(|| Aspiration::window(&self.config, &self.params, depth, previous)).flatten();
        let Some((mut alpha, mut beta, mut delta)) = window else {
            return self.root(depth, -INFINITY, INFINITY);
        };
        loop {
            let score = self.root(depth, alpha, beta);
            if self.stopped {
                return score;
            }
            if !Aspiration::widen(&self.params, score, &mut alpha, &mut beta, &mut delta) {
                return score;
            }
            self.stats.bump(aspiration::FAILS);
        }
    }

    fn root(&mut self, depth: i32, alpha: Score, beta: Score) -> Score {
        self.root_depth = depth;
        self.observer.enter(0, alpha, beta, depth, NodeKind::Root);
        if V::Form::two_sided(&self.config) {
            let v = self.two_sided(depth, alpha, beta, 0);
            if self.game.first_player_to_move() {
                v
            } else {
                -v
            }
        } else {
            self.negamax(depth, alpha, beta, 0, false)
        }
    }

    /// Counts the node and checks the stop conditions every 1024 nodes.
    #[inline(always)]
    pub(crate) fn enter(&mut self, ply: usize) -> bool {
        self.stack[ply].pv_len = 0;
        self.stats.main_nodes += 1;
        self.tick(ply)
    }

    #[inline(always)]
    pub(crate) fn note_ply(&mut self, ply: usize) {
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
    }

    /// Notes a node at `ply` (the selective depth) and checks the stop conditions every 1024 nodes, main and
    /// quiescence nodes alike, so a large quiescence tree cannot delay a stop; true when the search must stop. A
    /// quiescence node calls it alone; a main node through [`Searcher::enter`].
    #[inline(always)]
    pub(crate) fn tick(&mut self, ply: usize) -> bool {
        self.tick += 1;
        self.note_ply(ply);
        if self.tick & 1023 == 0 {
            self.check_limits();
        }
        self.stopped
    }

    fn publish_nodes(&mut self) {
        if let Some(sig) = &self.limits.signals {
            let now = self.searched();
            sig.nodes.fetch_add(now.saturating_sub(self.reported_nodes), Ordering::Relaxed);
            self.reported_nodes = now;
        }
    }

    /// Nodes searched so far by this thread in this search, all iterations.
    #[inline(always)]
    fn searched(&self) -> u64 {
        self.nodes_before + self.stats.nodes()
    }

    #[cold]
    pub(crate) fn check_limits(&mut self) {
        let mut nodes = self.searched();
        let mut pondering = false;
        if let Some(sig) = self.limits.signals.clone() {
            self.publish_nodes();
            nodes = sig.nodes.load(Ordering::Relaxed);
            pondering = sig.ponder.load(Ordering::Relaxed);
            if sig.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
        let l = &self.limits;
        if l.nodes.is_some_and(|n| nodes >= n) || (!pondering && l.movetime.is_some_and(|t| self.start.elapsed() >= t))
        {
            self.stopped = true;
        }
    }

    /// The static evaluation for the side to move.
    #[inline(always)]
    pub(crate) fn evaluate(&mut self) -> Score {
        self.eval.evaluate(&self.game)
    }

    /// Makes a move, keeping the evaluator and the observer in step.
    #[inline(always)]
    pub(crate) fn make(&mut self, m: G::Move) {
        self.eval.on_make(&self.game, m);
        self.game.make(m);
    }

    /// Takes a move back, keeping the evaluator in step.
    #[inline(always)]
    pub(crate) fn unmake(&mut self) {
        self.game.unmake();
        self.eval.on_unmake();
    }

    /// Passes the turn.
    #[inline(always)]
    pub(crate) fn make_null(&mut self) {
        self.game.make_null();
    }

    /// Starts loading the table entry of the position `m` leads to, which the child node probes first thing:
    /// called before the move is made, so that the load overlaps making it. Not above a leaf (`depth` 1), whose
    /// child does not probe.
    #[inline(always)]
    pub(crate) fn prefetch_child(&self, m: G::Move, depth: i32) {
        if depth <= 1 {
            return;
        }
        if let (Some(tt), Some(key)) = (self.tt_enabled(), self.game.hash_after(m)) {
            tt.prefetch(key);
        }
    }

    /// Notes the move `m` about to be made at `ply` (`None`: the null move) in the line the continuation history
    /// reads, when the variant has the engine's additions and the ordering learns.
    #[inline(always)]
    pub(crate) fn note_move(&mut self, m: Option<G::Move>, ply: usize) {
        if V::Additions::ENABLED && V::Order::learns(&self.order) && self.histories.continuation.is_on() {
            self.stack.set_current(ply, ContinuationHistory::key(&self.game, m));
        }
    }

    /// Takes the null move back.
    #[inline(always)]
    pub(crate) fn unmake_null(&mut self) {
        self.game.unmake();
    }

    #[inline(always)]
    pub(crate) fn update_pv(&mut self, ply: usize, m: G::Move) {
        let w = MAX_PLY + 1;
        let child_len = if ply < MAX_PLY { self.stack[ply + 1].pv_len } else { 0 };
        self.pv[ply * w] = Some(m);
        for i in 0..child_len {
            self.pv[ply * w + 1 + i] = self.pv[(ply + 1) * w + i];
        }
        self.stack[ply].pv_len = child_len + 1;
    }

    /// Whether the root may play `m`: not the first move of an earlier MultiPV line, and among the limits' root
    /// moves when they name any.
    pub(crate) fn root_allows(&self, m: G::Move) -> bool {
        !self.excluded.contains(&m) && self.limits.root_moves.as_ref().map_or(true, |r| r.contains(&G::encode_move(m)))
    }
}

/// What the policies see of the searcher.
impl<G: FastPaths, E: Evaluator<G, G::Move>, V: Variant, W: Observer<G>> Search for Searcher<G, E, V, W> {
    type G = G;
    type V = V;
    type W = W;

    #[inline(always)]
    fn game(&self) -> &G {
        &self.game
    }

    #[inline(always)]
    fn config(&self) -> &VariantConfig {
        &self.config
    }

    #[inline(always)]
    fn params(&self) -> &Params {
        &self.params
    }

    #[inline(always)]
    fn stats(&mut self) -> &mut Stats {
        &mut self.stats
    }

    #[inline(always)]
    fn observer(&mut self) -> &mut W {
        &mut self.observer
    }

    #[inline(always)]
    fn stopped(&self) -> bool {
        self.stopped
    }

    #[inline(always)]
    fn enter_quiescence(&mut self, ply: usize) -> bool {
        Searcher::tick(self, ply)
    }

    #[inline(always)]
    fn evaluate(&mut self) -> Score {
        Searcher::evaluate(self)
    }

    #[inline(always)]
    fn evaluate_in_window(&mut self, alpha: Score, beta: Score) -> Score {
        self.eval.evaluate_in_window(&self.game, alpha, beta)
    }

    #[inline(always)]
    fn make(&mut self, m: G::Move) {
        Searcher::make(self, m);
    }

    #[inline(always)]
    fn unmake(&mut self) {
        Searcher::unmake(self);
    }

    #[inline(always)]
    fn pass(&mut self, ply: usize) {
        self.note_move(None, ply);
        self.make_null();
        // After a pass the side to move is the one that was not to move: never in check in a legal position.
        self.stack[ply + 1].in_check = false;
    }

    #[inline(always)]
    fn unpass(&mut self) {
        self.unmake_null();
    }

    #[inline(always)]
    fn negamax(&mut self, depth: i32, alpha: Score, beta: Score, ply: usize, null_ok: bool) -> Score {
        Searcher::negamax(self, depth, alpha, beta, ply, null_ok)
    }

    #[inline(always)]
    fn make_child(&mut self, m: G::Move, ply: usize) {
        self.note_move(Some(m), ply);
        self.make(m);
        self.stack[ply + 1].in_check = self.game.in_check();
    }

    #[inline(always)]
    fn prefetch_child(&self, m: G::Move, depth: i32) {
        Searcher::prefetch_child(self, m, depth);
    }

    #[inline(always)]
    fn search_excluding(&mut self, excluded: u16, depth: i32, alpha: Score, beta: Score, ply: usize) -> Score {
        self.stack[ply].excluded = excluded;
        self.observer.enter(ply, alpha, beta, depth, NodeKind::ZeroWindow);
        let value = self.negamax(depth, alpha, beta, ply, false);
        self.stack[ply].excluded = 0;
        self.stack[ply].pv_len = 0;
        value
    }

    #[inline(always)]
    fn store(&self, key: u64, ply: usize, e: TtHit) {
        if let Some(tt) = self.tt_enabled() {
            tt.store(key, ply, e);
        }
    }

    #[inline(always)]
    fn root_depth(&self) -> i32 {
        self.root_depth
    }
}
