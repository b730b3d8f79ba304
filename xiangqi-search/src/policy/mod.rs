//! The techniques of the spec, each a small policy type, and the traits of the slots they fill. A variant
//! ([`Compose`]) picks one policy per slot; the node function is generic over it, so a technique that is off is a
//! call to an `#[inline(always)]` function that does nothing.
//!
//! | slot | trait | policies | file |
//! | --- | --- | --- | --- |
//! | form (how children combine) | [`Form`] | [`MinimaxForm`], [`AlphaBetaForm`], [`AlphaBetaHardForm`] (two-sided), [`NegamaxForm`], [`NegamaxAbSoftForm`], [`NegamaxAbHardForm`], [`DynamicForm`] | `form.rs` |
//! | leaf (depth 0) | [`LeafPolicy`] | [`StaticLeaf`], [`Quiescence`], [`DynamicLeaf`] | `quiescence.rs` |
//! | before the moves | [`NullPolicy`] | [`NoNull`], [`NullMove`], [`DynamicNull`]; the engine's [`crate::VerifiedNullMove`] and [`crate::ChosenNull`] | `null_move.rs`, `techniques/verified_null.rs` |
//! | how a child is searched | [`ChildPolicy`] | [`FullWindow`], [`PrincipalVariation`], [`DynamicChild`] | `child.rs` |
//! | move ordering | [`OrderPolicy`] | [`GenerationOrder`], [`Ordered`], [`DynamicOrder`] | `ordering.rs` (the picker: `picker.rs`, the node's stages: `movepick.rs`) |
//! | the engine's additions | [`Additions`] | [`NoAdditions`], [`SwitchedAdditions`] | this file; the techniques in `techniques/` |
//!
//! The `Dynamic` policies choose between the others at run time from the [`VariantConfig`]: one compiled
//! composition of them is every variant of the spec, node for node, which is how a variant parsed from text runs
//! without compiling every combination of types ([`crate::VariantConfig::run`] keeps compositions of fixed
//! policies for its presets that play, where speed counts).
//!
//! This file holds the traits (they name one another: a variant names its policies, a policy is written against
//! [`Search`], which names the variant); each policy file imports them from here and nothing else of the policies.

use crate::config::VariantConfig;
use crate::game::{FastPaths, GameTree, Score, INFINITY};
pub use crate::ordering::{DynamicOrder, DynamicOrderState, GenerationOrder, OrderPolicy, Ordered};
pub use crate::picker::MovePicker;
use crate::stats::Stats;
use crate::techniques::improving::Improving;
use crate::tt::TtHit;
use std::marker::PhantomData;

pub mod child;
pub mod form;
pub mod null_move;
pub mod quiescence;
pub mod step;

pub use crate::history::Histories;
pub use child::{DynamicChild, FullWindow, PrincipalVariation};
pub use form::{
    AlphaBetaForm, AlphaBetaHardForm, DynamicForm, MinimaxForm, NegamaxAbHardForm, NegamaxAbSoftForm, NegamaxForm,
};
pub use null_move::{DynamicNull, NoNull, NullMove};
pub use quiescence::{DynamicLeaf, Quiescence, StaticLeaf};
pub use step::{Label, Step};

/// How a node combines its children's scores. A form fixed at compile time answers with constants (the calls fold
/// away); [`DynamicForm`] reads them from the run-time [`VariantConfig`].
pub trait Form: 'static {
    /// Short name, as used in variant strings.
    const NAME: &'static str;
    /// Max/min nodes with scores from the first player's view (the spec's `minimax` and `alphaBeta(isMax)`).
    fn two_sided(config: &VariantConfig) -> bool;
    /// Alpha-beta pruning.
    fn prune(config: &VariantConfig) -> bool;
    /// Fail-soft: return the best score found even outside the window. Fail-hard clamps to `[alpha, beta]`.
    fn fail_soft(config: &VariantConfig) -> bool;
    /// Two-sided whatever the configuration says (a form fixed at compile time): [`Variant::CHECK`] refuses the
    /// negamax node's techniques with it.
    const FIXED_TWO_SIDED: bool = false;
    /// Without a window whatever the configuration says: [`Variant::CHECK`] refuses the techniques that need one.
    const FIXED_NO_WINDOW: bool = false;
}

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
    /// The variant as chosen at run time: the techniques switched on, the form (for the dynamic policies).
    fn config(&self) -> &VariantConfig;
    /// The techniques' tunable numbers ([`crate::params`]).
    fn params(&self) -> &crate::registry::Params;
    /// The counters.
    fn stats(&mut self) -> &mut Stats;
    /// The observer.
    fn observer(&mut self) -> &mut Self::W;
    /// Whether the search has been told to stop (its results are then thrown away).
    fn stopped(&self) -> bool;
    /// Notes a quiescence node at `ply` (the selective depth, the periodic look at the clock and the node limit);
    /// true when the search must stop.
    fn enter_quiescence(&mut self, ply: usize) -> bool;
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
    /// Makes the move `m` of the node at `ply` as the node's own loop does (the ordering hears of it, the child
    /// learns whether it is in check): for a technique that searches some of the node's moves itself (ProbCut).
    /// [`Search::unmake`] takes it back.
    fn make_child(&mut self, m: <Self::G as GameTree>::Move, ply: usize);
    /// Starts loading the table entry of the position `m` leads to (a hint that changes no result), before the
    /// child of a node with `depth` plies left is made.
    fn prefetch_child(&self, m: <Self::G as GameTree>::Move, depth: i32);
    /// Searches the node at `ply` again without its move `excluded` (packed), `depth` plies left, window
    /// `[alpha, beta]`: the singular extension's search. That search takes nothing from the table, makes no null
    /// move and stores nothing; its principal variation is dropped.
    fn search_excluding(&mut self, excluded: u16, depth: i32, alpha: Score, beta: Score, ply: usize) -> Score;
    /// Stores `e` for `key` at `ply` in the transposition table, when the variant has one.
    fn store(&self, key: u64, ply: usize, e: TtHit);
    /// The depth of the root's current iteration.
    fn root_depth(&self) -> i32;
    /// Whether the node functions run the two-sided form (whose line-level steps are from the first player's view).
    #[inline(always)]
    fn two_sided(&self) -> bool {
        <<Self::V as Variant>::Form as Form>::two_sided(self.config())
    }
    /// Emits the line-level event `f` builds ([`Observer::step`]), only when the observer is
    /// [`Observer::ACTIVE`]: for an ordinary search the call and the building fold away.
    #[inline(always)]
    fn step(&mut self, f: impl FnOnce(&Self) -> Step<<Self::G as GameTree>::Move>)
    where
        Self: Sized,
    {
        if <Self::W as Observer<Self::G>>::ACTIVE {
            let step = f(self);
            self.observer().step(step);
        }
    }
}

/// What a node at depth 0 returns.
pub trait LeafPolicy: 'static {
    /// Short name.
    const NAME: &'static str;
    /// The score of a horizon node for the side to move.
    fn leaf<S: Search>(s: &mut S, alpha: Score, beta: Score, ply: usize) -> Score;
}

/// A negamax node's static evaluation: the evaluator's (`raw`, what the table keeps), the one the pruning reads
/// (`corrected` by the correction history when the variant has it) and the improving signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeEval {
    /// The evaluator's score for the side to move (or the table's copy of it).
    pub raw: Score,
    /// `raw` corrected by the correction history (equal to `raw` without it).
    pub corrected: Score,
    /// Whether the static evaluation rose since two plies back ([`Improving`]).
    pub improving: Improving,
}

impl NodeEval {
    /// No static evaluation (in check, or a variant without the engine's additions).
    pub const NONE: NodeEval = NodeEval { raw: -INFINITY, corrected: -INFINITY, improving: Improving::OFF };
}

/// What a hook of the negamax node sees of its node (Stockfish's locals of `search()`): the window, the depth
/// and the distance from the root, the table's answer, the static evaluation, whether the side to move is in
/// check, and the move a singular extension's search leaves out. The node fills it in as it learns each part
/// (the table's hit after the probe, the static evaluation before the pruning, the depth after internal iterative
/// reduction) and hands it to each hook; a hook that searches does it through [`Search`].
#[derive(Debug, Clone, Copy)]
pub struct Node {
    /// Remaining depth.
    pub depth: i32,
    /// The node's alpha (at the start of its moves).
    pub alpha: Score,
    /// The node's beta.
    pub beta: Score,
    /// Distance from the root.
    pub ply: usize,
    /// Whether the node has an open window (a PV node).
    pub pv_node: bool,
    /// Whether the side to move is in check (known only with the engine's additions: false without them).
    pub in_check: bool,
    /// False right after a null move (and at the root, and in a search without a move): two passes in a row
    /// prove nothing.
    pub null_ok: bool,
    /// The position's hash key.
    pub key: u64,
    /// The transposition table's entry for the position, when there is one and the node may use it.
    pub hit: Option<TtHit>,
    /// The static evaluation ([`NodeEval::NONE`] in check or without the engine's additions).
    pub eval: NodeEval,
    /// The move a singular extension's search leaves out (packed, [`crate::GameTree::encode_move`]; 0 for
    /// none).
    pub excluded: u16,
}

impl Node {
    /// A node before its table probe and static evaluation.
    #[inline(always)]
    pub fn new(depth: i32, alpha: Score, beta: Score, ply: usize, key: u64) -> Node {
        Node {
            depth,
            alpha,
            beta,
            ply,
            pv_node: beta - alpha > 1,
            in_check: false,
            null_ok: false,
            key,
            hit: None,
            eval: NodeEval::NONE,
            excluded: 0,
        }
    }

    /// Whether the node is a singular extension's search without a move.
    #[inline(always)]
    pub fn excluding(&self) -> bool {
        self.excluded != 0
    }

    /// The table's move (packed; 0 for none).
    #[inline(always)]
    pub fn hash_move(&self) -> u16 {
        self.hit.map_or(0, |h| h.mv)
    }
}

/// What a node tries before its moves.
pub trait NullPolicy: 'static {
    /// Short name.
    const NAME: &'static str;
    /// `Some(score)` when the node is cut off without searching its moves.
    fn try_null<S: Search>(s: &mut S, node: &Node) -> Option<Score>;
    /// Passes the turn and searches a zero window from the side to move's view: a negamax node's technique, that
    /// needs a window ([`Variant::CHECK`]).
    const NEGAMAX_WINDOW: bool = false;
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
    type Additions: Additions;

    /// Refuses, when a [`crate::Searcher`] of the variant is compiled, what the types already show makes no sense:
    /// the null move or PVS (a pass and zero windows from the side to move's view) on a two-sided form or on a form
    /// without a window. The text parser ([`crate::VariantConfig`]) refuses the same at run time.
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
        for p in [Self::Child::NAME, Self::Null::NAME, Self::Leaf::NAME, Self::Order::NAME, Self::Additions::NAME] {
            if !p.is_empty() && p != "static" {
                parts.push(p);
            }
        }
        parts.join("+")
    }
}

/// The variant made of the policies `F`, `L`, `N`, `C`, `O` and `X`.
pub struct Compose<F, L = StaticLeaf, N = NoNull, C = FullWindow, O = GenerationOrder, X = NoAdditions>(
    PhantomData<(F, L, N, C, O, X)>,
);

impl<F: Form, L: LeafPolicy, N: NullPolicy, C: ChildPolicy, O: OrderPolicy, X: Additions> Variant
    for Compose<F, L, N, C, O, X>
{
    type Form = F;
    type Leaf = L;
    type Null = N;
    type Child = C;
    type Order = O;
    type Additions = X;
}

/// Whether a variant has the playing engine's additions: the techniques of [`crate::techniques`], called at the
/// negamax node's hooks (and the root's). With [`NoAdditions`] the node is the spec's algorithm and nothing else,
/// every call folding away; with [`SwitchedAdditions`] each is compiled in and switched at run time by its bit in the
/// [`VariantConfig`], and counts what it does in [`crate::Stats`].
pub trait Additions: 'static {
    /// Short name.
    const NAME: &'static str;
    /// Whether the additions are compiled in.
    const ENABLED: bool;
}

/// No additions: the spec's techniques alone.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoAdditions;

impl Additions for NoAdditions {
    const NAME: &'static str = "";
    const ENABLED: bool = false;
}

/// Every addition compiled in, each switched at run time by its bit in the variant (see [`Additions`]): the
/// engine's additions, and any variant that names one.
#[derive(Debug, Clone, Copy, Default)]
pub struct SwitchedAdditions;

impl Additions for SwitchedAdditions {
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
    /// The node at `step.ply` has just executed the line of the pseudocode `step.label` names (see [`Step`] and
    /// [`crate::record::pseudocode`]). The search calls it only when [`Observer::ACTIVE`].
    #[inline(always)]
    fn step(&mut self, _step: Step<G::Move>) {}
}

/// The observer that watches nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl<G: FastPaths> Observer<G> for Silent {}
