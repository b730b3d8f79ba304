//! What a node at the horizon returns: the static evaluation, or quiescence search (the spec's `qs`).

use super::{Exit, Label, LeafPolicy, NodeKind, Observer, Search, Step};
use crate::game::{FastPaths, GameTree, Score, MAX_PLY};
use crate::picker::MovePicker;
use crate::registry::{Forms, Group, Technique, TechniqueId};
use crate::techniques::qs_evasions::{self, QsEvasions};
use crate::techniques::qs_pruning::QsPruning;
use crate::techniques::qs_see::QsSee;

/// Quiescence's entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "qs",
    aliases: &[],
    summary: "quiescence search at the horizon",
    group: Group::Spec,
    forms: Forms::AnyForm,
    needs: None,
    in_engine: true,
    counters: &[],
    params: &[],
};

/// Quiescence's place in the registry.
pub const ID: TechniqueId = TechniqueId::new(2);

/// The static evaluation.
#[derive(Debug, Clone, Copy, Default)]
pub struct StaticLeaf;

impl LeafPolicy for StaticLeaf {
    const NAME: &'static str = "static";
    #[inline(always)]
    fn leaf<S: Search>(s: &mut S, alpha: Score, beta: Score, ply: usize) -> Score {
        let v = s.evaluate();
        s.step(|s| leaf_step(s, alpha, beta, ply, Some(v)));
        s.observer().leave(ply, v, Exit::Value);
        v
    }
}

/// The `leaf` step of the node at `ply` (window `[alpha, beta]` and value `v` for the side to move), in the view
/// of the node function that called the leaf policy: the first player's for the two-sided form.
fn leaf_step<S: Search>(
    s: &S,
    alpha: Score,
    beta: Score,
    ply: usize,
    v: Option<Score>,
) -> Step<<S::G as GameTree>::Move> {
    let first = s.game().first_player_to_move();
    let flip = s.two_sided() && !first;
    let (a, b, v) = if flip { (-beta, -alpha, v.map(|v| -v)) } else { (alpha, beta, v) };
    Step { value: v, ..Step::at(Label::Leaf, ply, 0, a, b, first) }
}

/// Quiescence search: captures only, with stand pat (the side to move may decline every capture), captures
/// ordered MVV-LVA.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiescence;

impl LeafPolicy for Quiescence {
    const NAME: &'static str = "qs";
    #[inline(always)]
    fn leaf<S: Search>(s: &mut S, alpha: Score, beta: Score, ply: usize) -> Score {
        s.step(|s| leaf_step(s, alpha, beta, ply, None));
        quiesce(s, alpha, beta, ply, qs_evasions::MAX_EVASION_NODES)
    }
}

/// [`Quiescence`] or [`StaticLeaf`], as the run-time [`crate::VariantConfig`] says.
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicLeaf;

impl LeafPolicy for DynamicLeaf {
    const NAME: &'static str = "dynamic";
    #[inline(always)]
    fn leaf<S: Search>(s: &mut S, alpha: Score, beta: Score, ply: usize) -> Score {
        if s.config().has(ID) {
            Quiescence::leaf(s, alpha, beta, ply)
        } else {
            StaticLeaf::leaf(s, alpha, beta, ply)
        }
    }
}

/// Quiescence search: stand pat, then the captures, best first. `evasions_left` is how many more nodes in check
/// on this path may search their evasions ([`QsEvasions`]).
fn quiesce<S: Search>(s: &mut S, mut alpha: Score, beta: Score, ply: usize, evasions_left: u32) -> Score {
    if s.enter_quiescence(ply) {
        return 0;
    }
    s.step(|s| Step::at(Label::QsEnter, ply, 0, alpha, beta, s.game().first_player_to_move()));
    // Hook: with quiescence evasions on, a node in check searches its evasions instead of standing pat.
    if QsEvasions::on(s) && evasions_left > 0 && ply < MAX_PLY - 1 && s.game().in_check() {
        return evasions(s, alpha, beta, ply, evasions_left - 1);
    }
    let stand_pat = s.evaluate_in_window(alpha, beta);
    s.step(|s| Step::at(Label::StandPat, ply, 0, alpha, beta, s.game().first_player_to_move()).value(stand_pat));
    if stand_pat >= beta || ply >= MAX_PLY - 1 {
        s.step(|s| {
            Step::at(Label::StandPatCutoff, ply, 0, alpha, beta, s.game().first_player_to_move()).value(stand_pat)
        });
        s.observer().leave(ply, stand_pat, Exit::StandPat);
        return stand_pat;
    }
    alpha = alpha.max(stand_pat);
    let mut best = stand_pat;
    let mut picker = MovePicker::new();
    s.game().generate_captures_unchecked(picker.moves_mut());
    let game = s.game();
    // Hook: the engine's quiescence pruning skips the captures that likely lose material; with quiescence by SEE
    // on, the static exchange decides instead.
    let prune_by_see = QsSee::on(s);
    let prune_losing = !prune_by_see && QsPruning::on(s);
    picker.set_keys(|m| game.capture_key(m));
    let mut exit = Exit::Value;
    while let Some((m, key)) = picker.next_keyed() {
        if prune_losing && QsPruning::skips_rest(s, key, picker.remaining()) {
            break;
        }
        if prune_by_see && QsSee::skips(s, m) {
            continue;
        }
        if !s.game().is_legal_capture(m) {
            continue;
        }
        if search_child(s, m, &mut best, &mut alpha, beta, ply, evasions_left) {
            exit = Exit::BetaCutoff;
            if <S::W as Observer<S::G>>::ACTIVE {
                while let Some(rest) = picker.next() {
                    if s.game().is_legal_capture(rest) {
                        s.observer().pruned(ply, rest);
                    }
                }
            }
            break;
        }
    }
    s.step(|s| Step::at(Label::QsReturn, ply, 0, alpha, beta, s.game().first_player_to_move()).value(best).best(best));
    s.observer().leave(ply, best, exit);
    best
}

/// A quiescence node in check ([`QsEvasions`]): every legal move, captures first, each answered by quiescence (with
/// `evasions_left` more such nodes on the path); no stand pat, and the rules' score of a side without moves when
/// there is none.
fn evasions<S: Search>(s: &mut S, mut alpha: Score, beta: Score, ply: usize, evasions_left: u32) -> Score {
    s.stats().bump(qs_evasions::NODES);
    let mut picker = MovePicker::new();
    s.game().generate(false, picker.moves_mut());
    let game = s.game();
    let mut best = game.no_moves_score(ply);
    picker.set_keys(|m| game.capture_key(m));
    let mut exit = Exit::Value;
    while let Some(m) = picker.next() {
        if search_child(s, m, &mut best, &mut alpha, beta, ply, evasions_left) {
            exit = Exit::BetaCutoff;
            if <S::W as Observer<S::G>>::ACTIVE {
                while let Some(rest) = picker.next() {
                    s.observer().pruned(ply, rest);
                }
            }
            break;
        }
    }
    s.observer().leave(ply, best, exit);
    best
}

/// Searches the legal move `m` of a quiescence node at `ply` by quiescence and raises `best` and `alpha` by its
/// score; true when it reaches `beta` (a cutoff) or the search must stop.
#[inline(always)]
fn search_child<S: Search>(
    s: &mut S,
    m: <S::G as GameTree>::Move,
    best: &mut Score,
    alpha: &mut Score,
    beta: Score,
    ply: usize,
    evasions_left: u32,
) -> bool {
    // (Folds to `false` for an ordinary search, like every step below.)
    let first = <S::W as Observer<S::G>>::ACTIVE && s.game().first_player_to_move();
    let (a, b) = (*alpha, *best);
    s.step(|_| Step::at(Label::QsNext, ply, 0, a, beta, first).best(b).with_move(m));
    s.observer().edge(ply, Some(m));
    s.make(m);
    s.stats().quiescence_nodes += 1;
    s.observer().enter(ply + 1, -beta, -*alpha, 0, NodeKind::Quiescence);
    let score = -quiesce(s, -beta, -*alpha, ply + 1, evasions_left);
    s.unmake();
    if s.stopped() {
        // The search's results are thrown away: leave the node as a cutoff would.
        return true;
    }
    let at = |label, a: Score, b: Score| Step::at(label, ply, 0, a, beta, first).value(score).best(b).with_move(m);
    let (a, b) = (*alpha, *best);
    s.step(|_| at(Label::QsReturned, a, b));
    if score > *best {
        *best = score;
        s.step(|_| at(Label::QsBest, a, score));
        if score > *alpha {
            *alpha = score;
            s.step(|_| at(Label::QsAlpha, score, score));
            if score >= beta {
                s.step(|_| at(Label::QsCutoff, score, score));
                return true;
            }
        }
    }
    false
}
