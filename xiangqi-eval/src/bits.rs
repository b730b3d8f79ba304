//! Bit tricks for the evaluation's hot path, each equal to a plainer computation with
//! [`xiangqi_core::attacks`] (the tests below compare them over every square and many occupancies):
//!
//! - the points guarded by all soldiers, advisors or elephants of a side at once (shifts of the whole set instead
//!   of a loop over the pieces);
//! - a horse's destinations in a 64-bit window of the board, so that counting them is a 64-bit popcount instead of a
//!   128-bit one (without the `popcnt` instruction, which the default x86-64 target lacks, a popcount is a dozen
//!   instructions per 64 bits);
//! - counts of sets known to lie in one half of the board, in 64 bits.

use xiangqi_core::{Bitboard, Color};

/// All 90 points.
const FULL: u128 = Bitboard::FULL.0;
/// File a.
const FILE_A: u128 = Bitboard::FILE_A.0;
/// File i.
const FILE_I: u128 = Bitboard::FILE_A.0 << 8;
/// Ranks 0-4.
pub(crate) const RED_HALF: u128 = Bitboard::RED_HALF.0;
/// Ranks 5-9.
pub(crate) const BLACK_HALF: u128 = Bitboard::BLACK_HALF.0;
/// The 45 low bits: one half of the board brought down to bit 0 by [`half_window`].
pub(crate) const LOW45: u64 = (1 << 45) - 1;

/// Builds a mask from the points whose file lies in `files` and whose rank lies in `ranks` (inclusive ranges).
pub(crate) const fn rect(files: (usize, usize), ranks: (usize, usize)) -> Bitboard {
    let mut b = 0u128;
    let mut r = ranks.0;
    while r <= ranks.1 {
        let mut f = files.0;
        while f <= files.1 {
            b |= 1u128 << (r * 9 + f);
            f += 1;
        }
        r += 1;
    }
    Bitboard(b)
}

/// The points of `b` in the enemy half of `color` (Black's half for Red), as 45 bits: bit `i` is point
/// `45 + i` for Red and point `i` for Black. Ranks keep their 9-bit layout (45 = 5 ranks).
#[inline(always)]
pub(crate) const fn half_window(color: Color, b: Bitboard) -> u64 {
    match color {
        Color::Red => (b.0 >> 45) as u64,
        Color::Black => b.0 as u64 & LOW45,
    }
}

/// Points guarded by the soldiers `s` of `color`: one step forward, and one step sideways once across the river.
#[inline(always)]
pub(crate) fn soldier_guards(color: Color, s: Bitboard) -> Bitboard {
    let s = s.0;
    let (forward, crossed) = match color {
        Color::Red => ((s << 9) & FULL, s & BLACK_HALF),
        Color::Black => (s >> 9, s & RED_HALF),
    };
    Bitboard(forward | ((crossed >> 1) & !FILE_I) | ((crossed << 1) & !FILE_A & FULL))
}

/// Red's palace, and Black's seen through the upper half window (from point 45).
const RED_PALACE: u64 = rect((3, 5), (0, 2)).0 as u64;
const BLACK_PALACE_W: u64 = (rect((3, 5), (7, 9)).0 >> 45) as u64;

/// The two halves of the board in 64 bits each: points 0-44 and points 45-89 (bit `i` is point `45 + i`).
#[inline(always)]
const fn halves(b: Bitboard) -> (u64, u64) {
    (b.0 as u64 & LOW45, (b.0 >> 45) as u64)
}

/// The two halves back into one bitboard.
#[inline(always)]
const fn join(low: u64, high: u64) -> Bitboard {
    Bitboard(low as u128 | (high as u128) << 45)
}

/// Diagonal steps from the points of `a` that stay in `palace` (a half window's palace).
#[inline(always)]
const fn palace_steps(a: u64, palace: u64) -> u64 {
    let a = a & palace;
    ((a << 10) | (a << 8) | (a >> 8) | (a >> 10)) & palace
}

/// Points guarded by the advisors `a`, which are normally in `home`'s palace: diagonal steps that stay in the palace
/// (an advisor outside a palace guards nothing). Each palace lies in one half, done in 64 bits; the other palace
/// only when an advisor stands there.
#[inline(always)]
pub(crate) fn advisor_guards(home: Color, a: Bitboard) -> Bitboard {
    let (low, high) = halves(a);
    let (low, high) = (low & RED_PALACE, high & BLACK_PALACE_W);
    match home {
        Color::Red if high == 0 => join(palace_steps(low, RED_PALACE), 0),
        Color::Black if low == 0 => join(0, palace_steps(high, BLACK_PALACE_W)),
        _ => join(palace_steps(low, RED_PALACE), palace_steps(high, BLACK_PALACE_W)),
    }
}

/// The points of Red's half from which an elephant's jump by (`df`, `dr`) times two stays on the board and in the
/// half. Black's half, seen through its window, is the same (45 = 5 ranks).
const fn elephant_sources(df: i32, dr: i32) -> u64 {
    let mut b = 0u64;
    let mut i = 0usize;
    while i < 45 {
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        let (g, s) = (f + 2 * df, r + 2 * dr);
        if g >= 0 && g < 9 && s >= 0 && s < 5 {
            b |= 1 << i;
        }
        i += 1;
    }
    b
}

/// Elephant jump sources per direction: up-right (+20), down-right (-16), up-left (+16), down-left (-20).
const ELEPHANT_SOURCES: [u64; 4] =
    [elephant_sources(1, 1), elephant_sources(1, -1), elephant_sources(-1, 1), elephant_sources(-1, -1)];

/// Elephant jumps within one half window: `e` the elephants, `o` the occupancy (the eyes).
#[inline(always)]
const fn elephant_jumps(e: u64, o: u64) -> u64 {
    // The eye of a jump by +20 is the point +10, and so on.
    let up_right = e & ELEPHANT_SOURCES[0] & !(o >> 10);
    let down_right = e & ELEPHANT_SOURCES[1] & !(o << 8);
    let up_left = e & ELEPHANT_SOURCES[2] & !(o >> 8);
    let down_left = e & ELEPHANT_SOURCES[3] & !(o << 10);
    (up_right << 20) | (down_right >> 16) | (up_left << 16) | (down_left >> 20)
}

/// Points guarded by the elephants `e`, which are normally in `home`'s half, with occupancy `occ`: two diagonal
/// steps with an empty eye, on their own side of the river. A jump never leaves its half, so each half is done in 64
/// bits; the other half only when an elephant stands there.
#[inline(always)]
pub(crate) fn elephant_guards(home: Color, e: Bitboard, occ: Bitboard) -> Bitboard {
    let (e_low, e_high) = halves(e);
    let (o_low, o_high) = halves(occ);
    match home {
        Color::Red if e_high == 0 => join(elephant_jumps(e_low, o_low), 0),
        Color::Black if e_low == 0 => join(0, elephant_jumps(e_high, o_high)),
        _ => join(elephant_jumps(e_low, o_low), elephant_jumps(e_high, o_high)),
    }
}

/// Where the 64-bit window of a horse's point starts: point 0 for points below 45, point 26 (so that the window
/// ends at point 89) from 45 on. A horse's legs and destinations lie within 19 points of it, inside its window.
pub(crate) const HORSE_WINDOW_HIGH: u32 = 26;

/// A horse's moves in its window: per leg, the leg's bit and the two destinations it opens.
#[derive(Clone, Copy)]
struct HorseWindow {
    legs: [u64; 4],
    targets: [u64; 4],
}

const fn window_bit(f: i32, r: i32, base: i32) -> u64 {
    if f >= 0 && f < 9 && r >= 0 && r < 10 {
        1u64 << (r * 9 + f - base)
    } else {
        0
    }
}

/// Horse moves per point, as `xiangqi_core::attacks::horse_attacks` builds them, in window coordinates.
static HORSE_WINDOWS: [HorseWindow; 90] = {
    let mut t = [HorseWindow { legs: [0; 4], targets: [0; 4] }; 90];
    let mut i = 0;
    while i < 90 {
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        let base = if i < 45 { 0 } else { HORSE_WINDOW_HIGH as i32 };
        let d = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let mut k = 0;
        while k < 4 {
            let (lf, lr) = (f + d[k].0, r + d[k].1);
            if lf >= 0 && lf < 9 && lr >= 0 && lr < 10 {
                let (a, b) = if d[k].0 != 0 {
                    (window_bit(lf + d[k].0, lr + 1, base), window_bit(lf + d[k].0, lr - 1, base))
                } else {
                    (window_bit(lf + 1, lr + d[k].1, base), window_bit(lf - 1, lr + d[k].1, base))
                };
                t[i].legs[k] = window_bit(lf, lr, base);
                t[i].targets[k] = a | b;
            }
            k += 1;
        }
        i += 1;
    }
    t
};

/// A bitboard seen through both horse windows: `[points 0-63, points 26-89]`.
#[inline(always)]
pub(crate) fn horse_windows(b: Bitboard) -> [u64; 2] {
    [b.0 as u64, (b.0 >> HORSE_WINDOW_HIGH) as u64]
}

/// How many of the destinations of a horse on point `sq` (`0..90`) are in `good`, its legs blocked by `occ` (both
/// given by [`horse_windows`]): `(horse_attacks(sq, occ) & good).count()`.
#[inline(always)]
pub(crate) fn horse_destinations(sq: usize, occ: &[u64; 2], good: &[u64; 2]) -> u32 {
    let high = (sq >= 45) as usize;
    let (o, g) = (occ[high], good[high]);
    let t = &HORSE_WINDOWS[sq];
    let mut a = 0u64;
    for k in 0..4 {
        if o & t.legs[k] == 0 {
            a |= t.targets[k];
        }
    }
    (a & g).count_ones()
}

/// Slides a chariot from `pos` along a line of `len` points with occupancy `occ`: the empty points up to and
/// including the first piece each way (as `xiangqi_core::attacks::rook_attacks` along one line).
const fn slide(pos: usize, occ: usize, len: usize) -> u16 {
    let mut out = 0u16;
    let mut p = pos + 1;
    while p < len {
        out |= 1 << p;
        if occ >> p & 1 == 1 {
            break;
        }
        p += 1;
    }
    let mut p = pos;
    while p > 0 {
        p -= 1;
        out |= 1 << p;
        if occ >> p & 1 == 1 {
            break;
        }
    }
    out
}

/// A chariot's reach along its rank, `[file][occupancy of the rank]` (9 bits by file).
static RANK_REACH: [[u16; 512]; 9] = {
    let mut t = [[0u16; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut occ = 0;
        while occ < 512 {
            t[f][occ] = slide(f, occ, 9);
            occ += 1;
        }
        f += 1;
    }
    t
};

/// A chariot's reach along its file, `[rank][occupancy of the file]` (10 bits by rank).
static FILE_REACH: [[u16; 1024]; 10] = {
    let mut t = [[0u16; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut occ = 0;
        while occ < 1024 {
            t[r][occ] = slide(r, occ, 10);
            occ += 1;
        }
        r += 1;
    }
    t
};

/// The number of bits of each 10-bit value.
static POP10: [u8; 1024] = {
    let mut t = [0u8; 1024];
    let mut i = 0;
    while i < 1024 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// Where a point's rank and file are read: the rank from a [`horse_windows`] word (`rank_window`, shifted right
/// by `rank_shift`), the file from [`halves`] shifted right by `file`.
#[derive(Clone, Copy)]
pub(crate) struct Lines {
    rank_window: u8,
    rank_shift: u8,
    file: u8,
    rank: u8,
}

/// [`Lines`] per point.
pub(crate) static LINES: [Lines; 90] = {
    let mut t = [Lines { rank_window: 0, rank_shift: 0, file: 0, rank: 0 }; 90];
    let mut i = 0;
    while i < 90 {
        let (f, r) = (i % 9, i / 9);
        // Ranks 0-6 lie in the low window (points 0-63), ranks 7-9 in the high one (points 26-89).
        let (window, shift) = if r <= 6 { (0, r * 9) } else { (1, r * 9 - HORSE_WINDOW_HIGH as usize) };
        t[i] = Lines { rank_window: window, rank_shift: shift as u8, file: f as u8, rank: r as u8 };
        i += 1;
    }
    t
};

/// File a within a half window: points 0, 9, 18, 27 and 36.
const FILE_A5: u64 = 1 | 1 << 9 | 1 << 18 | 1 << 27 | 1 << 36;
/// Gathers the bits of [`FILE_A5`] into bits 59-63: bit `9k` times `2^(59 - 8k)` lands on `59 + k`; every other
/// product lands on a point of its own below 59 or beyond 63 (`9k - 8j` differs for each pair), so nothing carries.
const GATHER5: u64 = 1 << 59 | 1 << 51 | 1 << 43 | 1 << 35 | 1 << 27;

/// The 10 bits of file `file` (by rank) of a bitboard given by its two half windows ([`halves`]).
#[inline(always)]
const fn file_bits(h: &[u64; 2], file: u32) -> usize {
    let low = ((h[0] >> file) & FILE_A5).wrapping_mul(GATHER5) >> 59;
    let high = ((h[1] >> file) & FILE_A5).wrapping_mul(GATHER5) >> 59;
    (low | high << 5) as usize
}

/// The two half windows of a bitboard, for [`chariot_mobility`]: points 0-44 and points 45-89.
#[inline(always)]
pub(crate) const fn half_windows(b: Bitboard) -> [u64; 2] {
    let (low, high) = halves(b);
    [low, high]
}

/// How many points a chariot on point `sq` (`0..90`) attacks that do not hold an own piece:
/// `(rook_attacks(sq, occ) - own).count()`, from the occupancy and the own pieces in [`horse_windows`] (`occ_w`,
/// `own_w`) and [`half_windows`] (`occ_h`, `own_h`).
#[inline(always)]
pub(crate) fn chariot_mobility(
    sq: usize,
    occ_w: &[u64; 2],
    own_w: &[u64; 2],
    occ_h: &[u64; 2],
    own_h: &[u64; 2],
) -> u32 {
    let l = LINES[sq];
    let (window, shift) = (l.rank_window as usize, l.rank_shift as u32);
    let occ_rank = (occ_w[window] >> shift) as usize & 0x1FF;
    let own_rank = (own_w[window] >> shift) as usize & 0x1FF;
    let on_rank = RANK_REACH[l.file as usize][occ_rank] as usize & !own_rank;
    let (occ_file, own_file) = (file_bits(occ_h, l.file as u32), file_bits(own_h, l.file as u32));
    let on_file = FILE_REACH[l.rank as usize][occ_file] as usize & !own_file;
    POP10[on_rank] as u32 + POP10[on_file & 0x3FF] as u32
}

/// The file of each point, as a mask.
pub(crate) static FILE_OF: [Bitboard; 90] = {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = Bitboard(FILE_A << (i % 9));
        i += 1;
    }
    t
};

/// The rank and the file of each point, as one mask (the point included).
pub(crate) static LINES_OF: [Bitboard; 90] = {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = Bitboard(FILE_A << (i % 9) | 0x1FF << (i / 9 * 9));
        i += 1;
    }
    t
};

/// For a king of each colour on each point, where enemy cannons can score against it: its file, and its rank
/// when it stands on its back rank (the bottom cannon).
pub(crate) static CANNON_LINES: [[Bitboard; 90]; 2] = {
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut i = 0;
    while i < 90 {
        let file = FILE_A << (i % 9);
        let rank = 0x1FF << (i / 9 * 9);
        t[0][i] = Bitboard(if i / 9 == 0 { file | rank } else { file });
        t[1][i] = Bitboard(if i / 9 == 9 { file | rank } else { file });
        i += 1;
    }
    t
};

/// `x.count_ones()`, quicker for sets of at most one point (the common case for the soldier counts).
#[inline(always)]
pub(crate) const fn sparse_count(x: u64) -> u32 {
    if x & x.wrapping_sub(1) == 0 {
        (x != 0) as u32
    } else {
        x.count_ones()
    }
}

/// Calls `f` with the index of each point of `b`, lowest first: the halves are walked in 64 bits, cheaper than
/// iterating a `u128`. `f` has one call site, so that it is inlined.
#[inline(always)]
pub(crate) fn for_each_point(b: Bitboard, mut f: impl FnMut(usize)) {
    for (half, base) in [(b.0 as u64, 0), ((b.0 >> 64) as u64, 64)] {
        let mut word = half;
        while word != 0 {
            f(base + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}

/// [`for_each_point`] with a call site per half: quicker where `f` is small enough to be inlined twice (the walk
/// over all pieces in `Evaluator::psq`).
#[inline(always)]
pub(crate) fn for_each_point_unrolled(b: Bitboard, mut f: impl FnMut(usize)) {
    let mut low = b.0 as u64;
    while low != 0 {
        f(low.trailing_zeros() as usize);
        low &= low - 1;
    }
    let mut high = (b.0 >> 64) as u64;
    while high != 0 {
        f(64 + high.trailing_zeros() as usize);
        high &= high - 1;
    }
}

/// `min(b.count(), 2)`, without a popcount.
#[inline(always)]
pub(crate) const fn count_up_to_two(b: Bitboard) -> i32 {
    b.any() as i32 + b.more_than_one() as i32
}

/// Whether `b` holds exactly two points.
#[inline(always)]
pub(crate) const fn exactly_two(b: Bitboard) -> bool {
    let rest = b.0 & b.0.wrapping_sub(1);
    rest != 0 && rest & rest.wrapping_sub(1) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::attacks::{advisor_attacks, elephant_attacks, horse_attacks, soldier_attacks};
    use xiangqi_core::Square;

    /// Deterministic occupancies of every density.
    fn occupancies() -> Vec<Bitboard> {
        let mut seed = 0x0123_4567_89ab_cdefu64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut v = vec![Bitboard::EMPTY, Bitboard::FULL];
        for _ in 0..300 {
            let mut b = (next() as u128 | (next() as u128) << 64) & FULL;
            for _ in 0..(next() % 3) {
                b &= next() as u128 | (next() as u128) << 64;
            }
            v.push(Bitboard(b));
        }
        v
    }

    fn union(set: Bitboard, f: impl Fn(Square) -> Bitboard) -> Bitboard {
        set.fold(Bitboard::EMPTY, |g, sq| g | f(sq))
    }

    #[test]
    fn set_wise_guards_equal_the_attack_tables() {
        for b in occupancies() {
            for color in Color::ALL {
                assert_eq!(soldier_guards(color, b), union(b, |sq| soldier_attacks(color, sq)), "{b:?}");
            }
            for home in Color::ALL {
                assert_eq!(advisor_guards(home, b), union(b, advisor_attacks), "{b:?}");
                for occ in occupancies().into_iter().take(40) {
                    let expected = union(b, |sq| elephant_attacks(sq, occ));
                    assert_eq!(elephant_guards(home, b, occ), expected, "{b:?} {occ:?}");
                }
            }
        }
        for sq in Square::all() {
            let b = Bitboard::from_square(sq);
            for color in Color::ALL {
                assert_eq!(soldier_guards(color, b), soldier_attacks(color, sq));
            }
            for home in Color::ALL {
                assert_eq!(advisor_guards(home, b), advisor_attacks(sq));
                for occ in occupancies() {
                    assert_eq!(elephant_guards(home, b, occ), elephant_attacks(sq, occ));
                }
            }
        }
    }

    #[test]
    fn horse_destinations_equal_the_attack_table() {
        let all = occupancies();
        for (i, &occ) in all.iter().enumerate() {
            let good = all[(i * 7 + 3) % all.len()];
            for sq in Square::all() {
                let expected = (horse_attacks(sq, occ) & good).count();
                assert_eq!(horse_destinations(sq.index(), &horse_windows(occ), &horse_windows(good)), expected);
            }
        }
    }

    #[test]
    fn chariot_mobility_equals_the_attack_table() {
        use xiangqi_core::attacks::{rook_attacks, Occupancy};
        let all = occupancies();
        for (i, &occ) in all.iter().enumerate() {
            let own = Bitboard(occ.0 & all[(i * 5 + 1) % all.len()].0);
            let o = Occupancy::from_bitboard(occ);
            let (occ_w, own_w) = (horse_windows(occ), horse_windows(own));
            let (occ_h, own_h) = (half_windows(occ), half_windows(own));
            for sq in Square::all() {
                let expected = (rook_attacks(sq, &o) - own).count();
                assert_eq!(chariot_mobility(sq.index(), &occ_w, &own_w, &occ_h, &own_h), expected, "{sq} {occ:?}");
            }
        }
        let spread = |x: u64| (0..5).fold(0u64, |b, k| b | (x >> k & 1) << (9 * k));
        for low in 0..32 {
            for high in 0..32 {
                for file in 0..9 {
                    let noise = |n: u64| n & !(FILE_A5 << file);
                    let h =
                        [spread(low) << file | noise(0x5A5A_5A5A_5A5A), spread(high) << file | noise(0xC3C3_C3C3_C3C3)];
                    assert_eq!(file_bits(&h, file), (low | high << 5) as usize);
                }
            }
        }
    }

    #[test]
    fn half_windows_and_small_counts() {
        for b in occupancies() {
            assert_eq!(half_window(Color::Red, b).count_ones(), (b.0 & BLACK_HALF).count_ones());
            assert_eq!(half_window(Color::Black, b).count_ones(), (b.0 & RED_HALF).count_ones());
            assert_eq!(count_up_to_two(b), b.count().min(2) as i32);
            assert_eq!(sparse_count(b.0 as u64), (b.0 as u64).count_ones());
            let mut points = Vec::new();
            for_each_point(b, |i| points.push(i));
            assert_eq!(points, b.map(Square::index).collect::<Vec<_>>());
            points.clear();
            for_each_point_unrolled(b, |i| points.push(i));
            assert_eq!(points, b.map(Square::index).collect::<Vec<_>>());
            assert_eq!(exactly_two(b), b.count() == 2);
        }
        for sq in Square::all() {
            assert_eq!(FILE_OF[sq.index()], Bitboard::file(sq.file()));
            assert_eq!(LINES_OF[sq.index()], Bitboard::file(sq.file()) | Bitboard::rank(sq.rank()));
            for (color, back) in [(Color::Red, xiangqi_core::Rank::R0), (Color::Black, xiangqi_core::Rank::R9)] {
                let expected =
                    Bitboard::file(sq.file()) | if sq.rank() == back { Bitboard::rank(back) } else { Bitboard::EMPTY };
                assert_eq!(CANNON_LINES[color.index()][sq.index()], expected);
            }
            let one = Bitboard::from_square(sq);
            assert_eq!((count_up_to_two(one), exactly_two(one)), (1, false));
            assert_eq!(sparse_count(one.0 as u64), (sq.index() < 64) as u32);
            for other in Square::all().filter(|&o| o != sq) {
                let two = one.with(other);
                assert_eq!((count_up_to_two(two), exactly_two(two)), (2, true));
            }
        }
        assert_eq!((count_up_to_two(Bitboard::EMPTY), exactly_two(Bitboard::EMPTY)), (0, false));
    }
}
