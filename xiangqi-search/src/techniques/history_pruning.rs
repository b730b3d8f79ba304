//! History pruning.

use crate::registry::{Counter, Forms, Group, Param, Params, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "hprune",
    aliases: &["history-pruning"],
    summary: "history pruning: quiet moves with a bad history are skipped near the horizon",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("order"),
    in_engine: false,
    counters: &[PRUNES],
    params: &[HistoryPruning::MAX_DEPTH, HistoryPruning::MARGIN],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(18);

/// Quiet moves skipped for their bad history.
pub const PRUNES: Counter = Counter::new(ID, 0, "history_prunes", "quiet moves skipped for their bad history");

/// History pruning: at a zero-window node near the horizon, a quiet move that gives no check and whose statistics
/// (history plus, with `conthist`, continuation history) are below `-MARGIN * depth` is skipped once a move has
/// been searched. Conditions: not a PV node, not in check, depth at most [`HistoryPruning::MAX_DEPTH`]. Hook: the
/// node's skip hook, before the move is made. Source: Stockfish's "continuation history based pruning"
/// (`search.cpp`, step 14).
#[derive(Debug, Clone, Copy, Default)]
pub struct HistoryPruning;

impl HistoryPruning {
    /// The deepest node it applies to.
    pub const MAX_DEPTH: Param =
        Param::new(ID, 0, "HistPruneMaxDepth", 3, 0..=8, 0.5, "History pruning: deepest node.");
    /// The statistics threshold per ply of depth.
    pub const MARGIN: Param =
        Param::new(ID, 1, "HistPruneMargin", 48, 0..=4096, 8.0, "History pruning: statistics threshold per ply.");

    /// The statistics under which a quiet move is skipped at a node with `depth` plies left, with the parameters
    /// `p`; `None` when the node is too deep (the node's skip rule holds it:
    /// [`crate::techniques::futility::SkipRule::history_skips`]).
    #[inline(always)]
    pub fn floor(p: &Params, depth: i32) -> Option<i32> {
        (depth <= p.get(Self::MAX_DEPTH)).then(|| -p.get(Self::MARGIN) * depth)
    }
}
