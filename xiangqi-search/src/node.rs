//! The node functions: the negamax node (with the engine's additions when the variant has them) and the two-sided
//! node (the spec's minimax and `alphaBeta(isMax)`).

use crate::game::{Evaluator, FastPaths, Rule, Score, INFINITY, MATE_BOUND, MAX_PLY};
use crate::movepick::{MovePicker, NodeMoves, OrderPolicy};
use crate::policy::{
    Additions, ChildNode, ChildPolicy, Exit, Form, Label, LeafPolicy, NodeKind, NullNode, NullPolicy, Observer, Step,
    Variant,
};
use crate::searcher::Searcher;
use crate::techniques::check_extension::{self, CheckExtension};
use crate::techniques::correction_history::{self, CorrectionHistory};
use crate::techniques::futility::{self, SkipRule};
use crate::techniques::history_lmr::{self, HistoryReductions};
use crate::techniques::history_pruning;
use crate::techniques::iir::InternalIterativeReduction;
use crate::techniques::improving::{self, Improving};
use crate::techniques::late_move_reductions::LateMoveReductions;
use crate::techniques::mate_distance::MateDistance;
use crate::techniques::probcut::{self, ProbCut};
use crate::techniques::razoring::Razoring;
use crate::techniques::reverse_futility::ReverseFutility;
use crate::techniques::rules::{self, GameRules};
use crate::techniques::see_pruning::{self, SeeRule, SeeSkip};
use crate::techniques::singular::{self, Singular, SingularExtension};
use crate::techniques::table::{self, Table};
use crate::tt::{Bound, TtHit};
use smallvec::SmallVec;

/// A node's static evaluation: the evaluator's (`raw`, what the table keeps), the one the pruning reads
/// (`corrected` by the correction history when the variant has it) and the improving signal.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NodeEval {
    raw: Score,
    corrected: Score,
    improving: Improving,
}

impl NodeEval {
    /// No static evaluation (in check, or a variant without the engine's additions).
    const NONE: NodeEval = NodeEval { raw: -INFINITY, corrected: -INFINITY, improving: Improving::OFF };
}

impl<G: FastPaths, E: Evaluator<G, G::Move>, V: Variant, W: Observer<G>> Searcher<G, E, V, W> {
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn cutoff(
        &mut self,
        index: usize,
        m: G::Move,
        depth: i32,
        ply: usize,
        tried: &[G::Move],
        captures: &[G::Move],
        rest: &mut NodeMoves<G>,
    ) {
        self.stats.beta_cutoffs += 1;
        if index == 0 {
            self.stats.first_move_cutoffs += 1;
        }
        V::Order::on_cutoff(&mut self.order, &self.game, m, depth, ply, tried);
        if V::Additions::ENABLED {
            V::Order::on_capture_cutoff(&mut self.order, &self.game, m, depth, captures);
        }
        // Observers hear of the moves the cutoff left unsearched (nothing for ordinary searches).
        if W::ACTIVE {
            while let Some(rest) = self.next_move(rest, ply) {
                self.observer.pruned(ply, rest);
            }
        }
    }

    /// The next legal move of the node at `ply`, in the variant's order (see [`NodeMoves::next`]).
    #[inline(always)]
    pub(crate) fn next_move(&self, nm: &mut NodeMoves<G>, ply: usize) -> Option<G::Move> {
        nm.next::<V::Order>(&self.game, &self.order, ply, |m| self.root_allows(m))
    }

    #[inline(always)]
    pub(crate) fn leave(&mut self, ply: usize, score: Score, exit: Exit) -> Score {
        self.observer.leave(ply, score, exit);
        score
    }

    /// Emits the line-level event `f` builds ([`Observer::step`]) when the observer is active; for an ordinary
    /// search ([`crate::Silent`]) nothing is built.
    #[inline(always)]
    pub(crate) fn trace(&mut self, f: impl FnOnce(&Self) -> Step<G::Move>) {
        if W::ACTIVE {
            let step = f(self);
            self.observer.step(step);
        }
    }

    /// A step of the node at `ply` with its window (see [`Step::at`]).
    #[inline(always)]
    pub(crate) fn step_at(&self, label: Label, ply: usize, depth: i32, alpha: Score, beta: Score) -> Step<G::Move> {
        Step::at(label, ply, depth, alpha, beta, self.game.first_player_to_move())
    }

    /// Leaves a negamax node early (the engine's table, rules and pruning) with the `return` step.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn leave_early(&mut self, ply: usize, depth: i32, alpha: Score, beta: Score, score: Score, exit: Exit) -> Score {
        self.trace(|s| s.step_at(Label::Return, ply, depth, alpha, beta).value(score));
        self.leave(ply, score, exit)
    }

    /// The negamax node: scores for the side to move; `null_ok` is false right after a null move (and at the
    /// root). A skeleton of named hooks (the `Hook:` comments, in Stockfish's order); each technique of the
    /// engine's that acts in the node (`techniques/`) is a call at one of them that folds away when the variant
    /// lacks the engine's additions. The others act elsewhere: aspiration windows at the root (`searcher.rs`),
    /// quiescence pruning in quiescence (`policy/quiescence.rs`), the verified null move in the null-move slot
    /// (called from the prune hook), the late move reduction's probe in the child search (`policy/child.rs`).
    pub(crate) fn negamax(
        &mut self,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        null_ok: bool,
    ) -> Score {
        if self.enter(ply) {
            return self.leave(ply, 0, Exit::Value);
        }
        self.trace(|s| s.step_at(Label::Enter, ply, depth, alpha, beta));
        let pv_node = beta - alpha > 1;
        // Hook: the game's rules decide or narrow the node.
        if let Some(score) = self.rules_hook(ply, &mut alpha, &mut beta) {
            return self.leave_early(ply, depth, alpha, beta, score, Exit::Rule);
        }
        // Hook: mate distance pruning bounds the window by the shortest mates still possible.
        if let Some(score) = MateDistance::prune(self, ply, &mut alpha, &mut beta) {
            return self.leave_early(ply, depth, alpha, beta, score, Exit::Pruned);
        }
        // Hook: extensions.
        let (in_check, depth) = self.extend_hook(depth, ply);
        if depth <= 0 || ply >= MAX_PLY - 1 {
            self.stats.leaf_nodes += 1;
            return V::Leaf::leaf(self, alpha, beta, ply);
        }
        // Hook: the transposition table's probe (a cutoff, or the hash move and the stored evaluation).
        // (A singular extension's search without the table move takes nothing from the table.)
        let key = self.game.hash();
        let excluding = V::Additions::ENABLED && self.excluded_at[ply] != 0;
        let hit = if excluding {
            None
        } else {
            match self.probe_hook(key, depth, alpha, beta, ply, pv_node) {
                Ok(hit) => hit,
                Err(score) => return self.leave_early(ply, depth, alpha, beta, score, Exit::TableHit),
            }
        };
        let (hash_move, tt_eval) = hit.map_or((0, None), |h| (h.mv, Some(h.eval)));
        // Hook: node pruning before the moves, from the static evaluation (reverse futility, razoring), then the
        // null move (the composition's null policy: the spec's, or the engine's verified null move).
        let node =
            NullNode { depth, alpha, beta, ply, null_ok: null_ok && !excluding, pv_node, static_eval: -INFINITY };
        let eval = match self.prune_hook(node, alpha, in_check, tt_eval) {
            Ok(eval) => eval,
            Err((score, exit)) if exit == Exit::NullCutoff => return self.leave(ply, score, exit),
            Err((score, exit)) => return self.leave_early(ply, depth, alpha, beta, score, exit),
        };
        let static_eval = eval.corrected;
        // Hook: internal iterative reduction of a node the table knows no move for.
        let depth = if V::Additions::ENABLED && !excluding {
            InternalIterativeReduction::depth(self, depth, hash_move, in_check)
        } else {
            depth
        };
        // Hook: ProbCut (a capture beating beta by a margin in shallower searches, or a table bound far above beta).
        if let Some(score) = self.probcut_hook(hit, key, depth, beta, ply, pv_node, in_check, excluding, eval) {
            return self.leave_early(ply, depth, alpha, beta, score, Exit::Pruned);
        }
        // Hook: singular extension (or multi-cut) from a search without the table move.
        let hash_extension = match self.singular_hook(hit, depth, beta, ply, pv_node, excluding) {
            Singular::Extend(plies) => plies,
            Singular::MultiCut(value) => return self.leave_early(ply, depth, alpha, beta, value, Exit::Pruned),
        };
        // The moves. With an ordering that puts it first, the hash move is tried before any move is generated.
        let mut moves = NodeMoves::new(hash_move);
        let prune = V::Form::prune(&self.config);
        let (alpha0, mut best, mut best_move, mut exit) = (alpha, -INFINITY, None, Exit::Value);
        let mut quiets_tried: SmallVec<[G::Move; 32]> = SmallVec::new();
        let mut captures_tried: SmallVec<[G::Move; 16]> = SmallVec::new();
        let skip = self.skip_rule(depth, alpha, pv_node, in_check, static_eval, eval.improving);
        let history_on = self.reads_history();
        let mut i = 0;
        while let Some(m) = self.next_move(&mut moves, ply) {
            if excluding && G::encode_move(m) == self.excluded_at[ply] {
                continue;
            }
            let quiet = V::Additions::ENABLED && self.game.is_quiet(m);
            let history = if quiet && history_on { V::Order::quiet_score(&self.order, &self.game, m, ply) } else { 0 };
            self.trace(|s| s.step_at(Label::Next, ply, depth, alpha, beta).best(best).with_move(m));
            self.observer.edge(ply, Some(m));
            // Hook: skip a move without making it (futility, late move pruning, history pruning).
            if let Some(bound) = self.skip_hook(&skip, m, i, quiet, best, history) {
                best = best.max(bound);
                i += 1;
                continue;
            }
            self.prefetch_child(m, depth);
            let nodes_before = if V::Additions::ENABLED && ply == 0 { self.stats.nodes() } else { 0 };
            if V::Additions::ENABLED {
                V::Order::on_make(&mut self.order, &self.game, Some(m), ply);
            }
            self.make(m);
            // Hook: reduce (late move reductions); the child policy searches the move (full window or PVS).
            let reduction = self.reduce_hook(depth, i, ply, quiet, in_check, pv_node, eval.improving, history);
            let extension = if hash_extension != 0 && G::encode_move(m) == hash_move { hash_extension } else { 0 };
            let child = ChildNode { index: i, depth: depth + extension, alpha, beta, ply, reduction };
            let score = V::Child::search_child(self, child);
            self.unmake();
            // Time management counts the nodes under each root move.
            if V::Additions::ENABLED && ply == 0 {
                self.note_root_move(m, nodes_before);
            }
            if self.stopped {
                return self.leave(ply, 0, Exit::Value);
            }
            self.trace(|s| s.step_at(Label::Returned, ply, depth, alpha, beta).value(score).best(best).with_move(m));
            if score > best {
                best = score;
                self.trace(|s| s.step_at(Label::Best, ply, depth, alpha, beta).value(score).best(best).with_move(m));
                if !prune || score > alpha {
                    best_move = Some(m);
                    self.update_pv(ply, m);
                }
            }
            if prune {
                if W::ACTIVE && score > alpha {
                    self.trace(|s| {
                        s.step_at(Label::Alpha, ply, depth, score, beta).value(score).best(best).with_move(m)
                    });
                }
                alpha = alpha.max(score);
                if alpha >= beta {
                    self.trace(|s| {
                        s.step_at(Label::Cutoff, ply, depth, alpha, beta).value(score).best(best).with_move(m)
                    });
                    // Hook: the cutoff teaches the ordering.
                    self.cutoff(i, m, depth, ply, &quiets_tried, &captures_tried, &mut moves);
                    exit = Exit::BetaCutoff;
                    break;
                }
            }
            if quiet && quiets_tried.len() < 32 {
                quiets_tried.push(m);
            } else if V::Additions::ENABLED && !quiet && captures_tried.len() < 16 {
                captures_tried.push(m);
            }
            i += 1;
        }
        if i == 0 && exit != Exit::BetaCutoff {
            // Without the excluded move there may be none: that says the move is singular, not that the side
            // to move has lost.
            let score = if excluding { alpha } else { self.game.no_moves_score(ply) };
            self.trace(|s| s.step_at(Label::NoMoves, ply, depth, alpha, beta).value(score));
            return self.leave(ply, score, Exit::NoMoves);
        }
        if excluding {
            return self.leave_early(ply, depth, alpha, beta, best, exit);
        }
        // Hook: the correction history learns how far the search found the node from its static evaluation.
        self.correction_hook(depth, best, eval, alpha0, beta, best_move);
        // Hook: the node's value (the window's bound when it fails hard), stored in the transposition table.
        let result = self.store_hook(key, depth, ply, best, alpha0, beta, best_move, eval.raw);
        self.trace(|s| s.step_at(Label::Return, ply, depth, alpha, beta).value(result).best(best));
        self.leave(ply, result, exit)
    }

    /// The singular extension's search without the table move, when the variant has it and the node qualifies
    /// (see [`SingularExtension`]): how much deeper the table move is searched, or the multi-cut's value.
    #[inline(always)]
    fn singular_hook(
        &mut self,
        hit: Option<TtHit>,
        depth: i32,
        beta: Score,
        ply: usize,
        pv_node: bool,
        excluding: bool,
    ) -> Singular {
        let Some(hit) = hit.filter(|_| V::Additions::ENABLED && self.config.has(singular::ID)) else {
            return Singular::Extend(0);
        };
        if !SingularExtension::tests(&self.params, depth, ply, self.root_depth, &hit, excluding)
            || self.game.decode_legal(hit.mv).is_none()
        {
            return Singular::Extend(0);
        }
        let (singular_beta, singular_depth) = SingularExtension::bound_and_depth(&self.params, &hit, depth);
        self.excluded_at[ply] = hit.mv;
        self.observer.enter(ply, singular_beta - 1, singular_beta, singular_depth, NodeKind::ZeroWindow);
        let value = self.negamax(singular_depth, singular_beta - 1, singular_beta, ply, false);
        self.excluded_at[ply] = 0;
        self.pv_len[ply] = 0;
        let verdict = SingularExtension::verdict(&self.params, value, singular_beta, beta, hit.score, pv_node);
        match verdict {
            Singular::Extend(plies) if plies > 0 => self.stats.bump(singular::EXTENSIONS),
            Singular::MultiCut(_) => self.stats.bump(singular::MULTI_CUTS),
            _ => {}
        }
        verdict
    }

    /// ProbCut, when the variant has it (see [`ProbCut`]): `Some(value)` when the node is cut off.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn probcut_hook(
        &mut self,
        hit: Option<TtHit>,
        key: u64,
        depth: i32,
        beta: Score,
        ply: usize,
        pv_node: bool,
        in_check: bool,
        excluding: bool,
        eval: NodeEval,
    ) -> Option<Score> {
        if !(V::Additions::ENABLED && self.config.has(probcut::ID)) || pv_node || excluding || ply == 0 {
            return None;
        }
        self.probcut(hit, key, depth, beta, ply, in_check, eval)
    }

    /// ProbCut's table cut, then its captures' shallow searches, at a zero-window node (see [`ProbCut`]).
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        hit: Option<TtHit>,
        key: u64,
        depth: i32,
        beta: Score,
        ply: usize,
        in_check: bool,
        eval: NodeEval,
    ) -> Option<Score> {
        if let Some(value) = hit.and_then(|h| ProbCut::table_cut(&self.params, depth, false, beta, &h)) {
            self.stats.bump(probcut::TABLE_CUTS);
            return Some(value);
        }
        let probcut_beta = ProbCut::beta(&self.params, beta, eval.improving);
        if !ProbCut::tries(&self.params, depth, ply, false, in_check, false, beta, probcut_beta, hit.as_ref()) {
            return None;
        }
        // Only the captures whose exchange alone lifts the static evaluation to the ProbCut bound, best victim first.
        let threshold = probcut_beta - eval.corrected;
        let mut picker = MovePicker::new();
        self.game.generate_captures_unchecked(picker.moves_mut());
        let game = &self.game;
        picker.set_keys(|m| game.capture_key(m));
        let (child, shallow) = (ply + 1, depth - ProbCut::REDUCTION);
        while let Some(m) = picker.next() {
            if !self.game.see_ge(m, threshold) || !self.game.is_legal_capture(m) {
                continue;
            }
            self.observer.edge(ply, Some(m));
            self.prefetch_child(m, depth);
            V::Order::on_make(&mut self.order, &self.game, Some(m), ply);
            self.make(m);
            self.in_check_at[child] = self.game.in_check();
            // A quiescence search first (the child at depth 0), then the shallow search, both at the bound.
            self.observer.enter(child, -probcut_beta, -probcut_beta + 1, 0, NodeKind::ZeroWindow);
            let mut value = -self.negamax(0, -probcut_beta, -probcut_beta + 1, child, true);
            if value >= probcut_beta && !self.stopped {
                self.observer.enter(child, -probcut_beta, -probcut_beta + 1, shallow, NodeKind::ZeroWindow);
                value = -self.negamax(shallow, -probcut_beta, -probcut_beta + 1, child, true);
            }
            self.unmake();
            if self.stopped {
                return Some(0);
            }
            if value >= probcut_beta {
                self.stats.bump(probcut::CUTS);
                if let Some(tt) = self.tt_enabled() {
                    let stored_depth = depth - ProbCut::TABLE_DEPTH;
                    tt.store(key, ply, G::encode_move(m), value, eval.raw, stored_depth, Bound::Lower);
                }
                return Some(ProbCut::value(value, probcut_beta, beta));
            }
        }
        None
    }

    /// Whether the node's techniques read the quiet moves' history (history pruning, history-adjusted reductions).
    #[inline(always)]
    fn reads_history(&self) -> bool {
        V::Additions::ENABLED && (self.config.has(history_pruning::ID) || self.config.has(history_lmr::ID))
    }

    /// Teaches the correction history the node's result, when the variant has it and the result says something
    /// about the static evaluation (see [`CorrectionHistory::learns`]).
    #[inline(always)]
    fn correction_hook(
        &mut self,
        depth: i32,
        best: Score,
        eval: NodeEval,
        alpha0: Score,
        beta: Score,
        best_move: Option<G::Move>,
    ) {
        if !(V::Additions::ENABLED && eval.raw > -INFINITY && self.config.has(correction_history::ID)) {
            return;
        }
        let capture = best_move.is_some_and(|m| !self.game.is_quiet(m));
        if CorrectionHistory::learns(best, eval.corrected, alpha0, beta, capture) {
            V::Order::learn_correction(&mut self.order, &self.game, best - eval.raw, depth);
        }
    }

    /// The game's rules at `ply` (not the root): `Some(score)` when they decide the node; they may narrow the window.
    #[inline(always)]
    fn rules_hook(&mut self, ply: usize, alpha: &mut Score, beta: &mut Score) -> Option<Score> {
        if !(V::Additions::ENABLED && ply > 0 && self.config.has(rules::ID)) {
            return None;
        }
        let rule = self.game.rules(ply);
        let score = GameRules::apply(rule, alpha, beta)?;
        if matches!(rule, Rule::Decided(_)) {
            self.stats.bump(rules::CUTOFFS);
        }
        Some(score)
    }

    /// Whether the side to move is in check (known only with the engine's additions), and the depth after the check
    /// extension.
    #[inline(always)]
    fn extend_hook(&mut self, mut depth: i32, ply: usize) -> (bool, i32) {
        let additions = V::Additions::ENABLED;
        let in_check = additions && if ply > 0 { self.in_check_at[ply] } else { self.game.in_check() };
        debug_assert!(!additions || in_check == self.game.in_check(), "in-check hint wrong at ply {ply}");
        if self.config.has(check_extension::ID) && CheckExtension::extends(in_check, ply) {
            depth += 1;
            self.stats.bump(check_extension::EXTENSIONS);
        }
        (in_check, depth)
    }

    /// The table's answer for `key`: `Err(score)` for a cutoff, else the hash move (0 for none) and the stored
    /// static evaluation.
    #[inline(always)]
    fn probe_hook(
        &mut self,
        key: u64,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        pv_node: bool,
    ) -> Result<Option<TtHit>, Score> {
        let Some(hit) = self.tt_enabled().and_then(|tt| tt.probe(key, ply)) else { return Ok(None) };
        self.stats.bump(table::HITS);
        if Table::cuts(&hit, depth, alpha, beta, pv_node, ply) {
            self.stats.bump(table::CUTOFFS);
            return Err(hit.score);
        }
        Ok(Some(hit))
    }

    /// The static evaluation the engine's pruning needs (`-INFINITY` without it, or in check), or `Err` with the
    /// value and the reason when reverse futility, razoring or the null move cuts the node off.
    #[inline(always)]
    fn prune_hook(
        &mut self,
        mut node: NullNode,
        alpha: Score,
        in_check: bool,
        tt_eval: Option<Score>,
    ) -> Result<NodeEval, (Score, Exit)> {
        let eval = self.static_prune(node, alpha, in_check, tt_eval).map_err(|score| (score, Exit::Pruned))?;
        node.static_eval = eval.corrected;
        match V::Null::try_null(self, node) {
            Some(score) => Err((score, Exit::NullCutoff)),
            None => Ok(eval),
        }
    }

    /// The static evaluation (`-INFINITY` without the engine's additions, or in check), or `Err(score)` when
    /// reverse futility or razoring cuts the node off.
    #[inline(always)]
    fn static_prune(
        &mut self,
        node: NullNode,
        alpha: Score,
        in_check: bool,
        tt_eval: Option<Score>,
    ) -> Result<NodeEval, Score> {
        let NullNode { depth, beta, ply, pv_node, .. } = node;
        if !V::Additions::ENABLED || in_check {
            if V::Additions::ENABLED {
                self.eval_at[ply] = -INFINITY;
            }
            return Ok(NodeEval::NONE);
        }
        let raw = tt_eval.unwrap_or_else(|| self.evaluate());
        let static_eval = raw + V::Order::correction(&self.order, &self.game);
        self.eval_at[ply] = static_eval;
        let up = |back: usize| if ply >= back { self.eval_at[ply - back] } else { -INFINITY };
        let improving = Improving::signal(self.config.has(improving::ID), static_eval, up(2), up(4));
        let eval = NodeEval { raw, corrected: static_eval, improving };
        if pv_node || ply == 0 || beta.abs() >= MATE_BOUND {
            return Ok(eval);
        }
        if let Some(value) = ReverseFutility::prune(self, improving.rfp_depth(depth), static_eval, beta) {
            return Err(value);
        }
        if let Some(value) = Razoring::prune(self, depth, static_eval, alpha, ply) {
            return Err(value);
        }
        Ok(eval)
    }

    /// What the node's moves may skip (futility and late move pruning; SEE pruning), when the variant has them.
    #[inline(always)]
    fn skip_rule(
        &self,
        depth: i32,
        alpha: Score,
        pv_node: bool,
        in_check: bool,
        static_eval: Score,
        improving: Improving,
    ) -> (SkipRule, SeeRule) {
        let additions = V::Additions::ENABLED;
        let on = additions && self.config.has(futility::ID);
        let history = additions && self.config.has(history_pruning::ID);
        let see = SeeRule::new(additions && self.config.has(see_pruning::ID), depth, pv_node, in_check);
        let rule = SkipRule::new(on, &self.params, depth, alpha, pv_node, in_check, static_eval)
            .late_limit_scaled(|limit| improving.late_limit(limit))
            .with_history(history && !pv_node && !in_check, &self.params, depth);
        (rule, see)
    }

    /// `Some(bound)` when the `index`-th move `m` (with the quiet `history` of [`OrderPolicy::quiet_score`]) is
    /// skipped without being made (see [`SkipRule::skips`], [`SkipRule::history_skips`] and [`SeeRule::skips`]).
    #[inline(always)]
    fn skip_hook(
        &mut self,
        (rule, see): &(SkipRule, SeeRule),
        m: G::Move,
        index: usize,
        quiet: bool,
        best: Score,
        history: Score,
    ) -> Option<Score> {
        // Pruned without being made: observers see the move announced and never entered.
        if let Some(bound) = rule.skips(index, quiet, best, || self.game.gives_check(m)) {
            self.stats.bump(futility::PRUNES);
            return Some(bound);
        }
        if rule.history_skips(index, quiet, best, history, || self.game.gives_check(m)) {
            self.stats.bump(history_pruning::PRUNES);
            return Some(-INFINITY);
        }
        let game = &self.game;
        let counter = match see.skips(quiet, best, |t| game.see_ge(m, t), || game.gives_check(m)) {
            SeeSkip::Keep => return None,
            SeeSkip::Capture => see_pruning::CAPTURE_PRUNES,
            SeeSkip::Quiet => see_pruning::QUIET_PRUNES,
        };
        self.stats.bump(counter);
        Some(-INFINITY)
    }

    /// After the move is made: notes whether it gives check, and the late move reduction it is searched with.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn reduce_hook(
        &mut self,
        depth: i32,
        index: usize,
        ply: usize,
        quiet: bool,
        in_check: bool,
        pv_node: bool,
        improving: Improving,
        history: Score,
    ) -> i32 {
        if !V::Additions::ENABLED {
            return 0;
        }
        let gives_check = self.game.in_check();
        self.in_check_at[ply + 1] = gives_check;
        let r =
            LateMoveReductions::reduction(&self.config, &self.lmr, depth, index, quiet, gives_check, in_check, pv_node);
        if r <= 0 {
            return r;
        }
        let r = improving.reduction(r, depth);
        if self.config.has(history_lmr::ID) {
            HistoryReductions::adjust(&self.params, r, history, depth)
        } else {
            r
        }
    }

    /// Stores the node's result. A root that may not play every move (MultiPV's later lines, searchmoves) has no
    /// score of its own.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn store_hook(
        &mut self,
        key: u64,
        depth: i32,
        ply: usize,
        best: Score,
        alpha0: Score,
        beta: Score,
        best_move: Option<G::Move>,
        static_eval: Score,
    ) -> Score {
        let config = &self.config;
        let result =
            if V::Form::prune(config) && !V::Form::fail_soft(config) { best.clamp(alpha0, beta) } else { best };
        let Some(tt) = self.tt_enabled() else { return result };
        if ply > 0 || (self.excluded.is_empty() && self.limits.root_moves.is_none()) {
            let mv = best_move.map_or(0, G::encode_move);
            let eval = if static_eval > -INFINITY { static_eval } else { 0 };
            tt.store(key, ply, mv, result, eval, depth, Table::bound(result, alpha0, beta));
        }
        result
    }

    /// The two-sided node: scores from the first player's view; MAX nodes raise alpha, MIN nodes lower beta.
    pub(crate) fn two_sided(&mut self, depth: i32, mut alpha: Score, mut beta: Score, ply: usize) -> Score {
        if self.enter(ply) {
            return self.leave(ply, 0, Exit::Value);
        }
        let max = self.game.first_player_to_move();
        // (Observers get the side to move's view: `sign * value`; line-level steps the first player's, like the
        // node's own variables.)
        let sign = if max { 1 } else { -1 };
        self.trace(|s| s.step_at(Label::Enter, ply, depth, alpha, beta));
        if depth <= 0 || ply >= MAX_PLY - 1 {
            self.stats.leaf_nodes += 1;
            let (a, b) = if max { (alpha, beta) } else { (-beta, -alpha) };
            return sign * V::Leaf::leaf(self, a, b, ply);
        }
        // The table, when the variant has it, stores the side to move's view like the negamax node's; the two-sided
        // form has no PV to keep beyond the root, so any node past it may take a cutoff.
        let key = self.game.hash();
        let (own_alpha, own_beta) = if max { (alpha, beta) } else { (-beta, -alpha) };
        let hash_move = match self.probe_hook(key, depth, own_alpha, own_beta, ply, false) {
            Ok(hit) => hit.map_or(0, |h| h.mv),
            Err(score) => {
                self.trace(|s| s.step_at(Label::Return, ply, depth, alpha, beta).value(sign * score));
                return sign * self.leave(ply, score, Exit::TableHit);
            }
        };
        let mut moves = NodeMoves::new(hash_move);
        let mut best = if max { -INFINITY } else { INFINITY };
        let mut best_move = None;
        let mut exit = Exit::Value;
        let mut i = 0;
        while let Some(m) = self.next_move(&mut moves, ply) {
            self.trace(|s| s.step_at(Label::Next, ply, depth, alpha, beta).best(best).with_move(m));
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
            self.trace(|s| s.step_at(Label::Returned, ply, depth, alpha, beta).value(score).best(best).with_move(m));
            let improved = if max { score > best } else { score < best };
            if improved {
                best = score;
                best_move = Some(m);
                self.update_pv(ply, m);
                self.trace(|s| s.step_at(Label::Best, ply, depth, alpha, beta).value(score).best(best).with_move(m));
            }
            if V::Form::prune(&self.config) {
                if max {
                    if W::ACTIVE && score > alpha {
                        self.trace(|s| {
                            s.step_at(Label::Alpha, ply, depth, score, beta).value(score).best(best).with_move(m)
                        });
                    }
                    alpha = alpha.max(score);
                } else {
                    if W::ACTIVE && score < beta {
                        self.trace(|s| {
                            s.step_at(Label::Beta, ply, depth, alpha, score).value(score).best(best).with_move(m)
                        });
                    }
                    beta = beta.min(score);
                }
                if alpha >= beta {
                    self.trace(|s| {
                        s.step_at(Label::Cutoff, ply, depth, alpha, beta).value(score).best(best).with_move(m)
                    });
                    self.cutoff(i, m, depth, ply, &[], &[], &mut moves);
                    exit = Exit::BetaCutoff;
                    break;
                }
            }
            i += 1;
        }
        if i == 0 && exit != Exit::BetaCutoff {
            let score = self.game.no_moves_score(ply);
            self.trace(|s| s.step_at(Label::NoMoves, ply, depth, alpha, beta).value(sign * score));
            return sign * self.leave(ply, score, Exit::NoMoves);
        }
        // Fail-hard forms return the window's bound when the value falls outside it.
        let own = self.store_hook(key, depth, ply, sign * best, own_alpha, own_beta, best_move, -INFINITY);
        self.trace(|s| s.step_at(Label::Return, ply, depth, alpha, beta).value(sign * own).best(best));
        sign * self.leave(ply, own, exit)
    }
}
