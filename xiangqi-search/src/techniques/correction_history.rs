//! Correction history.

use crate::game::{Score, MATE_BOUND};
use crate::registry::{Forms, Group, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "corrhist",
    aliases: &["correction-history"],
    summary: "the static evaluation corrected by what searches found for positions of the same structure",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("order"),
    in_engine: false,
    counters: &[],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(19);

/// Correction history: two tables, indexed by the side to move and a hash of the soldiers' structure, and by the
/// side to move and a hash of the material ([`crate::FastPaths::structure_keys`]), hold a running average of how
/// far searches found the value of such positions from their static evaluation. The node's static evaluation
/// (what reverse futility, razoring, futility and the null move read) is the evaluator's plus the mean of the two
/// entries. A node learns when its search gives a value the bound agrees with (not above the evaluation when it
/// failed low, not below when it failed high), it was not in check and its best move was not a capture (a
/// capture's gain is not the evaluation's error). The tables are learnt state like the histories and carry over
/// from one move of a game to the next with them. Conditions: the ordering (`order`, whose state holds them).
/// Hooks: the node's prune hook (the correction) and its end (the learning). Source: Stockfish's
/// `correctionHistory` (2023, pawn structure; material and others later), after Caissa.
#[derive(Debug, Clone, Copy, Default)]
pub struct CorrectionHistory;

impl CorrectionHistory {
    /// Entries per table and side (a power of two).
    pub const SIZE: usize = 1 << 14;
    /// An entry holds the error in units of 1/`GRAIN` of the evaluation's unit.
    pub const GRAIN: i32 = 256;
    /// The largest correction, in the evaluation's unit.
    pub const LIMIT: i32 = 128;
    /// The weights of a new observation: `min(depth + 1, MAX_WEIGHT)` out of [`CorrectionHistory::SCALE`].
    pub const MAX_WEIGHT: i32 = 16;
    /// The denominator of the running average.
    pub const SCALE: i32 = 256;

    /// The index of `key` for the side to move (`first`: the first player).
    #[inline(always)]
    pub fn index(key: u64, first: bool) -> usize {
        (key as usize & (Self::SIZE - 1)) | (first as usize * Self::SIZE)
    }

    /// The correction the two entries `a` and `b` give, in the evaluation's unit.
    #[inline(always)]
    pub fn correction(a: i32, b: i32) -> Score {
        (a + b) / (2 * Self::GRAIN)
    }

    /// Whether a node's result teaches the tables: the value `best` with the bound it has against `[alpha0,
    /// beta]`, its `static_eval` (corrected), whether its best move was a capture.
    #[inline(always)]
    pub fn learns(best: Score, static_eval: Score, alpha0: Score, beta: Score, capture: bool) -> bool {
        // A fail-low bounds the value from above: it teaches only when it lies below the evaluation; a
        // fail-high bounds it from below: it teaches only when it lies above.
        let upper_ok = best > alpha0 || best < static_eval;
        let lower_ok = best < beta || best > static_eval;
        !capture && best.abs() < MATE_BOUND && upper_ok && lower_ok
    }

    /// Moves an entry towards the error `diff` (value minus static evaluation) seen at `depth`.
    #[inline(always)]
    pub fn update(entry: &mut i32, diff: Score, depth: i32) {
        let w = (depth + 1).min(Self::MAX_WEIGHT);
        let target = diff.clamp(-Self::LIMIT, Self::LIMIT) * Self::GRAIN;
        *entry = (*entry * (Self::SCALE - w) + target * w) / Self::SCALE;
    }
}
