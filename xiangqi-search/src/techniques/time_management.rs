//! Time management from best-move stability and node effort.

use crate::game::Score;
use crate::registry::{Forms, Group, Technique, TechniqueId};
use std::time::Duration;

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]). Part of the `engine` preset (`engine+no-tm` takes
/// it away): on a clock of 8 s + 0.08 s a move, `engine` with it against `engine` without it scored +26.9 ± 15.8 Elo
/// in 880 games (the book's experiments, `book/src/experiments/sprt.md`). It acts only on a clock (a search with a soft time limit,
/// [`crate::Limits::clock`]); fixed time, nodes or depth are untouched, so no node count changes.
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "tm",
    aliases: &[],
    summary: "time management: the clock's optimum scaled by best-move stability and node effort",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: None,
    in_engine: true,
    counters: &[],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(25);

/// After each completed iteration on a clock, the soft limit (the time after which no new iteration starts) is the
/// clock's optimum times [`TimeManagement::scale`], never beyond the hard limit:
///
/// - **best-move instability**: each change of the best move between iterations adds one to a count that halves
///   every iteration; the time grows by [`TimeManagement::INSTABILITY`] times that count. A best move that keeps
///   changing gets more time, one that settled gets back to the optimum.
/// - **stability**: a best move unchanged for [`TimeManagement::STABLE_ITERATIONS`] iterations or more scales the
///   time by [`TimeManagement::STABLE_SCALE`] (less than one); a best move that changed at the last iteration by
///   [`TimeManagement::CHANGED_SCALE`] (more than one).
/// - **node effort**: when the best move took at least [`TimeManagement::EFFORT_SHARE`] of the root's nodes in the
///   last iteration (the other moves were refuted quickly), the time shrinks by [`TimeManagement::EFFORT_SCALE`].
/// - **falling score**: a score below the previous iterations' average extends the time, by
///   [`TimeManagement::FALLING_PER_CP`] per centipawn fallen, within [`TimeManagement::FALLING_MIN`] and
///   [`TimeManagement::FALLING_MAX`]; a mate score on either side leaves it at one.
///
/// The product is kept within [`TimeManagement::MIN_SCALE`] and [`TimeManagement::MAX_SCALE`]. Conditions: a clock
/// (the limits' soft time), the main thread (the only one with a soft limit), from the second iteration on.
/// Hook: the root, after each iteration (`searcher.rs`); the negamax node counts the nodes under each root move.
/// Source: Stockfish's `search.cpp` (`Search::Worker::iterative_deepening`: `bestMoveChanges` and the best-move
/// instability, `timeReduction` from `lastBestMoveDepth`, `fallingEval`, and `nodesEffort`, the share of the nodes
/// spent on the best root move); the numbers are ours, declared here for tuning.
#[derive(Debug, Clone, Default)]
pub struct TimeManagement {
    /// The best move of the last iteration, encoded ([`crate::GameTree::encode_move`]).
    best: Option<u16>,
    /// Iterations in a row the best move has stayed the same (0 right after a change).
    stable: u32,
    /// Best-move changes, halved every iteration.
    changes: f64,
    /// The scores of the completed iterations, for the falling-score term.
    scores: Vec<Score>,
}

impl TimeManagement {
    /// Iterations with an unchanged best move after which the time shrinks.
    pub const STABLE_ITERATIONS: u32 = 6;
    /// The scale of a stable best move.
    pub const STABLE_SCALE: f64 = 0.75;
    /// The scale right after the best move changed.
    pub const CHANGED_SCALE: f64 = 1.25;
    /// The weight of the decaying count of best-move changes.
    pub const INSTABILITY: f64 = 1.0;
    /// The best move's share of the root's nodes above which the time shrinks.
    pub const EFFORT_SHARE: f64 = 0.9;
    /// The scale of a best move that took most of the nodes.
    pub const EFFORT_SCALE: f64 = 0.7;
    /// The extension per centipawn the score fell below the previous iterations' average.
    pub const FALLING_PER_CP: f64 = 0.01;
    /// The least falling-score scale (a rising score).
    pub const FALLING_MIN: f64 = 0.85;
    /// The most falling-score scale.
    pub const FALLING_MAX: f64 = 1.5;
    /// The least total scale.
    pub const MIN_SCALE: f64 = 0.35;
    /// The most total scale.
    pub const MAX_SCALE: f64 = 3.0;
    /// Previous iterations averaged for the falling-score term.
    pub const AVERAGE_OF: usize = 4;

    /// A fresh state for a new search; `scores` holds up to `capacity` iterations without reallocating.
    pub fn with_capacity(capacity: usize) -> TimeManagement {
        TimeManagement { scores: Vec::with_capacity(capacity), ..TimeManagement::default() }
    }

    /// Forgets the last search.
    pub fn clear(&mut self) {
        self.best = None;
        self.stable = 0;
        self.changes = 0.0;
        self.scores.clear();
    }

    /// Records a completed iteration: its best move (encoded), its score, and the share of the root's nodes the
    /// best move took (0 to 1); returns the scale of the optimum time from what is known now.
    pub fn iteration(&mut self, best: u16, score: Score, effort: f64) -> f64 {
        let changed = self.best.is_some_and(|b| b != best);
        self.changes /= 2.0;
        if changed {
            self.changes += 1.0;
            self.stable = 0;
        } else if self.best.is_some() {
            self.stable += 1;
        }
        self.best = Some(best);
        let previous = &self.scores[self.scores.len().saturating_sub(Self::AVERAGE_OF)..];
        let average =
            (!previous.is_empty()).then(|| previous.iter().map(|&s| f64::from(s)).sum::<f64>() / previous.len() as f64);
        let mate =
            crate::game::mate_moves(score).is_some() || previous.iter().any(|&s| crate::game::mate_moves(s).is_some());
        let fallen = if mate { None } else { average.map(|a| a - f64::from(score)) };
        self.scores.push(score);
        Self::scale(self.stable, changed, self.changes, effort, fallen)
    }

    /// The scale of the optimum time: `stable` iterations with the same best move (`changed` when it changed at
    /// the last one), the decaying count of `changes`, the best move's share of the root's nodes (`effort`, 0 to
    /// 1), and the centipawns the score `fallen` below the previous iterations' average (negative when it rose;
    /// `None` for no history or a mate score).
    pub fn scale(stable: u32, changed: bool, changes: f64, effort: f64, fallen: Option<f64>) -> f64 {
        let stability = if changed {
            Self::CHANGED_SCALE
        } else if stable >= Self::STABLE_ITERATIONS {
            Self::STABLE_SCALE
        } else {
            1.0
        };
        let instability = 1.0 + Self::INSTABILITY * changes;
        let effort = if effort >= Self::EFFORT_SHARE { Self::EFFORT_SCALE } else { 1.0 };
        let falling =
            fallen.map_or(1.0, |f| (1.0 + Self::FALLING_PER_CP * f).clamp(Self::FALLING_MIN, Self::FALLING_MAX));
        (stability * instability * effort * falling).clamp(Self::MIN_SCALE, Self::MAX_SCALE)
    }

    /// The soft limit: the clock's `optimum` times `scale`, never beyond `hard`.
    pub fn soft_limit(optimum: Duration, scale: f64, hard: Option<Duration>) -> Duration {
        let scaled = optimum.mul_f64(scale);
        hard.map_or(scaled, |h| scaled.min(h))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MATE;
    use crate::test_eval::Material;

    type Tm = TimeManagement;

    #[test]
    fn the_scale_is_one_with_nothing_to_say() {
        assert_eq!(Tm::scale(0, false, 0.0, 0.5, None), 1.0);
        assert_eq!(Tm::scale(Tm::STABLE_ITERATIONS - 1, false, 0.0, 0.0, Some(0.0)), 1.0);
    }

    #[test]
    fn a_changed_best_move_extends_and_a_stable_one_shortens() {
        let changed = Tm::scale(0, true, 1.0, 0.5, None);
        assert_eq!(changed, Tm::CHANGED_SCALE * (1.0 + Tm::INSTABILITY));
        assert!(changed > 1.0);
        let stable = Tm::scale(Tm::STABLE_ITERATIONS, false, 0.0, 0.5, None);
        assert_eq!(stable, Tm::STABLE_SCALE);
        // Two changes ago, halved twice: still more than a settled move.
        assert!(Tm::scale(2, false, 0.25, 0.5, None) > 1.0);
    }

    #[test]
    fn a_high_node_share_shortens() {
        assert_eq!(Tm::scale(1, false, 0.0, Tm::EFFORT_SHARE, None), Tm::EFFORT_SCALE);
        assert_eq!(Tm::scale(1, false, 0.0, Tm::EFFORT_SHARE - 0.01, None), 1.0);
    }

    #[test]
    fn a_falling_score_extends_within_bounds() {
        assert_eq!(Tm::scale(1, false, 0.0, 0.5, Some(20.0)), 1.0 + 20.0 * Tm::FALLING_PER_CP);
        assert_eq!(Tm::scale(1, false, 0.0, 0.5, Some(1000.0)), Tm::FALLING_MAX);
        assert_eq!(Tm::scale(1, false, 0.0, 0.5, Some(-1000.0)), Tm::FALLING_MIN);
    }

    #[test]
    fn the_product_stays_within_its_bounds() {
        assert_eq!(Tm::scale(0, true, 10.0, 0.0, Some(1000.0)), Tm::MAX_SCALE);
        let least = Tm::scale(Tm::STABLE_ITERATIONS, false, 0.0, 1.0, Some(-1000.0));
        assert_eq!(least, (Tm::STABLE_SCALE * Tm::EFFORT_SCALE * Tm::FALLING_MIN).max(Tm::MIN_SCALE));
    }

    #[test]
    fn iterations_track_changes_stability_and_scores() {
        let mut tm = Tm::with_capacity(8);
        // The first iteration has no history.
        assert_eq!(tm.iteration(7, 30, 0.5), 1.0);
        // Same move, same score: one stable iteration.
        assert_eq!(tm.iteration(7, 30, 0.5), 1.0);
        assert_eq!((tm.stable, tm.changes), (1, 0.0));
        // A new best move, with the score 40 below the average of 30.
        let s = tm.iteration(9, -10, 0.5);
        assert_eq!((tm.stable, tm.changes), (0, 1.0));
        assert!((s - (Tm::CHANGED_SCALE * 2.0 * (1.0 + 40.0 * Tm::FALLING_PER_CP)).min(Tm::MAX_SCALE)).abs() < 1e-9);
        for _ in 0..Tm::STABLE_ITERATIONS {
            tm.iteration(9, -10, 0.95);
        }
        assert_eq!(tm.stable, Tm::STABLE_ITERATIONS);
        // Stable, most nodes on the best move, the score steady now (the old change has decayed to 1/64).
        let s = tm.iteration(9, -10, 0.95);
        let expected = Tm::STABLE_SCALE * (1.0 + Tm::INSTABILITY / 128.0) * Tm::EFFORT_SCALE;
        assert!((s - expected).abs() < 1e-9, "{s} vs {expected}");
        // A mate score leaves the falling term out.
        assert_eq!(tm.iteration(9, MATE - 5, 0.5), Tm::STABLE_SCALE * (1.0 + Tm::INSTABILITY / 256.0));
        tm.clear();
        assert_eq!((tm.best, tm.stable, tm.scores.len()), (None, 0, 0));
    }

    #[test]
    fn it_changes_nothing_without_a_clock() {
        let without: crate::VariantConfig = "engine+no-tm".parse().unwrap();
        assert_eq!(without.to_string(), "negamax-ab+pvs+nmp+qs+order+engine+no-tm");
        assert!(crate::VariantConfig::engine().has(ID) && !without.has(ID));
        let pos = xiangqi_core::Position::startpos();
        for limits in [crate::Limits::depth(5), crate::Limits::nodes(20_000)] {
            let a = without.run(pos.clone(), Material, &limits);
            let b = crate::VariantConfig::engine().run(pos.clone(), Material, &limits);
            assert_eq!((a.best_move, a.score, a.stats.nodes()), (b.best_move, b.score, b.stats.nodes()));
        }
    }

    #[test]
    fn on_a_clock_it_counts_the_root_moves_and_sets_the_soft_limit() {
        let pos = xiangqi_core::Position::startpos();
        let mut s = crate::Searcher::<_, _, crate::EnginePreset>::new(pos, Material);
        let (soft, hard) = (Duration::from_secs(60), Duration::from_secs(120));
        let limits =
            crate::Limits { depth: Some(5), soft_time: Some(soft), movetime: Some(hard), ..Default::default() };
        let r = s.search(&limits);
        assert!(s.tm_active);
        // Every legal root move was searched in the last iteration, and their nodes are within the iteration's.
        assert_eq!(s.root_nodes.len(), 44);
        let under: u64 = s.root_nodes.iter().map(|&(_, n)| n).sum();
        assert!(under > 0 && under < s.stats.nodes(), "{under} of {}", s.stats.nodes());
        assert_eq!(s.tm.scores.len(), 5);
        assert_eq!(s.tm.best, r.best_move.map(<xiangqi_core::Position as crate::GameTree>::encode_move));
        let set = s.tm_soft.unwrap();
        assert!(set >= soft.mul_f64(Tm::MIN_SCALE) && set <= soft.mul_f64(Tm::MAX_SCALE).min(hard));
        // Without the technique nothing is counted.
        let without: crate::VariantConfig = "engine+no-tm".parse().unwrap();
        let mut plain = crate::Searcher::<_, _, crate::EnginePreset>::new(xiangqi_core::Position::startpos(), Material)
            .with_config(without);
        plain.search(&limits);
        assert!(!plain.tm_active && plain.root_nodes.is_empty() && plain.tm_soft.is_none());
    }

    #[test]
    fn the_soft_limit_never_passes_the_hard_one() {
        let ms = Duration::from_millis;
        assert_eq!(Tm::soft_limit(ms(100), 1.5, Some(ms(400))), ms(150));
        assert_eq!(Tm::soft_limit(ms(100), 3.0, Some(ms(200))), ms(200));
        assert_eq!(Tm::soft_limit(ms(100), 0.5, None), ms(50));
    }
}
