//! The capture history.

use super::stats::{switch, Bonus};
use crate::game::FastPaths;

/// The capture history (Stockfish's `CapturePieceToHistory`): a score per capturing piece, destination and
/// captured kind (`[piece-to key][victim kind]`, [`FastPaths::piece_to_key`], [`FastPaths::victim_kind`]), raised
/// for the capture that causes a cutoff and lowered for the captures tried before it, with gravity. Empty (and
/// read as 0) when the variant does not have it; `caphist`
/// ([`crate::techniques::capture_history::CaptureHistory`]) says when it is on and how the ordering reads it.
#[derive(Debug, Clone, Default)]
pub struct CaptureHistory {
    table: Vec<i32>,
    victim_kinds: usize,
}

impl CaptureHistory {
    /// Switches the table on (zeroed, unless it has the size already) or off (freed) for a game `G`.
    pub(crate) fn switch<G: FastPaths>(&mut self, on: bool) {
        self.victim_kinds = G::VICTIM_KINDS;
        switch(&mut self.table, on, G::PIECE_TO_KEYS * G::VICTIM_KINDS);
    }

    /// Whether the table is on.
    #[inline(always)]
    pub fn is_on(&self) -> bool {
        !self.table.is_empty()
    }

    /// The entry of the capture `m` in `game`.
    #[inline(always)]
    fn index<G: FastPaths>(&self, game: &G, m: G::Move) -> usize {
        game.piece_to_key(m) * self.victim_kinds + game.victim_kind(m)
    }

    /// The score of the capture `m` in `game` (the table must be on).
    #[inline(always)]
    pub fn get<G: FastPaths>(&self, game: &G, m: G::Move) -> i32 {
        self.table[self.index(game, m)]
    }

    /// Updates the score of the capture `m` in `game` (the table must be on).
    #[inline(always)]
    pub(crate) fn update<G: FastPaths>(&mut self, game: &G, m: G::Move, bonus: Bonus) {
        let i = self.index(game, m);
        bonus.apply(&mut self.table[i]);
    }
}
