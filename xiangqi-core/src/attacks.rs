//! Attack tables for every piece, computed at compile time.
//!
//! Leapers (king, advisor, elephant, horse, soldier) use per-square tables; the elephant's eye and the horse's leg
//! are looked up as blocker squares. Chariot and cannon use per-line tables indexed by the occupancy of the rank
//! (9 bits, read straight from the bitboard) and of the file (10 bits, read from a rotated, file-major copy of the
//! occupancy kept in [`Occupancy`]). Everything is a plain `static` array: no lazy initialisation on the hot path.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// The occupied squares twice over: rank-major (the ordinary bitboard) and file-major (bit `file * 10 + rank`), so
/// that both the rank and the file of a square can be read with one shift and mask.
///
/// ```
/// use xiangqi_core::attacks::{rook_attacks, Occupancy};
/// use xiangqi_core::Square;
/// let e0: Square = "e0".parse().unwrap();
/// let e5: Square = "e5".parse().unwrap();
/// let occ = Occupancy::EMPTY.with(e0).with(e5);
/// let att = rook_attacks(e0, &occ);
/// assert!(att.contains(e5));
/// assert!(!att.contains("e6".parse().unwrap()));
/// assert_eq!(att.count(), 8 + 5);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Occupancy {
    bb: Bitboard,
    rot: u128,
}

/// Bit of a square in the rotated (file-major) occupancy.
#[inline(always)]
const fn rot_bit(sq: Square) -> u128 {
    ROT_BIT[sq.index()]
}

/// [`rot_bit`] by square: a load instead of a division and a 128-bit shift.
static ROT_BIT: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = 1u128 << ((i % 9) * 10 + i / 9);
        i += 1;
    }
    t
};

impl Occupancy {
    /// Nothing occupied.
    pub const EMPTY: Occupancy = Occupancy { bb: Bitboard::EMPTY, rot: 0 };

    /// The occupancy of the squares in `bb`.
    pub fn from_bitboard(bb: Bitboard) -> Occupancy {
        bb.fold(Occupancy::EMPTY, |o, sq| o.with(sq))
    }

    /// The occupied squares as an ordinary bitboard.
    #[inline(always)]
    pub const fn bitboard(&self) -> Bitboard {
        self.bb
    }

    /// Toggles `sq` (occupied <-> empty).
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.bb ^= Bitboard::from_square(sq);
        self.rot ^= rot_bit(sq);
    }

    /// This occupancy with `sq` occupied.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Occupancy {
        Occupancy { bb: self.bb.with(sq), rot: self.rot | rot_bit(sq) }
    }

    /// This occupancy with `sq` empty.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Occupancy {
        Occupancy { bb: self.bb.without(sq), rot: self.rot & !rot_bit(sq) }
    }

    /// Occupancy of `sq`'s rank, 9 bits indexed by file.
    #[inline(always)]
    fn rank_bits(&self, sq: Square) -> usize {
        (self.bb.0 >> (sq.index() / 9 * 9)) as usize & 0x1FF
    }

    /// Occupancy of `sq`'s file, 10 bits indexed by rank.
    #[inline(always)]
    fn file_bits(&self, sq: Square) -> usize {
        (self.rot >> (sq.index() % 9 * 10)) as usize & 0x3FF
    }
}

/// Slides from `pos` along a line of `len` points with occupancy `occ`. With `screens == 0` returns the chariot's
/// reach (empty points and the first piece); with `screens == 1` the cannon's captures (the first piece after one
/// screen).
const fn slide(pos: usize, occ: usize, len: usize, screens: u32) -> u16 {
    let mut out = 0u16;
    let mut dir = 0;
    while dir < 2 {
        let mut seen = 0u32;
        let mut p = pos as isize;
        loop {
            p += if dir == 0 { 1 } else { -1 };
            if p < 0 || p >= len as isize {
                break;
            }
            let occupied = occ >> p & 1 == 1;
            if seen == screens && (screens == 0 || occupied) {
                out |= 1 << p;
            }
            if occupied {
                seen += 1;
                if seen > screens {
                    break;
                }
            }
        }
        dir += 1;
    }
    out
}

const fn line_table<const LEN: usize, const OCC: usize>(screens: u32) -> [[u16; OCC]; LEN] {
    let mut t = [[0u16; OCC]; LEN];
    let mut pos = 0;
    while pos < LEN {
        let mut occ = 0;
        while occ < OCC {
            t[pos][occ] = slide(pos, occ, LEN, screens);
            occ += 1;
        }
        pos += 1;
    }
    t
}

static RANK_ROOK: [[u16; 512]; 9] = line_table::<9, 512>(0);
static RANK_CANNON: [[u16; 512]; 9] = line_table::<9, 512>(1);
static FILE_ROOK: [[u16; 1024]; 10] = line_table::<10, 1024>(0);
static FILE_CANNON: [[u16; 1024]; 10] = line_table::<10, 1024>(1);

/// Spreads a 10-bit rank mask onto file a.
static FILE_SPREAD: [u128; 1024] = {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut r = 0;
        while r < 10 {
            if m >> r & 1 == 1 {
                t[m] |= 1u128 << (r * 9);
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// A chariot's reach along a rank, as 9 bits by file: from file `file` with the rank's occupancy `occ` (9 bits by
/// file), the empty points up to and including the first piece each way. The table behind [`rook_attacks`], for
/// callers that work on one line at a time (the evaluation's mobility).
///
/// ```
/// use xiangqi_core::attacks::rank_reach;
/// // From file c (2) with pieces on files a (0) and f (5): b, a, d, e, f.
/// assert_eq!(rank_reach(2, 0b1_0000_1), 0b11_1011);
/// ```
#[inline(always)]
pub fn rank_reach(file: usize, occ: usize) -> u16 {
    RANK_ROOK[file][occ & 0x1FF]
}

/// A chariot's reach along a file, as 10 bits by rank, from rank `rank` with the file's occupancy `occ` (10 bits
/// by rank): see [`rank_reach`].
#[inline(always)]
pub fn file_reach(rank: usize, occ: usize) -> u16 {
    FILE_ROOK[rank][occ & 0x3FF]
}

#[inline(always)]
fn line_attacks(sq: Square, occ: &Occupancy, rank: &[[u16; 512]; 9], file: &[[u16; 1024]; 10]) -> Bitboard {
    let i = sq.index();
    let (r, f) = (i / 9, i % 9);
    let on_rank = (rank[f][occ.rank_bits(sq)] as u128) << (r * 9);
    let on_file = FILE_SPREAD[file[r][occ.file_bits(sq)] as usize] << f;
    Bitboard(on_rank | on_file)
}

/// Squares a chariot on `sq` attacks: along its rank and file up to and including the first piece.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: &Occupancy) -> Bitboard {
    line_attacks(sq, occ, &RANK_ROOK, &FILE_ROOK)
}

/// Squares a cannon on `sq` captures on: the first piece beyond exactly one screen, along its rank and file.
/// (A cannon's quiet moves are the empty squares of [`rook_attacks`].)
#[inline(always)]
pub fn cannon_attacks(sq: Square, occ: &Occupancy) -> Bitboard {
    line_attacks(sq, occ, &RANK_CANNON, &FILE_CANNON)
}

/// The squares strictly between `a` and `b` when they share a rank or a file, else the empty set.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    let (lo, hi) = if a.index() < b.index() { (a.index(), b.index()) } else { (b.index(), a.index()) };
    if lo == hi {
        return Bitboard::EMPTY;
    }
    let range = (1u128 << hi) - (1u128 << (lo + 1));
    if lo / 9 == hi / 9 {
        Bitboard(range)
    } else if lo % 9 == hi % 9 {
        Bitboard(range & (Bitboard::FILE_A.0 << (lo % 9)))
    } else {
        Bitboard::EMPTY
    }
}

/// The rank and the file through `sq`, without `sq`.
#[inline(always)]
pub fn lines(sq: Square) -> Bitboard {
    LINES[sq.index()]
}

static LINES: [Bitboard; 90] = {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        let rank = Bitboard::RANK_0.0 << (i / 9 * 9);
        let file = Bitboard::FILE_A.0 << (i % 9);
        t[i] = Bitboard((rank | file) & !(1u128 << i));
        i += 1;
    }
    t
};

const fn sq_bit(f: i32, r: i32) -> u128 {
    if f >= 0 && f < 9 && r >= 0 && r < 10 {
        1u128 << (r * 9 + f)
    } else {
        0
    }
}

const fn in_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn palace_of(f: i32, r: i32) -> Option<bool> {
    // Some(true) for Red's palace, Some(false) for Black's.
    if f < 3 || f > 5 {
        None
    } else if r >= 0 && r <= 2 {
        Some(true)
    } else if r >= 7 && r <= 9 {
        Some(false)
    } else {
        None
    }
}

const fn same_palace(f: i32, r: i32, g: i32, s: i32) -> bool {
    match (palace_of(f, r), palace_of(g, s)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Steps inside a palace: the king's orthogonal (`diagonal == false`) or the advisor's diagonal ones.
const fn palace_steps(diagonal: bool) -> [Bitboard; 90] {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        let d: [(i32, i32); 4] =
            if diagonal { [(1, 1), (1, -1), (-1, 1), (-1, -1)] } else { [(1, 0), (-1, 0), (0, 1), (0, -1)] };
        let mut k = 0;
        while k < 4 {
            let (g, s) = (f + d[k].0, r + d[k].1);
            if same_palace(f, r, g, s) {
                t[i].0 |= sq_bit(g, s);
            }
            k += 1;
        }
        i += 1;
    }
    t
}

static KING_ATTACKS: [Bitboard; 90] = palace_steps(false);
static ADVISOR_ATTACKS: [Bitboard; 90] = palace_steps(true);

/// A leaper's move that a piece on one square can block: the blocking square (as a one-bit mask, tested without
/// a shift) and the targets it guards.
#[derive(Clone, Copy)]
struct Blockable {
    block: u128,
    targets: Bitboard,
}

const NO_BLOCKABLE: Blockable = Blockable { block: 0, targets: Bitboard::EMPTY };

/// Elephant moves: two diagonal steps, blocked by a piece on the eye, never across the river.
static ELEPHANT: [[Blockable; 4]; 90] = {
    let mut t = [[NO_BLOCKABLE; 4]; 90];
    let mut i = 0;
    while i < 90 {
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        let d = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut k = 0;
        while k < 4 {
            let (g, s) = (f + 2 * d[k].0, r + 2 * d[k].1);
            if in_board(g, s) && (r < 5) == (s < 5) {
                t[i][k] =
                    Blockable { block: 1u128 << ((r + d[k].1) * 9 + f + d[k].0), targets: Bitboard(sq_bit(g, s)) };
            }
            k += 1;
        }
        i += 1;
    }
    t
};

/// Horse moves: one orthogonal step (the leg, which a piece blocks) then one diagonal step outwards.
static HORSE: [[Blockable; 4]; 90] = {
    let mut t = [[NO_BLOCKABLE; 4]; 90];
    let mut i = 0;
    while i < 90 {
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        let d = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let mut k = 0;
        while k < 4 {
            let (lf, lr) = (f + d[k].0, r + d[k].1);
            if in_board(lf, lr) {
                // the two targets beyond the leg
                let (a, b) = if d[k].0 != 0 {
                    (sq_bit(lf + d[k].0, lr + 1), sq_bit(lf + d[k].0, lr - 1))
                } else {
                    (sq_bit(lf + 1, lr + d[k].1), sq_bit(lf - 1, lr + d[k].1))
                };
                t[i][k] = Blockable { block: 1u128 << (lr * 9 + lf), targets: Bitboard(a | b) };
            }
            k += 1;
        }
        i += 1;
    }
    t
};

/// The horses that attack a square: for each diagonal neighbour (the attacking horse's leg) the two horse
/// squares beyond it.
static HORSE_ATTACKERS: [[Blockable; 4]; 90] = {
    let mut t = [[NO_BLOCKABLE; 4]; 90];
    let mut i = 0;
    while i < 90 {
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        let d = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut k = 0;
        while k < 4 {
            let (lf, lr) = (f + d[k].0, r + d[k].1);
            if in_board(lf, lr) {
                let sources = sq_bit(lf + d[k].0, lr) | sq_bit(lf, lr + d[k].1);
                t[i][k] = Blockable { block: 1u128 << (lr * 9 + lf), targets: Bitboard(sources) };
            }
            k += 1;
        }
        i += 1;
    }
    t
};

const fn soldier_table() -> [[Bitboard; 90]; 2] {
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < 90 {
            let (f, r) = ((i % 9) as i32, (i / 9) as i32);
            let (fwd, crossed) = if c == 0 { (1, r >= 5) } else { (-1, r <= 4) };
            let mut b = sq_bit(f, r + fwd);
            if crossed {
                b |= sq_bit(f - 1, r) | sq_bit(f + 1, r);
            }
            t[c][i] = Bitboard(b);
            i += 1;
        }
        c += 1;
    }
    t
}

static SOLDIER_ATTACKS: [[Bitboard; 90]; 2] = soldier_table();

/// For each colour and square, the squares from which a soldier of that colour attacks it.
static SOLDIER_ATTACKERS: [[Bitboard; 90]; 2] = {
    let fwd = soldier_table();
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let mut b = fwd[c][from].0;
            while b != 0 {
                let to = b.trailing_zeros() as usize;
                t[c][to].0 |= 1u128 << from;
                b &= b - 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
};

#[inline(always)]
fn blockable_attacks(table: &[Blockable; 4], occ: Bitboard) -> Bitboard {
    let mut out = 0u128;
    for b in table {
        // An unused entry has no targets, whatever its block square holds.
        if occ.0 & b.block == 0 {
            out |= b.targets.0;
        }
    }
    Bitboard(out)
}

/// Squares a king on `sq` attacks (orthogonal steps inside its palace). The flying-general rule is a line attack:
/// see [`rook_attacks`].
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING_ATTACKS[sq.index()]
}

/// Squares an advisor on `sq` attacks (diagonal steps inside its palace).
#[inline(always)]
pub fn advisor_attacks(sq: Square) -> Bitboard {
    ADVISOR_ATTACKS[sq.index()]
}

/// Squares an elephant on `sq` attacks: two diagonal steps whose eye is empty, on its own side of the river.
#[inline(always)]
pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    blockable_attacks(&ELEPHANT[sq.index()], occ)
}

/// Squares a horse on `sq` attacks: a step whose leg is empty, then a diagonal step outwards.
#[inline(always)]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    blockable_attacks(&HORSE[sq.index()], occ)
}

/// Squares from which a horse would attack `sq`, given the occupancy (its leg must be empty).
#[inline(always)]
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    blockable_attacks(&HORSE_ATTACKERS[sq.index()], occ)
}

/// Squares from which a horse could attack `sq` if its leg were free: a superset of [`horse_attackers`], without
/// looking at the board.
#[inline(always)]
pub fn horse_sources(sq: Square) -> Bitboard {
    HORSE_SOURCES[sq.index()]
}

static HORSE_SOURCES: [Bitboard; 90] = {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        let mut k = 0;
        while k < 4 {
            t[i].0 |= HORSE_ATTACKERS[i][k].targets.0;
            k += 1;
        }
        i += 1;
    }
    t
};

/// For each diagonal neighbour of `sq` (a leg square), the squares a horse would attack `sq` from through it.
#[inline(always)]
pub fn horse_attackers_by_leg(sq: Square) -> impl Iterator<Item = (Square, Bitboard)> {
    HORSE_ATTACKERS[sq.index()]
        .iter()
        .filter(|b| b.targets.any())
        .map(|b| (Square::from_index_unchecked(b.block.trailing_zeros() as usize), b.targets))
}

/// Squares a soldier of `color` on `sq` attacks: forward, and sideways once across the river.
#[inline(always)]
pub fn soldier_attacks(color: Color, sq: Square) -> Bitboard {
    SOLDIER_ATTACKS[color.index()][sq.index()]
}

/// Squares from which a soldier of `color` attacks `sq`.
#[inline(always)]
pub fn soldier_attackers(color: Color, sq: Square) -> Bitboard {
    SOLDIER_ATTACKERS[color.index()][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn horse_leg_blocks() {
        let e4 = sq("e4");
        assert_eq!(horse_attacks(e4, Bitboard::EMPTY).count(), 8);
        let blocked = horse_attacks(e4, Bitboard::from_square(sq("e5")));
        assert!(!blocked.contains(sq("d6")) && !blocked.contains(sq("f6")));
        assert_eq!(blocked.count(), 6);
    }

    #[test]
    fn horse_attackers_invert_horse_attacks() {
        // A deterministic scatter of occupancies.
        let mut seed = 0x1234_5678_9abc_def0u64;
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = Bitboard(
                (seed as u128 | (seed as u128) << 64) & Bitboard::FULL.0 & 0x5555_5555_5555_5555_5555_5555_5555_5555,
            );
            for from in Square::all() {
                for to in horse_attacks(from, occ) {
                    assert!(horse_attackers(to, occ).contains(from), "{from} -> {to}");
                }
                for src in horse_attackers(from, occ) {
                    assert!(horse_attacks(src, occ).contains(from));
                }
            }
        }
    }

    #[test]
    fn elephant_stays_home_and_eye_blocks() {
        let c4 = sq("c4");
        let a = elephant_attacks(c4, Bitboard::EMPTY);
        assert_eq!(a, Bitboard::from_square(sq("a2")) | Bitboard::from_square(sq("e2")));
        assert!(elephant_attacks(c4, Bitboard::from_square(sq("d3"))).count() == 1);
    }

    #[test]
    fn palace_pieces_stay_in_palace() {
        assert_eq!(advisor_attacks(sq("e1")).count(), 4);
        assert_eq!(advisor_attacks(sq("d0")), Bitboard::from_square(sq("e1")));
        assert_eq!(king_attacks(sq("d0")).count(), 2);
        assert_eq!(king_attacks(sq("e8")).count(), 4);
        assert_eq!(king_attacks(sq("a0")), Bitboard::EMPTY);
    }

    #[test]
    fn soldiers_move_sideways_after_the_river() {
        assert_eq!(soldier_attacks(Color::Red, sq("e3")), Bitboard::from_square(sq("e4")));
        assert_eq!(soldier_attacks(Color::Red, sq("e5")).count(), 3);
        assert_eq!(soldier_attacks(Color::Red, sq("a9")), Bitboard::from_square(sq("b9")));
        assert_eq!(soldier_attacks(Color::Black, sq("e4")).count(), 3);
        assert_eq!(soldier_attacks(Color::Black, sq("e6")), Bitboard::from_square(sq("e5")));
        assert!(soldier_attackers(Color::Black, sq("e1")).contains(sq("e2")));
    }

    #[test]
    fn cannon_needs_exactly_one_screen() {
        let occ = Occupancy::EMPTY.with(sq("b2")).with(sq("b5")).with(sq("b7")).with(sq("b9"));
        let c = cannon_attacks(sq("b2"), &occ);
        assert_eq!(c, Bitboard::from_square(sq("b7")));
        let r = rook_attacks(sq("b2"), &occ);
        assert!(r.contains(sq("b5")) && !r.contains(sq("b6")));
    }

    #[test]
    fn between_squares() {
        assert_eq!(between(sq("e0"), sq("e9")).count(), 8);
        assert_eq!(between(sq("a3"), sq("i3")).count(), 7);
        assert_eq!(between(sq("a3"), sq("b4")), Bitboard::EMPTY);
        assert_eq!(between(sq("i0"), sq("a1")), Bitboard::EMPTY);
    }
}
