//! FEN text, first stage: syntax. [`Setup`] is what a FEN says, before anyone asks whether it is possible;
//! [`Position::from_setup`](crate::Position::from_setup) is the second stage.

use crate::types::{Color, Piece, Square};
use std::fmt;

/// The start position in Pikafish's FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A board as a FEN describes it: pieces on points, the side to move and the two counters. Not yet checked for
/// possibility.
///
/// ```
/// use xiangqi_core::{Setup, START_FEN};
/// let setup: Setup = START_FEN.parse().unwrap();
/// assert_eq!(setup.to_string(), START_FEN);
/// // Aliases H (horse), E (elephant) and side `r` are read, and written back in the standard letters.
/// let alias: Setup = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r".parse().unwrap();
/// assert_eq!(alias, setup);
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// The piece on each point, indexed by [`Square::index`].
    pub board: [Option<Piece>; 90],
    /// The side to move.
    pub turn: Color,
    /// Plies since the last capture (the FEN's halfmove clock), for the 60-move rule.
    pub halfmoves: u32,
    /// The move number, starting at 1 and increased after Black moves.
    pub fullmoves: u32,
}

impl Setup {
    /// The largest halfmove clock a setup may carry (far beyond any game: the 60-move rule ends one at 120).
    pub const MAX_HALFMOVES: u32 = 10_000;
    /// The largest move number a setup may carry.
    pub const MAX_FULLMOVES: u32 = 100_000;
}

/// Which part of a FEN is wrong, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// No text at all.
    #[error("empty FEN")]
    Empty,
    /// The piece placement field is malformed.
    #[error("invalid FEN board field, rank {rank}: {reason}")]
    Board {
        /// The rank (0-9) being read when the problem was found.
        rank: u8,
        /// What is wrong.
        reason: String,
    },
    /// The board field does not have 10 ranks.
    #[error("invalid FEN board field: expected 10 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// The side-to-move field is not `w`, `r` or `b`.
    #[error("invalid FEN side-to-move field {0:?}: expected 'w' (or 'r') for Red, 'b' for Black")]
    Turn(String),
    /// A field that must be `-` in xiangqi (castling, en passant) holds something else.
    #[error("invalid FEN {field} field {found:?}: xiangqi has none, expected '-'")]
    Placeholder {
        /// The field's name.
        field: &'static str,
        /// What was found.
        found: String,
    },
    /// A counter is not a number in range.
    #[error("invalid FEN {field} field {found:?}: expected a whole number up to {max}")]
    Counter {
        /// The field's name.
        field: &'static str,
        /// What was found.
        found: String,
        /// The largest accepted value.
        max: u32,
    },
    /// Text after the last field.
    #[error("invalid FEN: unexpected text after the move number: {0:?}")]
    TrailingFields(String),
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

impl Setup {
    /// Parses a FEN. The side, the two `-` fields and the counters may be left out (they default to `w - - 0 1`).
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let board_field = fields.next().ok_or(FenError::Empty)?;
        let mut board = [None; 90];
        let ranks: Vec<&str> = board_field.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (row, text) in ranks.iter().enumerate() {
            let rank = 9 - row;
            let mut file = 0usize;
            let bad = |reason: String| FenError::Board { rank: rank as u8, reason };
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(bad("an empty-point count of 0".into()));
                    }
                    file += d as usize;
                } else if let Some(p) = Piece::from_char(c) {
                    if file >= 9 {
                        return Err(bad(format!("more than 9 points (at {c:?})")));
                    }
                    board[rank * 9 + file] = Some(p);
                    file += 1;
                } else {
                    return Err(bad(format!("{c:?} is not a piece letter (K A B N R C P, aliases E H) or a digit")));
                }
                if file > 9 {
                    return Err(bad(format!("{file} points instead of 9")));
                }
            }
            if file != 9 {
                return Err(bad(format!("{file} points instead of 9")));
            }
        }
        let turn = match fields.next() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(other) => return Err(FenError::Turn(clip(other))),
        };
        for field in ["castling", "en passant"] {
            match fields.next() {
                None | Some("-") => {}
                Some(found) => return Err(FenError::Placeholder { field, found: clip(found) }),
            }
        }
        let mut counter = |field: &'static str, default: u32, max: u32| -> Result<u32, FenError> {
            match fields.next() {
                None => Ok(default),
                Some(s) => s.parse::<u32>().ok().filter(|&v| v <= max).ok_or_else(|| FenError::Counter {
                    field,
                    found: clip(s),
                    max,
                }),
            }
        };
        let halfmoves = counter("halfmove clock", 0, Setup::MAX_HALFMOVES)?;
        let fullmoves = counter("fullmove number", 1, Setup::MAX_FULLMOVES)?.max(1);
        if let Some(rest) = fields.next() {
            return Err(FenError::TrailingFields(clip(rest)));
        }
        Ok(Setup { board, turn, halfmoves, fullmoves })
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The board field of the FEN.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.board[rank * 9 + file] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    /// The same setup with colours swapped and the board turned (rank r -> 9 - r), side to move swapped too.
    pub fn flip_colors(&self) -> Setup {
        let mut board = [None; 90];
        for sq in Square::all() {
            board[sq.flip_rank().index()] = self.board[sq.index()].map(|p| Piece::new(!p.color, p.kind));
        }
        Setup { board, turn: !self.turn, ..self.clone() }
    }

    /// The same setup mirrored left-right (file a <-> i).
    pub fn mirror_files(&self) -> Setup {
        let mut board = [None; 90];
        for sq in Square::all() {
            board[sq.mirror_file().index()] = self.board[sq.index()];
        }
        Setup { board, ..self.clone() }
    }
}

impl fmt::Display for Setup {
    /// The full FEN, `<board> <w|b> - - <halfmoves> <fullmoves>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} - - {} {}", self.board_fen(), self.turn.fen_char(), self.halfmoves, self.fullmoves)
    }
}

impl std::str::FromStr for Setup {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Setup, FenError> {
        Setup::from_fen(s)
    }
}
