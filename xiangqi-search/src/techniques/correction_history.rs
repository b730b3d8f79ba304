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
/// far searches found the value of such positions from their static evaluation (the tables and their running
/// average: [`crate::history::CorrectionHistory`]). The node's static evaluation
/// (what reverse futility, razoring, futility and the null move read) is the evaluator's plus the mean of the two
/// entries. A node learns when its search gives a value the bound agrees with (not above the evaluation when it
/// failed low, not below when it failed high), it was not in check and its best move was not a capture (a
/// capture's gain is not the evaluation's error). The tables are learnt state like the histories and carry over
/// from one move of a game to the next with them. Conditions: the ordering (`order`, which keeps the histories).
/// Hooks: the node's prune hook (the correction) and its end (the learning). Source: Stockfish's
/// `correctionHistory` (2023, pawn structure; material and others later), after Caissa.
#[derive(Debug, Clone, Copy, Default)]
pub struct CorrectionHistory;

impl CorrectionHistory {
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
}
