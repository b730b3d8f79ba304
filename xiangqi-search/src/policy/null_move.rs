//! What a node tries before its moves: nothing, or the spec's null-move pruning (`nmp`).

use super::{Label, Node, NodeKind, NullPolicy, Observer, Search, Step};
use crate::game::{GameTree, Score};
use crate::registry::{Counter, Forms, Group, Technique, TechniqueId};
use std::marker::PhantomData;

/// The null move's entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "nmp",
    aliases: &["null"],
    summary: "null-move pruning, R = 3",
    group: Group::Spec,
    forms: Forms::NegamaxWindow,
    needs: None,
    in_engine: true,
    counters: &[TRIES, CUTOFFS],
    params: &[],
};

/// The null move's place in the registry.
pub const ID: TechniqueId = TechniqueId::new(1);

/// Null-move searches tried (the spec's and the engine's verified null move).
pub const TRIES: Counter = Counter::new(ID, 0, "null_tries", "null-move searches tried");

/// Null-move searches that cut the node off.
pub const CUTOFFS: Counter = Counter::new(ID, 1, "null_cutoffs", "null-move searches that cut the node off");

/// No null move.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoNull;

impl NullPolicy for NoNull {
    const NAME: &'static str = "";
    #[inline(always)]
    fn try_null<S: Search>(_: &mut S, _: &Node) -> Option<Score> {
        None
    }
}

/// Null-move pruning as in the spec: when allowed (`depth >= R + 1`, not in check, not right after another null
/// move, and the game's zugzwang guard), pass the turn and search `depth - R - 1` with the zero window
/// `[beta - 1, beta]`; a score `>= beta` returns `beta`.
#[derive(Debug, Clone, Copy, Default)]
pub struct NullMove<const R: i32 = 3>;

impl<const R: i32> NullPolicy for NullMove<R> {
    const NAME: &'static str = "nmp";
    const NEGAMAX_WINDOW: bool = true;
    #[inline(always)]
    fn try_null<S: Search>(s: &mut S, n: &Node) -> Option<Score> {
        if n.depth < R + 1 {
            return None;
        }
        let cut = null_search(s, n.depth - R - 1, n).map(|_| n.beta);
        if cut.is_some() {
            s.step(|s| {
                Step::at(Label::NullCutoff, n.ply, n.depth, n.alpha, n.beta, s.game().first_player_to_move())
                    .value(n.beta)
            });
        }
        cut
    }
}

/// The null policy `P` when the run-time [`crate::VariantConfig`] asks for the null move, else none.
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicNull<P>(PhantomData<P>);

impl<P: NullPolicy> NullPolicy for DynamicNull<P> {
    const NAME: &'static str = "dynamic";
    #[inline(always)]
    fn try_null<S: Search>(s: &mut S, node: &Node) -> Option<Score> {
        if s.config().has(ID) {
            P::try_null(s, node)
        } else {
            None
        }
    }
}

/// The null-move search shared by [`NullMove`] and [`crate::VerifiedNullMove`]: `Some(score)` when passing at the
/// node `n` and searching `child_depth` still fails high.
#[inline(always)]
pub(crate) fn null_search<S: Search>(s: &mut S, child_depth: i32, n: &Node) -> Option<Score> {
    let (beta, ply, null_ok) = (n.beta, n.ply, n.null_ok);
    if !null_ok || s.game().in_check() || !s.game().null_move_allowed() {
        return None;
    }
    s.stats().bump(TRIES);
    s.observer().edge(ply, None);
    s.pass(ply);
    s.observer().enter(ply + 1, -beta, -beta + 1, child_depth, NodeKind::Null);
    let score = -s.negamax(child_depth, -beta, -beta + 1, ply + 1, false);
    s.unpass();
    if <S::W as Observer<S::G>>::ACTIVE && !s.stopped() {
        s.step(|s| Step::at(Label::Null, ply, n.depth, n.alpha, beta, s.game().first_player_to_move()).value(score));
    }
    if s.stopped() || score < beta {
        return None;
    }
    s.stats().bump(CUTOFFS);
    Some(score)
}
