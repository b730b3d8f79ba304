//! The game's rules at the node: repetition, perpetual check and chase, and the move limit.

use crate::game::{Rule, Score};
use crate::registry::{Counter, Forms, Group, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "rules",
    aliases: &[],
    summary: "the game's rules (repetition, perpetual check and chase, move limit)",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: None,
    in_engine: true,
    counters: &[CUTOFFS],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(10);

/// Nodes the game's rules decided (repetition, perpetual check or chase, move limit).
pub const CUTOFFS: Counter = Counter::new(
    ID,
    0,
    "rule_cutoffs",
    "nodes the game's rules decided (repetition, perpetual check or chase, move limit)",
);

/// Asks the game's judge at every node after the root ([`crate::GameTree::rules`]): a decided node returns its score,
/// and a repetition that is at least (at most) a draw for the side to move raises alpha to -1 (lowers beta to 1).
/// Hook: the negamax node's rules hook, first of all. Source: the Asian (AXF/WXF) rules, as `xiangqi_core::rules`
/// writes them.
#[derive(Debug, Clone, Copy, Default)]
pub struct GameRules;

impl GameRules {
    /// Narrows `[alpha, beta]` by `rule`; `Some(score)` when the node is decided, or its window is empty.
    #[inline(always)]
    pub fn apply(rule: Rule, alpha: &mut Score, beta: &mut Score) -> Option<Score> {
        match rule {
            Rule::Continue => None,
            Rule::Decided(score) => Some(score),
            Rule::AtLeastDraw => {
                *alpha = (*alpha).max(-1);
                (*alpha >= *beta).then_some(*alpha)
            }
            Rule::AtMostDraw => {
                *beta = (*beta).min(1);
                (*alpha >= *beta).then_some(*beta)
            }
        }
    }
}
