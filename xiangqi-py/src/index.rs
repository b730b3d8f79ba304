//! The fixed move index of the learning interface: every from-to pair a piece of either colour can ever make, in
//! one list, so that a policy is a vector over the same actions in every position.
//!
//! A pair is in the list when some piece standing on a point it can ever reach ([`can_stand`]) moves to a point it
//! can stand on, on an otherwise empty board (chariots and cannons along their whole file and rank, horses and
//! elephants without blocking pieces). Both colours' pieces are counted, so the list is closed under the colour
//! flip (ranks mirrored, `a0` <-> `a9`): [`MoveIndex::mirror`] maps each index to that of the flipped move.
//! The list is sorted by (from, to) square index, so it is the same in every build.

use std::sync::OnceLock;
use xiangqi_core::attacks::Occupancy;
use xiangqi_core::{can_stand, piece_reach, Color, Move, Piece, PieceKind, Position, Square};

/// No index: a from-to pair no piece can make.
const NONE: u16 = u16::MAX;

/// The move index (see the [module](self) documentation).
#[derive(Debug)]
pub struct MoveIndex {
    moves: Vec<Move>,
    lookup: Vec<u16>,
    mirror: Vec<u16>,
}

impl MoveIndex {
    /// The index, built once.
    pub fn get() -> &'static MoveIndex {
        static INDEX: OnceLock<MoveIndex> = OnceLock::new();
        INDEX.get_or_init(MoveIndex::build)
    }

    fn build() -> MoveIndex {
        let mut pairs = vec![false; Square::NUM * Square::NUM];
        let empty = Occupancy::default();
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                for from in Square::all().filter(|&sq| can_stand(piece, sq)) {
                    let reach = piece_reach(piece, from, &empty);
                    for to in reach.quiet.into_iter().filter(|&to| can_stand(piece, to)) {
                        pairs[from.index() * Square::NUM + to.index()] = true;
                    }
                }
            }
        }
        let mut moves = Vec::new();
        let mut lookup = vec![NONE; Square::NUM * Square::NUM];
        for (pair, _) in pairs.iter().enumerate().filter(|(_, &on)| on) {
            let (from, to) = (pair / Square::NUM, pair % Square::NUM);
            let m = Move::new(Square::from_index(from).expect("< 90"), Square::from_index(to).expect("< 90"));
            lookup[pair] = u16::try_from(moves.len()).expect("fewer than 65535 moves");
            moves.push(m);
        }
        let mirror = moves
            .iter()
            .map(|m| {
                let f = m.flip_ranks();
                lookup[f.from().index() * Square::NUM + f.to().index()]
            })
            .collect();
        MoveIndex { moves, lookup, mirror }
    }

    /// How many moves the index has.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the index is empty (it never is).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The index of `m`, `None` for a pair no piece can make.
    #[inline]
    pub fn index(&self, m: Move) -> Option<usize> {
        let i = self.lookup[m.from().index() * Square::NUM + m.to().index()];
        (i != NONE).then_some(usize::from(i))
    }

    /// The index of `m` seen from the side to move: when `flip` is set (Black to move), that of the move with the
    /// ranks mirrored.
    #[inline]
    pub fn index_for(&self, m: Move, flip: bool) -> Option<usize> {
        self.index(if flip { m.flip_ranks() } else { m })
    }

    /// The move of index `i`, `None` past the end.
    pub fn get_move(&self, i: usize) -> Option<Move> {
        self.moves.get(i).copied()
    }

    /// The index of the colour-flipped move of index `i` (`i` < [`MoveIndex::len`]).
    pub fn mirror(&self, i: usize) -> usize {
        usize::from(self.mirror[i])
    }

    /// Every move, in index order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
}

/// Sets the entries of the legal moves of `pos` in `mask` (all false on entry).
#[inline]
pub(crate) fn fill_mask(pos: &Position, relative: bool, mask: &mut [bool]) {
    let index = MoveIndex::get();
    let flip = relative && pos.turn() == Color::Black;
    pos.for_each_legal_move(|m| {
        if let Some(i) = index.index_for(m, flip) {
            mask[i] = true;
        }
        true
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::Position;

    #[test]
    fn every_legal_move_of_real_games_has_an_index_and_the_mirror_is_an_involution() {
        let index = MoveIndex::get();
        // The well-known size of the xiangqi action space (AlphaZero-style encodings): 2086 from-to pairs.
        assert_eq!(index.len(), 2086);
        for i in 0..index.len() {
            assert_eq!(index.mirror(index.mirror(i)), i);
            assert_eq!(index.get_move(index.mirror(i)), Some(index.get_move(i).unwrap().flip_ranks()));
            assert_eq!(index.index(index.get_move(i).unwrap()), Some(i));
        }
        let mut pos = Position::startpos();
        for m in ["h2e2", "h9g7", "e2e6", "a9a8", "b0c2", "i9i8"] {
            for legal in pos.legal_moves() {
                assert!(index.index(legal).is_some(), "{legal}");
            }
            pos.play(m).unwrap();
        }
        assert_eq!(index.index(Move::parse("a0b1").unwrap()), None); // no piece moves one step diagonally there
    }
}
