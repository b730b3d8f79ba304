//! Piece planes: a position as `PLANES` planes of 10 x 9 bytes (`[plane][rank][file]`, rank 0 being Red's back
//! rank, so that the flat offset of a point within a plane is its square index).
//!
//! Planes 0-6 hold the pieces of one side, 7-13 those of the other, in [`PieceKind::ALL`] order (king, advisor,
//! elephant, horse, chariot, cannon, soldier); plane 14 is all ones when Red is to move. In the absolute view the
//! first side is Red. In the relative view (`relative`) the first side is the side to move, and when Black is to
//! move the board is flipped (ranks mirrored), so the side to move always plays up the board: a position with
//! Black to move and its colour-flipped twin with Red to move then have the same planes 0-13.

use xiangqi_core::{Bitboard, Color, PieceKind, Position, Square};

/// Planes per position.
pub const PLANES: usize = 15;
/// Bytes per plane (10 ranks x 9 files).
pub const PLANE: usize = Square::NUM;
/// Bytes per position.
pub const SIZE: usize = PLANES * PLANE;

/// What the planes show of a position: where each piece stands and who is to move (a few hundred bytes, copied
/// out of a position cheaply, without its history).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pieces {
    /// The squares of each side's pieces, by [`Color::index`] and [`PieceKind::index`].
    pub bitboards: [[Bitboard; PieceKind::NUM]; 2],
    /// The side to move.
    pub turn: Color,
}

impl Pieces {
    /// The pieces of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Pieces {
        let side = |c| PieceKind::ALL.map(|k| pos.pieces(c, k));
        Pieces { bitboards: [side(Color::Red), side(Color::Black)], turn: pos.turn() }
    }
}

/// Writes the planes of `pos` into `out` (at least [`SIZE`] bytes, all zero on entry).
#[inline]
pub fn encode_into(pos: &Position, relative: bool, out: &mut [u8]) {
    encode_pieces(&Pieces::of(pos), relative, out);
}

/// [`encode_into`] from the pieces of a position.
#[inline]
pub fn encode_pieces(pieces: &Pieces, relative: bool, out: &mut [u8]) {
    let out = &mut out[..SIZE];
    let flip = relative && pieces.turn == Color::Black;
    let first = if relative { pieces.turn } else { Color::Red };
    for color in Color::ALL {
        let base = if color == first { 0 } else { PieceKind::NUM };
        for kind in PieceKind::ALL {
            let plane = (base + kind.index()) * PLANE;
            for sq in pieces.bitboards[color.index()][kind.index()] {
                let sq = if flip { sq.flip_rank() } else { sq };
                out[plane + sq.index()] = 1;
            }
        }
    }
    if pieces.turn == Color::Red {
        out[14 * PLANE..15 * PLANE].fill(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planes(pos: &Position, relative: bool) -> Vec<u8> {
        let mut v = vec![0; SIZE];
        encode_into(pos, relative, &mut v);
        v
    }

    #[test]
    fn the_relative_view_of_black_to_move_is_the_absolute_view_of_its_colour_flip() {
        let black = Position::from_fen("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b").unwrap();
        // The colour flip: ranks mirrored, cases swapped, Red to move.
        let flipped = Position::from_fen("rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R w").unwrap();
        assert_eq!(planes(&black, true)[..14 * PLANE], planes(&flipped, false)[..14 * PLANE]);
        assert_ne!(planes(&black, false), planes(&flipped, false));
        let start = planes(&Position::startpos(), false);
        assert_eq!(start.iter().map(|&b| usize::from(b)).sum::<usize>(), 32 + 90);
        // Red's king on e0 = square 4, plane 0.
        assert_eq!(start[4], 1);
        // Black's king on e9 = square 85, plane 7.
        assert_eq!(start[7 * PLANE + 85], 1);
    }
}
