//! How a child of a negamax node is searched: with the full window, or by principal variation search (the
//! spec's `pvs`). Either first tries the late move reduction's reduced probe when the node gives the move one
//! ([`LateMoveReductions::probe`]).

use super::{ChildNode, ChildPolicy, Label, NodeKind, Observer, Search, Step};
use crate::game::{GameTree, Score};
use crate::registry::{Counter, Forms, Group, Technique, TechniqueId};
use crate::techniques::late_move_reductions::LateMoveReductions;

/// PVS's entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "pvs",
    aliases: &[],
    summary: "principal variation search",
    group: Group::Spec,
    forms: Forms::NegamaxWindow,
    needs: None,
    in_engine: true,
    counters: &[RESEARCHES],
    params: &[],
};

/// PVS's place in the registry.
pub const ID: TechniqueId = TechniqueId::new(0);

/// PVS zero-window searches that had to be searched again with the full window.
pub const RESEARCHES: Counter = Counter::new(
    ID,
    0,
    "pvs_researches",
    "PVS zero-window searches that had to be searched again with the full window",
);

/// Every child with the full window `[alpha, beta]`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FullWindow;

impl ChildPolicy for FullWindow {
    const NAME: &'static str = "";
    #[inline(always)]
    fn search_child<S: Search>(s: &mut S, c: ChildNode) -> Score {
        if let Some(score) = LateMoveReductions::probe(s, &c) {
            return score;
        }
        s.observer().enter(c.ply + 1, -c.beta, -c.alpha, c.depth - 1, NodeKind::Main);
        -s.negamax(c.depth - 1, -c.beta, -c.alpha, c.ply + 1, true)
    }
}

/// Principal variation search: the first child with the full window, the others with the zero window
/// `[alpha, alpha + 1]`, searched again with the full window when they land strictly inside it.
#[derive(Debug, Clone, Copy, Default)]
pub struct PrincipalVariation;

impl ChildPolicy for PrincipalVariation {
    const NAME: &'static str = "pvs";
    const NEGAMAX_WINDOW: bool = true;
    #[inline(always)]
    fn search_child<S: Search>(s: &mut S, c: ChildNode) -> Score {
        let (depth, alpha, beta, child) = (c.depth - 1, c.alpha, c.beta, c.ply + 1);
        if c.index == 0 {
            s.observer().enter(child, -beta, -alpha, depth, NodeKind::Main);
            return -s.negamax(depth, -beta, -alpha, child, true);
        }
        if let Some(score) = LateMoveReductions::probe(s, &c) {
            return score;
        }
        s.observer().enter(child, -alpha - 1, -alpha, depth, NodeKind::ZeroWindow);
        let score = -s.negamax(depth, -alpha - 1, -alpha, child, true);
        let active = <S::W as Observer<S::G>>::ACTIVE;
        let step =
            |s: &S, label, v| Step::at(label, c.ply, c.depth, alpha, beta, s.game().first_player_to_move()).value(v);
        if active && !s.stopped() {
            s.step(|s| step(s, Label::ZeroWindow, score));
        }
        if score > alpha && score < beta && !s.stopped() {
            s.stats().bump(RESEARCHES);
            s.observer().enter(child, -beta, -alpha, depth, NodeKind::Research);
            let score = -s.negamax(depth, -beta, -alpha, child, true);
            if active && !s.stopped() {
                s.step(|s| step(s, Label::ReSearch, score));
            }
            score
        } else {
            score
        }
    }
}

/// [`PrincipalVariation`] or [`FullWindow`], as the run-time [`crate::VariantConfig`] says.
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicChild;

impl ChildPolicy for DynamicChild {
    const NAME: &'static str = "dynamic";
    #[inline(always)]
    fn search_child<S: Search>(s: &mut S, c: ChildNode) -> Score {
        if s.config().has(ID) {
            PrincipalVariation::search_child(s, c)
        } else {
            FullWindow::search_child(s, c)
        }
    }
}
