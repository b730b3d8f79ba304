//! The game's rules at the node: repetition, perpetual check and chase, and the move limit.

use crate::game::{Rule, Score};

/// Asks the game's judge at every node after the root ([`crate::GameTree::rules`]): a decided node returns its score,
/// and a repetition that is at least (at most) a draw for the side to move raises alpha to -1 (lowers beta to 1).
/// Source: the Asian (AXF/WXF) rules, as `xiangqi_core::rules` writes them.
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
