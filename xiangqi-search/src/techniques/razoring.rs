//! Razoring.

use crate::game::Score;
use crate::policy::{LeafPolicy, NodeKind, Observer, Search, Variant};
use crate::registry::{Counter, Forms, Group, Param, Params, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "razor",
    aliases: &[],
    summary: "razoring",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: None,
    in_engine: true,
    counters: &[PRUNES],
    params: &[Razoring::MARGIN, Razoring::MAX_DEPTH],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(8);

/// Nodes cut by razoring.
pub const PRUNES: Counter = Counter::new(ID, 0, "razor_prunes", "nodes cut by razoring");

/// Razoring: a zero-window node within [`Razoring::MAX_DEPTH`] plies of the horizon whose static evaluation is
/// far below alpha is searched by quiescence alone with the window `[alpha, alpha + 1]`; if that fails low too, the
/// node returns it. Conditions as for reverse futility. Hook: the negamax node's prune hook, after reverse
/// futility. Source: Birmingham and Kent (1977); Stockfish.
#[derive(Debug, Clone, Copy, Default)]
pub struct Razoring;

impl Razoring {
    /// Margin per ply of depth.
    pub const MARGIN: Param = Param::new(ID, 0, "RazorMargin", 350, 0..=1000, 20.0, "Razoring: margin per ply.");
    /// The deepest node it applies to.
    pub const MAX_DEPTH: Param = Param::new(ID, 1, "RazorMaxDepth", 2, 0..=8, 0.5, "Razoring: deepest node.");

    /// Whether a node with `depth` plies left and `static_eval` tries the quiescence probe against `alpha`.
    #[inline(always)]
    pub fn tries(p: &Params, depth: i32, static_eval: Score, alpha: Score) -> bool {
        depth <= p.get(Self::MAX_DEPTH) && static_eval + p.get(Self::MARGIN) * depth < alpha
    }

    /// The node's hook (at a zero-window node, not in check, away from mate scores, after reverse futility): the
    /// quiescence probe; `Some(value)` when it fails low and the node is cut off.
    #[inline(always)]
    pub fn prune<S: Search>(s: &mut S, depth: i32, static_eval: Score, alpha: Score, ply: usize) -> Option<Score> {
        if !(s.config().has(ID) && Self::tries(s.params(), depth, static_eval, alpha)) {
            return None;
        }
        s.observer().enter(ply, alpha, alpha + 1, 0, NodeKind::Quiescence);
        let q = <S::V as Variant>::Leaf::leaf(s, alpha, alpha + 1, ply);
        if q > alpha {
            return None;
        }
        s.stats().bump(PRUNES);
        Some(q)
    }
}
