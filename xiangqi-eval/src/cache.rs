//! A small direct-mapped cache of full evaluations, keyed by the position's zobrist key.

/// Remembers full evaluations by zobrist key, so that a position met again (in the next iteration, through a
/// transposition, or as a quiescence leaf of several lines) is not evaluated twice.
///
/// Direct-mapped: one slot per index, a new entry replaces the old. Each slot packs the upper 48 bits of the key
/// with the 16-bit score, so a lookup is one load and one compare. A false hit needs two keys equal in 48 bits and
/// in the index bits, which is as rare as a transposition-table collision. Owned by one search thread: no atomics.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_eval::{Accumulator, EvalCache, Handcrafted};
/// let eval = Handcrafted::default();
/// let pos = Position::startpos();
/// let acc = Accumulator::new(&eval, &pos);
/// let mut cache = EvalCache::new(1 << 12);
/// assert_eq!(cache.probe(pos.key()), None);
/// let v = eval.evaluate_with(&pos, &acc);
/// cache.store(pos.key(), v);
/// assert_eq!(cache.probe(pos.key()), Some(v));
/// ```
#[derive(Debug, Clone)]
pub struct EvalCache {
    slots: Vec<u64>,
    mask: usize,
}

/// The number of slots of [`EvalCache::default`]: 2^16, 512 KiB, which stays in a core's L2 cache.
pub const DEFAULT_EVAL_CACHE_SLOTS: usize = 1 << 16;

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache::new(DEFAULT_EVAL_CACHE_SLOTS)
    }
}

impl EvalCache {
    /// A cache of `slots` entries, rounded up to a power of two (at least 1).
    pub fn new(slots: usize) -> EvalCache {
        let n = slots.max(1).next_power_of_two();
        EvalCache { slots: vec![0; n], mask: n - 1 }
    }

    /// The score stored for `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<i32> {
        let e = self.slots[key as usize & self.mask];
        // A slot is empty (0) or holds the key's upper 48 bits with the score; XOR leaves only the score bits set.
        let x = e ^ key;
        if e != 0 && x >> 16 == 0 {
            Some(x as u16 as i16 as i32)
        } else {
            None
        }
    }

    /// Remembers `score` (which must fit in 16 bits, as every evaluation does) for `key`.
    #[inline(always)]
    pub fn store(&mut self, key: u64, score: i32) {
        debug_assert!(i16::try_from(score).is_ok(), "evaluation {score} out of range");
        self.slots[key as usize & self.mask] = (key & !0xFFFF) | (score as i16 as u16 as u64 ^ (key & 0xFFFF));
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_round_trip_and_slots_are_replaced() {
        let mut c = EvalCache::new(16);
        let key = 0x1234_5678_9abc_def0u64;
        for score in [-30_000, -1, 0, 1, 29_999] {
            c.store(key, score);
            assert_eq!(c.probe(key), Some(score));
        }
        // Same slot (same low bits), different upper bits: replaces, and the old key misses.
        let other = key ^ (1 << 40);
        c.store(other, 7);
        assert_eq!(c.probe(other), Some(7));
        assert_eq!(c.probe(key), None);
        c.clear();
        assert_eq!(c.probe(other), None);
    }

    #[test]
    fn sizes_round_up_to_powers_of_two() {
        assert_eq!(EvalCache::new(0).slots.len(), 1);
        assert_eq!(EvalCache::new(1000).slots.len(), 1024);
    }
}
