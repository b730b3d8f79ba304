//! The continuation history.

use super::stats::{switch, Bonus};
use crate::game::FastPaths;

/// The continuation history (Stockfish's `ContinuationHistory`): a score per previous move and move considered,
/// each by its piece and destination (`[previous move's piece-to key + 1][piece-to key]`, row 0 for no previous
/// move or a null move), raised for the quiet move that causes a cutoff and lowered for the quiet moves tried
/// before it, for the moves one and two plies back, with gravity. A move's continuation score is the sum of the
/// two entries. The previous moves are the line's, as [`ContinuationHistory::key`] gives them, which the searcher's
/// stack keeps per ply. Empty (and read as 0) when the variant does not have it; `conthist`
/// ([`crate::techniques::continuation_history::ContinuationHistory`]) says when it is on.
#[derive(Debug, Clone, Default)]
pub struct ContinuationHistory {
    table: Vec<i32>,
    piece_to_keys: usize,
}

impl ContinuationHistory {
    /// Switches the table on (zeroed, unless it has the size already) or off (freed) for a game `G`.
    pub(crate) fn switch<G: FastPaths>(&mut self, on: bool) {
        let pt = G::PIECE_TO_KEYS;
        self.piece_to_keys = pt;
        switch(&mut self.table, on, (pt + 1) * pt);
    }

    /// Whether the table is on.
    #[inline(always)]
    pub fn is_on(&self) -> bool {
        !self.table.is_empty()
    }

    /// The key of the move `m` about to be made in `game`, as a previous move of the line: its piece-to key plus
    /// one (`None`, the null move: 0).
    #[inline(always)]
    pub fn key<G: FastPaths>(game: &G, m: Option<G::Move>) -> u32 {
        m.map_or(0, |m| game.piece_to_key(m) as u32 + 1)
    }

    /// The continuation score of a move with piece-to key `pt` after the moves with keys `prev` (one and two
    /// plies back; the table must be on).
    #[inline(always)]
    pub fn get(&self, prev: [u32; 2], pt: usize) -> i32 {
        let w = self.piece_to_keys;
        self.table[prev[0] as usize * w + pt] + self.table[prev[1] as usize * w + pt]
    }

    /// Learns from a cutoff by the quiet move `m` in `game` after the moves with keys `prev` (one and two plies
    /// back), the quiet moves in `tried` having failed before it: for each previous move, `m`'s entry gains
    /// `bonus` and theirs lose it (the table must be on).
    #[inline(always)]
    pub(crate) fn learn<G: FastPaths>(
        &mut self,
        game: &G,
        prev: [u32; 2],
        m: G::Move,
        tried: &[G::Move],
        bonus: Bonus,
    ) {
        let w = self.piece_to_keys;
        for p in prev {
            let row = p as usize * w;
            bonus.apply(&mut self.table[row + game.piece_to_key(m)]);
            for &q in tried {
                bonus.malus().apply(&mut self.table[row + game.piece_to_key(q)]);
            }
        }
    }
}
