//! Futility pruning and late move pruning: quiet moves skipped without being made.

use crate::game::{Score, INFINITY, MATE_BOUND};
use crate::registry::{Counter, Group, Reach, Technique, TechniqueId};
use crate::techniques::history_pruning::HistoryPruning;

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "futility",
    aliases: &[],
    summary: "futility and late move pruning",
    group: Group::Addition,
    reach: Reach::Negamax,
    needs: Some("order"),
    in_engine: true,
    counters: &[PRUNES],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(6);

/// Quiet moves skipped by futility pruning (by margin or by move count).
pub const PRUNES: Counter =
    Counter::new(ID, 0, "futility_prunes", "quiet moves skipped by futility pruning (by margin or by move count)");

/// Futility pruning: at a zero-window node near the horizon whose static evaluation plus a margin cannot reach
/// alpha, quiet moves that give no check are skipped after the first (the node's value is raised to the bound they
/// could reach). Conditions: not a PV node, not in check, depth below [`Futility::MARGIN`]'s length. Hook: the
/// negamax node's skip hook, before each move is made ([`SkipRule`]). Source: Heinz, "Extended futility pruning"
/// (1998); Stockfish.
#[derive(Debug, Clone, Copy, Default)]
pub struct Futility;

impl Futility {
    /// Margin by depth (index 0 unused).
    pub const MARGIN: [Score; 4] = [0, 200, 350, 500];

    /// Whether the node prunes its quiet moves by margin.
    #[inline(always)]
    pub fn applies(depth: i32, static_eval: Score, alpha: Score) -> bool {
        depth < Self::MARGIN.len() as i32 && static_eval + Self::MARGIN[depth.max(0) as usize] <= alpha
    }

    /// The value a pruned move stands for.
    #[inline(always)]
    pub fn bound(depth: i32, static_eval: Score) -> Score {
        static_eval + Self::MARGIN[depth as usize]
    }
}

/// Late move pruning (move-count futility): at a zero-window node near the horizon, quiet moves that give no check
/// this far down the ordering are skipped once a move has been searched. Conditions: not a PV node, not in check,
/// depth at most [`LateMovePruning::MAX_DEPTH`]; part of the `futility` switch. Source: Stockfish's move-count
/// pruning.
#[derive(Debug, Clone, Copy, Default)]
pub struct LateMovePruning;

impl LateMovePruning {
    /// The deepest node it applies to.
    pub const MAX_DEPTH: i32 = 6;

    /// How many moves a node with `depth` plies left searches before skipping late quiet moves.
    #[inline(always)]
    pub fn limit(depth: i32) -> usize {
        if depth <= Self::MAX_DEPTH {
            (3 + depth * depth) as usize
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
    /// The rule of a node with `depth` plies left, window bound `alpha` and `static_eval`: nothing is skipped when
    /// the technique is off (`on`), at a PV node or in check.
    #[inline(always)]
    pub fn new(on: bool, depth: i32, alpha: Score, pv_node: bool, in_check: bool, static_eval: Score) -> SkipRule {
        let pruning = on && !pv_node && !in_check;
        let futility =
            (pruning && Futility::applies(depth, static_eval, alpha)).then(|| Futility::bound(depth, static_eval));
        let late_limit = if pruning { LateMovePruning::limit(depth) } else { usize::MAX };
        SkipRule { futility, late_limit, history_floor: None }
    }

    /// The rule with late move pruning's move count changed by `scale` (the improving signal's).
    #[inline(always)]
    pub fn late_limit_scaled(mut self, scale: impl FnOnce(usize) -> usize) -> SkipRule {
        self.late_limit = scale(self.late_limit);
        self
    }

    /// The rule with history pruning (`on` at a zero-window node not in check) at a node with `depth` plies left.
    #[inline(always)]
    pub fn with_history(mut self, on: bool, depth: i32) -> SkipRule {
        self.history_floor = (on && depth <= HistoryPruning::MAX_DEPTH).then(|| -HistoryPruning::MARGIN * depth);
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
