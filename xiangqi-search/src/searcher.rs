//! The node functions (negamax and two-sided), the root, stop conditions, statistics and results.

use crate::game::{Evaluator, Game, MoveList, Score, INFINITY, MAX_PLY};
use crate::policy::{ChildPolicy, Form, LeafPolicy, MovePicker, NullPolicy, OrderPolicy, Variant};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When to stop. With only `depth` set the search is one fixed-depth pass (reproducible, comparable with theory);
/// with a node or time limit it deepens iteratively and returns the last completed iteration.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Depth in plies (the maximum depth when deepening).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (main search plus quiescence).
    pub nodes: Option<u64>,
    /// Stop after this much time.
    pub movetime: Option<Duration>,
    /// Stop when this flag is raised by another thread.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    fn iterative(&self) -> bool {
        self.nodes.is_some() || self.movetime.is_some() || self.stop.is_some() || self.depth.is_none()
    }
}

/// What a search counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited by the main search, horizon (depth 0) nodes included.
    pub nodes: u64,
    /// Horizon nodes: where the static evaluation or quiescence was called.
    pub leaf_nodes: u64,
    /// Positions visited by quiescence beyond the horizon.
    pub qnodes: u64,
    /// Nodes that failed high (`score >= beta`).
    pub beta_cutoffs: u64,
    /// Of those, the ones where the first move searched caused the cutoff.
    pub first_move_cutoffs: u64,
    /// Null-move searches tried.
    pub null_tries: u64,
    /// Null-move searches that cut the node off.
    pub null_cutoffs: u64,
    /// PVS zero-window searches that had to be searched again with the full window.
    pub pvs_researches: u64,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Wall time spent.
    pub elapsed: Duration,
}

impl Stats {
    /// Every position visited: main search plus quiescence.
    pub fn total_nodes(&self) -> u64 {
        self.nodes + self.qnodes
    }

    /// Share of beta cutoffs made by the first move, in `0.0..=1.0` (0 when there was no cutoff).
    pub fn first_move_cutoff_rate(&self) -> f64 {
        if self.beta_cutoffs == 0 {
            0.0
        } else {
            self.first_move_cutoffs as f64 / self.beta_cutoffs as f64
        }
    }

    /// Effective branching factor of a `depth`-ply search: `nodes^(1/depth)` over the main-search nodes.
    pub fn ebf(&self, depth: u32) -> f64 {
        if depth == 0 || self.nodes == 0 {
            0.0
        } else {
            (self.nodes as f64).powf(1.0 / depth as f64)
        }
    }

    /// Nodes (main plus quiescence) per second.
    pub fn nps(&self) -> u64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            (self.total_nodes() as f64 / s) as u64
        } else {
            0
        }
    }

    fn add(&mut self, o: &Stats) {
        self.nodes += o.nodes;
        self.leaf_nodes += o.leaf_nodes;
        self.qnodes += o.qnodes;
        self.beta_cutoffs += o.beta_cutoffs;
        self.first_move_cutoffs += o.first_move_cutoffs;
        self.null_tries += o.null_tries;
        self.null_cutoffs += o.null_cutoffs;
        self.pvs_researches += o.pvs_researches;
        self.seldepth = self.seldepth.max(o.seldepth);
    }
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
    /// What the search counted (all iterations).
    pub stats: Stats,
}

/// Runs one variant `V` on a game `G` with an evaluator `E`.
pub struct Searcher<G: Game, E: Evaluator<G>, V: Variant> {
    /// The game, restored after every search.
    pub game: G,
    /// The evaluator.
    pub eval: E,
    pub(crate) stats: Stats,
    pub(crate) stopped: bool,
    order: <V::Order as OrderPolicy>::State,
    pv: Vec<Option<G::Move>>,
    pv_len: Vec<usize>,
    limits: Limits,
    start: Instant,
    _variant: PhantomData<V>,
}

impl<G: Game, E: Evaluator<G>, V: Variant> Searcher<G, E, V> {
    /// A searcher for `game` with `eval`. All tables are allocated here, none during the search.
    pub fn new(game: G, eval: E) -> Self {
        Searcher {
            game,
            eval,
            stats: Stats::default(),
            stopped: false,
            order: V::Order::new_state(G::MOVE_KEYS),
            pv: vec![None; (MAX_PLY + 1) * (MAX_PLY + 1)],
            pv_len: vec![0; MAX_PLY + 1],
            limits: Limits::default(),
            start: Instant::now(),
            _variant: PhantomData,
        }
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
        self.start = Instant::now();
        self.stopped = false;
        let mut total = Stats::default();
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        let first = if limits.iterative() { 1 } else { max_depth };
        let mut best: Option<SearchResult<G::Move>> = None;
        for depth in first..=max_depth {
            self.stats = Stats::default();
            let score = self.root(depth as i32);
            total.add(&self.stats);
            total.elapsed = self.start.elapsed();
            if self.stopped && best.is_some() {
                break;
            }
            let pv: Vec<G::Move> = self.pv[..self.pv_len[0]].iter().flatten().copied().collect();
            let result = SearchResult { best_move: pv.first().copied(), score, pv, depth, stats: total.clone() };
            if limits.iterative() {
                on_iteration(&result);
            }
            best = Some(result);
            if self.stopped {
                break;
            }
        }
        let mut result = best.expect("at least one iteration runs");
        result.stats = total;
        result
    }

    fn root(&mut self, depth: i32) -> Score {
        if V::Form::TWO_SIDED {
            let v = self.two_sided(depth, -INFINITY, INFINITY, 0);
            if self.game.first_player_to_move() {
                v
            } else {
                -v
            }
        } else {
            self.negamax(depth, -INFINITY, INFINITY, 0, false)
        }
    }

    /// Counts the node and checks the stop conditions every 1024 nodes.
    #[inline(always)]
    fn enter(&mut self, ply: usize) -> bool {
        self.pv_len[ply] = 0;
        self.stats.nodes += 1;
        self.note_ply(ply);
        if self.stats.nodes & 1023 == 0 {
            self.check_limits();
        }
        self.stopped
    }

    #[inline(always)]
    pub(crate) fn note_ply(&mut self, ply: usize) {
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
    }

    #[cold]
    fn check_limits(&mut self) {
        let l = &self.limits;
        let nodes = self.stats.total_nodes();
        if l.nodes.is_some_and(|n| nodes >= n)
            || l.movetime.is_some_and(|t| self.start.elapsed() >= t)
            || l.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
    }

    /// The static evaluation for the side to move.
    #[inline(always)]
    pub(crate) fn evaluate(&mut self) -> Score {
        self.eval.evaluate(&self.game)
    }

    /// Makes a move, keeping the evaluator in step.
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

    #[inline(always)]
    fn moves(&self, ply: usize) -> MovePicker<G::Move> {
        let mut moves = MoveList::new();
        self.game.generate(false, &mut moves);
        V::Order::picker(&self.order, &self.game, moves, ply)
    }

    #[inline(always)]
    fn cutoff(&mut self, index: usize, m: G::Move, depth: i32, ply: usize) {
        self.stats.beta_cutoffs += 1;
        if index == 0 {
            self.stats.first_move_cutoffs += 1;
        }
        V::Order::on_cutoff(&mut self.order, &self.game, m, depth, ply);
    }

    /// The negamax node: scores for the side to move; `null_ok` is false right after a null move.
    pub(crate) fn negamax(&mut self, depth: i32, mut alpha: Score, beta: Score, ply: usize, null_ok: bool) -> Score {
        if self.enter(ply) {
            return 0;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            self.stats.leaf_nodes += 1;
            return V::Leaf::leaf(self, alpha, beta, ply);
        }
        if let Some(score) = V::Null::try_null(self, depth, beta, ply, null_ok) {
            return score;
        }
        let mut moves = self.moves(ply);
        if moves.is_empty() {
            return self.game.no_moves_score(ply);
        }
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut i = 0;
        while let Some(m) = moves.next() {
            self.make(m);
            let score = V::Child::search_child(self, i, depth, alpha, beta, ply);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if !V::Form::PRUNE || score > alpha {
                    self.update_pv(ply, m);
                }
            }
            if V::Form::PRUNE {
                alpha = alpha.max(score);
                if alpha >= beta {
                    self.cutoff(i, m, depth, ply);
                    break;
                }
            }
            i += 1;
        }
        if V::Form::PRUNE && !V::Form::FAIL_SOFT {
            best.clamp(alpha0, beta)
        } else {
            best
        }
    }

    /// The two-sided node: scores from the first player's view; MAX nodes raise alpha, MIN nodes lower beta.
    pub(crate) fn two_sided(&mut self, depth: i32, mut alpha: Score, mut beta: Score, ply: usize) -> Score {
        if self.enter(ply) {
            return 0;
        }
        let max = self.game.first_player_to_move();
        let sign = if max { 1 } else { -1 };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            self.stats.leaf_nodes += 1;
            let (a, b) = if max { (alpha, beta) } else { (-beta, -alpha) };
            return sign * V::Leaf::leaf(self, a, b, ply);
        }
        let mut moves = self.moves(ply);
        if moves.is_empty() {
            return sign * self.game.no_moves_score(ply);
        }
        let mut best = if max { -INFINITY } else { INFINITY };
        let mut i = 0;
        while let Some(m) = moves.next() {
            self.make(m);
            let score = self.two_sided(depth - 1, alpha, beta, ply + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if max {
                if score > best {
                    best = score;
                    self.update_pv(ply, m);
                }
                if V::Form::PRUNE {
                    alpha = alpha.max(score);
                    if alpha >= beta {
                        self.cutoff(i, m, depth, ply);
                        break;
                    }
                }
            } else {
                if score < best {
                    best = score;
                    self.update_pv(ply, m);
                }
                if V::Form::PRUNE {
                    beta = beta.min(score);
                    if beta <= alpha {
                        self.cutoff(i, m, depth, ply);
                        break;
                    }
                }
            }
            i += 1;
        }
        best
    }
}
