//! Futility pruning and late move pruning: quiet moves skipped without being made.

use crate::game::{Score, INFINITY, MATE_BOUND};
use crate::policy::Node;
use crate::registry::{Counter, Forms, Group, Param, Params, Technique, TechniqueId};
use crate::techniques::history_pruning::HistoryPruning;

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "futility",
    aliases: &[],
    summary: "futility and late move pruning",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("order"),
    in_engine: true,
    counters: &[PRUNES],
    params: &[
        Futility::MARGIN_1,
        Futility::MARGIN_2,
        Futility::MARGIN_3,
        LateMovePruning::BASE,
        LateMovePruning::FACTOR,
        LateMovePruning::MAX_DEPTH,
    ],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(6);

/// Quiet moves skipped by futility pruning (by margin or by move count).
pub const PRUNES: Counter =
    Counter::new(ID, 0, "futility_prunes", "quiet moves skipped by futility pruning (by margin or by move count)");

/// Futility pruning: at a zero-window node near the horizon whose static evaluation plus a margin cannot reach
/// alpha, quiet moves that give no check are skipped after the first (the node's value is raised to the bound they
/// could reach). Conditions: not a PV node, not in check, depth at most 3 (a margin per depth: [`Futility::MARGIN_1`],
/// [`Futility::MARGIN_2`], [`Futility::MARGIN_3`]). Hook: the
/// negamax node's skip hook, before each move is made ([`SkipRule`]). Source: Heinz, "Extended futility pruning"
/// (1998); Stockfish.
#[derive(Debug, Clone, Copy, Default)]
pub struct Futility;

impl Futility {
    /// The margin at depth 1.
    pub const MARGIN_1: Param =
        Param::new(ID, 0, "FutilityMargin1", 200, 0..=1000, 10.0, "Futility: margin at depth 1.");
    /// The margin at depth 2.
    pub const MARGIN_2: Param =
        Param::new(ID, 1, "FutilityMargin2", 350, 0..=1500, 15.0, "Futility: margin at depth 2.");
    /// The margin at depth 3.
    pub const MARGIN_3: Param =
        Param::new(ID, 2, "FutilityMargin3", 500, 0..=2000, 20.0, "Futility: margin at depth 3.");
    /// The deepest node it applies to (one margin per depth).
    pub const MAX_DEPTH: i32 = 3;

    /// The margin at `depth` (0 outside 1..=3).
    #[inline(always)]
    pub fn margin(p: &Params, depth: i32) -> Score {
        match depth {
            1 => p.get(Self::MARGIN_1),
            2 => p.get(Self::MARGIN_2),
            3 => p.get(Self::MARGIN_3),
            _ => 0,
        }
    }

    /// Whether the node prunes its quiet moves by margin.
    #[inline(always)]
    pub fn applies(p: &Params, depth: i32, static_eval: Score, alpha: Score) -> bool {
        depth <= Self::MAX_DEPTH && static_eval + Self::margin(p, depth) <= alpha
    }

    /// The value a pruned move stands for.
    #[inline(always)]
    pub fn bound(p: &Params, depth: i32, static_eval: Score) -> Score {
        static_eval + Self::margin(p, depth)
    }
}

/// Late move pruning (move-count futility): at a zero-window node near the horizon, quiet moves that give no check
/// this far down the ordering are skipped once a move has been searched. Conditions: not a PV node, not in check,
/// depth at most [`LateMovePruning::MAX_DEPTH`]; part of the `futility` switch. The count is
/// `BASE + depth^2 * FACTOR / 100`. Source: Stockfish's move-count pruning.
#[derive(Debug, Clone, Copy, Default)]
pub struct LateMovePruning;

impl LateMovePruning {
    /// The deepest node it applies to.
    pub const MAX_DEPTH: Param = Param::new(ID, 5, "LmpMaxDepth", 6, 0..=16, 0.5, "Late move pruning: deepest node.");
    /// The moves searched at any depth before late quiet moves are skipped.
    pub const BASE: Param =
        Param::new(ID, 3, "LmpBase", 3, 0..=32, 0.5, "Late move pruning: moves searched at any depth.");
    /// The moves searched per square of the depth, in hundredths.
    pub const FACTOR: Param = Param::new(
        ID,
        4,
        "LmpFactor",
        100,
        10..=400,
        8.0,
        "Late move pruning: moves per depth squared, in hundredths.",
    );

    /// How many moves a node with `depth` plies left searches before skipping late quiet moves.
    #[inline(always)]
    pub fn limit(p: &Params, depth: i32) -> usize {
        if depth <= p.get(Self::MAX_DEPTH) {
            (p.get(Self::BASE) + depth * depth * p.get(Self::FACTOR) / 100).max(0) as usize
        } else {
            usize::MAX
        }
    }
}

/// What a node's moves may skip without being made: futility's bound when it applies, and late move pruning's
/// move count. Built once per node, asked for each move (the negamax node's skip hook).
#[derive(Debug, Clone, Copy)]
pub struct SkipRule {
    /// Futility's bound for the node's quiet moves, when futility applies.
    futility: Option<Score>,
    /// Late move pruning: quiet moves from this index on are skipped.
    late_limit: usize,
    /// History pruning's threshold, when it applies (`techniques/history_pruning.rs`).
    history_floor: Option<i32>,
}

impl SkipRule {
    /// The rule of the node `n` (its depth, alpha and corrected static evaluation), with the parameters `p`:
    /// nothing is skipped when the technique is off (`on`), at a PV node or in check.
    #[inline(always)]
    pub fn new(on: bool, p: &Params, n: &Node) -> SkipRule {
        let (depth, static_eval, alpha) = (n.depth, n.eval.corrected, n.alpha);
        let pruning = on && !n.pv_node && !n.in_check;
        let futility = (pruning && Futility::applies(p, depth, static_eval, alpha))
            .then(|| Futility::bound(p, depth, static_eval));
        let late_limit = if pruning { LateMovePruning::limit(p, depth) } else { usize::MAX };
        SkipRule { futility, late_limit, history_floor: None }
    }

    /// The rule with late move pruning's move count changed by `scale` (the improving signal's).
    #[inline(always)]
    pub fn late_limit_scaled(mut self, scale: impl FnOnce(usize) -> usize) -> SkipRule {
        self.late_limit = scale(self.late_limit);
        self
    }

    /// The rule with history pruning (`on` at a zero-window node not in check) at a node with `depth` plies left,
    /// with the parameters `p`.
    #[inline(always)]
    pub fn with_history(mut self, on: bool, p: &Params, depth: i32) -> SkipRule {
        self.history_floor = if on { HistoryPruning::floor(p, depth) } else { None };
        self
    }

    /// Whether history pruning skips the `index`-th move, a quiet move with statistics `history` that gives no
    /// check, once a move has been searched.
    #[inline(always)]
    pub fn history_skips(
        &self,
        index: usize,
        quiet: bool,
        best: Score,
        history: i32,
        gives_check: impl FnOnce() -> bool,
    ) -> bool {
        self.history_floor
            .is_some_and(|floor| quiet && index > 0 && best > -MATE_BOUND && history < floor && !gives_check())
    }

    /// `Some(bound)` when the `index`-th move is skipped: a quiet move that gives no check (`gives_check` is asked
    /// last, as it costs an attack test), after the first move by futility (the bound it stands for) or late in
    /// the order once a move has been searched (`best` above a mate, `-INFINITY`).
    #[inline(always)]
    pub fn skips(&self, index: usize, quiet: bool, best: Score, gives_check: impl FnOnce() -> bool) -> Option<Score> {
        let late = index >= self.late_limit && best > -MATE_BOUND;
        if ((self.futility.is_some() && index > 0) || late) && quiet && !gives_check() {
            return Some(self.futility.unwrap_or(-INFINITY));
        }
        None
    }
}
