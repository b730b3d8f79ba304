//! The compact [`Move`] type and its text forms (UCI coordinates and ICCS).

use crate::types::{File, Rank, Square};
use std::fmt;
use std::num::NonZeroU16;

/// A move from one square to another, packed in 16 bits so that `Option<Move>` is free.
///
/// A move knows only its squares; whether it is legal is a question for a
/// [`Position`](crate::Position). Its UCI form uses ranks 0-9 (`h2e2`), as xiangqi GUIs send to Pikafish.
///
/// ```
/// use xiangqi_core::Move;
/// let m: Move = "h2e2".parse().unwrap();
/// assert_eq!(m.from().to_string(), "h2");
/// assert_eq!(m.to().to_string(), "e2");
/// assert_eq!(m.to_string(), "h2e2");
/// assert_eq!(m.iccs(), "H2-E2");
/// assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Move(NonZeroU16);

const FLAG: u16 = 1 << 14;

impl Move {
    /// The move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        match NonZeroU16::new(FLAG | (from.index() as u16) << 7 | to.index() as u16) {
            Some(v) => Move(v),
            None => unreachable!(),
        }
    }

    /// The origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0.get() >> 7 & 0x7F) as usize)
    }

    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0.get() & 0x7F) as usize)
    }

    /// The packed 16-bit value (stable: usable as a key in tables).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0.get()
    }

    /// Rebuilds a move from [`Move::raw`], or `None` if the value is not a packed move.
    pub const fn from_raw(raw: u16) -> Option<Move> {
        let (from, to) = ((raw >> 7 & 0x7F) as usize, (raw & 0x7F) as usize);
        if raw & !0x7FFF == 0 && raw & FLAG != 0 && from < 90 && to < 90 {
            match NonZeroU16::new(raw) {
                Some(v) => Some(Move(v)),
                None => None,
            }
        } else {
            None
        }
    }

    /// The move in ICCS notation, for example `H2-E2`.
    pub fn iccs(self) -> String {
        format!(
            "{}{}-{}{}",
            self.from().file().char().to_ascii_uppercase(),
            self.from().rank().char(),
            self.to().file().char().to_ascii_uppercase(),
            self.to().rank().char()
        )
    }

    /// The same move seen from the other side of the board (ranks flipped).
    pub fn flip_ranks(self) -> Move {
        Move::new(self.from().flip_rank(), self.to().flip_rank())
    }

    /// The same move mirrored left-right.
    pub fn mirror_files(self) -> Move {
        Move::new(self.from().mirror_file(), self.to().mirror_file())
    }

    /// Parses a move in UCI coordinates (`h2e2`) or ICCS (`H2-E2`, `h2-e2`), checking only its syntax.
    ///
    /// ```
    /// use xiangqi_core::Move;
    /// assert_eq!(Move::parse("H2-E2"), Move::parse("h2e2"));
    /// assert!(Move::parse("h2h2").is_err());
    /// assert!(Move::parse("j2e2").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Move, MoveSyntaxError> {
        let t = text.trim();
        let b = t.as_bytes();
        let (f1, r1, f2, r2) = match b.len() {
            4 => (b[0], b[1], b[2], b[3]),
            5 if b[2] == b'-' => (b[0], b[1], b[3], b[4]),
            _ => return Err(MoveSyntaxError::new(text, "expected 4 characters such as h2e2, or ICCS such as H2-E2")),
        };
        let square = |f: u8, r: u8| -> Option<Square> {
            Some(Square::new(File::from_char(f as char)?, Rank::from_char(r as char)?))
        };
        let (Some(from), Some(to)) = (square(f1, r1), square(f2, r2)) else {
            return Err(MoveSyntaxError::new(text, "squares are a file a-i followed by a rank 0-9"));
        };
        if from == to {
            return Err(MoveSyntaxError::new(text, "origin and destination are the same square"));
        }
        Ok(Move::new(from, to))
    }
}

impl fmt::Display for Move {
    /// UCI coordinates, for example `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Move {
    type Err = MoveSyntaxError;
    fn from_str(s: &str) -> Result<Move, MoveSyntaxError> {
        Move::parse(s)
    }
}

/// A move string that is not a move at all (wrong length, bad square, same square twice).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed move {text:?}: {reason}")]
pub struct MoveSyntaxError {
    /// The text that was given.
    pub text: String,
    /// Why it is not a move.
    pub reason: &'static str,
}

impl MoveSyntaxError {
    fn new(text: &str, reason: &'static str) -> MoveSyntaxError {
        // Keep error messages bounded even for huge inputs.
        let text: String = text.chars().take(32).collect();
        MoveSyntaxError { text, reason }
    }
}
