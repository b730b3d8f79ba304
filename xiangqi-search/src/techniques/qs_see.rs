//! Quiescence by SEE: captures whose static exchange loses material are not searched in quiescence.

use crate::game::{FastPaths, GameTree, Score};
use crate::policy::{Additions, Search, Variant};
use crate::registry::{Counter, Forms, Group, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]). Part of the `engine` preset, where it takes the
/// place of quiescence pruning (`qsprune`); taken away with `engine+no-qsee`, or added to any search with quiescence.
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "qsee",
    aliases: &[],
    summary: "quiescence by SEE: captures whose static exchange loses material are not searched",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("qs"),
    in_engine: true,
    counters: &[PRUNES],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(24);

/// Captures skipped in quiescence by their static exchange (counted before the legality test).
pub const PRUNES: Counter = Counter::new(
    ID,
    0,
    "qsee_prunes",
    "captures skipped in quiescence because their static exchange loses material (before the legality test)",
);

/// In quiescence, a capture whose static exchange (`FastPaths::see_ge`, `xiangqi_core::Position::see_ge`) does not
/// reach [`QsSee::THRESHOLD`] is skipped. It replaces the losing-capture test of quiescence pruning (`qsprune`,
/// [`crate::techniques::qs_pruning`], which skips a more valuable piece taking a defended one): when both are on, SEE
/// decides, capture by capture (an exchange can win even when the victim is cheaper and defended, and lose when it
/// is not). Hook: each capture of a quiescence node (`policy/quiescence.rs`). Source: Stockfish's `search.cpp`
/// (`qsearch`: "do not search moves with bad enough SEE values"), as Pikafish does for xiangqi.
#[derive(Debug, Clone, Copy, Default)]
pub struct QsSee;

impl QsSee {
    /// The least a capture's exchange must gain to be searched.
    pub const THRESHOLD: Score = 0;

    /// Whether quiescence prunes by SEE (a constant false without the engine's additions).
    #[inline(always)]
    pub fn on<S: Search>(s: &S) -> bool {
        <S::V as Variant>::Additions::ENABLED && s.config().has(ID)
    }

    /// Whether the capture `m` is skipped (counted).
    #[inline(always)]
    pub fn skips<S: Search>(s: &mut S, m: <S::G as GameTree>::Move) -> bool {
        if s.game().see_ge(m, Self::THRESHOLD) {
            return false;
        }
        s.stats().bump(PRUNES);
        true
    }
}
