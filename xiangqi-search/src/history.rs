//! What the ordering learns from cutoffs, as Stockfish's `history.h` keeps it: the killer moves of each ply, the
//! history of quiet moves (with gravity) and the countermoves. [`crate::Ordered`] keys the moves with it;
//! [`crate::SearchMemory`] keeps it from one search of a game to the next.

use crate::game::{FastPaths, MAX_PLY};

/// Killer moves, the history table and countermoves of [`crate::Ordered`]. Killers and countermoves are packed
/// moves ([`crate::GameTree::encode_move`], 0 for none); history and countermoves are indexed by move key.
#[derive(Debug, Default, Clone)]
pub struct OrderState {
    killers: Vec<[u16; 2]>,
    history: Vec<i32>,
    counter: Vec<u16>,
}

impl OrderState {
    /// The bound of a history score, in either direction.
    pub const HISTORY_MAX: i32 = 1 << 20;
    /// The largest history bonus (a cutoff at depth 20 or more).
    pub const MAX_BONUS: i32 = 400;

    /// Empty tables for a game with `move_keys` distinct move keys.
    pub(crate) fn new(move_keys: usize) -> OrderState {
        OrderState { killers: vec![[0; 2]; MAX_PLY + 1], history: vec![0; move_keys], counter: vec![0; move_keys] }
    }

    /// Starts from `saved`: the history and countermove tables carry over; killers, which belong to the plies of
    /// one search, start empty (as Stockfish keeps its history tables and clears its killers). Tables of another
    /// game, with other move keys, are ignored.
    pub(crate) fn import(&mut self, saved: &OrderState) {
        if saved.history.len() == self.history.len() {
            self.history.clone_from(&saved.history);
            self.counter.clone_from(&saved.counter);
        }
    }

    /// The two killer moves of `ply`.
    #[inline(always)]
    pub(crate) fn killers(&self, ply: usize) -> [u16; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// The quiet move that last refuted the opponent's last move in `game` (0 for none).
    #[inline(always)]
    pub(crate) fn countermove<G: FastPaths>(&self, game: &G) -> u16 {
        game.last_move().map_or(0, |p| self.counter[G::move_key(p)])
    }

    /// The history score of the move with key `key`.
    #[inline(always)]
    pub(crate) fn history(&self, key: usize) -> i32 {
        self.history[key]
    }

    /// Learns from the quiet move `m` that caused a beta cutoff at `ply` with `depth` remaining, after the quiet
    /// moves in `tried` failed to: `m` becomes the ply's first killer and the countermove of the opponent's last
    /// move; its history gains and theirs lose, all bounded (history with gravity).
    #[inline]
    pub(crate) fn learn<G: FastPaths>(&mut self, game: &G, m: G::Move, depth: i32, ply: usize, tried: &[G::Move]) {
        let (k, code) = (G::move_key(m), G::encode_move(m));
        let slot = &mut self.killers[ply.min(MAX_PLY)];
        if slot[0] != code {
            slot[1] = slot[0];
            slot[0] = code;
        }
        if let Some(p) = game.last_move() {
            self.counter[G::move_key(p)] = code;
        }
        let bonus = (depth * depth).min(Self::MAX_BONUS);
        let update = |h: &mut i32, b: i32| *h += b - *h * b.abs() / Self::HISTORY_MAX;
        update(&mut self.history[k], bonus);
        for &q in tried {
            update(&mut self.history[G::move_key(q)], -bonus);
        }
    }
}
