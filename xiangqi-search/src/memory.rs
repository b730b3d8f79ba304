//! What a search learns about move ordering, kept from one search of a game to the next.

use crate::history::Histories;
use std::sync::Mutex;

/// The history and countermove tables of each search thread, kept from one search to the next, as Stockfish keeps
/// its history tables until `ucinewgame` (killers, which belong to the plies of one search, start empty): the next move of the same game starts with what the last
/// search learnt instead of from nothing. A UCI engine keeps one for the game and clears it on `ucinewgame`; a
/// search given none starts fresh, so its node counts are those of a first search (reproducible).
///
/// Taken when a thread's search starts and put back when it ends: no lock is held during the search.
#[derive(Debug, Default)]
pub struct SearchMemory {
    slots: Mutex<Vec<Option<Histories>>>,
}

impl SearchMemory {
    /// An empty memory: the next search starts fresh.
    pub fn new() -> SearchMemory {
        SearchMemory::default()
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&self) {
        if let Ok(mut slots) = self.slots.lock() {
            slots.clear();
        }
    }

    /// What thread `thread` learnt in the last search, if anything.
    pub fn take(&self, thread: usize) -> Option<Histories> {
        self.slots.lock().ok()?.get_mut(thread)?.take()
    }

    /// Keeps what thread `thread` learnt.
    pub fn put(&self, thread: usize, state: Histories) {
        if let Ok(mut slots) = self.slots.lock() {
            if slots.len() <= thread {
                slots.resize_with(thread + 1, || None);
            }
            slots[thread] = Some(state);
        }
    }

    /// Whether anything is kept.
    pub fn is_empty(&self) -> bool {
        self.slots.lock().map_or(true, |s| s.iter().all(Option::is_none))
    }
}
