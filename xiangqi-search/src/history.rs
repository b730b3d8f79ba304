//! What the ordering learns from cutoffs, as Stockfish's `history.h` keeps it: the killer moves of each ply, the
//! history of quiet moves (with gravity) and the countermoves, and, when the variant has them, the continuation
//! history (`techniques/continuation_history.rs`) and the capture history (`techniques/capture_history.rs`).
//! [`crate::Ordered`] keys the moves with it; [`crate::SearchMemory`] keeps it from one search of a game to the
//! next.

use crate::game::{FastPaths, Score, MAX_PLY};
use crate::techniques::correction_history::CorrectionHistory;

/// Killer moves, the history table and countermoves of [`crate::Ordered`]. Killers and countermoves are packed
/// moves ([`crate::GameTree::encode_move`], 0 for none); history and countermoves are indexed by move key.
#[derive(Debug, Default, Clone)]
pub struct OrderState {
    killers: Vec<[u16; 2]>,
    history: Vec<i32>,
    counter: Vec<u16>,
    /// The continuation history, when on: `[previous move's piece-to key + 1][piece-to key]` (row 0: no
    /// previous move, or a null move). Empty when off.
    cont: Vec<i32>,
    /// The capture history, when on: `[piece-to key][victim kind]`. Empty when off.
    capture: Vec<i32>,
    /// The piece-to key plus one of the move made at each ply of the current line (0: the null move), for the
    /// continuation history.
    line: Vec<u32>,
    piece_to_keys: usize,
    victim_kinds: usize,
    /// The correction history, when on: the soldiers' table, then the material's (see
    /// [`CorrectionHistory`]). Empty when off.
    correction: Vec<i32>,
    /// The bound of a history score ([`OrderState::HISTORY_MAX`], or `hscale`'s).
    bound: i32,
    /// `hscale`'s bonus per ply of depth and largest bonus; `None`: the spec's bonus, depth squared up to
    /// [`OrderState::MAX_BONUS`].
    linear: Option<(i32, i32)>,
}

impl OrderState {
    /// The bound of a history score, in either direction.
    pub const HISTORY_MAX: i32 = 1 << 20;
    /// The largest history bonus (a cutoff at depth 20 or more).
    pub const MAX_BONUS: i32 = 400;

    /// Empty tables for a game with `move_keys` distinct move keys.
    pub(crate) fn new(move_keys: usize) -> OrderState {
        OrderState {
            killers: vec![[0; 2]; MAX_PLY + 1],
            history: vec![0; move_keys],
            counter: vec![0; move_keys],
            cont: Vec::new(),
            capture: Vec::new(),
            line: vec![0; MAX_PLY + 2],
            piece_to_keys: 0,
            victim_kinds: 0,
            correction: Vec::new(),
            bound: Self::HISTORY_MAX,
            linear: None,
        }
    }

    /// Switches the continuation and capture histories on or off for a game `G` (when a search starts: their
    /// tables are allocated the first time they are switched on, and kept), and sets the histories' scale:
    /// `scale` is `hscale`'s `(bound, bonus per ply, largest bonus)`
    /// ([`crate::techniques::history_scale::HistoryScale::scale`]), `None` for the spec's.
    pub(crate) fn configure<G: FastPaths>(
        &mut self,
        continuation: bool,
        captures: bool,
        correction: bool,
        scale: Option<(i32, i32, i32)>,
    ) {
        (self.bound, self.linear) = match scale {
            Some((bound, per_ply, max)) => (bound.max(1), Some((per_ply, max.min(bound)))),
            None => (Self::HISTORY_MAX, None),
        };
        let (pt, vk) = (G::PIECE_TO_KEYS, G::VICTIM_KINDS);
        self.piece_to_keys = pt;
        self.victim_kinds = vk;
        let resize = |table: &mut Vec<i32>, on: bool, len: usize| {
            if !on {
                table.clear();
                table.shrink_to_fit();
            } else if table.len() != len {
                *table = vec![0; len];
            }
        };
        resize(&mut self.cont, continuation, (pt + 1) * pt);
        resize(&mut self.capture, captures, pt * vk);
        resize(&mut self.correction, correction, 4 * CorrectionHistory::SIZE);
    }

    /// The correction of the static evaluation of the position of `game` (0 when the correction history is off).
    #[inline(always)]
    pub(crate) fn correction<G: FastPaths>(&self, game: &G) -> Score {
        if self.correction.is_empty() {
            return 0;
        }
        let [a, b] = self.correction_slots(game);
        CorrectionHistory::correction(self.correction[a], self.correction[b])
    }

    /// Learns that a search of the position of `game` to `depth` found a value `diff` from its raw static
    /// evaluation.
    #[inline]
    pub(crate) fn learn_correction<G: FastPaths>(&mut self, game: &G, diff: Score, depth: i32) {
        if self.correction.is_empty() {
            return;
        }
        for slot in self.correction_slots(game) {
            CorrectionHistory::update(&mut self.correction[slot], diff, depth);
        }
    }

    /// The two entries of the correction history for the position of `game`.
    #[inline(always)]
    fn correction_slots<G: FastPaths>(&self, game: &G) -> [usize; 2] {
        let [soldiers, material] = game.structure_keys();
        let first = game.first_player_to_move();
        [
            CorrectionHistory::index(soldiers, first),
            2 * CorrectionHistory::SIZE + CorrectionHistory::index(material, first),
        ]
    }

    /// Whether the continuation history is on.
    #[inline(always)]
    pub(crate) fn continuation_on(&self) -> bool {
        !self.cont.is_empty()
    }

    /// Whether the capture history is on.
    #[inline(always)]
    pub(crate) fn captures_on(&self) -> bool {
        !self.capture.is_empty()
    }

    /// Notes the move `m` made at `ply` in `game` (before it is made; `None`: the null move), for the continuation
    /// history.
    #[inline(always)]
    pub(crate) fn note_move<G: FastPaths>(&mut self, game: &G, m: Option<G::Move>, ply: usize) {
        if self.continuation_on() && ply <= MAX_PLY {
            self.line[ply] = m.map_or(0, |m| game.piece_to_key(m) as u32 + 1);
        }
    }

    /// The row of the continuation history for the move made `back` plies before `ply` (row 0 when there is
    /// none).
    #[inline(always)]
    fn cont_row(&self, ply: usize, back: usize) -> usize {
        if ply >= back {
            self.line[ply - back] as usize * self.piece_to_keys
        } else {
            0
        }
    }

    /// The continuation history of the quiet move with piece-to key `pt` at `ply`: the sum over the moves one and
    /// two plies back (0 when the table is off).
    #[inline(always)]
    pub(crate) fn continuation(&self, ply: usize, pt: usize) -> i32 {
        if !self.continuation_on() {
            return 0;
        }
        self.cont[self.cont_row(ply, 1) + pt] + self.cont[self.cont_row(ply, 2) + pt]
    }

    /// The statistics of the quiet move `m` at `ply`: its history plus its continuation history.
    #[inline(always)]
    pub(crate) fn quiet_score<G: FastPaths>(&self, game: &G, m: G::Move, ply: usize) -> i32 {
        let h = self.history[G::move_key(m)];
        if self.continuation_on() {
            h + self.continuation(ply, game.piece_to_key(m))
        } else {
            h
        }
    }

    /// The capture history of the capture `m` (0 when the table is off).
    #[inline(always)]
    pub(crate) fn capture_score<G: FastPaths>(&self, game: &G, m: G::Move) -> i32 {
        if !self.captures_on() {
            return 0;
        }
        self.capture[game.piece_to_key(m) * self.victim_kinds + game.victim_kind(m)]
    }

    /// Starts from `saved`: the history and countermove tables carry over; killers, which belong to the plies of
    /// one search, start empty (as Stockfish keeps its history tables and clears its killers). Tables of another
    /// game, with other move keys, are ignored.
    pub(crate) fn import(&mut self, saved: &OrderState) {
        if saved.history.len() == self.history.len() {
            self.history.clone_from(&saved.history);
            self.counter.clone_from(&saved.counter);
            if saved.cont.len() == self.cont.len() {
                self.cont.clone_from(&saved.cont);
            }
            if saved.capture.len() == self.capture.len() {
                self.capture.clone_from(&saved.capture);
            }
            if saved.correction.len() == self.correction.len() {
                self.correction.clone_from(&saved.correction);
            }
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
        let (bonus, bound) = (self.bonus(depth), self.bound);
        Self::update(&mut self.history[k], bonus, bound);
        for &q in tried {
            Self::update(&mut self.history[G::move_key(q)], -bonus, bound);
        }
        if self.continuation_on() {
            let rows = [self.cont_row(ply, 1), self.cont_row(ply, 2)];
            for row in rows {
                Self::update(&mut self.cont[row + game.piece_to_key(m)], bonus, bound);
                for &q in tried {
                    Self::update(&mut self.cont[row + game.piece_to_key(q)], -bonus, bound);
                }
            }
        }
    }

    /// The history bonus of a cutoff with `depth` plies left: depth squared up to [`OrderState::MAX_BONUS`], or
    /// `hscale`'s linear bonus.
    #[inline(always)]
    fn bonus(&self, depth: i32) -> i32 {
        match self.linear {
            None => (depth * depth).min(Self::MAX_BONUS),
            Some((per_ply, max)) => (per_ply * depth).min(max),
        }
    }

    /// Adds `b` to a history score, with gravity: the score stays within `bound`.
    #[inline(always)]
    fn update(h: &mut i32, b: i32, bound: i32) {
        *h += (b as i64 - *h as i64 * b.abs() as i64 / bound as i64) as i32;
    }

    /// Learns from a node's cutoff for the capture history (when on): the capture `m` that caused it gains (when
    /// `m` is a capture), the captures in `tried` that failed before it lose.
    #[inline]
    pub(crate) fn learn_captures<G: FastPaths>(&mut self, game: &G, m: G::Move, depth: i32, tried: &[G::Move]) {
        if !self.captures_on() {
            return;
        }
        let (bonus, bound) = (self.bonus(depth), self.bound);
        let vk = self.victim_kinds;
        if !game.is_quiet(m) {
            Self::update(&mut self.capture[game.piece_to_key(m) * vk + game.victim_kind(m)], bonus, bound);
        }
        for &c in tried {
            Self::update(&mut self.capture[game.piece_to_key(c) * vk + game.victim_kind(c)], -bonus, bound);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::OrderState;

    /// Gravity keeps a score within its bound, whatever the bonuses, and a run of opposite bonuses brings it back
    /// across zero within a few updates at the bounded scale (a recent average), not at the spec's.
    #[test]
    fn gravity_bounds_scores_and_forgets_at_the_bounded_scale() {
        for (bound, bonus) in [(OrderState::HISTORY_MAX, OrderState::MAX_BONUS), (16384, 1600), (2048, 2048)] {
            let mut h = 0;
            for _ in 0..10_000 {
                OrderState::update(&mut h, bonus, bound);
                assert!((0..=bound).contains(&h), "{h} out of 0..={bound}");
            }
            let mut flips = 0;
            while h > 0 {
                OrderState::update(&mut h, -bonus, bound);
                assert!(h >= -bound);
                flips += 1;
            }
            if bound == 16384 {
                assert!(flips <= 10, "{flips} updates to forget at the bounded scale");
            } else if bound == OrderState::HISTORY_MAX {
                assert!(flips > 1000, "{flips} updates to forget at the spec's scale");
            }
        }
    }
}
