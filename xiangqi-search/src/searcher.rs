//! The node functions (negamax and two-sided), the root, iterative deepening with aspiration windows, stop
//! conditions, statistics and results.

use crate::game::{Evaluator, Game, GenType, MoveList, Rule, Score, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::policy::{
    ChildPolicy, Exit, Extras, Form, LeafPolicy, MovePicker, NodeKind, NullNode, NullPolicy, Observer, OrderPolicy,
    Parts, Silent, Variant,
};
use crate::tt::{Bound, TranspositionTable};
use smallvec::SmallVec;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Signals shared between a search and whoever controls it (the UCI loop, other threads).
#[derive(Debug, Default)]
pub struct Signals {
    /// Raised to stop the search as soon as possible.
    pub stop: AtomicBool,
    /// While raised, time limits are ignored (pondering); lowering it is `ponderhit`.
    pub ponder: AtomicBool,
    /// Nodes searched by all threads, updated every few thousand nodes.
    pub nodes: AtomicU64,
}

/// When to stop. With only `depth` set (and no signals) the search is one fixed-depth pass (reproducible,
/// comparable with theory); otherwise it deepens iteratively and returns the last completed iteration.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Depth in plies (the maximum depth when deepening).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (main search plus quiescence, all threads).
    pub nodes: Option<u64>,
    /// Stop after this much time, even in the middle of an iteration.
    pub movetime: Option<Duration>,
    /// Start no new iteration after this much time (time management's optimum).
    pub soft_time: Option<Duration>,
    /// Stop, ponder and node-count signals.
    pub signals: Option<Arc<Signals>>,
    /// Deepen iteratively even with only a depth limit (the engine always does).
    pub iterative: bool,
    /// Search only these moves at the root, packed by the game ([`Game::encode_move`]); `None` searches every
    /// move (UCI's `go searchmoves`, or every move but UCCI's `banmoves`). Codes of no legal move are ignored;
    /// when none is legal the result is that of a position without moves.
    pub root_moves: Option<Vec<u16>>,
    /// Stop deepening once an iteration finds a mate in at most this many moves, for either side (UCI's
    /// `go mate`).
    pub mate: Option<u32>,
    /// When the clock started, for `movetime`, `soft_time` and the reported time: a UCI engine passes the moment
    /// `go` arrived, so that starting threads and building evaluators is paid from the same budget. `None` starts
    /// the clock when the search starts.
    pub start: Option<Instant>,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    fn iterative(&self) -> bool {
        self.iterative
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self.soft_time.is_some()
            || self.signals.is_some()
            || self.mate.is_some()
            || self.depth.is_none()
    }
}

/// Run-time switches of the engine's additions ([`crate::Enhanced`]); the pure variants ignore them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Probe and store the transposition table.
    pub tt: bool,
    /// Search a node in check one ply deeper.
    pub check_extension: bool,
    /// Late move reductions.
    pub lmr: bool,
    /// Futility pruning of quiet moves near the horizon: by margin, and late quiet moves by count (late move
    /// pruning).
    pub futility: bool,
    /// Reverse futility pruning (static null move) of nodes near the horizon.
    pub reverse_futility: bool,
    /// Razoring: drop into quiescence near the horizon when far below alpha.
    pub razoring: bool,
    /// Ask the game's rules (repetition, perpetual check and chase, move limit) at every node after the root.
    pub rules: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Skip captures that likely lose material in quiescence.
    pub qs_pruning: bool,
    /// Number of principal variations to search at the root (UCI `MultiPV`).
    pub multipv: usize,
    /// Iteration depth offset of this thread (Lazy SMP helpers start deeper).
    pub depth_offset: u32,
    /// The spec's techniques, for a composition of dynamic policies ([`crate::policy::DynamicForm`] and the
    /// others); compositions of fixed policies ignore them.
    pub parts: Parts,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            tt: true,
            check_extension: true,
            lmr: true,
            futility: true,
            reverse_futility: true,
            razoring: true,
            rules: true,
            aspiration: true,
            qs_pruning: true,
            multipv: 1,
            depth_offset: 0,
            parts: Parts::default(),
        }
    }
}

/// What a search counted.
///
/// Node counts are defined once, here, and used under these names everywhere (`xiangqi search`, `compare`,
/// `bench`, the JSON outputs and UCI `info`):
///
/// - [`Stats::nodes`]: every position the search visited, the main search's and quiescence's. This is what node
///   limits count, what `info nodes` reports and what nodes per second are computed over.
/// - [`Stats::main_nodes`]: positions visited by the main (full-width) search, the root and the horizon included;
/// - [`Stats::leaf_nodes`]: those of them at the horizon, where the static evaluation or quiescence was called;
/// - [`Stats::interior_nodes`]: the others, `main_nodes - leaf_nodes`, where moves were searched;
/// - [`Stats::quiescence_nodes`]: positions visited by quiescence beyond the horizon (a horizon node is a main node).
///
/// So `nodes = main_nodes + quiescence_nodes` and `main_nodes = interior_nodes + leaf_nodes`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited by the main search, the root and the horizon (depth 0) nodes included.
    pub main_nodes: u64,
    /// Main-search nodes at the horizon: where the static evaluation or quiescence was called.
    pub leaf_nodes: u64,
    /// Positions visited by quiescence beyond the horizon.
    pub quiescence_nodes: u64,
    /// Nodes that failed high (`score >= beta`).
    pub beta_cutoffs: u64,
    /// Of those, the ones where the first move searched caused the cutoff.
    pub first_move_cutoffs: u64,
    /// Null-move searches tried.
    pub null_tries: u64,
    /// Null-move searches that cut the node off.
    pub null_cutoffs: u64,
    /// Null-move cutoffs checked by a verification search.
    pub null_verifications: u64,
    /// PVS zero-window searches that had to be searched again with the full window.
    pub pvs_researches: u64,
    /// Transposition table probes that found the position.
    pub tt_hits: u64,
    /// Of those, the ones that answered the node without a search.
    pub tt_cutoffs: u64,
    /// Nodes searched one ply deeper because the side to move was in check.
    pub check_extensions: u64,
    /// Late moves searched with a reduction.
    pub lmr_reductions: u64,
    /// Reduced moves that beat alpha and were searched again at full depth.
    pub lmr_researches: u64,
    /// Quiet moves skipped by futility pruning (by margin or by move count).
    pub futility_prunes: u64,
    /// Nodes cut by reverse futility pruning.
    pub reverse_futility_prunes: u64,
    /// Nodes cut by razoring.
    pub razor_prunes: u64,
    /// Nodes the game's rules decided (repetition, perpetual check or chase, move limit).
    pub rule_cutoffs: u64,
    /// Aspiration windows that failed and were widened.
    pub aspiration_fails: u64,
    /// Losing captures skipped in quiescence (counted as generated, before the legality test).
    pub qs_prunes: u64,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Main-search nodes of each completed iteration, when deepening iteratively.
    pub iteration_nodes: Vec<u64>,
    /// Wall time spent.
    pub elapsed: Duration,
}

impl Stats {
    /// Every position visited: main search plus quiescence.
    pub fn nodes(&self) -> u64 {
        self.main_nodes + self.quiescence_nodes
    }

    /// Main-search nodes below which moves were searched: the main nodes that are not leaves.
    pub fn interior_nodes(&self) -> u64 {
        self.main_nodes - self.leaf_nodes
    }

    /// Share of beta cutoffs made by the first move, in `0.0..=1.0` (0 when there was no cutoff).
    pub fn first_move_cutoff_rate(&self) -> f64 {
        if self.beta_cutoffs == 0 {
            0.0
        } else {
            self.first_move_cutoffs as f64 / self.beta_cutoffs as f64
        }
    }

    /// Effective branching factor. When deepening iteratively: how many times more nodes each iteration needs
    /// than the one before, `sqrt(N(d) / N(d - 2))` over the last three iterations (two plies smooth the odd-even
    /// effect). For a single fixed-depth pass: `nodes^(1/depth)`.
    pub fn ebf(&self, depth: u32) -> f64 {
        if let [.., a, _, c] = self.iteration_nodes[..] {
            if a > 0 {
                return (c as f64 / a as f64).sqrt();
            }
        }
        if depth == 0 || self.main_nodes == 0 {
            0.0
        } else {
            (self.main_nodes as f64).powf(1.0 / depth as f64)
        }
    }

    /// Nodes (main plus quiescence) per second.
    pub fn nps(&self) -> u64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            (self.nodes() as f64 / s) as u64
        } else {
            0
        }
    }

    /// Adds the counters of `o` (seldepth is the larger one; elapsed is left alone).
    pub fn add(&mut self, o: &Stats) {
        self.main_nodes += o.main_nodes;
        self.leaf_nodes += o.leaf_nodes;
        self.quiescence_nodes += o.quiescence_nodes;
        self.beta_cutoffs += o.beta_cutoffs;
        self.first_move_cutoffs += o.first_move_cutoffs;
        self.null_tries += o.null_tries;
        self.null_cutoffs += o.null_cutoffs;
        self.null_verifications += o.null_verifications;
        self.pvs_researches += o.pvs_researches;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.check_extensions += o.check_extensions;
        self.lmr_reductions += o.lmr_reductions;
        self.lmr_researches += o.lmr_researches;
        self.futility_prunes += o.futility_prunes;
        self.reverse_futility_prunes += o.reverse_futility_prunes;
        self.razor_prunes += o.razor_prunes;
        self.rule_cutoffs += o.rule_cutoffs;
        self.aspiration_fails += o.aspiration_fails;
        self.qs_prunes += o.qs_prunes;
        self.seldepth = self.seldepth.max(o.seldepth);
    }
}

/// One principal variation of a (MultiPV) search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<M> {
    /// Its score for the side to move.
    pub score: Score,
    /// Its moves.
    pub pv: Vec<M>,
}

/// The outcome of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The best move, `None` when the side to move has none.
    pub best_move: Option<M>,
    /// The score for the side to move.
    pub score: Score,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Every principal variation, best first (one unless `multipv` asked for more).
    pub lines: Vec<Line<M>>,
    /// What the search counted (all iterations).
    pub stats: Stats,
}

/// Late move reduction for the `index`-th move at `depth`: grows with the logarithms of both, less at PV nodes.
/// (The search reads it from a table: [`LmrTable`].)
pub fn lmr_reduction(depth: i32, index: usize, pv_node: bool) -> i32 {
    let r = 0.5 + (depth.max(1) as f64).ln() * (index.max(1) as f64).ln() / 2.25;
    let r = r as i32 - pv_node as i32;
    r.clamp(0, (depth - 2).max(0))
}

/// [`lmr_reduction`] tabulated for depths and move indices below 64 (larger ones use the last row and column),
/// so the node loop computes no logarithm.
#[derive(Debug, Clone)]
pub struct LmrTable(Box<[[[u8; 64]; 64]; 2]>);

impl Default for LmrTable {
    fn default() -> LmrTable {
        let mut t = Box::new([[[0u8; 64]; 64]; 2]);
        for (pv, rows) in t.iter_mut().enumerate() {
            for (depth, row) in rows.iter_mut().enumerate() {
                for (index, r) in row.iter_mut().enumerate() {
                    *r = lmr_reduction(depth as i32, index, pv == 1) as u8;
                }
            }
        }
        LmrTable(t)
    }
}

impl LmrTable {
    /// The reduction of the `index`-th move at `depth` (equal to [`lmr_reduction`] below 64).
    #[inline(always)]
    pub fn get(&self, depth: i32, index: usize, pv_node: bool) -> i32 {
        let d = (depth.max(0) as usize).min(63);
        let r = self.0[pv_node as usize][d][index.min(63)] as i32;
        r.min(depth - 2)
    }
}

/// Reverse futility margin per ply of depth.
pub const REVERSE_FUTILITY_MARGIN: Score = 120;
/// Deepest node reverse futility pruning applies to.
pub const REVERSE_FUTILITY_DEPTH: i32 = 6;
/// Razoring margin per ply of depth.
pub const RAZOR_MARGIN: Score = 350;
/// Deepest node late move pruning applies to: there, quiet moves after the first `3 + depth^2` are skipped.
pub const LATE_MOVE_DEPTH: i32 = 6;
/// Futility margin by depth (quiet moves at `depth` are skipped when static eval plus this is below alpha).
pub const FUTILITY_MARGIN: [Score; 4] = [0, 200, 350, 500];
/// First aspiration window half-width.
pub const ASPIRATION_WINDOW: Score = 40;

/// Runs one variant `V` on a game `G` with an evaluator `E`, watched by `W` (nothing by default).
pub struct Searcher<G: Game, E: Evaluator<G>, V: Variant, W: Observer<G> = Silent> {
    /// The game, restored after every search.
    pub game: G,
    /// The evaluator.
    pub eval: E,
    /// The observer.
    pub observer: W,
    /// Run-time switches of the engine's additions.
    pub options: SearchOptions,
    pub(crate) stats: Stats,
    pub(crate) stopped: bool,
    tt: Option<Arc<TranspositionTable>>,
    order: <V::Order as OrderPolicy>::State,
    pv: Vec<Option<G::Move>>,
    pv_len: Vec<usize>,
    /// Whether the side to move is in check at each ply of the current line, set by the parent after its move
    /// (the engine's additions need it at every node; computing it once saves a second attack test).
    pub(crate) in_check_at: Vec<bool>,
    excluded: SmallVec<[G::Move; 8]>,
    lmr: LmrTable,
    limits: Limits,
    start: Instant,
    reported_nodes: u64,
    /// Nodes of the earlier iterations of this search (`stats` counts the current one).
    nodes_before: u64,
    /// Nodes entered since the search started, for the periodic clock check.
    tick: u64,
    _variant: PhantomData<V>,
}

impl<G: Game, E: Evaluator<G>, V: Variant, W: Observer<G>> Searcher<G, E, V, W> {
    /// A searcher for `game` with `eval`. All tables are allocated here, none during the search.
    pub fn new(game: G, eval: E) -> Self {
        Searcher {
            game,
            eval,
            observer: W::default(),
            options: SearchOptions::default(),
            stats: Stats::default(),
            stopped: false,
            tt: None,
            order: V::Order::new_state(G::MOVE_KEYS),
            pv: vec![None; (MAX_PLY + 1) * (MAX_PLY + 1)],
            pv_len: vec![0; MAX_PLY + 1],
            in_check_at: vec![false; MAX_PLY + 2],
            excluded: SmallVec::new(),
            lmr: LmrTable::default(),
            limits: Limits::default(),
            start: Instant::now(),
            reported_nodes: 0,
            nodes_before: 0,
            tick: 0,
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

    /// Sets the run-time options.
    pub fn with_options(mut self, options: SearchOptions) -> Self {
        self.options = options;
        self
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
        V::Order::configure(&mut self.order, &self.options.parts);
        self.start = limits.start.unwrap_or_else(Instant::now);
        self.stopped = false;
        self.reported_nodes = 0;
        self.nodes_before = 0;
        self.tick = 0;
        if let Some(tt) = self.tt_enabled() {
            tt.new_search();
        }
        let mut total = Stats::default();
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        let iterative = limits.iterative();
        let first = if iterative { (1 + self.options.depth_offset).min(max_depth) } else { max_depth };
        let multipv = if V::Extras::ENABLED { self.options.multipv.max(1) } else { 1 };
        let mut best: Option<SearchResult<G::Move>> = None;
        for depth in first..=max_depth {
            self.nodes_before += self.stats.nodes();
            self.stats = Stats::default();
            let mut lines: Vec<Line<G::Move>> = Vec::with_capacity(multipv);
            self.excluded.clear();
            for k in 0..multipv {
                let previous = best.as_ref().and_then(|b| b.lines.get(k)).map(|l| l.score);
                let score = self.aspiration_root(depth as i32, previous);
                if self.stopped && (best.is_some() || k > 0) {
                    break;
                }
                let pv: Vec<G::Move> = self.pv[..self.pv_len[0]].iter().flatten().copied().collect();
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
                    let mut moves = MoveList::new();
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
            let mate_found = limits
                .mate
                .is_some_and(|n| result.score.abs() >= MATE_BOUND && (MATE - result.score.abs() + 1) / 2 <= n as Score);
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

    fn tt_enabled(&self) -> Option<&Arc<TranspositionTable>> {
        if V::Extras::ENABLED && self.options.tt {
            self.tt.as_ref()
        } else {
            None
        }
    }

    fn soft_time_over(&self) -> bool {
        let pondering = self.limits.signals.as_ref().is_some_and(|s| s.ponder.load(Ordering::Relaxed));
        !pondering && self.limits.soft_time.is_some_and(|t| self.start.elapsed() >= t)
    }

    /// One iteration at the root, in an aspiration window around `previous` when the engine's additions ask for it.
    fn aspiration_root(&mut self, depth: i32, previous: Option<Score>) -> Score {
        let aspire =
            V::Extras::ENABLED && !V::Form::two_sided(&self.options.parts) && self.options.aspiration && depth >= 4;
        let Some(prev) = previous.filter(|p| aspire && p.abs() < MATE_BOUND) else {
            return self.root(depth, -INFINITY, INFINITY);
        };
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY));
        loop {
            let score = self.root(depth, alpha, beta);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INFINITY {
                self.stats.aspiration_fails += 1;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                self.stats.aspiration_fails += 1;
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn root(&mut self, depth: i32, alpha: Score, beta: Score) -> Score {
        self.observer.enter(0, alpha, beta, depth, NodeKind::Root);
        if V::Form::two_sided(&self.options.parts) {
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
    fn enter(&mut self, ply: usize) -> bool {
        self.pv_len[ply] = 0;
        self.stats.main_nodes += 1;
        self.tick += 1;
        self.note_ply(ply);
        if self.tick & 1023 == 0 {
            self.check_limits();
        }
        self.stopped
    }

    #[inline(always)]
    pub(crate) fn note_ply(&mut self, ply: usize) {
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
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
    fn check_limits(&mut self) {
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
    /// called before the move is made, so that the load overlaps making it.
    #[inline(always)]
    fn prefetch_child(&self, m: G::Move) {
        if let (Some(tt), Some(key)) = (self.tt_enabled(), self.game.hash_after(m)) {
            tt.prefetch(key);
        }
    }

    /// Takes the null move back.
    #[inline(always)]
    pub(crate) fn unmake_null(&mut self) {
        self.game.unmake();
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let w = MAX_PLY + 1;
        let child_len = if ply < MAX_PLY { self.pv_len[ply + 1] } else { 0 };
        self.pv[ply * w] = Some(m);
        for i in 0..child_len {
            self.pv[ply * w + 1 + i] = self.pv[(ply + 1) * w + i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// Whether the root may play `m`: not the first move of an earlier MultiPV line, and among the limits' root
    /// moves when they name any.
    fn root_allows(&self, m: G::Move) -> bool {
        !self.excluded.contains(&m) && self.limits.root_moves.as_ref().map_or(true, |r| r.contains(&G::encode_move(m)))
    }

    /// Adds the moves of `kind` of the node at `ply` to `picker`, ordered by the variant's policy. Some may be
    /// illegal: the node tests each one it comes to with [`Game::is_legal_generated`] and `legality`.
    #[inline(always)]
    fn add_moves(
        &self,
        picker: &mut MovePicker<G::Move>,
        legality: &G::Legality,
        kind: GenType,
        ply: usize,
        hash_move: u16,
    ) {
        let moves = picker.moves_mut();
        self.game.generate_lazy(legality, kind, moves);
        if ply == 0 {
            moves.retain(|&mut m| self.root_allows(m));
        }
        V::Order::order(&self.order, &self.game, picker, ply, hash_move);
    }

    /// The next legal move of the node at `ply`: the hash move first when the ordering wants it, then the
    /// generated moves, in stages when the ordering is staged (see [`OrderPolicy::staged_below`]).
    #[inline(always)]
    fn next_move(&self, nm: &mut NodeMoves<G>, ply: usize) -> Option<G::Move> {
        loop {
            match nm.phase {
                Phase::Hash => {
                    nm.phase = Phase::Generate;
                    if V::Order::hash_first(&self.order) && nm.hash_move != 0 {
                        let m = self.game.decode_legal(nm.hash_move);
                        if let Some(m) = m.filter(|&m| ply > 0 || self.root_allows(m)) {
                            return Some(nm.tried(m));
                        }
                    }
                }
                Phase::Generate => {
                    let legality = nm.legality.insert(self.game.legality());
                    let staged = V::Order::staged_below(&self.order).is_some();
                    let kind = if staged { GenType::Captures } else { GenType::All };
                    self.add_moves(&mut nm.picker, legality, kind, ply, nm.hash_move);
                    nm.phase = if staged { Phase::Captures } else { Phase::Rest };
                }
                Phase::Captures => {
                    if nm.picker.spent_above(V::Order::staged_below(&self.order).unwrap_or(i32::MIN)) {
                        nm.early = V::Order::early_quiets(&self.order, &self.game, ply);
                        nm.phase = Phase::Early(0);
                        continue;
                    }
                    if let Some(m) = self.take_generated(nm) {
                        return Some(m);
                    }
                }
                Phase::Early(i) => {
                    let Some(&code) = nm.early.get(i) else {
                        let legality = nm.legality.as_ref().expect("generated before");
                        self.add_moves(&mut nm.picker, legality, GenType::Quiets, ply, nm.hash_move);
                        nm.phase = Phase::Rest;
                        continue;
                    };
                    nm.phase = Phase::Early(i + 1);
                    let legality = nm.legality.as_ref().expect("generated before");
                    if code == 0 {
                        continue;
                    }
                    let m = self
                        .game
                        .decode_with(legality, code)
                        .filter(|&m| self.game.is_quiet(m) && !nm.skips(m) && (ply > 0 || self.root_allows(m)));
                    if let Some(m) = m {
                        return Some(nm.tried(m));
                    }
                }
                Phase::Rest => {
                    if nm.picker.remaining() == 0 {
                        return None;
                    }
                    if let Some(m) = self.take_generated(nm) {
                        return Some(m);
                    }
                }
            }
        }
    }

    /// The next generated move of `nm`, if it is legal and was not tried before the generation.
    #[inline(always)]
    fn take_generated(&self, nm: &mut NodeMoves<G>) -> Option<G::Move> {
        let m = nm.picker.next()?;
        let legality = nm.legality.as_ref().expect("generated before");
        (!nm.skips(m) && self.game.is_legal_generated(legality, m)).then_some(m)
    }

    #[inline(always)]
    fn cutoff(&mut self, index: usize, m: G::Move, depth: i32, ply: usize, tried: &[G::Move]) {
        self.stats.beta_cutoffs += 1;
        if index == 0 {
            self.stats.first_move_cutoffs += 1;
        }
        V::Order::on_cutoff(&mut self.order, &self.game, m, depth, ply, tried);
    }

    #[inline(always)]
    fn leave(&mut self, ply: usize, score: Score, exit: Exit) -> Score {
        self.observer.leave(ply, score, exit);
        score
    }

    /// The negamax node: scores for the side to move; `null_ok` is false right after a null move (and at the
    /// root).
    pub(crate) fn negamax(
        &mut self,
        mut depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        null_ok: bool,
    ) -> Score {
        if self.enter(ply) {
            return self.leave(ply, 0, Exit::Value);
        }
        let extras = V::Extras::ENABLED;
        let pv_node = beta - alpha > 1;
        if extras && ply > 0 && self.options.rules {
            match self.game.rules(ply) {
                Rule::Continue => {}
                Rule::Decided(score) => {
                    self.stats.rule_cutoffs += 1;
                    return self.leave(ply, score, Exit::Rule);
                }
                Rule::AtLeastDraw => {
                    alpha = alpha.max(-1);
                    if alpha >= beta {
                        return self.leave(ply, alpha, Exit::Rule);
                    }
                }
                Rule::AtMostDraw => {
                    beta = beta.min(1);
                    if alpha >= beta {
                        return self.leave(ply, beta, Exit::Rule);
                    }
                }
            }
        }
        let in_check = extras && if ply > 0 { self.in_check_at[ply] } else { self.game.in_check() };
        debug_assert!(!extras || in_check == self.game.in_check(), "in-check hint wrong at ply {ply}");
        if in_check && self.options.check_extension && ply < MAX_PLY / 2 {
            depth += 1;
            self.stats.check_extensions += 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            self.stats.leaf_nodes += 1;
            return V::Leaf::leaf(self, alpha, beta, ply);
        }

        // The transposition table.
        let key = self.game.hash();
        let mut hash_move = 0u16;
        let mut tt_eval = None;
        if let Some(tt) = self.tt_enabled() {
            if let Some(hit) = tt.probe(key, ply) {
                self.stats.tt_hits += 1;
                hash_move = hit.mv;
                tt_eval = Some(hit.eval);
                let usable = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if !pv_node && ply > 0 && hit.depth >= depth && usable {
                    self.stats.tt_cutoffs += 1;
                    return self.leave(ply, hit.score, Exit::TableHit);
                }
            }
        }

        // Node pruning near the horizon, from the static evaluation.
        let mut static_eval = -INFINITY;
        if extras && !in_check {
            static_eval = tt_eval.unwrap_or_else(|| self.evaluate());
            if !pv_node && ply > 0 && beta.abs() < MATE_BOUND {
                if self.options.reverse_futility
                    && depth <= REVERSE_FUTILITY_DEPTH
                    && static_eval - REVERSE_FUTILITY_MARGIN * depth >= beta
                {
                    self.stats.reverse_futility_prunes += 1;
                    return self.leave(ply, static_eval, Exit::Pruned);
                }
                if self.options.razoring && depth <= 2 && static_eval + RAZOR_MARGIN * depth < alpha {
                    self.observer.enter(ply, alpha, beta, 0, NodeKind::Quiescence);
                    let q = V::Leaf::leaf(self, alpha, alpha + 1, ply);
                    if q <= alpha {
                        self.stats.razor_prunes += 1;
                        return self.leave(ply, q, Exit::Pruned);
                    }
                }
            }
        }

        let node = NullNode { depth, beta, ply, null_ok, pv_node, static_eval };
        if let Some(score) = V::Null::try_null(self, node) {
            return self.leave(ply, score, Exit::NullCutoff);
        }

        // With an ordering that puts it first, the hash move is tried before any move is generated: a node it cuts
        // off generates nothing.
        let mut moves = NodeMoves::new(hash_move);
        let prune = V::Form::prune(&self.options.parts);
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut exit = Exit::Value;
        let mut quiets_tried: SmallVec<[G::Move; 32]> = SmallVec::new();
        let futility_ok = extras
            && self.options.futility
            && !pv_node
            && !in_check
            && depth < FUTILITY_MARGIN.len() as i32
            && static_eval + FUTILITY_MARGIN[depth.max(0) as usize] <= alpha;
        // Late move pruning (move-count futility): near the horizon, quiet moves this far down the ordering are
        // skipped once a move has been searched.
        let late_limit = if extras && self.options.futility && !pv_node && !in_check && depth <= LATE_MOVE_DEPTH {
            (3 + depth * depth) as usize
        } else {
            usize::MAX
        };
        let mut i = 0;
        while let Some(m) = self.next_move(&mut moves, ply) {
            let quiet = extras && self.game.is_quiet(m);
            self.observer.edge(ply, Some(m));
            let late = i >= late_limit && best > -MATE_BOUND;
            if ((futility_ok && i > 0) || late) && quiet && !self.game.gives_check(m) {
                // Pruned without being made: observers see the move announced and never entered.
                self.stats.futility_prunes += 1;
                if futility_ok {
                    best = best.max(static_eval + FUTILITY_MARGIN[depth as usize]);
                }
                i += 1;
                continue;
            }
            if depth > 1 {
                self.prefetch_child(m);
            }
            self.make(m);
            let gives_check = extras && self.game.in_check();
            if extras {
                self.in_check_at[ply + 1] = gives_check;
            }
            let reduction = if extras && self.options.lmr && depth >= 3 && i >= 3 && quiet && !gives_check && !in_check
            {
                self.lmr.get(depth, i, pv_node)
            } else {
                0
            };
            let score = V::Child::search_child(self, i, depth, alpha, beta, ply, reduction);
            self.unmake();
            if self.stopped {
                return self.leave(ply, 0, Exit::Value);
            }
            if score > best {
                best = score;
                if !prune || score > alpha {
                    best_move = Some(m);
                    self.update_pv(ply, m);
                }
            }
            if prune {
                alpha = alpha.max(score);
                if alpha >= beta {
                    self.cutoff(i, m, depth, ply, &quiets_tried);
                    exit = Exit::BetaCutoff;
                    if W::ACTIVE {
                        while let Some(rest) = self.next_move(&mut moves, ply) {
                            self.observer.pruned(ply, rest);
                        }
                    }
                    break;
                }
            }
            if quiet && quiets_tried.len() < 32 {
                quiets_tried.push(m);
            }
            i += 1;
        }
        if i == 0 && exit != Exit::BetaCutoff {
            let score = self.game.no_moves_score(ply);
            return self.leave(ply, score, Exit::NoMoves);
        }
        let result = if prune && !V::Form::fail_soft(&self.options.parts) { best.clamp(alpha0, beta) } else { best };
        if let Some(tt) = self.tt_enabled() {
            // A root that may not play every move (MultiPV's later lines, searchmoves) has no score of its own.
            if ply > 0 || (self.excluded.is_empty() && self.limits.root_moves.is_none()) {
                let bound = if result >= beta {
                    Bound::Lower
                } else if result > alpha0 {
                    Bound::Exact
                } else {
                    Bound::Upper
                };
                let mv = best_move.map_or(0, G::encode_move);
                let eval = if static_eval > -INFINITY { static_eval } else { 0 };
                tt.store(key, ply, mv, result, eval, depth, bound);
            }
        }
        self.leave(ply, result, exit)
    }

    /// The two-sided node: scores from the first player's view; MAX nodes raise alpha, MIN nodes lower beta.
    pub(crate) fn two_sided(&mut self, depth: i32, mut alpha: Score, mut beta: Score, ply: usize) -> Score {
        if self.enter(ply) {
            return self.leave(ply, 0, Exit::Value);
        }
        let max = self.game.first_player_to_move();
        // (Observers get the side to move's view: `sign * value`.)
        let sign = if max { 1 } else { -1 };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            self.stats.leaf_nodes += 1;
            let (a, b) = if max { (alpha, beta) } else { (-beta, -alpha) };
            return sign * V::Leaf::leaf(self, a, b, ply);
        }
        let mut moves = NodeMoves::new(0);
        let mut best = if max { -INFINITY } else { INFINITY };
        let mut exit = Exit::Value;
        let mut i = 0;
        while let Some(m) = self.next_move(&mut moves, ply) {
            self.observer.edge(ply, Some(m));
            self.make(m);
            // Observers see windows and values from the side to move's view, as in negamax.
            let (a, b) = if max { (-beta, -alpha) } else { (alpha, beta) };
            self.observer.enter(ply + 1, a, b, depth - 1, NodeKind::Main);
            let score = self.two_sided(depth - 1, alpha, beta, ply + 1);
            self.unmake();
            if self.stopped {
                return self.leave(ply, 0, Exit::Value);
            }
            let improved = if max { score > best } else { score < best };
            if improved {
                best = score;
                self.update_pv(ply, m);
            }
            if V::Form::prune(&self.options.parts) {
                if max {
                    alpha = alpha.max(score);
                } else {
                    beta = beta.min(score);
                }
                if alpha >= beta {
                    self.cutoff(i, m, depth, ply, &[]);
                    exit = Exit::BetaCutoff;
                    if W::ACTIVE {
                        while let Some(rest) = self.next_move(&mut moves, ply) {
                            self.observer.pruned(ply, rest);
                        }
                    }
                    break;
                }
            }
            i += 1;
        }
        if i == 0 && exit != Exit::BetaCutoff {
            let score = self.game.no_moves_score(ply);
            return sign * self.leave(ply, score, Exit::NoMoves);
        }
        sign * self.leave(ply, sign * best, exit)
    }
}

/// Where a node is in handing out its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The hash move, before any generation.
    Hash,
    /// Generate (the captures only, for a staged ordering).
    Generate,
    /// A staged ordering's captures keyed above every quiet move.
    Captures,
    /// A staged ordering's early quiet moves (killers, countermove), by index.
    Early(usize),
    /// What is left, in the ordering's order.
    Rest,
}

/// The moves of one node, generated as the node comes to need them.
struct NodeMoves<G: Game> {
    picker: MovePicker<G::Move>,
    legality: Option<G::Legality>,
    phase: Phase,
    hash_move: u16,
    early: [u16; 3],
    /// Moves handed out before their generation (the hash move, early quiet moves), skipped when generated.
    tried: [Option<G::Move>; 4],
    tried_len: usize,
}

impl<G: Game> NodeMoves<G> {
    #[inline(always)]
    fn new(hash_move: u16) -> NodeMoves<G> {
        NodeMoves {
            picker: MovePicker::new(),
            legality: None,
            phase: Phase::Hash,
            hash_move,
            early: [0; 3],
            tried: [None; 4],
            tried_len: 0,
        }
    }

    /// Records that `m` is handed out before its generation, and returns it.
    #[inline(always)]
    fn tried(&mut self, m: G::Move) -> G::Move {
        self.tried[self.tried_len] = Some(m);
        self.tried_len += 1;
        m
    }

    /// Whether `m` was handed out before its generation.
    #[inline(always)]
    fn skips(&self, m: G::Move) -> bool {
        self.tried[..self.tried_len].contains(&Some(m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{Compose, FullWindow, NegamaxAbSoftForm, NoNull, Ordered, StaticLeaf};
    use xiangqi_core::{Move, Position};

    struct Zero;

    impl Evaluator<Position> for Zero {
        fn evaluate(&mut self, _: &Position) -> Score {
            0
        }
    }

    type Staged = Compose<NegamaxAbSoftForm, StaticLeaf, NoNull, FullWindow, Ordered>;

    /// What one generation of every move, keyed at once, hands out: the hash move first, then the legal moves
    /// by key.
    fn single_generation(s: &Searcher<Position, Zero, Staged>, hash: u16) -> Vec<Move> {
        let mut out: Vec<Move> = s.game.decode_legal(hash).into_iter().collect();
        let ks = s.game.legality();
        let mut picker = MovePicker::new();
        s.game.generate_lazy(&ks, GenType::All, picker.moves_mut());
        Ordered::order(&s.order, &s.game, &mut picker, 0, hash);
        while let Some(m) = picker.next() {
            if !out.contains(&m) && s.game.is_legal_generated(&ks, m) {
                out.push(m);
            }
        }
        out
    }

    #[test]
    fn staged_moves_come_in_the_order_of_a_single_generation() {
        let mut pos = Position::startpos();
        let mut checked = 0;
        for step in 0..60 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let quiets: Vec<Move> = legal.iter().copied().filter(|m| pos.piece_at(m.to()).is_none()).collect();
            // Killers and a countermove from this position, or a killer from two plies before (which may be
            // illegal or a capture by now), and history from cutoffs with quiet moves tried before them.
            let mut s: Searcher<Position, Zero, Staged> = Searcher::new(pos.clone(), Zero);
            let mut back = pos.clone();
            back.unmake_move();
            back.unmake_move();
            let mut old: Vec<Move> =
                back.legal_moves().into_iter().filter(|m| back.piece_at(m.to()).is_none()).collect();
            // Every other step, one that captures now if there is one.
            if let Some(&c) = old.iter().find(|&&m| step % 2 == 0 && pos.is_legal(m) && pos.piece_at(m.to()).is_some())
            {
                old = vec![c];
            }
            if !old.is_empty() {
                Ordered::on_cutoff(&mut s.order, &back, old[step % old.len()], 3, 0, &[]);
            }
            if !quiets.is_empty() {
                if step % 3 != 0 {
                    Ordered::on_cutoff(&mut s.order, &s.game, quiets[(step + 1) % quiets.len()], 2, 0, &[]);
                }
                Ordered::on_cutoff(
                    &mut s.order,
                    &s.game,
                    quiets[step % quiets.len()],
                    4,
                    0,
                    &quiets[..3.min(quiets.len())],
                );
                for (i, &h) in quiets.iter().enumerate().skip(3).step_by(4) {
                    Ordered::on_cutoff(&mut s.order, &s.game, h, 1 + i as i32 % 5, 7, &[]);
                }
            }
            let hash = legal[(step * 7) % legal.len()].raw();
            for hash in [0, hash] {
                let mut nm = NodeMoves::new(hash);
                let mut staged = Vec::new();
                while let Some(m) = s.next_move(&mut nm, 0) {
                    staged.push(m);
                }
                assert_eq!(staged, single_generation(&s, hash), "order differs in {}", pos.fen());
                assert_eq!(staged.len(), legal.len());
                checked += 1;
            }
            pos.make_move(legal[(step * 13 + 5) % legal.len()]);
        }
        assert!(checked >= 40, "only {checked} positions");
    }
}
