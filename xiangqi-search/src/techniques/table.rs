//! The transposition table's part in the node: when a stored result answers the node, and which bound a result
//! is stored as. The table itself is [`crate::tt`].

use crate::game::Score;
use crate::registry::{Counter, Forms, Group, Technique, TechniqueId};
use crate::tt::{Bound, TtHit};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "tt",
    aliases: &[],
    summary: "the transposition table",
    group: Group::Addition,
    forms: Forms::AnyForm,
    needs: None,
    in_engine: true,
    counters: &[HITS, CUTOFFS],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(4);

/// Transposition table probes that found the position.
pub const HITS: Counter = Counter::new(ID, 0, "tt_hits", "transposition table probes that found the position");

/// Table hits that answered the node without a search.
pub const CUTOFFS: Counter = Counter::new(ID, 1, "tt_cutoffs", "table hits that answered the node without a search");

/// The transposition table at the node: probed before the moves, stored after them.
///
/// Conditions of a cutoff: not a PV node, not the root, the entry searched at least as deep, and its bound on the
/// right side of the window (an exact score, a lower bound at or above beta, an upper bound at or below alpha).
/// Hooks: the probe hook of both nodes (negamax and two-sided) before the moves, the store hook after them (and a
/// prefetch of each child's entry before its move is made). Source: Greenblatt's hash table (1967), as Stockfish
/// uses it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Table;

impl Table {
    /// Whether `hit` answers a node with `depth` plies left and window `[alpha, beta]`.
    #[inline(always)]
    pub fn cuts(hit: &TtHit, depth: i32, alpha: Score, beta: Score, pv_node: bool, ply: usize) -> bool {
        let usable = match hit.bound {
            Bound::Exact => true,
            Bound::Lower => hit.score >= beta,
            Bound::Upper => hit.score <= alpha,
        };
        !pv_node && ply > 0 && hit.depth >= depth && usable
    }

    /// What a node's `result` is, for the window `[alpha0, beta]` it was searched with.
    #[inline(always)]
    pub fn bound(result: Score, alpha0: Score, beta: Score) -> Bound {
        if result >= beta {
            Bound::Lower
        } else if result > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}
