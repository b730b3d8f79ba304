//! Internal iterative reduction.

use crate::policy::Search;
use crate::registry::{Counter, Forms, Group, Param, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "iir",
    aliases: &[],
    summary: "internal iterative reduction: a node without a table move is searched a ply shallower",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("tt"),
    in_engine: true,
    counters: &[REDUCTIONS],
    params: &[InternalIterativeReduction::MIN_DEPTH, InternalIterativeReduction::PLIES],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(21);

/// Nodes searched a ply shallower for want of a table move.
pub const REDUCTIONS: Counter =
    Counter::new(ID, 0, "iir_reductions", "nodes searched a ply shallower for want of a table move");

/// Internal iterative reduction: a node deep enough that the transposition table gives no move for is likely new
/// to the search (its ordering will be poor, and it is rarely on the principal variation), so it is searched
/// [`InternalIterativeReduction::PLIES`] shallower; the next iteration, with the move this search stores, searches
/// it fully. It replaces internal iterative deepening (a shallower search only to find a first move). Conditions:
/// no table move, depth at least [`InternalIterativeReduction::MIN_DEPTH`], not in check. Hook: the negamax node,
/// after the node pruning and before the moves. Source: Ed Schröder's Rebel (as "IID reduction"), Stockfish's
/// step 10 ("internal iterative reductions").
#[derive(Debug, Clone, Copy, Default)]
pub struct InternalIterativeReduction;

impl InternalIterativeReduction {
    /// The shallowest node that is reduced.
    pub const MIN_DEPTH: Param = Param::new(ID, 0, "IirMinDepth", 4, 2..=16, 0.5, "IIR: the shallowest node reduced.");
    /// How many plies shallower.
    pub const PLIES: Param = Param::new(ID, 1, "IirPlies", 1, 1..=3, 0.5, "IIR: plies of reduction.");

    /// The node's hook: the depth to search a node with `depth` plies left and the table move `hash_move` (0 for
    /// none) to.
    #[inline(always)]
    pub fn depth<S: Search>(s: &mut S, depth: i32, hash_move: u16, in_check: bool) -> i32 {
        if !(s.config().has(ID) && hash_move == 0 && depth >= s.params().get(Self::MIN_DEPTH) && !in_check) {
            return depth;
        }
        s.stats().bump(REDUCTIONS);
        depth - s.params().get(Self::PLIES)
    }
}
