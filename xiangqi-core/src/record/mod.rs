//! Game records: the files players keep their games in, read and written.
//!
//! - [`read_pgn`] reads PGN files of several games, with tags, comments (`{...}` and `;`), variations (kept or
//!   skipped), `[FEN]` setups, move numbers and results, the moves in Chinese, WXF, ICCS or UCI notation (detected
//!   move by move, see [`Notation::detect`]), the text in UTF-8, GBK/GB18030 or UTF-16 (detected, see
//!   [`decode`]). A malformed game is an error naming the game, the line and the move text where reading stopped;
//!   the games before and after it are still read.
//! - [`write_pgn`] writes games in any of the notations; [`encode`] turns the text into UTF-8 or GBK bytes.
//! - [`read_xqf`] reads XQStudio's binary XQF files, the scrambled versions included.
//! - [`Position::move_text`] and [`Position::read_move`] write and read one move.
//!
//! This module is behind the default cargo feature `records` (which brings in `encoding_rs`); a rules-only user
//! turns it off with `default-features = false`.
//!
//! ```
//! use xiangqi_core::record::{read_pgn, write_pgn, Notation, ReadOptions};
//!
//! let pgn = "[Event \"demo\"]\n[Result \"1-0\"]\n\n1. 炮二平五 {central cannon} 马８进７ 2. 马二进三 1-0\n";
//! let file = read_pgn(pgn.as_bytes(), &ReadOptions::default());
//! let game = file.games[0].as_ref().unwrap();
//! assert_eq!(game.tag("Event"), Some("demo"));
//! assert_eq!(game.moves.len(), 3);
//! assert_eq!(game.moves[0].comments, ["central cannon"]);
//! let wxf = write_pgn(std::slice::from_ref(game), Notation::Wxf);
//! assert_eq!(wxf, "[Event \"demo\"]\n[Result \"1-0\"]\n\n1. C2.5 {central cannon}\n1... H8+7\n2. H2+3 1-0\n");
//! ```

mod encoding;
mod notation;
mod pgn;
mod xqf;

pub use encoding::{decode, encode, Decoded, EncodeError, TextEncoding};
pub use notation::{Notation, NotationError};
pub use pgn::{read_pgn, write_pgn, PgnFile, ReadOptions};
pub use xqf::{read_xqf, XqfError};

use crate::{Move, Position};
use std::fmt;

/// One move of a record: the move, the text it was read from, and what the record says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move.
    pub mv: Move,
    /// The move's text as it was read (empty for moves made by a program, such as XQF's).
    pub text: String,
    /// A judgement mark written after the move (`!`, `?`, `!?`, `?!`, `!!`, `??`), or a numeric annotation glyph
    /// (`$2`), if any.
    pub mark: Option<String>,
    /// The comments after the move, in order.
    pub comments: Vec<String>,
    /// Alternatives to this move: each a line of moves played from the position before it.
    pub variations: Vec<Vec<RecordMove>>,
}

impl RecordMove {
    /// A bare move: no text, mark, comment or variation.
    pub fn new(mv: Move) -> RecordMove {
        RecordMove { mv, text: String::new(), mark: None, comments: Vec::new(), variations: Vec::new() }
    }
}

/// One game of a record file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The tags (`[Name "value"]`), in the order read.
    pub tags: Vec<(String, String)>,
    /// The position the game starts from (the `FEN` tag, or the start position).
    pub start: Position,
    /// Comments before the first move.
    pub intro: Vec<String>,
    /// The moves of the main line.
    pub moves: Vec<RecordMove>,
    /// The result written after the moves (`1-0`, `0-1`, `1/2-1/2`, `*`), or the `Result` tag when the movetext
    /// has none.
    pub result: Option<String>,
    /// The notation of the game's first move, as read; `None` for a game without moves or from a binary format.
    pub notation: Option<Notation>,
}

impl GameRecord {
    /// An empty game from `start`.
    pub fn new(start: Position) -> GameRecord {
        GameRecord { tags: Vec::new(), start, intro: Vec::new(), moves: Vec::new(), result: None, notation: None }
    }

    /// The value of the tag `name` (compared without regard to case), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Sets the tag `name` to `value`, replacing an existing one in place.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some(tag) => tag.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The moves of the main line.
    pub fn main_line(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// The position after the main line's moves.
    pub fn end_position(&self) -> Position {
        let mut pos = self.start.clone();
        for m in &self.moves {
            pos.make_move(m.mv);
        }
        pos
    }
}

/// Where and why reading a game stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The line (from 1) where reading stopped; 0 for a binary file.
    pub line: usize,
    /// The move text (or other token) where reading stopped, cut to 40 characters.
    pub text: String,
    /// What was wrong.
    pub reason: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if self.line > 0 {
            write!(f, ", line {}", self.line)?;
        }
        if !self.text.is_empty() {
            write!(f, ", at {:?}", self.text)?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for RecordError {}
