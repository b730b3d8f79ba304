//! Late move reductions: late quiet moves are searched shallower first. Everything of the technique is here: its
//! entry in the registry, its parameters, which moves it reduces and by how much (the node's reduce hook), and
//! the reduced probe the child search makes first (the child search's hook, [`LateMoveReductions::probe`]).

use crate::config::VariantConfig;
use crate::game::Score;
use crate::policy::{ChildNode, NodeKind, Observer, Search};
use crate::registry::{Counter, Group, Reach, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "lmr",
    aliases: &[],
    summary: "late move reductions",
    group: Group::Addition,
    reach: Reach::Negamax,
    needs: Some("order"),
    in_engine: true,
    counters: &[REDUCTIONS, RESEARCHES],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(5);

/// Late moves searched with a reduction.
pub const REDUCTIONS: Counter = Counter::new(ID, 0, "lmr_reductions", "late moves searched with a reduction");

/// Reduced moves that beat alpha and were searched again at full depth.
pub const RESEARCHES: Counter =
    Counter::new(ID, 1, "lmr_researches", "reduced moves that beat alpha and were searched again at full depth");

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
/// zero window [`LmrTable::get`] plies shallower, and again at full depth only when that beats alpha. Conditions:
/// depth at least [`LateMoveReductions::MIN_DEPTH`], the move at least the [`LateMoveReductions::MIN_INDEX`]-th,
/// the variant ordering its moves (`needs: order`: late moves are only likely bad when good ones come first).
///
/// Hooks: the negamax node's reduce hook, after the move is made, asks [`LateMoveReductions::reduction`]; the
/// child search (full window or PVS) then makes [`LateMoveReductions::probe`] first. Source: Stockfish's
/// logarithmic reduction formula.
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

    /// The node's reduce hook: the reduction of the `index`-th move, 0 when the technique is off or the move is not
    /// reduced.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn reduction(
        config: &VariantConfig,
        table: &LmrTable,
        depth: i32,
        index: usize,
        quiet: bool,
        gives_check: bool,
        in_check: bool,
        pv_node: bool,
    ) -> i32 {
        if config.has(ID) && Self::reduces(depth, index, quiet, gives_check, in_check) {
            table.get(depth, index, pv_node)
        } else {
            0
        }
    }

    /// The child search's hook: the reduced zero-window probe of a late move, `Some(score)` when it fails low (the
    /// full search is then skipped), `None` when the move has no reduction or beat alpha.
    #[inline(always)]
    pub fn probe<S: Search>(s: &mut S, c: &ChildNode) -> Option<Score> {
        if c.reduction <= 0 {
            return None;
        }
        s.stats().bump(REDUCTIONS);
        let depth = c.depth - 1 - c.reduction;
        s.observer().enter(c.ply + 1, -c.alpha - 1, -c.alpha, depth, NodeKind::Reduced);
        let score = -s.negamax(depth, -c.alpha - 1, -c.alpha, c.ply + 1, true);
        if score <= c.alpha || s.stopped() {
            return Some(score);
        }
        s.stats().bump(RESEARCHES);
        None
    }
}
