//! The record of a game in PGN form, with the xiangqi headers.
//!
//! ```text
//! [Game "Chinese Chess"]
//! [Event "xiangqi match"]
//! [Round "3"]
//! [Red "engine"]
//! [Black "engine+no-lmr"]
//! [Result "1-0"]
//! [FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]
//! [Format "UCI"]
//! [Opening "h2e2 h9g7"]
//! [PlyCount "85"]
//! [Termination "checkmate"]
//! [TimeControl "nodes=2000"]
//!
//! 1. h2e2 h9g7 {opening ends} 2. h0g2 ... 43. e8e9 {red wins by checkmate} 1-0
//! ```
//!
//! The `FEN` header is the position the game starts from; the opening's moves are the first moves of the record
//! (a comment marks where the engines took over). Moves are UCI coordinates with ranks 0-9 (`Format "UCI"`).
//! `Termination` is the reason the game ended by, as the match summary counts it.

use std::fmt::Write as _;
use xiangqi_core::Color;

/// One finished game, as the match recorded it.
#[derive(Debug, Clone)]
pub struct PlayedGame {
    /// The game's number in the match, from 1.
    pub round: usize,
    /// The engine with Red.
    pub red: String,
    /// The engine with Black.
    pub black: String,
    /// The FEN the game started from.
    pub fen: String,
    /// How many of the moves were the opening's.
    pub opening_plies: usize,
    /// Every move, opening moves first, in UCI coordinates.
    pub moves: Vec<String>,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// The reason the game ended by (`checkmate`, `repetition`, `illegal-move`, `timeout`...).
    pub reason: String,
    /// A sentence saying how it ended.
    pub detail: String,
    /// The time control, as text.
    pub time_control: String,
    /// The side that moved first.
    pub first_to_move: Color,
    /// The full-move number of the first move.
    pub first_move_number: u32,
}

impl PlayedGame {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Color::Red) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The game in PGN form, ending with a blank line.
    pub fn pgn(&self, event: &str) -> String {
        let mut s = String::new();
        let esc = |t: &str| t.replace('\\', "\\\\").replace('"', "\\\"");
        let mut header = |k: &str, v: &str| {
            let _ = writeln!(s, "[{k} \"{}\"]", esc(v));
        };
        header("Game", "Chinese Chess");
        header("Event", event);
        header("Round", &self.round.to_string());
        header("Red", &self.red);
        header("Black", &self.black);
        header("Result", self.result_text());
        header("FEN", &self.fen);
        header("Format", "UCI");
        header("Opening", &self.moves[..self.opening_plies].join(" "));
        header("PlyCount", &self.moves.len().to_string());
        header("Termination", &self.reason);
        header("TimeControl", &self.time_control);
        s.push('\n');
        let mut body = String::new();
        let mut number = self.first_move_number;
        let mut side = self.first_to_move;
        for (i, m) in self.moves.iter().enumerate() {
            if side == Color::Red {
                let _ = write!(body, "{number}. ");
            } else if i == 0 {
                let _ = write!(body, "{number}... ");
            }
            body.push_str(m);
            body.push(' ');
            if i + 1 == self.opening_plies {
                body.push_str("{opening ends} ");
            }
            if side == Color::Black {
                number += 1;
            }
            side = !side;
        }
        let _ = write!(body, "{{{}}} {}", self.detail.replace('}', ")"), self.result_text());
        s.push_str(&wrap(&body, 100));
        s.push_str("\n\n");
        s
    }
}

/// Breaks text into lines of at most `width` characters at spaces (outside comments too: PGN allows it).
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split(' ') {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_prints_headers_and_numbered_moves() {
        let r = PlayedGame {
            round: 2,
            red: "a".into(),
            black: "b \"x\"".into(),
            fen: "4k4/9/9/9/9/9/9/9/9/3K5 b".into(),
            opening_plies: 1,
            moves: vec!["e9e8".into(), "d0d1".into(), "e8e9".into()],
            winner: None,
            reason: "repetition".into(),
            detail: "draw by repetition".into(),
            time_control: "nodes=100".into(),
            first_to_move: Color::Black,
            first_move_number: 7,
        };
        let pgn = r.pgn("test");
        assert!(pgn.contains("[Black \"b \\\"x\\\"\"]\n"), "{pgn}");
        assert!(pgn.contains("[Result \"1/2-1/2\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 b\"]"), "{pgn}");
        assert!(pgn.contains("[Opening \"e9e8\"]"));
        assert!(pgn.ends_with("7... e9e8 {opening ends} 8. d0d1 e8e9 {draw by repetition} 1/2-1/2\n\n"), "{pgn}");
        assert_eq!(wrap("aa bb cc", 5), "aa bb\ncc");
    }
}
