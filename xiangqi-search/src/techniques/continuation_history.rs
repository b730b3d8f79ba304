//! Continuation history.

use crate::registry::{Forms, Group, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "conthist",
    aliases: &["continuation-history"],
    summary: "continuation history: quiet moves ordered by how they fared after the moves one and two plies back",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("order"),
    in_engine: false,
    counters: &[],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(16);

/// Continuation history: a table indexed by a previous move (its piece and destination) and the move considered
/// (its piece and destination), learnt like the quiet history (a bonus of depth squared to the move that caused
/// a cutoff, the same malus to the quiet moves tried before it, with gravity) for the moves one and two plies
/// back. A quiet move's ordering key is its history plus both continuation entries, so the ordering knows which
/// replies work against which moves, not only which moves work. The sum is also what history-adjusted late move
/// reductions (`hlmr`) and history pruning (`hprune`) read. The line of moves is noted as the node makes them
/// (a null move leaves an empty entry). The table and how it learns: [`crate::history::ContinuationHistory`]. Conditions: the ordering (`order`). Hooks: the ordering's keys
/// ([`crate::Ordered`]), the node's make and cutoff. Source: Stockfish's `ContinuationHistory` (`history.h`,
/// `update_continuation_histories` in `search.cpp`), after the "counter move history" and "follow-up history" of
/// Stockfish 8 (2016).
#[derive(Debug, Clone, Copy, Default)]
pub struct ContinuationHistory;
