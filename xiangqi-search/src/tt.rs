//! A lockless transposition table that threads share (Lazy SMP).
//!
//! Each entry is two `AtomicU64`: the packed data and the key XOR the data (Hyatt's lockless hashing). A torn write
//! by another thread makes the XOR check fail, so a reader never trusts a half-written entry; no lock is taken.
//! Entries live in clusters of four (one 64-byte cache line); a store replaces the entry of the same position, else
//! the one with the least depth, counting entries from older searches as shallower.

use crate::game::{Score, MATE_BOUND};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Weak};
use zerocopy::FromZeros;

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

/// What the table holds for a position: what a search stores ([`TranspositionTable::store`]) and a later probe
/// reads back (a hit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TtHit {
    /// The best move found, packed by the game (`GameTree::encode_move`), 0 for none.
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

/// One entry: the key XOR the data, then the data, as two atomic words.
type Entry = [AtomicU64; 2];

/// Entries per cluster: four entries of 16 bytes fill one 64-byte cache line.
const CLUSTER: usize = 4;

/// The cache line a cluster is aligned to.
const LINE: usize = 64;

const _: () = assert!(std::mem::size_of::<[Entry; CLUSTER]>() == LINE);

/// The shared table. `&TranspositionTable` is `Sync`: threads probe and store without locks.
///
/// The memory comes zeroed from the allocator (`calloc`, which for a large table maps the operating system's
/// zero pages and touches nothing), so a table of gigabytes is ready at once; its pages are faulted in as the
/// search writes to them. Cluster `i` is entries `base + 4i .. base + 4i + 4`, where `base` puts the first
/// cluster on a cache line, so that a probe touches one line.
///
/// A page is faulted in by the first write to it, which on a fresh table would fall in the middle of a search
/// (a search of a few seconds writes to most pages of even a large table, each fault costing microseconds). An
/// engine therefore faults the pages in before searching: [`TranspositionTable::prefault`] on all threads at
/// once, or [`TranspositionTable::prefault_in_background`] while it answers its GUI.
pub struct TranspositionTable {
    entries: Box<[Entry]>,
    /// The first entry of the first cluster.
    base: usize,
    /// The number of clusters.
    clusters: usize,
    generation: AtomicU8,
    /// Nothing was stored since the table was made or cleared: every entry is zero, and clearing has nothing to do.
    fresh: AtomicBool,
}

/// Entries per 4 KB page: touching one of them faults the page in.
const ENTRIES_PER_PAGE: usize = 4096 / std::mem::size_of::<Entry>();

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
        let clusters = ((mb << 20) / LINE).max(1);
        // Room for the alignment: at most three entries before the first line boundary.
        let len = clusters * CLUSTER + CLUSTER - 1;
        let entries = <[Entry]>::new_box_zeroed_with_elems(len).map_err(|_| TableAllocError { mb })?;
        let misalign = entries.as_ptr() as usize % LINE;
        let size = std::mem::size_of::<Entry>();
        // An allocation on a 16-byte boundary (every large one) can be moved to the line; another stays as it is.
        let base = if misalign % size == 0 { (LINE - misalign) % LINE / size } else { 0 };
        Ok(TranspositionTable { entries, base, clusters, generation: AtomicU8::new(0), fresh: AtomicBool::new(true) })
    }

    /// Faults every page of the table in now, on all the machine's threads, so that no search pays for it (a
    /// table of 8 GB takes a few seconds). The entries keep their values: each page gets an atomic write of
    /// nothing (`fetch_or(0)`), which a concurrent search cannot lose a store to.
    pub fn prefault(&self) {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let chunk = self.entries.len().div_ceil(threads).max(1);
        std::thread::scope(|scope| {
            for part in self.entries.chunks(chunk) {
                scope.spawn(move || touch_pages(part));
            }
        });
    }

    /// [`TranspositionTable::prefault`] on one background thread, so that a UCI engine answers `readyok` at once
    /// and its first search finds the table (mostly) faulted in. The thread holds the table only a few
    /// megabytes at a time: once the last other owner drops it, the thread stops and the memory is freed.
    pub fn prefault_in_background(self: &Arc<Self>) {
        let weak: Weak<TranspositionTable> = Arc::downgrade(self);
        let len = self.entries.len();
        let spawned = std::thread::Builder::new().name("tt-prefault".to_owned()).spawn(move || {
            const CHUNK: usize = 1 << 20; // entries: 16 MB
            let mut start = 0;
            while start < len {
                let Some(tt) = weak.upgrade() else { return };
                touch_pages(&tt.entries[start..(start + CHUNK).min(len)]);
                start += CHUNK;
            }
        });
        // Without a thread the pages are simply faulted in by the search.
        drop(spawned);
    }

    /// The size in megabytes.
    pub fn size_mb(&self) -> usize {
        (self.clusters * LINE) >> 20
    }

    /// Empties the table (`ucinewgame`, `Clear Hash`). Not to be called during a search.
    ///
    /// The work is split over the machine's threads, and an entry that is already empty is only read, not
    /// written: a page the search never wrote to stays unmapped (or mapped to the shared zero page), so clearing a
    /// new table costs little time and no memory.
    pub fn clear(&self) {
        if self.fresh.load(Ordering::Relaxed) {
            return;
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let chunk = self.entries.len().div_ceil(threads).max(1);
        std::thread::scope(|scope| {
            for part in self.entries.chunks(chunk) {
                scope.spawn(move || {
                    for e in part {
                        if e[1].load(Ordering::Relaxed) != 0 || e[0].load(Ordering::Relaxed) != 0 {
                            e[1].store(0, Ordering::Relaxed);
                            e[0].store(0, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        self.generation.store(0, Ordering::Relaxed);
        self.fresh.store(true, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become easier to replace.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &[Entry; CLUSTER] {
        // Multiply-shift maps the key onto the clusters without a division.
        let i = ((key as u128 * self.clusters as u128) >> 64) as usize;
        let start = self.base + i * CLUSTER;
        self.entries[start..start + CLUSTER].try_into().expect("a cluster is four entries")
    }

    /// The entry stored for `key`, its score adjusted to `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        for e in self.cluster(key) {
            let data = e[1].load(Ordering::Relaxed);
            if data != 0 && e[0].load(Ordering::Relaxed) ^ data == key {
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

    /// Stores a search result `e` for `key` found at `ply` (its score from the view of that ply).
    #[inline]
    pub fn store(&self, key: u64, ply: usize, e: TtHit) {
        let TtHit { mv, score, eval, depth, bound } = e;
        if self.fresh.load(Ordering::Relaxed) {
            self.fresh.store(false, Ordering::Relaxed);
        }
        let generation = self.generation.load(Ordering::Relaxed) & 0x3F;
        let cluster = self.cluster(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in cluster.iter().enumerate() {
            let data = e[1].load(Ordering::Relaxed);
            if data == 0 || e[0].load(Ordering::Relaxed) ^ data == key {
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
        e[1].store(data, Ordering::Relaxed);
        e[0].store(key ^ data, Ordering::Relaxed);
    }

    /// The entries of the clusters, in order.
    fn entries(&self) -> &[Entry] {
        &self.entries[self.base..self.base + self.clusters * CLUSTER]
    }

    /// How full the table is, in permille, from the first thousand entries written by the current search (UCI
    /// `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3F;
        let n = (self.clusters * CLUSTER).min(1000);
        let used = self.entries()[..n]
            .iter()
            .filter(|e| {
                let d = e[1].load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// Writes nothing, atomically, to one entry of each page of `entries`, which faults the page in.
fn touch_pages(entries: &[Entry]) {
    for e in entries.iter().step_by(ENTRIES_PER_PAGE) {
        e[1].fetch_or(0, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MATE;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        tt.store(0xDEAD_BEEF, 0, TtHit { mv: 1234, score: -345, eval: 17, depth: 9, bound: Bound::Lower });
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
        tt.store(42, 3, TtHit { mv: 0, score: MATE - 5, eval: 0, depth: 4, bound: Bound::Exact });
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
            tt.store(k, 0, TtHit { mv: 1, score: 0, eval: 0, depth: 10 + i as i32, bound: Bound::Exact });
        }
        tt.store(keys[4], 0, TtHit { mv: 1, score: 0, eval: 0, depth: 20, bound: Bound::Exact });
        assert!(tt.probe(keys[0], 0).is_none(), "the shallowest entry is replaced");
        assert!(tt.probe(keys[4], 0).is_some());
        assert!(tt.hashfull() > 0);
    }

    #[test]
    fn clusters_sit_on_cache_lines() {
        for mb in [1, 3, 64] {
            let tt = TranspositionTable::new(mb);
            assert_eq!(tt.size_mb(), mb);
            for key in [0, 1, u64::MAX / 3, u64::MAX] {
                assert_eq!(tt.cluster(key).as_ptr() as usize % LINE, 0, "{mb} MB, key {key}");
            }
            // The last cluster is inside the allocation.
            assert!(tt.base + tt.clusters * CLUSTER <= tt.entries.len());
        }
    }

    #[test]
    fn prefaulting_and_clearing_keep_what_they_should() {
        let tt = Arc::new(TranspositionTable::new(2));
        tt.store(77, 0, TtHit { mv: 5, score: 10, eval: 0, depth: 3, bound: Bound::Exact });
        // Faulting the pages in changes no entry, in the foreground or in the background.
        tt.prefault();
        tt.prefault_in_background();
        assert_eq!(tt.probe(77, 0).map(|h| h.score), Some(10));
        // A store after a clear is cleared by the next clear.
        tt.clear();
        assert!(tt.probe(77, 0).is_none());
        tt.clear();
        tt.store(78, 0, TtHit { mv: 5, score: 11, eval: 0, depth: 3, bound: Bound::Exact });
        assert!(tt.probe(78, 0).is_some());
        tt.clear();
        assert!(tt.probe(78, 0).is_none());
    }
}
