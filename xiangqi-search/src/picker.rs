//! [`MovePicker`]: hands out a node's moves one at a time, by key (Stockfish's `movepick.cpp` selection), filled
//! in place by the generator and the ordering. The node's stages around it are in [`crate::movepick`], the
//! orderings that key its moves in [`crate::ordering`].

use crate::game::MoveBuf;
use smallvec::SmallVec;

/// Hands out moves one at a time. Keyed pickers hand out the largest key left (the first of equals, so generation
/// order breaks ties). Most nodes cut off after a move or two, so the first few moves are selected lazily; a node
/// that goes on sorts what is left once (a stable insertion sort, which yields the same order selection would).
///
/// A picker is filled in place: the generator writes into [`MovePicker::moves_mut`] and the ordering policy
/// into [`MovePicker::set_keys`], so the move list is never copied.
pub struct MovePicker<M> {
    moves: MoveBuf<M>,
    keys: SmallVec<[i32; 128]>,
    next: usize,
    sorted: bool,
    /// The move at `next` is the best of those left (selected, not handed out yet).
    ready: bool,
}

/// How many moves a keyed picker selects one by one before it sorts the rest.
const SELECTED_PICKS: usize = 3;

impl<M: Copy> Default for MovePicker<M> {
    fn default() -> Self {
        MovePicker::new()
    }
}

impl<M: Copy> MovePicker<M> {
    /// An empty picker, to be filled through [`MovePicker::moves_mut`].
    #[inline(always)]
    pub fn new() -> MovePicker<M> {
        MovePicker::unordered(MoveBuf::new())
    }

    /// Moves in the order given.
    #[inline(always)]
    pub fn unordered(moves: MoveBuf<M>) -> MovePicker<M> {
        MovePicker { moves, keys: SmallVec::new(), next: 0, sorted: false, ready: false }
    }

    /// Moves by decreasing `key`.
    #[inline]
    pub fn keyed(moves: MoveBuf<M>, key: impl Fn(M) -> i32) -> MovePicker<M> {
        let mut p = MovePicker::unordered(moves);
        p.set_keys(key);
        p
    }

    /// The move list, for a generator to fill: before any move is handed out, or later to add moves (keyed with
    /// [`MovePicker::set_keys`]) that are handed out among those left.
    #[inline(always)]
    pub fn moves_mut(&mut self) -> &mut MoveBuf<M> {
        self.sorted = false;
        self.ready = false;
        &mut self.moves
    }

    /// Keys the moves not keyed yet with `key`: moves are handed out by decreasing key, the first listed first
    /// among equals.
    #[inline(always)]
    pub fn set_keys(&mut self, key: impl Fn(M) -> i32) {
        let keyed = self.keys.len();
        self.keys.extend(self.moves[keyed..].iter().map(|&m| key(m)));
    }

    /// Whether no move keyed above `ceiling` is left.
    #[inline(always)]
    pub fn spent_above(&mut self, ceiling: i32) -> bool {
        !self.prepare() || self.keys[self.next] <= ceiling
    }

    /// How many moves in all.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there are no moves at all.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// How many moves are left.
    #[inline(always)]
    pub fn remaining(&self) -> usize {
        self.moves.len() - self.next
    }

    /// The next move with its key (0 for an unordered picker).
    #[inline]
    pub fn next_keyed(&mut self) -> Option<(M, i32)> {
        let m = self.next()?;
        Some((m, self.keys.get(self.next - 1).copied().unwrap_or(0)))
    }

    /// The next move.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<M> {
        if !self.prepare() {
            return None;
        }
        let i = self.next;
        self.ready = false;
        self.next += 1;
        Some(self.moves[i])
    }

    /// Brings the best move left to `next`; false when none is left.
    #[inline(always)]
    fn prepare(&mut self) -> bool {
        let i = self.next;
        if i >= self.moves.len() {
            return false;
        }
        if !self.keys.is_empty() && !self.sorted && !self.ready {
            if i < SELECTED_PICKS {
                self.select(i);
                self.ready = true;
            } else {
                self.sort_rest(i);
            }
        }
        true
    }

    /// Brings the first of the largest keys in `i..` to `i`, keeping the others in order.
    #[inline(always)]
    fn select(&mut self, i: usize) {
        let keys = &self.keys[i..self.moves.len()];
        let (mut best, mut best_key) = (0, keys[0]);
        for (j, &k) in keys.iter().enumerate().skip(1) {
            if k > best_key {
                (best, best_key) = (j, k);
            }
        }
        let best = i + best;
        if best != i {
            // Rotate rather than swap, so that moves with equal keys keep their generation order.
            self.moves[i..=best].rotate_right(1);
            self.keys[i..=best].rotate_right(1);
        }
    }

    /// Sorts `i..` by decreasing key, stably, by insertion: the lists are short (a few dozen moves), and no
    /// buffer is needed.
    #[cold]
    fn sort_rest(&mut self, i: usize) {
        let n = self.moves.len();
        let (keys, moves) = (&mut self.keys[i..n], &mut self.moves[i..n]);
        for a in 1..keys.len() {
            let (k, m) = (keys[a], moves[a]);
            let mut b = a;
            while b > 0 && keys[b - 1] < k {
                keys[b] = keys[b - 1];
                moves[b] = moves[b - 1];
                b -= 1;
            }
            keys[b] = k;
            moves[b] = m;
        }
        self.sorted = true;
    }
}
