//! The node functions: the negamax node (with the engine's additions when the variant has them) and the two-sided
//! node (the seeds' minimax and `alphaBeta(isMax)`).

use crate::game::{Evaluator, Game, Rule, Score, INFINITY, MATE_BOUND, MAX_PLY};
use crate::movepick::NodeMoves;
use crate::policy::{
    ChildPolicy, Exit, Extras, Form, LeafPolicy, NodeKind, NullNode, NullPolicy, Observer, OrderPolicy, Variant,
};
use crate::searcher::Searcher;
use crate::techniques::check_extension::CheckExtension;
use crate::techniques::futility::{Futility, LateMovePruning};
use crate::techniques::late_move_reductions::LateMoveReductions;
use crate::techniques::razoring::Razoring;
use crate::techniques::reverse_futility::ReverseFutility;
use crate::techniques::rules::GameRules;
use crate::techniques::table::Table;
use smallvec::SmallVec;

impl<G: Game, E: Evaluator<G>, V: Variant, W: Observer<G>> Searcher<G, E, V, W> {
    #[inline(always)]
    fn cutoff(&mut self, index: usize, m: G::Move, depth: i32, ply: usize, tried: &[G::Move]) {
        self.stats.beta_cutoffs += 1;
        if index == 0 {
            self.stats.first_move_cutoffs += 1;
        }
        V::Order::on_cutoff(&mut self.order, &self.game, m, depth, ply, tried);
    }

    #[inline(always)]
    pub(crate) fn leave(&mut self, ply: usize, score: Score, exit: Exit) -> Score {
        self.observer.leave(ply, score, exit);
        score
    }

    /// The negamax node: scores for the side to move; `null_ok` is false right after a null move (and at the
    /// root).
    pub(crate) fn negamax(
        &mut self,
        mut depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        null_ok: bool,
    ) -> Score {
        if self.enter(ply) {
            return self.leave(ply, 0, Exit::Value);
        }
        let extras = V::Extras::ENABLED;
        let pv_node = beta - alpha > 1;
        if extras && ply > 0 && self.options.rules {
            let rule = self.game.rules(ply);
            if let Some(score) = GameRules::apply(rule, &mut alpha, &mut beta) {
                if matches!(rule, Rule::Decided(_)) {
                    self.stats.rule_cutoffs += 1;
                }
                return self.leave(ply, score, Exit::Rule);
            }
        }
        let in_check = extras && if ply > 0 { self.in_check_at[ply] } else { self.game.in_check() };
        debug_assert!(!extras || in_check == self.game.in_check(), "in-check hint wrong at ply {ply}");
        if self.options.check_extension && CheckExtension::extends(in_check, ply) {
            depth += 1;
            self.stats.check_extensions += 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            self.stats.leaf_nodes += 1;
            return V::Leaf::leaf(self, alpha, beta, ply);
        }

        // The transposition table.
        let key = self.game.hash();
        let mut hash_move = 0u16;
        let mut tt_eval = None;
        if let Some(tt) = self.tt_enabled() {
            if let Some(hit) = tt.probe(key, ply) {
                self.stats.tt_hits += 1;
                hash_move = hit.mv;
                tt_eval = Some(hit.eval);
                if Table::cuts(&hit, depth, alpha, beta, pv_node, ply) {
                    self.stats.tt_cutoffs += 1;
                    return self.leave(ply, hit.score, Exit::TableHit);
                }
            }
        }

        // Node pruning near the horizon, from the static evaluation.
        let mut static_eval = -INFINITY;
        if extras && !in_check {
            static_eval = tt_eval.unwrap_or_else(|| self.evaluate());
            if !pv_node && ply > 0 && beta.abs() < MATE_BOUND {
                if self.options.reverse_futility && ReverseFutility::cuts(depth, static_eval, beta) {
                    self.stats.reverse_futility_prunes += 1;
                    return self.leave(ply, static_eval, Exit::Pruned);
                }
                if self.options.razoring && Razoring::tries(depth, static_eval, alpha) {
                    self.observer.enter(ply, alpha, beta, 0, NodeKind::Quiescence);
                    let q = V::Leaf::leaf(self, alpha, alpha + 1, ply);
                    if q <= alpha {
                        self.stats.razor_prunes += 1;
                        return self.leave(ply, q, Exit::Pruned);
                    }
                }
            }
        }

        let node = NullNode { depth, beta, ply, null_ok, pv_node, static_eval };
        if let Some(score) = V::Null::try_null(self, node) {
            return self.leave(ply, score, Exit::NullCutoff);
        }

        // With an ordering that puts it first, the hash move is tried before any move is generated: a node it cuts
        // off generates nothing.
        let mut moves = NodeMoves::new(hash_move);
        let prune = V::Form::prune(&self.options.parts);
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut exit = Exit::Value;
        let mut quiets_tried: SmallVec<[G::Move; 32]> = SmallVec::new();
        let pruning = extras && self.options.futility && !pv_node && !in_check;
        let futility_ok = pruning && Futility::applies(depth, static_eval, alpha);
        let late_limit = if pruning { LateMovePruning::limit(depth) } else { usize::MAX };
        let mut i = 0;
        while let Some(m) = self.next_move(&mut moves, ply) {
            let quiet = extras && self.game.is_quiet(m);
            self.observer.edge(ply, Some(m));
            let late = i >= late_limit && best > -MATE_BOUND;
            if ((futility_ok && i > 0) || late) && quiet && !self.game.gives_check(m) {
                // Pruned without being made: observers see the move announced and never entered.
                self.stats.futility_prunes += 1;
                if futility_ok {
                    best = best.max(Futility::bound(depth, static_eval));
                }
                i += 1;
                continue;
            }
            if depth > 1 {
                self.prefetch_child(m);
            }
            self.make(m);
            let gives_check = extras && self.game.in_check();
            if extras {
                self.in_check_at[ply + 1] = gives_check;
            }
            let reduction =
                if extras && self.options.lmr && LateMoveReductions::reduces(depth, i, quiet, gives_check, in_check) {
                    self.lmr.get(depth, i, pv_node)
                } else {
                    0
                };
            let score = V::Child::search_child(self, i, depth, alpha, beta, ply, reduction);
            self.unmake();
            if self.stopped {
                return self.leave(ply, 0, Exit::Value);
            }
            if score > best {
                best = score;
                if !prune || score > alpha {
                    best_move = Some(m);
                    self.update_pv(ply, m);
                }
            }
            if prune {
                alpha = alpha.max(score);
                if alpha >= beta {
                    self.cutoff(i, m, depth, ply, &quiets_tried);
                    exit = Exit::BetaCutoff;
                    if W::ACTIVE {
                        while let Some(rest) = self.next_move(&mut moves, ply) {
                            self.observer.pruned(ply, rest);
                        }
                    }
                    break;
                }
            }
            if quiet && quiets_tried.len() < 32 {
                quiets_tried.push(m);
            }
            i += 1;
        }
        if i == 0 && exit != Exit::BetaCutoff {
            let score = self.game.no_moves_score(ply);
            return self.leave(ply, score, Exit::NoMoves);
        }
        let result = if prune && !V::Form::fail_soft(&self.options.parts) { best.clamp(alpha0, beta) } else { best };
        if let Some(tt) = self.tt_enabled() {
            // A root that may not play every move (MultiPV's later lines, searchmoves) has no score of its own.
            if ply > 0 || (self.excluded.is_empty() && self.limits.root_moves.is_none()) {
                let bound = Table::bound(result, alpha0, beta);
                let mv = best_move.map_or(0, G::encode_move);
                let eval = if static_eval > -INFINITY { static_eval } else { 0 };
                tt.store(key, ply, mv, result, eval, depth, bound);
            }
        }
        self.leave(ply, result, exit)
    }

    /// The two-sided node: scores from the first player's view; MAX nodes raise alpha, MIN nodes lower beta.
    pub(crate) fn two_sided(&mut self, depth: i32, mut alpha: Score, mut beta: Score, ply: usize) -> Score {
        if self.enter(ply) {
            return self.leave(ply, 0, Exit::Value);
        }
        let max = self.game.first_player_to_move();
        // (Observers get the side to move's view: `sign * value`.)
        let sign = if max { 1 } else { -1 };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            self.stats.leaf_nodes += 1;
            let (a, b) = if max { (alpha, beta) } else { (-beta, -alpha) };
            return sign * V::Leaf::leaf(self, a, b, ply);
        }
        let mut moves = NodeMoves::new(0);
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if max { -INFINITY } else { INFINITY };
        let mut exit = Exit::Value;
        let mut i = 0;
        while let Some(m) = self.next_move(&mut moves, ply) {
            self.observer.edge(ply, Some(m));
            self.make(m);
            // Observers see windows and values from the side to move's view, as in negamax.
            let (a, b) = if max { (-beta, -alpha) } else { (alpha, beta) };
            self.observer.enter(ply + 1, a, b, depth - 1, NodeKind::Main);
            let score = self.two_sided(depth - 1, alpha, beta, ply + 1);
            self.unmake();
            if self.stopped {
                return self.leave(ply, 0, Exit::Value);
            }
            let improved = if max { score > best } else { score < best };
            if improved {
                best = score;
                self.update_pv(ply, m);
            }
            if V::Form::prune(&self.options.parts) {
                if max {
                    alpha = alpha.max(score);
                } else {
                    beta = beta.min(score);
                }
                if alpha >= beta {
                    self.cutoff(i, m, depth, ply, &[]);
                    exit = Exit::BetaCutoff;
                    if W::ACTIVE {
                        while let Some(rest) = self.next_move(&mut moves, ply) {
                            self.observer.pruned(ply, rest);
                        }
                    }
                    break;
                }
            }
            i += 1;
        }
        if i == 0 && exit != Exit::BetaCutoff {
            let score = self.game.no_moves_score(ply);
            return sign * self.leave(ply, score, Exit::NoMoves);
        }
        // Fail-hard forms return the window's bound when the value falls outside it.
        let parts = &self.options.parts;
        let best = if V::Form::prune(parts) && !V::Form::fail_soft(parts) { best.clamp(alpha0, beta0) } else { best };
        sign * self.leave(ply, sign * best, exit)
    }
}
