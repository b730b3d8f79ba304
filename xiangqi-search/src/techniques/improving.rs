//! The "improving" signal.

use crate::game::{Score, INFINITY};
use crate::registry::{Forms, Group, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "improving",
    aliases: &[],
    summary: "pruning margins that depend on whether the static evaluation rose over the last two plies",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: None,
    in_engine: true,
    counters: &[],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(20);

/// Improving: a node whose static evaluation is above that of the same side's node two plies up (four when that
/// one was in check) is "improving"; its position is getting better, so pruning it is safer. Without the
/// technique every node counts as it did before ([`Improving::OFF`]); with it:
///
/// - reverse futility pruning's margin is one ply smaller at an improving node ([`Improving::rfp_depth`]);
/// - late move pruning keeps half as many quiet moves at a node that is not improving ([`Improving::late_limit`]);
/// - late move reductions reduce a node that is not improving one ply more ([`Improving::reduction`]).
///
/// Hooks: computed in the node's prune hook, where the static evaluation is known, and read by the three
/// techniques at theirs. Source: Stockfish's `improving` (`search.cpp`), after Ethereal and earlier engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Improving {
    /// The technique is off (or the node has no static evaluation): margins as without it.
    Off,
    /// The static evaluation rose.
    Yes,
    /// It did not.
    No,
}

impl Improving {
    /// The value of a node without the technique.
    pub const OFF: Improving = Improving::Off;

    /// The signal of a node with `static_eval`, given the evaluations of the same side two and four plies up
    /// (`-INFINITY` for none: in check, or above the root).
    #[inline(always)]
    pub fn signal(on: bool, static_eval: Score, two_up: Score, four_up: Score) -> Improving {
        if !on || static_eval <= -INFINITY {
            return Improving::Off;
        }
        let before = if two_up > -INFINITY { two_up } else { four_up };
        if before <= -INFINITY || static_eval > before {
            Improving::Yes
        } else {
            Improving::No
        }
    }

    /// The depth reverse futility pruning takes its margin from.
    #[inline(always)]
    pub fn rfp_depth(self, depth: i32) -> i32 {
        depth - (self == Improving::Yes) as i32
    }

    /// Late move pruning's move count.
    #[inline(always)]
    pub fn late_limit(self, limit: usize) -> usize {
        if self == Improving::No && limit != usize::MAX {
            limit / 2
        } else {
            limit
        }
    }

    /// A late move's reduction `r` (only a move already reduced is reduced more).
    #[inline(always)]
    pub fn reduction(self, r: i32, depth: i32) -> i32 {
        if self == Improving::No && r > 0 {
            (r + 1).min((depth - 2).max(0))
        } else {
            r
        }
    }
}
