//! Late move reductions: late quiet moves are searched shallower first. Everything of the technique is here: its
//! entry in the registry, its parameters, which moves it reduces and by how much (the node's reduce hook), and
//! the reduced probe the child search makes first (the child search's hook, [`LateMoveReductions::probe`]).

use crate::config::VariantConfig;
use crate::game::Score;
use crate::policy::{ChildNode, Node, NodeKind, Observer, Search};
use crate::registry::{Counter, Forms, Group, Param, Params, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "lmr",
    aliases: &[],
    summary: "late move reductions",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("order"),
    in_engine: true,
    counters: &[REDUCTIONS, RESEARCHES],
    params: &[
        LateMoveReductions::BASE,
        LateMoveReductions::DIVISOR,
        LateMoveReductions::MIN_DEPTH,
        LateMoveReductions::MIN_INDEX,
    ],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(5);

/// Late moves searched with a reduction.
pub const REDUCTIONS: Counter = Counter::new(ID, 0, "lmr_reductions", "late moves searched with a reduction");

/// Reduced moves that beat alpha and were searched again at full depth.
pub const RESEARCHES: Counter =
    Counter::new(ID, 1, "lmr_researches", "reduced moves that beat alpha and were searched again at full depth");

/// Late move reduction for the `index`-th move at `depth` with the compiled parameters: grows with the logarithms
/// of both, less at PV nodes. (The search reads it from a table: [`LmrTable`].)
pub fn lmr_reduction(depth: i32, index: usize, pv_node: bool) -> i32 {
    lmr_reduction_with(&Params::default(), depth, index, pv_node)
}

/// [`lmr_reduction`] with the parameters `p`: `BASE / 100 + ln(depth) ln(index) / (DIVISOR / 100)`, one ply less
/// at PV nodes, between 0 and `depth - 2`.
pub fn lmr_reduction_with(p: &Params, depth: i32, index: usize, pv_node: bool) -> i32 {
    let (base, divisor) = (p.get(LateMoveReductions::BASE) as f64 / 100.0, p.get(LateMoveReductions::DIVISOR) as f64);
    let r = base + (depth.max(1) as f64).ln() * (index.max(1) as f64).ln() / (divisor / 100.0);
    let r = r as i32 - pv_node as i32;
    r.clamp(0, (depth - 2).max(0))
}

/// [`lmr_reduction_with`] tabulated for depths and move indices below 64 (larger ones use the last row and
/// column), so the node loop computes no logarithm, with the parameters' first depth and first move that reduce.
/// Built when the searcher is given its parameters.
#[derive(Debug, Clone)]
pub struct LmrTable {
    table: Box<[[[u8; 64]; 64]; 2]>,
    min_depth: i32,
    min_index: usize,
}

impl Default for LmrTable {
    fn default() -> LmrTable {
        LmrTable::new(&Params::default())
    }
}

impl LmrTable {
    /// The table of the parameters `p`.
    pub fn new(p: &Params) -> LmrTable {
        let mut t = Box::new([[[0u8; 64]; 64]; 2]);
        for (pv, rows) in t.iter_mut().enumerate() {
            for (depth, row) in rows.iter_mut().enumerate() {
                for (index, r) in row.iter_mut().enumerate() {
                    *r = lmr_reduction_with(p, depth as i32, index, pv == 1).clamp(0, 255) as u8;
                }
            }
        }
        let min_index = p.get(LateMoveReductions::MIN_INDEX).max(0) as usize;
        LmrTable { table: t, min_depth: p.get(LateMoveReductions::MIN_DEPTH), min_index }
    }

    /// The reduction of the `index`-th move at `depth` (equal to [`lmr_reduction`] below 64).
    #[inline(always)]
    pub fn get(&self, depth: i32, index: usize, pv_node: bool) -> i32 {
        let d = (depth.max(0) as usize).min(63);
        let r = self.table[pv_node as usize][d][index.min(63)] as i32;
        r.min(depth - 2)
    }
}

/// Late move reductions: late quiet moves that give no check, at a node not in check, are searched first with a
/// zero window [`LmrTable::get`] plies shallower, and again at full depth only when that beats alpha. Conditions:
/// depth at least [`LateMoveReductions::MIN_DEPTH`], the move at least the [`LateMoveReductions::MIN_INDEX`]-th
/// (both read from the table, built from the parameters),
/// the variant ordering its moves (`needs: order`: late moves are only likely bad when good ones come first).
///
/// Hooks: the negamax node's reduce hook, after the move is made, asks [`LateMoveReductions::reduction`]; the
/// child search (full window or PVS) then makes [`LateMoveReductions::probe`] first. Source: Stockfish's
/// logarithmic reduction formula.
#[derive(Debug, Clone, Copy, Default)]
pub struct LateMoveReductions;

impl LateMoveReductions {
    /// The shallowest node that reduces.
    pub const MIN_DEPTH: Param =
        Param::new(ID, 0, "LmrMinDepth", 3, 1..=16, 0.5, "LMR: the shallowest node that reduces.");
    /// The first move (counted from 0) that may be reduced.
    pub const MIN_INDEX: Param = Param::new(ID, 1, "LmrMinIndex", 3, 1..=32, 0.5, "LMR: the first move reduced.");
    /// The reduction's constant term, in hundredths of a ply.
    pub const BASE: Param = Param::new(ID, 2, "LmrBase", 50, -200..=300, 10.0, "LMR: constant term, in hundredths.");
    /// The divisor of the product of logarithms, in hundredths.
    pub const DIVISOR: Param =
        Param::new(ID, 3, "LmrDivisor", 225, 50..=800, 12.0, "LMR: log product divisor, in hundredths.");

    /// Whether the `index`-th move at a node with `depth` plies left is reduced (with `table`'s first depth and
    /// first move).
    #[inline(always)]
    pub fn reduces(table: &LmrTable, depth: i32, index: usize, quiet: bool, gives_check: bool, in_check: bool) -> bool {
        depth >= table.min_depth && index >= table.min_index && quiet && !gives_check && !in_check
    }

    /// The node's reduce hook: the reduction of the `index`-th move of the node `n`, 0 when the technique is off
    /// or the move is not reduced.
    #[inline(always)]
    pub fn reduction(
        config: &VariantConfig,
        table: &LmrTable,
        n: &Node,
        index: usize,
        quiet: bool,
        gives_check: bool,
    ) -> i32 {
        if config.has(ID) && Self::reduces(table, n.depth, index, quiet, gives_check, n.in_check) {
            table.get(n.depth, index, n.pv_node)
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
