//! The node's stages, as Stockfish's `movepick.cpp` arranges them: the hash move before any generation, the
//! captures, the killers and the countermove, then the quiet moves (`NodeMoves`), handed out by the
//! [`MovePicker`] (`picker.rs`) in the order the variant's [`OrderPolicy`] (`ordering.rs`) keys them.

use crate::game::{FastPaths, GenType};
use crate::ordering::{OrderContext, OrderPolicy};
use crate::picker::MovePicker;

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
    /// Adds the moves of `kind` of the node `at` to the picker, ordered by the policy `O` (at the root, only
    /// those `root_allows`). Some may be illegal: the node tests each one it comes to with
    /// [`FastPaths::is_legal_generated`].
    #[inline(always)]
    fn add_moves<O: OrderPolicy>(
        &mut self,
        game: &G,
        order: &O::State,
        at: OrderContext<'_>,
        kind: GenType,
        root_allows: &impl Fn(G::Move) -> bool,
    ) {
        let legality = self.legality.as_ref().expect("generated before");
        let moves = self.picker.moves_mut();
        game.generate_lazy(legality, kind, moves);
        if at.ply() == 0 {
            moves.retain(|&mut m| root_allows(m));
        }
        O::order(order, at, game, &mut self.picker, self.hash_move);
    }

    /// The next legal move of the node `at` in `game`, ordered by the policy `O` with its state `order`: the
    /// hash move first when the ordering wants it, then the generated moves, in stages when the ordering is staged
    /// (see [`OrderPolicy::staged_below`]). At the root, only the moves `root_allows`.
    #[inline(always)]
    pub(crate) fn next<O: OrderPolicy>(
        &mut self,
        game: &G,
        order: &O::State,
        at: OrderContext<'_>,
        root_allows: impl Fn(G::Move) -> bool,
    ) -> Option<G::Move> {
        let ply = at.ply();
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
                    self.add_moves::<O>(game, order, at, kind, &root_allows);
                    self.phase = if staged { Phase::Captures } else { Phase::Rest };
                }
                Phase::Captures => {
                    if self.picker.spent_above(O::staged_below(order).unwrap_or(i32::MIN)) {
                        self.early = O::early_quiets(order, at, game);
                        self.phase = Phase::Early(0);
                        continue;
                    }
                    if let Some(m) = self.take_generated(game) {
                        return Some(m);
                    }
                }
                Phase::Early(i) => {
                    let Some(&code) = self.early.get(i) else {
                        self.add_moves::<O>(game, order, at, GenType::Quiets, &root_allows);
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
    use crate::history::Histories;
    use crate::ordering::Ordered;
    use crate::stack::Stack;
    use xiangqi_core::{Move, Position};

    /// A position, the histories and the stack, as a node sees them.
    struct Node {
        game: Position,
        histories: Histories,
        stack: Stack,
    }

    impl Node {
        /// What a quiet cutoff by `m` in `game` at `ply` teaches (as the node's cutoff does), after the quiet
        /// moves `tried`.
        fn learn(&mut self, game: &Position, m: Move, depth: i32, ply: usize, tried: &[Move]) {
            self.stack.learn_killer(ply, Position::encode_move(m));
            self.histories.learn(game, m, depth, self.stack.previous(ply), tried);
        }
    }

    /// What one generation of every move, keyed at once, hands out: the hash move first, then the legal moves
    /// by key.
    fn single_generation(s: &Node, hash: u16) -> Vec<Move> {
        let mut out: Vec<Move> = s.game.decode_legal(hash).into_iter().collect();
        let ks = s.game.legality();
        let mut picker = MovePicker::new();
        s.game.generate_lazy(&ks, GenType::All, picker.moves_mut());
        Ordered::order(&(), OrderContext::new(&s.histories, &s.stack, 0), &s.game, &mut picker, hash);
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
            let mut s = Node { game: pos.clone(), histories: Histories::new(Position::MOVE_KEYS), stack: Stack::new() };
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
                s.learn(&back, old[step % old.len()], 3, 0, &[]);
            }
            if !quiets.is_empty() {
                if step % 3 != 0 {
                    s.learn(&s.game.clone(), quiets[(step + 1) % quiets.len()], 2, 0, &[]);
                }
                s.learn(&s.game.clone(), quiets[step % quiets.len()], 4, 0, &quiets[..3.min(quiets.len())]);
                for (i, &h) in quiets.iter().enumerate().skip(3).step_by(4) {
                    s.learn(&s.game.clone(), h, 1 + i as i32 % 5, 7, &[]);
                }
            }
            let hash = legal[(step * 7) % legal.len()].raw();
            for hash in [0, hash] {
                let mut nm = NodeMoves::new(hash);
                let mut staged = Vec::new();
                while let Some(m) =
                    nm.next::<Ordered>(&s.game, &(), OrderContext::new(&s.histories, &s.stack, 0), |_| true)
                {
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
