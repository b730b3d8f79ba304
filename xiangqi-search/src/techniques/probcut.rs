//! ProbCut: a capture that beats beta by a margin in a shallower search cuts the node off.

use crate::game::{FastPaths, GameTree, Score, MATE_BOUND};
use crate::picker::MovePicker;
use crate::policy::{Additions, Node, NodeKind, Observer, Search, Variant};
use crate::registry::{Counter, Forms, Group, Param, Params, Technique, TechniqueId};
use crate::techniques::improving::Improving;
use crate::tt::{Bound, TtHit};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]). Not part of the `engine` preset until games
/// confirm it: added with `engine+probcut`, or to any negamax search with a window (`pvs+probcut`).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "probcut",
    aliases: &[],
    summary: "ProbCut: a good capture that beats beta by a margin in a shallower search cuts the node off",
    group: Group::Addition,
    forms: Forms::NegamaxWindow,
    needs: None,
    in_engine: false,
    counters: &[CUTS, TABLE_CUTS],
    params: &[ProbCut::MARGIN, ProbCut::IMPROVING_MARGIN, ProbCut::MIN_DEPTH, ProbCut::TABLE_MARGIN],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(26);

/// Nodes cut off because a capture beat the raised beta in a shallower search.
pub const CUTS: Counter = Counter::new(
    ID,
    0,
    "probcut_cuts",
    "nodes cut off because a capture beat beta plus a margin in a shallower search",
);

/// Nodes cut off because the table's lower bound from nearly this depth beat beta by the table margin.
pub const TABLE_CUTS: Counter = Counter::new(
    ID,
    1,
    "probcut_table_cuts",
    "nodes cut off because the table's lower bound from nearly this depth beat beta by a wide margin",
);

/// ProbCut: at a zero-window node deep enough, when a capture that wins enough material by static exchange beats
/// `beta + margin` (the ProbCut bound) first in a quiescence search and then in a search
/// [`ProbCut::REDUCTION`] plies shallower (both with the zero window at the ProbCut bound), the full search
/// would almost surely beat beta too, and the node returns the shallow value brought back down by the margin
/// (stored in the table as a lower bound from `depth - 3`, with the capture as its move). Only the captures whose
/// static exchange (`FastPaths::see_ge`, `xiangqi_core::Position::see_ge`) reaches the ProbCut bound minus the
/// static evaluation are tried, most valuable victim first. The margin is [`ProbCut::MARGIN`], less
/// [`ProbCut::IMPROVING_MARGIN`] at an improving node (with the `improving` technique). Conditions: not a PV
/// node, not the root, not in check, not a singular extension's search without a move, depth at least
/// [`ProbCut::MIN_DEPTH`], beta not a mate score, and the table not holding a score below the ProbCut bound from
/// `depth - 3` or deeper.
///
/// The table cut: a zero-window node (in check too) whose table entry holds a lower bound from `depth - 3` or
/// deeper at least [`ProbCut::TABLE_MARGIN`] above beta returns `beta + TABLE_MARGIN` (neither score a mate).
///
/// Hook: the negamax node, after internal iterative reduction and before the singular extension (the captures'
/// searches are children of the node: made, searched, taken back). Source: Buro, "ProbCut: an effective selective
/// extension of the alpha-beta algorithm" (1995), in the form of Stockfish's `search.cpp` (step 11 "ProbCut" and
/// the "small ProbCut idea"), as Pikafish has it for xiangqi (a margin of about 176, 48 less when improving,
/// from depth 5; the table cut at about 385). The margins here are in evaluation units with a soldier near 100.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProbCut;

impl ProbCut {
    /// The ProbCut bound's margin above beta.
    pub const MARGIN: Param = Param::new(ID, 0, "ProbCutMargin", 180, 0..=1000, 10.0, "ProbCut: margin above beta.");
    /// How much smaller the margin is at an improving node.
    pub const IMPROVING_MARGIN: Param =
        Param::new(ID, 1, "ProbCutImproving", 50, 0..=400, 5.0, "ProbCut: smaller margin at an improving node.");
    /// The shallowest node that tries it.
    pub const MIN_DEPTH: Param = Param::new(ID, 2, "ProbCutMinDepth", 5, 2..=16, 0.5, "ProbCut: shallowest node.");
    /// The table cut's margin above beta.
    pub const TABLE_MARGIN: Param =
        Param::new(ID, 3, "ProbCutTableMargin", 400, 0..=2000, 20.0, "ProbCut: the table cut's margin above beta.");
    /// How many plies shallower than the node the captures are searched (their children's depth is
    /// `depth - REDUCTION`).
    pub const REDUCTION: i32 = 4;
    /// How many plies shallower than the node a table entry may be and still count (the shallow searches' own
    /// depth, a move below the node).
    pub const TABLE_DEPTH: i32 = 3;

    /// The ProbCut bound of a node with `beta`.
    #[inline(always)]
    pub fn beta(p: &Params, beta: Score, improving: Improving) -> Score {
        beta + p.get(Self::MARGIN) - if improving == Improving::Yes { p.get(Self::IMPROVING_MARGIN) } else { 0 }
    }

    /// Whether the node `n` (its `beta`, depth, check, window, the table's hit) tries its captures against
    /// `probcut_beta`.
    #[inline(always)]
    pub fn tries(p: &Params, n: &Node, probcut_beta: Score) -> bool {
        !n.pv_node
            && !n.in_check
            && !n.excluding()
            && n.ply > 0
            && n.depth >= p.get(Self::MIN_DEPTH)
            && n.beta.abs() < MATE_BOUND
            && probcut_beta < MATE_BOUND
            && !n.hit.is_some_and(|h| h.depth >= n.depth - Self::TABLE_DEPTH && h.score < probcut_beta)
    }

    /// `Some(value)` when the table's `hit` cuts a zero-window node with `depth` plies left and `beta` off (see
    /// the table cut in [`ProbCut`]).
    #[inline(always)]
    pub fn table_cut(p: &Params, depth: i32, pv_node: bool, beta: Score, hit: &TtHit) -> Option<Score> {
        let bound = beta + p.get(Self::TABLE_MARGIN);
        let cuts = !pv_node
            && hit.bound != Bound::Upper
            && hit.depth >= depth - Self::TABLE_DEPTH
            && hit.score >= bound
            && hit.score.abs() < MATE_BOUND
            && beta.abs() < MATE_BOUND;
        cuts.then_some(bound)
    }

    /// The node's hook, when the variant has it: `Some(value)` when the node `n` is cut off (a zero-window node,
    /// not the root, not a search without a move).
    #[inline(always)]
    pub fn hook<S: Search>(s: &mut S, n: &Node) -> Option<Score> {
        if !(<S::V as Variant>::Additions::ENABLED && s.config().has(ID)) || n.pv_node || n.excluding() || n.ply == 0 {
            return None;
        }
        Self::cut(s, n)
    }

    /// The table cut, then the captures' shallow searches: each capture whose exchange alone lifts the static
    /// evaluation to the ProbCut bound, best victim first, is made and searched by quiescence, then (when that
    /// beats the bound) `REDUCTION` plies shallower, both with the zero window at the bound.
    #[inline(never)]
    fn cut<S: Search>(s: &mut S, n: &Node) -> Option<Score> {
        if let Some(value) = n.hit.and_then(|h| Self::table_cut(s.params(), n.depth, false, n.beta, &h)) {
            s.stats().bump(TABLE_CUTS);
            return Some(value);
        }
        let probcut_beta = Self::beta(s.params(), n.beta, n.eval.improving);
        if !Self::tries(s.params(), n, probcut_beta) {
            return None;
        }
        let threshold = probcut_beta - n.eval.corrected;
        let mut picker = MovePicker::new();
        s.game().generate_captures_unchecked(picker.moves_mut());
        let game = s.game();
        picker.set_keys(|m| game.capture_key(m));
        let (child, shallow) = (n.ply + 1, n.depth - Self::REDUCTION);
        while let Some(m) = picker.next() {
            if !s.game().see_ge(m, threshold) || !s.game().is_legal_capture(m) {
                continue;
            }
            s.observer().edge(n.ply, Some(m));
            s.prefetch_child(m, n.depth);
            s.make_child(m, n.ply);
            // A quiescence search first (the child at depth 0), then the shallow search, both at the bound.
            s.observer().enter(child, -probcut_beta, -probcut_beta + 1, 0, NodeKind::ZeroWindow);
            let mut value = -s.negamax(0, -probcut_beta, -probcut_beta + 1, child, true);
            if value >= probcut_beta && !s.stopped() {
                s.observer().enter(child, -probcut_beta, -probcut_beta + 1, shallow, NodeKind::ZeroWindow);
                value = -s.negamax(shallow, -probcut_beta, -probcut_beta + 1, child, true);
            }
            s.unmake();
            if s.stopped() {
                return Some(0);
            }
            if value >= probcut_beta {
                s.stats().bump(CUTS);
                let mv = <S::G as GameTree>::encode_move(m);
                let depth = n.depth - Self::TABLE_DEPTH;
                s.store(n.key, n.ply, TtHit { mv, score: value, eval: n.eval.raw, depth, bound: Bound::Lower });
                return Some(Self::value(value, probcut_beta, n.beta));
            }
        }
        None
    }

    /// What the node returns when a capture's shallow search gave `value` at or above `probcut_beta`: the value
    /// brought back down by the margin, or beta for a mate score.
    #[inline(always)]
    pub fn value(value: Score, probcut_beta: Score, beta: Score) -> Score {
        if value.abs() < MATE_BOUND {
            value - (probcut_beta - beta)
        } else {
            beta
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_eval::Material;
    use crate::{Limits, VariantConfig, VariantError};
    use xiangqi_core::Position;

    fn hit(score: Score, depth: i32, bound: Bound) -> TtHit {
        TtHit { mv: 1, score, eval: 0, depth, bound }
    }

    #[test]
    fn its_conditions_hold_only_where_the_doc_says() {
        let p = Params::default();
        let (margin, improving_margin) = (p.get(ProbCut::MARGIN), p.get(ProbCut::IMPROVING_MARGIN));
        assert_eq!(ProbCut::beta(&p, 10, Improving::Off), 10 + margin);
        assert_eq!(ProbCut::beta(&p, 10, Improving::No), 10 + margin);
        assert_eq!(ProbCut::beta(&p, 10, Improving::Yes), 10 + margin - improving_margin);
        let d = p.get(ProbCut::MIN_DEPTH);
        let pb = 10 + margin;
        // A zero-window node at `ply` 3, `d` plies deep, beta 10, changed by `f`.
        let node = |f: &dyn Fn(&mut Node)| {
            let mut n = Node::new(d, 9, 10, 3, 0);
            f(&mut n);
            n
        };
        let tries = |f: &dyn Fn(&mut Node), probcut_beta| ProbCut::tries(&p, &node(f), probcut_beta);
        assert!(tries(&|_| {}, pb));
        assert!(!tries(&|n| n.depth = d - 1, pb));
        assert!(!tries(&|n| n.pv_node = true, pb));
        assert!(!tries(&|n| n.in_check = true, pb));
        assert!(!tries(&|n| n.excluded = 1, pb));
        assert!(!tries(&|n| n.ply = 0, pb));
        assert!(!tries(&|n| n.beta = MATE_BOUND, MATE_BOUND + margin));
        // The table says the captures would not reach the bound: not tried; a shallower entry says nothing.
        assert!(!tries(&|n| n.hit = Some(hit(pb - 1, d - 3, Bound::Lower)), pb));
        assert!(tries(&|n| n.hit = Some(hit(pb - 1, d - 4, Bound::Exact)), pb));
        assert!(tries(&|n| n.hit = Some(hit(pb, d, Bound::Upper)), pb));
        // The table cut.
        let t = p.get(ProbCut::TABLE_MARGIN);
        assert_eq!(ProbCut::table_cut(&p, 8, false, 10, &hit(10 + t, 5, Bound::Lower)), Some(10 + t));
        assert_eq!(ProbCut::table_cut(&p, 8, false, 10, &hit(10 + t, 5, Bound::Exact)), Some(10 + t));
        assert_eq!(ProbCut::table_cut(&p, 8, false, 10, &hit(10 + t - 1, 5, Bound::Lower)), None);
        assert_eq!(ProbCut::table_cut(&p, 8, false, 10, &hit(10 + t, 4, Bound::Lower)), None);
        assert_eq!(ProbCut::table_cut(&p, 8, false, 10, &hit(10 + t, 5, Bound::Upper)), None);
        assert_eq!(ProbCut::table_cut(&p, 8, true, 10, &hit(10 + t, 5, Bound::Lower)), None);
        assert_eq!(ProbCut::table_cut(&p, 8, false, 10, &hit(MATE_BOUND, 5, Bound::Lower)), None);
        // The value brought back down.
        assert_eq!(ProbCut::value(400, 300, 100), 200);
        assert_eq!(ProbCut::value(MATE_BOUND + 5, 300, 100), 100);
    }

    #[test]
    fn it_joins_any_windowed_negamax_search_but_not_the_engine_preset() {
        let pvs: VariantConfig = "pvs+probcut".parse().unwrap();
        assert_eq!(pvs.techniques(), vec!["pvs", "probcut"]);
        let engine: VariantConfig = "engine+probcut".parse().unwrap();
        assert!(!VariantConfig::engine().has(ID) && engine.has(ID));
        assert_eq!(VariantConfig::engine().with_technique("probcut", true), Ok(engine));
        assert_eq!(
            "engine+no-probcut".parse::<VariantConfig>(),
            Err(VariantError::NotInEngine { part: "no-probcut".to_owned(), name: "probcut" })
        );
        assert!("negamax+probcut".parse::<VariantConfig>().is_err());
        assert!(["negamax-ab+probcut", "negamax-ab-hard+qs+probcut"]
            .iter()
            .all(|v| v.parse::<VariantConfig>().is_ok()));
    }

    #[test]
    fn it_keeps_the_best_move_and_the_mate_and_cuts_nodes() {
        // Red wins a loose chariot; Red mates in one (a1a9, or a1f1 which leaves Black no move: two best moves,
        // one score); the start position (no known best move).
        let positions = [
            ("4k4/9/9/9/4r4/9/9/9/4R4/3K5 w", "e1e5"),
            ("4k4/8R/9/9/9/9/9/9/R8/3K5 w", ""),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", ""),
        ];
        let mut cuts = 0;
        for (fen, best) in positions {
            let pos = Position::from_fen(fen).unwrap();
            for (plain, with) in [("engine", "engine+probcut"), ("pvs+qs+order+tt", "pvs+qs+order+tt+probcut")] {
                let search =
                    |v: &str| v.parse::<VariantConfig>().unwrap().run(pos.clone(), Material, &Limits::depth(7));
                let (a, b) = (search(plain), search(with));
                assert_eq!(a.stats.get(CUTS) + a.stats.get(TABLE_CUTS), 0, "{plain} on {fen}");
                if !best.is_empty() {
                    let (ma, mb) = (a.best_move.unwrap().to_string(), b.best_move.unwrap().to_string());
                    assert_eq!((ma.as_str(), mb.as_str()), (best, best), "{with} on {fen}");
                }
                if fen.starts_with("4k4/8R") {
                    let mate = crate::techniques::mate_distance::MateDistance::mate_in(1);
                    assert_eq!((a.score, b.score), (mate, mate), "{with} on {fen}");
                }
                cuts += b.stats.get(CUTS) + b.stats.get(TABLE_CUTS);
            }
        }
        assert!(cuts > 0, "ProbCut never cut");
    }
}
