//! The move picker, in one place: [`MovePicker`] hands out a node's moves by key, and the node's stages (the hash
//! move before any generation, the captures, the killers and the countermove, then the quiet moves), as
//! Stockfish's `movepick.cpp` arranges them, are `NodeMoves` and the searcher's `next_move`.

use crate::game::{Evaluator, FastPaths, GenType, MoveBuf};
use crate::policy::{Observer, OrderPolicy, Variant};
use crate::searcher::Searcher;
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

impl<G: FastPaths, E: Evaluator<G, G::Move>, V: Variant, W: Observer<G>> Searcher<G, E, V, W> {
    /// Adds the moves of `kind` of the node at `ply` to `picker`, ordered by the variant's policy. Some may be
    /// illegal: the node tests each one it comes to with [`FastPaths::is_legal_generated`] and `legality`.
    #[inline(always)]
    fn add_moves(
        &self,
        picker: &mut MovePicker<G::Move>,
        legality: &G::Legality,
        kind: GenType,
        ply: usize,
        hash_move: u16,
    ) {
        let moves = picker.moves_mut();
        self.game.generate_lazy(legality, kind, moves);
        if ply == 0 {
            moves.retain(|&mut m| self.root_allows(m));
        }
        V::Order::order(&self.order, &self.game, picker, ply, hash_move);
    }

    /// The next legal move of the node at `ply`: the hash move first when the ordering wants it, then the
    /// generated moves, in stages when the ordering is staged (see [`OrderPolicy::staged_below`]).
    #[inline(always)]
    pub(crate) fn next_move(&self, nm: &mut NodeMoves<G>, ply: usize) -> Option<G::Move> {
        loop {
            match nm.phase {
                Phase::Hash => {
                    nm.phase = Phase::Generate;
                    if V::Order::hash_first(&self.order) && nm.hash_move != 0 {
                        let m = self.game.decode_legal(nm.hash_move);
                        if let Some(m) = m.filter(|&m| ply > 0 || self.root_allows(m)) {
                            return Some(nm.tried(m));
                        }
                    }
                }
                Phase::Generate => {
                    let legality = nm.legality.insert(self.game.legality());
                    let staged = V::Order::staged_below(&self.order).is_some();
                    let kind = if staged { GenType::Captures } else { GenType::All };
                    self.add_moves(&mut nm.picker, legality, kind, ply, nm.hash_move);
                    nm.phase = if staged { Phase::Captures } else { Phase::Rest };
                }
                Phase::Captures => {
                    if nm.picker.spent_above(V::Order::staged_below(&self.order).unwrap_or(i32::MIN)) {
                        nm.early = V::Order::early_quiets(&self.order, &self.game, ply);
                        nm.phase = Phase::Early(0);
                        continue;
                    }
                    if let Some(m) = self.take_generated(nm) {
                        return Some(m);
                    }
                }
                Phase::Early(i) => {
                    let Some(&code) = nm.early.get(i) else {
                        let legality = nm.legality.as_ref().expect("generated before");
                        self.add_moves(&mut nm.picker, legality, GenType::Quiets, ply, nm.hash_move);
                        nm.phase = Phase::Rest;
                        continue;
                    };
                    nm.phase = Phase::Early(i + 1);
                    let legality = nm.legality.as_ref().expect("generated before");
                    if code == 0 {
                        continue;
                    }
                    let m = self
                        .game
                        .decode_with(legality, code)
                        .filter(|&m| self.game.is_quiet(m) && !nm.skips(m) && (ply > 0 || self.root_allows(m)));
                    if let Some(m) = m {
                        return Some(nm.tried(m));
                    }
                }
                Phase::Rest => {
                    if nm.picker.remaining() == 0 {
                        return None;
                    }
                    if let Some(m) = self.take_generated(nm) {
                        return Some(m);
                    }
                }
            }
        }
    }

    /// The next generated move of `nm`, if it is legal and was not tried before the generation.
    #[inline(always)]
    fn take_generated(&self, nm: &mut NodeMoves<G>) -> Option<G::Move> {
        let m = nm.picker.next()?;
        let legality = nm.legality.as_ref().expect("generated before");
        (!nm.skips(m) && self.game.is_legal_generated(legality, m)).then_some(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Score;
    use crate::policy::{Compose, FullWindow, NegamaxAbSoftForm, NoNull, Ordered, StaticLeaf};
    use xiangqi_core::{Move, Position};

    struct Zero;

    impl Evaluator<Position> for Zero {
        fn evaluate(&mut self, _: &Position) -> Score {
            0
        }
    }

    type Staged = Compose<NegamaxAbSoftForm, StaticLeaf, NoNull, FullWindow, Ordered>;

    /// What one generation of every move, keyed at once, hands out: the hash move first, then the legal moves
    /// by key.
    fn single_generation(s: &Searcher<Position, Zero, Staged>, hash: u16) -> Vec<Move> {
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
            let mut s: Searcher<Position, Zero, Staged> = Searcher::new(pos.clone(), Zero);
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
                while let Some(m) = s.next_move(&mut nm, 0) {
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
