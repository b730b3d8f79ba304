//! The correction history.

use super::stats::switch;
use crate::game::{FastPaths, Score};

/// The correction history (Stockfish's `CorrectionHistory`): two tables, indexed by the side to move and a hash of
/// the soldiers' structure, and by the side to move and a hash of the material
/// ([`FastPaths::structure_keys`]), each entry a running average of how far searches found the value of such
/// positions from their static evaluation. The correction of a position is the mean of its two entries. Empty
/// (and read as 0) when the variant does not have it; `corrhist`
/// ([`crate::techniques::correction_history::CorrectionHistory`]) says when it is on and which results it learns
/// from.
#[derive(Debug, Clone, Default)]
pub struct CorrectionHistory {
    /// The soldiers' table (`2 * SIZE` entries, by side), then the material's.
    table: Vec<i32>,
}

impl CorrectionHistory {
    /// Entries per table and side (a power of two).
    pub const SIZE: usize = 1 << 14;
    /// An entry holds the error in units of 1/`GRAIN` of the evaluation's unit.
    pub const GRAIN: i32 = 256;
    /// The largest correction, in the evaluation's unit.
    pub const LIMIT: i32 = 128;
    /// The weights of a new observation: `min(depth + 1, MAX_WEIGHT)` out of [`CorrectionHistory::SCALE`].
    pub const MAX_WEIGHT: i32 = 16;
    /// The denominator of the running average.
    pub const SCALE: i32 = 256;

    /// Switches the tables on (zeroed, unless they are on already) or off (freed).
    pub(crate) fn switch(&mut self, on: bool) {
        switch(&mut self.table, on, 4 * Self::SIZE);
    }

    /// Whether the tables are on.
    #[inline(always)]
    pub fn is_on(&self) -> bool {
        !self.table.is_empty()
    }

    /// The index of `key` for the side to move (`first`: the first player) in one table.
    #[inline(always)]
    pub fn index(key: u64, first: bool) -> usize {
        (key as usize & (Self::SIZE - 1)) | (first as usize * Self::SIZE)
    }

    /// The two entries of the position of `game`.
    #[inline(always)]
    fn slots<G: FastPaths>(game: &G) -> [usize; 2] {
        let [soldiers, material] = game.structure_keys();
        let first = game.first_player_to_move();
        [Self::index(soldiers, first), 2 * Self::SIZE + Self::index(material, first)]
    }

    /// The correction of the static evaluation of the position of `game`, in the evaluation's unit (0 when off).
    #[inline(always)]
    pub fn correction<G: FastPaths>(&self, game: &G) -> Score {
        if !self.is_on() {
            return 0;
        }
        let [a, b] = Self::slots(game);
        (self.table[a] + self.table[b]) / (2 * Self::GRAIN)
    }

    /// Learns that a search of the position of `game` to `depth` found a value `diff` from its raw static
    /// evaluation (nothing when off).
    #[inline]
    pub(crate) fn update<G: FastPaths>(&mut self, game: &G, diff: Score, depth: i32) {
        if !self.is_on() {
            return;
        }
        for slot in Self::slots(game) {
            Self::average(&mut self.table[slot], diff, depth);
        }
    }

    /// Moves an entry towards the error `diff` (value minus static evaluation) seen at `depth`: a running average
    /// weighted by depth, the error clamped to [`CorrectionHistory::LIMIT`].
    #[inline(always)]
    pub fn average(entry: &mut i32, diff: Score, depth: i32) {
        let w = (depth + 1).min(Self::MAX_WEIGHT);
        let target = diff.clamp(-Self::LIMIT, Self::LIMIT) * Self::GRAIN;
        *entry = (*entry * (Self::SCALE - w) + target * w) / Self::SCALE;
    }
}

#[cfg(test)]
mod tests {
    use super::CorrectionHistory;

    /// An entry moves toward repeated errors and stays within the limit, however large the error.
    #[test]
    fn the_average_approaches_the_error_within_the_limit() {
        let mut e = 0;
        for _ in 0..200 {
            CorrectionHistory::average(&mut e, 40, 20);
        }
        assert!((39 * CorrectionHistory::GRAIN..=40 * CorrectionHistory::GRAIN).contains(&e), "{e}");
        for _ in 0..400 {
            CorrectionHistory::average(&mut e, -10_000, 20);
        }
        let limit = CorrectionHistory::LIMIT * CorrectionHistory::GRAIN;
        assert!((-limit..-limit + CorrectionHistory::GRAIN).contains(&e), "{e}");
    }
}
