//! Check extension.

use crate::game::MAX_PLY;
use crate::registry::{Counter, Forms, Group, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "checkext",
    aliases: &[],
    summary: "check extension",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: None,
    in_engine: true,
    counters: &[EXTENSIONS],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(9);

/// Nodes searched one ply deeper because the side to move was in check.
pub const EXTENSIONS: Counter =
    Counter::new(ID, 0, "check_extensions", "nodes searched one ply deeper because the side to move was in check");

/// A node whose side to move is in check is searched one ply deeper, so that a check cannot push a threat over the
/// horizon; only in the first half of the ply range, so that perpetual checks cannot extend without end.
/// Hook: the negamax node's extend hook, before the horizon test. Source: Stockfish and Pikafish (xiangqi's many
/// checks make it matter more than in chess).
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckExtension;

impl CheckExtension {
    /// Extensions stop at this ply.
    pub const LAST_PLY: usize = MAX_PLY / 2;

    /// Whether the node at `ply` is extended.
    #[inline(always)]
    pub fn extends(in_check: bool, ply: usize) -> bool {
        in_check && ply < Self::LAST_PLY
    }
}
