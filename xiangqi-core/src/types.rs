//! The small types of the board: colours, files, ranks, squares, piece kinds and pieces.

use std::fmt;

/// Gives a small `#[repr(u8)]` enum its count `NUM`, the array `ALL` and `index()`, as cozy-chess does.
macro_rules! simple_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        $vis enum $name { $($(#[$vmeta])* $variant),* }

        impl $name {
            /// All values, in index order.
            pub const ALL: [Self; Self::NUM] = [$(Self::$variant),*];
            /// How many values there are.
            pub const NUM: usize = [$(Self::$variant),*].len();

            /// The value's index, `0..NUM`.
            #[inline(always)]
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The value with index `i`, or `None` when `i >= NUM`.
            #[inline]
            pub const fn from_index(i: usize) -> Option<Self> {
                if i < Self::NUM { Some(Self::ALL[i]) } else { None }
            }
        }
    };
}

simple_enum! {
    /// A side. Red moves first and sits on ranks 0..=4; Black sits on ranks 5..=9.
    pub enum Color { /// The side that moves first (uppercase in FEN).
        Red, /// The second side (lowercase in FEN).
        Black }
}

impl Color {
    /// The other side.
    ///
    /// ```
    /// use xiangqi_core::Color;
    /// assert_eq!(!Color::Red, Color::Black);
    /// ```
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// `w` for Red (the Pikafish/UCI convention) and `b` for Black.
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

simple_enum! {
    /// A file (column), `a` to `i` from Red's left.
    pub enum File { /// File a.
        A, /// File b.
        B, /// File c.
        C, /// File d.
        D, /// File e, the central file.
        E, /// File f.
        F, /// File g.
        G, /// File h.
        H, /// File i.
        I }
}

impl File {
    /// The file's letter, `'a'..='i'`.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parses `'a'..='i'` (or uppercase).
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='i' => File::from_index(c as usize - 'a' as usize),
            'A'..='I' => File::from_index(c as usize - 'A' as usize),
            _ => None,
        }
    }

    /// The file seen from the other side of the board (a <-> i).
    pub const fn mirror(self) -> File {
        File::ALL[8 - self as usize]
    }
}

simple_enum! {
    /// A rank (row), 0 to 9 from Red's side.
    pub enum Rank { /// Rank 0, Red's back rank.
        R0, /// Rank 1.
        R1, /// Rank 2.
        R2, /// Rank 3.
        R3, /// Rank 4, Red's side of the river.
        R4, /// Rank 5, Black's side of the river.
        R5, /// Rank 6.
        R6, /// Rank 7.
        R7, /// Rank 8.
        R8, /// Rank 9, Black's back rank.
        R9 }
}

impl Rank {
    /// The rank's digit, `'0'..='9'`.
    pub const fn char(self) -> char {
        (b'0' + self as u8) as char
    }

    /// Parses `'0'..='9'`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '0'..='9' => Rank::from_index(c as usize - '0' as usize),
            _ => None,
        }
    }

    /// The rank seen from the other side (0 <-> 9).
    pub const fn flip(self) -> Rank {
        Rank::ALL[9 - self as usize]
    }

    /// The side of the river this rank lies on.
    pub const fn half(self) -> Color {
        if (self as u8) < 5 {
            Color::Red
        } else {
            Color::Black
        }
    }
}

/// One of the 90 points of the board, `rank * 9 + file` (a0 = 0, i9 = 89), as in Pikafish.
///
/// ```
/// use xiangqi_core::{File, Rank, Square};
/// let sq: Square = "h2".parse().unwrap();
/// assert_eq!(sq, Square::new(File::H, Rank::R2));
/// assert_eq!(sq.index(), 2 * 9 + 7);
/// assert_eq!(sq.to_string(), "h2");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// Number of squares (points) on the board.
    pub const NUM: usize = 90;

    /// The square on `file` and `rank`.
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 9 + file as u8)
    }

    /// The square with index `i`, or `None` when `i >= 90`.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 90 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The square with index `i`; `i` must be below 90 (checked in debug builds).
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(i: usize) -> Square {
        debug_assert!(i < 90);
        Square(i as u8)
    }

    /// Every square, a0 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }

    /// Index `0..90`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file.
    #[inline(always)]
    pub const fn file(self) -> File {
        File::ALL[self.0 as usize % 9]
    }

    /// The rank.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::ALL[self.0 as usize / 9]
    }

    /// The square with the same file seen from the other side (rank r -> 9 - r).
    pub const fn flip_rank(self) -> Square {
        Square::new(self.file(), self.rank().flip())
    }

    /// The square mirrored left-right (file a <-> i).
    pub const fn mirror_file(self) -> Square {
        Square::new(self.file().mirror(), self.rank())
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        let f = (self.0 % 9) as i32 + df;
        let r = (self.0 / 9) as i32 + dr;
        if f >= 0 && f < 9 && r >= 0 && r < 10 {
            Some(Square((r * 9 + f) as u8))
        } else {
            None
        }
    }

    /// Whether the square lies in `color`'s palace (files d-f, ranks 0-2 for Red, 7-9 for Black).
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.0 % 9;
        let r = self.0 / 9;
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The text was not a square name such as `e0` or `h9`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?}: expected a file a-i and a rank 0-9, such as \"e0\"")]
pub struct ParseSquareError(pub String);

impl std::str::FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(f), Some(r)) => Ok(Square::new(f, r)),
                _ => Err(ParseSquareError(s.to_owned())),
            },
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}

simple_enum! {
    /// The seven kinds of piece.
    pub enum PieceKind { /// General (king), `K`.
        King, /// Advisor, `A`.
        Advisor, /// Elephant (bishop), `B` (alias `E`).
        Elephant, /// Horse (knight), `N` (alias `H`).
        Horse, /// Chariot (rook), `R`.
        Chariot, /// Cannon, `C`.
        Cannon, /// Soldier (pawn), `P`.
        Soldier }
}

impl PieceKind {
    /// The uppercase FEN letter (K A B N R C P).
    pub const fn char(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// Parses a FEN letter of either case, including the aliases `H` (horse) and `E` (elephant).
    pub const fn from_char(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Chariot,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Soldier,
            _ => return None,
        })
    }

    /// How many of this kind each side has at the start: the most a legal position can hold.
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Soldier => 5,
            _ => 2,
        }
    }
}

/// A piece: a colour and a kind.
///
/// ```
/// use xiangqi_core::{Color, Piece, PieceKind};
/// let p = Piece::from_char('h').unwrap();
/// assert_eq!(p, Piece::new(Color::Black, PieceKind::Horse));
/// assert_eq!(p.char(), 'n');
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What it is.
    pub kind: PieceKind,
}

impl Piece {
    /// Number of distinct pieces (2 colours x 7 kinds).
    pub const NUM: usize = 14;

    /// A piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Index `0..14`: Red's kinds first, then Black's.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color as usize * 7 + self.kind as usize
    }

    /// The FEN letter: uppercase for Red.
    pub const fn char(self) -> char {
        match self.color {
            Color::Red => self.kind.char(),
            Color::Black => self.kind.char().to_ascii_lowercase(),
        }
    }

    /// Parses a FEN letter (aliases `H`/`E` accepted); uppercase is Red.
    pub const fn from_char(c: char) -> Option<Piece> {
        match PieceKind::from_char(c) {
            Some(kind) => Some(Piece::new(if c.is_ascii_uppercase() { Color::Red } else { Color::Black }, kind)),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
