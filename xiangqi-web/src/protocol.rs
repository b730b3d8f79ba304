//! The WebSocket's JSON protocol (`docs/serve-protocol.md`): one [`Session`] per socket reads the client's
//! messages, answers them, and starts searches whose reports it forwards.
//!
//! Searches run on the engine's own threads ([`SearchEngine::go_with`], with a listener that forwards each report
//! into a tokio channel); reviews and recorded trees run on tokio's blocking threads. The session's task only
//! reads, answers and forwards, so it never blocks.

use crate::review::{self, ReviewStop};
use crate::{App, Config, MAX_UPLOAD};
use axum::extract::ws::{Message, WebSocket};
use base64::Engine as _;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use xiangqi_core::record::{read_record, write_pgn, GameRecord, Notation, ReadOptions, RecordMove};
use xiangqi_core::rules::{JudgeOptions, Reason};
use xiangqi_core::{Color, Game, GameResult, Move, PieceKind, Position, Replay, START_FEN};
use xiangqi_search::record::{Edge, PruneReason, Recorder, State as NodeState};
use xiangqi_search::synthetic::{Child, Tree, TreeEval};
use xiangqi_search::{
    Clock, Exit, GoMode, Info, Limits, Listener, NodeKind, RunSetup, Score, SearchEngine, SearchResult, Stopper,
    VariantConfig,
};

/// The most moves a line may have.
pub const MAX_LINE: usize = 4000;
/// The most nodes of a recorded tree sent in a `watch` answer (the first ones in search order).
pub const MAX_WATCH_NODES: usize = 20_000;
/// The deepest search of a real position that `watch` records.
pub const MAX_WATCH_DEPTH: u32 = 4;

/// How to stop one of the session's searches.
enum StopHandle {
    /// A `go`.
    Search(Stopper),
    /// A `review`. (A `watch` is not registered: bounded by its depth, it ends by itself.)
    Review(Arc<ReviewStop>),
}

impl StopHandle {
    fn stop(&self) {
        match self {
            StopHandle::Search(s) => s.stop(),
            StopHandle::Review(r) => r.stop(),
        }
    }
}

/// A running search of the session: the id of the message that started it.
struct Running {
    id: Option<Value>,
    stop: StopHandle,
}

type Searches = Arc<Mutex<HashMap<u64, Running>>>;

/// The engine of a search.
type Engine = SearchEngine<xiangqi_eval::EvalChoice>;

/// Engines of the session's finished searches, kept for its next ones: their tables are faulted in already and
/// hold what earlier searches of the game found (as a UCI engine keeps them from one `go` to the next).
type Idle = Arc<Mutex<Vec<Engine>>>;

/// The most idle engines a session keeps.
const MAX_IDLE: usize = 2;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One client's session: answers its messages and runs its searches, writing every message for the client (JSON
/// text) into a channel. Dropping it stops its searches (a `watch` ends by itself).
pub struct Session {
    app: Arc<App>,
    out: UnboundedSender<String>,
    searches: Searches,
    idle: Idle,
    next: u64,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").field("searches", &lock(&self.searches).len()).finish_non_exhaustive()
    }
}

/// Runs the session of one socket until the client closes it, then stops its searches.
pub async fn run(mut socket: WebSocket, app: Arc<App>) {
    let (tx, mut rx) = unbounded_channel();
    let mut session = Session::new(app, tx);
    loop {
        tokio::select! {
            msg = socket.recv() => match msg {
                Some(Ok(Message::Text(text))) => session.handle_text(text.as_str()),
                Some(Ok(Message::Binary(_))) => session.error(None, "binary frames are not part of the protocol: send JSON text"),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
            Some(text) = rx.recv() => {
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
        }
    }
    session.stop_all();
}

/// The messages a client sends.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Request {
    Hello {},
    State(LineArgs),
    Go(GoArgs),
    Stop {},
    LoadRecord(LoadArgs),
    ExportPgn(ExportArgs),
    Review(ReviewArgs),
    Watch(WatchArgs),
    Validate { fen: String },
}

fn start_fen() -> String {
    START_FEN.to_owned()
}

/// A position: a start and UCI moves from it.
#[derive(Deserialize)]
struct LineArgs {
    #[serde(default = "start_fen")]
    fen: String,
    #[serde(default)]
    moves: Vec<String>,
}

#[derive(Deserialize)]
struct ClockArgs {
    red_ms: u64,
    black_ms: u64,
    #[serde(default)]
    red_inc_ms: u64,
    #[serde(default)]
    black_inc_ms: u64,
}

#[derive(Deserialize)]
struct GoArgs {
    #[serde(flatten)]
    line: LineArgs,
    purpose: Option<String>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    depth: Option<u32>,
    clock: Option<ClockArgs>,
    #[serde(default)]
    infinite: bool,
    multipv: Option<u32>,
}

#[derive(Deserialize)]
struct LoadArgs {
    text: Option<String>,
    base64: Option<String>,
}

#[derive(Deserialize)]
struct ExportArgs {
    #[serde(flatten)]
    line: LineArgs,
    #[serde(default)]
    tags: BTreeMap<String, Value>,
    notation: Option<String>,
    result: Option<String>,
}

#[derive(Deserialize)]
struct ReviewArgs {
    #[serde(flatten)]
    line: LineArgs,
    movetime: Option<u64>,
    depth: Option<u32>,
}

#[derive(Deserialize)]
struct WatchArgs {
    synthetic: Option<String>,
    #[serde(flatten)]
    line: LineArgs,
    depth: Option<u32>,
    variant: Option<String>,
    max_nodes: Option<usize>,
}

/// What a search's listener forwards to the session's task.
enum Event {
    Info(Info<Move>),
    Done(SearchResult<Move>),
}

/// The listener of a `go`: forwards into the channel the session's task reads.
struct Forward(UnboundedSender<Event>);

impl Listener<Move> for Forward {
    fn iteration(&mut self, info: &Info<Move>) {
        let _ = self.0.send(Event::Info(info.clone()));
    }

    fn finished(&mut self, result: &SearchResult<Move>) {
        let _ = self.0.send(Event::Done(result.clone()));
    }
}

/// Checks that `value`, named `name`, lies in `min..=max`.
fn in_range<T: PartialOrd + std::fmt::Display>(name: &str, value: T, min: T, max: T) -> Result<T, String> {
    if value < min || value > max {
        return Err(format!("{name} must be from {min} to {max}, not {value}"));
    }
    Ok(value)
}

impl Session {
    /// A session of `app` writing its messages into `out`.
    pub fn new(app: Arc<App>, out: UnboundedSender<String>) -> Session {
        Session { app, out, searches: Arc::default(), idle: Arc::default(), next: 0 }
    }

    /// A session outside a server (for tests and examples): its messages come out of the receiver.
    pub fn for_test(config: Config) -> (Session, UnboundedReceiver<String>) {
        let (tx, rx) = unbounded_channel();
        (Session::new(Arc::new(App::new(config, 0)), tx), rx)
    }

    fn send(&self, message: Value) {
        let _ = self.out.send(message.to_string());
    }

    /// Sends an `error` with `message` (and the id of the message it answers, when known).
    pub fn error(&self, id: Option<Value>, message: impl Into<String>) {
        let mut m = json!({"type": "error", "message": message.into()});
        if let Some(id) = id {
            m["id"] = id;
        }
        self.send(m);
    }

    /// Handles one message from the client: answers it, or sends an `error` saying why it cannot.
    pub fn handle_text(&mut self, text: &str) {
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return self.error(None, format!("malformed JSON: {e}")),
        };
        let id = value.get("id").filter(|v| v.is_number()).cloned();
        if !value.is_object() {
            return self.error(None, "a message is a JSON object with a \"type\"");
        }
        let request: Request = match serde_json::from_value(value) {
            Ok(r) => r,
            Err(e) => return self.error(id, format!("bad message: {e}")),
        };
        if let Err(e) = self.handle(request, id.clone()) {
            self.error(id, e);
        }
    }

    fn handle(&mut self, request: Request, id: Option<Value>) -> Result<(), String> {
        match request {
            Request::Hello {} => self.send(with_id(
                json!({
                    "type": "hello",
                    "version": env!("CARGO_PKG_VERSION"),
                    "engine": self.app.config.eval.describe(),
                    "max_searches": self.app.config.max_searches,
                }),
                id,
            )),
            Request::State(line) => {
                let replay = replay(&line)?;
                self.send(state_json(id, &replay));
            }
            Request::Validate { fen } => {
                let start = Position::from_fen(&fen).map_err(|e| e.to_string())?;
                let replay = Game::replay(&start, std::iter::empty::<Move>(), JudgeOptions::default())
                    .map_err(|e| e.to_string())?;
                self.send(state_json(id, &replay));
            }
            Request::Go(args) => self.go(id, args)?,
            Request::Stop {} => self.stop(id)?,
            Request::LoadRecord(args) => self.send(with_id(load_record(args)?, id)),
            Request::ExportPgn(args) => self.send(with_id(export_pgn(args)?, id)),
            Request::Review(args) => self.review(id, args)?,
            Request::Watch(args) => self.watch(id, args)?,
        }
        Ok(())
    }

    /// A search slot, or the error saying there is none.
    fn slot(&self) -> Result<tokio::sync::OwnedSemaphorePermit, String> {
        self.app.slots.clone().try_acquire_owned().map_err(|_| {
            format!(
                "too many searches at once: this server runs at most {} together (xiangqi serve --max-searches); \
                 stop one or try again when one ends",
                self.app.config.max_searches
            )
        })
    }

    fn register(&mut self, id: Option<Value>, stop: StopHandle) -> u64 {
        let key = self.next;
        self.next += 1;
        lock(&self.searches).insert(key, Running { id, stop });
        key
    }

    fn go(&mut self, id: Option<Value>, args: GoArgs) -> Result<(), String> {
        let replay = replay(&args.line)?;
        if let Some(r) = replay.game.result() {
            return Err(format!("the game is over ({r}): there is no move to search"));
        }
        let pos = replay.game.position().clone();
        let play = match args.purpose.as_deref() {
            Some("play") => true,
            Some("analyse" | "analyze") | None => false,
            Some(other) => return Err(format!("purpose must be \"play\" or \"analyse\", not {other:?}")),
        };
        let multipv = in_range("multipv", args.multipv.unwrap_or(1), 1, 5)?;
        let limits = go_limits(&args, pos.turn())?;
        let limited = limits.movetime.is_some() || limits.nodes.is_some() || limits.depth.is_some();
        if play && (args.infinite || !limited) {
            return Err("a search to play needs a limit: movetime, nodes, depth or clock".to_owned());
        }
        let mode = GoMode { infinite: args.infinite || !limited, ponder: false };
        let permit = self.slot()?;
        let mut engine = match lock(&self.idle).pop() {
            Some(engine) => engine,
            None => self.new_engine()?,
        };
        engine.set_multipv(if play { 1 } else { multipv as usize });
        let (tx, mut rx) = unbounded_channel();
        let handle = engine.go_with(&pos, limits, mode, Forward(tx));
        let key = self.register(id.clone(), StopHandle::Search(handle.stopper()));
        let (out, searches, idle) = (self.out.clone(), self.searches.clone(), self.idle.clone());
        tokio::spawn(async move {
            // The slot is given back with the result: the search's threads are done then (the handle's own thread
            // ends right after), so that a `go` sent on seeing `bestmove` finds it free.
            let mut permit = Some(permit);
            let mut done = false;
            while let Some(event) = rx.recv().await {
                match event {
                    Event::Info(info) => {
                        let _ = out.send(with_id(info_json(&pos, &info), id.clone()).to_string());
                    }
                    Event::Done(r) => {
                        lock(&searches).remove(&key);
                        drop(permit.take());
                        let best = r.best_move.map(|m| notated(&pos, m));
                        let score = r.best_move.map(|_| score_json(r.score));
                        let (nodes, ms) = (r.stats.nodes(), r.stats.elapsed.as_millis() as u64);
                        let m = json!({"type": "bestmove", "move": best, "score": score, "depth": r.depth,
                                       "nodes": nodes, "time_ms": ms, "nps": r.stats.nps()});
                        let _ = out.send(with_id(m, id.clone()).to_string());
                        done = true;
                        break;
                    }
                }
            }
            if !done {
                let m = json!({"type": "error", "message": "the search failed"});
                let _ = out.send(with_id(m, id).to_string());
            }
            lock(&searches).remove(&key);
            // The handle joins the search's threads, off the async threads; a failed search's slot is given back then.
            let _ = tokio::task::spawn_blocking(move || {
                drop(handle);
                drop(permit);
                let mut idle = lock(&idle);
                if idle.len() < MAX_IDLE {
                    idle.push(engine);
                }
            })
            .await;
        });
        Ok(())
    }

    /// A fresh engine: the server's evaluator and table size, the table faulted in on a background thread.
    fn new_engine(&self) -> Result<Engine, String> {
        let mut engine = SearchEngine::new(self.app.config.eval.clone()).map_err(|e| e.to_string())?;
        if self.app.config.hash_mb == xiangqi_search::DEFAULT_HASH_MB {
            engine.table().prefault_in_background();
        } else {
            engine.set_hash(self.app.config.hash_mb).map_err(|e| e.to_string())?;
        }
        Ok(engine)
    }

    fn stop(&mut self, id: Option<Value>) -> Result<(), String> {
        let searches = lock(&self.searches);
        match id {
            None => searches.values().for_each(|r| r.stop.stop()),
            Some(id) => {
                let mut found = false;
                for r in searches.values().filter(|r| r.id.as_ref() == Some(&id)) {
                    r.stop.stop();
                    found = true;
                }
                if !found {
                    return Err(format!("no search with id {id} is running"));
                }
            }
        }
        Ok(())
    }

    /// Stops every search of the session at once (a `watch`, not registered, ends by itself).
    pub fn stop_all(&self) {
        lock(&self.searches).values().for_each(|r| r.stop.stop());
    }

    fn review(&mut self, id: Option<Value>, args: ReviewArgs) -> Result<(), String> {
        let replay = replay(&args.line)?;
        let (start, moves) = (replay.game.start().clone(), replay.game.moves().to_vec());
        let limits = match (args.depth, args.movetime) {
            (Some(_), Some(_)) => return Err("review takes movetime or depth, not both".to_owned()),
            (Some(d), None) => {
                Limits { depth: Some(in_range("depth", d, 1, 30)?), iterative: true, ..Limits::default() }
            }
            (None, ms) => Limits::movetime(Duration::from_millis(in_range("movetime", ms.unwrap_or(300), 1, 60_000)?)),
        };
        let permit = self.slot()?;
        let stop = Arc::new(ReviewStop::default());
        let key = self.register(id.clone(), StopHandle::Review(stop.clone()));
        let (out, searches, config) = (self.out.clone(), self.searches.clone(), self.app.config.clone());
        tokio::task::spawn_blocking(move || {
            let send = |m: Value| {
                let _ = out.send(with_id(m, id.clone()).to_string());
            };
            let mut progress =
                |done: usize, total: usize| send(json!({"type": "review_progress", "done": done, "total": total}));
            let r = review::evaluate(&start, &moves, &limits, config.hash_mb, config.eval, Some(&stop), &mut progress);
            lock(&searches).remove(&key);
            drop(permit);
            match r {
                Ok(evals) if evals.len() == moves.len() + 1 => send(review_json(&start, &moves, &evals)),
                Ok(_) => send(json!({"type": "error", "message": "the review was stopped"})),
                Err(e) => send(json!({"type": "error", "message": e.to_string()})),
            }
        });
        Ok(())
    }

    fn watch(&mut self, id: Option<Value>, args: WatchArgs) -> Result<(), String> {
        let variant = args.variant.as_deref().unwrap_or("alphabeta");
        let spec: VariantConfig = variant.parse().map_err(|e: xiangqi_search::VariantError| e.to_string())?;
        let max_nodes = in_range("max_nodes", args.max_nodes.unwrap_or(5000), 1, MAX_WATCH_NODES)?;
        enum Input {
            Synthetic(Tree, String, Option<u32>),
            Real(Box<Position>, u32),
        }
        let input = match &args.synthetic {
            Some(text) => {
                let tree = Tree::parse(text).map_err(|e| format!("synthetic: {e}"))?;
                let depth = args.depth.map(|d| in_range("depth", d, 1, 12)).transpose()?;
                Input::Synthetic(tree, text.trim().to_owned(), depth)
            }
            None => {
                let replay = replay(&args.line)?;
                let depth = in_range("depth", args.depth.unwrap_or(2), 1, MAX_WATCH_DEPTH)?;
                Input::Real(Box::new(replay.game.position().clone()), depth)
            }
        };
        let permit = self.slot()?;
        let out = self.out.clone();
        tokio::task::spawn_blocking(move || {
            let answer = match input {
                Input::Synthetic(tree, text, depth) => {
                    let depth = depth.unwrap_or_else(|| tree.height().max(1));
                    let (result, mut rec) = spec.run_observed::<Tree, TreeEval, Recorder<Child>>(
                        tree.clone(),
                        TreeEval,
                        &Limits::depth(depth),
                        &RunSetup::default(),
                        |_| {},
                    );
                    let counts = (rec.searched_count(), rec.pruned_count(), result.stats.nodes());
                    rec.fill_pruned(&tree, &mut TreeEval, max_nodes);
                    let best = result.best_move.map(|c| format!("#{}", c.0));
                    let m = watch_json(&spec, &rec, counts, max_nodes, |c: &Child| format!("#{}", c.0));
                    extend(m, json!({"synthetic": text, "depth": depth, "value": result.score, "best": best}))
                }
                Input::Real(pos, depth) => {
                    let eval = xiangqi_eval::EngineEval::new(&pos);
                    let (result, rec) = spec.run_observed::<_, _, Recorder<Move>>(
                        (*pos).clone(),
                        eval,
                        &Limits::depth(depth),
                        &RunSetup::default(),
                        |_| {},
                    );
                    let counts = (rec.searched_count(), rec.pruned_count(), result.stats.nodes());
                    let best = result.best_move.map(|m| m.to_string());
                    let m = watch_json(&spec, &rec, counts, max_nodes, Move::to_string);
                    extend(m, json!({"fen": pos.fen(), "depth": depth, "value": result.score, "best": best}))
                }
            };
            drop(permit);
            let _ = out.send(with_id(answer, id).to_string());
        });
        Ok(())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_all();
    }
}

/// The limits of a `go`: its clock (the side to move's, `turn`), movetime, nodes and depth.
fn go_limits(args: &GoArgs, turn: Color) -> Result<Limits, String> {
    let mut limits = Limits::default();
    if let Some(clock) = &args.clock {
        let (time, inc) = match turn {
            Color::Red => (clock.red_ms, clock.red_inc_ms),
            Color::Black => (clock.black_ms, clock.black_inc_ms),
        };
        let time = in_range("clock time", time, 1, 100_000_000)?;
        let inc = in_range("clock increment", inc, 0, 10_000_000)?;
        let clock =
            Clock { time: Duration::from_millis(time), increment: Duration::from_millis(inc), moves_to_go: None };
        limits = Limits::clock(&clock, Duration::from_millis(30));
    }
    if let Some(ms) = args.movetime {
        // With a clock too, the first limit reached ends the search: the smaller hard limit.
        let mt = Duration::from_millis(in_range("movetime", ms, 1, 86_400_000)?);
        limits.movetime = Some(limits.movetime.map_or(mt, |hard| hard.min(mt)));
    }
    if let Some(n) = args.nodes {
        limits.nodes = Some(in_range("nodes", n, 1, u64::MAX)?);
    }
    if let Some(d) = args.depth {
        limits.depth = Some(in_range("depth", d, 1, 64)?);
    }
    Ok(limits)
}

/// `message` with `"id": id` when there is one.
fn with_id(mut message: Value, id: Option<Value>) -> Value {
    if let Some(id) = id {
        message["id"] = id;
    }
    message
}

/// `a` with the fields of `b` added.
fn extend(mut a: Value, b: Value) -> Value {
    if let (Some(a), Value::Object(b)) = (a.as_object_mut(), b) {
        a.extend(b);
    }
    a
}

/// The game of a line, judged by the rules; a bad FEN or an illegal move is an error saying which.
fn replay(line: &LineArgs) -> Result<Replay, String> {
    let start = Position::from_fen(&line.fen).map_err(|e| format!("fen: {e}"))?;
    if line.moves.len() > MAX_LINE {
        return Err(format!("moves: at most {MAX_LINE} moves, not {}", line.moves.len()));
    }
    Game::replay(&start, line.moves.iter().map(String::as_str), JudgeOptions::default())
        .map_err(|e| format!("moves: {e}"))
}

/// A move in every notation, in `pos` (where it is legal).
fn notated(pos: &Position, m: Move) -> Value {
    json!({
        "uci": m.to_string(),
        "iccs": pos.move_text(m, Notation::Iccs),
        "wxf": pos.move_text(m, Notation::Wxf),
        "chinese": pos.move_text(m, Notation::Chinese),
    })
}

/// The moves of `line` from `pos`, notated, stopping at one that is not legal.
fn notated_line(pos: &Position, line: &[Move]) -> Vec<Value> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        if !pos.is_legal(m) {
            break;
        }
        out.push(notated(&pos, m));
        pos.make_move(m);
    }
    out
}

/// A score for the side to move: `{"cp": n}` or `{"mate": n}` (moves, negative when mated).
fn score_json(score: Score) -> Value {
    match xiangqi_search::mate_moves(score) {
        Some(moves) => json!({"mate": moves}),
        None => json!({"cp": score}),
    }
}

fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::King => "king",
        PieceKind::Advisor => "advisor",
        PieceKind::Elephant => "elephant",
        PieceKind::Horse => "horse",
        PieceKind::Chariot => "chariot",
        PieceKind::Cannon => "cannon",
        PieceKind::Soldier => "soldier",
    }
}

fn rule_name(reason: Reason) -> &'static str {
    match reason {
        Reason::Checkmate => "checkmate",
        Reason::Stalemate => "stalemate",
        Reason::PerpetualCheck => "perpetual check",
        Reason::PerpetualChase => "perpetual chase",
        Reason::Repetition => "repetition",
        Reason::MoveLimit => "60-move rule",
        Reason::InsufficientMaterial => "insufficient material",
    }
}

/// The result of a finished game, with a sentence naming what decided it (the chased piece of a perpetual chase).
fn result_json(r: &GameResult, pos: &Position) -> Value {
    let loser = r.winner.map(|w| !w);
    let cycle = r.ruling.cycle;
    let detail = match (r.reason, loser) {
        (Reason::Checkmate, Some(l)) => format!("{l} is checkmated"),
        (Reason::Stalemate, Some(l)) => format!("{l} has no legal move (stalemate loses)"),
        (Reason::PerpetualCheck, Some(l)) => format!("{l} checked perpetually"),
        (Reason::PerpetualChase, Some(l)) => {
            let chased: Vec<String> = cycle
                .map(|c| {
                    c.chased[l.index()]
                        .into_iter()
                        .map(|sq| match pos.piece_at(sq) {
                            Some(p) => format!("the {} {} on {sq}", p.color, kind_name(p.kind)),
                            None => format!("the piece on {sq}"),
                        })
                        .collect()
                })
                .unwrap_or_default();
            format!("perpetual chase of {} by {l}", chased.join(" and "))
        }
        (Reason::Repetition, _) => "the position occurred for the third time, neither side to blame".to_owned(),
        (Reason::MoveLimit, _) => "120 plies without a capture (the 60-move rule)".to_owned(),
        (Reason::InsufficientMaterial, _) => "neither side has the material to mate".to_owned(),
        (reason, None) => format!("draw by {reason}"),
    };
    json!({
        "winner": r.winner.map(|c| c.to_string()),
        "rule": rule_name(r.reason),
        "detail": detail,
    })
}

/// The `state` answer for a replayed line.
fn state_json(id: Option<Value>, replay: &Replay) -> Value {
    let game = &replay.game;
    let pos = game.position();
    let mut legal: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if game.result().is_none() {
        for m in pos.legal_moves() {
            legal.entry(m.from().to_string()).or_default().push(m.to().to_string());
        }
    }
    let check = pos.in_check().then(|| pos.king(pos.turn()).to_string());
    let m = json!({
        "type": "state",
        "fen": pos.fen(),
        "turn": pos.turn().to_string(),
        "legal": legal,
        "moves": notated_line(game.start(), game.moves()),
        "check": check,
        "last": game.moves().last().map(Move::to_string),
        "result": game.result().map(|r| result_json(&r, pos)),
        "unplayed": replay.unplayed,
    });
    with_id(m, id)
}

/// An `info` report.
fn info_json(pos: &Position, info: &Info<Move>) -> Value {
    let r = &info.result;
    let ms = info.elapsed.as_millis() as u64;
    let nps = info.nodes.saturating_mul(1000).checked_div(ms).unwrap_or(0);
    let lines: Vec<Value> = if r.lines.is_empty() {
        vec![json!({"multipv": 1, "score": score_json(r.score), "pv": notated_line(pos, &r.pv)})]
    } else {
        r.lines
            .iter()
            .enumerate()
            .map(|(i, l)| json!({"multipv": i + 1, "score": score_json(l.score), "pv": notated_line(pos, &l.pv)}))
            .collect()
    };
    json!({
        "type": "info",
        "depth": r.depth,
        "seldepth": r.stats.seldepth,
        "nodes": info.nodes,
        "nps": nps,
        "time_ms": ms,
        "hashfull": info.hashfull,
        "lines": lines,
    })
}

/// Reads an upload: PGN text, or a file's bytes in base64 (PGN in any encoding, or XQF).
fn load_record(args: LoadArgs) -> Result<Value, String> {
    let too_big = |n: usize| format!("the record is too large: {n} bytes, at most {MAX_UPLOAD} (1 MB)");
    let bytes = match (args.text, args.base64) {
        (Some(text), None) => {
            if text.len() > MAX_UPLOAD {
                return Err(too_big(text.len()));
            }
            text.into_bytes()
        }
        (None, Some(b64)) => {
            if b64.len() > MAX_UPLOAD / 3 * 4 + 8 {
                return Err(too_big(b64.len() / 4 * 3));
            }
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b64.trim())
                .map_err(|e| format!("base64: the file's bytes could not be decoded: {e}"))?;
            if bytes.len() > MAX_UPLOAD {
                return Err(too_big(bytes.len()));
            }
            bytes
        }
        (Some(_), Some(_)) => return Err("load_record takes text or base64, not both".to_owned()),
        (None, None) => return Err("load_record needs text (PGN) or base64 (the file's bytes)".to_owned()),
    };
    let file = read_record(&bytes, &ReadOptions::default()).map_err(|e| format!("the record cannot be read: {e}"))?;
    let mut notation = None;
    let mut games = Vec::new();
    for game in &file.games {
        games.push(match game {
            Ok(g) => {
                notation = notation.or(g.notation);
                let tags: Map<String, Value> =
                    g.tags.iter().map(|(n, v)| (n.clone(), Value::from(v.as_str()))).collect();
                json!({
                    "tags": tags,
                    "fen": g.start.fen(),
                    "moves": g.moves.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>(),
                    "result": g.result,
                })
            }
            Err(e) => json!({"error": e.to_string()}),
        });
    }
    if !file.games.iter().any(Result::is_ok) {
        let first = file.games.iter().find_map(|g| g.as_ref().err()).map(ToString::to_string).unwrap_or_default();
        return Err(format!("no game of the record can be read: {first}"));
    }
    let notation = notation.map(|n| n.name().to_ascii_lowercase());
    Ok(json!({"type": "record", "format": file.format.to_string(), "notation": notation, "games": games}))
}

/// Writes a line as PGN.
fn export_pgn(args: ExportArgs) -> Result<Value, String> {
    let replay = replay(&args.line)?;
    let notation: Notation = args.notation.as_deref().unwrap_or("chinese").parse()?;
    let mut record = GameRecord::new(replay.game.start().clone());
    for (name, value) in &args.tags {
        let value = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            other => return Err(format!("tag {name}: a tag's value is a string, not {other}")),
        };
        if name.is_empty() || name.chars().any(|c| !(c.is_alphanumeric() || c == '_')) || value.contains(['\n', '\r']) {
            // A quote is fine: the PGN writer escapes it.
            return Err(format!("tag {name:?}: a tag's name is a word and its value has no line break"));
        }
        record.set_tag(name, &value);
    }
    record.moves = replay.game.moves().iter().map(|&m| RecordMove::new(m)).collect();
    if let Some(result) = args.result {
        if !["1-0", "0-1", "1/2-1/2", "*"].contains(&result.as_str()) {
            return Err(format!("result must be 1-0, 0-1, 1/2-1/2 or *, not {result:?}"));
        }
        record.set_tag("Result", &result);
        record.result = Some(result);
    }
    Ok(json!({"type": "pgn", "text": write_pgn(std::slice::from_ref(&record), notation)}))
}

/// The `review` answer.
fn review_json(start: &Position, moves: &[Move], evals: &[review::PositionEval]) -> Value {
    let losses = review::losses(moves, evals);
    let mut pos = start.clone();
    let mut rows = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        rows.push(json!({
            "ply": i + 1,
            "loss": losses[i],
            "mark": review::mark(losses[i]),
            "best": evals[i].best.map(|b| notated(&pos, b)),
        }));
        pos.make_move(mv);
    }
    let mut pos = start.clone();
    let mut scores = Vec::with_capacity(evals.len());
    for (i, e) in evals.iter().enumerate() {
        let red = if pos.turn() == Color::Red { e.score } else { -e.score };
        scores.push(score_json(red));
        if let Some(&mv) = moves.get(i) {
            pos.make_move(mv);
        }
    }
    let capped: Vec<i32> = evals.iter().map(|e| e.red).collect();
    json!({"type": "review", "evals": scores, "capped": capped, "moves": rows})
}

fn kind_text(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Root => "root",
        NodeKind::Main => "main",
        NodeKind::ZeroWindow => "zero-window",
        NodeKind::Research => "re-search",
        NodeKind::Reduced => "reduced",
        NodeKind::Null => "null",
        NodeKind::Quiescence => "quiescence",
    }
}

fn exit_text(exit: Exit) -> &'static str {
    match exit {
        Exit::Value => "value",
        Exit::BetaCutoff => "beta-cutoff",
        Exit::NullCutoff => "null-cutoff",
        Exit::StandPat => "stand-pat",
        Exit::TableHit => "table-hit",
        Exit::Rule => "rule",
        Exit::Pruned => "pruned",
        Exit::NoMoves => "no-moves",
    }
}

/// The `watch` answer: the recorded tree (its first `max_nodes` nodes) and the search's counts.
fn watch_json<M: Copy>(
    spec: &VariantConfig,
    rec: &Recorder<M>,
    (searched, pruned, nodes): (usize, usize, u64),
    max_nodes: usize,
    label: impl Fn(&M) -> String,
) -> Value {
    let cut = rec.cut(max_nodes);
    let mut list = Vec::with_capacity(cut.len());
    let mut order = Vec::with_capacity(cut.len());
    for (i, n) in cut.nodes().iter().enumerate() {
        let mv = match &n.edge {
            Edge::Root => Value::Null,
            Edge::Move(m) => Value::from(label(m)),
            Edge::Null => Value::from("null"),
            Edge::Again => Value::from("again"),
        };
        let mut node = json!({"id": i, "parent": n.parent, "ply": n.ply, "move": mv, "omitted": n.omitted});
        match &n.state {
            NodeState::Searched(v) => {
                order.push(i);
                node = extend(
                    node,
                    json!({
                        "pruned": false, "depth": v.depth, "alpha": v.alpha, "beta": v.beta, "value": v.value,
                        "kind": kind_text(v.kind), "exit": v.exit.map(exit_text),
                    }),
                );
            }
            NodeState::Pruned(why) => {
                let reason = match why {
                    PruneReason::Cutoff => "cutoff",
                    PruneReason::Futility => "futility",
                    PruneReason::Beneath => "beneath",
                };
                if *why != PruneReason::Beneath {
                    order.push(i);
                }
                node = extend(node, json!({"pruned": true, "reason": reason, "static": n.static_value}));
            }
        }
        list.push(node);
    }
    json!({
        "type": "watch",
        "variant": spec.to_string(),
        "nodes": list,
        "order": order,
        "searched": searched,
        "pruned": pruned,
        "search_nodes": nodes,
        "total": rec.total(),
        "sent": cut.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_and_a_movetime_keep_the_smaller_hard_limit() {
        let go = |v: Value| go_limits(&serde_json::from_value(v).unwrap(), Color::Red).unwrap();
        let clock = json!({"red_ms": 1000, "black_ms": 1000});
        let alone = go(json!({"clock": clock})).movetime.unwrap();
        assert!(alone < Duration::from_millis(1000), "{alone:?}");
        let both = go(json!({"clock": clock, "movetime": 600_000}));
        assert_eq!(both.movetime, Some(alone), "a longer movetime leaves the clock's limit");
        let both = go(json!({"clock": clock, "movetime": 1}));
        assert_eq!(both.movetime, Some(Duration::from_millis(1)), "a shorter movetime ends the search first");
        assert_eq!(go(json!({"movetime": 600_000})).movetime, Some(Duration::from_secs(600)));
    }
}
