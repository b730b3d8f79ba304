//! The bounded history scale.

use crate::registry::{Forms, Group, Param, Params, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "hscale",
    aliases: &["history-scale"],
    summary: "history tables bounded near 2^14 with bonuses linear in depth, so gravity keeps them a recent average",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("order"),
    in_engine: true,
    counters: &[],
    params: &[HistoryScale::BOUND, HistoryScale::BONUS_PER_PLY, HistoryScale::BONUS_MAX],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(27);

/// The bounded history scale: the quiet, continuation and capture histories learn with a bonus of
/// `min(BONUS_PER_PLY * depth, BONUS_MAX)` and are bounded by `BOUND` (history with gravity: an update `b` moves
/// a score `h` by `b - h * |b| / BOUND`). Without it the ordering keeps the spec's scale, a bonus of depth squared
/// up to 400 under a bound of 2^20: so far from the bound that gravity hardly acts and a score is the sum of all a
/// game's cutoffs, growing with the game. With it a score is a recent, bounded average (a few cutoffs near the
/// root move it across its range), and the thresholds that read it (history-adjusted reductions, history
/// pruning) mean the same at every move of a game. Conditions: the ordering (`order`). Hook: the ordering's
/// learning ([`crate::history::Scale`]). Source: Stockfish's `stat_bonus` and `StatsEntry` (`history.h`,
/// bound 7183 for the main history, 16384 for the continuation history; bonus linear in depth, capped).
#[derive(Debug, Clone, Copy, Default)]
pub struct HistoryScale;

impl HistoryScale {
    /// The bound of a history score.
    pub const BOUND: Param =
        Param::new(ID, 0, "HistBound", 16384, 2048..=131072, 2000.0, "History scale: bound of a history score.");
    /// The bonus per ply of depth.
    pub const BONUS_PER_PLY: Param =
        Param::new(ID, 1, "HistBonusPerPly", 160, 16..=1024, 20.0, "History scale: bonus per ply of depth.");
    /// The largest bonus.
    pub const BONUS_MAX: Param =
        Param::new(ID, 2, "HistBonusMax", 1600, 128..=8192, 150.0, "History scale: largest bonus.");

    /// The scale as [`crate::history::Scale::new`] takes it: `(bound, bonus per ply, largest bonus)`.
    pub fn scale(p: &Params) -> (i32, i32, i32) {
        (p.get(Self::BOUND), p.get(Self::BONUS_PER_PLY), p.get(Self::BONUS_MAX))
    }
}
