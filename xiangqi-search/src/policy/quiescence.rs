//! What a node at the horizon returns: the static evaluation, or quiescence search (the spec's `qs`).

use super::{Exit, LeafPolicy, NodeKind, Observer, Search};
use crate::game::{FastPaths, GameTree, Score, MAX_PLY};
use crate::movepick::MovePicker;
use crate::registry::{Group, Reach, Technique, TechniqueId};
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
    reach: Reach::AnyForm,
    needs: None,
    in_engine: true,
    counters: &[],
};

/// Quiescence's place in the registry.
pub const ID: TechniqueId = TechniqueId::new(2);

/// The static evaluation.
#[derive(Debug, Clone, Copy, Default)]
pub struct StaticLeaf;

impl LeafPolicy for StaticLeaf {
    const NAME: &'static str = "static";
    #[inline(always)]
    fn leaf<S: Search>(s: &mut S, _: Score, _: Score, ply: usize) -> Score {
        let v = s.evaluate();
        s.observer().leave(ply, v, Exit::Value);
        v
    }
}

/// Quiescence search: captures only, with stand pat (the side to move may decline every capture), captures
/// ordered MVV-LVA.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiescence;

impl LeafPolicy for Quiescence {
    const NAME: &'static str = "qs";
    #[inline(always)]
    fn leaf<S: Search>(s: &mut S, alpha: Score, beta: Score, ply: usize) -> Score {
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
    // Hook: with quiescence evasions on, a node in check searches its evasions instead of standing pat.
    if QsEvasions::on(s) && evasions_left > 0 && ply < MAX_PLY - 1 && s.game().in_check() {
        return evasions(s, alpha, beta, ply, evasions_left - 1);
    }
    let stand_pat = s.evaluate_in_window(alpha, beta);
    if stand_pat >= beta || ply >= MAX_PLY - 1 {
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
    if score > *best {
        *best = score;
        if score > *alpha {
            *alpha = score;
            return score >= beta;
        }
    }
    false
}
