//! Mate distance pruning.

use crate::game::{mated_in, Score, MATE};
use crate::policy::{Additions, Search, Variant};
use crate::registry::{Counter, Forms, Group, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]). Not part of the `engine` preset (whose node
/// counts are the bench signature): added with `engine+mdp`, or to any negamax search (`pvs+mdp`).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "mdp",
    aliases: &[],
    summary: "mate distance pruning",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: None,
    in_engine: false,
    counters: &[CUTOFFS],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(14);

/// Nodes cut off because no mate from them could be shorter than one already found.
pub const CUTOFFS: Counter =
    Counter::new(ID, 0, "mdp_cutoffs", "nodes cut off because no mate from them could be shorter than one found");

/// Mate distance pruning: at `ply` plies from the root the side to move can do no better than mate at the next
/// ply and no worse than being mated here, so the window narrows to `[mated_in(ply), mate_in(ply + 1)]`; when it
/// is empty, a shorter mate is already known above and the node returns alpha without a search. It changes no
/// root score, only how many nodes proving a mate takes. Conditions: not the root. Hook: the negamax node, right
/// after the game's rules. Source: Stockfish's `search.cpp`, step 3.
#[derive(Debug, Clone, Copy, Default)]
pub struct MateDistance;

impl MateDistance {
    /// The score of mating at `ply` plies from the root, for the side to move at the root.
    pub const fn mate_in(ply: usize) -> Score {
        MATE - ply as Score
    }

    /// The node's hook: narrows `[alpha, beta]` at `ply`; `Some(alpha)` when the window is empty.
    #[inline(always)]
    pub fn prune<S: Search>(s: &mut S, ply: usize, alpha: &mut Score, beta: &mut Score) -> Option<Score> {
        if !(<S::V as Variant>::Additions::ENABLED && ply > 0 && s.config().has(ID)) {
            return None;
        }
        *alpha = (*alpha).max(mated_in(ply));
        *beta = (*beta).min(Self::mate_in(ply + 1));
        if *alpha < *beta {
            return None;
        }
        s.stats().bump(CUTOFFS);
        Some(*alpha)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Evaluator, Limits, VariantConfig, VariantError};
    use xiangqi_core::Position;

    struct Zero;

    impl Evaluator<Position> for Zero {
        fn evaluate(&mut self, _: &Position) -> Score {
            0
        }
    }

    #[test]
    fn it_joins_any_negamax_search_but_not_the_engine_preset() {
        let pvs: VariantConfig = "pvs+mdp".parse().unwrap();
        assert_eq!((pvs.techniques(), pvs.to_string()), (vec!["pvs", "mdp"], "negamax-ab+pvs+mdp".to_owned()));
        let engine: VariantConfig = "engine+mdp".parse().unwrap();
        assert_eq!(engine.to_string(), "negamax-ab+pvs+nmp+qs+order+engine+mdp");
        assert_eq!(engine.to_string().parse(), Ok(engine));
        assert!(!VariantConfig::engine().has(ID) && engine.has(ID));
        assert_eq!(VariantConfig::engine().with_technique("mdp", true), Ok(engine));
        assert_eq!(
            "engine+no-mdp".parse::<VariantConfig>(),
            Err(VariantError::NotInEngine { part: "no-mdp".to_owned(), name: "mdp" })
        );
        assert_eq!("alphabeta+mdp".parse::<VariantConfig>(), Err(VariantError::AdditionForm("alphabeta")));
        assert!(["negamax+mdp", "negamax-ab-hard+qs+mdp"].iter().all(|v| v.parse::<VariantConfig>().is_ok()));
    }

    #[test]
    fn it_keeps_the_mate_and_cuts_the_longer_lines() {
        // a1a9 mates (and a1f1 leaves Black without a move, a loss too): every other root move's subtree is bounded by the mate in one found first.
        let pos = Position::from_fen("4k4/8R/9/9/9/9/9/9/R8/3K5 w").unwrap();
        for (plain, with) in
            [("pvs", "pvs+mdp"), ("engine", "engine+mdp"), ("negamax-ab-hard+qs", "negamax-ab-hard+qs+mdp")]
        {
            let search = |v: &str| v.parse::<VariantConfig>().unwrap().run(pos.clone(), Zero, &Limits::depth(4));
            let (a, b) = (search(plain), search(with));
            assert_eq!((a.score, a.best_move), (b.score, b.best_move), "{with}");
            assert_eq!(b.score, MateDistance::mate_in(1), "{with}");
            assert!(
                b.stats.get(CUTOFFS) > 0 && b.stats.nodes() < a.stats.nodes(),
                "{with}: {:?} {:?}",
                a.stats,
                b.stats
            );
            assert_eq!(a.stats.get(CUTOFFS), 0);
        }
    }
}
