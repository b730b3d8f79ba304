//! What a search found and counted: [`SearchResult`], its principal variations ([`Line`]) and [`Stats`].

use crate::game::Score;
use crate::registry::{Counter, COUNTERS_PER_TECHNIQUE, MAX_TECHNIQUES};
use std::time::Duration;

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
///
/// Besides these, each technique counts what it does in counters of its own, declared in its file and read with
/// [`Stats::get`] (or all at once, with their keys, with [`crate::techniques::counters`]).
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// The techniques' own counters, one slot per [`Counter`] (see [`Stats::get`] and
    /// [`crate::techniques::counters`]).
    counters: [u64; COUNTER_SLOTS],
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Main-search nodes of each completed iteration, when deepening iteratively.
    pub iteration_nodes: Vec<u64>,
    /// Wall time spent.
    pub elapsed: Duration,
}

const COUNTER_SLOTS: usize = MAX_TECHNIQUES * COUNTERS_PER_TECHNIQUE;

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            main_nodes: 0,
            leaf_nodes: 0,
            quiescence_nodes: 0,
            beta_cutoffs: 0,
            first_move_cutoffs: 0,
            counters: [0; COUNTER_SLOTS],
            seldepth: 0,
            iteration_nodes: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }
}

impl Stats {
    /// The value of a technique's counter.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// use xiangqi_search::techniques::late_move_reductions::{REDUCTIONS, RESEARCHES};
    /// use xiangqi_search::{Evaluator, Limits, Score, VariantConfig};
    /// struct Zero;
    /// impl Evaluator<Position> for Zero {
    ///     fn evaluate(&mut self, _: &Position) -> Score { 0 }
    /// }
    /// let engine: VariantConfig = "engine".parse().unwrap();
    /// let r = engine.run(Position::startpos(), Zero, &Limits::depth(5));
    /// assert!(r.stats.get(REDUCTIONS) > 0 && r.stats.get(RESEARCHES) <= r.stats.get(REDUCTIONS));
    /// ```
    #[inline(always)]
    pub fn get(&self, counter: Counter) -> u64 {
        self.counters[usize::from(counter.slot)]
    }

    /// Counts one more of `counter`.
    #[inline(always)]
    pub(crate) fn bump(&mut self, counter: Counter) {
        self.counters[usize::from(counter.slot)] += 1;
    }

    /// Counts `n` more of `counter`.
    #[inline(always)]
    pub(crate) fn bump_by(&mut self, counter: Counter, n: u64) {
        self.counters[usize::from(counter.slot)] += n;
    }

    /// Counts one less of `counter` (a cutoff that a verification overturned).
    #[inline(always)]
    pub(crate) fn unbump(&mut self, counter: Counter) {
        self.counters[usize::from(counter.slot)] -= 1;
    }

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
        for (a, b) in self.counters.iter_mut().zip(&o.counters) {
            *a += b;
        }
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
