//! The node functions: the negamax node (with the engine's additions when the variant has them) and the two-sided
//! node (the spec's minimax and `alphaBeta(isMax)`).

use crate::game::{Evaluator, FastPaths, Rule, Score, INFINITY, MATE_BOUND, MAX_PLY};
use crate::movepick::NodeMoves;
use crate::ordering::{OrderContext, OrderPolicy};
use crate::policy::{
    Additions, ChildNode, ChildPolicy, Exit, Form, Label, LeafPolicy, Node, NodeEval, NodeKind, NullPolicy, Observer,
    Step, Variant,
};
use crate::searcher::Searcher;
use crate::techniques::check_extension::{self, CheckExtension};
use crate::techniques::correction_history::{self, CorrectionHistory};
use crate::techniques::fail_high::FailHighDamping;
use crate::techniques::futility::{self, SkipRule};
use crate::techniques::history_lmr::{self, HistoryReductions};
use crate::techniques::history_pruning;
use crate::techniques::iir::InternalIterativeReduction;
use crate::techniques::improving::{self, Improving};
use crate::techniques::late_move_reductions::LateMoveReductions;
use crate::techniques::mate_distance::MateDistance;
use crate::techniques::probcut::ProbCut;
use crate::techniques::razoring::Razoring;
use crate::techniques::reverse_futility::ReverseFutility;
use crate::techniques::rules::{self, GameRules};
use crate::techniques::see_pruning::{self, SeeRule, SeeSkip};
use crate::techniques::singular::{Singular, SingularExtension};
use crate::techniques::table::{self, Table};
use crate::tt::TtHit;
use smallvec::SmallVec;

/// The moves a node has searched so far that did not cut it off, quiet moves and captures apart: what the
/// histories learn from at a cutoff (Stockfish's `quietsSearched` and `capturesSearched`).
pub(crate) struct Tried<M> {
    quiets: SmallVec<[M; 32]>,
    captures: SmallVec<[M; 16]>,
}

impl<M: Copy> Tried<M> {
    #[inline(always)]
    fn new() -> Self {
        Tried { quiets: SmallVec::new(), captures: SmallVec::new() }
    }

    /// Notes a searched move (`quiet` or not; captures only when `captures` are kept).
    #[inline(always)]
    fn push(&mut self, m: M, quiet: bool, captures: bool) {
        if quiet && self.quiets.len() < 32 {
            self.quiets.push(m);
        } else if captures && !quiet && self.captures.len() < 16 {
            self.captures.push(m);
        }
    }
}

impl<G: FastPaths, E: Evaluator<G, G::Move>, V: Variant, W: Observer<G>> Searcher<G, E, V, W> {
    /// A cutoff by the `index`-th move `m` of a node with `depth` plies left at `ply`: counted, and taught to the
    /// ordering with the moves `tried` before it.
    #[inline(always)]
    fn cutoff(
        &mut self,
        index: usize,
        m: G::Move,
        depth: i32,
        ply: usize,
        tried: &Tried<G::Move>,
        rest: &mut NodeMoves<G>,
    ) {
        self.stats.beta_cutoffs += 1;
        if index == 0 {
            self.stats.first_move_cutoffs += 1;
        }
        if V::Order::learns(&self.order) {
            if self.game.is_quiet(m) {
                self.stack.learn_killer(ply, G::encode_move(m));
                let on = self.histories.continuation.is_on();
                let previous = if on { self.stack.previous(ply) } else { [0; 2] };
                self.histories.learn(&self.game, m, depth, previous, &tried.quiets);
            }
            if V::Additions::ENABLED {
                self.histories.learn_captures(&self.game, m, depth, &tried.captures);
            }
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
        let at = OrderContext::new(&self.histories, &self.stack, ply);
        nm.next::<V::Order>(&self.game, &self.order, at, |m| self.root_allows(m))
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
    fn leave_early(&mut self, ply: usize, depth: i32, alpha: Score, beta: Score, score: Score, exit: Exit) -> Score {
        self.trace(|s| s.step_at(Label::Return, ply, depth, alpha, beta).value(score));
        self.leave(ply, score, exit)
    }

    /// Leaves the negamax node `n` early, with its window and depth in the `return` step.
    #[inline(always)]
    fn leave_node(&mut self, n: &Node, score: Score, exit: Exit) -> Score {
        self.leave_early(n.ply, n.depth, n.alpha, n.beta, score, exit)
    }

    /// The negamax node: scores for the side to move; `null_ok` is false right after a null move (and at the
    /// root). A skeleton of named hooks (the `Hook:` comments, in Stockfish's order); each technique of the
    /// engine's that acts in the node (`techniques/`) is a call at one of them, handed the node's context
    /// ([`Node`]), that folds away when the variant lacks the engine's additions. The others act elsewhere:
    /// aspiration windows at the root (`searcher.rs`), quiescence pruning in quiescence (`policy/quiescence.rs`),
    /// the verified null move in the null-move slot (called from the prune hook), the late move reduction's probe
    /// in the child search (`policy/child.rs`).
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
        let excluded = if V::Additions::ENABLED { self.stack[ply].excluded } else { 0 };
        let mut node = Node { pv_node, in_check, excluded, ..Node::new(depth, alpha, beta, ply, self.game.hash()) };
        node.null_ok = null_ok && !node.excluding();
        // Hook: the transposition table's probe (a cutoff, or the hash move and the stored evaluation).
        // (A singular extension's search without the table move takes nothing from the table.)
        if !node.excluding() {
            match self.probe_hook(&node) {
                Ok(hit) => node.hit = hit,
                Err(score) => return self.leave_node(&node, score, Exit::TableHit),
            }
        }
        // Hook: node pruning before the moves, from the static evaluation (reverse futility, razoring), then the
        // null move (the composition's null policy: the spec's, or the engine's verified null move).
        if let Err((score, exit)) = self.prune_hook(&mut node) {
            return match exit {
                Exit::NullCutoff => self.leave(ply, score, exit),
                _ => self.leave_node(&node, score, exit),
            };
        }
        // Hook: internal iterative reduction of a node the table knows no move for.
        if V::Additions::ENABLED && !node.excluding() {
            node.depth = InternalIterativeReduction::depth(self, node.depth, node.hash_move(), in_check);
        }
        // Hook: ProbCut (a capture beating beta by a margin in shallower searches, or a table bound far above beta).
        if let Some(score) = ProbCut::hook(self, &node) {
            return self.leave_node(&node, score, Exit::Pruned);
        }
        // Hook: singular extension (or multi-cut) from a search without the table move.
        let hash_extension = match SingularExtension::hook(self, &node) {
            Singular::Extend(plies) => plies,
            Singular::MultiCut(value) => return self.leave_node(&node, value, Exit::Pruned),
        };
        // The moves. With an ordering that puts it first, the hash move is tried before any move is generated.
        let (depth, hash_move) = (node.depth, node.hash_move());
        let mut moves = NodeMoves::new(hash_move);
        let prune = V::Form::prune(&self.config);
        let (mut best, mut best_move, mut exit) = (-INFINITY, None, Exit::Value);
        let mut tried = Tried::new();
        let skip = self.skip_rule(&node);
        let history_on = self.reads_history();
        let previous = if history_on { self.stack.previous(ply) } else { [0; 2] };
        let mut i = 0;
        while let Some(m) = self.next_move(&mut moves, ply) {
            if node.excluding() && G::encode_move(m) == node.excluded {
                continue;
            }
            let quiet = V::Additions::ENABLED && self.game.is_quiet(m);
            let history = if quiet && history_on { self.histories.quiet_score(&self.game, m, previous) } else { 0 };
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
            self.note_move(Some(m), ply);
            self.make(m);
            // Hook: reduce (late move reductions); the child policy searches the move (full window or PVS).
            let reduction = self.reduce_hook(&node, i, quiet, history);
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
                    self.cutoff(i, m, depth, ply, &tried, &mut moves);
                    exit = Exit::BetaCutoff;
                    break;
                }
            }
            tried.push(m, quiet, V::Additions::ENABLED);
            i += 1;
        }
        if i == 0 && exit != Exit::BetaCutoff {
            // Without the excluded move there may be none: that says the move is singular, not that the side
            // to move has lost.
            let score = if node.excluding() { alpha } else { self.game.no_moves_score(ply) };
            self.trace(|s| s.step_at(Label::NoMoves, ply, depth, alpha, beta).value(score));
            return self.leave(ply, score, Exit::NoMoves);
        }
        if node.excluding() {
            return self.leave_early(ply, depth, alpha, beta, best, exit);
        }
        // Hook: a fail-soft value above beta drawn toward it (fail-high damping).
        let best = FailHighDamping::adjust(self, &node, best);
        // Hook: the correction history learns how far the search found the node from its static evaluation.
        self.correction_hook(&node, best, best_move);
        // Hook: the node's value (the window's bound when it fails hard), stored in the transposition table.
        let result = self.store_hook(&node, best, best_move);
        self.trace(|s| s.step_at(Label::Return, ply, depth, alpha, beta).value(result).best(best));
        self.leave(ply, result, exit)
    }

    /// Whether the node's techniques read the quiet moves' history (history pruning, history-adjusted reductions)
    /// and the search keeps it.
    #[inline(always)]
    fn reads_history(&self) -> bool {
        V::Additions::ENABLED
            && V::Order::learns(&self.order)
            && (self.config.has(history_pruning::ID) || self.config.has(history_lmr::ID))
    }

    /// Teaches the correction history the result `best` (by `best_move`) of the node `n`, when the variant has it
    /// and the result says something about the static evaluation (see [`CorrectionHistory::learns`]).
    #[inline(always)]
    fn correction_hook(&mut self, n: &Node, best: Score, best_move: Option<G::Move>) {
        let on = V::Additions::ENABLED && V::Order::learns(&self.order) && self.config.has(correction_history::ID);
        if !(on && n.eval.raw > -INFINITY) {
            return;
        }
        let capture = best_move.is_some_and(|m| !self.game.is_quiet(m));
        if CorrectionHistory::learns(best, n.eval.corrected, n.alpha, n.beta, capture) {
            self.histories.correction.update(&self.game, best - n.eval.raw, n.depth);
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
        let in_check = additions && if ply > 0 { self.stack[ply].in_check } else { self.game.in_check() };
        debug_assert!(!additions || in_check == self.game.in_check(), "in-check hint wrong at ply {ply}");
        if self.config.has(check_extension::ID) && CheckExtension::extends(in_check, ply) {
            depth += 1;
            self.stats.bump(check_extension::EXTENSIONS);
        }
        (in_check, depth)
    }

    /// The table's answer for the node `n`: `Err(score)` for a cutoff, else its entry (the hash move and the
    /// stored static evaluation), if any.
    #[inline(always)]
    fn probe_hook(&mut self, n: &Node) -> Result<Option<TtHit>, Score> {
        let Some(hit) = self.tt_enabled().and_then(|tt| tt.probe(n.key, n.ply)) else { return Ok(None) };
        self.stats.bump(table::HITS);
        if Table::cuts(&hit, n.depth, n.alpha, n.beta, n.pv_node, n.ply) {
            self.stats.bump(table::CUTOFFS);
            return Err(hit.score);
        }
        Ok(Some(hit))
    }

    /// Fills in the node's static evaluation (none without the engine's additions, or in check), or `Err` with the
    /// value and the reason when reverse futility, razoring or the null move cuts the node off.
    #[inline(always)]
    fn prune_hook(&mut self, node: &mut Node) -> Result<(), (Score, Exit)> {
        node.eval = self.static_prune(node).map_err(|score| (score, Exit::Pruned))?;
        match V::Null::try_null(self, node) {
            Some(score) => Err((score, Exit::NullCutoff)),
            None => Ok(()),
        }
    }

    /// The static evaluation of the node `n` (`NodeEval::NONE` without the engine's additions, or in check), or
    /// `Err(score)` when reverse futility or razoring cuts the node off.
    #[inline(always)]
    fn static_prune(&mut self, n: &Node) -> Result<NodeEval, Score> {
        let Node { depth, alpha, beta, ply, pv_node, .. } = *n;
        if !V::Additions::ENABLED || n.in_check {
            if V::Additions::ENABLED {
                self.stack[ply].static_eval = -INFINITY;
            }
            return Ok(NodeEval::NONE);
        }
        let raw = n.hit.map_or_else(|| self.evaluate(), |h| h.eval);
        let correction = if V::Order::learns(&self.order) { self.histories.correction(&self.game) } else { 0 };
        let static_eval = raw + correction;
        self.stack[ply].static_eval = static_eval;
        let up = |back: usize| if ply >= back { self.stack[ply - back].static_eval } else { -INFINITY };
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

    /// What the moves of the node `n` may skip (futility and late move pruning; SEE pruning), when the variant has
    /// them.
    #[inline(always)]
    fn skip_rule(&self, n: &Node) -> (SkipRule, SeeRule) {
        let Node { depth, pv_node, in_check, .. } = *n;
        let additions = V::Additions::ENABLED;
        let on = additions && self.config.has(futility::ID);
        let history = additions && self.config.has(history_pruning::ID);
        let see = SeeRule::new(additions && self.config.has(see_pruning::ID), depth, pv_node, in_check);
        let rule = SkipRule::new(on, &self.params, n)
            .late_limit_scaled(|limit| n.eval.improving.late_limit(limit))
            .with_history(history && !pv_node && !in_check, &self.params, depth);
        (rule, see)
    }

    /// `Some(bound)` when the `index`-th move `m` (with the quiet `history` of [`crate::Histories::quiet_score`]) is
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

    /// After the `index`-th move of the node `n` is made: notes whether it gives check, and the late move
    /// reduction it is searched with (from its quiet `history` too).
    #[inline(always)]
    fn reduce_hook(&mut self, n: &Node, index: usize, quiet: bool, history: Score) -> i32 {
        if !V::Additions::ENABLED {
            return 0;
        }
        let gives_check = self.game.in_check();
        self.stack[n.ply + 1].in_check = gives_check;
        let r = LateMoveReductions::reduction(&self.config, &self.lmr, n, index, quiet, gives_check);
        if r <= 0 {
            return r;
        }
        let r = n.eval.improving.reduction(r, n.depth);
        if self.config.has(history_lmr::ID) {
            HistoryReductions::adjust(&self.params, r, history, n.depth)
        } else {
            r
        }
    }

    /// Stores the result `best` (by `best_move`) of the node `n`, and returns it (the window's bound when the form
    /// fails hard). A root that may not play every move (MultiPV's later lines, searchmoves) has no score of its
    /// own.
    #[inline(always)]
    fn store_hook(&mut self, n: &Node, best: Score, best_move: Option<G::Move>) -> Score {
        let config = &self.config;
        let result =
            if V::Form::prune(config) && !V::Form::fail_soft(config) { best.clamp(n.alpha, n.beta) } else { best };
        let Some(tt) = self.tt_enabled() else { return result };
        if n.ply > 0 || (self.excluded.is_empty() && self.limits.root_moves.is_none()) {
            let mv = best_move.map_or(0, G::encode_move);
            let eval = if n.eval.raw > -INFINITY { n.eval.raw } else { 0 };
            let bound = Table::bound(result, n.alpha, n.beta);
            tt.store(n.key, n.ply, TtHit { mv, score: result, eval, depth: n.depth, bound });
        }
        result
    }

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
        let (own_alpha, own_beta) = if max { (alpha, beta) } else { (-beta, -alpha) };
        let node = Node { pv_node: false, ..Node::new(depth, own_alpha, own_beta, ply, self.game.hash()) };
        let hash_move = match self.probe_hook(&node) {
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
                    self.cutoff(i, m, depth, ply, &Tried::new(), &mut moves);
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
        let own = self.store_hook(&node, sign * best, best_move);
        self.trace(|s| s.step_at(Label::Return, ply, depth, alpha, beta).value(sign * own).best(best));
        sign * self.leave(ply, own, exit)
    }
}
