//! SEE pruning: moves that lose material by static exchange skipped at shallow depth.

use crate::game::{Score, MATE_BOUND};
use crate::registry::{Counter, Forms, Group, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]). Not part of the `engine` preset until games
/// confirm it: added with `engine+see`, or to any negamax search (`pvs+see`).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "see",
    aliases: &[],
    summary: "SEE pruning: captures and quiet moves that lose material by static exchange, skipped at shallow depth",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: None,
    in_engine: false,
    counters: &[CAPTURE_PRUNES, QUIET_PRUNES],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(23);

/// Captures skipped because their static exchange loses more than the depth's margin.
pub const CAPTURE_PRUNES: Counter =
    Counter::new(ID, 0, "see_capture_prunes", "captures skipped because their static exchange loses too much");

/// Quiet moves skipped because the moved piece is lost by static exchange beyond the depth's margin.
pub const QUIET_PRUNES: Counter =
    Counter::new(ID, 1, "see_quiet_prunes", "quiet moves skipped because their static exchange loses too much");

/// SEE pruning: at a zero-window node near the horizon, not in check, once a move has been searched (the node's
/// best above a mate), a capture whose static exchange (`FastPaths::see_ge`, `xiangqi_core::Position::see_ge`)
/// loses more than [`SeePruning::CAPTURE_MARGIN`] per ply of depth, and a quiet move that loses more than
/// [`SeePruning::QUIET_MARGIN`] times the depth squared, are skipped without being made. A move that gives check,
/// capture or not, is never skipped (asked only when the margin fails: `gives_check` costs an attack test): a
/// checking sacrifice is how many mates begin, and skipping it near the horizon loses them (the chariot sacrifice of
/// `hbsxcjp-cchess/01.XQF`, a mate in 3 found at depth 10 instead of 8). Conditions: not a PV node, not in check,
/// depth at most [`SeePruning::MAX_DEPTH`]. Hook: the negamax node's skip hook, after futility and late move pruning
/// ([`SeeRule`]). Source: Stockfish's `search.cpp` (step 14, "SEE based pruning for captures and checks" with
/// about `-185 * depth`, and "prune moves with negative SEE" for quiet moves with about `-26 * lmrDepth^2`), as
/// Pikafish does for xiangqi; the margins here are in `xiangqi_core::SEE_VALUES` units (a soldier is 100), the quiet
/// one is by depth rather than the reduced depth, and checks are kept where Stockfish prunes them too.
#[derive(Debug, Clone, Copy, Default)]
pub struct SeePruning;

impl SeePruning {
    /// A capture at depth `d` that gives no check is skipped when its exchange loses more than `CAPTURE_MARGIN * d`.
    pub const CAPTURE_MARGIN: Score = 100;
    /// A quiet move at depth `d` that gives no check is skipped when its exchange loses more than
    /// `QUIET_MARGIN * d * d`.
    pub const QUIET_MARGIN: Score = 25;
    /// The deepest node it applies to.
    pub const MAX_DEPTH: i32 = 8;

    /// The threshold a capture must reach at `depth`.
    #[inline(always)]
    pub const fn capture_threshold(depth: i32) -> Score {
        -Self::CAPTURE_MARGIN * depth
    }

    /// The threshold a quiet move must reach at `depth`.
    #[inline(always)]
    pub const fn quiet_threshold(depth: i32) -> Score {
        -Self::QUIET_MARGIN * depth * depth
    }
}

/// What SEE pruning skips at one node: built once per node (the node's depth when it applies, 0 when not), asked
/// for each move at the skip hook.
#[derive(Debug, Clone, Copy)]
pub struct SeeRule {
    /// The node's depth when the rule applies, else 0.
    depth: i32,
}

/// What [`SeeRule::skips`] decided for a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeeSkip {
    /// Searched.
    Keep,
    /// A capture skipped.
    Capture,
    /// A quiet move skipped.
    Quiet,
}

impl SeeRule {
    /// The rule of a node with `depth` plies left: nothing is skipped when the technique is off (`on`), at a PV node,
    /// in check or deeper than [`SeePruning::MAX_DEPTH`].
    #[inline(always)]
    pub fn new(on: bool, depth: i32, pv_node: bool, in_check: bool) -> SeeRule {
        let applies = on && !pv_node && !in_check && depth <= SeePruning::MAX_DEPTH;
        SeeRule { depth: if applies { depth.max(1) } else { 0 } }
    }

    /// Whether the move is skipped, and as what: `quiet` says whether it captures nothing, `best` is the node's best
    /// so far (nothing is skipped before a move has been searched), `see_ge(t)` whether its exchange gains at least
    /// `t`, `gives_check` whether it checks.
    #[inline(always)]
    pub fn skips(
        &self,
        quiet: bool,
        best: Score,
        see_ge: impl Fn(Score) -> bool,
        gives_check: impl FnOnce() -> bool,
    ) -> SeeSkip {
        if self.depth == 0 || best <= -MATE_BOUND {
            return SeeSkip::Keep;
        }
        let threshold =
            if quiet { SeePruning::quiet_threshold(self.depth) } else { SeePruning::capture_threshold(self.depth) };
        if see_ge(threshold) || gives_check() {
            return SeeSkip::Keep;
        }
        if quiet {
            SeeSkip::Quiet
        } else {
            SeeSkip::Capture
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::INFINITY;

    #[test]
    fn the_rule_applies_only_where_its_conditions_hold() {
        let loses_a_chariot = |t: Score| -950 >= t;
        // Off, at a PV node, in check or too deep: nothing skipped.
        for rule in [
            SeeRule::new(false, 3, false, false),
            SeeRule::new(true, 3, true, false),
            SeeRule::new(true, 3, false, true),
            SeeRule::new(true, SeePruning::MAX_DEPTH + 1, false, false),
        ] {
            assert_eq!(rule.skips(false, 0, loses_a_chariot, || false), SeeSkip::Keep);
        }
        let rule = SeeRule::new(true, 3, false, false);
        // Before any move has been searched: nothing skipped.
        assert_eq!(rule.skips(false, -INFINITY, loses_a_chariot, || false), SeeSkip::Keep);
        assert_eq!(rule.skips(false, 0, loses_a_chariot, || false), SeeSkip::Capture);
        assert_eq!(rule.skips(true, 0, loses_a_chariot, || false), SeeSkip::Quiet);
        // A move that gives check is kept, capture or not, whatever its exchange loses.
        assert_eq!(rule.skips(false, 0, loses_a_chariot, || true), SeeSkip::Keep);
        assert_eq!(rule.skips(true, 0, loses_a_chariot, || true), SeeSkip::Keep);
        // Check is asked only when the exchange fails the margin.
        assert_eq!(rule.skips(false, 0, |t| -300 >= t, || unreachable!()), SeeSkip::Keep);
        // Within the margins: kept (-300 for captures, -225 for quiet moves at depth 3).
        assert_eq!(rule.skips(false, 0, |t| -300 >= t, || false), SeeSkip::Keep);
        assert_eq!(rule.skips(true, 0, |t| -225 >= t, || false), SeeSkip::Keep);
    }
}
