//! Zobrist keys, generated at compile time from a fixed seed (so keys are the same in every build).

use crate::types::{Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

static PIECE_SQUARE: [[u64; 90]; 14] = {
    let mut t = [[0u64; 90]; 14];
    let mut state = 0x5851_F42D_4C95_7F2Du64;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            let (ns, v) = splitmix(state);
            state = ns;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    t
};

/// Key toggled when Black is to move.
pub const SIDE: u64 = splitmix(0x2545_F491_4F6C_DD1D).1;

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index()][sq.index()]
}
