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

/// The king buckets of the king-relative layout: the own king's palace point, seen from its own side and mirrored
/// left-right when it stands on the right-hand file (files d, e and f become the "edge" and "centre" columns), so
/// 3 ranks x 2 columns. The idea is Stockfish's and Pikafish's king buckets (HalfKA-style inputs: every feature
/// is read relative to the own king, and its weights are chosen by where that king stands), with the horizontal
/// mirroring of their king-side halving; here the palace's nine points give six buckets.
pub const KING_BUCKETS: usize = 6;

/// The largest number of output buckets a network may have (see [`output_bucket`]).
pub const MAX_OUTPUT_BUCKETS: usize = 16;

/// The pieces [`output_bucket`] counts at most: every chariot, horse, cannon, advisor and elephant of both sides.
pub const BUCKET_PIECES: u32 = 20;

/// Where the own king stands for one perspective of a king-bucketed network: its bucket (`0..KING_BUCKETS`) and
/// whether the board is mirrored left-right (files `a..i` read as `i..a`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KingView {
    /// The bucket, `rank * 2 + column` where `rank` is the king's rank from its own side (0..3) and `column` 0 on
    /// the edge files of the palace (d, or f mirrored), 1 on the centre file (e).
    pub bucket: u8,
    /// Whether the king stands on the right half (files f..i), so that every feature is mirrored left-right.
    pub mirror: bool,
}

/// The [`KingView`] of `perspective` whose own king stands on `king`. Every point maps to a bucket (a king outside
/// its palace, which no legal position has, counts as on the nearest palace rank and column), so a bucket is
/// always in range.
///
/// ```
/// use xiangqi_core::{Color, Square};
/// use xiangqi_eval::nnue::{king_view, KingView};
///
/// let sq = |name: &str| name.parse::<Square>().unwrap();
/// assert_eq!(king_view(Color::Red, sq("e0")), KingView { bucket: 1, mirror: false });
/// assert_eq!(king_view(Color::Red, sq("d0")), KingView { bucket: 0, mirror: false });
/// assert_eq!(king_view(Color::Red, sq("f1")), KingView { bucket: 2, mirror: true });
/// assert_eq!(king_view(Color::Black, sq("e9")), king_view(Color::Red, sq("e0"))); // each side from its own side
/// assert_eq!(king_view(Color::Black, sq("f7")), KingView { bucket: 4, mirror: true });
/// ```
#[inline(always)]
pub fn king_view(perspective: Color, king: Square) -> KingView {
    let i = king.index();
    let (rank, file) = (i / 9, i % 9);
    let rank = match perspective {
        Color::Red => rank,
        Color::Black => 9 - rank,
    };
    let mirror = file > 4;
    let column = usize::from(file == 4);
    KingView { bucket: (rank.min(2) * 2 + column) as u8, mirror }
}

/// The feature of `piece` on `sq` for `perspective` in the king-bucketed layout: `bucket * INPUTS + f`, where `f`
/// is [`feature`] of the point mirrored left-right when `view.mirror`, and `view` is the perspective's own
/// [`KingView`]. That makes `KING_BUCKETS * INPUTS` = 7560 inputs.
///
/// ```
/// use xiangqi_core::{Color, Piece, PieceKind, Square};
/// use xiangqi_eval::nnue::{bucketed_feature, feature, king_view, INPUTS};
///
/// let sq = |name: &str| name.parse::<Square>().unwrap();
/// let horse = Piece::new(Color::Black, PieceKind::Horse);
/// let view = king_view(Color::Red, sq("f0")); // bucket 0, mirrored
/// assert_eq!(bucketed_feature(Color::Red, horse, sq("b9"), view), feature(Color::Red, horse, sq("h9")));
/// let view = king_view(Color::Red, sq("e2")); // bucket 5, not mirrored
/// assert_eq!(bucketed_feature(Color::Red, horse, sq("b9"), view), 5 * INPUTS + feature(Color::Red, horse, sq("b9")));
/// ```
#[inline(always)]
pub fn bucketed_feature(perspective: Color, piece: Piece, sq: Square, view: KingView) -> usize {
    let side = usize::from(piece.color != perspective);
    let i = sq.index();
    let (rank, file) = (i / 9, i % 9);
    let rank = match perspective {
        Color::Red => rank,
        Color::Black => 9 - rank,
    };
    let file = if view.mirror { 8 - file } else { file };
    usize::from(view.bucket) * INPUTS + (side * 7 + piece.kind as usize) * 90 + rank * 9 + file
}

/// The output bucket of a position with `pieces` chariots, horses, cannons, advisors and elephants on the board
/// (both sides; kings and soldiers are not counted) for a network of `buckets` output buckets:
/// `min(pieces, 20) * buckets / 21`, so that the buckets split the range 0..=20 evenly, the endgame in bucket 0.
/// Output buckets by material are Stockfish's and Pikafish's layer stacks (one output layer per bucket of the piece
/// count), reduced here to one output layer per bucket.
///
/// ```
/// use xiangqi_eval::nnue::output_bucket;
/// assert_eq!(output_bucket(20, 8), 7); // the start position
/// assert_eq!(output_bucket(0, 8), 0);
/// assert_eq!(output_bucket(10, 8), 3);
/// assert_eq!(output_bucket(13, 1), 0); // one bucket: always the first
/// ```
#[inline(always)]
pub const fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let p = if pieces < BUCKET_PIECES { pieces } else { BUCKET_PIECES } as usize;
    p * buckets / (BUCKET_PIECES as usize + 1)
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

    /// Over the nine palace points, each perspective's king-bucketed features cover the 7560 inputs: every bucket
    /// is reached, and within a bucket the features of the pieces are distinct and in range.
    #[test]
    fn bucketed_features_cover_the_buckets() {
        for view in [Color::Red, Color::Black] {
            let mut buckets = [0u32; KING_BUCKETS];
            let mut mirrored = 0;
            for sq in Square::all() {
                let (rank, file) = (sq.index() / 9, sq.index() % 9);
                let own_rank = if view == Color::Red { rank } else { 9 - rank };
                if !(3..=5).contains(&file) || own_rank > 2 {
                    continue;
                }
                let kv = king_view(view, sq);
                buckets[usize::from(kv.bucket)] += 1;
                mirrored += u32::from(kv.mirror);
                let mut seen = vec![false; INPUTS * KING_BUCKETS];
                for c in [Color::Red, Color::Black] {
                    for k in PieceKind::ALL {
                        for s in Square::all() {
                            let f = bucketed_feature(view, Piece::new(c, k), s, kv);
                            assert_eq!(f / INPUTS, usize::from(kv.bucket));
                            assert!(!seen[f]);
                            seen[f] = true;
                        }
                    }
                }
            }
            // Edge files (d and f mirrored) give 2 points a bucket, the centre file 1.
            assert_eq!(buckets, [2, 1, 2, 1, 2, 1]);
            assert_eq!(mirrored, 3);
        }
    }

    #[test]
    fn output_buckets_are_even_and_in_range() {
        for n in 1..=MAX_OUTPUT_BUCKETS {
            let mut sizes = vec![0; n];
            for p in 0..=BUCKET_PIECES + 5 {
                sizes[output_bucket(p, n)] += u32::from(p <= BUCKET_PIECES);
            }
            let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(hi - lo <= 1 && *lo >= 1, "{n} buckets: {sizes:?}");
        }
    }
}
