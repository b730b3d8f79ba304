//! The verified null move: the engine's null move, in place of the spec's.

use crate::game::{Score, MATE_BOUND};
use crate::policy::null_move::{null_search, CUTOFFS};
use crate::policy::{Node, NodeKind, NullMove, NullPolicy, Observer, Search};
use crate::registry::{Counter, Forms, Group, Param, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "verified",
    aliases: &[],
    summary: "the engine's verified null move in place of the spec's",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("nmp"),
    in_engine: true,
    counters: &[VERIFICATIONS],
    params: &[
        VerifiedNullMove::MIN_DEPTH,
        VerifiedNullMove::BASE_REDUCTION,
        VerifiedNullMove::DEPTH_PER_REDUCTION,
        VerifiedNullMove::VERIFY_DEPTH,
    ],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(13);

/// Null-move cutoffs checked by a verification search.
pub const VERIFICATIONS: Counter =
    Counter::new(ID, 0, "null_verifications", "null-move cutoffs checked by a verification search");

/// The engine's null move, as strong engines use it: only at zero-window nodes whose static evaluation is at
/// least beta, from depth [`VerifiedNullMove::MIN_DEPTH`] with a reduction growing with depth (`3 + depth / 4`,
/// the search below the pass dropping into quiescence near the horizon), mate scores never trusted, and from depth
/// [`VerifiedNullMove::VERIFY_DEPTH`] on a cutoff verified by a reduced search of the node itself without a null
/// move (against zugzwang, common in xiangqi endgames).
///
/// Hook: the composition's null-move slot ([`NullPolicy`]), before the moves: [`crate::EnginePreset`] has it fixed; a
/// variant chosen at run time has [`ChosenNull`], which reads this technique's bit. Source: Tabibi and Netanyahu,
/// "Verified null-move pruning" (2002); the adaptive reduction as in Stockfish.
#[derive(Debug, Clone, Copy, Default)]
pub struct VerifiedNullMove;

impl VerifiedNullMove {
    /// The shallowest node that tries it.
    pub const MIN_DEPTH: Param = Param::new(ID, 0, "NullMinDepth", 2, 1..=8, 0.5, "Null move: shallowest node.");
    /// The reduction at depth 0.
    pub const BASE_REDUCTION: Param =
        Param::new(ID, 1, "NullBaseReduction", 3, 1..=8, 0.5, "Null move: the reduction at depth 0.");
    /// One more ply of reduction every this many plies of depth.
    pub const DEPTH_PER_REDUCTION: Param = Param::new(
        ID,
        2,
        "NullDepthPerReduction",
        4,
        1..=16,
        0.5,
        "Null move: plies of depth per extra ply of reduction.",
    );
    /// The depth from which a cutoff is verified.
    pub const VERIFY_DEPTH: Param =
        Param::new(ID, 3, "NullVerifyDepth", 10, 2..=64, 1.0, "Null move: the depth from which cutoffs are verified.");
}

impl NullPolicy for VerifiedNullMove {
    const NAME: &'static str = "nmp";
    const NEGAMAX_WINDOW: bool = true;
    #[inline(always)]
    fn try_null<S: Search>(s: &mut S, n: &Node) -> Option<Score> {
        let p = s.params();
        if n.pv_node || n.depth < p.get(Self::MIN_DEPTH) || n.eval.corrected < n.beta || n.beta.abs() >= MATE_BOUND {
            return None;
        }
        let (r, verify_depth) =
            (p.get(Self::BASE_REDUCTION) + n.depth / p.get(Self::DEPTH_PER_REDUCTION), p.get(Self::VERIFY_DEPTH));
        let score = null_search(s, (n.depth - r - 1).max(0), n)?;
        let score = if score >= MATE_BOUND { n.beta } else { score };
        if n.depth < verify_depth {
            return Some(score);
        }
        s.stats().bump(VERIFICATIONS);
        // The verification searches this node again (same ply, no move): observers see it as a child node.
        let depth = n.depth - r;
        s.observer().enter(n.ply, n.beta - 1, n.beta, depth, NodeKind::Main);
        let verified = s.negamax(depth, n.beta - 1, n.beta, n.ply, false);
        if s.stopped() || verified < n.beta {
            s.stats().unbump(CUTOFFS);
            return None;
        }
        Some(score)
    }
}

/// The engine's null move ([`VerifiedNullMove`]) or the spec's ([`NullMove`] with `R = 3`), as this technique's
/// bit in the run-time [`crate::VariantConfig`] says.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChosenNull;

impl NullPolicy for ChosenNull {
    const NAME: &'static str = "nmp";
    #[inline(always)]
    fn try_null<S: Search>(s: &mut S, node: &Node) -> Option<Score> {
        if s.config().has(ID) {
            VerifiedNullMove::try_null(s, node)
        } else {
            NullMove::<3>::try_null(s, node)
        }
    }
}
