//! Quiescence pruning.

use crate::policy::{Additions, Search, Variant};
use crate::registry::{Counter, Forms, Group, Param, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]). Not in the `engine` preset, where quiescence by
/// SEE (`qsee`, [`crate::techniques::qs_see`]) decides instead; added with `engine+no-qsee+qsprune`, or to any search
/// with quiescence.
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "qsprune",
    aliases: &[],
    summary: "quiescence pruning: captures that likely lose material are not searched",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("qs"),
    in_engine: false,
    counters: &[PRUNES],
    params: &[QsPruning::THRESHOLD],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(12);

/// Losing captures skipped in quiescence (counted as generated, before the legality test).
pub const PRUNES: Counter = Counter::new(
    ID,
    0,
    "qs_prunes",
    "losing captures skipped in quiescence (counted as generated, before the legality test)",
);

/// In quiescence, captures that likely lose material (a negative capture key: a more valuable piece taking a
/// defended one) are not searched; the keys come largest first, so the first such capture ends the node's moves.
/// Hook: each capture of a quiescence node (`policy/quiescence.rs`). Source: Stockfish's SEE pruning in qsearch.
#[derive(Debug, Clone, Copy, Default)]
pub struct QsPruning;

impl QsPruning {
    /// Whether the search prunes losing captures (a constant false without the engine's additions).
    #[inline(always)]
    pub fn on<S: Search>(s: &S) -> bool {
        <S::V as Variant>::Additions::ENABLED && s.config().has(ID)
    }

    /// Captures keyed below this are skipped (0: the losing ones).
    pub const THRESHOLD: Param =
        Param::new(ID, 0, "QsPruneThreshold", 0, -64..=64, 4.0, "Quiescence: captures keyed below this are skipped.");

    /// Whether a capture keyed `key` (see [`crate::GameTree::capture_key`]) is skipped, with `threshold` the
    /// value of [`QsPruning::THRESHOLD`].
    #[inline(always)]
    pub fn skips(key: i32, threshold: i32) -> bool {
        key < threshold
    }

    /// Whether the capture keyed `key` and the `left` after it are skipped (counted): keys come largest first, so
    /// every capture after a losing one loses material too.
    #[inline(always)]
    pub fn skips_rest<S: Search>(s: &mut S, key: i32, left: usize) -> bool {
        if !Self::skips(key, s.params().get(Self::THRESHOLD)) {
            return false;
        }
        s.stats().bump_by(PRUNES, 1 + left as u64);
        true
    }
}
