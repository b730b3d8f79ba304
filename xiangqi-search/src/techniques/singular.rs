//! Singular extension, with multi-cut and negative extensions.

use crate::game::{FastPaths, Score, MATE_BOUND};
use crate::policy::{Additions, Node, Search, Variant};
use crate::registry::{Counter, Forms, Group, Param, Params, Technique, TechniqueId};
use crate::tt::{Bound, TtHit};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "singular",
    aliases: &["se"],
    summary: "singular extension of a table move better than every other, with multi-cut and negative extensions",
    group: Group::Addition,
    forms: Forms::NegamaxWindow,
    needs: Some("tt"),
    in_engine: true,
    counters: &[EXTENSIONS, MULTI_CUTS],
    params: &[SingularExtension::MIN_DEPTH, SingularExtension::MARGIN, SingularExtension::DOUBLE_MARGIN],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(22);

/// Table moves found singular and searched a ply deeper.
pub const EXTENSIONS: Counter =
    Counter::new(ID, 0, "singular_extensions", "table moves found singular and searched a ply deeper");

/// Nodes cut off because moves other than the table move also beat beta.
pub const MULTI_CUTS: Counter =
    Counter::new(ID, 1, "singular_multi_cuts", "nodes cut off because moves other than the table move beat beta too");

/// Singular extension: when the transposition table holds a move with a lower bound `s` from nearly this depth,
/// the node is first searched without that move, to half the depth, with the zero window just under
/// `s - MARGIN * depth`. If every other move fails low there, the table move is singular (the position depends on
/// it) and is searched a ply deeper, two when the others fail by [`SingularExtension::DOUBLE_MARGIN`] more at a
/// zero-window node. If the search without it reaches the singular bound and that bound is at least beta, several
/// moves beat beta and the node returns the bound (multi-cut). If the table's score alone is at least beta, the
/// table move is searched a ply shallower (a negative extension): other moves are nearly as good. Conditions: not
/// the root, less than twice the iteration's depth from the root (so extensions cannot run away), depth at least [`SingularExtension::MIN_DEPTH`], not already a search without a move, the table's
/// depth at least `depth - 3`, its bound a lower or exact one, its score no mate. Hooks: the negamax node, before
/// the moves (the search without the move: the node skips the move the searcher marks excluded at its ply, takes
/// no table cutoff, makes no null move and stores nothing), and the depth of the table move's child. Source:
/// Anantharaman, Campbell and Hsu, "Singular extensions" (1990, Deep Thought); Stockfish's step 15 (the
/// table-based form, multi-cut after Björnsson and Marsland).
#[derive(Debug, Clone, Copy, Default)]
pub struct SingularExtension;

/// What the search without the table move says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Singular {
    /// Search the table move this many plies deeper (negative: shallower).
    Extend(i32),
    /// Return this value: moves other than the table move beat beta.
    MultiCut(Score),
}

impl SingularExtension {
    /// The shallowest node that tests its table move.
    pub const MIN_DEPTH: Param =
        Param::new(ID, 0, "SingularMinDepth", 8, 4..=16, 0.5, "Singular extension: the shallowest node tested.");
    /// The singular bound's margin under the table's score, per ply of depth.
    pub const MARGIN: Param =
        Param::new(ID, 1, "SingularMargin", 2, 0..=32, 0.5, "Singular extension: bound's margin per ply.");
    /// How much further below the bound the other moves must fail for a double extension.
    pub const DOUBLE_MARGIN: Param =
        Param::new(ID, 2, "SingularDoubleMargin", 20, 0..=400, 4.0, "Singular extension: double extension margin.");

    /// Whether a node with `depth` plies left, `ply` from the root of an iteration to `root_depth`, tests the
    /// table's `hit` (parameters `p`).
    #[inline(always)]
    pub fn tests(p: &Params, depth: i32, ply: usize, root_depth: i32, hit: &TtHit, excluding: bool) -> bool {
        ply > 0
            && (ply as i32) < 2 * root_depth
            && depth >= p.get(Self::MIN_DEPTH)
            && !excluding
            && hit.mv != 0
            && hit.bound != Bound::Upper
            && hit.depth >= depth - 3
            && hit.score.abs() < MATE_BOUND
    }

    /// The singular bound and the depth of the search without the table move.
    #[inline(always)]
    pub fn bound_and_depth(p: &Params, hit: &TtHit, depth: i32) -> (Score, i32) {
        (hit.score - p.get(Self::MARGIN) * depth, (depth - 1) / 2)
    }

    /// The node's hook, when the variant has it and the node `n` qualifies ([`SingularExtension::tests`]): the
    /// search without the table move, and how much deeper the table move is searched, or the multi-cut's value.
    #[inline(always)]
    pub fn hook<S: Search>(s: &mut S, n: &Node) -> Singular {
        let Some(hit) = n.hit.filter(|_| <S::V as Variant>::Additions::ENABLED && s.config().has(ID)) else {
            return Singular::Extend(0);
        };
        if !Self::tests(s.params(), n.depth, n.ply, s.root_depth(), &hit, n.excluding())
            || s.game().decode_legal(hit.mv).is_none()
        {
            return Singular::Extend(0);
        }
        let (singular_beta, singular_depth) = Self::bound_and_depth(s.params(), &hit, n.depth);
        let value = s.search_excluding(hit.mv, singular_depth, singular_beta - 1, singular_beta, n.ply);
        let verdict = Self::verdict(s.params(), value, singular_beta, n.beta, hit.score, n.pv_node);
        match verdict {
            Singular::Extend(plies) if plies > 0 => s.stats().bump(EXTENSIONS),
            Singular::MultiCut(_) => s.stats().bump(MULTI_CUTS),
            _ => {}
        }
        verdict
    }

    /// The verdict, from the search without the table move's `value`, the singular bound, the node's `beta`, the
    /// table's score and whether the node is a PV node.
    #[inline(always)]
    pub fn verdict(
        p: &Params,
        value: Score,
        singular_beta: Score,
        beta: Score,
        tt_score: Score,
        pv_node: bool,
    ) -> Singular {
        if value < singular_beta {
            let double = !pv_node && value < singular_beta - p.get(Self::DOUBLE_MARGIN);
            Singular::Extend(1 + double as i32)
        } else if singular_beta >= beta {
            Singular::MultiCut(singular_beta)
        } else if tt_score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdict_follows_the_search_without_the_move() {
        let p = Params::default();
        assert_eq!(SingularExtension::verdict(&p, 10, 20, 50, 40, true), Singular::Extend(1));
        assert_eq!(SingularExtension::verdict(&p, -10, 20, 50, 40, false), Singular::Extend(2));
        assert_eq!(SingularExtension::verdict(&p, 60, 55, 50, 70, false), Singular::MultiCut(55));
        assert_eq!(SingularExtension::verdict(&p, 30, 20, 25, 40, false), Singular::Extend(-1));
        assert_eq!(SingularExtension::verdict(&p, 30, 20, 50, 40, false), Singular::Extend(0));
    }
}
