//! The techniques, each a small policy type. A variant ([`Compose`]) picks one policy per slot; the node function is
//! generic over it, so a technique that is off is a call to an `#[inline(always)]` function that does nothing.
//!
//! | slot | policies |
//! | --- | --- |
//! | form (how children combine) | [`MinimaxForm`], [`AlphaBetaForm`] (two-sided), [`NegamaxForm`], [`NegamaxAbSoftForm`], [`NegamaxAbHardForm`] |
//! | leaf (depth 0) | [`StaticLeaf`], [`Quiescence`] |
//! | before the moves | [`NoNull`], [`NullMove`] |
//! | how a child is searched | [`FullWindow`], [`PrincipalVariation`] |
//! | move ordering | [`GenerationOrder`], [`Ordered`] |

use crate::game::{Evaluator, Game, MoveList, Score, MAX_PLY};
use crate::searcher::Searcher;
use smallvec::SmallVec;
use std::marker::PhantomData;

/// How a node combines its children's scores.
pub trait Form: 'static {
    /// Short name, as used in variant strings.
    const NAME: &'static str;
    /// Max/min nodes with scores from the first player's view (the seeds' `minimax` and `alphaBeta(isMax)`).
    const TWO_SIDED: bool;
    /// Alpha-beta pruning.
    const PRUNE: bool;
    /// Fail-soft: return the best score found even outside the window. Fail-hard clamps to `[alpha, beta]`.
    const FAIL_SOFT: bool;
}

macro_rules! form {
    ($(#[$m:meta])* $name:ident, $label:literal, $two:expr, $prune:expr, $soft:expr) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $name;
        impl Form for $name {
            const NAME: &'static str = $label;
            const TWO_SIDED: bool = $two;
            const PRUNE: bool = $prune;
            const FAIL_SOFT: bool = $soft;
        }
    };
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

/// What a node at depth 0 returns.
pub trait LeafPolicy: 'static {
    /// Short name.
    const NAME: &'static str;
    /// The score of a horizon node for the side to move.
    fn leaf<G: Game, E: Evaluator<G>, V: Variant>(
        s: &mut Searcher<G, E, V>,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score;
}

/// The static evaluation.
#[derive(Debug, Clone, Copy, Default)]
pub struct StaticLeaf;

impl LeafPolicy for StaticLeaf {
    const NAME: &'static str = "static";
    #[inline(always)]
    fn leaf<G: Game, E: Evaluator<G>, V: Variant>(s: &mut Searcher<G, E, V>, _: Score, _: Score, _: usize) -> Score {
        s.evaluate()
    }
}

/// Quiescence search: captures only, with stand pat (the side to move may decline every capture), captures
/// ordered MVV-LVA.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiescence;

impl LeafPolicy for Quiescence {
    const NAME: &'static str = "qs";
    #[inline(always)]
    fn leaf<G: Game, E: Evaluator<G>, V: Variant>(
        s: &mut Searcher<G, E, V>,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        quiesce(s, alpha, beta, ply)
    }
}

fn quiesce<G: Game, E: Evaluator<G>, V: Variant>(
    s: &mut Searcher<G, E, V>,
    mut alpha: Score,
    beta: Score,
    ply: usize,
) -> Score {
    s.note_ply(ply);
    let stand_pat = s.eval.evaluate_in_window(&s.game, alpha, beta);
    if stand_pat >= beta || ply >= MAX_PLY - 1 {
        return stand_pat;
    }
    alpha = alpha.max(stand_pat);
    let mut best = stand_pat;
    let mut moves = MoveList::new();
    s.game.generate(true, &mut moves);
    let game = &s.game;
    let mut picker = MovePicker::keyed(moves, |m| game.capture_key(m));
    while let Some(m) = picker.next() {
        s.make(m);
        s.stats.qnodes += 1;
        let score = -quiesce(s, -beta, -alpha, ply + 1);
        s.unmake();
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// What a node tries before its moves.
pub trait NullPolicy: 'static {
    /// Short name.
    const NAME: &'static str;
    /// `Some(score)` when the node is cut off without searching its moves.
    fn try_null<G: Game, E: Evaluator<G>, V: Variant>(
        s: &mut Searcher<G, E, V>,
        depth: i32,
        beta: Score,
        ply: usize,
        null_ok: bool,
    ) -> Option<Score>;
}

/// No null move.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoNull;

impl NullPolicy for NoNull {
    const NAME: &'static str = "";
    #[inline(always)]
    fn try_null<G: Game, E: Evaluator<G>, V: Variant>(
        _: &mut Searcher<G, E, V>,
        _: i32,
        _: Score,
        _: usize,
        _: bool,
    ) -> Option<Score> {
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
    #[inline(always)]
    fn try_null<G: Game, E: Evaluator<G>, V: Variant>(
        s: &mut Searcher<G, E, V>,
        depth: i32,
        beta: Score,
        ply: usize,
        null_ok: bool,
    ) -> Option<Score> {
        if !null_ok || depth < R + 1 || s.game.in_check() || !s.game.null_move_allowed() {
            return None;
        }
        s.stats.null_tries += 1;
        s.game.make_null();
        let score = -s.negamax(depth - R - 1, -beta, -beta + 1, ply + 1, false);
        s.game.unmake();
        if s.stopped || score < beta {
            return None;
        }
        s.stats.null_cutoffs += 1;
        Some(beta)
    }
}

/// How the `index`-th child of a negamax node is searched. Returns the child's score from the parent's view.
pub trait ChildPolicy: 'static {
    /// Short name.
    const NAME: &'static str;
    /// Searches the child already made on the board.
    fn search_child<G: Game, E: Evaluator<G>, V: Variant>(
        s: &mut Searcher<G, E, V>,
        index: usize,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score;
}

/// Every child with the full window `[alpha, beta]`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FullWindow;

impl ChildPolicy for FullWindow {
    const NAME: &'static str = "";
    #[inline(always)]
    fn search_child<G: Game, E: Evaluator<G>, V: Variant>(
        s: &mut Searcher<G, E, V>,
        _: usize,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        -s.negamax(depth - 1, -beta, -alpha, ply + 1, true)
    }
}

/// Principal variation search: the first child with the full window, the others with the zero window
/// `[alpha, alpha + 1]`, searched again with the full window when they land strictly inside it.
#[derive(Debug, Clone, Copy, Default)]
pub struct PrincipalVariation;

impl ChildPolicy for PrincipalVariation {
    const NAME: &'static str = "pvs";
    #[inline(always)]
    fn search_child<G: Game, E: Evaluator<G>, V: Variant>(
        s: &mut Searcher<G, E, V>,
        index: usize,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        if index == 0 {
            return -s.negamax(depth - 1, -beta, -alpha, ply + 1, true);
        }
        let score = -s.negamax(depth - 1, -alpha - 1, -alpha, ply + 1, true);
        if score > alpha && score < beta && !s.stopped {
            s.stats.pvs_researches += 1;
            -s.negamax(depth - 1, -beta, -alpha, ply + 1, true)
        } else {
            score
        }
    }
}

/// How moves are ordered, and what the ordering learns from cutoffs.
pub trait OrderPolicy: 'static {
    /// Short name.
    const NAME: &'static str;
    /// Per-search state (killer and history tables), allocated once when the searcher is built.
    type State: Default;
    /// Creates the state for a game with `move_keys` distinct move keys.
    fn new_state(move_keys: usize) -> Self::State;
    /// Hands out `moves` at `ply` in this policy's order.
    fn picker<G: Game>(state: &Self::State, game: &G, moves: MoveList<G::Move>, ply: usize) -> MovePicker<G::Move>;
    /// Learns from a quiet move that caused a beta cutoff at `ply` with `depth` remaining.
    fn on_cutoff<G: Game>(state: &mut Self::State, game: &G, m: G::Move, depth: i32, ply: usize);
}

/// Moves in the order the generator produced them: what the pure variants use, so comparisons are fair.
#[derive(Debug, Clone, Copy, Default)]
pub struct GenerationOrder;

impl OrderPolicy for GenerationOrder {
    const NAME: &'static str = "";
    type State = ();
    fn new_state(_: usize) {}
    #[inline(always)]
    fn picker<G: Game>(_: &(), _: &G, moves: MoveList<G::Move>, _: usize) -> MovePicker<G::Move> {
        MovePicker::unordered(moves)
    }
    #[inline(always)]
    fn on_cutoff<G: Game>(_: &mut (), _: &G, _: G::Move, _: i32, _: usize) {}
}

/// Captures first by MVV-LVA, then the two killer moves of the ply, then quiet moves by history score.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ordered;

/// Killer moves (by move key) and the history table of [`Ordered`].
#[derive(Debug, Default, Clone)]
pub struct OrderState {
    killers: Vec<[usize; 2]>,
    history: Vec<i32>,
}

impl OrderPolicy for Ordered {
    const NAME: &'static str = "order";
    type State = OrderState;

    fn new_state(move_keys: usize) -> OrderState {
        OrderState { killers: vec![[usize::MAX; 2]; MAX_PLY + 1], history: vec![0; move_keys] }
    }

    #[inline]
    fn picker<G: Game>(state: &OrderState, game: &G, moves: MoveList<G::Move>, ply: usize) -> MovePicker<G::Move> {
        let killers = state.killers[ply.min(MAX_PLY)];
        MovePicker::keyed(moves, |m| {
            let cap = game.capture_key(m);
            if cap > 0 {
                1 << 28 | cap
            } else {
                let k = G::move_key(m);
                if k == killers[0] {
                    1 << 27
                } else if k == killers[1] {
                    (1 << 27) - 1
                } else {
                    state.history[k].min((1 << 26) - 1)
                }
            }
        })
    }

    #[inline]
    fn on_cutoff<G: Game>(state: &mut OrderState, game: &G, m: G::Move, depth: i32, ply: usize) {
        if game.capture_key(m) > 0 {
            return;
        }
        let k = G::move_key(m);
        let slot = &mut state.killers[ply.min(MAX_PLY)];
        if slot[0] != k {
            slot[1] = slot[0];
            slot[0] = k;
        }
        let h = &mut state.history[k];
        *h = (*h + depth * depth).min(1 << 24);
    }
}

/// Hands out moves one at a time. Keyed pickers select the largest key left (the first of equals, so generation
/// order breaks ties): most nodes cut off after a move or two, so selecting lazily beats sorting the whole list.
pub struct MovePicker<M> {
    moves: MoveList<M>,
    keys: SmallVec<[i32; 128]>,
    next: usize,
}

impl<M: Copy> MovePicker<M> {
    /// Moves in the order given.
    #[inline(always)]
    pub fn unordered(moves: MoveList<M>) -> MovePicker<M> {
        MovePicker { moves, keys: SmallVec::new(), next: 0 }
    }

    /// Moves by decreasing `key`.
    #[inline]
    pub fn keyed(moves: MoveList<M>, key: impl Fn(M) -> i32) -> MovePicker<M> {
        let keys = moves.iter().map(|&m| key(m)).collect();
        MovePicker { moves, keys, next: 0 }
    }

    /// How many moves in all.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there are no moves at all.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The next move.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<M> {
        let i = self.next;
        if i >= self.moves.len() {
            return None;
        }
        if !self.keys.is_empty() {
            let mut best = i;
            for j in i + 1..self.keys.len() {
                if self.keys[j] > self.keys[best] {
                    best = j;
                }
            }
            if best != i {
                // Rotate rather than swap, so that moves with equal keys keep their generation order.
                self.moves[i..=best].rotate_right(1);
                self.keys[i..=best].rotate_right(1);
            }
        }
        self.next += 1;
        Some(self.moves[i])
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

    /// The variant's name, such as `negamax-ab+pvs+qs`.
    fn name() -> String {
        let mut parts = vec![Self::Form::NAME];
        for p in [Self::Child::NAME, Self::Null::NAME, Self::Leaf::NAME, Self::Order::NAME] {
            if !p.is_empty() && p != "static" {
                parts.push(p);
            }
        }
        parts.join("+")
    }
}

/// The variant made of the policies `F`, `L`, `N`, `C` and `O`.
pub struct Compose<F, L = StaticLeaf, N = NoNull, C = FullWindow, O = GenerationOrder>(PhantomData<(F, L, N, C, O)>);

impl<F: Form, L: LeafPolicy, N: NullPolicy, C: ChildPolicy, O: OrderPolicy> Variant for Compose<F, L, N, C, O> {
    type Form = F;
    type Leaf = L;
    type Null = N;
    type Child = C;
    type Order = O;
}
