//! The search's state per ply of the current line, as Stockfish's `Stack` (`search.h`).

use crate::game::{Score, INFINITY, MAX_PLY};
use crate::history::Killers;
use std::ops::{Index, IndexMut};

/// The search's state at one ply of the current line: what a node leaves for its children and what they read
/// back. One entry per ply, allocated with the searcher and kept from one search to the next (as the killers
/// were when the ordering held them).
#[derive(Debug, Clone, Copy)]
pub(crate) struct StackEntry {
    /// Whether the side to move is in check, set by the parent after its move (the engine's additions need it at
    /// every node; computing it once saves a second attack test).
    pub(crate) in_check: bool,
    /// The static evaluation (`-INFINITY` in check, or without the engine's additions), for the improving signal.
    pub(crate) static_eval: Score,
    /// The move a singular extension's search leaves out (packed; 0 for none).
    pub(crate) excluded: u16,
    /// The length of the principal variation found from this ply (in the searcher's triangular `pv` table).
    pub(crate) pv_len: usize,
    /// The quiet moves that last caused a cutoff at this ply.
    pub(crate) killers: Killers,
    /// The move made from this ply, as the continuation history keys a previous move
    /// ([`crate::history::ContinuationHistory::key`]; 0 for the null move). Written only while that table is on
    /// (Stockfish's `currentMove` and `continuationHistory` pointer in one).
    pub(crate) current: u32,
}

impl StackEntry {
    /// A ply not reached yet.
    const EMPTY: StackEntry = StackEntry {
        in_check: false,
        static_eval: -INFINITY,
        excluded: 0,
        pv_len: 0,
        killers: Killers::NONE,
        current: 0,
    };
}

/// The entries of the plies `0..=MAX_PLY + 1` ([`StackEntry`]), from the root down.
#[derive(Debug, Clone)]
pub(crate) struct Stack(Vec<StackEntry>);

impl Stack {
    /// Empty entries for every ply.
    pub(crate) fn new() -> Stack {
        Stack(vec![StackEntry::EMPTY; MAX_PLY + 2])
    }

    /// The killers of `ply`.
    #[inline(always)]
    pub(crate) fn killers(&self, ply: usize) -> [u16; 2] {
        self.0[ply.min(MAX_PLY)].killers.moves()
    }

    /// Learns that the quiet move `code` caused a cutoff at `ply` (its first killer now).
    #[inline(always)]
    pub(crate) fn learn_killer(&mut self, ply: usize, code: u16) {
        self.0[ply.min(MAX_PLY)].killers.push(code);
    }

    /// Notes the continuation key of the move made from `ply` (see [`StackEntry::current`]).
    #[inline(always)]
    pub(crate) fn set_current(&mut self, ply: usize, key: u32) {
        if ply <= MAX_PLY {
            self.0[ply].current = key;
        }
    }

    /// The continuation keys of the moves made one and two plies before `ply` (0 where there is none), as the
    /// continuation history reads them.
    #[inline(always)]
    pub(crate) fn previous(&self, ply: usize) -> [u32; 2] {
        let back = |b: usize| if ply >= b { self.0[ply - b].current } else { 0 };
        [back(1), back(2)]
    }
}

impl Index<usize> for Stack {
    type Output = StackEntry;

    #[inline(always)]
    fn index(&self, ply: usize) -> &StackEntry {
        &self.0[ply]
    }
}

impl IndexMut<usize> for Stack {
    #[inline(always)]
    fn index_mut(&mut self, ply: usize) -> &mut StackEntry {
        &mut self.0[ply]
    }
}
