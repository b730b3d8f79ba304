//! Quiescence pruning.

/// In quiescence, captures that likely lose material (a negative capture key: a more valuable piece taking a
/// defended one) are not searched; the keys come largest first, so the first such capture ends the node's moves.
/// Source: Stockfish's SEE pruning in qsearch.
#[derive(Debug, Clone, Copy, Default)]
pub struct QsPruning;

impl QsPruning {
    /// Whether a capture keyed `key` (see [`crate::GameTree::capture_key`]) is skipped.
    #[inline(always)]
    pub fn skips(key: i32) -> bool {
        key < 0
    }
}
