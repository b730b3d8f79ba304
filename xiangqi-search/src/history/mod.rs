//! What the search learns from its cutoffs and results, as Stockfish's `history.h` keeps it: one type per table,
//! each owning its table, its index and its update rule.
//!
//! | table | type | indexed by | learns | read by |
//! | --- | --- | --- | --- | --- |
//! | main history | [`MainHistory`] | move key | a quiet cutoff: bonus to the move, malus to the quiet moves tried before | the ordering's quiet moves; `hlmr`, `hprune` |
//! | countermoves | [`CounterMoves`] | the opponent's last move | a quiet cutoff: the move refuting it | the ordering, after the killers |
//! | continuation history | [`ContinuationHistory`] | the moves one and two plies back, the move | a quiet cutoff, as the main history | the ordering's quiet moves; `hlmr`, `hprune` |
//! | capture history | [`CaptureHistory`] | piece, destination, victim | a cutoff: bonus to a capture that caused it, malus to the captures tried before | the ordering's good captures |
//! | correction history | [`CorrectionHistory`] | side, soldiers' or material's hash | a node's value against its static evaluation | the node's static evaluation |
//! | killers | [`Killers`] | ply | a quiet cutoff at the ply | the ordering, right after the good captures |
//!
//! The main, continuation and capture histories learn with gravity under one [`Scale`] (the spec's, or `hscale`'s).
//! [`Histories`] gathers the tables that outlive a search (the killers go with the plies, in the searcher's
//! stack, `stack.rs`, beside the line's continuation keys); a technique's file
//! (`techniques/capture_history.rs`, `continuation_history.rs`, `correction_history.rs`, `history_scale.rs`)
//! keeps its registry entry, its parameters and the decision of when its table is on and read, and this module
//! what the table is and how it learns. The split follows the two questions a reader asks: "what does `caphist`
//! do?" (its file) and "how does the capture history learn?" (here, next to the other tables and the gravity they
//! share). A table is a value with its rule, so [`Histories`] is a list of them plus what one cutoff teaches them
//! together (Stockfish's `update_all_stats`: `Histories::learn`, `Histories::learn_captures`), which the
//! node calls when the ordering learns ([`crate::OrderPolicy::learns`]); the ordering only reads them.

mod capture;
mod continuation;
mod correction;
mod countermoves;
mod killers;
mod main;
mod stats;

pub use capture::CaptureHistory;
pub use continuation::ContinuationHistory;
pub use correction::CorrectionHistory;
pub use countermoves::CounterMoves;
pub use killers::Killers;
pub use main::MainHistory;
pub use stats::{Bonus, Scale};

use crate::config::VariantConfig;
use crate::game::{FastPaths, Score};
use crate::registry::Params;
use crate::techniques::history_scale::{self, HistoryScale};
use crate::techniques::{capture_history, continuation_history, correction_history};

/// The history tables of a search, which [`crate::SearchMemory`] keeps from one search of a game to the next.
/// The continuation, capture and correction histories are empty while their techniques are off.
#[derive(Debug, Default, Clone)]
pub struct Histories {
    /// The main history of quiet moves.
    pub(crate) main: MainHistory,
    /// The countermoves.
    pub(crate) counter: CounterMoves,
    /// The continuation history (`conthist`).
    pub(crate) continuation: ContinuationHistory,
    /// The capture history (`caphist`).
    pub(crate) capture: CaptureHistory,
    /// The correction history (`corrhist`).
    pub(crate) correction: CorrectionHistory,
    /// How the main, continuation and capture histories learn (`hscale`).
    pub(crate) scale: Scale,
}

impl Histories {
    /// The main history.
    #[inline(always)]
    pub fn main(&self) -> &MainHistory {
        &self.main
    }

    /// The countermoves.
    #[inline(always)]
    pub fn counter(&self) -> &CounterMoves {
        &self.counter
    }

    /// The continuation history (empty while `conthist` is off).
    #[inline(always)]
    pub fn continuation(&self) -> &ContinuationHistory {
        &self.continuation
    }

    /// The capture history (empty while `caphist` is off).
    #[inline(always)]
    pub fn capture(&self) -> &CaptureHistory {
        &self.capture
    }

    /// Empty tables for a game with `move_keys` distinct move keys.
    pub(crate) fn new(move_keys: usize) -> Histories {
        Histories { main: MainHistory::new(move_keys), counter: CounterMoves::new(move_keys), ..Histories::default() }
    }

    /// Switches the continuation, capture and correction histories on or off for a game `G` as the variant
    /// `config` says (off without the engine's `additions`; a table is allocated when it is switched on, and kept
    /// while it stays on), and sets the scale (`hscale`'s, from `params`, or the spec's). Called when a search
    /// starts.
    pub(crate) fn configure<G: FastPaths>(&mut self, config: &VariantConfig, params: &Params, additions: bool) {
        let on = |id| additions && config.has(id);
        self.scale = Scale::new(on(history_scale::ID).then(|| HistoryScale::scale(params)));
        self.continuation.switch::<G>(on(continuation_history::ID));
        self.capture.switch::<G>(on(capture_history::ID));
        self.correction.switch(on(correction_history::ID));
    }

    /// Starts from `saved`, what an earlier search of the same game learnt: every table carries over (tables of
    /// another game, with other move keys, are ignored). A search imports before it configures: [`Histories::configure`]
    /// then keeps a table that stays on and frees one switched off.
    pub(crate) fn import(&mut self, saved: Histories) {
        if saved.main.len() == self.main.len() {
            self.main = saved.main;
            self.counter = saved.counter;
            self.continuation = saved.continuation;
            self.capture = saved.capture;
            self.correction = saved.correction;
        }
    }

    /// The statistics of the quiet move `m` after the moves with continuation keys `previous` (one and two plies
    /// back, as the searcher's stack keeps them): its main history plus its continuation history.
    #[inline(always)]
    pub fn quiet_score<G: FastPaths>(&self, game: &G, m: G::Move, previous: [u32; 2]) -> i32 {
        let h = self.main.get(G::move_key(m));
        if self.continuation.is_on() {
            h + self.continuation.get(previous, game.piece_to_key(m))
        } else {
            h
        }
    }

    /// The correction of the static evaluation of the position of `game` (0 when the correction history is off).
    #[inline(always)]
    pub(crate) fn correction<G: FastPaths>(&self, game: &G) -> Score {
        self.correction.correction(game)
    }

    /// Learns from the quiet move `m` that caused a beta cutoff with `depth` remaining after the moves with
    /// continuation keys `previous`, the quiet moves in `tried` having failed to: `m` becomes the countermove of
    /// the opponent's last move; its main and continuation histories gain and theirs lose. (The killers are the
    /// stack's.)
    #[inline]
    pub(crate) fn learn<G: FastPaths>(
        &mut self,
        game: &G,
        m: G::Move,
        depth: i32,
        previous: [u32; 2],
        tried: &[G::Move],
    ) {
        self.counter.set(game, G::encode_move(m));
        let bonus = self.scale.bonus(depth);
        self.main.update(G::move_key(m), bonus);
        for &q in tried {
            self.main.update(G::move_key(q), bonus.malus());
        }
        if self.continuation.is_on() {
            self.continuation.learn(game, previous, m, tried, bonus);
        }
    }

    /// Learns from a node's cutoff for the capture history (when on): the capture `m` that caused it gains (when
    /// `m` is a capture), the captures in `tried` that failed before it lose.
    #[inline]
    pub(crate) fn learn_captures<G: FastPaths>(&mut self, game: &G, m: G::Move, depth: i32, tried: &[G::Move]) {
        if !self.capture.is_on() {
            return;
        }
        let bonus = self.scale.bonus(depth);
        if !game.is_quiet(m) {
            self.capture.update(game, m, bonus);
        }
        for &c in tried {
            self.capture.update(game, c, bonus.malus());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Histories;
    use crate::game::{FastPaths, GameTree};
    use crate::params::Params;
    use crate::VariantConfig;
    use xiangqi_core::Position;

    /// What a search of a game learnt in every table reaches the next search of the game, which imports it into
    /// fresh tables before it switches its techniques on (as a run does); a table the next search switches off is
    /// freed, and tables of another game are ignored.
    #[test]
    fn every_table_carries_over_to_the_next_search_of_a_game() {
        let config: VariantConfig = "engine+conthist+caphist+corrhist".parse().unwrap();
        let params = Params::default();
        let game = Position::startpos();
        let mut first = Histories::new(Position::MOVE_KEYS);
        first.configure::<Position>(&config, &params, true);
        let quiet = game.legal_moves()[0];
        let tried = [game.legal_moves()[1]];
        first.learn(&game, quiet, 6, [3, 0], &tried);
        first.correction.update(&game, 50, 8);
        let mut next = Histories::new(Position::MOVE_KEYS);
        next.import(first.clone());
        next.configure::<Position>(&config, &params, true);
        let pt = game.piece_to_key(quiet);
        assert!(next.main.get(Position::move_key(quiet)) > 0);
        assert_eq!(next.continuation.get([3, 0], pt), first.continuation.get([3, 0], pt));
        assert!(next.continuation.get([3, 0], pt) > 0);
        assert_eq!(next.correction(&game), first.correction(&game));
        assert!(next.correction(&game) > 0);
        let mut off = Histories::new(Position::MOVE_KEYS);
        off.import(first.clone());
        off.configure::<Position>(&"engine".parse().unwrap(), &params, true);
        assert!(!off.continuation.is_on() && !off.capture.is_on() && !off.correction.is_on());
        let mut other = Histories::new(7);
        other.import(first.clone());
        assert!(!other.continuation.is_on());
    }
}
