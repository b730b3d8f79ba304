//! The input features, shared by the engine's inference and the training records: which input a piece on a point
//! is for each perspective.

use xiangqi_core::{Color, Piece, Square};

/// The number of input features: 2 (own, other) x 7 kinds x 90 points.
pub const INPUTS: usize = 2 * 7 * 90;

/// The feature of `piece` on `sq` for `perspective`: `((own ? 0 : 1) * 7 + kind) * 90 + s'`, where `s' = sq` for
/// Red and the square with its rank mirrored for Black (each side sees the board from its own side).
///
/// ```
/// use xiangqi_core::{Color, Piece, PieceKind, Square};
/// use xiangqi_eval::nnue::{feature, INPUTS};
///
/// let e0 = Square::from_index(4).unwrap();
/// let red_king = Piece::new(Color::Red, PieceKind::King);
/// assert_eq!(feature(Color::Red, red_king, e0), 4); // Red's own king on e0
/// assert_eq!(feature(Color::Black, red_king, e0), 7 * 90 + 9 * 9 + 4); // Black's "other" king, seen on e9
/// assert!(feature(Color::Black, red_king, e0) < INPUTS);
/// ```
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let side = usize::from(piece.color != perspective);
    let s = match perspective {
        Color::Red => sq.index(),
        Color::Black => sq.flip_rank().index(),
    };
    (side * 7 + piece.kind as usize) * 90 + s
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::PieceKind;

    #[test]
    fn features_cover_the_inputs_once() {
        let mut seen = vec![0u32; INPUTS];
        for view in [Color::Red, Color::Black] {
            seen.iter_mut().for_each(|s| *s = 0);
            for c in [Color::Red, Color::Black] {
                for k in PieceKind::ALL {
                    for sq in Square::all() {
                        seen[feature(view, Piece::new(c, k), sq)] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s == 1));
        }
    }
}
