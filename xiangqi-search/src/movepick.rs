//! Move ordering and the move picker, in one place: the [`OrderPolicy`] slot and its policies ([`GenerationOrder`],
//! the spec's [`Ordered`] and [`DynamicOrder`]), [`MovePicker`], which hands out a node's moves by key, and the
//! node's stages (the hash move before any generation, the captures, the killers and the countermove, then the
//! quiet moves), as Stockfish's `movepick.cpp` arranges them. What the ordering learns lives in
//! [`crate::history`].

use crate::config::VariantConfig;
use crate::game::{FastPaths, GenType, MoveBuf, Score};
use crate::history::OrderState;
use crate::registry::{Forms, Group, Params, Technique, TechniqueId};
use crate::techniques::capture_history::{self, CaptureHistory};
use crate::techniques::history_scale::{self, HistoryScale};
use crate::techniques::{continuation_history, correction_history};
use smallvec::SmallVec;

/// Hands out moves one at a time. Keyed pickers hand out the largest key left (the first of equals, so generation
/// order breaks ties). Most nodes cut off after a move or two, so the first few moves are selected lazily; a node
/// that goes on sorts what is left once (a stable insertion sort, which yields the same order selection would).
///
/// A picker is filled in place: the generator writes into [`MovePicker::moves_mut`] and the ordering policy
/// into [`MovePicker::set_keys`], so the move list is never copied.
pub struct MovePicker<M> {
    moves: MoveBuf<M>,
    keys: SmallVec<[i32; 128]>,
    next: usize,
    sorted: bool,
    /// The move at `next` is the best of those left (selected, not handed out yet).
    ready: bool,
}

/// How many moves a keyed picker selects one by one before it sorts the rest.
const SELECTED_PICKS: usize = 3;

impl<M: Copy> Default for MovePicker<M> {
    fn default() -> Self {
        MovePicker::new()
    }
}

impl<M: Copy> MovePicker<M> {
    /// An empty picker, to be filled through [`MovePicker::moves_mut`].
    #[inline(always)]
    pub fn new() -> MovePicker<M> {
        MovePicker::unordered(MoveBuf::new())
    }

    /// Moves in the order given.
    #[inline(always)]
    pub fn unordered(moves: MoveBuf<M>) -> MovePicker<M> {
        MovePicker { moves, keys: SmallVec::new(), next: 0, sorted: false, ready: false }
    }

    /// Moves by decreasing `key`.
    #[inline]
    pub fn keyed(moves: MoveBuf<M>, key: impl Fn(M) -> i32) -> MovePicker<M> {
        let mut p = MovePicker::unordered(moves);
        p.set_keys(key);
        p
    }

    /// The move list, for a generator to fill: before any move is handed out, or later to add moves (keyed with
    /// [`MovePicker::set_keys`]) that are handed out among those left.
    #[inline(always)]
    pub fn moves_mut(&mut self) -> &mut MoveBuf<M> {
        self.sorted = false;
        self.ready = false;
        &mut self.moves
    }

    /// Keys the moves not keyed yet with `key`: moves are handed out by decreasing key, the first listed first
    /// among equals.
    #[inline(always)]
    pub fn set_keys(&mut self, key: impl Fn(M) -> i32) {
        let keyed = self.keys.len();
        self.keys.extend(self.moves[keyed..].iter().map(|&m| key(m)));
    }

    /// Whether no move keyed above `ceiling` is left.
    #[inline(always)]
    pub fn spent_above(&mut self, ceiling: i32) -> bool {
        !self.prepare() || self.keys[self.next] <= ceiling
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

    /// How many moves are left.
    #[inline(always)]
    pub fn remaining(&self) -> usize {
        self.moves.len() - self.next
    }

    /// The next move with its key (0 for an unordered picker).
    #[inline]
    pub fn next_keyed(&mut self) -> Option<(M, i32)> {
        let m = self.next()?;
        Some((m, self.keys.get(self.next - 1).copied().unwrap_or(0)))
    }

    /// The next move.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<M> {
        if !self.prepare() {
            return None;
        }
        let i = self.next;
        self.ready = false;
        self.next += 1;
        Some(self.moves[i])
    }

    /// Brings the best move left to `next`; false when none is left.
    #[inline(always)]
    fn prepare(&mut self) -> bool {
        let i = self.next;
        if i >= self.moves.len() {
            return false;
        }
        if !self.keys.is_empty() && !self.sorted && !self.ready {
            if i < SELECTED_PICKS {
                self.select(i);
                self.ready = true;
            } else {
                self.sort_rest(i);
            }
        }
        true
    }

    /// Brings the first of the largest keys in `i..` to `i`, keeping the others in order.
    #[inline(always)]
    fn select(&mut self, i: usize) {
        let keys = &self.keys[i..self.moves.len()];
        let (mut best, mut best_key) = (0, keys[0]);
        for (j, &k) in keys.iter().enumerate().skip(1) {
            if k > best_key {
                (best, best_key) = (j, k);
            }
        }
        let best = i + best;
        if best != i {
            // Rotate rather than swap, so that moves with equal keys keep their generation order.
            self.moves[i..=best].rotate_right(1);
            self.keys[i..=best].rotate_right(1);
        }
    }

    /// Sorts `i..` by decreasing key, stably, by insertion: the lists are short (a few dozen moves), and no
    /// buffer is needed.
    #[cold]
    fn sort_rest(&mut self, i: usize) {
        let n = self.moves.len();
        let (keys, moves) = (&mut self.keys[i..n], &mut self.moves[i..n]);
        for a in 1..keys.len() {
            let (k, m) = (keys[a], moves[a]);
            let mut b = a;
            while b > 0 && keys[b - 1] < k {
                keys[b] = keys[b - 1];
                moves[b] = moves[b - 1];
                b -= 1;
            }
            keys[b] = k;
            moves[b] = m;
        }
        self.sorted = true;
    }
}

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
        OrderState::new(move_keys)
    }

    fn export(state: &OrderState) -> Option<OrderState> {
        Some(state.clone())
    }

    /// The history and countermove tables carry over; killers, which belong to the plies of one search, start
    /// empty (as Stockfish keeps its history tables and clears its killers).
    fn import(state: &mut OrderState, saved: &OrderState) {
        state.import(saved);
    }

    /// Switches the continuation, capture and correction histories and the history scale as the variant says
    /// (off without the engine's additions).
    fn configure<G: FastPaths>(state: &mut OrderState, config: &VariantConfig, params: &Params, additions: bool) {
        state.configure::<G>(
            additions && config.has(continuation_history::ID),
            additions && config.has(capture_history::ID),
            additions && config.has(correction_history::ID),
            (additions && config.has(history_scale::ID)).then(|| HistoryScale::scale(params)),
        );
    }

    /// The tables' switches are read once here, and each combination gets a key function of its own, so the
    /// plain ordering's keys cost what they cost before the continuation and capture histories existed.
    #[inline]
    fn order<G: FastPaths>(state: &OrderState, game: &G, picker: &mut MovePicker<G::Move>, ply: usize, hash_move: u16) {
        match (state.continuation_on(), state.captures_on()) {
            (false, false) => order_keys::<G, false, false>(state, game, picker, ply, hash_move),
            (true, false) => order_keys::<G, true, false>(state, game, picker, ply, hash_move),
            (false, true) => order_keys::<G, false, true>(state, game, picker, ply, hash_move),
            (true, true) => order_keys::<G, true, true>(state, game, picker, ply, hash_move),
        }
    }

    #[inline(always)]
    fn early_quiets<G: FastPaths>(state: &OrderState, game: &G, ply: usize) -> [u16; 3] {
        let [k0, k1] = state.killers(ply);
        let counter = state.countermove(game);
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
        state.learn(game, m, depth, ply, tried);
    }

    #[inline(always)]
    fn on_capture_cutoff<G: FastPaths>(state: &mut OrderState, game: &G, m: G::Move, depth: i32, captures: &[G::Move]) {
        state.learn_captures(game, m, depth, captures);
    }

    #[inline(always)]
    fn on_make<G: FastPaths>(state: &mut OrderState, game: &G, m: Option<G::Move>, ply: usize) {
        state.note_move(game, m, ply);
    }

    #[inline(always)]
    fn quiet_score<G: FastPaths>(state: &OrderState, game: &G, m: G::Move, ply: usize) -> i32 {
        state.quiet_score(game, m, ply)
    }

    #[inline(always)]
    fn correction<G: FastPaths>(state: &OrderState, game: &G) -> Score {
        state.correction(game)
    }

    #[inline(always)]
    fn learn_correction<G: FastPaths>(state: &mut OrderState, game: &G, diff: Score, depth: i32) {
        state.learn_correction(game, diff, depth);
    }
}

/// [`Ordered`]'s keys, with the continuation history (`CONT`) and the capture history (`CAPS`) on or off.
#[inline(always)]
fn order_keys<G: FastPaths, const CONT: bool, const CAPS: bool>(
    state: &OrderState,
    game: &G,
    picker: &mut MovePicker<G::Move>,
    ply: usize,
    hash_move: u16,
) {
    let killers = state.killers(ply);
    let counter = state.countermove(game);
    picker.set_keys(|m| {
        let code = G::encode_move(m);
        if hash_move != 0 && code == hash_move {
            return i32::MAX;
        }
        let cap = if game.is_quiet(m) { 0 } else { game.capture_key(m) };
        if cap > 0 {
            if CAPS {
                return CaptureHistory::key(GOOD_CAPTURE_KEY, cap, state.capture_score(game, m));
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
            state.history(G::move_key(m))
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

/// Where a node is in handing out its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// The hash move, before any generation.
    Hash,
    /// Generate (the captures only, for a staged ordering).
    Generate,
    /// A staged ordering's captures keyed above every quiet move.
    Captures,
    /// A staged ordering's early quiet moves (killers, countermove), by index.
    Early(usize),
    /// What is left, in the ordering's order.
    Rest,
}

/// The moves of one node, generated as the node comes to need them.
pub(crate) struct NodeMoves<G: FastPaths> {
    pub(crate) picker: MovePicker<G::Move>,
    legality: Option<G::Legality>,
    phase: Phase,
    hash_move: u16,
    early: [u16; 3],
    /// Moves handed out before their generation (the hash move, early quiet moves), skipped when generated.
    tried: [Option<G::Move>; 4],
    tried_len: usize,
}

impl<G: FastPaths> NodeMoves<G> {
    #[inline(always)]
    pub(crate) fn new(hash_move: u16) -> NodeMoves<G> {
        NodeMoves {
            picker: MovePicker::new(),
            legality: None,
            phase: Phase::Hash,
            hash_move,
            early: [0; 3],
            tried: [None; 4],
            tried_len: 0,
        }
    }

    /// Records that `m` is handed out before its generation, and returns it.
    #[inline(always)]
    fn tried(&mut self, m: G::Move) -> G::Move {
        self.tried[self.tried_len] = Some(m);
        self.tried_len += 1;
        m
    }

    /// Whether `m` was handed out before its generation.
    #[inline(always)]
    fn skips(&self, m: G::Move) -> bool {
        self.tried[..self.tried_len].contains(&Some(m))
    }
}

impl<G: FastPaths> NodeMoves<G> {
    /// Adds the moves of `kind` of the node at `ply` to the picker, ordered by the policy `O` (at the root, only
    /// those `root_allows`). Some may be illegal: the node tests each one it comes to with
    /// [`FastPaths::is_legal_generated`].
    #[inline(always)]
    fn add_moves<O: OrderPolicy>(
        &mut self,
        game: &G,
        order: &O::State,
        kind: GenType,
        ply: usize,
        root_allows: &impl Fn(G::Move) -> bool,
    ) {
        let legality = self.legality.as_ref().expect("generated before");
        let moves = self.picker.moves_mut();
        game.generate_lazy(legality, kind, moves);
        if ply == 0 {
            moves.retain(|&mut m| root_allows(m));
        }
        O::order(order, game, &mut self.picker, ply, self.hash_move);
    }

    /// The next legal move of the node at `ply` in `game`, ordered by the policy `O` with its state `order`: the
    /// hash move first when the ordering wants it, then the generated moves, in stages when the ordering is staged
    /// (see [`OrderPolicy::staged_below`]). At the root, only the moves `root_allows`.
    #[inline(always)]
    pub(crate) fn next<O: OrderPolicy>(
        &mut self,
        game: &G,
        order: &O::State,
        ply: usize,
        root_allows: impl Fn(G::Move) -> bool,
    ) -> Option<G::Move> {
        loop {
            match self.phase {
                Phase::Hash => {
                    self.phase = Phase::Generate;
                    if O::hash_first(order) && self.hash_move != 0 {
                        let m = game.decode_legal(self.hash_move);
                        if let Some(m) = m.filter(|&m| ply > 0 || root_allows(m)) {
                            return Some(self.tried(m));
                        }
                    }
                }
                Phase::Generate => {
                    self.legality = Some(game.legality());
                    let staged = O::staged_below(order).is_some();
                    let kind = if staged { GenType::Captures } else { GenType::All };
                    self.add_moves::<O>(game, order, kind, ply, &root_allows);
                    self.phase = if staged { Phase::Captures } else { Phase::Rest };
                }
                Phase::Captures => {
                    if self.picker.spent_above(O::staged_below(order).unwrap_or(i32::MIN)) {
                        self.early = O::early_quiets(order, game, ply);
                        self.phase = Phase::Early(0);
                        continue;
                    }
                    if let Some(m) = self.take_generated(game) {
                        return Some(m);
                    }
                }
                Phase::Early(i) => {
                    let Some(&code) = self.early.get(i) else {
                        self.add_moves::<O>(game, order, GenType::Quiets, ply, &root_allows);
                        self.phase = Phase::Rest;
                        continue;
                    };
                    self.phase = Phase::Early(i + 1);
                    if code == 0 {
                        continue;
                    }
                    let legality = self.legality.as_ref().expect("generated before");
                    let m = game
                        .decode_with(legality, code)
                        .filter(|&m| game.is_quiet(m) && !self.skips(m) && (ply > 0 || root_allows(m)));
                    if let Some(m) = m {
                        return Some(self.tried(m));
                    }
                }
                Phase::Rest => {
                    if self.picker.remaining() == 0 {
                        return None;
                    }
                    if let Some(m) = self.take_generated(game) {
                        return Some(m);
                    }
                }
            }
        }
    }

    /// The next generated move, if it is legal and was not tried before the generation.
    #[inline(always)]
    fn take_generated(&mut self, game: &G) -> Option<G::Move> {
        let m = self.picker.next()?;
        let legality = self.legality.as_ref().expect("generated before");
        (!self.skips(m) && game.is_legal_generated(legality, m)).then_some(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameTree;
    use xiangqi_core::{Move, Position};

    /// A position and the ordering's state, as a node sees them.
    struct Node {
        game: Position,
        order: OrderState,
    }

    /// What one generation of every move, keyed at once, hands out: the hash move first, then the legal moves
    /// by key.
    fn single_generation(s: &Node, hash: u16) -> Vec<Move> {
        let mut out: Vec<Move> = s.game.decode_legal(hash).into_iter().collect();
        let ks = s.game.legality();
        let mut picker = MovePicker::new();
        s.game.generate_lazy(&ks, GenType::All, picker.moves_mut());
        Ordered::order(&s.order, &s.game, &mut picker, 0, hash);
        while let Some(m) = picker.next() {
            if !out.contains(&m) && s.game.is_legal_generated(&ks, m) {
                out.push(m);
            }
        }
        out
    }

    #[test]
    fn staged_moves_come_in_the_order_of_a_single_generation() {
        let mut pos = Position::startpos();
        let mut checked = 0;
        for step in 0..60 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let quiets: Vec<Move> = legal.iter().copied().filter(|m| pos.piece_at(m.to()).is_none()).collect();
            // Killers and a countermove from this position, or a killer from two plies before (which may be
            // illegal or a capture by now), and history from cutoffs with quiet moves tried before them.
            let mut s = Node { game: pos.clone(), order: Ordered::new_state(Position::MOVE_KEYS) };
            let mut back = pos.clone();
            back.unmake_move();
            back.unmake_move();
            let mut old: Vec<Move> =
                back.legal_moves().into_iter().filter(|m| back.piece_at(m.to()).is_none()).collect();
            // Every other step, one that captures now if there is one.
            if let Some(&c) = old.iter().find(|&&m| step % 2 == 0 && pos.is_legal(m) && pos.piece_at(m.to()).is_some())
            {
                old = vec![c];
            }
            if !old.is_empty() {
                Ordered::on_cutoff(&mut s.order, &back, old[step % old.len()], 3, 0, &[]);
            }
            if !quiets.is_empty() {
                if step % 3 != 0 {
                    Ordered::on_cutoff(&mut s.order, &s.game, quiets[(step + 1) % quiets.len()], 2, 0, &[]);
                }
                Ordered::on_cutoff(
                    &mut s.order,
                    &s.game,
                    quiets[step % quiets.len()],
                    4,
                    0,
                    &quiets[..3.min(quiets.len())],
                );
                for (i, &h) in quiets.iter().enumerate().skip(3).step_by(4) {
                    Ordered::on_cutoff(&mut s.order, &s.game, h, 1 + i as i32 % 5, 7, &[]);
                }
            }
            let hash = legal[(step * 7) % legal.len()].raw();
            for hash in [0, hash] {
                let mut nm = NodeMoves::new(hash);
                let mut staged = Vec::new();
                while let Some(m) = nm.next::<Ordered>(&s.game, &s.order, 0, |_| true) {
                    staged.push(m);
                }
                assert_eq!(staged, single_generation(&s, hash), "order differs in {}", pos.fen());
                assert_eq!(staged.len(), legal.len());
                checked += 1;
            }
            pos.make_move(legal[(step * 13 + 5) % legal.len()]);
        }
        assert!(checked >= 40, "only {checked} positions");
    }
}
