//! A lockless transposition table that threads share (Lazy SMP).
//!
//! Each entry is two `AtomicU64`: the packed data and the key XOR the data (Hyatt's lockless hashing). A torn write
//! by another thread makes the XOR check fail, so a reader never trusts a half-written entry; no lock is taken.
//! Entries live in clusters of four (one 64-byte cache line); a store replaces the entry of the same position, else
//! the one with the least depth, counting entries from older searches as shallower.

use crate::game::{Score, MATE_BOUND};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score says about the true score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (a fail high).
    Lower,
    /// The true score is at most this (a fail low).
    Upper,
}

/// A hit: what a previous search stored for this position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TtHit {
    /// The best move found, packed by the game (`Game::encode_move`), 0 for none.
    pub mv: u16,
    /// The score, already adjusted to the probing ply for mates.
    pub score: Score,
    /// The static evaluation stored with it.
    pub eval: Score,
    /// The depth it was searched to.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
}

#[derive(Default)]
#[repr(C)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

const CLUSTER: usize = 4;

/// Four entries on one cache line: the alignment makes a probe touch one line, not two.
#[derive(Default)]
#[repr(C, align(64))]
struct Cluster([Entry; CLUSTER]);

const _: () = assert!(std::mem::size_of::<Cluster>() == 64 && std::mem::align_of::<Cluster>() == 64);

/// The shared table. `&TranspositionTable` is `Sync`: threads probe and store without locks.
pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    generation: AtomicU8,
}

/// Scores are stored relative to the node (mate in n from here), and read back relative to the root.
#[inline(always)]
pub fn score_to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
#[inline(always)]
pub fn score_from_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

#[inline(always)]
fn pack(mv: u16, score: Score, eval: Score, depth: i32, bound: Bound, generation: u8) -> u64 {
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    mv as u64
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | ((depth.clamp(0, 255) as u64) << 48)
        | b << 56
        | ((generation as u64 & 0x3F) << 58)
}

#[inline(always)]
fn unpack(data: u64) -> (TtHit, u8) {
    let bound = match data >> 56 & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    (
        TtHit {
            mv: data as u16,
            score: (data >> 16) as u16 as i16 as Score,
            eval: (data >> 32) as u16 as i16 as Score,
            depth: (data >> 48 & 0xFF) as i32,
            bound,
        },
        (data >> 58) as u8,
    )
}

/// The memory for a transposition table could not be allocated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate {mb} MB for the transposition table")]
pub struct TableAllocError {
    /// The size asked for, in megabytes.
    pub mb: usize,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (1 to 65,536; at least one cluster). Aborts, as any allocation does, if
    /// the memory cannot be had: see [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`TranspositionTable::new`], or an error when the memory cannot be allocated (a `Hash` option larger than
    /// the machine), so that an engine can say so and keep its old table.
    ///
    /// ```
    /// use xiangqi_search::TranspositionTable;
    /// assert_eq!(TranspositionTable::try_new(1).unwrap().size_mb(), 1);
    /// ```
    pub fn try_new(mb: usize) -> Result<TranspositionTable, TableAllocError> {
        let mb = mb.clamp(1, 1 << 16);
        let n = ((mb << 20) / std::mem::size_of::<Cluster>()).max(1);
        let mut clusters = Vec::new();
        clusters.try_reserve_exact(n).map_err(|_| TableAllocError { mb })?;
        clusters.resize_with(n, Cluster::default);
        Ok(TranspositionTable { clusters, generation: AtomicU8::new(0) })
    }

    /// The size in megabytes.
    pub fn size_mb(&self) -> usize {
        (self.clusters.len() * std::mem::size_of::<Cluster>()) >> 20
    }

    /// Empties the table (`ucinewgame`, `Clear Hash`). Not to be called during a search.
    pub fn clear(&self) {
        for e in self.entries() {
            e.data.store(0, Ordering::Relaxed);
            e.key_xor_data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become easier to replace.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &[Entry; CLUSTER] {
        // Multiply-shift maps the key onto the clusters without a division.
        let i = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[i].0
    }

    /// The entry stored for `key`, its score adjusted to `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        for e in self.cluster(key) {
            let data = e.data.load(Ordering::Relaxed);
            if data != 0 && e.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                let (mut hit, _) = unpack(data);
                hit.score = score_from_tt(hit.score, ply);
                return Some(hit);
            }
        }
        None
    }

    /// Starts loading the cluster of `key` into the cache without waiting for it, so that a probe soon after
    /// finds it there (Stockfish prefetches the same way after each move). Only a hint: it changes no result.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "sse"))]
        safe_arch::prefetch_t0(self.cluster(key));
        #[cfg(not(all(any(target_arch = "x86", target_arch = "x86_64"), target_feature = "sse")))]
        let _ = key;
    }

    /// Stores a search result for `key` found at `ply`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, ply: usize, mv: u16, score: Score, eval: Score, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3F;
        let cluster = self.cluster(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in cluster.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            if data == 0 || e.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                victim = i;
                // Keep the old move when the new result has none.
                if mv == 0 && data != 0 {
                    let old = unpack(data).0;
                    let data = pack(old.mv, score_to_tt(score, ply), eval, depth, bound, generation);
                    Self::write(&cluster[i], key, data);
                    return;
                }
                break;
            }
            let (hit, g) = unpack(data);
            let age = (generation.wrapping_sub(g) & 0x3F) as i32;
            let worth = hit.depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let data = pack(mv, score_to_tt(score, ply), eval, depth, bound, generation);
        Self::write(&cluster[victim], key, data);
    }

    #[inline(always)]
    fn write(e: &Entry, key: u64, data: u64) {
        e.data.store(data, Ordering::Relaxed);
        e.key_xor_data.store(key ^ data, Ordering::Relaxed);
    }

    fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.clusters.iter().flat_map(|c| &c.0)
    }

    /// How full the table is, in permille, from the first thousand entries written by the current search (UCI
    /// `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3F;
        let n = (self.clusters.len() * CLUSTER).min(1000);
        let used = self
            .entries()
            .take(n)
            .filter(|e| {
                let d = e.data.load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MATE;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        tt.store(0xDEAD_BEEF, 0, 1234, -345, 17, 9, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF, 0).unwrap();
        assert_eq!((hit.mv, hit.score, hit.eval, hit.depth, hit.bound), (1234, -345, 17, 9, Bound::Lower));
        assert!(tt.probe(0xDEAD_BEEE, 0).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF, 0).is_none());
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        // Found at ply 3: mate 5 plies from the root, i.e. 2 plies from this node.
        tt.store(42, 3, 0, MATE - 5, 0, 4, Bound::Exact);
        // Reached again at ply 7: mate is still 2 plies from the node, 9 from the root.
        assert_eq!(tt.probe(42, 7).unwrap().score, MATE - 9);
        assert_eq!(score_from_tt(score_to_tt(-MATE + 6, 2), 2), -MATE + 6);
    }

    #[test]
    fn replacement_prefers_shallow_and_old_entries() {
        let tt = TranspositionTable::new(1);
        // Find five keys in the same cluster.
        let target = tt.cluster(1).as_ptr();
        let keys: Vec<u64> = (1..u64::MAX).filter(|&k| tt.cluster(k).as_ptr() == target).take(5).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, 0, 1, 0, 0, 10 + i as i32, Bound::Exact);
        }
        tt.store(keys[4], 0, 1, 0, 0, 20, Bound::Exact);
        assert!(tt.probe(keys[0], 0).is_none(), "the shallowest entry is replaced");
        assert!(tt.probe(keys[4], 0).is_some());
        assert!(tt.hashfull() > 0);
    }
}
