//! The techniques, each a small policy type. A variant ([`Compose`]) picks one policy per slot; the node function is
//! generic over it, so a technique that is off is a call to an `#[inline(always)]` function that does nothing.
//!
//! | slot | policies |
//! | --- | --- |
//! | form (how children combine) | [`MinimaxForm`], [`AlphaBetaForm`], [`AlphaBetaHardForm`] (two-sided), [`NegamaxForm`], [`NegamaxAbSoftForm`], [`NegamaxAbHardForm`], [`DynamicForm`] |
//! | leaf (depth 0) | [`StaticLeaf`], [`Quiescence`], [`DynamicLeaf`] |
//! | before the moves | [`NoNull`], [`NullMove`], [`VerifiedNullMove`], [`DynamicNull`] |
//! | how a child is searched | [`FullWindow`], [`PrincipalVariation`], [`DynamicChild`] |
//! | move ordering | [`GenerationOrder`], [`Ordered`], [`DynamicOrder`] |
//!
//! The `Dynamic` policies choose between the others at run time from [`Parts`]: one compiled composition of them
//! is every variant of the spec, node for node, which is how a variant parsed from text runs without compiling
//! every combination of types ([`crate::VariantSpec`] keeps compositions of fixed policies for its presets that
//! play, where speed counts).

use crate::game::{FastPaths, GameTree, Score, MATE_BOUND, MAX_PLY};
use crate::limits::SearchOptions;
pub use crate::movepick::MovePicker;
use crate::stats::Stats;
use std::marker::PhantomData;

/// How a node combines its children's scores. A form fixed at compile time answers with constants (the calls fold
/// away); [`DynamicForm`] reads them from the run-time [`Parts`].
pub trait Form: 'static {
    /// Short name, as used in variant strings.
    const NAME: &'static str;
    /// Max/min nodes with scores from the first player's view (the seeds' `minimax` and `alphaBeta(isMax)`).
    fn two_sided(parts: &Parts) -> bool;
    /// Alpha-beta pruning.
    fn prune(parts: &Parts) -> bool;
    /// Fail-soft: return the best score found even outside the window. Fail-hard clamps to `[alpha, beta]`.
    fn fail_soft(parts: &Parts) -> bool;
    /// Two-sided whatever the [`Parts`] say (a form fixed at compile time): [`Variant::CHECK`] refuses the
    /// negamax node's techniques with it.
    const FIXED_TWO_SIDED: bool = false;
    /// Without a window whatever the [`Parts`] say: [`Variant::CHECK`] refuses the techniques that need one.
    const FIXED_NO_WINDOW: bool = false;
}

macro_rules! form {
    ($(#[$m:meta])* $name:ident, $label:literal, $two:expr, $prune:expr, $soft:expr) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $name;
        impl Form for $name {
            const NAME: &'static str = $label;
            const FIXED_TWO_SIDED: bool = $two;
            const FIXED_NO_WINDOW: bool = !$prune;
            #[inline(always)]
            fn two_sided(_: &Parts) -> bool {
                $two
            }
            #[inline(always)]
            fn prune(_: &Parts) -> bool {
                $prune
            }
            #[inline(always)]
            fn fail_soft(_: &Parts) -> bool {
                $soft
            }
        }
    };
}

/// The spec's techniques as run-time values, read by the dynamic policies ([`DynamicForm`], [`DynamicLeaf`],
/// [`DynamicNull`], [`DynamicChild`], [`DynamicOrder`]). A composition of dynamic policies is any of the spec's
/// variants, chosen when the search starts: one compiled searcher serves them all, visiting exactly the nodes the
/// composition of the fixed policies would (a test checks it for every preset). Fixed policies ignore it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts {
    /// See [`Form::two_sided`].
    pub two_sided: bool,
    /// See [`Form::prune`].
    pub prune: bool,
    /// See [`Form::fail_soft`].
    pub fail_soft: bool,
    /// Principal variation search ([`PrincipalVariation`]), else [`FullWindow`].
    pub pvs: bool,
    /// The null move (the composition's null policy), else none.
    pub nmp: bool,
    /// Quiescence at the horizon ([`Quiescence`]), else the static evaluation.
    pub qs: bool,
    /// Move ordering ([`Ordered`]), else the generation order.
    pub order: bool,
}

impl Default for Parts {
    /// Negamax alpha-beta, fail-soft, and nothing else.
    fn default() -> Parts {
        Parts { two_sided: false, prune: true, fail_soft: true, pvs: false, nmp: false, qs: false, order: false }
    }
}

/// The form named by the run-time [`Parts`].
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicForm;

impl Form for DynamicForm {
    const NAME: &'static str = "dynamic";
    #[inline(always)]
    fn two_sided(parts: &Parts) -> bool {
        parts.two_sided
    }
    #[inline(always)]
    fn prune(parts: &Parts) -> bool {
        parts.prune
    }
    #[inline(always)]
    fn fail_soft(parts: &Parts) -> bool {
        parts.fail_soft
    }
}

form!(
    /// Two-sided minimax: MAX nodes take the largest child, MIN nodes the smallest, every node searched.
    MinimaxForm, "minimax", true, false, true
);
form!(
    /// Two-sided alpha-beta (the CS557 best/worst form is the same algorithm).
    AlphaBetaForm, "alphabeta", true, true, true
);
form!(
    /// Two-sided alpha-beta, fail-hard: a node's value is clamped to the window it was given. The CS557
    /// `maximizer(board, worst, best)` / `minimizer(board, best, worst)` routines are this form (they return the
    /// window's bound when nothing beats it); it visits exactly the nodes of [`AlphaBetaForm`].
    AlphaBetaHardForm, "alphabeta-hard", true, true, false
);
form!(
    /// Negamax without pruning: `max(-child)` at every node.
    NegamaxForm, "negamax", false, false, true
);
form!(
    /// Negamax alpha-beta, fail-soft: returns the best score even when it falls outside the window.
    NegamaxAbSoftForm, "negamax-ab", false, true, true
);
form!(
    /// Negamax alpha-beta, fail-hard: returns `beta` on a cutoff and never less than `alpha`.
    NegamaxAbHardForm, "negamax-ab-hard", false, true, false
);

/// What a policy sees of the search that runs it: the game, the switches, the counters, the observer, the moves it
/// may make and the searches it may start. The searcher implements it; policies are written against it alone, so
/// they know nothing of the searcher's fields (and one generic parameter, `S: Search`, stands for the game, the
/// evaluator, the variant and the observer).
pub trait Search {
    /// The game.
    type G: FastPaths;
    /// The variant being searched.
    type V: Variant;
    /// The observer watching the search.
    type W: Observer<Self::G>;
    /// The position.
    fn game(&self) -> &Self::G;
    /// The run-time switches.
    fn options(&self) -> &SearchOptions;
    /// The counters.
    fn stats(&mut self) -> &mut Stats;
    /// The observer.
    fn observer(&mut self) -> &mut Self::W;
    /// Whether the search has been told to stop (its results are then thrown away).
    fn stopped(&self) -> bool;
    /// Notes that the search reached `ply` (the selective depth).
    fn note_ply(&mut self, ply: usize);
    /// The static evaluation for the side to move.
    fn evaluate(&mut self) -> Score;
    /// The static evaluation when only its place relative to `[alpha, beta]` matters (see
    /// [`crate::Evaluator::evaluate_in_window`]).
    fn evaluate_in_window(&mut self, alpha: Score, beta: Score) -> Score;
    /// Makes a move, keeping the evaluator in step.
    fn make(&mut self, m: <Self::G as GameTree>::Move);
    /// Takes the last move back.
    fn unmake(&mut self);
    /// Passes the turn at `ply` (the null move): the side to move at `ply + 1` is not in check.
    fn pass(&mut self, ply: usize);
    /// Takes the pass back.
    fn unpass(&mut self);
    /// Searches the current position with the negamax node: `depth` plies left, window `[alpha, beta]`, `ply` from
    /// the root, and whether a null move is allowed there.
    fn negamax(&mut self, depth: i32, alpha: Score, beta: Score, ply: usize, null_ok: bool) -> Score;
}

/// What a node at depth 0 returns.
pub trait LeafPolicy: 'static {
    /// Short name.
    const NAME: &'static str;
    /// The score of a horizon node for the side to move.
    fn leaf<S: Search>(s: &mut S, alpha: Score, beta: Score, ply: usize) -> Score;
}

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
        quiesce(s, alpha, beta, ply)
    }
}

/// [`Quiescence`] or [`StaticLeaf`], as the run-time [`Parts`] say.
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicLeaf;

impl LeafPolicy for DynamicLeaf {
    const NAME: &'static str = "dynamic";
    #[inline(always)]
    fn leaf<S: Search>(s: &mut S, alpha: Score, beta: Score, ply: usize) -> Score {
        if s.options().parts.qs {
            Quiescence::leaf(s, alpha, beta, ply)
        } else {
            StaticLeaf::leaf(s, alpha, beta, ply)
        }
    }
}

fn quiesce<S: Search>(s: &mut S, mut alpha: Score, beta: Score, ply: usize) -> Score {
    s.note_ply(ply);
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
    // The engine skips captures that likely lose material (negative keys); the pure quiescence searches them all.
    let prune_losing = <S::V as Variant>::Extras::ENABLED && s.options().qs_pruning;
    picker.set_keys(|m| game.capture_key(m));
    let mut exit = Exit::Value;
    while let Some((m, key)) = picker.next_keyed() {
        if prune_losing && crate::techniques::qs_pruning::QsPruning::skips(key) {
            // Keys come largest first: every capture left loses material too.
            s.stats().qs_prunes += 1 + picker.remaining() as u64;
            break;
        }
        if !s.game().is_legal_capture(m) {
            continue;
        }
        s.observer().edge(ply, Some(m));
        s.make(m);
        s.stats().quiescence_nodes += 1;
        s.observer().enter(ply + 1, -beta, -alpha, 0, NodeKind::Quiescence);
        let score = -quiesce(s, -beta, -alpha, ply + 1);
        s.unmake();
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
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
        }
    }
    s.observer().leave(ply, best, exit);
    best
}

/// What a node knows when it considers passing: see [`NullPolicy::try_null`].
#[derive(Debug, Clone, Copy)]
pub struct NullNode {
    /// Remaining depth.
    pub depth: i32,
    /// The node's beta.
    pub beta: Score,
    /// Distance from the root.
    pub ply: usize,
    /// False right after a null move (and at the root): two passes in a row prove nothing.
    pub null_ok: bool,
    /// Whether the node has an open window (a PV node).
    pub pv_node: bool,
    /// The static evaluation, `-INFINITY` when the variant computes none (the pure variants).
    pub static_eval: Score,
}

/// What a node tries before its moves.
pub trait NullPolicy: 'static {
    /// Short name.
    const NAME: &'static str;
    /// `Some(score)` when the node is cut off without searching its moves.
    fn try_null<S: Search>(s: &mut S, node: NullNode) -> Option<Score>;
    /// Passes the turn and searches a zero window from the side to move's view: a negamax node's technique, that
    /// needs a window ([`Variant::CHECK`]).
    const NEGAMAX_WINDOW: bool = false;
}

/// No null move.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoNull;

impl NullPolicy for NoNull {
    const NAME: &'static str = "";
    #[inline(always)]
    fn try_null<S: Search>(_: &mut S, _: NullNode) -> Option<Score> {
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
    fn try_null<S: Search>(s: &mut S, n: NullNode) -> Option<Score> {
        if n.depth < R + 1 {
            return None;
        }
        null_search(s, n.depth - R - 1, n.beta, n.ply, n.null_ok).map(|_| n.beta)
    }
}

/// The null policy `P` when the run-time [`Parts`] ask for the null move, else none.
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicNull<P>(PhantomData<P>);

impl<P: NullPolicy> NullPolicy for DynamicNull<P> {
    const NAME: &'static str = "dynamic";
    #[inline(always)]
    fn try_null<S: Search>(s: &mut S, node: NullNode) -> Option<Score> {
        if s.options().parts.nmp {
            P::try_null(s, node)
        } else {
            None
        }
    }
}

/// The engine's null move ([`VerifiedNullMove`]) or the spec's ([`NullMove`] with `R = 3`), as the run-time
/// [`crate::SearchOptions::verified_null`] says.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChosenNull;

impl NullPolicy for ChosenNull {
    const NAME: &'static str = "nmp";
    #[inline(always)]
    fn try_null<S: Search>(s: &mut S, node: NullNode) -> Option<Score> {
        if s.options().verified_null {
            VerifiedNullMove::try_null(s, node)
        } else {
            NullMove::<3>::try_null(s, node)
        }
    }
}

/// The null-move search shared by [`NullMove`] and [`VerifiedNullMove`]: `Some(score)` when passing and searching
/// `child_depth` still fails high.
#[inline(always)]
fn null_search<S: Search>(s: &mut S, child_depth: i32, beta: Score, ply: usize, null_ok: bool) -> Option<Score> {
    if !null_ok || s.game().in_check() || !s.game().null_move_allowed() {
        return None;
    }
    s.stats().null_tries += 1;
    s.observer().edge(ply, None);
    s.pass(ply);
    s.observer().enter(ply + 1, -beta, -beta + 1, child_depth, NodeKind::Null);
    let score = -s.negamax(child_depth, -beta, -beta + 1, ply + 1, false);
    s.unpass();
    if s.stopped() || score < beta {
        return None;
    }
    s.stats().null_cutoffs += 1;
    Some(score)
}

/// The engine's null move, as strong engines use it: only at zero-window nodes whose static evaluation is at
/// least beta, from depth 2 with a reduction growing with depth (`3 + depth / 4`, the search below the pass
/// dropping into quiescence near the horizon), mate scores never trusted, and from depth 10 on a cutoff verified
/// by a reduced search of the node itself without a null move (against zugzwang, common in xiangqi endgames).
#[derive(Debug, Clone, Copy, Default)]
pub struct VerifiedNullMove;

/// Depth from which [`VerifiedNullMove`] verifies its cutoffs.
pub const NULL_VERIFY_DEPTH: i32 = 10;

impl NullPolicy for VerifiedNullMove {
    const NAME: &'static str = "nmp";
    const NEGAMAX_WINDOW: bool = true;
    #[inline(always)]
    fn try_null<S: Search>(s: &mut S, n: NullNode) -> Option<Score> {
        if n.pv_node || n.depth < 2 || n.static_eval < n.beta || n.beta.abs() >= MATE_BOUND {
            return None;
        }
        let r = 3 + n.depth / 4;
        let score = null_search(s, (n.depth - r - 1).max(0), n.beta, n.ply, n.null_ok)?;
        let score = if score >= MATE_BOUND { n.beta } else { score };
        if n.depth < NULL_VERIFY_DEPTH {
            return Some(score);
        }
        s.stats().null_verifications += 1;
        // The verification searches this node again (same ply, no move): observers see it as a child node.
        let depth = n.depth - r;
        s.observer().enter(n.ply, n.beta - 1, n.beta, depth, NodeKind::Main);
        let verified = s.negamax(depth, n.beta - 1, n.beta, n.ply, false);
        if s.stopped() || verified < n.beta {
            s.stats().null_cutoffs -= 1;
            return None;
        }
        Some(score)
    }
}

/// The child a negamax node is about to search, already made on the board: see [`ChildPolicy::search_child`].
#[derive(Debug, Clone, Copy)]
pub struct ChildNode {
    /// The move's place among the node's moves, from 0.
    pub index: usize,
    /// The parent's remaining depth.
    pub depth: i32,
    /// The parent's alpha.
    pub alpha: Score,
    /// The parent's beta.
    pub beta: Score,
    /// The parent's distance from the root.
    pub ply: usize,
    /// Late move reduction: `> 0` searches the child that many plies shallower with a zero window first, and
    /// fully only when that beats alpha.
    pub reduction: i32,
}

/// How a child of a negamax node is searched. Returns the child's score from the parent's view.
pub trait ChildPolicy: 'static {
    /// Short name.
    const NAME: &'static str;
    /// Searches the child `c` (already made on the board).
    fn search_child<S: Search>(s: &mut S, c: ChildNode) -> Score;
    /// Searches zero windows from the side to move's view: a negamax node's technique, that needs a window
    /// ([`Variant::CHECK`]).
    const NEGAMAX_WINDOW: bool = false;
}

/// The reduced zero-window probe of a late move: `Some(score)` when it fails low, so the full search is skipped.
#[inline(always)]
fn reduced_probe<S: Search>(s: &mut S, c: &ChildNode) -> Option<Score> {
    if c.reduction <= 0 {
        return None;
    }
    s.stats().lmr_reductions += 1;
    let depth = c.depth - 1 - c.reduction;
    s.observer().enter(c.ply + 1, -c.alpha - 1, -c.alpha, depth, NodeKind::Reduced);
    let score = -s.negamax(depth, -c.alpha - 1, -c.alpha, c.ply + 1, true);
    if score <= c.alpha || s.stopped() {
        return Some(score);
    }
    s.stats().lmr_researches += 1;
    None
}

/// Every child with the full window `[alpha, beta]`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FullWindow;

impl ChildPolicy for FullWindow {
    const NAME: &'static str = "";
    #[inline(always)]
    fn search_child<S: Search>(s: &mut S, c: ChildNode) -> Score {
        if let Some(score) = reduced_probe(s, &c) {
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
        if let Some(score) = reduced_probe(s, &c) {
            return score;
        }
        s.observer().enter(child, -alpha - 1, -alpha, depth, NodeKind::ZeroWindow);
        let score = -s.negamax(depth, -alpha - 1, -alpha, child, true);
        if score > alpha && score < beta && !s.stopped() {
            s.stats().pvs_researches += 1;
            s.observer().enter(child, -beta, -alpha, depth, NodeKind::Research);
            -s.negamax(depth, -beta, -alpha, child, true)
        } else {
            score
        }
    }
}

/// [`PrincipalVariation`] or [`FullWindow`], as the run-time [`Parts`] say.
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicChild;

impl ChildPolicy for DynamicChild {
    const NAME: &'static str = "dynamic";
    #[inline(always)]
    fn search_child<S: Search>(s: &mut S, c: ChildNode) -> Score {
        if s.options().parts.pvs {
            PrincipalVariation::search_child(s, c)
        } else {
            FullWindow::search_child(s, c)
        }
    }
}

/// How moves are ordered, and what the ordering learns from cutoffs.
pub trait OrderPolicy: 'static {
    /// Short name.
    const NAME: &'static str;
    /// Whether the hash move goes first. A search then tries it before generating any move, so a node that the
    /// hash move cuts off generates nothing.
    fn hash_first(state: &Self::State) -> bool;
    /// `Some(k)` when the policy keys every quiet move at most `k`: a node then generates its moves in stages,
    /// as Stockfish's move picker does. First the captures ([`GenType::Captures`](crate::game::GenType::Captures)),
    /// handed out while one keyed above `k` is left; then the quiet moves of [`OrderPolicy::early_quiets`], each
    /// checked for legality on its own; only then the other quiet moves, with the captures left. A node cut off by
    /// a capture or a killer never generates its quiet moves. The order is the one a single generation would
    /// give, except that quiet moves are keyed when the node comes to them, with what the searches before taught
    /// the policy. `None`: every move is generated and ordered at once.
    fn staged_below(state: &Self::State) -> Option<i32>;
    /// Per-search state (killer, history and countermove tables), allocated once when the searcher is built.
    type State;
    /// Creates the state for a game with `move_keys` distinct move keys.
    fn new_state(move_keys: usize) -> Self::State;
    /// Reads what the policy needs of the run-time [`Parts`] when a search starts ([`DynamicOrder`] reads
    /// whether to order at all).
    #[inline(always)]
    fn configure(_state: &mut Self::State, _parts: &Parts) {}
    /// What the state has learnt, to be kept for the next search of the same game ([`crate::SearchMemory`]);
    /// `None` for a policy that learns nothing.
    fn export(_state: &Self::State) -> Option<OrderState> {
        None
    }
    /// Starts from what an earlier search learnt (a state of another game, with other move keys, is ignored).
    fn import(_state: &mut Self::State, _saved: &OrderState) {}
    /// Orders the moves of `picker` at `ply` by this policy (the moves not keyed yet: a staged node calls it once
    /// per stage); `hash_move` (a packed move from the transposition table, 0 for none) goes first when the policy
    /// orders at all.
    fn order<G: FastPaths>(state: &Self::State, game: &G, picker: &mut MovePicker<G::Move>, ply: usize, hash_move: u16);
    /// For a staged policy, the quiet moves keyed above all other quiet moves at `ply`, best first, as packed
    /// moves ([`GameTree::encode_move`]; 0 for none): the killers and the countermove.
    fn early_quiets<G: FastPaths>(state: &Self::State, game: &G, ply: usize) -> [u16; 3];
    /// Learns from a move that caused a beta cutoff at `ply` with `depth` remaining, after the quiet moves in
    /// `tried` failed to.
    fn on_cutoff<G: FastPaths>(
        state: &mut Self::State,
        game: &G,
        m: G::Move,
        depth: i32,
        ply: usize,
        tried: &[G::Move],
    );
}

/// Moves in the order the generator produced them: what the pure variants use, so comparisons are fair.
#[derive(Debug, Clone, Copy, Default)]
pub struct GenerationOrder;

impl OrderPolicy for GenerationOrder {
    const NAME: &'static str = "";
    type State = ();
    #[inline(always)]
    fn hash_first(_: &()) -> bool {
        false
    }
    #[inline(always)]
    fn staged_below(_: &()) -> Option<i32> {
        None
    }
    fn new_state(_: usize) {}
    #[inline(always)]
    fn order<G: FastPaths>(_: &(), _: &G, _: &mut MovePicker<G::Move>, _: usize, _: u16) {}
    #[inline(always)]
    fn early_quiets<G: FastPaths>(_: &(), _: &G, _: usize) -> [u16; 3] {
        [0; 3]
    }
    #[inline(always)]
    fn on_cutoff<G: FastPaths>(_: &mut (), _: &G, _: G::Move, _: i32, _: usize, _: &[G::Move]) {}
}

/// The hash move first, then captures by MVV-LVA, the two killer moves of the ply, the countermove (the quiet
/// move that last refuted the opponent's previous move), the other quiet moves by history score, and last the
/// captures that likely lose material. Staged (see [`OrderPolicy::staged_below`]): the hash move, the captures and
/// the killers come before any quiet move is generated.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ordered;

/// Killer moves, the history table and countermoves of [`Ordered`]. Killers and countermoves are packed moves
/// ([`GameTree::encode_move`], 0 for none); history and countermoves are indexed by move key.
#[derive(Debug, Default, Clone)]
pub struct OrderState {
    killers: Vec<[u16; 2]>,
    history: Vec<i32>,
    counter: Vec<u16>,
}

const HISTORY_MAX: i32 = 1 << 20;
/// The key of the first killer, the largest a quiet move other than the hash move gets.
const KILLER_KEY: i32 = 1 << 28;
/// Captures that do not lose material are keyed from here up, above every quiet move.
const GOOD_CAPTURE_KEY: i32 = 1 << 29;

impl OrderPolicy for Ordered {
    const NAME: &'static str = "order";
    type State = OrderState;

    #[inline(always)]
    fn hash_first(_: &OrderState) -> bool {
        true
    }

    // Killers are the largest quiet keys; good captures are keyed above them.
    #[inline(always)]
    fn staged_below(_: &OrderState) -> Option<i32> {
        Some(KILLER_KEY)
    }

    fn new_state(move_keys: usize) -> OrderState {
        OrderState { killers: vec![[0; 2]; MAX_PLY + 1], history: vec![0; move_keys], counter: vec![0; move_keys] }
    }

    fn export(state: &OrderState) -> Option<OrderState> {
        Some(state.clone())
    }

    /// The history and countermove tables carry over; killers, which belong to the plies of one search, start
    /// empty (as Stockfish keeps its history tables and clears its killers).
    fn import(state: &mut OrderState, saved: &OrderState) {
        if saved.history.len() == state.history.len() {
            state.history.clone_from(&saved.history);
            state.counter.clone_from(&saved.counter);
        }
    }

    #[inline]
    fn order<G: FastPaths>(state: &OrderState, game: &G, picker: &mut MovePicker<G::Move>, ply: usize, hash_move: u16) {
        let killers = state.killers[ply.min(MAX_PLY)];
        let counter = game.last_move().map_or(0, |p| state.counter[G::move_key(p)]);
        picker.set_keys(|m| {
            let code = G::encode_move(m);
            if hash_move != 0 && code == hash_move {
                return i32::MAX;
            }
            let cap = if game.is_quiet(m) { 0 } else { game.capture_key(m) };
            if cap > 0 {
                return GOOD_CAPTURE_KEY | cap;
            }
            if cap < 0 {
                return -(1 << 24) + cap;
            }
            if code == killers[0] {
                KILLER_KEY
            } else if code == killers[1] {
                KILLER_KEY - 1
            } else if code == counter {
                KILLER_KEY - 2
            } else {
                state.history[G::move_key(m)]
            }
        })
    }

    #[inline(always)]
    fn early_quiets<G: FastPaths>(state: &OrderState, game: &G, ply: usize) -> [u16; 3] {
        let [k0, k1] = state.killers[ply.min(MAX_PLY)];
        let counter = game.last_move().map_or(0, |p| state.counter[G::move_key(p)]);
        [k0, k1, if counter == k0 || counter == k1 { 0 } else { counter }]
    }

    #[inline]
    fn on_cutoff<G: FastPaths>(
        state: &mut OrderState,
        game: &G,
        m: G::Move,
        depth: i32,
        ply: usize,
        tried: &[G::Move],
    ) {
        if !game.is_quiet(m) {
            return;
        }
        let (k, code) = (G::move_key(m), G::encode_move(m));
        let slot = &mut state.killers[ply.min(MAX_PLY)];
        if slot[0] != code {
            slot[1] = slot[0];
            slot[0] = code;
        }
        if let Some(p) = game.last_move() {
            state.counter[G::move_key(p)] = code;
        }
        // History with gravity: the cutoff move gains, the quiet moves tried before it lose, all bounded.
        let bonus = (depth * depth).min(400);
        let update = |h: &mut i32, b: i32| *h += b - *h * b.abs() / HISTORY_MAX;
        update(&mut state.history[k], bonus);
        for &q in tried {
            update(&mut state.history[G::move_key(q)], -bonus);
        }
    }
}

/// [`Ordered`] or the generation order ([`GenerationOrder`]), as the run-time [`Parts`] say.
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicOrder;

/// The state of [`DynamicOrder`]: [`Ordered`]'s, and whether it is used.
#[derive(Debug, Default, Clone)]
pub struct DynamicOrderState {
    on: bool,
    inner: OrderState,
}

impl OrderPolicy for DynamicOrder {
    const NAME: &'static str = "dynamic";
    type State = DynamicOrderState;

    #[inline(always)]
    fn hash_first(state: &DynamicOrderState) -> bool {
        state.on
    }

    #[inline(always)]
    fn staged_below(state: &DynamicOrderState) -> Option<i32> {
        state.on.then_some(KILLER_KEY)
    }

    fn new_state(move_keys: usize) -> DynamicOrderState {
        DynamicOrderState { on: false, inner: Ordered::new_state(move_keys) }
    }

    fn configure(state: &mut DynamicOrderState, parts: &Parts) {
        state.on = parts.order;
    }

    fn export(state: &DynamicOrderState) -> Option<OrderState> {
        state.on.then(|| state.inner.clone())
    }

    fn import(state: &mut DynamicOrderState, saved: &OrderState) {
        Ordered::import(&mut state.inner, saved);
    }

    #[inline(always)]
    fn order<G: FastPaths>(
        state: &DynamicOrderState,
        game: &G,
        picker: &mut MovePicker<G::Move>,
        ply: usize,
        hash: u16,
    ) {
        if state.on {
            Ordered::order(&state.inner, game, picker, ply, hash);
        }
    }

    #[inline(always)]
    fn early_quiets<G: FastPaths>(state: &DynamicOrderState, game: &G, ply: usize) -> [u16; 3] {
        if state.on {
            Ordered::early_quiets(&state.inner, game, ply)
        } else {
            [0; 3]
        }
    }

    #[inline(always)]
    fn on_cutoff<G: FastPaths>(
        state: &mut DynamicOrderState,
        game: &G,
        m: G::Move,
        depth: i32,
        ply: usize,
        tried: &[G::Move],
    ) {
        if state.on {
            Ordered::on_cutoff(&mut state.inner, game, m, depth, ply, tried);
        }
    }
}

/// A search variant: one policy per slot.
pub trait Variant: 'static {
    /// How children combine.
    type Form: Form;
    /// What depth 0 returns.
    type Leaf: LeafPolicy;
    /// What a node tries before its moves.
    type Null: NullPolicy;
    /// How children are searched.
    type Child: ChildPolicy;
    /// Move ordering.
    type Order: OrderPolicy;
    /// The playing engine's additions (transposition table, selectivity, game rules), or none.
    type Extras: Extras;

    /// Refuses, when a [`crate::Searcher`] of the variant is compiled, what the types already show makes no sense:
    /// the null move or PVS (a pass and zero windows from the side to move's view) on a two-sided form or on a form
    /// without a window. The text parser ([`crate::VariantSpec`]) refuses the same at run time.
    ///
    /// ```compile_fail
    /// use xiangqi_core::Position;
    /// use xiangqi_search::{AlphaBetaForm, Compose, Evaluator, NullMove, Score, Searcher, StaticLeaf};
    /// struct Zero;
    /// impl Evaluator<Position> for Zero {
    ///     fn evaluate(&mut self, _: &Position) -> Score { 0 }
    /// }
    /// // error[E0080]: the null move needs the negamax node and a window
    /// let s = Searcher::<_, _, Compose<AlphaBetaForm, StaticLeaf, NullMove>>::new(Position::startpos(), Zero);
    /// ```
    const CHECK: () = {
        let negamax_technique =
            <Self::Null as NullPolicy>::NEGAMAX_WINDOW || <Self::Child as ChildPolicy>::NEGAMAX_WINDOW;
        let form = <Self::Form as Form>::FIXED_TWO_SIDED || <Self::Form as Form>::FIXED_NO_WINDOW;
        assert!(
            !(negamax_technique && form),
            "the null move and PVS need the negamax node and a window: use NegamaxAbSoftForm or NegamaxAbHardForm"
        );
    };

    /// The variant's name, such as `negamax-ab+pvs+qs`.
    fn name() -> String {
        let mut parts = vec![Self::Form::NAME];
        for p in [Self::Child::NAME, Self::Null::NAME, Self::Leaf::NAME, Self::Order::NAME, Self::Extras::NAME] {
            if !p.is_empty() && p != "static" {
                parts.push(p);
            }
        }
        parts.join("+")
    }
}

/// The variant made of the policies `F`, `L`, `N`, `C`, `O` and `X`.
pub struct Compose<F, L = StaticLeaf, N = NoNull, C = FullWindow, O = GenerationOrder, X = Plain>(
    PhantomData<(F, L, N, C, O, X)>,
);

impl<F: Form, L: LeafPolicy, N: NullPolicy, C: ChildPolicy, O: OrderPolicy, X: Extras> Variant
    for Compose<F, L, N, C, O, X>
{
    type Form = F;
    type Leaf = L;
    type Null = N;
    type Child = C;
    type Order = O;
    type Extras = X;
}

/// The playing engine's additions to the negamax node. With [`Plain`] the node is the seeds' algorithm and nothing
/// else; with [`Enhanced`] it probes and stores the transposition table, extends checks, prunes (reverse futility,
/// razoring, futility), reduces late moves and asks the game's rules about repetition, each switchable at run time
/// through [`crate::SearchOptions`] and counted in [`crate::Stats`].
pub trait Extras: 'static {
    /// Short name.
    const NAME: &'static str;
    /// Whether the additions are compiled in.
    const ENABLED: bool;
}

/// No additions: the pure techniques.
#[derive(Debug, Clone, Copy, Default)]
pub struct Plain;

impl Extras for Plain {
    const NAME: &'static str = "";
    const ENABLED: bool = false;
}

/// The engine's additions (see [`Extras`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Enhanced;

impl Extras for Enhanced {
    const NAME: &'static str = "engine";
    const ENABLED: bool = true;
}

/// Kinds of node, for observers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// The root.
    Root,
    /// A child searched with the window it was given.
    Main,
    /// A PVS child searched with a zero window.
    ZeroWindow,
    /// A PVS child searched again with the full window.
    Research,
    /// A late move searched shallower with a zero window.
    Reduced,
    /// The position after a null move.
    Null,
    /// A quiescence node.
    Quiescence,
}

/// How a node ended, for observers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Every move was searched (or the node is a leaf).
    Value,
    /// A move reached beta: the rest were pruned.
    BetaCutoff,
    /// The null move reached beta: no move was searched.
    NullCutoff,
    /// Quiescence stood pat at or above beta.
    StandPat,
    /// The transposition table answered.
    TableHit,
    /// The game's rules decided (repetition, move limit).
    Rule,
    /// Pruned before searching moves (reverse futility, razoring).
    Pruned,
    /// The side to move has no move.
    NoMoves,
}

/// Watches a search node by node (for drawing the searched tree). The default methods do nothing and
/// [`Silent`] is what every ordinary search uses, so observing costs nothing when it is not used.
pub trait Observer<G: FastPaths>: Default {
    /// Whether anything is watched (lets the search skip work, such as listing pruned moves, for [`Silent`]).
    const ACTIVE: bool = false;
    /// The search enters a node `ply` plies deep with window `[alpha, beta]` and `depth` plies left, reached by
    /// the last move announced with [`Observer::edge`] (none for the root).
    #[inline(always)]
    fn enter(&mut self, _ply: usize, _alpha: Score, _beta: Score, _depth: i32, _kind: NodeKind) {}
    /// The move (or, with `None`, the null move) about to be made at `ply`.
    #[inline(always)]
    fn edge(&mut self, _ply: usize, _m: Option<G::Move>) {}
    /// The node at `ply` returns `score`.
    #[inline(always)]
    fn leave(&mut self, _ply: usize, _score: Score, _exit: Exit) {}
    /// A move of the node at `ply` that was never searched because of a cutoff.
    #[inline(always)]
    fn pruned(&mut self, _ply: usize, _m: G::Move) {}
}

/// The observer that watches nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl<G: FastPaths> Observer<G> for Silent {}
