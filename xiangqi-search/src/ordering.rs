//! Move ordering: the [`OrderPolicy`] slot and its policies ([`GenerationOrder`], the spec's [`Ordered`] and
//! [`DynamicOrder`]), which key a node's moves in its [`MovePicker`] and learn from cutoffs. What the ordering
//! learns lives in [`crate::history`].

use crate::config::VariantConfig;
use crate::game::{FastPaths, Score};
use crate::history::{Histories, Scale};
use crate::picker::MovePicker;
use crate::registry::{Forms, Group, Params, Technique, TechniqueId};
use crate::techniques::capture_history::{self, CaptureHistory};
use crate::techniques::history_scale::{self, HistoryScale};
use crate::techniques::{continuation_history, correction_history};

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

/// How moves are ordered, and what the ordering learns from cutoffs.
pub trait OrderPolicy: 'static {
    /// Short name.
    const NAME: &'static str;
    /// Whether the hash move goes first. A search then tries it before generating any move, so a node that the
    /// hash move cuts off generates nothing.
    fn hash_first(state: &Self::State) -> bool;
    /// `Some(k)` when the policy keys every quiet move at most `k`: a node then generates its moves in stages,
    /// as Stockfish's move picker does. First the captures ([`GenType::Captures`]),
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
    /// Reads what the policy needs of the run-time [`VariantConfig`] and the tunable [`Params`] when a search
    /// starts ([`DynamicOrder`] reads whether to order at all); `additions` says whether the search has the
    /// engine's additions (the histories beyond the spec's ordering, and their scale, are among them).
    #[inline(always)]
    fn configure<G: FastPaths>(_state: &mut Self::State, _config: &VariantConfig, _params: &Params, _additions: bool) {}
    /// What the state has learnt, to be kept for the next search of the same game ([`crate::SearchMemory`]);
    /// `None` for a policy that learns nothing.
    fn export(_state: &Self::State) -> Option<Histories> {
        None
    }
    /// Starts from what an earlier search learnt (a state of another game, with other move keys, is ignored).
    fn import(_state: &mut Self::State, _saved: &Histories) {}
    /// Orders the moves of `picker` at `ply` by this policy (the moves not keyed yet: a staged node calls it once
    /// per stage); `hash_move` (a packed move from the transposition table, 0 for none) goes first when the policy
    /// orders at all.
    fn order<G: FastPaths>(state: &Self::State, game: &G, picker: &mut MovePicker<G::Move>, ply: usize, hash_move: u16);
    /// For a staged policy, the quiet moves keyed above all other quiet moves at `ply`, best first, as packed
    /// moves ([`crate::GameTree::encode_move`]; 0 for none): the killers and the countermove.
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
    /// Learns from a cutoff by `m` (a capture or a quiet move) after the captures in `captures` failed to (the
    /// capture history). Nothing by default.
    #[inline(always)]
    fn on_capture_cutoff<G: FastPaths>(
        _state: &mut Self::State,
        _game: &G,
        _m: G::Move,
        _depth: i32,
        _captures: &[G::Move],
    ) {
    }
    /// Notes the move `m` (`None`: the null move) about to be made at `ply` (the continuation history's line).
    /// Nothing by default.
    #[inline(always)]
    fn on_make<G: FastPaths>(_state: &mut Self::State, _game: &G, _m: Option<G::Move>, _ply: usize) {}
    /// What the ordering has learnt of the quiet move `m` at `ply` (its history and continuation history), for
    /// the techniques that read it (history-adjusted reductions, history pruning). 0 by default.
    #[inline(always)]
    fn quiet_score<G: FastPaths>(_state: &Self::State, _game: &G, _m: G::Move, _ply: usize) -> i32 {
        0
    }
    /// The correction history's correction of the static evaluation of `game` (0 by default).
    #[inline(always)]
    fn correction<G: FastPaths>(_state: &Self::State, _game: &G) -> Score {
        0
    }
    /// Teaches the correction history that a search of `game` to `depth` found a value `diff` from the raw static
    /// evaluation. Nothing by default.
    #[inline(always)]
    fn learn_correction<G: FastPaths>(_state: &mut Self::State, _game: &G, _diff: Score, _depth: i32) {}
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

/// The key of the first killer, the largest a quiet move other than the hash move gets.
const KILLER_KEY: i32 = 1 << 28;
/// Captures that do not lose material are keyed from here up, above every quiet move.
const GOOD_CAPTURE_KEY: i32 = 1 << 29;

impl OrderPolicy for Ordered {
    const NAME: &'static str = "order";
    type State = Histories;

    #[inline(always)]
    fn hash_first(_: &Histories) -> bool {
        true
    }

    // Killers are the largest quiet keys; good captures are keyed above them.
    #[inline(always)]
    fn staged_below(_: &Histories) -> Option<i32> {
        Some(KILLER_KEY)
    }

    fn new_state(move_keys: usize) -> Histories {
        Histories::new(move_keys)
    }

    fn export(state: &Histories) -> Option<Histories> {
        Some(state.clone())
    }

    /// The history and countermove tables carry over; killers, which belong to the plies of one search, start
    /// empty (as Stockfish keeps its history tables and clears its killers).
    fn import(state: &mut Histories, saved: &Histories) {
        state.import(saved);
    }

    /// Switches the continuation, capture and correction histories and the history scale as the variant says
    /// (off without the engine's additions).
    fn configure<G: FastPaths>(state: &mut Histories, config: &VariantConfig, params: &Params, additions: bool) {
        state.configure::<G>(
            additions && config.has(continuation_history::ID),
            additions && config.has(capture_history::ID),
            additions && config.has(correction_history::ID),
            Scale::new((additions && config.has(history_scale::ID)).then(|| HistoryScale::scale(params))),
        );
    }

    /// The tables' switches are read once here, and each combination gets a key function of its own, so the
    /// plain ordering's keys cost what they cost before the continuation and capture histories existed.
    #[inline]
    fn order<G: FastPaths>(state: &Histories, game: &G, picker: &mut MovePicker<G::Move>, ply: usize, hash_move: u16) {
        match (state.continuation.is_on(), state.capture.is_on()) {
            (false, false) => order_keys::<G, false, false>(state, game, picker, ply, hash_move),
            (true, false) => order_keys::<G, true, false>(state, game, picker, ply, hash_move),
            (false, true) => order_keys::<G, false, true>(state, game, picker, ply, hash_move),
            (true, true) => order_keys::<G, true, true>(state, game, picker, ply, hash_move),
        }
    }

    #[inline(always)]
    fn early_quiets<G: FastPaths>(state: &Histories, game: &G, ply: usize) -> [u16; 3] {
        let [k0, k1] = state.killers(ply);
        let counter = state.counter.get(game);
        [k0, k1, if counter == k0 || counter == k1 { 0 } else { counter }]
    }

    #[inline]
    fn on_cutoff<G: FastPaths>(state: &mut Histories, game: &G, m: G::Move, depth: i32, ply: usize, tried: &[G::Move]) {
        if !game.is_quiet(m) {
            return;
        }
        state.learn(game, m, depth, ply, tried);
    }

    #[inline(always)]
    fn on_capture_cutoff<G: FastPaths>(state: &mut Histories, game: &G, m: G::Move, depth: i32, captures: &[G::Move]) {
        state.learn_captures(game, m, depth, captures);
    }

    #[inline(always)]
    fn on_make<G: FastPaths>(state: &mut Histories, game: &G, m: Option<G::Move>, ply: usize) {
        state.note_move(game, m, ply);
    }

    #[inline(always)]
    fn quiet_score<G: FastPaths>(state: &Histories, game: &G, m: G::Move, ply: usize) -> i32 {
        state.quiet_score(game, m, ply)
    }

    #[inline(always)]
    fn correction<G: FastPaths>(state: &Histories, game: &G) -> Score {
        state.correction(game)
    }

    #[inline(always)]
    fn learn_correction<G: FastPaths>(state: &mut Histories, game: &G, diff: Score, depth: i32) {
        state.correction.update(game, diff, depth);
    }
}

/// [`Ordered`]'s keys, with the continuation history (`CONT`) and the capture history (`CAPS`) on or off.
#[inline(always)]
fn order_keys<G: FastPaths, const CONT: bool, const CAPS: bool>(
    state: &Histories,
    game: &G,
    picker: &mut MovePicker<G::Move>,
    ply: usize,
    hash_move: u16,
) {
    let killers = state.killers(ply);
    let counter = state.counter.get(game);
    picker.set_keys(|m| {
        let code = G::encode_move(m);
        if hash_move != 0 && code == hash_move {
            return i32::MAX;
        }
        let cap = if game.is_quiet(m) { 0 } else { game.capture_key(m) };
        if cap > 0 {
            if CAPS {
                return CaptureHistory::key(GOOD_CAPTURE_KEY, cap, state.capture.get(game, m));
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
            state.quiet_score(game, m, ply)
        } else {
            state.main.get(G::move_key(m))
        }
    })
}

/// [`Ordered`] or the generation order ([`GenerationOrder`]), as the run-time [`VariantConfig`] says.
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicOrder;

/// The state of [`DynamicOrder`]: [`Ordered`]'s, and whether it is used.
#[derive(Debug, Default, Clone)]
pub struct DynamicOrderState {
    on: bool,
    inner: Histories,
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

    fn configure<G: FastPaths>(
        state: &mut DynamicOrderState,
        config: &VariantConfig,
        params: &Params,
        additions: bool,
    ) {
        state.on = config.has(ID);
        if state.on {
            Ordered::configure::<G>(&mut state.inner, config, params, additions);
        }
    }

    fn export(state: &DynamicOrderState) -> Option<Histories> {
        state.on.then(|| state.inner.clone())
    }

    fn import(state: &mut DynamicOrderState, saved: &Histories) {
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

    #[inline(always)]
    fn on_capture_cutoff<G: FastPaths>(
        state: &mut DynamicOrderState,
        game: &G,
        m: G::Move,
        depth: i32,
        captures: &[G::Move],
    ) {
        if state.on {
            Ordered::on_capture_cutoff(&mut state.inner, game, m, depth, captures);
        }
    }

    #[inline(always)]
    fn on_make<G: FastPaths>(state: &mut DynamicOrderState, game: &G, m: Option<G::Move>, ply: usize) {
        if state.on {
            Ordered::on_make(&mut state.inner, game, m, ply);
        }
    }

    #[inline(always)]
    fn quiet_score<G: FastPaths>(state: &DynamicOrderState, game: &G, m: G::Move, ply: usize) -> i32 {
        if state.on {
            Ordered::quiet_score(&state.inner, game, m, ply)
        } else {
            0
        }
    }

    #[inline(always)]
    fn correction<G: FastPaths>(state: &DynamicOrderState, game: &G) -> Score {
        if state.on {
            Ordered::correction(&state.inner, game)
        } else {
            0
        }
    }

    #[inline(always)]
    fn learn_correction<G: FastPaths>(state: &mut DynamicOrderState, game: &G, diff: Score, depth: i32) {
        if state.on {
            Ordered::learn_correction(&mut state.inner, game, diff, depth);
        }
    }
}
