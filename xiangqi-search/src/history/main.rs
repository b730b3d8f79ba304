//! The main history of quiet moves.

use super::stats::Bonus;

/// The main history (Stockfish's `ButterflyHistory`, its `mainHistory`): a score per move key
/// ([`crate::GameTree::move_key`]: for xiangqi, origin and destination), raised for the quiet move that causes a
/// cutoff and lowered for the quiet moves tried before it, with gravity. The ordering keys the quiet moves that are
/// neither killers nor the countermove by it.
#[derive(Debug, Clone, Default)]
pub struct MainHistory {
    table: Vec<i32>,
}

impl MainHistory {
    /// An empty table for a game with `move_keys` distinct move keys.
    pub(crate) fn new(move_keys: usize) -> MainHistory {
        MainHistory { table: vec![0; move_keys] }
    }

    /// The score of the move with key `key`.
    #[inline(always)]
    pub fn get(&self, key: usize) -> i32 {
        self.table[key]
    }

    /// Updates the score of the move with key `key`.
    #[inline(always)]
    pub(crate) fn update(&mut self, key: usize, bonus: Bonus) {
        bonus.apply(&mut self.table[key]);
    }

    /// The number of move keys the table was made for.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.table.len()
    }
}
