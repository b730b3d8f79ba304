//! Reverse futility pruning.

use crate::game::Score;
use crate::policy::Search;
use crate::registry::{Counter, Forms, Group, Param, Params, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "rfp",
    aliases: &[],
    summary: "reverse futility pruning",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: None,
    in_engine: true,
    counters: &[PRUNES],
    params: &[ReverseFutility::MARGIN, ReverseFutility::MAX_DEPTH],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(7);

/// Nodes cut by reverse futility pruning.
pub const PRUNES: Counter = Counter::new(ID, 0, "reverse_futility_prunes", "nodes cut by reverse futility pruning");

/// Reverse futility pruning (the "static null move"): a zero-window node near the horizon whose static evaluation
/// beats beta by a margin that grows with depth returns the evaluation without searching a move. Conditions: not
/// a PV node, not the root, not in check, beta not a mate score, depth at most [`ReverseFutility::MAX_DEPTH`].
/// Hook: the negamax node's prune hook, before the moves (first of the node pruning). Source: Heinz's static null
/// move; Stockfish's "futility pruning: child node".
#[derive(Debug, Clone, Copy, Default)]
pub struct ReverseFutility;

impl ReverseFutility {
    /// Margin per ply of depth.
    pub const MARGIN: Param = Param::new(ID, 0, "RfpMargin", 120, 0..=600, 8.0, "Reverse futility: margin per ply.");
    /// The deepest node it applies to.
    pub const MAX_DEPTH: Param = Param::new(ID, 1, "RfpMaxDepth", 6, 0..=16, 0.5, "Reverse futility: deepest node.");

    /// Whether a node with `depth` plies left and `static_eval` is cut off against `beta`.
    #[inline(always)]
    pub fn cuts(p: &Params, depth: i32, static_eval: Score, beta: Score) -> bool {
        depth <= p.get(Self::MAX_DEPTH) && static_eval - p.get(Self::MARGIN) * depth >= beta
    }

    /// The node's hook (at a zero-window node, not in check, away from mate scores): `Some(static_eval)` when the
    /// node is cut off.
    #[inline(always)]
    pub fn prune<S: Search>(s: &mut S, depth: i32, static_eval: Score, beta: Score) -> Option<Score> {
        if !(s.config().has(ID) && Self::cuts(s.params(), depth, static_eval, beta)) {
            return None;
        }
        s.stats().bump(PRUNES);
        Some(static_eval)
    }
}
