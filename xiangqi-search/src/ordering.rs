//! Move ordering: the [`OrderPolicy`] slot and its policies ([`GenerationOrder`], the spec's [`Ordered`] and
//! [`DynamicOrder`]), which key a node's moves in its [`MovePicker`] from the histories ([`crate::history`]),
//! which the node teaches.

use crate::config::VariantConfig;
use crate::game::FastPaths;
use crate::history::Histories;
use crate::picker::MovePicker;
use crate::registry::{Forms, Group, Technique, TechniqueId};
use crate::stack::Stack;
use crate::techniques::capture_history::CaptureHistory;

/// Ordering's entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "order",
    aliases: &["ordering"],
    summary:
        "move ordering: the hash move, MVV-LVA captures, killers, countermoves and history (default: generation order)",
    group: Group::Spec,
    forms: Forms::AnyForm,
    needs: None,
    in_engine: true,
    counters: &[],
    params: &[],
};

/// Ordering's place in the registry.
pub const ID: TechniqueId = TechniqueId::new(3);

/// What an ordering reads of the search when it keys a node's moves: the histories, and the stack of the line
/// at the node's ply (its killers, the moves before it).
#[derive(Debug, Clone, Copy)]
pub struct OrderContext<'a> {
    histories: &'a Histories,
    stack: &'a Stack,
    ply: usize,
}

impl<'a> OrderContext<'a> {
    /// The context of the node at `ply` of a search with `histories` and `stack`.
    #[inline(always)]
    pub(crate) fn new(histories: &'a Histories, stack: &'a Stack, ply: usize) -> OrderContext<'a> {
        OrderContext { histories, stack, ply }
    }

    /// The node's ply.
    #[inline(always)]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The search's histories.
    #[inline(always)]
    pub fn histories(&self) -> &'a Histories {
        self.histories
    }

    /// The killers of the node's ply (packed moves, the latest first; 0 for none).
    #[inline(always)]
    pub fn killers(&self) -> [u16; 2] {
        self.stack.killers(self.ply)
    }

    /// The continuation keys of the moves one and two plies back
    /// ([`crate::history::ContinuationHistory::key`]; 0 for none).
    #[inline(always)]
    pub fn previous(&self) -> [u32; 2] {
        self.stack.previous(self.ply)
    }
}

/// How moves are ordered. What the orderings read (the histories) is the searcher's, learnt by the node at its
/// cutoffs ([`crate::history`]); a policy says only whether the node keeps them ([`OrderPolicy::learns`]) and how
/// it keys the moves from them.
pub trait OrderPolicy: 'static {
    /// Short name.
    const NAME: &'static str;
    /// The policy's own state ([`DynamicOrder`]'s switch; nothing for the others).
    type State;
    /// The state a new searcher starts with.
    fn new_state() -> Self::State;
    /// Reads what the policy needs of the run-time [`VariantConfig`] when a search starts ([`DynamicOrder`] reads
    /// whether to order at all).
    #[inline(always)]
    fn configure(_state: &mut Self::State, _config: &VariantConfig) {}
    /// Whether the search keeps histories for this ordering: the node teaches them at its cutoffs, notes the line
    /// for the continuation history, reads them for its techniques, and [`crate::SearchMemory`] keeps them.
    fn learns(state: &Self::State) -> bool;
    /// Whether the hash move goes first. A search then tries it before generating any move, so a node that the
    /// hash move cuts off generates nothing.
    fn hash_first(state: &Self::State) -> bool;
    /// `Some(k)` when the policy keys every quiet move at most `k`: a node then generates its moves in stages,
    /// as Stockfish's move picker does. First the captures ([`crate::GenType::Captures`]),
    /// handed out while one keyed above `k` is left; then the quiet moves of [`OrderPolicy::early_quiets`], each
    /// checked for legality on its own; only then the other quiet moves, with the captures left. A node cut off by
    /// a capture or a killer never generates its quiet moves. The order is the one a single generation would
    /// give, except that quiet moves are keyed when the node comes to them, with what the searches before taught
    /// the histories. `None`: every move is generated and ordered at once.
    fn staged_below(state: &Self::State) -> Option<i32>;
    /// Orders the moves of `picker` of the node `at` by this policy (the moves not keyed yet: a staged node calls
    /// it once per stage); `hash_move` (a packed move from the transposition table, 0 for none) goes first when the
    /// policy orders at all.
    fn order<G: FastPaths>(
        state: &Self::State,
        at: OrderContext<'_>,
        game: &G,
        picker: &mut MovePicker<G::Move>,
        hash_move: u16,
    );
    /// For a staged policy, the quiet moves keyed above all other quiet moves of the node `at`, best first, as
    /// packed moves ([`crate::GameTree::encode_move`]; 0 for none): the killers and the countermove.
    fn early_quiets<G: FastPaths>(state: &Self::State, at: OrderContext<'_>, game: &G) -> [u16; 3];
}

/// Moves in the order the generator produced them: what the pure variants use, so comparisons are fair.
#[derive(Debug, Clone, Copy, Default)]
pub struct GenerationOrder;

impl OrderPolicy for GenerationOrder {
    const NAME: &'static str = "";
    type State = ();
    fn new_state() {}
    #[inline(always)]
    fn learns(_: &()) -> bool {
        false
    }
    #[inline(always)]
    fn hash_first(_: &()) -> bool {
        false
    }
    #[inline(always)]
    fn staged_below(_: &()) -> Option<i32> {
        None
    }
    #[inline(always)]
    fn order<G: FastPaths>(_: &(), _: OrderContext<'_>, _: &G, _: &mut MovePicker<G::Move>, _: u16) {}
    #[inline(always)]
    fn early_quiets<G: FastPaths>(_: &(), _: OrderContext<'_>, _: &G) -> [u16; 3] {
        [0; 3]
    }
}

/// The hash move first, then captures by MVV-LVA, the two killer moves of the ply, the countermove (the quiet
/// move that last refuted the opponent's previous move), the other quiet moves by history score, and last the
/// captures that likely lose material. Staged (see [`OrderPolicy::staged_below`]): the hash move, the captures and
/// the killers come before any quiet move is generated.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ordered;

/// The key of the first killer, the largest a quiet move other than the hash move gets.
const KILLER_KEY: i32 = 1 << 28;
/// Captures that do not lose material are keyed from here up, above every quiet move.
const GOOD_CAPTURE_KEY: i32 = 1 << 29;

impl OrderPolicy for Ordered {
    const NAME: &'static str = "order";
    type State = ();

    fn new_state() {}

    #[inline(always)]
    fn learns(_: &()) -> bool {
        true
    }

    #[inline(always)]
    fn hash_first(_: &()) -> bool {
        true
    }

    // Killers are the largest quiet keys; good captures are keyed above them.
    #[inline(always)]
    fn staged_below(_: &()) -> Option<i32> {
        Some(KILLER_KEY)
    }

    /// The tables' switches are read once here, and each combination gets a key function of its own, so the
    /// plain ordering's keys cost what they cost before the continuation and capture histories existed.
    #[inline]
    fn order<G: FastPaths>(_: &(), at: OrderContext<'_>, game: &G, picker: &mut MovePicker<G::Move>, hash_move: u16) {
        let h = at.histories;
        match (h.continuation.is_on(), h.capture.is_on()) {
            (false, false) => order_keys::<G, false, false>(at, game, picker, hash_move),
            (true, false) => order_keys::<G, true, false>(at, game, picker, hash_move),
            (false, true) => order_keys::<G, false, true>(at, game, picker, hash_move),
            (true, true) => order_keys::<G, true, true>(at, game, picker, hash_move),
        }
    }

    #[inline(always)]
    fn early_quiets<G: FastPaths>(_: &(), at: OrderContext<'_>, game: &G) -> [u16; 3] {
        let [k0, k1] = at.killers();
        let counter = at.histories.counter.get(game);
        [k0, k1, if counter == k0 || counter == k1 { 0 } else { counter }]
    }
}

/// [`Ordered`]'s keys, with the continuation history (`CONT`) and the capture history (`CAPS`) on or off.
#[inline(always)]
fn order_keys<G: FastPaths, const CONT: bool, const CAPS: bool>(
    at: OrderContext<'_>,
    game: &G,
    picker: &mut MovePicker<G::Move>,
    hash_move: u16,
) {
    let h = at.histories;
    let killers = at.killers();
    let counter = h.counter.get(game);
    let previous = if CONT { at.previous() } else { [0; 2] };
    picker.set_keys(|m| {
        let code = G::encode_move(m);
        if hash_move != 0 && code == hash_move {
            return i32::MAX;
        }
        let cap = if game.is_quiet(m) { 0 } else { game.capture_key(m) };
        if cap > 0 {
            if CAPS {
                return CaptureHistory::key(GOOD_CAPTURE_KEY, cap, h.capture.get(game, m));
            }
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
        } else if CONT {
            h.main.get(G::move_key(m)) + h.continuation.get(previous, game.piece_to_key(m))
        } else {
            h.main.get(G::move_key(m))
        }
    })
}

/// [`Ordered`] or the generation order ([`GenerationOrder`]), as the run-time [`VariantConfig`] says.
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicOrder;

/// The state of [`DynamicOrder`]: whether it orders (as [`Ordered`]) or not.
#[derive(Debug, Default, Clone, Copy)]
pub struct DynamicOrderState {
    on: bool,
}

impl OrderPolicy for DynamicOrder {
    const NAME: &'static str = "dynamic";
    type State = DynamicOrderState;

    fn new_state() -> DynamicOrderState {
        DynamicOrderState { on: false }
    }

    fn configure(state: &mut DynamicOrderState, config: &VariantConfig) {
        state.on = config.has(ID);
    }

    #[inline(always)]
    fn learns(state: &DynamicOrderState) -> bool {
        state.on
    }

    #[inline(always)]
    fn hash_first(state: &DynamicOrderState) -> bool {
        state.on
    }

    #[inline(always)]
    fn staged_below(state: &DynamicOrderState) -> Option<i32> {
        state.on.then_some(KILLER_KEY)
    }

    #[inline(always)]
    fn order<G: FastPaths>(
        state: &DynamicOrderState,
        at: OrderContext<'_>,
        game: &G,
        picker: &mut MovePicker<G::Move>,
        hash: u16,
    ) {
        if state.on {
            Ordered::order(&(), at, game, picker, hash);
        }
    }

    #[inline(always)]
    fn early_quiets<G: FastPaths>(state: &DynamicOrderState, at: OrderContext<'_>, game: &G) -> [u16; 3] {
        if state.on {
            Ordered::early_quiets(&(), at, game)
        } else {
            [0; 3]
        }
    }
}
