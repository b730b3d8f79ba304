//! What a search found and counted: [`SearchResult`], its principal variations ([`Line`]) and [`Stats`].

use crate::game::Score;
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
