//! [`Game`]: a game record (a start position and the moves played) that knows whether the game is over, who won
//! and by which rule, as a referee would say it. The rules themselves are in [`crate::rules`].

use crate::fen::START_FEN;
use crate::moves::Move;
use crate::position::{Error, MoveError, Position, Validation};
use crate::rules::{self, JudgeOptions, Judgement, MoveLimit, Reason, Ruling, Verdict, Violation};
use crate::types::Color;
use std::fmt;

/// How a finished game ended: who won (or a draw), and by which rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// The rule that decided.
    pub reason: Reason,
    /// The ruling as the rules gave it, seen from the side to move in the final position (with the repetition
    /// cycle, when one decided).
    pub ruling: Ruling,
}

impl GameResult {
    fn from_ruling(ruling: Ruling, side_to_move: Color) -> GameResult {
        let winner = match ruling.verdict {
            Verdict::Win => Some(side_to_move),
            Verdict::Loss => Some(!side_to_move),
            Verdict::Draw => None,
        };
        GameResult { winner, reason: ruling.reason, ruling }
    }

    /// Whether the game is drawn.
    pub fn is_draw(&self) -> bool {
        self.winner.is_none()
    }

    /// `red`, `black` or `draw`: who won the game, in one word; `ongoing` when it is not over (`None`).
    pub fn word(result: Option<GameResult>) -> &'static str {
        match result.map(|r| r.winner) {
            None => "ongoing",
            Some(Some(Color::Red)) => "red",
            Some(Some(Color::Black)) => "black",
            Some(None) => "draw",
        }
    }

    /// One sentence saying what decided the game, as a referee would explain it: who is mated or stalemated, who
    /// checked or chased perpetually (with the cycle's length, how often the position occurred and the squares of
    /// the chased pieces), why a repetition is drawn, or which rule drew the game.
    ///
    /// ```
    /// use xiangqi_core::rules::JudgeOptions;
    /// use xiangqi_core::{Game, GameResult, Position};
    ///
    /// let start = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
    /// let moves = "a0a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9 a8a9".split(' ');
    /// let game = Game::replay(&start, moves, JudgeOptions::default()).unwrap().game;
    /// let result = game.result().unwrap();
    /// assert_eq!(GameResult::word(Some(result)), "black");
    /// assert_eq!(result.detail(), "red checked perpetually (a cycle of 8 plies; the position occurred 3 times)");
    /// ```
    pub fn detail(&self) -> String {
        let loser = self.winner.map(|w| !w);
        let cycle = self.ruling.cycle;
        let cycle_text = cycle
            .map(|c| format!(" (a cycle of {} plies; the position occurred {} times)", c.plies, c.occurrences))
            .unwrap_or_default();
        match (self.reason, loser) {
            (Reason::Checkmate, Some(l)) => format!("{l} is checkmated"),
            (Reason::Stalemate, Some(l)) => format!("{l} has no legal move (stalemate loses)"),
            (Reason::PerpetualCheck, Some(l)) => format!("{l} checked perpetually{cycle_text}"),
            (Reason::PerpetualChase, Some(l)) => {
                let squares = cycle
                    .map(|c| c.chased[l.index()].into_iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" "))
                    .unwrap_or_default();
                format!("{l} chased perpetually the piece on {squares}{cycle_text}")
            }
            (Reason::Repetition, _) => {
                let both = |v: Violation| cycle.is_some_and(|c| c.violations.iter().all(|&x| x == v));
                let why = if both(Violation::PerpetualCheck) {
                    "both sides checked perpetually"
                } else if both(Violation::PerpetualChase) {
                    "both sides chased perpetually"
                } else {
                    "neither side violated the rules"
                };
                format!("repetition: {why}{cycle_text}")
            }
            (Reason::MoveLimit, _) => "120 plies without a capture (the 60-move rule)".to_string(),
            (Reason::InsufficientMaterial, _) => "neither side has the material to mate".to_string(),
            (reason, _) => reason.to_string(),
        }
    }
}

impl fmt::Display for GameResult {
    /// For example `red wins by perpetual-chase` or `draw by repetition`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins by {}", self.reason),
            None => write!(f, "draw by {}", self.reason),
        }
    }
}

/// Why a move could not be added to a [`Game`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The move is not legal (or not a move) in the current position.
    #[error("ply {ply}: {source}")]
    Illegal {
        /// The ply the move would have been (1 for the first move of the game).
        ply: usize,
        /// Why it is not legal.
        source: MoveError,
    },
    /// The game is already over.
    #[error("ply {ply}: the game is already over ({result})")]
    GameOver {
        /// The ply the move would have been.
        ply: usize,
        /// How the game ended.
        result: GameResult,
    },
}

/// A game replayed by [`Game::replay`]: the game as far as the rules let it go, and how many of the moves given
/// came after its end.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game: its result when it is over ([`Game::result`]), its plies and its final position.
    pub game: Game,
    /// The moves given after the rules ended the game, which were not played.
    pub unplayed: usize,
}

/// A move as [`Game::replay`] takes it: a [`Move`], or its text in UCI (`h2e2`) or ICCS (`H2-E2`), read in the
/// position it is played in.
pub trait ReplayMove {
    /// Plays the move in `game` ([`Game::push`] or [`Game::play`]).
    fn play_in(self, game: &mut Game) -> Result<(), PlayError>;
}

impl ReplayMove for Move {
    fn play_in(self, game: &mut Game) -> Result<(), PlayError> {
        game.push(self)
    }
}

impl ReplayMove for &str {
    fn play_in(self, game: &mut Game) -> Result<(), PlayError> {
        game.play(self).map(|_| ())
    }
}

/// A game record: a start position and the moves played from it, with the rules' verdict after every move.
///
/// The game is over when the side to move has no legal move (checkmate or stalemate: it loses), when a position
/// occurs for the third time and the rules judge the repetition (see [`crate::rules`]: perpetual check or chase
/// loses, otherwise a draw), when the 60-move counter reaches 120 plies ([`MoveLimit`]), or, if
/// [`JudgeOptions::material_draw`] is on (the default), when neither side has the material to mate. Further moves
/// are then refused with [`PlayError::GameOver`]. [`Game::undo`] takes moves back.
///
/// Bookkeeping (whether each position is in check, the 60-move counter) is done here, once per move, and never in
/// [`Position::make_move`].
///
/// ```
/// use xiangqi_core::{Color, Game, rules::Reason};
/// // Two red chariots: one holds rank 8, the other mates on rank 9.
/// let mut game = Game::from_fen("4k4/8R/9/9/9/9/9/9/R8/3K5 w").unwrap();
/// assert!(game.result().is_none());
/// game.play("a1a9").unwrap();
/// let result = game.result().unwrap();
/// assert_eq!(result.winner, Some(Color::Red));
/// assert_eq!(result.reason, Reason::Checkmate);
/// assert!(game.play("e9e8").is_err()); // the game is over
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    /// One entry per position of the game (index = ply): in check, and the 60-move counter.
    records: Vec<Record>,
    options: JudgeOptions,
    result: Option<GameResult>,
}

#[derive(Clone, Copy, Debug)]
struct Record {
    in_check: bool,
    limit: MoveLimit,
}

impl Game {
    /// A game from `start` (its current position; any history it has is not part of the game), with the default
    /// options. The start position itself may already be over (a mate, a stalemate, a material draw...).
    pub fn new(start: &Position) -> Game {
        Game::with_options(start, JudgeOptions::default())
    }

    /// A game from `start` with explicit options.
    pub fn with_options(start: &Position, options: JudgeOptions) -> Game {
        // A position that exists is always a valid lenient setup; fall back on a copy (with its history) otherwise.
        let start = Position::from_setup(&start.setup(), Validation::Lenient).unwrap_or_else(|_| start.clone());
        let limit = MoveLimit::new(start.halfmoves());
        let records = vec![Record { in_check: start.in_check(), limit }];
        let mut game = Game { pos: start.clone(), start, moves: Vec::new(), records, options, result: None };
        game.result = game.judge();
        game
    }

    /// A game from a FEN (checked strictly), with the default options.
    pub fn from_fen(fen: &str) -> Result<Game, Error> {
        Ok(Game::new(&Position::from_fen(fen)?))
    }

    /// A game from the start position.
    pub fn startpos() -> Game {
        Game::from_fen(START_FEN).expect("the start position is valid")
    }

    /// Replays `moves` from `start` and judges the game with `options`, as a referee would: the moves are played
    /// one by one until the rules end the game (mate, stalemate, a judged repetition, the 60-move rule, insufficient
    /// material); the moves given after the end are counted in [`Replay::unplayed`], not played. A move that is not
    /// legal is an error naming its ply ([`PlayError::Illegal`]).
    ///
    /// ```
    /// use xiangqi_core::rules::{JudgeOptions, Reason};
    /// use xiangqi_core::{Color, Game, PlayError, Position};
    ///
    /// // Red's chariot checks from a9 and a8 in turn while the black king steps d9-d8-d9: a perpetual check,
    /// // judged at the third occurrence of the position (ply 9); the last three moves are not played.
    /// let start = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
    /// let moves = "a0a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9";
    /// let replay = Game::replay(&start, moves.split_whitespace(), JudgeOptions::default()).unwrap();
    /// let result = replay.game.result().unwrap();
    /// assert_eq!((result.winner, result.reason), (Some(Color::Black), Reason::PerpetualCheck));
    /// assert_eq!((replay.game.plies(), replay.unplayed), (9, 3));
    ///
    /// // An illegal move is an error naming its ply.
    /// let e = Game::replay(&Position::startpos(), ["h2e2", "h9g7", "e2e9"], JudgeOptions::default()).unwrap_err();
    /// assert!(matches!(e, PlayError::Illegal { ply: 3, .. }));
    /// assert!(e.to_string().starts_with("ply 3: illegal move e2e9"), "{e}");
    /// ```
    pub fn replay<M: ReplayMove>(
        start: &Position,
        moves: impl IntoIterator<Item = M>,
        options: JudgeOptions,
    ) -> Result<Replay, PlayError> {
        let mut game = Game::with_options(start, options);
        let mut moves = moves.into_iter();
        while let Some(m) = moves.next() {
            if game.is_over() {
                return Ok(Replay { game, unplayed: 1 + moves.count() });
            }
            m.play_in(&mut game)?;
        }
        Ok(Replay { game, unplayed: 0 })
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position (its history holds the game's moves).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played, oldest first.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The number of plies played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The options the game is judged with.
    pub fn options(&self) -> JudgeOptions {
        self.options
    }

    /// The 60-move counter of the current position.
    pub fn move_limit(&self) -> MoveLimit {
        self.records.last().map_or(MoveLimit::default(), |r| r.limit)
    }

    /// How the game ended, or `None` while it goes on.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Parses a move (UCI `h2e2` or ICCS `H2-E2`) and plays it.
    pub fn play(&mut self, text: &str) -> Result<Move, PlayError> {
        let ply = self.plies() + 1;
        if let Some(result) = self.result {
            return Err(PlayError::GameOver { ply, result });
        }
        let m = self.pos.parse_move(text).map_err(|source| PlayError::Illegal { ply, source })?;
        self.push_unchecked(m);
        Ok(m)
    }

    /// Plays `m` after checking that it is legal and that the game is not over.
    pub fn push(&mut self, m: Move) -> Result<(), PlayError> {
        let ply = self.plies() + 1;
        if let Some(result) = self.result {
            return Err(PlayError::GameOver { ply, result });
        }
        self.pos.check_move(m).map_err(|source| PlayError::Illegal { ply, source })?;
        self.push_unchecked(m);
        Ok(())
    }

    fn push_unchecked(&mut self, m: Move) {
        let mover = self.pos.turn();
        let capture = self.pos.piece_at(m.to()).is_some();
        let before = *self.records.last().expect("a game has a record per position");
        self.pos.make_move(m);
        let in_check = self.pos.in_check();
        let limit = before.limit.after_move(mover, capture, in_check, before.in_check);
        self.records.push(Record { in_check, limit });
        self.moves.push(m);
        self.result = self.judge();
    }

    /// Takes back the last move, if any; the game is then judged as it was before that move.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.pos.unmake_move();
        self.records.pop();
        self.result = self.judge();
        Some(m)
    }

    /// The verdict on the current position.
    fn judge(&mut self) -> Option<GameResult> {
        let turn = self.pos.turn();
        if !self.pos.has_legal_move() {
            return Some(GameResult::from_ruling(rules::no_move_ruling(&self.pos), turn));
        }
        // At the root (ply 0) a repetition is judged at its third occurrence: a referee's view.
        let limit = self.move_limit();
        match rules::judge_with_limit(&mut self.pos, 0, limit, self.options) {
            Some(Judgement::Decided(ruling)) => Some(GameResult::from_ruling(ruling, turn)),
            Some(Judgement::Leaning(_)) | None => None,
        }
    }
}
