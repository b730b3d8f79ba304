//! Countermoves.

use crate::game::FastPaths;

/// Countermoves (Stockfish's `CounterMoveHistory`, in its versions up to 16): for each move key of the
/// opponent's last move, the quiet move that last refuted it, packed ([`crate::GameTree::encode_move`]; 0 for
/// none). The ordering tries it right after the killers.
#[derive(Debug, Clone, Default)]
pub struct CounterMoves {
    table: Vec<u16>,
}

impl CounterMoves {
    /// An empty table for a game with `move_keys` distinct move keys.
    pub(crate) fn new(move_keys: usize) -> CounterMoves {
        CounterMoves { table: vec![0; move_keys] }
    }

    /// The quiet move that last refuted the opponent's last move in `game` (0 for none, or after no move).
    #[inline(always)]
    pub fn get<G: FastPaths>(&self, game: &G) -> u16 {
        game.last_move().map_or(0, |p| self.table[G::move_key(p)])
    }

    /// Learns that the quiet move `code` refuted the opponent's last move in `game`.
    #[inline(always)]
    pub(crate) fn set<G: FastPaths>(&mut self, game: &G, code: u16) {
        if let Some(p) = game.last_move() {
            self.table[G::move_key(p)] = code;
        }
    }
}
