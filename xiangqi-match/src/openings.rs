//! Opening sets: where each game of a match starts.
//!
//! An opening file has one opening a line: a FEN, or `startpos`, optionally followed by `moves` and moves in UCI
//! coordinates (`h2e2`, ranks 0-9). Blank lines and lines starting with `#` are skipped. Every opening is checked
//! with the rules when the file is read (a bad FEN, an illegal move, or a game already over is an error naming the
//! line), so a match never starts from a broken opening.
//!
//! The built-in set ([`BUILTIN`]) is twelve common, balanced openings from the start position, two to four plies
//! deep: the central cannon against the screen horses, the same- and opposite-direction cannons, the elephant, pawn
//! and horse openings, the cross-palace and palace-corner cannons. Each is played with both colours.
//!
//! Engines at a fixed node count are deterministic: each opening with each colour would be one game played again
//! and again. [`for_pair`] gives each game pair its own opening, a set's opening followed by a few quiet moves
//! chosen by the pair's number (the same number, the same moves).

use std::path::{Path, PathBuf};
use xiangqi_core::{Game, GameResult, PlayError, Position, START_FEN};

/// One opening: a start position and the moves played from it before the engines take over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The FEN of the start position.
    pub fen: String,
    /// The opening moves, in UCI coordinates.
    pub moves: Vec<String>,
}

impl Opening {
    /// The game after the opening's moves.
    pub fn game(&self) -> Game {
        let pos = Position::from_fen(&self.fen).expect("openings are checked when read");
        let mut game = Game::new(&pos);
        for m in &self.moves {
            game.play(m).expect("openings are checked when read");
        }
        game
    }
}

/// The built-in openings, as `(name, moves from the start position)`.
pub const BUILTIN: [(&str, &str); 12] = [
    ("central cannon vs screen horses", "h2e2 h9g7"),
    ("central cannon vs screen horses, chariot out", "h2e2 h9g7 h0g2 i9h9"),
    ("same-direction cannons", "h2e2 h7e7"),
    ("opposite-direction cannons", "h2e2 b7e7"),
    ("elephant opening vs central cannon", "c0e2 h7e7"),
    ("elephant opening vs horse", "c0e2 h9g7"),
    ("pawn opening, pawns face to face", "g3g4 g6g5"),
    ("pawn opening vs horse", "g3g4 b9c7"),
    ("horse opening vs screen horse", "b0c2 h9g7"),
    ("horse opening vs pawn", "b0c2 c6c5"),
    ("cross-palace cannon", "h2d2 h9g7"),
    ("palace-corner cannon", "h2f2 b9c7"),
];

/// The built-in opening set.
pub fn builtin() -> Vec<Opening> {
    BUILTIN
        .iter()
        .map(|(_, moves)| Opening {
            fen: START_FEN.to_owned(),
            moves: moves.split_whitespace().map(str::to_owned).collect(),
        })
        .collect()
}

/// Why one line is not an opening ([`parse_line`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The line is empty or starts with `moves`.
    #[error("no FEN before `moves`")]
    NoFen,
    /// `startpos` followed by something other than `moves`.
    #[error("expected `moves` after startpos, found {0:?}")]
    AfterStartpos(String),
    /// The FEN cannot be read, or describes an impossible position.
    #[error("bad FEN: {0}")]
    Fen(Box<xiangqi_core::Error>),
    /// A move that is not legal where it is played.
    #[error("move {mv}: {source}")]
    Move {
        /// The move as written.
        mv: String,
        /// Why the rules refuse it.
        source: Box<PlayError>,
    },
    /// The game is over after the opening's moves: no engine could play from it.
    #[error("the game is already over ({0})")]
    GameOver(Box<GameResult>),
}

/// Why a text is not a set of openings ([`parse`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A line that is not an opening.
    #[error("line {line}: {source}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        source: LineError,
    },
    /// Only blank lines and comments.
    #[error("no opening in the file")]
    Empty,
}

/// Why an opening file cannot be used ([`read`]); the message names the file.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file cannot be read (or is not UTF-8 text).
    #[error("opening file {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The file's text is not a set of openings.
    #[error("opening file {}: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong in it.
        source: ParseError,
    },
}

/// Parses one opening line (`FEN [moves ...]` or `startpos [moves ...]`) and checks it with the rules.
///
/// ```
/// use xiangqi_match::openings::{parse_line, LineError};
///
/// assert_eq!(parse_line("startpos moves h2e2 h9g7").unwrap().moves, ["h2e2", "h9g7"]);
/// assert!(matches!(parse_line("startpos moves h2e2 h2e9"), Err(LineError::Move { mv, .. }) if mv == "h2e9"));
/// ```
pub fn parse_line(line: &str) -> Result<Opening, LineError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let end = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let fen_text = words[..end].join(" ");
    if fen_text.is_empty() {
        return Err(LineError::NoFen);
    }
    if words[0] == "startpos" && end > 1 {
        return Err(LineError::AfterStartpos(words[1].to_owned()));
    }
    let fen_text = if fen_text == "startpos" { START_FEN.to_owned() } else { fen_text };
    let pos = Position::from_fen(&fen_text).map_err(|e| LineError::Fen(Box::new(e)))?;
    let mut game = Game::new(&pos);
    let moves: Vec<String> = words.get(end + 1..).unwrap_or(&[]).iter().map(|s| (*s).to_owned()).collect();
    for m in &moves {
        game.play(m).map_err(|e| LineError::Move { mv: m.clone(), source: Box::new(e) })?;
    }
    if let Some(result) = game.result() {
        return Err(LineError::GameOver(Box::new(result)));
    }
    Ok(Opening { fen: pos.fen(), moves })
}

/// Parses an opening file's text; an error names the line.
pub fn parse(text: &str) -> Result<Vec<Opening>, ParseError> {
    // A byte-order mark, as some editors write, is not part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_line(line).map_err(|source| ParseError::Line { line: i + 1, source })?);
    }
    if out.is_empty() {
        return Err(ParseError::Empty);
    }
    Ok(out)
}

/// SplitMix64's output function: a well-spread 64-bit value for each input.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The opening of game pair `pair`: the set's opening `pair % set.len()`, then `plies` quiet moves (no capture, no
/// check, none that ends the game) chosen by `pair`. The same pair always gets the same opening; with `plies` 0 it
/// is the set's opening as it is. `set` must not be empty.
///
/// ```
/// use xiangqi_match::openings::{builtin, for_pair};
///
/// let set = builtin();
/// let a = for_pair(&set, 13, 2);
/// assert_eq!(a.moves.len(), set[1].moves.len() + 2);
/// assert_eq!(a, for_pair(&set, 13, 2));
/// assert_eq!(for_pair(&set, 13, 0), set[1]);
/// ```
pub fn for_pair(set: &[Opening], pair: usize, plies: usize) -> Opening {
    let base = &set[pair % set.len()];
    let mut game = base.game();
    let mut moves = base.moves.clone();
    for ply in 0..plies {
        let pos = game.position().clone();
        let quiet: Vec<xiangqi_core::Move> = xiangqi_movegen::legal_moves(&pos)
            .iter()
            .copied()
            .filter(|&m| pos.piece_at(m.to()).is_none() && !pos.gives_check(m))
            .collect();
        let start = mix(((pair as u64) << 8) ^ ply as u64) as usize;
        let next = (0..quiet.len()).map(|k| quiet[(start + k) % quiet.len()]).find_map(|m| {
            let mut after = game.clone();
            let text = m.to_string();
            (after.play(&text).is_ok() && after.result().is_none()).then_some((after, text))
        });
        let Some((after, text)) = next else { break };
        game = after;
        moves.push(text);
    }
    Opening { fen: base.fen.clone(), moves }
}

/// Reads an opening file.
pub fn read(path: &Path) -> Result<Vec<Opening>, ReadError> {
    let text = std::fs::read_to_string(path).map_err(|source| ReadError::Io { path: path.to_owned(), source })?;
    parse(&text).map_err(|source| ReadError::Parse { path: path.to_owned(), source })
}

/// The opening file at `path` when one is given, else the built-in set ([`builtin`]).
pub fn read_or_builtin(path: Option<&Path>) -> Result<Vec<Opening>, ReadError> {
    path.map_or_else(|| Ok(builtin()), read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_openings_are_legal_and_distinct() {
        let set = builtin();
        assert_eq!(set.len(), BUILTIN.len());
        let mut fens: Vec<String> = set.iter().map(|o| o.game().position().fen()).collect();
        fens.sort();
        fens.dedup();
        assert_eq!(fens.len(), set.len());
        for o in &set {
            assert!(o.game().result().is_none());
        }
    }

    #[test]
    fn each_pair_gets_its_own_legal_opening_and_always_the_same() {
        let set = builtin();
        let all: Vec<Opening> = (0..240).map(|p| for_pair(&set, p, 2)).collect();
        let distinct: std::collections::HashSet<&Vec<String>> = all.iter().map(|o| &o.moves).collect();
        assert!(distinct.len() >= 235, "{} distinct of 240", distinct.len());
        for (p, o) in all.iter().enumerate() {
            let base = &set[p % set.len()];
            assert_eq!(o.moves.len(), base.moves.len() + 2);
            assert_eq!(o.moves[..base.moves.len()], base.moves[..]);
            // Legal, and neither capture nor check.
            let mut game = base.game();
            for m in &o.moves[base.moves.len()..] {
                let pos = game.position().clone();
                let mv = pos.parse_move(m).unwrap();
                assert!(pos.piece_at(mv.to()).is_none() && !pos.gives_check(mv), "{m}");
                game.play(m).unwrap();
            }
            assert!(game.result().is_none());
            assert_eq!(for_pair(&set, p, 2), *o);
        }
        assert_eq!(for_pair(&set, 5, 0), set[5]);
        assert_eq!(for_pair(&set, 17, 0), set[5]);
    }

    #[test]
    fn file_format_and_errors() {
        let text = "# a comment\n\nstartpos moves h2e2 h9g7\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w moves b0c2\n";
        let set = parse(text).unwrap();
        assert_eq!(set.len(), 3);
        assert_eq!(set[0].moves, ["h2e2", "h9g7"]);
        assert!(set[1].moves.is_empty());
        assert_eq!(set[2].game().plies(), 1);
        let e = parse("startpos moves h2e2\nstartpos moves h2e9\n").unwrap_err();
        assert!(matches!(&e, ParseError::Line { line: 2, source: LineError::Move { mv, .. } } if mv == "h2e9"), "{e}");
        assert!(e.to_string().starts_with("line 2: move h2e9: ply 1: illegal move h2e9"), "{e}");
        let e = parse("\n# one\nnot a fen\n").unwrap_err();
        assert!(matches!(e, ParseError::Line { line: 3, source: LineError::Fen(_) }), "{e}");
        assert!(e.to_string().starts_with("line 3: bad FEN: "), "{e}");
        assert_eq!(parse("# nothing\n"), Err(ParseError::Empty));
        assert_eq!(parse("# nothing\n").unwrap_err().to_string(), "no opening in the file");
        assert_eq!(parse("\u{feff}startpos moves h2e2\r\n").unwrap()[0].moves, ["h2e2"]);
        let e = parse("startpos h2e2 h9g7\n").unwrap_err();
        assert_eq!(e, ParseError::Line { line: 1, source: LineError::AfterStartpos("h2e2".to_owned()) });
        assert_eq!(e.to_string(), "line 1: expected `moves` after startpos, found \"h2e2\"");
        assert_eq!(parse_line("moves h2e2"), Err(LineError::NoFen));
        // A position that is already mate is not an opening.
        let e = parse_line("R3k4/8R/9/9/9/9/9/9/9/3K5 b").unwrap_err();
        assert!(matches!(&e, LineError::GameOver(r) if r.winner == Some(xiangqi_core::Color::Red)), "{e}");
        assert!(e.to_string().starts_with("the game is already over ("), "{e}");
    }

    #[test]
    fn a_file_that_cannot_be_read_or_used_is_named() {
        let missing = Path::new("/nonexistent/openings.txt");
        let e = read(missing).unwrap_err();
        assert!(matches!(&e, ReadError::Io { path, .. } if path == missing), "{e}");
        assert!(e.to_string().starts_with("opening file /nonexistent/openings.txt: "), "{e}");
        let dir = std::env::temp_dir().join(format!("xiangqi-match-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("empty.txt");
        std::fs::write(&file, "# no opening\n").unwrap();
        let e = read(&file).unwrap_err();
        assert!(matches!(&e, ReadError::Parse { source: ParseError::Empty, .. }), "{e}");
        assert_eq!(e.to_string(), format!("opening file {}: no opening in the file", file.display()));
        std::fs::write(&file, "startpos moves h2e2\n").unwrap();
        assert_eq!(read(&file).unwrap().len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
