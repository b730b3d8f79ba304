//! Late move reductions: how many plies shallower a late quiet move is searched first.

/// Late move reduction for the `index`-th move at `depth`: grows with the logarithms of both, less at PV nodes.
/// (The search reads it from a table: [`LmrTable`].)
pub fn lmr_reduction(depth: i32, index: usize, pv_node: bool) -> i32 {
    let r = 0.5 + (depth.max(1) as f64).ln() * (index.max(1) as f64).ln() / 2.25;
    let r = r as i32 - pv_node as i32;
    r.clamp(0, (depth - 2).max(0))
}

/// [`lmr_reduction`] tabulated for depths and move indices below 64 (larger ones use the last row and column),
/// so the node loop computes no logarithm.
#[derive(Debug, Clone)]
pub struct LmrTable(Box<[[[u8; 64]; 64]; 2]>);

impl Default for LmrTable {
    fn default() -> LmrTable {
        let mut t = Box::new([[[0u8; 64]; 64]; 2]);
        for (pv, rows) in t.iter_mut().enumerate() {
            for (depth, row) in rows.iter_mut().enumerate() {
                for (index, r) in row.iter_mut().enumerate() {
                    *r = lmr_reduction(depth as i32, index, pv == 1) as u8;
                }
            }
        }
        LmrTable(t)
    }
}

impl LmrTable {
    /// The reduction of the `index`-th move at `depth` (equal to [`lmr_reduction`] below 64).
    #[inline(always)]
    pub fn get(&self, depth: i32, index: usize, pv_node: bool) -> i32 {
        let d = (depth.max(0) as usize).min(63);
        let r = self.0[pv_node as usize][d][index.min(63)] as i32;
        r.min(depth - 2)
    }
}

/// Late move reductions: late quiet moves that give no check, at a node not in check, are searched first with a
/// zero window [`LmrTable::get`] plies shallower, and again at full depth only when that beats alpha (the child
/// policy's reduced probe). Conditions: depth at least [`LateMoveReductions::MIN_DEPTH`], the move at least the
/// [`LateMoveReductions::MIN_INDEX`]-th. Source: Stockfish's logarithmic reduction formula.
#[derive(Debug, Clone, Copy, Default)]
pub struct LateMoveReductions;

impl LateMoveReductions {
    /// The shallowest node that reduces.
    pub const MIN_DEPTH: i32 = 3;
    /// The first move (counted from 0) that may be reduced.
    pub const MIN_INDEX: usize = 3;

    /// Whether the `index`-th move at a node with `depth` plies left is reduced.
    #[inline(always)]
    pub fn reduces(depth: i32, index: usize, quiet: bool, gives_check: bool, in_check: bool) -> bool {
        depth >= Self::MIN_DEPTH && index >= Self::MIN_INDEX && quiet && !gives_check && !in_check
    }
}
