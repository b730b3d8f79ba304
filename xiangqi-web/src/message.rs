//! The protocol's messages as types (`docs/serve-protocol.md`): what a client sends ([`Request`]) and what the
//! server answers ([`Response`], carried with the id of the message it answers in an [`Answer`]).
//!
//! On the wire every message is one JSON object whose `"type"` names the variant, in snake case (`load_record`,
//! `review_progress`). [`Answer::to_json`] writes an answer with its keys in alphabetical order, as the server has
//! always written them. A test reads the message tables of `docs/serve-protocol.md` and checks that they list
//! exactly the variants of both enums ([`Request::TYPES`], [`Response::TYPES`]).
//!
//! ```
//! use xiangqi_web::message::{Answer, Pgn, Request, Response};
//!
//! let request: Request = serde_json::from_str(r#"{"type":"validate","fen":"4k4/9/9/9/9/9/9/9/9/4K4 w"}"#).unwrap();
//! assert!(matches!(request, Request::Validate { .. }));
//! let answer = Answer { id: Some(3.into()), response: Response::Pgn(Pgn { text: "*".into() }) };
//! assert_eq!(answer.to_json(), r#"{"id":3,"text":"*","type":"pgn"}"#);
//! ```

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The start position's FEN, the default start of a [`LineArgs`].
fn start_fen() -> String {
    xiangqi_core::START_FEN.to_owned()
}

/// A message from the client.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Who the server is: answered by [`Response::Hello`].
    Hello {},
    /// The position after a line: answered by [`Response::State`].
    State(LineArgs),
    /// A search: [`Response::Info`] reports, then [`Response::Bestmove`].
    Go(GoArgs),
    /// Stops the search of the message's id (or every search of the session).
    Stop {},
    /// Reads a game record: answered by [`Response::Record`].
    LoadRecord(LoadArgs),
    /// Writes a line as PGN: answered by [`Response::Pgn`].
    ExportPgn(ExportArgs),
    /// Evaluates every position of a line: [`Response::ReviewProgress`] reports, then [`Response::Review`].
    Review(ReviewArgs),
    /// Records the tree of one search: answered by [`Response::Watch`].
    Watch(WatchArgs),
    /// Records one search with its line-level trace: answered by [`Response::Trace`].
    Trace(TraceArgs),
    /// Node counts and values of several variants at depths 1 to `depth`: answered by [`Response::Compare`].
    Compare(CompareArgs),
    /// Checks a FEN: answered by [`Response::State`] of that position.
    Validate {
        /// The position.
        fen: String,
    },
}

impl Request {
    /// The `type` of every request, in the enum's order.
    pub const TYPES: &'static [&'static str] = &[
        "hello",
        "state",
        "go",
        "stop",
        "load_record",
        "export_pgn",
        "review",
        "watch",
        "trace",
        "compare",
        "validate",
    ];
}

/// A position: a start and UCI moves from it.
#[derive(Debug, Clone, Deserialize)]
pub struct LineArgs {
    /// The start's FEN (default: the start position).
    #[serde(default = "start_fen")]
    pub fen: String,
    /// UCI moves from the start.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// Both players' clocks, in milliseconds.
#[derive(Debug, Clone, Deserialize)]
pub struct ClockArgs {
    /// Red's time left.
    pub red_ms: u64,
    /// Black's time left.
    pub black_ms: u64,
    /// Red's increment a move.
    #[serde(default)]
    pub red_inc_ms: u64,
    /// Black's increment a move.
    #[serde(default)]
    pub black_inc_ms: u64,
}

/// The fields of a `go`.
#[derive(Debug, Clone, Deserialize)]
pub struct GoArgs {
    /// The position searched.
    #[serde(flatten)]
    pub line: LineArgs,
    /// `play` or `analyse` (the default).
    pub purpose: Option<String>,
    /// Milliseconds to search.
    pub movetime: Option<u64>,
    /// Nodes to search.
    pub nodes: Option<u64>,
    /// Plies to search.
    pub depth: Option<u32>,
    /// The players' clocks (the side to move's is used).
    pub clock: Option<ClockArgs>,
    /// Search until stopped.
    #[serde(default)]
    pub infinite: bool,
    /// Lines to report (analysis).
    pub multipv: Option<u32>,
    /// The playing level, 1 to 10 (`play` only; 10, the default, is full strength): the engine's `Skill Level`
    /// ([`xiangqi_search::skill`]).
    pub level: Option<u32>,
}

/// The fields of a `load_record`: the text or the file's bytes.
#[derive(Debug, Clone, Deserialize)]
pub struct LoadArgs {
    /// PGN text.
    pub text: Option<String>,
    /// The file's bytes in base64.
    pub base64: Option<String>,
}

/// The fields of an `export_pgn`.
#[derive(Debug, Clone, Deserialize)]
pub struct ExportArgs {
    /// The game.
    #[serde(flatten)]
    pub line: LineArgs,
    /// PGN tags (string or number values).
    #[serde(default)]
    pub tags: BTreeMap<String, Value>,
    /// `chinese` (the default), `wxf`, `iccs` or `uci`.
    pub notation: Option<String>,
    /// The result tag.
    pub result: Option<String>,
    /// Arrows and circles by ply (the key a number: `"0"` the start position, `"n"` after the n-th move), as
    /// lichess's codes (`Gh2e2`, `Ge4`): written as `[%cal ...] [%csl ...]` comments.
    #[serde(default)]
    pub shapes: BTreeMap<String, Vec<String>>,
}

/// The fields of a `review`.
#[derive(Debug, Clone, Deserialize)]
pub struct ReviewArgs {
    /// The game.
    #[serde(flatten)]
    pub line: LineArgs,
    /// Milliseconds a position.
    pub movetime: Option<u64>,
    /// Plies a position.
    pub depth: Option<u32>,
}

/// The fields of a `watch`.
#[derive(Debug, Clone, Deserialize)]
pub struct WatchArgs {
    /// A synthetic tree (`xiangqi tree --synthetic` syntax); without it, the line's position.
    pub synthetic: Option<String>,
    /// The position (when there is no synthetic tree).
    #[serde(flatten)]
    pub line: LineArgs,
    /// Plies to search.
    pub depth: Option<u32>,
    /// The variant (default `alphabeta`).
    pub variant: Option<String>,
    /// The most nodes sent.
    pub max_nodes: Option<usize>,
}

/// The fields of a `trace`: those of a `watch`, and the most steps sent.
#[derive(Debug, Clone, Deserialize)]
pub struct TraceArgs {
    /// The tree or position searched, the depth, the variant and the most nodes sent, as for `watch`.
    #[serde(flatten)]
    pub watch: WatchArgs,
    /// The most steps sent.
    pub max_steps: Option<usize>,
}

/// The fields of a `compare`.
#[derive(Debug, Clone, Deserialize)]
pub struct CompareArgs {
    /// The position.
    #[serde(flatten)]
    pub line: LineArgs,
    /// The variants (1 to 12 of them).
    pub variants: Vec<String>,
    /// The deepest search (1 to 4; default 4): each variant searches every depth from 1.
    pub depth: Option<u32>,
}

/// A message from the server, with the id of the client's message it answers (none when it could not be read).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The id of the message answered (a number the client chose).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Value>,
    /// The answer.
    #[serde(flatten)]
    pub response: Response,
}

impl Answer {
    /// The answer as the JSON text sent, its keys in alphabetical order at every level.
    pub fn to_json(&self) -> String {
        // Through a `Value`, whose maps are sorted: the order the server's answers have always had.
        serde_json::to_value(self).map_or_else(|e| format!(r#"{{"type":"error","message":"{e}"}}"#), |v| v.to_string())
    }
}

/// What the server sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Response {
    /// The server's version and engine.
    Hello(Hello),
    /// A position and its legal moves.
    State(Box<State>),
    /// A completed iteration of a search.
    Info(Info),
    /// A search's result.
    Bestmove(Bestmove),
    /// The games of a record.
    Record(Record),
    /// A game as PGN.
    Pgn(Pgn),
    /// A review's progress.
    ReviewProgress(ReviewProgress),
    /// A review's result.
    Review(Review),
    /// A recorded search tree.
    Watch(Box<Watch>),
    /// A recorded search tree with its line-level trace, the variant's pseudocode and why each move was pruned.
    Trace(Box<Trace>),
    /// Node counts and values of several variants.
    Compare(Compare),
    /// Why a message could not be answered.
    Error(Error),
}

impl Response {
    /// The `type` of every response, in the enum's order.
    pub const TYPES: &'static [&'static str] = &[
        "hello",
        "state",
        "info",
        "bestmove",
        "record",
        "pgn",
        "review_progress",
        "review",
        "watch",
        "trace",
        "compare",
        "error",
    ];

    /// An `error` saying `message`.
    pub fn error(message: impl Into<String>) -> Response {
        Response::Error(Error { message: message.into() })
    }
}

/// The `hello` answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hello {
    /// The server's version.
    pub version: String,
    /// The evaluator's description.
    pub engine: String,
    /// Searches at once over all sessions.
    pub max_searches: usize,
    /// The playing levels, 1 to 10, with their measured Elo relative to level 10
    /// ([`xiangqi_search::skill::LEVEL_ELO`]).
    pub levels: Vec<LevelElo>,
    /// The longest search a request may ask for, in milliseconds (`xiangqi serve --max-movetime`), none when
    /// uncapped.
    pub max_movetime_ms: Option<u64>,
    /// The most nodes a request's search may take (`xiangqi serve --max-nodes`), none when uncapped.
    pub max_nodes: Option<u64>,
}

/// The operator's caps that shortened a request (`xiangqi serve --max-movetime`, `--max-nodes`): each field is
/// the cap applied, absent when that cap did not change the request.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clamped {
    /// The search's time was cut to this many milliseconds (a longer `movetime`, a clock, a depth or an
    /// infinite search).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movetime_ms: Option<u64>,
    /// The search's nodes were cut to this many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
}

impl Clamped {
    /// Whether no cap changed the request.
    pub fn is_empty(&self) -> bool {
        self.movetime_ms.is_none() && self.nodes.is_none()
    }
}

/// One playing level and its strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelElo {
    /// The level, 1 (weakest) to 10 (full strength).
    pub level: u8,
    /// Its Elo relative to level 10, as measured in games (0 for level 10).
    pub elo: i32,
}

/// The opening a line has reached ([`xiangqi_core::record::openings`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningName {
    /// The name in Chinese.
    pub chinese: String,
    /// The name in English.
    pub english: String,
    /// The ply (from the line's start) of the position that named it.
    pub ply: usize,
}

/// A move in every notation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notated {
    /// `h2e2`.
    pub uci: String,
    /// `H2-E2`.
    pub iccs: String,
    /// `C2.5`.
    pub wxf: String,
    /// `炮二平五`.
    pub chinese: String,
}

/// A score from the side to move's view: `{"cp": 35}` or `{"mate": 3}` (moves, negative when mated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreValue {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: mated).
    Mate(i32),
}

/// A finished game's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEnd {
    /// `red`, `black`, or none for a draw.
    pub winner: Option<String>,
    /// The rule that ended the game (`checkmate`, `perpetual chase`, ...).
    pub rule: String,
    /// A sentence naming what decided it.
    pub detail: String,
}

/// The `state` answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The current position.
    pub fen: String,
    /// `red` or `black`.
    pub turn: String,
    /// Legal destinations by origin square (empty once the game is over).
    pub legal: BTreeMap<String, Vec<String>>,
    /// The line's moves played, notated.
    pub moves: Vec<Notated>,
    /// The checked king's square.
    pub check: Option<String>,
    /// The last move played.
    pub last: Option<String>,
    /// The game's end, if it is over.
    pub result: Option<GameEnd>,
    /// Moves of the line after the game ended (not played).
    pub unplayed: usize,
    /// The opening the line has reached (its deepest named position), if the table names one.
    pub opening: Option<OpeningName>,
}

/// One line of an `info` report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PvLine {
    /// Its rank, from 1.
    pub multipv: usize,
    /// Its score.
    pub score: ScoreValue,
    /// Its moves.
    pub pv: Vec<Notated>,
}

/// The `info` report of a completed iteration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Info {
    /// The iteration's depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes so far.
    pub nodes: u64,
    /// Nodes a second.
    pub nps: u64,
    /// Milliseconds so far.
    pub time_ms: u64,
    /// The table's fill, per mille.
    pub hashfull: u32,
    /// The lines.
    pub lines: Vec<PvLine>,
}

/// The `bestmove` of a finished search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bestmove {
    /// The move, none when there is no legal move.
    #[serde(rename = "move")]
    pub best: Option<Notated>,
    /// Its score.
    pub score: Option<ScoreValue>,
    /// The depth completed.
    pub depth: u32,
    /// The search's nodes.
    pub nodes: u64,
    /// The search's milliseconds.
    pub time_ms: u64,
    /// Nodes a second.
    pub nps: u64,
    /// The operator's caps that shortened the search, absent when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clamped: Option<Clamped>,
}

/// A game of a record, or why it cannot be read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RecordGame {
    /// A game read.
    Game {
        /// Its tags.
        tags: BTreeMap<String, String>,
        /// Its start.
        fen: String,
        /// Its moves, UCI.
        moves: Vec<String>,
        /// Its result (`1-0`, ...).
        result: Option<String>,
        /// The arrows and circles of its comments by ply (`0`: before the first move, `n`: after the n-th move),
        /// as lichess's codes (`Gh2e2`, `Ge4`); only plies that have some.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        shapes: BTreeMap<usize, Vec<String>>,
    },
    /// A game that cannot be read.
    Error {
        /// Where and why.
        error: String,
    },
}

/// The `record` answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The file's format (`PGN (GBK)`, `XQF version 18`, ...).
    pub format: String,
    /// The moves' notation (none for XQF).
    pub notation: Option<String>,
    /// The games.
    pub games: Vec<RecordGame>,
}

/// The `pgn` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pgn {
    /// The PGN text.
    pub text: String,
}

/// A `review_progress` report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewProgress {
    /// Positions evaluated.
    pub done: usize,
    /// Positions in all.
    pub total: usize,
}

/// A move of a review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewMove {
    /// Its ply, from 1.
    pub ply: usize,
    /// The mover's loss, capped at ±1000.
    pub loss: i32,
    /// `?!`, `?`, `??` or none.
    pub mark: Option<String>,
    /// The engine's move in the position before it.
    pub best: Option<Notated>,
}

/// The `review` answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// A score per position, Red's view.
    pub evals: Vec<ScoreValue>,
    /// A capped centipawn value per position, Red's view.
    pub capped: Vec<i32>,
    /// A row per move.
    pub moves: Vec<ReviewMove>,
    /// The operator's caps that shortened each position's search, absent when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clamped: Option<Clamped>,
}

/// What the search did at a recorded node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WatchState {
    /// The search entered the node.
    Searched {
        /// Always false.
        pruned: bool,
        /// Plies left.
        depth: i32,
        /// Alpha on entry (side to move's view).
        alpha: i32,
        /// Beta on entry.
        beta: i32,
        /// The value returned.
        value: Option<i32>,
        /// `root`, `main`, `zero-window`, `re-search`, `reduced`, `null`, `quiescence`.
        kind: String,
        /// `value`, `beta-cutoff`, `null-cutoff`, `stand-pat`, `table-hit`, `rule`, `pruned`, `no-moves`.
        exit: Option<String>,
    },
    /// The move was never searched.
    Pruned {
        /// Always true.
        pruned: bool,
        /// `cutoff`, `futility` or `beneath`.
        reason: String,
        /// A synthetic leaf's value.
        #[serde(rename = "static")]
        static_value: Option<i32>,
    },
}

/// A node of a recorded tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchNode {
    /// Its index.
    pub id: usize,
    /// Its parent's index.
    pub parent: Option<usize>,
    /// Plies from the root.
    pub ply: usize,
    /// The move that led here (none at the root; `#0` for a synthetic child, `null`, `again`).
    #[serde(rename = "move")]
    pub edge: Option<String>,
    /// Descendants not sent.
    pub omitted: u64,
    /// Searched or pruned.
    #[serde(flatten)]
    pub state: WatchState,
}

/// The `watch` answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Watch {
    /// The variant's canonical name.
    pub variant: String,
    /// The depth searched.
    pub depth: u32,
    /// The root's value.
    pub value: i32,
    /// The best move (`#1`, `h2e2`).
    pub best: Option<String>,
    /// The synthetic tree searched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub synthetic: Option<String>,
    /// The position searched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The first nodes in search order.
    pub nodes: Vec<WatchNode>,
    /// Node ids in visit order.
    pub order: Vec<usize>,
    /// Nodes the search entered.
    pub searched: usize,
    /// Moves it cut off.
    pub pruned: usize,
    /// The search's own node count.
    pub search_nodes: u64,
    /// Nodes recorded.
    pub total: u64,
    /// Nodes sent.
    pub sent: usize,
}

/// The `error` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Error {
    /// What is wrong.
    pub message: String,
}

/// One executed line of the pseudocode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The line's label (`enter`, `returned`, `cutoff`, ...: the "Trace labels" of the document).
    pub label: String,
    /// The recorded node that executed it (an index into the answer's `nodes`; none if not kept).
    pub node: Option<usize>,
    /// Plies from the root.
    pub ply: usize,
    /// Plies left.
    pub depth: i32,
    /// The function's alpha.
    pub alpha: i32,
    /// The function's beta.
    pub beta: i32,
    /// The value of the line (a child's, a leaf's, the one returned).
    pub value: Option<i32>,
    /// The best value so far.
    pub best: Option<i32>,
    /// The move being tried (`#0`, `h2e2`, `null`).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// Whether the side to move is the first player (Red, MAX).
    pub first: bool,
}

/// A line of pseudocode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeLine {
    /// Indentation, in levels.
    pub indent: u8,
    /// The text.
    pub text: String,
    /// The label its steps name, if any.
    pub label: Option<String>,
}

/// A function of the pseudocode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeFunction {
    /// Its name (`negamax`, `two_sided`, `search_child`, ...).
    pub name: String,
    /// Its lines.
    pub lines: Vec<CodeLine>,
}

/// Why a recorded move was never searched, in parts (for a translation) and as the English sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prune {
    /// The pruned node.
    pub id: usize,
    /// `cutoff`, `beneath` (inside a pruned subtree) or `futility`.
    pub kind: String,
    /// The node where it was decided (the cutoff's node, the pruned ancestor, the futility's node).
    pub at: usize,
    /// That node's name (`root`, or the moves from the root).
    pub at_name: String,
    /// The child whose value caused the cutoff.
    pub child: Option<usize>,
    /// The child's move.
    pub child_move: Option<String>,
    /// The child's value, from the node's view.
    pub value: Option<i32>,
    /// The node's alpha after the child.
    pub alpha: Option<i32>,
    /// The node's beta after the child.
    pub beta: Option<i32>,
    /// Whether the first player (Red) moves at the node.
    pub first_to_move: Option<bool>,
    /// Whether the child lowered beta (a MIN node of the two-sided forms) rather than raised alpha.
    pub lowered_beta: Option<bool>,
    /// The sentence, in English.
    pub text: String,
}

/// The `trace` answer: the recorded tree (as `watch` sends it), the steps, the listing and the prunes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// The tree and the counts.
    #[serde(flatten)]
    pub tree: Watch,
    /// The first steps.
    pub steps: Vec<Step>,
    /// Steps recorded (of which the first are sent).
    pub steps_total: u64,
    /// The variant's pseudocode.
    pub listing: Vec<CodeFunction>,
    /// Why each move sent that was never searched was pruned.
    pub prunes: Vec<Prune>,
}

/// One search of a `compare`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompareRow {
    /// The variant as asked.
    pub variant: String,
    /// Its canonical name.
    pub canonical: String,
    /// The depth searched.
    pub depth: u32,
    /// The search's nodes (as `xiangqi compare` counts them).
    pub nodes: u64,
    /// The root's value, for the side to move.
    pub score: i32,
    /// The move chosen.
    pub best: Option<String>,
}

/// The `compare` answer: a row per variant and depth, by depth then in the order asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Compare {
    /// The position searched.
    pub fen: String,
    /// The deepest search.
    pub depth: u32,
    /// The searches.
    pub rows: Vec<CompareRow>,
}
