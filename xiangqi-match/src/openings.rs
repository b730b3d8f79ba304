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

use xiangqi_core::{Game, Position, START_FEN};

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

/// Parses one opening line (`FEN [moves ...]` or `startpos [moves ...]`) and checks it with the rules.
pub fn parse_line(line: &str) -> Result<Opening, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let end = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let fen_text = words[..end].join(" ");
    if fen_text.is_empty() {
        return Err("no FEN before `moves`".to_owned());
    }
    if words[0] == "startpos" && end > 1 {
        return Err(format!("expected `moves` after startpos, found {:?}", words[1]));
    }
    let fen_text = if fen_text == "startpos" { START_FEN.to_owned() } else { fen_text };
    let pos = Position::from_fen(&fen_text).map_err(|e| format!("bad FEN: {e}"))?;
    let mut game = Game::new(&pos);
    let moves: Vec<String> = words.get(end + 1..).unwrap_or(&[]).iter().map(|s| (*s).to_owned()).collect();
    for m in &moves {
        game.play(m).map_err(|e| format!("move {m}: {e}"))?;
    }
    if let Some(result) = game.result() {
        return Err(format!("the game is already over ({result})"));
    }
    Ok(Opening { fen: pos.fen(), moves })
}

/// Parses an opening file's text; errors name the line.
pub fn parse(text: &str) -> Result<Vec<Opening>, String> {
    // A byte-order mark, as some editors write, is not part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_line(line).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    if out.is_empty() {
        return Err("no opening in the file".to_owned());
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
pub fn read(path: &std::path::Path) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("opening file {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("opening file {}: {e}", path.display()))
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
        assert!(e.starts_with("line 2: move h2e9"), "{e}");
        assert!(parse("not a fen\n").unwrap_err().contains("bad FEN"));
        assert!(parse("# nothing\n").unwrap_err().contains("no opening"));
        assert_eq!(parse("\u{feff}startpos moves h2e2\r\n").unwrap()[0].moves, ["h2e2"]);
        assert!(parse("startpos h2e2 h9g7\n").unwrap_err().contains("expected `moves` after startpos"));
        // A position that is already mate is not an opening.
        assert!(parse("R3k4/8R/9/9/9/9/9/9/9/3K5 b").unwrap_err().contains("already over"));
    }
}
