//! Tactical test sets: positions with known best moves, in an EPD-like text form, and a run of the engine over them
//! (`xiangqi tactics FILE`).
//!
//! One position a line: the FEN (as `xiangqi search --fen` takes it), then `bm` and the best moves in UCI
//! coordinates, then operations separated by `;`: `id "NAME"`, `source "WHERE"`, and `dm N` for a forced mate in
//! `N` moves. Empty lines and lines starting with `#` are skipped.
//!
//! ```
//! use xiangqi_match::tactics::parse;
//! let set = parse("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 bm e1d1; id \"rook\"; dm 1;\n").unwrap();
//! assert_eq!((set[0].id.as_str(), set[0].best[0].to_string(), set[0].mate), ("rook", "e1d1".to_owned(), Some(1)));
//! ```

use std::fmt;
use std::time::Instant;
use xiangqi_core::{Move, Position};
use xiangqi_eval::EvalChoice;
use xiangqi_search::{mate_moves, Limits, SearchEngine, VariantConfig};

/// One position of a test set.
#[derive(Debug, Clone)]
pub struct Tactic {
    /// Its name (`id`; `#LINE` when the line names none).
    pub id: String,
    /// Where it comes from (`source`), empty when the line names none.
    pub source: String,
    /// The position.
    pub position: Position,
    /// The best moves: finding any of them solves the position.
    pub best: Vec<Move>,
    /// A forced mate in this many moves (`dm`), when the position is one.
    pub mate: Option<u32>,
}

/// A line of a test set that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TacticsError {
    /// Its line number, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TacticsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TacticsError {}

/// Reads a test set (see the module's doc for the form).
///
/// # Errors
/// The first line that is not a legal position with legal best moves, or an operation that cannot be read.
pub fn parse(text: &str) -> Result<Vec<Tactic>, TacticsError> {
    let mut set = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        set.push(parse_line(line).map_err(|message| TacticsError { line: k + 1, message })?);
    }
    Ok(set)
}

fn parse_line(line: &str) -> Result<Tactic, String> {
    let Some(at) = line.find(" bm ") else { return Err("no ` bm ` (best moves) after the FEN".to_owned()) };
    let fen = line[..at].trim();
    let position = Position::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let mut ops = line[at + 1..].split(';').map(str::trim).filter(|o| !o.is_empty());
    let moves = ops.next().unwrap_or_default().strip_prefix("bm").unwrap_or_default();
    let best = moves
        .split_whitespace()
        .map(|m| position.parse_move(m).map_err(|e| format!("best move '{m}': {e}")))
        .collect::<Result<Vec<Move>, String>>()?;
    if best.is_empty() {
        return Err("`bm` names no move".to_owned());
    }
    let (mut id, mut source, mut mate) = (None, String::new(), None);
    for op in ops {
        let (key, value) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        let value = value.trim();
        let quoted = || {
            value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .map(str::to_owned)
                .ok_or_else(|| format!("{key} wants a quoted string, not '{value}'"))
        };
        match key {
            "id" => id = Some(quoted()?),
            "source" => source = quoted()?,
            "dm" => mate = Some(value.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| format!("dm '{value}'"))?),
            _ => return Err(format!("unknown operation '{key}'")),
        }
    }
    Ok(Tactic { id: id.unwrap_or_default(), source, position, best, mate })
}

/// The engine's answer to one position.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The move it chose (`None` only in a position without moves).
    pub chosen: Option<Move>,
    /// Whether that move is one of the best.
    pub solved: bool,
    /// Its score, centipawns or a mate score.
    pub score: i32,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken, in seconds.
    pub seconds: f64,
}

impl Outcome {
    /// Moves to the mate the score announces (negative: being mated), if it is a mate score.
    pub fn mate(&self) -> Option<i32> {
        mate_moves(self.score)
    }
}

/// Searches `tactic` with `variant` within `limits` on `engine` as a fresh engine would (a cleared table and
/// ordering memory), and says whether it found a best move.
pub fn solve(
    engine: &mut SearchEngine<EvalChoice>,
    variant: &VariantConfig,
    tactic: &Tactic,
    limits: &Limits,
) -> Outcome {
    engine.set_variant(*variant);
    engine.new_game();
    let start = Instant::now();
    let r = engine.search(&tactic.position, limits);
    Outcome {
        chosen: r.best_move,
        solved: r.best_move.is_some_and(|m| tactic.best.contains(&m)),
        score: r.score,
        depth: r.depth,
        nodes: r.stats.nodes(),
        seconds: start.elapsed().as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_with_their_operations() {
        let text =
            "# a comment\n\n3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 bm e1d1 e1e2; id \"a\"; source \"here\"; dm 2;\n";
        let set = parse(text).unwrap();
        assert_eq!(set.len(), 1);
        let t = &set[0];
        assert_eq!((t.id.as_str(), t.source.as_str(), t.mate), ("a", "here", Some(2)));
        assert_eq!(t.best.iter().map(Move::to_string).collect::<Vec<_>>(), ["e1d1", "e1e2"]);
    }

    #[test]
    fn bad_lines_name_their_number_and_fault() {
        let cases = [
            ("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", "no ` bm `"),
            ("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 bm e1d2;", "best move 'e1d2'"),
            ("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 bm ;", "names no move"),
            ("3k5/9/9/9/9/9/9/9/4R4 w - - 0 1 bm e1d1;", "bad FEN"),
            ("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 bm e1d1; id a;", "quoted"),
            ("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 bm e1d1; dm 0;", "dm '0'"),
            ("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 bm e1d1; xx 1;", "unknown operation 'xx'"),
        ];
        for (line, fault) in cases {
            let e = parse(&format!("# first\n{line}\n")).unwrap_err();
            assert_eq!(e.line, 2, "{line}");
            assert!(e.message.contains(fault), "{line}: {}", e.message);
        }
    }
}
