//! A set of squares as a 90-bit mask in a `u128`.

use crate::types::{File, Rank, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares: bit `i` stands for the square with index `i` (a0 = bit 0, i9 = bit 89).
///
/// `u128` holds all 90 points in one register pair, as in Pikafish; the top 38 bits are always zero, which is why
/// the bits are read with [`Bitboard::bits`] and set with [`Bitboard::new`] (which drops bits 90 and up) rather
/// than through a public field.
///
/// ```
/// use xiangqi_core::{Bitboard, Square};
/// let a0 = Square::from_index(0).unwrap();
/// let bb = Bitboard::from_square(a0) | Bitboard::from_square(Square::from_index(89).unwrap());
/// assert_eq!(bb.count(), 2);
/// assert_eq!(bb.into_iter().next(), Some(a0));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(pub(crate) u128);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << 90) - 1);
    /// File a (shift left by a file index to get another file).
    pub const FILE_A: Bitboard = {
        let mut b = 0u128;
        let mut r = 0;
        while r < 10 {
            b |= 1 << (r * 9);
            r += 1;
        }
        Bitboard(b)
    };
    /// Rank 0 (shift left by 9 x rank to get another rank).
    pub const RANK_0: Bitboard = Bitboard(0x1FF);
    /// Red's half of the board, ranks 0..=4.
    pub const RED_HALF: Bitboard = Bitboard((1u128 << 45) - 1);
    /// Black's half of the board, ranks 5..=9.
    pub const BLACK_HALF: Bitboard = Bitboard(((1u128 << 90) - 1) ^ ((1u128 << 45) - 1));

    /// The set of the squares whose bits are set in `bits` (bit `i` for the square with index `i`); bits 90 and
    /// up stand for no square and are dropped.
    ///
    /// ```
    /// use xiangqi_core::Bitboard;
    /// assert_eq!(Bitboard::new(0b101).count(), 2);
    /// assert_eq!(Bitboard::new(u128::MAX), Bitboard::FULL);
    /// ```
    #[inline(always)]
    pub const fn new(bits: u128) -> Bitboard {
        Bitboard(bits & Self::FULL.0)
    }

    /// The set as bits: bit `i` for the square with index `i`, bits 90 and up zero.
    #[inline(always)]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BIT[sq.index()])
    }

    /// All squares of `file`.
    #[inline(always)]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(Self::FILE_A.0 << file as u32)
    }

    /// All squares of `rank`.
    #[inline(always)]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(Self::RANK_0.0 << (rank as u32 * 9))
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one square.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// How many squares the set holds.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds two or more squares.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as usize))
        }
    }

    /// Removes and returns the lowest square.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Square> {
        // Half by half: 64-bit operations are cheaper than their 128-bit forms.
        let lo = self.0 as u64;
        if lo != 0 {
            self.0 ^= (lo & lo.wrapping_neg()) as u128;
            return Some(Square::from_index_unchecked(lo.trailing_zeros() as usize));
        }
        let hi = (self.0 >> 64) as u64;
        if hi == 0 {
            return None;
        }
        self.0 = ((hi & (hi - 1)) as u128) << 64;
        Some(Square::from_index_unchecked(64 + hi.trailing_zeros() as usize))
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | SQUARE_BIT[sq.index()])
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(SQUARE_BIT[sq.index()]))
    }

    /// Toggles `sq`.
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= SQUARE_BIT[sq.index()];
    }

    /// The set seen from the other side of the board (rank r -> 9 - r).
    pub fn flip_ranks(self) -> Bitboard {
        self.into_iter().map(|sq| Bitboard::from_square(sq.flip_rank())).fold(Bitboard::EMPTY, |a, b| a | b)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<T: IntoIterator<Item = Square>>(iter: T) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |b, sq| b.with(sq))
    }
}

macro_rules! bitop {
    ($tr:ident $f:ident $tra:ident $fa:ident $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd bitand BitAndAssign bitand_assign &);
bitop!(BitOr bitor BitOrAssign bitor_assign |);
bitop!(BitXor bitxor BitXorAssign bitxor_assign ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 90 squares.
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Self::FULL.0)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a board, rank 9 on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for r in (0..10).rev() {
            for file in 0..9 {
                let bit = self.0 >> (r * 9 + file) & 1;
                f.write_str(if bit == 1 { "X" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// The bit of each square: a load instead of a 128-bit shift.
static SQUARE_BIT: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};
