//! Game records: the files players keep their games in, read and written.
//!
//! - [`read_pgn`] reads PGN files of several games, with tags, comments (`{...}` and `;`), variations (kept or
//!   skipped), `[FEN]` setups, move numbers and results, the moves in Chinese, WXF, ICCS or UCI notation (detected
//!   move by move, see [`Notation::detect`]), the text in UTF-8, GBK/GB18030 or UTF-16 (detected, see
//!   [`decode`]). A malformed game is an error naming the game, the line and the move text where reading stopped;
//!   the games before and after it are still read.
//! - [`write_pgn`] writes games in any of the notations; [`encode`] turns the text into UTF-8 or GBK bytes.
//! - [`read_xqf`] reads XQStudio's binary XQF files, the scrambled versions included.
//! - [`read_record`] reads a file of either format, recognised by its content, and refuses one that is neither.
//! - [`GameRecord::judge`] replays a game's main line with the rules' referee ([`Game::replay`]).
//! - [`Position::move_text`] and [`Position::read_move`] write and read one move.
//! - [`openings`] names the opening a game reached (Chinese and English), recognised by position.
//! - [`shapes`] reads and writes the arrows and circles drawn on the board, kept in comments as lichess writes them
//!   (`[%cal Gh2e2] [%csl Ge4]`).
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
//! // The Seven Tag Roster first, then the others; the opening reached is named.
//! let opening = "[Opening \"中炮对进左马 (Central Cannon vs Left Horse)\"]";
//! assert_eq!(wxf, format!("[Event \"demo\"]\n[Result \"1-0\"]\n{opening}\n\n1. C2.5 {{central cannon}}\n1... H8+7\n2. H2+3 1-0\n"));
//! ```

mod encoding;
mod notation;
pub mod openings;
mod pgn;
pub mod shapes;
mod xqf;

pub use encoding::{decode, encode, Decoded, EncodeError, TextEncoding};
pub use notation::{Notation, NotationError};
pub use pgn::{read_pgn, write_pgn, PgnFile, ReadOptions, STANDARD_TAGS};
pub use xqf::{read_xqf, XqfError};

use crate::rules::JudgeOptions;
use crate::{Game, Move, PlayError, Position, Replay};
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

    /// Replays the main line from the start position and judges it with `options` ([`Game::replay`]): the game
    /// as far as the rules let it go (its result and the rule that decided it), and how many recorded moves came
    /// after its end; or the ply of the first move that is not legal.
    ///
    /// ```
    /// use xiangqi_core::record::{read_pgn, ReadOptions};
    /// use xiangqi_core::rules::{JudgeOptions, Reason};
    /// use xiangqi_core::Color;
    ///
    /// // A chariot checks from a9 and a8 in turn: a perpetual check, judged at ply 9, when a position occurs for
    /// // the third time; the three moves recorded after it are not played.
    /// let pgn = "[FEN \"3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1\"]\n\n1. a0a9 d9d8 2. a9a8 d8d9 3. a8a9 d9d8 \
    ///            4. a9a8 d8d9 5. a8a9 d9d8 6. a9a8 d8d9 *\n";
    /// let file = read_pgn(pgn.as_bytes(), &ReadOptions::default());
    /// let record = file.games[0].as_ref().unwrap();
    /// let replay = record.judge(JudgeOptions::default()).unwrap();
    /// let result = replay.game.result().unwrap();
    /// assert_eq!((result.winner, result.reason), (Some(Color::Black), Reason::PerpetualCheck));
    /// assert_eq!((replay.game.plies(), replay.unplayed), (9, 3));
    /// ```
    pub fn judge(&self, options: JudgeOptions) -> Result<Replay, PlayError> {
        Game::replay(&self.start, self.moves.iter().map(|m| m.mv), options)
    }
}

/// The format a record file was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// PGN text, in the encoding found.
    Pgn(TextEncoding),
    /// XQStudio's binary format, with the version byte of its header.
    Xqf {
        /// The format's version (1 to 18).
        version: u8,
    },
}

impl fmt::Display for RecordFormat {
    /// `PGN (UTF-8)`, `PGN (GBK)`, `XQF version 18`...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordFormat::Pgn(encoding) => write!(f, "PGN ({encoding})"),
            RecordFormat::Xqf { version } => write!(f, "XQF version {version}"),
        }
    }
}

/// A record file's games, read by [`read_record`].
#[derive(Clone, Debug)]
pub struct RecordFile {
    /// What the file was.
    pub format: RecordFormat,
    /// Each game, in file order: the game, or where and why reading it stopped. Never empty.
    pub games: Vec<Result<GameRecord, RecordError>>,
}

/// Why a file could not be read as a game record at all (a game that could not be read is a [`RecordError`] in
/// [`RecordFile::games`] instead).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// The file is neither an XQF file nor text: it holds control characters no PGN file has.
    #[error("not a PGN or XQF file")]
    NotARecord,
    /// The file starts as an XQF file does but could not be read.
    #[error(transparent)]
    Xqf(#[from] XqfError),
    /// The file is text without a game in it.
    #[error("no game found")]
    NoGame,
}

/// Reads a game record file of either format: XQF when it starts with XQF's `XQ` magic (whatever the file's name),
/// else PGN ([`read_pgn`], in any notation and encoding). A file that is neither, such as binary data, is
/// [`FileError::NotARecord`], not a PGN of garbled text; a text without a game is [`FileError::NoGame`].
///
/// ```
/// use xiangqi_core::record::{read_record, FileError, ReadOptions, RecordFormat, TextEncoding};
///
/// let file = read_record(b"1. h2e2 h9g7 *\n", &ReadOptions::default()).unwrap();
/// assert_eq!(file.format, RecordFormat::Pgn(TextEncoding::Utf8));
/// assert_eq!(file.format.to_string(), "PGN (UTF-8)");
/// assert_eq!(file.games[0].as_ref().unwrap().moves.len(), 2);
///
/// let binary = [0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0];
/// let e = read_record(&binary, &ReadOptions::default()).unwrap_err();
/// assert_eq!(e, FileError::NotARecord);
/// assert_eq!(e.to_string(), "not a PGN or XQF file");
/// assert_eq!(read_record(b"", &ReadOptions::default()).unwrap_err(), FileError::NoGame);
/// ```
pub fn read_record(bytes: &[u8], options: &ReadOptions) -> Result<RecordFile, FileError> {
    if bytes.starts_with(b"XQ") {
        let game = read_xqf(bytes)?;
        let version = bytes.get(2).copied().unwrap_or_default();
        return Ok(RecordFile { format: RecordFormat::Xqf { version }, games: vec![Ok(game)] });
    }
    if !is_text(&decode(bytes).text) {
        return Err(FileError::NotARecord);
    }
    let file = read_pgn(bytes, options);
    if file.games.is_empty() {
        return Err(FileError::NoGame);
    }
    Ok(RecordFile { format: RecordFormat::Pgn(file.encoding), games: file.games })
}

/// Whether `text` can be a PGN file: no control character but white space and the end-of-file mark (Ctrl-Z) some
/// DOS tools write.
fn is_text(text: &str) -> bool {
    !text.chars().any(|c| c.is_ascii_control() && !c.is_ascii_whitespace() && c != '\x0b' && c != '\x1a')
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
