//! Bit tricks for the evaluation's hot path, each equal to a plainer computation with
//! [`xiangqi_core::attacks`] (the tests below compare them over every square and many occupancies):
//!
//! - the points guarded by all soldiers, advisors or elephants of a side at once (shifts of the whole set instead
//!   of a loop over the pieces), in the two 45-point halves of the board, one 64-bit word each;
//! - a horse's good destinations counted without a popcount (which, without the `popcnt` instruction that the
//!   default x86-64 target lacks, is a dozen instructions per 64 bits): its legs and destinations are read from a
//!   64-bit window of the board, rotated to fixed bits (the horse's frame), and a multiply turns the frame into an
//!   index of a table of counts;
//! - a chariot's mobility from per-line reach tables, its rank read from the same 64-bit windows and its file from
//!   a file-major copy of the board (which the accumulator keeps), counted by a table: no 128-bit shift or popcount;
//! - ranks and files of the board as 9 or 10 line bits, for the cannon and pin tests along the king's lines;
//! - counts of sets known to lie in one half of the board, in 64 bits.

use xiangqi_core::attacks::{file_reach, rank_reach};
use xiangqi_core::{Bitboard, Color};

/// File a.
const FILE_A: u128 = Bitboard::FILE_A.bits();
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
    Bitboard::new(b)
}

/// The points of `b` in the enemy half of `color` (Black's half for Red), as 45 bits: bit `i` is point
/// `45 + i` for Red and point `i` for Black. Ranks keep their 9-bit layout (45 = 5 ranks).
#[inline(always)]
pub(crate) const fn half_window(color: Color, b: Bitboard) -> u64 {
    match color {
        Color::Red => (b.bits() >> 45) as u64,
        Color::Black => b.bits() as u64 & LOW45,
    }
}

/// Red's palace, and Black's seen through the upper half window (from point 45).
const RED_PALACE: u64 = rect((3, 5), (0, 2)).bits() as u64;
const BLACK_PALACE_W: u64 = (rect((3, 5), (7, 9)).bits() >> 45) as u64;

/// The two halves of the board in 64 bits each: points 0-44 and points 45-89 (bit `i` is point `45 + i`).
#[inline(always)]
const fn halves(b: Bitboard) -> (u64, u64) {
    (b.bits() as u64 & LOW45, (b.bits() >> 45) as u64)
}

/// Diagonal steps from the points of `a` that stay in `palace` (a half window's palace).
#[inline(always)]
const fn palace_steps(a: u64, palace: u64) -> u64 {
    let a = a & palace;
    ((a << 10) | (a << 8) | (a >> 8) | (a >> 10)) & palace
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

/// File a and file i within a half window.
const FILE_I5: u64 = FILE_A5 << 8;

/// Points guarded by the cheap pieces of `color` (king's steps `king`, soldiers, advisors, elephants, with
/// occupancy `occ_h`), all given by [`half_windows`] and returned the same way, in 64-bit words. When `home` is
/// false, the guards of the advisors and elephants in `color`'s own half (where they normally stand) may be left out:
/// for a caller that reads no point of that half.
#[inline(always)]
pub(crate) fn cheap_guards(
    color: Color,
    king: [u64; 2],
    soldiers: [u64; 2],
    advisors: [u64; 2],
    elephants: [u64; 2],
    occ_h: &[u64; 2],
    home: bool,
) -> [u64; 2] {
    let [s_low, s_high] = soldiers;
    // Soldiers: one step forward (across the halves at the river), sideways once across the river.
    let sideways = |c: u64| ((c >> 1) & !FILE_I5) | ((c << 1) & !FILE_A5 & LOW45);
    let (mut low, mut high) = match color {
        Color::Red => ((s_low << 9) & LOW45, ((s_high << 9) | (s_low >> 36)) & LOW45 | sideways(s_high)),
        Color::Black => ((s_low >> 9) | ((s_high << 36) & LOW45) | sideways(s_low), s_high >> 9),
    };
    low |= king[0];
    high |= king[1];
    // Advisors: each palace lies in one half (an advisor outside a palace guards nothing).
    let (a_low, a_high) = (advisors[0] & RED_PALACE, advisors[1] & BLACK_PALACE_W);
    // Elephants: a jump never leaves its half.
    let [e_low, e_high] = elephants;
    match color {
        Color::Red => {
            if home {
                low |= palace_steps(a_low, RED_PALACE) | elephant_jumps(e_low, occ_h[0]);
            }
            if a_high | e_high != 0 {
                high |= palace_steps(a_high, BLACK_PALACE_W) | elephant_jumps(e_high, occ_h[1]);
            }
        }
        Color::Black => {
            if home {
                high |= palace_steps(a_high, BLACK_PALACE_W) | elephant_jumps(e_high, occ_h[1]);
            }
            if a_low | e_low != 0 {
                low |= palace_steps(a_low, RED_PALACE) | elephant_jumps(e_low, occ_h[0]);
            }
        }
    }
    [low, high]
}

/// Half windows ([`half_windows`]) turned into horse windows ([`horse_windows`]).
#[inline(always)]
pub(crate) const fn halves_to_horse_windows(h: [u64; 2]) -> [u64; 2] {
    [h[0] | h[1] << 45, h[0] >> HORSE_WINDOW_HIGH | h[1] << (45 - HORSE_WINDOW_HIGH)]
}

/// Where the 64-bit window of a horse's point starts: point 0 for points below 45, point 26 (so that the window
/// ends at point 89) from 45 on. A horse's legs and destinations lie within 19 points of it, inside its window.
pub(crate) const HORSE_WINDOW_HIGH: u32 = 26;

/// A horse's moves in its window: its legs, its destinations, and the rotation that brings the horse to bit
/// [`HORSE_FRAME_CENTRE`], where its legs and destinations land on fixed bits (the horse's frame).
#[derive(Clone, Copy)]
struct HorseWindow {
    /// The legs on the board.
    legs: u64,
    /// The destinations on the board.
    targets: u64,
    /// Rotating right by this many bits moves the horse's point to bit [`HORSE_FRAME_CENTRE`].
    rotate: u32,
}

const fn window_bit(f: i32, r: i32, base: i32) -> u64 {
    if f >= 0 && f < 9 && r >= 0 && r < 10 {
        1u64 << (r * 9 + f - base)
    } else {
        0
    }
}

/// Leg directions (file, rank steps) of a horse.
const HORSE_LEGS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The two destinations a leg in direction `d` opens, as (file, rank) offsets from the horse.
const fn horse_targets(d: (i32, i32)) -> [(i32, i32); 2] {
    if d.0 != 0 {
        [(2 * d.0, 1), (2 * d.0, -1)]
    } else {
        [(1, 2 * d.1), (-1, 2 * d.1)]
    }
}

/// Where the horse sits in its frame: 19 points (two ranks and a file) from bit 0, so that every leg and
/// destination lies in bits 0-38.
const HORSE_FRAME_CENTRE: i32 = 19;

/// Horse moves per point, as `xiangqi_core::attacks::horse_attacks` builds them, in window coordinates.
static HORSE_WINDOWS: [HorseWindow; 90] = {
    let mut t = [HorseWindow { legs: 0, targets: 0, rotate: 0 }; 90];
    let mut i = 0;
    while i < 90 {
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        let base = if i < 45 { 0 } else { HORSE_WINDOW_HIGH as i32 };
        let mut k = 0;
        while k < 4 {
            let d = HORSE_LEGS[k];
            let (lf, lr) = (f + d.0, r + d.1);
            if lf >= 0 && lf < 9 && lr >= 0 && lr < 10 {
                let [a, b] = horse_targets(d);
                t[i].legs |= window_bit(lf, lr, base);
                t[i].targets |= window_bit(f + a.0, r + a.1, base) | window_bit(f + b.0, r + b.1, base);
            }
            k += 1;
        }
        t[i].rotate = ((i as i32 - base - HORSE_FRAME_CENTRE + 64) % 64) as u32;
        i += 1;
    }
    t
};

/// Multiplying a horse's frame (its legs and destinations, nothing else) by this and keeping the top
/// [`HORSE_INDEX_BITS`] bits gives an index into [`HORSE_COUNTS`]: different frames may share an index, but only
/// when they count the same (checked when the table is built). Found by a random search.
const HORSE_MAGIC: u64 = 0x0800_a001_0004_0250;
/// The bits of a [`HORSE_COUNTS`] index.
const HORSE_INDEX_BITS: u32 = 12;

/// The bit of an offset (file, rank) from the horse in its frame.
const fn frame_bit(d: (i32, i32)) -> u32 {
    (HORSE_FRAME_CENTRE + d.1 * 9 + d.0) as u32
}

/// For each index of a frame ([`HORSE_MAGIC`]): how many destinations are open (their leg empty) and good.
static HORSE_COUNTS: [u8; 1 << HORSE_INDEX_BITS] = {
    const UNSET: u8 = u8::MAX;
    let mut t = [UNSET; 1 << HORSE_INDEX_BITS];
    // Every subset of the 4 legs (occupied) and the 8 destinations (good).
    let mut subset = 0u32;
    while subset < 1 << 12 {
        let (mut frame, mut count) = (0u64, 0u8);
        let mut k = 0;
        while k < 4 {
            let d = HORSE_LEGS[k];
            let blocked = subset >> (8 + k) & 1 != 0;
            if blocked {
                frame |= 1 << frame_bit(d);
            }
            let targets = horse_targets(d);
            let mut j = 0;
            while j < 2 {
                if subset >> (2 * k + j) & 1 != 0 {
                    frame |= 1 << frame_bit(targets[j]);
                    if !blocked {
                        count += 1;
                    }
                }
                j += 1;
            }
            k += 1;
        }
        let index = (frame.wrapping_mul(HORSE_MAGIC) >> (64 - HORSE_INDEX_BITS)) as usize;
        assert!(t[index] == UNSET || t[index] == count, "HORSE_MAGIC mixes frames of different counts");
        t[index] = count;
        subset += 1;
    }
    t
};

/// A bitboard seen through both horse windows: `[points 0-63, points 26-89]`.
#[inline(always)]
pub(crate) fn horse_windows(b: Bitboard) -> [u64; 2] {
    [b.bits() as u64, (b.bits() >> HORSE_WINDOW_HIGH) as u64]
}

/// How many of the destinations of a horse on point `sq` (`0..90`) are in `good`, its legs blocked by `occ` (both
/// given by [`horse_windows`]): `(horse_attacks(sq, occ) & good).count()`.
#[inline(always)]
pub(crate) fn horse_destinations(sq: usize, occ: &[u64; 2], good: &[u64; 2]) -> usize {
    let high = (sq >= 45) as usize;
    let t = &HORSE_WINDOWS[sq];
    // Legs from the occupancy, destinations from `good`: disjoint bits, read at once through the frame.
    let frame = ((occ[high] & t.legs) | (good[high] & t.targets)).rotate_right(t.rotate);
    HORSE_COUNTS[(frame.wrapping_mul(HORSE_MAGIC) >> (64 - HORSE_INDEX_BITS)) as usize] as usize
}

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
/// by `rank_shift`), the file from a file-major word ([`FILE_MAJOR`]: `file_word`, shifted right by `file_shift`).
#[derive(Clone, Copy)]
pub(crate) struct Lines {
    rank_window: u8,
    rank_shift: u8,
    /// The point's file, `0..9`.
    pub(crate) file: u8,
    /// The point's rank, `0..10`.
    pub(crate) rank: u8,
    file_word: u8,
    file_shift: u8,
}

/// [`Lines`] per point.
pub(crate) static LINES: [Lines; 90] = {
    let mut t = [Lines { rank_window: 0, rank_shift: 0, file: 0, rank: 0, file_word: 0, file_shift: 0 }; 90];
    let mut i = 0;
    while i < 90 {
        let (f, r) = (i % 9, i / 9);
        // Ranks 0-6 lie in the low window (points 0-63), ranks 7-9 in the high one (points 26-89).
        let (window, shift) = if r <= 6 { (0, r * 9) } else { (1, r * 9 - HORSE_WINDOW_HIGH as usize) };
        t[i] = Lines {
            rank_window: window,
            rank_shift: shift as u8,
            file: f as u8,
            rank: r as u8,
            file_word: (f / 6) as u8,
            file_shift: ((f % 6) * 10) as u8,
        };
        i += 1;
    }
    t
};

/// File a within a half window: points 0, 9, 18, 27 and 36.
const FILE_A5: u64 = 1 | 1 << 9 | 1 << 18 | 1 << 27 | 1 << 36;
/// Gathers the bits of [`FILE_A5`] into bits 59-63: bit `9k` times `2^(59 - 8k)` lands on `59 + k`; every other
/// product lands on a point of its own below 59 or beyond 63 (`9k - 8j` differs for each pair), so nothing carries.
#[cfg(test)]
const GATHER5: u64 = 1 << 59 | 1 << 51 | 1 << 43 | 1 << 35 | 1 << 27;

/// The 10 bits of file `file` (by rank) of a bitboard given by its two half windows ([`halves`]).
#[cfg(test)]
const fn file_bits(h: &[u64; 2], file: u32) -> usize {
    let low = ((h[0] >> file) & FILE_A5).wrapping_mul(GATHER5) >> 59;
    let high = ((h[1] >> file) & FILE_A5).wrapping_mul(GATHER5) >> 59;
    (low | high << 5) as usize
}

/// The 9 bits of the rank of point `sq` (by file) of a bitboard given by its [`horse_windows`].
#[inline(always)]
pub(crate) fn rank_of(w: &[u64; 2], sq: usize) -> usize {
    let l = LINES[sq];
    (w[l.rank_window as usize] >> l.rank_shift) as usize & 0x1FF
}

/// Whether any point of file `file` is set in `m`, the two half windows of a bitboard ORed together.
#[inline(always)]
pub(crate) const fn file_any(m: u64, file: u8) -> bool {
    (m >> file) & FILE_A5 != 0
}

/// The points strictly between two points of a line, `[a][b]` for positions `a, b < 10` along it, as line bits.
pub(crate) static BETWEEN_LINE: [[u16; 10]; 10] = {
    let mut t = [[0u16; 10]; 10];
    let mut a = 0;
    while a < 10 {
        let mut b = 0;
        while b < 10 {
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            let mut p = lo + 1;
            while p < hi {
                t[a][b] |= 1 << p;
                p += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// For a king on each point, its steps sideways along its rank inside its palace, as rank bits (by file).
pub(crate) static KING_SIDEWAYS: [u16; 90] = {
    let mut t = [0u16; 90];
    let mut i = 0;
    while i < 90 {
        let (f, r) = (i % 9, i / 9);
        if f >= 3 && f <= 5 && (r <= 2 || r >= 7) {
            if f > 3 {
                t[i] |= 1 << (f - 1);
            }
            if f < 5 {
                t[i] |= 1 << (f + 1);
            }
        }
        i += 1;
    }
    t
};

/// Where each point sits in a file-major bitboard of two words: files a-f in the first word, g-i in the second,
/// bit `10 * (file % 6) + rank`. Each entry has the point's bit in its word and zero in the other, to be XORed in.
pub(crate) static FILE_MAJOR: [[u64; 2]; 90] = {
    let mut t = [[0u64; 2]; 90];
    let mut i = 0;
    while i < 90 {
        let (f, r) = (i % 9, i / 9);
        t[i][f / 6] = 1 << ((f % 6) * 10 + r);
        i += 1;
    }
    t
};

/// A bitboard in the file-major layout of [`FILE_MAJOR`].
#[cfg(test)]
pub(crate) fn file_major(b: Bitboard) -> [u64; 2] {
    let mut out = [0u64; 2];
    for_each_point(b, |i| {
        out[0] |= FILE_MAJOR[i][0];
        out[1] |= FILE_MAJOR[i][1];
    });
    out
}

/// The 10 bits (by rank) of the file of the point with lines `l` of a file-major bitboard ([`FILE_MAJOR`]).
#[inline(always)]
pub(crate) fn file_of(m: &[u64; 2], l: Lines) -> usize {
    (m[l.file_word as usize & 1] >> l.file_shift) as usize & 0x3FF
}

/// The two half windows of a bitboard, for [`chariot_mobility`]: points 0-44 and points 45-89.
#[inline(always)]
pub(crate) const fn half_windows(b: Bitboard) -> [u64; 2] {
    let (low, high) = halves(b);
    [low, high]
}

/// How many points a chariot on point `sq` (`0..90`) attacks that do not hold an own piece:
/// `(rook_attacks(sq, occ) - own).count()`, from the occupancy and the own pieces in [`horse_windows`] (`occ_w`,
/// `own_w`) and in the file-major layout of [`FILE_MAJOR`] (`occ_f`, `own_f`).
#[inline(always)]
pub(crate) fn chariot_mobility(
    sq: usize,
    occ_w: &[u64; 2],
    own_w: &[u64; 2],
    occ_f: &[u64; 2],
    own_f: &[u64; 2],
) -> u32 {
    let l = LINES[sq];
    let (window, shift) = (l.rank_window as usize, l.rank_shift as u32);
    let occ_rank = (occ_w[window] >> shift) as usize & 0x1FF;
    let own_rank = (own_w[window] >> shift) as usize & 0x1FF;
    // Masked to a line's bits, so that the counting table needs no bounds check.
    let on_rank = rank_reach(l.file as usize, occ_rank) as usize & !own_rank & 0x1FF;
    let (occ_file, own_file) = (file_of(occ_f, l), file_of(own_f, l));
    let on_file = file_reach(l.rank as usize, occ_file) as usize & !own_file;
    POP10[on_rank] as u32 + POP10[on_file & 0x3FF] as u32
}

/// The rank and the file of each point, as one mask (the point included).
pub(crate) static LINES_OF: [Bitboard; 90] = {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = Bitboard::new(FILE_A << (i % 9) | 0x1FF << (i / 9 * 9));
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
        t[0][i] = Bitboard::new(if i / 9 == 0 { file | rank } else { file });
        t[1][i] = Bitboard::new(if i / 9 == 9 { file | rank } else { file });
        i += 1;
    }
    t
};

/// `x.count_ones()`, one bit at a time: quicker for the small sets it counts (soldiers, mostly none or one), and,
/// without the `popcnt` instruction, it keeps the three constants of a full popcount out of the caller's registers.
#[inline(always)]
pub(crate) const fn sparse_count(mut x: u64) -> u32 {
    let mut n = 0;
    while x != 0 {
        n += 1;
        x &= x - 1;
    }
    n
}

/// Calls `f` with the index of each point of `b`, lowest first: the halves are walked in 64 bits, cheaper than
/// iterating a `u128`. `f` has one call site, so that it is inlined.
#[inline(always)]
pub(crate) fn for_each_point(b: Bitboard, mut f: impl FnMut(usize)) {
    for (half, base) in [(b.bits() as u64, 0), ((b.bits() >> 64) as u64, 64)] {
        let mut word = half;
        while word != 0 {
            f(base + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}

/// [`for_each_point`] with a call site per half: quicker where `f` is small enough to be inlined twice (the walk
/// over all pieces in `Handcrafted::psq`).
#[inline(always)]
pub(crate) fn for_each_point_unrolled(b: Bitboard, mut f: impl FnMut(usize)) {
    let mut low = b.bits() as u64;
    while low != 0 {
        f(low.trailing_zeros() as usize);
        low &= low - 1;
    }
    let mut high = (b.bits() >> 64) as u64;
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
pub(crate) const fn exactly_two(b: usize) -> bool {
    let rest = b & b.wrapping_sub(1);
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
            let mut b = (next() as u128 | (next() as u128) << 64) & Bitboard::FULL.bits();
            for _ in 0..(next() % 3) {
                b &= next() as u128 | (next() as u128) << 64;
            }
            v.push(Bitboard::new(b));
        }
        v
    }

    fn union(set: Bitboard, f: impl Fn(Square) -> Bitboard) -> Bitboard {
        set.fold(Bitboard::EMPTY, |g, sq| g | f(sq))
    }

    #[test]
    fn word_guards_equal_the_attack_tables() {
        let all = occupancies();
        for (i, &b) in all.iter().enumerate() {
            let occ = all[(i * 3 + 7) % all.len()];
            let other = all[(i * 11 + 5) % all.len()];
            for color in Color::ALL {
                let king_sq = Square::from_index(i % 90).unwrap();
                let king = xiangqi_core::attacks::king_attacks(king_sq);
                let (soldiers, advisors, elephants) = (b, other, Bitboard::new(b.bits() ^ other.bits()));
                let expected = king
                    | union(soldiers, |sq| soldier_attacks(color, sq))
                    | union(advisors, advisor_attacks)
                    | union(elephants, |sq| elephant_attacks(sq, occ));
                let got = cheap_guards(
                    color,
                    half_windows(king),
                    half_windows(soldiers),
                    half_windows(advisors),
                    half_windows(elephants),
                    &half_windows(occ),
                    true,
                );
                assert_eq!(got, half_windows(expected), "{color:?} {b:?}");
                let away = cheap_guards(
                    color,
                    half_windows(king),
                    half_windows(soldiers),
                    half_windows(advisors),
                    half_windows(elephants),
                    &half_windows(occ),
                    false,
                );
                let away_half = if color == Color::Red { 1 } else { 0 };
                assert_eq!(away[away_half], half_windows(expected)[away_half]);
                assert_eq!(halves_to_horse_windows(got), horse_windows(expected));
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
                assert_eq!(
                    horse_destinations(sq.index(), &horse_windows(occ), &horse_windows(good)),
                    expected as usize
                );
            }
        }
    }

    #[test]
    fn chariot_mobility_equals_the_attack_table() {
        use xiangqi_core::attacks::{rook_attacks, Occupancy};
        let all = occupancies();
        for (i, &occ) in all.iter().enumerate() {
            let own = Bitboard::new(occ.bits() & all[(i * 5 + 1) % all.len()].bits());
            let o = Occupancy::from_bitboard(occ);
            let (occ_w, own_w) = (horse_windows(occ), horse_windows(own));
            let (occ_f, own_f) = (file_major(occ), file_major(own));
            for sq in Square::all() {
                let expected = (rook_attacks(sq, &o) - own).count();
                assert_eq!(chariot_mobility(sq.index(), &occ_w, &own_w, &occ_f, &own_f), expected, "{sq} {occ:?}");
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
    fn line_tables() {
        use xiangqi_core::attacks::{between, king_attacks};
        for a in Square::all() {
            let (af, ar) = (a.file() as usize, a.rank() as usize);
            let rank_of_king = (king_attacks(a).bits() >> (ar * 9)) as u16 & 0x1FF;
            assert_eq!(KING_SIDEWAYS[a.index()], rank_of_king);
            for b in Square::all() {
                let (bf, br) = (b.file() as usize, b.rank() as usize);
                let bb = half_windows(between(a, b));
                if af == bf {
                    assert_eq!(BETWEEN_LINE[ar][br] as usize, file_of(&file_major(between(a, b)), LINES[a.index()]));
                    assert_eq!(file_bits(&bb, af as u32), file_of(&file_major(between(a, b)), LINES[a.index()]));
                } else if ar == br {
                    assert_eq!(BETWEEN_LINE[af][bf] as usize, rank_of(&horse_windows(between(a, b)), a.index()));
                }
            }
        }
        for b in occupancies() {
            let (h, w) = (half_windows(b), horse_windows(b));
            for sq in Square::all() {
                let rank = (b.bits() >> (sq.rank() as usize * 9)) as usize & 0x1FF;
                assert_eq!(rank_of(&w, sq.index()), rank);
                let file = (0..10).fold(0, |f, r| f | ((b.bits() >> (r * 9 + sq.file() as usize)) as usize & 1) << r);
                assert_eq!(file_of(&file_major(b), LINES[sq.index()]), file);
                assert_eq!(file_bits(&h, sq.file() as u32), file);
                assert_eq!(file_any(h[0] | h[1], sq.file() as u8), file != 0);
            }
        }
    }

    #[test]
    fn half_windows_and_small_counts() {
        for b in occupancies() {
            assert_eq!(half_window(Color::Red, b).count_ones(), (b.bits() & Bitboard::BLACK_HALF.bits()).count_ones());
            assert_eq!(half_window(Color::Black, b).count_ones(), (b.bits() & Bitboard::RED_HALF.bits()).count_ones());
            assert_eq!(count_up_to_two(b), b.count().min(2) as i32);
            assert_eq!(sparse_count(b.bits() as u64), (b.bits() as u64).count_ones());
            let mut points = Vec::new();
            for_each_point(b, |i| points.push(i));
            assert_eq!(points, b.map(Square::index).collect::<Vec<_>>());
            points.clear();
            for_each_point_unrolled(b, |i| points.push(i));
            assert_eq!(points, b.map(Square::index).collect::<Vec<_>>());
            assert_eq!(exactly_two(b.bits() as usize), (b.bits() as usize).count_ones() == 2);
        }
        for sq in Square::all() {
            assert_eq!(LINES_OF[sq.index()], Bitboard::file(sq.file()) | Bitboard::rank(sq.rank()));
            for (color, back) in [(Color::Red, xiangqi_core::Rank::R0), (Color::Black, xiangqi_core::Rank::R9)] {
                let expected =
                    Bitboard::file(sq.file()) | if sq.rank() == back { Bitboard::rank(back) } else { Bitboard::EMPTY };
                assert_eq!(CANNON_LINES[color.index()][sq.index()], expected);
            }
            let one = Bitboard::from_square(sq);
            assert_eq!(
                (count_up_to_two(one), exactly_two(one.bits() as usize)),
                (1, (one.bits() as usize).count_ones() == 2)
            );
            assert_eq!(sparse_count(one.bits() as u64), (sq.index() < 64) as u32);
            for other in Square::all().filter(|&o| o != sq) {
                let two = one.with(other);
                assert_eq!(count_up_to_two(two), 2);
            }
        }
        assert_eq!((count_up_to_two(Bitboard::EMPTY), exactly_two(0)), (0, false));
    }
}
