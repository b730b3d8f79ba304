//! The WebSocket's JSON protocol (`docs/serve-protocol.md`): one [`Session`] per socket reads the client's
//! messages, answers them, and starts searches whose reports it forwards.
//!
//! Searches run on the engine's own threads ([`SearchEngine::go_with`], with a listener that forwards each report
//! into a tokio channel); reviews and recorded trees run on tokio's blocking threads. The session's task only
//! reads, answers and forwards, so it never blocks. The messages are typed in [`crate::message`]; the answers are
//! made from the engine's values in [`crate::render`].

use crate::message::{
    Answer, Bestmove, Clamped, Compare, CompareArgs, CompareRow, ExportArgs, GoArgs, Hello, LevelElo, LineArgs,
    LoadArgs, Pgn, Record, Request, Response, Review, ReviewArgs, ReviewProgress, TraceArgs, Watch, WatchArgs,
};
use crate::render;
use crate::{App, Config, MAX_UPLOAD};
use axum::extract::ws::{Message, WebSocket};
use base64::Engine as _;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use xiangqi_core::evaluation::OptionValue;
use xiangqi_core::record::shapes::{set_shapes, Shape};
use xiangqi_core::record::{read_record, write_pgn, GameRecord, Notation, ReadOptions, RecordMove};
use xiangqi_core::rules::JudgeOptions;
use xiangqi_core::{Color, Game, Move, Position, Replay};
use xiangqi_search::options::SKILL_LEVEL;
use xiangqi_search::record::{self, RecordOptions, Recording};
use xiangqi_search::review::{self, ReviewStop};
use xiangqi_search::skill::{FULL_STRENGTH, LEVEL_ELO};
use xiangqi_search::synthetic::{Child, Tree};
use xiangqi_search::{Clock, GoMode, Info, Limits, Listener, SearchEngine, SearchResult, Stopper, VariantConfig};

/// The most moves a line may have.
pub const MAX_LINE: usize = 4000;
/// The most nodes of a recorded tree sent in a `watch` answer (the first ones in search order).
pub const MAX_WATCH_NODES: usize = 20_000;
/// The deepest search of a real position that `watch` records.
pub const MAX_WATCH_DEPTH: u32 = 4;
/// The deepest search of a real position that `trace` records.
pub const MAX_TRACE_DEPTH: u32 = 5;
/// The most nodes of a `trace` answer.
pub const MAX_TRACE_NODES: usize = 20_000;
/// The most steps of a `trace` answer.
pub const MAX_TRACE_STEPS: usize = 50_000;

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

    fn send(&self, id: Option<Value>, response: Response) {
        let _ = self.out.send(Answer { id, response }.to_json());
    }

    /// Sends an `error` with `message` (and the id of the message it answers, when known).
    pub fn error(&self, id: Option<Value>, message: impl Into<String>) {
        self.send(id, Response::error(message));
    }

    /// Handles one message from the client: answers it, or sends an `error` saying why it cannot.
    pub fn handle_text(&mut self, text: &str) {
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return self.error(None, format!("malformed JSON: {e}")),
        };
        if !value.is_object() {
            return self.error(None, "a message is a JSON object with a \"type\"");
        }
        // An id is a number: any other value could name no search (`stop`) and no answer could carry it back.
        let id = match value.get("id") {
            None | Some(Value::Null) => None,
            Some(v) if v.is_number() => Some(v.clone()),
            Some(v) => return self.error(None, format!("id must be a number, not {v:.40}")),
        };
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
            Request::Hello {} => self.send(
                id,
                Response::Hello(Hello {
                    version: env!("CARGO_PKG_VERSION").to_owned(),
                    engine: self.app.config.eval.describe(),
                    max_searches: self.app.config.max_searches,
                    levels: (1..=FULL_STRENGTH)
                        .map(|level| LevelElo { level, elo: LEVEL_ELO[usize::from(level) - 1] })
                        .collect(),
                    max_movetime_ms: self.app.config.max_movetime.map(|d| d.as_millis() as u64),
                    max_nodes: self.app.config.max_nodes,
                }),
            ),
            Request::State(line) => {
                let replay = replay(&line)?;
                self.send(id, Response::State(Box::new(render::state(&replay))));
            }
            Request::Validate { fen } => {
                let start = Position::from_fen(&fen).map_err(|e| e.to_string())?;
                let replay = Game::replay(&start, std::iter::empty::<Move>(), JudgeOptions::default())
                    .map_err(|e| e.to_string())?;
                self.send(id, Response::State(Box::new(render::state(&replay))));
            }
            Request::Go(args) => self.go(id, args)?,
            Request::Stop {} => self.stop(id)?,
            Request::LoadRecord(args) => self.send(id, Response::Record(load_record(args)?)),
            Request::ExportPgn(args) => self.send(id, Response::Pgn(export_pgn(args)?)),
            Request::Review(args) => self.review(id, args)?,
            Request::Watch(args) => self.watch(id, args)?,
            Request::Trace(args) => self.trace(id, args)?,
            Request::Compare(args) => self.compare(id, args)?,
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
        let level = in_range("level", args.level.unwrap_or(FULL_STRENGTH.into()), 1, FULL_STRENGTH.into())? as u8;
        let mut limits = go_limits(&args, pos.turn())?;
        let limited = limits.movetime.is_some() || limits.nodes.is_some() || limits.depth.is_some();
        if play && (args.infinite || !limited) {
            return Err("a search to play needs a limit: movetime, nodes, depth or clock".to_owned());
        }
        let clamped = clamp(&mut limits, &self.app.config);
        // A capped search ends at its cap: it is no longer infinite (its `bestmove` comes without a `stop`).
        let mode = GoMode { infinite: (args.infinite || !limited) && clamped.is_empty(), ponder: false };
        let clamped = (!clamped.is_empty()).then_some(clamped);
        let permit = self.slot()?;
        let mut engine = match lock(&self.idle).pop() {
            Some(engine) => engine,
            None => self.new_engine()?,
        };
        engine.set_multipv(if play { 1 } else { multipv as usize });
        // The level plays only in a game; analysis is always at full strength. A level's choice is drawn anew for
        // every search (a new game's seed), so that the same position does not always get the same move.
        let level = if play { level } else { FULL_STRENGTH };
        engine.set_option(&SKILL_LEVEL, &OptionValue::Spin(i64::from(level)))?;
        if level < FULL_STRENGTH {
            engine.new_game();
        }
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
                        let answer = Answer { id: id.clone(), response: Response::Info(render::info(&pos, &info)) };
                        let _ = out.send(answer.to_json());
                    }
                    Event::Done(r) => {
                        lock(&searches).remove(&key);
                        drop(permit.take());
                        let best = Bestmove { clamped: clamped.clone(), ..render::bestmove(&pos, &r) };
                        let answer = Answer { id: id.clone(), response: Response::Bestmove(best) };
                        let _ = out.send(answer.to_json());
                        done = true;
                        break;
                    }
                }
            }
            if !done {
                let _ = out.send(Answer { id, response: Response::error("the search failed") }.to_json());
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
        let mut limits = match (args.depth, args.movetime) {
            (Some(_), Some(_)) => return Err("review takes movetime or depth, not both".to_owned()),
            (Some(d), None) => Limits {
                depth: Some(in_range("depth", d, 1, xiangqi_search::MAX_DEPTH)?),
                iterative: true,
                ..Limits::default()
            },
            (None, ms) => Limits::movetime(Duration::from_millis(in_range("movetime", ms.unwrap_or(300), 1, 60_000)?)),
        };
        let clamped = clamp(&mut limits, &self.app.config);
        let clamped = (!clamped.is_empty()).then_some(clamped);
        let permit = self.slot()?;
        let stop = Arc::new(ReviewStop::default());
        let key = self.register(id.clone(), StopHandle::Review(stop.clone()));
        let (out, searches, config) = (self.out.clone(), self.searches.clone(), self.app.config.clone());
        tokio::task::spawn_blocking(move || {
            let send = |response: Response| {
                let _ = out.send(Answer { id: id.clone(), response }.to_json());
            };
            let mut progress =
                |done: usize, total: usize| send(Response::ReviewProgress(ReviewProgress { done, total }));
            let r = review::evaluate(&start, &moves, &limits, config.hash_mb, config.eval, Some(&stop), &mut progress);
            lock(&searches).remove(&key);
            drop(permit);
            match r {
                Ok(evals) if evals.len() == moves.len() + 1 => {
                    send(Response::Review(Review { clamped, ..render::review(&start, &moves, &evals) }))
                }
                Ok(_) => send(Response::error("the review was stopped")),
                Err(e) => send(Response::error(e.to_string())),
            }
        });
        Ok(())
    }

    fn watch(&mut self, id: Option<Value>, args: WatchArgs) -> Result<(), String> {
        let (synthetic, variant) = (args.synthetic.as_deref(), args.variant.as_deref());
        let input = SearchInput::read(synthetic, &args.line, args.depth, variant, MAX_WATCH_DEPTH)?;
        let max_nodes = in_range("max_nodes", args.max_nodes.unwrap_or(5000), 1, MAX_WATCH_NODES)?;
        let permit = self.slot()?;
        let out = self.out.clone();
        tokio::task::spawn_blocking(move || {
            let options = RecordOptions { trace_capacity: 0, fill_pruned: max_nodes, ..RecordOptions::default() };
            let answer = match input.record(&options) {
                Recorded::Tree(r, text) => {
                    let t = render::trace(&r, max_nodes, 0, |c: &Child| format!("#{}", c.0));
                    Watch { synthetic: Some(text), ..t.tree }
                }
                Recorded::Position(r, pos) => {
                    let t = render::trace(&r, max_nodes, 0, Move::to_string);
                    Watch { fen: Some(pos.fen()), ..t.tree }
                }
            };
            drop(permit);
            let _ = out.send(Answer { id, response: Response::Watch(Box::new(answer)) }.to_json());
        });
        Ok(())
    }

    fn trace(&mut self, id: Option<Value>, args: TraceArgs) -> Result<(), String> {
        let (max_steps, args) = (args.max_steps, args.watch);
        let (synthetic, variant) = (args.synthetic.as_deref(), args.variant.as_deref());
        let input = SearchInput::read(synthetic, &args.line, args.depth, variant, MAX_TRACE_DEPTH)?;
        let max_nodes = in_range("max_nodes", args.max_nodes.unwrap_or(MAX_TRACE_NODES), 1, MAX_TRACE_NODES)?;
        let max_steps = in_range("max_steps", max_steps.unwrap_or(MAX_TRACE_STEPS), 1, MAX_TRACE_STEPS)?;
        let permit = self.slot()?;
        let out = self.out.clone();
        tokio::task::spawn_blocking(move || {
            let options =
                RecordOptions { capacity: MAX_TRACE_NODES, trace_capacity: max_steps, fill_pruned: max_nodes };
            let answer = match input.record(&options) {
                Recorded::Tree(r, text) => {
                    let mut t = render::trace(&r, max_nodes, max_steps, |c: &Child| format!("#{}", c.0));
                    t.tree.synthetic = Some(text);
                    t
                }
                Recorded::Position(r, pos) => {
                    let mut t = render::trace(&r, max_nodes, max_steps, Move::to_string);
                    t.tree.fen = Some(pos.fen());
                    t
                }
            };
            drop(permit);
            let _ = out.send(Answer { id, response: Response::Trace(Box::new(answer)) }.to_json());
        });
        Ok(())
    }
}

impl Session {
    fn compare(&mut self, id: Option<Value>, args: CompareArgs) -> Result<(), String> {
        let replay = replay(&args.line)?;
        let pos = replay.game.position().clone();
        let depth = in_range("depth", args.depth.unwrap_or(4), 1, MAX_WATCH_DEPTH)?;
        in_range("variants", args.variants.len(), 1, 12)?;
        let specs: Vec<(String, VariantConfig)> = args
            .variants
            .iter()
            .map(|v| v.parse().map(|s| (v.clone(), s)).map_err(|e: xiangqi_search::VariantError| format!("{v}: {e}")))
            .collect::<Result<_, _>>()?;
        let permit = self.slot()?;
        let (out, config) = (self.out.clone(), self.app.config.clone());
        tokio::task::spawn_blocking(move || {
            // As `xiangqi compare`: one engine, each search a new game of the variant at a fixed depth.
            let response = match SearchEngine::new(config.eval) {
                Err(e) => Response::error(e.to_string()),
                Ok(mut engine) => {
                    let mut rows = Vec::new();
                    for d in 1..=depth {
                        for (name, spec) in &specs {
                            let r = xiangqi_search::fixed_depth::search(&mut engine, spec, &pos, d);
                            rows.push(CompareRow {
                                variant: name.clone(),
                                canonical: spec.to_string(),
                                depth: d,
                                nodes: r.stats.nodes(),
                                score: r.score,
                                best: r.best_move.map(|m| m.to_string()),
                            });
                        }
                    }
                    Response::Compare(Compare { fen: pos.fen(), depth, rows })
                }
            };
            drop(permit);
            let _ = out.send(Answer { id, response }.to_json());
        });
        Ok(())
    }
}

/// What a `watch` or a `trace` searches: a synthetic tree (its text, the depth or none for its height) or a
/// position (with the depth), and the variant.
enum SearchInput {
    Tree(String, Option<u32>, String),
    Position(Box<Position>, u32, VariantConfig),
}

/// A recorded search of a [`SearchInput`].
enum Recorded {
    Tree(Recording<Child>, String),
    Position(Recording<Move>, Box<Position>),
}

impl SearchInput {
    /// The input of a message: its synthetic tree or its line, checked (the tree's syntax, the line's moves, the
    /// variant, the depth: 1 to 12 for a tree, to `max_depth` for a position, 2 by default).
    fn read(
        synthetic: Option<&str>,
        line: &LineArgs,
        depth: Option<u32>,
        variant: Option<&str>,
        max_depth: u32,
    ) -> Result<Self, String> {
        let variant = variant.unwrap_or("alphabeta");
        let spec: VariantConfig = variant.parse().map_err(|e: xiangqi_search::VariantError| e.to_string())?;
        Ok(match synthetic {
            Some(text) => {
                Tree::parse(text).map_err(|e| format!("synthetic: {e}"))?;
                let depth = depth.map(|d| in_range("depth", d, 1, 12)).transpose()?;
                SearchInput::Tree(text.trim().to_owned(), depth, variant.to_owned())
            }
            None => {
                let replay = replay(line)?;
                let depth = in_range("depth", depth.unwrap_or(2), 1, max_depth)?;
                SearchInput::Position(Box::new(replay.game.position().clone()), depth, spec)
            }
        })
    }

    /// Records the search through the search crate's one recording function.
    fn record(self, options: &RecordOptions) -> Recorded {
        match self {
            SearchInput::Tree(text, depth, variant) => {
                let r =
                    record::record_tree(&text, &variant, depth, options).expect("the tree and variant were checked");
                Recorded::Tree(r, text)
            }
            SearchInput::Position(pos, depth, spec) => {
                let eval = xiangqi_eval::ChosenEval::new(&pos);
                Recorded::Position(record::record((*pos).clone(), eval, &spec, depth, options), pos)
            }
        }
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
        // The engine's declared `Move Overhead` is kept back, as a UCI engine keeps it.
        limits = Limits::clock(&clock, xiangqi_search::options::SearchEngineSettings::default().move_overhead);
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
        limits.depth = Some(in_range("depth", d, 1, xiangqi_search::MAX_DEPTH)?);
    }
    Ok(limits)
}

/// Applies the operator's caps ([`Config::max_movetime`], [`Config::max_nodes`]) to a request's `limits`: a
/// search without a time limit, or with a longer one, gets the time cap, and likewise for nodes. Returns the caps
/// that changed the request.
fn clamp(limits: &mut Limits, config: &Config) -> Clamped {
    let mut clamped = Clamped::default();
    if let Some(cap) = config.max_movetime {
        if limits.movetime.is_none_or(|t| t > cap) {
            limits.movetime = Some(cap);
            limits.soft_time = limits.soft_time.map(|t| t.min(cap));
            clamped.movetime_ms = Some(cap.as_millis() as u64);
        }
    }
    if let Some(cap) = config.max_nodes {
        if limits.nodes.is_none_or(|n| n > cap) {
            limits.nodes = Some(cap);
            clamped.nodes = Some(cap);
        }
    }
    clamped
}

/// The game of a line, judged by the rules; a bad FEN or an illegal move is an error saying which.
///
/// The moves are UCI; a move in another notation (ICCS `H2-E2`, WXF `C2.5`, Chinese `炮二平五`: a move the player
/// typed) is read in the position it is played from.
fn replay(line: &LineArgs) -> Result<Replay, String> {
    let start = Position::from_fen(&line.fen).map_err(|e| format!("fen: {e}"))?;
    if line.moves.len() > MAX_LINE {
        return Err(format!("moves: at most {MAX_LINE} moves, not {}", line.moves.len()));
    }
    let uci = |m: &str| Move::parse(m).is_ok_and(|mv| mv.to_string() == m);
    if line.moves.iter().all(|m| uci(m)) {
        return Game::replay(&start, line.moves.iter().map(String::as_str), JudgeOptions::default())
            .map_err(|e| format!("moves: {e}"));
    }
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(line.moves.len());
    for (i, text) in line.moves.iter().enumerate() {
        let (mv, _) = pos.read_move(text.trim()).map_err(|e| format!("moves: ply {}: {e}", i + 1))?;
        pos.make_move(mv);
        moves.push(mv);
    }
    Game::replay(&start, moves, JudgeOptions::default()).map_err(|e| format!("moves: {e}"))
}

/// Reads an upload: PGN text, or a file's bytes in base64 (PGN in any encoding, or XQF).
fn load_record(args: LoadArgs) -> Result<Record, String> {
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
    if !file.games.iter().any(Result::is_ok) {
        let first = file.games.iter().find_map(|g| g.as_ref().err()).map(ToString::to_string).unwrap_or_default();
        return Err(format!("no game of the record can be read: {first}"));
    }
    Ok(render::record(&file))
}

/// Writes a line as PGN.
fn export_pgn(args: ExportArgs) -> Result<Pgn, String> {
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
    for (key, codes) in &args.shapes {
        let ply: usize = key.parse().map_err(|_| format!("shapes: {key:?} is no ply (0, 1, 2 ...)"))?;
        let shapes = codes
            .iter()
            .map(|c| c.parse::<Shape>().map_err(|e| format!("shapes: ply {ply}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let comments = match ply {
            0 => &mut record.intro,
            n => match record.moves.get_mut(n - 1) {
                Some(m) => &mut m.comments,
                None => return Err(format!("shapes: ply {ply}: the line has {} moves", record.moves.len())),
            },
        };
        set_shapes(comments, &shapes);
    }
    Ok(Pgn { text: write_pgn(std::slice::from_ref(&record), notation) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answers(out: &mut UnboundedReceiver<String>) -> Vec<Value> {
        std::iter::from_fn(|| out.try_recv().ok()).map(|t| serde_json::from_str(&t).unwrap()).collect()
    }

    #[test]
    fn an_id_that_is_not_a_number_gets_an_error() {
        let (mut session, mut out) = Session::for_test(Config::default());
        for text in [r#"{"type":"stop","id":"abc"}"#, r#"{"type":"state","id":[7]}"#, r#"{"type":"hello","id":{}}"#] {
            session.handle_text(text);
            let a = answers(&mut out);
            assert_eq!(a.len(), 1, "{text}: {a:?}");
            assert_eq!(a[0]["type"], "error", "{text}");
            assert!(a[0]["message"].as_str().unwrap().contains("id must be a number"), "{text}: {}", a[0]);
            assert!(a[0].get("id").is_none(), "{}", a[0]);
        }
        // A number, or no id, is read as before.
        session.handle_text(r#"{"type":"stop","id":5}"#);
        let a = answers(&mut out);
        assert_eq!((a[0]["type"].as_str(), a[0]["id"].as_i64()), (Some("error"), Some(5)), "{a:?}");
        assert!(a[0]["message"].as_str().unwrap().contains("no search with id 5"), "{a:?}");
        session.handle_text(r#"{"type":"hello","id":null}"#);
        assert_eq!(answers(&mut out)[0]["type"], "hello");
    }

    #[test]
    fn the_operators_caps_clamp_a_requests_limits_and_say_which() {
        let config =
            Config { max_movetime: Some(Duration::from_millis(500)), max_nodes: Some(10_000), ..Config::default() };
        let go = |v: Value| {
            let mut limits = go_limits(&serde_json::from_value(v).unwrap(), Color::Red).unwrap();
            let clamped = clamp(&mut limits, &config);
            (limits.movetime, limits.nodes, clamped)
        };
        let ms = |n| Some(Duration::from_millis(n));
        // Within the caps: unchanged, nothing said.
        assert_eq!(go(json!({"movetime": 200, "nodes": 50})), (ms(200), Some(50), Clamped::default()));
        // Beyond them, or without a limit of that kind: the cap, said.
        let both = Clamped { movetime_ms: Some(500), nodes: Some(10_000) };
        assert_eq!(go(json!({"movetime": 60_000, "nodes": 1_000_000})), (ms(500), Some(10_000), both.clone()));
        assert_eq!(go(json!({"infinite": true})), (ms(500), Some(10_000), both));
        let (t, n, c) = go(json!({"depth": 3, "nodes": 10_000}));
        assert_eq!((t, n, c), (ms(500), Some(10_000), Clamped { movetime_ms: Some(500), nodes: None }));
        // No caps: nothing changes.
        let mut limits = Limits::default();
        assert!(clamp(&mut limits, &Config::default()).is_empty());
        assert_eq!((limits.movetime, limits.nodes), (None, None));
    }

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
