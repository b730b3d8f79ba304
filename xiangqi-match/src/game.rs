//! One finished game of a match: who played, how it ended, and its record as PGN.
//!
//! The record is written by `xiangqi_core::record` (one PGN writer for the workspace), moves in UCI coordinates
//! with ranks 0-9, with the match's tags:
//!
//! ```text
//! [Event "xiangqi match"]
//! [Round "3"]
//! [Red "engine"]
//! [Black "engine+no-lmr"]
//! [Result "1-0"]
//! [Game "Chinese Chess"]
//! [FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]
//! [Format "UCI"]
//! [Opening "h2e2 h9g7"]
//! [PlyCount "85"]
//! [Termination "checkmate"]
//! [TimeControl "nodes=2000"]
//!
//! 1. h2e2 h9g7 {opening ends}
//! 2. h0g2 ...
//! 43. e8e9 {red wins by checkmate} 1-0
//! ```
//!
//! The `FEN` tag is the position the game starts from; the opening's moves are the first moves of the record (a
//! comment marks where the engines took over). `Termination` is the reason the game ended by ([`Termination`]),
//! and the comment after the last move says it in a sentence.

use crate::clock::TimeControl;
use std::cmp::Ordering;
use std::fmt;
use xiangqi_core::record::{write_pgn, GameRecord, Notation, RecordMove};
use xiangqi_core::rules::Reason;
use xiangqi_core::{Color, Move, Position};

/// How a game of a match ended.
///
/// Ordered by name ([`Termination::as_str`]), as the summary lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// A rule of the game ended it (`xiangqi_core::rules`): mate, stalemate, a judged repetition, the 60-move rule,
    /// insufficient material.
    Rules(Reason),
    /// An engine played an illegal move, or broke the protocol: it loses.
    IllegalMove,
    /// An engine answered `bestmove (none)` (or an empty `bestmove`) in a position with legal moves: it loses.
    NoMove,
    /// An engine answered UCCI `nobestmove` in a position with legal moves: it claims that by its own rules the
    /// game is drawn (ElephantEye does so for a repetition or its move limit). Counted as a draw, or as that
    /// engine's loss with [`NoBestMove::Forfeit`](crate::NoBestMove::Forfeit).
    DrawClaim,
    /// An engine's process exited (or could not be started): it loses.
    Crash,
    /// An engine did not answer in time: it loses.
    Timeout,
    /// An engine closed its output while its process still ran: it loses.
    Disconnect,
    /// An engine resigned (UCCI `bestmove ... resign`).
    Resign,
    /// Resign adjudication by score.
    AdjudicationResign,
    /// Draw adjudication by score.
    AdjudicationDraw,
}

impl Termination {
    /// The name the summary and the PGN `Termination` tag use: a rule's name (`checkmate`, `repetition`, ...), or
    /// `illegal-move`, `no-move`, `draw-claim`, `crash`, `timeout`, `disconnect`, `resign`, `adjudication-resign`,
    /// `adjudication-draw`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Rules(r) => r.as_str(),
            Termination::IllegalMove => "illegal-move",
            Termination::NoMove => "no-move",
            Termination::DrawClaim => "draw-claim",
            Termination::Crash => "crash",
            Termination::Timeout => "timeout",
            Termination::Disconnect => "disconnect",
            Termination::Resign => "resign",
            Termination::AdjudicationResign => "adjudication-resign",
            Termination::AdjudicationDraw => "adjudication-draw",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Ord for Termination {
    fn cmp(&self, other: &Termination) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Termination {
    fn partial_cmp(&self, other: &Termination) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// One finished game, as the match recorded it.
#[derive(Debug, Clone)]
pub struct PlayedGame {
    /// The game's number in the match, from 1.
    pub round: usize,
    /// The engine with Red.
    pub red: String,
    /// The engine with Black.
    pub black: String,
    /// The position the game started from.
    pub start: Position,
    /// How many of the moves were the opening's.
    pub opening_plies: usize,
    /// Every move, opening moves first.
    pub moves: Vec<Move>,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// How the game ended.
    pub termination: Termination,
    /// A sentence saying how it ended.
    pub detail: String,
    /// The time control.
    pub time_control: TimeControl,
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

    /// The points of `side`: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn points(&self, side: Color) -> f64 {
        match self.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    /// The game as a record of `xiangqi_core::record`, with the match's tags (see the module documentation).
    pub fn record(&self, event: &str) -> GameRecord {
        let mut record = GameRecord::new(self.start.clone());
        let opening: Vec<String> = self.moves[..self.opening_plies].iter().map(Move::to_string).collect();
        let tags = [
            ("Game", "Chinese Chess".to_owned()),
            ("Event", event.to_owned()),
            ("Round", self.round.to_string()),
            ("Red", self.red.clone()),
            ("Black", self.black.clone()),
            ("Result", self.result_text().to_owned()),
            ("FEN", self.start.fen()),
            ("Format", Notation::Uci.name().to_owned()),
            ("Opening", opening.join(" ")),
            ("PlyCount", self.moves.len().to_string()),
            ("Termination", self.termination.as_str().to_owned()),
            ("TimeControl", self.time_control.to_string()),
        ];
        record.tags = tags.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        record.moves = self.moves.iter().map(|&m| RecordMove::new(m)).collect();
        if self.opening_plies > 0 {
            record.moves[self.opening_plies - 1].comments.push("opening ends".to_owned());
        }
        match record.moves.last_mut() {
            Some(last) => last.comments.push(self.detail.clone()),
            None => record.intro.push(self.detail.clone()),
        }
        record.result = Some(self.result_text().to_owned());
        record
    }

    /// The game in PGN form (UCI coordinates), ending with a blank line so that games can be appended one after
    /// another to a file.
    pub fn pgn(&self, event: &str) -> String {
        let mut text = write_pgn(std::slice::from_ref(&self.record(event)), Notation::Uci);
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::record::{read_pgn, ReadOptions};

    #[test]
    fn the_record_has_the_match_tags_and_reads_back() {
        let start = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 7").unwrap();
        let moves: Vec<Move> = ["e9e8", "d0d1", "e8e9"].iter().map(|m| m.parse().unwrap()).collect();
        let game = PlayedGame {
            round: 2,
            red: "a".into(),
            black: "b \"x\"".into(),
            start: start.clone(),
            opening_plies: 1,
            moves: moves.clone(),
            winner: None,
            termination: Termination::DrawClaim,
            detail: "b claims a draw {nobestmove}".into(),
            time_control: TimeControl::Nodes(100),
        };
        let pgn = game.pgn("test");
        assert!(pgn.contains("[Black \"b \\\"x\\\"\"]\n"), "{pgn}");
        assert!(
            pgn.contains(
                "[Result \"1/2-1/2\"]\n[Game \"Chinese Chess\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 7\"]\n"
            ),
            "{pgn}"
        );
        assert!(pgn.contains("[Opening \"e9e8\"]\n[PlyCount \"3\"]\n[Termination \"draw-claim\"]\n"), "{pgn}");
        assert!(pgn.contains("[TimeControl \"nodes=100\"]\n"), "{pgn}");
        assert!(
            pgn.ends_with("7... e9e8 {opening ends}\n8. d0d1 e8e9 {b claims a draw {nobestmove)} 1/2-1/2\n\n"),
            "{pgn}"
        );
        // Read back by the same module that wrote it: the tags, the moves and the result.
        let file = read_pgn(format!("{pgn}{pgn}").as_bytes(), &ReadOptions::default());
        assert_eq!(file.games.len(), 2);
        let back = file.games[0].as_ref().unwrap();
        assert_eq!(back.start, start);
        assert_eq!(back.main_line(), moves);
        assert_eq!(back.tag("Termination"), Some("draw-claim"));
        assert_eq!(back.tag("Round"), Some("2"));
        assert_eq!(back.result.as_deref(), Some("1/2-1/2"));
    }

    #[test]
    fn a_game_without_moves_says_how_it_ended_before_the_result() {
        let game = PlayedGame {
            round: 1,
            red: "a".into(),
            black: "b".into(),
            start: Position::startpos(),
            opening_plies: 0,
            moves: Vec::new(),
            winner: Some(Color::Black),
            termination: Termination::Crash,
            detail: "a exited".into(),
            time_control: TimeControl::Depth(3),
        };
        assert!(game.pgn("e").ends_with("[Opening \"\"]\n[PlyCount \"0\"]\n[Termination \"crash\"]\n[TimeControl \"depth=3\"]\n\n{a exited}\n0-1\n\n"));
        assert_eq!((game.points(Color::Red), game.points(Color::Black)), (0.0, 1.0));
    }

    #[test]
    fn terminations_are_ordered_by_name() {
        let mut all = [
            Termination::Timeout,
            Termination::Rules(Reason::Checkmate),
            Termination::DrawClaim,
            Termination::Crash,
            Termination::Rules(Reason::Repetition),
        ];
        all.sort();
        let names: Vec<&str> = all.iter().map(|t| t.as_str()).collect();
        assert_eq!(names, ["checkmate", "crash", "draw-claim", "repetition", "timeout"]);
    }
}
