//! History-adjusted late move reductions.

use crate::registry::{Forms, Group, Param, Params, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "hlmr",
    aliases: &["history-lmr"],
    summary: "late move reductions adjusted by the move's history",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("lmr"),
    in_engine: false,
    counters: &[],
    params: &[HistoryReductions::DIVISOR],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(17);

/// History-adjusted late move reductions: a quiet move's reduction falls by one ply for every
/// [`HistoryReductions::DIVISOR`] of its statistics (its history plus, with `conthist`, its continuation
/// history) and rises as they fall below zero, never below zero nor beyond the depth. Conditions: a move that
/// late move reductions reduce. Hook: the node's reduce hook. Source: Stockfish's `r -= statScore / ...`
/// (`search.cpp`).
#[derive(Debug, Clone, Copy, Default)]
pub struct HistoryReductions;

impl HistoryReductions {
    /// History worth one ply of reduction.
    pub const DIVISOR: Param =
        Param::new(ID, 0, "HlmrDivisor", 8192, 1024..=65536, 600.0, "History LMR: history worth one ply.");

    /// The reduction `r` of a move whose statistics are `stats`, at a node with `depth` plies left, with the
    /// parameters `p`.
    #[inline(always)]
    pub fn adjust(p: &Params, r: i32, stats: i32, depth: i32) -> i32 {
        (r - stats / p.get(Self::DIVISOR)).clamp(0, (depth - 2).max(0))
    }
}
