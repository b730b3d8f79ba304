//! Fail-high damping.

use crate::game::{Score, MATE_BOUND};
use crate::policy::{Additions, Node, Search, Variant};
use crate::registry::{Counter, Forms, Group, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]). Not part of the `engine` preset: no SPRT has
/// measured it yet; added with `engine+failhigh`, or to any negamax search with a window (`pvs+failhigh`).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "failhigh",
    aliases: &[],
    summary: "fail-high damping: a zero-window node's fail-soft value above beta is pulled toward beta",
    group: Group::Addition,
    forms: Forms::NegamaxWindow,
    needs: None,
    in_engine: false,
    counters: &[DAMPED],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(29);

/// Node values above beta brought toward beta.
pub const DAMPED: Counter =
    Counter::new(ID, 0, "fail_high_damped", "zero-window node values above beta pulled toward beta");

/// Fail-high damping: a zero-window node whose best move failed high returns `(best * depth + beta) / (depth + 1)`
/// instead of `best`, the fail-soft value drawn toward beta the more the shallower the node is. A fail-soft value
/// far above beta comes from a search cut short at its first good move, so it overstates what the node is worth;
/// the damped value, still at or above beta (a cutoff stays a cutoff), is what the table keeps and the parent sees.
/// Conditions: not a PV node, and none of `best`, `alpha` and `beta` a mate score. A fail-hard form clamps the
/// value to beta anyway, so it changes nothing there. Hook: the negamax node, after its moves, before the
/// correction history learns and the table stores. Source: Stockfish's `search.cpp` ("adjust best value for fail
/// high cases").
#[derive(Debug, Clone, Copy, Default)]
pub struct FailHighDamping;

impl FailHighDamping {
    /// The damped value of a node with `depth` plies left whose moves gave `best >= beta`.
    #[inline(always)]
    pub fn damped(best: Score, beta: Score, depth: i32) -> Score {
        (best * depth + beta) / (depth + 1)
    }

    /// The node's hook: the value of the node `n` whose moves gave `best`, damped when the variant has the
    /// technique and the node qualifies.
    #[inline(always)]
    pub fn adjust<S: Search>(s: &mut S, n: &Node, best: Score) -> Score {
        let qualifies = !n.pv_node
            && best > n.beta
            && best.abs() < MATE_BOUND
            && n.alpha.abs() < MATE_BOUND
            && n.beta.abs() < MATE_BOUND;
        if !(<S::V as Variant>::Additions::ENABLED && qualifies && s.config().has(ID)) {
            return best;
        }
        s.stats().bump(DAMPED);
        Self::damped(best, n.beta, n.depth.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_eval::Material;
    use crate::{Limits, VariantConfig, VariantError};
    use xiangqi_core::Position;

    #[test]
    fn the_value_moves_toward_beta_and_stays_a_cutoff() {
        assert_eq!(FailHighDamping::damped(300, 100, 1), 200);
        assert_eq!(FailHighDamping::damped(300, 100, 3), 250);
        for (best, beta, depth) in [(101, 100, 1), (5000, -20, 7), (-10, -30, 2)] {
            let d = FailHighDamping::damped(best, beta, depth);
            assert!(beta <= d && d <= best, "{best} {beta} {depth}: {d}");
        }
    }

    #[test]
    fn it_joins_a_windowed_negamax_search_keeps_the_best_move_and_damps() {
        let engine: VariantConfig = "engine+failhigh".parse().unwrap();
        assert!(!VariantConfig::engine().has(ID) && engine.has(ID));
        assert_eq!(
            "engine+no-failhigh".parse::<VariantConfig>(),
            Err(VariantError::NotInEngine { part: "no-failhigh".to_owned(), name: "failhigh" })
        );
        assert!("negamax+failhigh".parse::<VariantConfig>().is_err());
        // Red wins a loose chariot.
        let pos = Position::from_fen("4k4/9/9/9/4r4/9/9/9/4R4/3K5 w").unwrap();
        let search = |v: &str| v.parse::<VariantConfig>().unwrap().run(pos.clone(), Material, &Limits::depth(6));
        let (a, b) = (search("engine"), search("engine+failhigh"));
        assert_eq!(a.best_move.map(|m| m.to_string()), Some("e1e5".to_owned()));
        assert_eq!(b.best_move, a.best_move);
        assert_eq!(a.stats.get(DAMPED), 0);
        assert!(b.stats.get(DAMPED) > 0);
    }
}
