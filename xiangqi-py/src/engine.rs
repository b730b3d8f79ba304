//! `xiangqi.Engine`: the playing engine ([`SearchEngine`]) or any variant of the course's algorithms, searched
//! without the GIL and stoppable from another thread; `Engine.trace` records the tree a search visits
//! ([`Recorder`]) and hands it to Python as objects.

use crate::board::{value_error, Board, Move};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;
use xiangqi_core::Position;
use xiangqi_eval::EvalChoice;
use xiangqi_search::record::{record, DotOptions, Edge, RecordOptions, Recorder, State};
use xiangqi_search::{GoMode, Limits, SearchEngine, SearchResult as CoreResult, Stopper, VariantConfig};

/// The evaluator asked for: the built-in network (`None`), `"handcrafted"`, or a network file.
fn eval_choice(network: Option<&Bound<'_, PyAny>>) -> PyResult<EvalChoice> {
    let Some(network) = network else { return Ok(EvalChoice::engine_default()) };
    if let Ok(s) = network.extract::<String>() {
        if s == "handcrafted" {
            return Ok(EvalChoice::Handcrafted);
        }
    }
    let path: PathBuf = network.extract().map_err(|_| {
        PyValueError::new_err("network is None (the built-in network), \"handcrafted\", or a network file's path")
    })?;
    EvalChoice::load(&path).map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))
}

fn variant(text: &str) -> PyResult<VariantConfig> {
    text.parse::<VariantConfig>().map_err(|e| PyValueError::new_err(format!("variant {text:?}: {e}")))
}

/// What a search found, with its statistics.
#[pyclass(module = "xiangqi", frozen, get_all)]
pub struct SearchResult {
    /// The best move (`None` when the side to move has no move).
    best_move: Option<Move>,
    /// The score for the side to move, in centipawns (mates: `30000 - plies`).
    score: i32,
    /// Moves to mate when the score is a mate (negative when the side to move is mated), else `None`.
    mate: Option<i32>,
    /// The principal variation.
    pv: Vec<Move>,
    /// The depth of the last completed iteration.
    depth: u32,
    /// The deepest ply reached (quiescence included).
    seldepth: u32,
    /// Nodes searched (main search and quiescence).
    nodes: u64,
    /// Nodes per second.
    nps: u64,
    /// Seconds spent.
    time: f64,
    /// Every principal variation (`multipv`), best first: `(score, pv)`.
    lines: Vec<(i32, Vec<Move>)>,
    /// The statistics: node counts, cutoffs, and every technique's counters, by the CLI's JSON keys.
    stats: BTreeMap<String, u64>,
    /// The effective branching factor.
    ebf: f64,
}

impl SearchResult {
    fn new(r: &CoreResult<xiangqi_core::Move>) -> SearchResult {
        let moves = |pv: &[xiangqi_core::Move]| pv.iter().map(|&inner| Move { inner }).collect::<Vec<_>>();
        let s = &r.stats;
        let mut stats = BTreeMap::new();
        for (k, v) in [
            ("nodes", s.nodes()),
            ("main_nodes", s.main_nodes),
            ("interior_nodes", s.interior_nodes()),
            ("leaf_nodes", s.leaf_nodes),
            ("quiescence_nodes", s.quiescence_nodes),
            ("beta_cutoffs", s.beta_cutoffs),
            ("first_move_cutoffs", s.first_move_cutoffs),
            ("seldepth", u64::from(s.seldepth)),
        ] {
            stats.insert(k.to_owned(), v);
        }
        for (counter, value) in xiangqi_search::techniques::counters(s) {
            stats.insert(counter.key.to_owned(), value);
        }
        SearchResult {
            best_move: r.best_move.map(|inner| Move { inner }),
            score: r.score,
            mate: xiangqi_search::mate_moves(r.score),
            pv: moves(&r.pv),
            depth: r.depth,
            seldepth: s.seldepth,
            nodes: s.nodes(),
            nps: s.nps(),
            time: s.elapsed.as_secs_f64(),
            lines: r.lines.iter().map(|l| (l.score, moves(&l.pv))).collect(),
            stats,
            ebf: s.ebf(r.depth),
        }
    }
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        let best = self.best_move.map_or("None".to_owned(), |m| m.inner.to_string());
        let score = self.mate.map_or(format!("cp {}", self.score), |m| format!("mate {m}"));
        format!("<SearchResult best={best} score={score} depth={} nodes={}>", self.depth, self.nodes)
    }
}

/// The engine: a variant (`"engine"`, the playing engine, or a course algorithm such as `"alphabeta"`,
/// `"negamax-ab+pvs+qs"`, `"engine+no-lmr"`, as `xiangqi search --variant` takes), a transposition table of
/// `hash_mb` megabytes, `threads` search threads, and an evaluator (`network`: `None` for the built-in network,
/// `"handcrafted"`, or a network file).
#[pyclass(module = "xiangqi", frozen)]
pub struct Engine {
    engine: Mutex<SearchEngine<EvalChoice>>,
    variant: VariantConfig,
    choice: EvalChoice,
    running: Mutex<Running>,
}

/// What `stop()` reaches: the searches asked for and not yet finished, the running one's stopper, and a stop that
/// came before the search it was meant for had started (so it is not lost).
#[derive(Default)]
struct Running {
    pending: usize,
    stopper: Option<Stopper>,
    stop_requested: bool,
}

impl Engine {
    /// The running-search state, whatever a panicking thread left in it.
    fn running(&self) -> std::sync::MutexGuard<'_, Running> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (variant = "engine", *, hash_mb = 16, threads = 1, network = None))]
    fn new(variant: &str, hash_mb: usize, threads: usize, network: Option<&Bound<'_, PyAny>>) -> PyResult<Engine> {
        let spec = self::variant(variant)?;
        let choice = eval_choice(network)?;
        if !(1..=1024).contains(&threads) {
            return Err(PyValueError::new_err(format!("threads {threads}: from 1 to 1024")));
        }
        if !(1..=65536).contains(&hash_mb) {
            return Err(PyValueError::new_err(format!("hash_mb {hash_mb}: from 1 to 65536")));
        }
        let mut engine = SearchEngine::new(choice.clone()).map_err(value_error)?;
        engine.set_variant(spec);
        engine.set_hash(hash_mb).map_err(value_error)?;
        engine.set_threads(threads).map_err(value_error)?;
        engine.table().prefault();
        Ok(Engine { engine: Mutex::new(engine), variant: spec, choice, running: Mutex::default() })
    }

    /// The variant, as its canonical text.
    #[getter]
    fn variant(&self) -> String {
        self.variant.to_string()
    }

    /// Searches `board`'s position (its history counts for repetitions) within the limits: `depth` plies,
    /// `movetime` milliseconds, `nodes`; with none of them, depth 4 (as `xiangqi search`), or until `stop()` when
    /// `infinite`. `multipv` lines. The GIL is released while the engine thinks.
    #[pyo3(signature = (board, *, depth = None, movetime = None, nodes = None, multipv = 1, infinite = false))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per limit
    fn search(
        &self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        depth: Option<u32>,
        movetime: Option<f64>,
        nodes: Option<u64>,
        multipv: usize,
        infinite: bool,
    ) -> PyResult<SearchResult> {
        if depth.is_some_and(|d| !(1..=xiangqi_search::MAX_DEPTH).contains(&d)) {
            return Err(PyValueError::new_err(format!("depth: from 1 to {}", xiangqi_search::MAX_DEPTH)));
        }
        if movetime.is_some_and(|t| !(t.is_finite() && t > 0.0)) {
            return Err(PyValueError::new_err("movetime: a positive number of milliseconds"));
        }
        if !(1..=500).contains(&multipv) {
            return Err(PyValueError::new_err("multipv: from 1 to 500"));
        }
        let no_limit = depth.is_none() && movetime.is_none() && nodes.is_none();
        let limits = Limits {
            depth: if no_limit && !infinite { Some(4) } else { depth },
            nodes,
            movetime: movetime.map(|ms| Duration::from_secs_f64(ms / 1000.0)),
            iterative: self.variant.is_engine() || infinite,
            ..Limits::default()
        };
        let pos: Position = board.pos().clone();
        drop(board);
        // Counted before the GIL is released: a `stop()` from now on reaches this search, even one that comes
        // before the engine has started it.
        self.running().pending += 1;
        let (r, interrupted) = py.detach(|| {
            let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
            engine.set_multipv(multipv);
            let handle = engine.go(&pos, limits, GoMode { infinite, ponder: false });
            {
                let mut running = self.running();
                if std::mem::take(&mut running.stop_requested) {
                    handle.stop();
                }
                running.stopper = Some(handle.stopper());
            }
            // Ctrl-C (a notebook's interrupt) stops the search: the signal is checked at growing intervals, from
            // 0.1 ms (a short search returns at once) to 20 ms.
            let mut interrupted = None;
            let mut pause = Duration::from_micros(100);
            while !handle.is_finished() {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    handle.stop();
                    interrupted = Some(e);
                    break;
                }
            }
            let r = handle.wait();
            let mut running = self.running();
            running.stopper = None;
            running.pending -= 1;
            (r, interrupted)
        });
        if let Some(e) = interrupted {
            return Err(e);
        }
        Ok(SearchResult::new(&r))
    }

    /// Stops the running search (from another thread); it returns the result of its last completed iteration. A
    /// search that was called but has not started yet stops as soon as it starts; with no search called, nothing
    /// happens.
    fn stop(&self) {
        let mut running = self.running();
        match &running.stopper {
            Some(s) => s.stop(),
            None if running.pending > 0 => running.stop_requested = true,
            None => {}
        }
    }

    /// Forgets what earlier searches learnt (the table and the move-ordering memory).
    fn new_game(&self, py: Python<'_>) {
        py.detach(|| self.engine.lock().unwrap_or_else(|e| e.into_inner()).new_game());
    }

    /// Searches `board` to `depth` plies with `variant` (default: this engine's) on one thread and records every
    /// node the search enters, every move a cutoff skips and every line of the algorithm it runs, for teaching (as
    /// `xiangqi tree` does): a `Trace` of `TraceNode` objects, the first `max_nodes` in search order, and its
    /// `TraceStep`s. The GIL is released during the search.
    #[pyo3(signature = (board, *, depth = 2, variant = None, max_nodes = 20_000))]
    fn trace(
        &self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        depth: u32,
        variant: Option<&str>,
        max_nodes: usize,
    ) -> PyResult<Trace> {
        let spec = match variant {
            Some(v) => self::variant(v)?,
            None => self.variant,
        };
        if !(1..=xiangqi_search::MAX_DEPTH).contains(&depth) {
            return Err(PyValueError::new_err(format!("depth: from 1 to {}", xiangqi_search::MAX_DEPTH)));
        }
        let pos = board.pos().clone();
        drop(board);
        let choice = &self.choice;
        let (r, rec, steps) = py.detach(|| {
            // The search `xiangqi tree` records, with the same recorder settings.
            let recording = record(pos.clone(), choice.for_search(&pos), &spec, depth, &RecordOptions::default());
            let (r, rec) = (recording.result, recording.recorder);
            let keep = max_nodes.max(1);
            let steps: Vec<TraceStep> =
                rec.trace().iter().filter(|t| t.node.is_none_or(|n| n < keep)).map(TraceStep::new).collect();
            (r, rec.cut(keep), steps)
        });
        Ok(Trace::new(&r, rec, spec, steps))
    }

    fn __repr__(&self) -> String {
        format!("Engine(variant='{}')", self.variant)
    }
}

/// One node of a recorded search tree.
#[pyclass(module = "xiangqi", frozen, get_all)]
#[derive(Clone)]
pub struct TraceNode {
    /// Its index in `Trace.nodes`.
    index: usize,
    /// The parent's index (`None` for the root).
    parent: Option<usize>,
    /// Plies from the root.
    ply: usize,
    /// How it was reached: `"root"`, `"move"`, `"null"` (a null move) or `"again"` (the same position re-searched).
    edge: &'static str,
    /// The move that led here (UCI), for `edge == "move"`.
    #[pyo3(name = "move")]
    mv: Option<String>,
    /// Whether the search entered it (`False`: a move a cutoff or futility pruning skipped).
    searched: bool,
    /// For a skipped move: `"cutoff"`, `"futility"` or `"beneath"`.
    pruned: Option<&'static str>,
    /// The kind of search that entered it: `"root"`, `"main"`, `"zero-window"`, `"re-search"`, `"reduced"`,
    /// `"null"` or `"quiescence"`.
    kind: Option<&'static str>,
    /// The window on entry and the value returned, for the side to move at the node.
    alpha: Option<i32>,
    /// See `alpha`.
    beta: Option<i32>,
    /// See `alpha`.
    value: Option<i32>,
    /// Plies left on entry.
    depth: Option<i32>,
    /// How it ended: `"value"`, `"beta-cutoff"`, `"null-cutoff"`, `"stand-pat"`, `"table-hit"`, `"rule"`,
    /// `"pruned"`, `"no-moves"`.
    exit: Option<&'static str>,
    /// The children's indices, in search order.
    children: Vec<usize>,
    /// Descendants not kept (beyond `max_nodes`).
    omitted: u64,
}

/// One line-level step of a recorded search: a line of the algorithm's pseudocode (its label) executed at a node,
/// with the window and values at that moment, in the order the search ran them.
#[pyclass(module = "xiangqi", frozen, get_all)]
#[derive(Clone)]
pub struct TraceStep {
    /// The line: `"enter"`, `"leaf"`, `"next"`, `"returned"`, `"best"`, `"alpha"`, `"beta"`, `"cutoff"`,
    /// `"return"`, the null move's, PVS's and quiescence's lines (as `xiangqi tree --pseudocode` lists them).
    label: &'static str,
    /// The node that ran it (an index into `Trace.nodes`), `None` when that node was not kept.
    node: Option<usize>,
    /// Plies from the root.
    ply: usize,
    /// Plies left at the node.
    depth: i32,
    /// The node's alpha at this line.
    alpha: i32,
    /// The node's beta at this line.
    beta: i32,
    /// The value the line computed (a leaf's evaluation, a child's value, the value returned), if any.
    value: Option<i32>,
    /// The best value so far, if any.
    best: Option<i32>,
    /// The move being tried (UCI), if any.
    #[pyo3(name = "move")]
    mv: Option<String>,
}

impl TraceStep {
    fn new(t: &xiangqi_search::record::TraceStep<xiangqi_core::Move>) -> TraceStep {
        let s = &t.step;
        TraceStep {
            label: s.label.name(),
            node: t.node,
            ply: s.ply,
            depth: s.depth,
            alpha: s.alpha,
            beta: s.beta,
            value: s.value,
            best: s.best,
            mv: s.mv.map(|m| m.to_string()),
        }
    }
}

#[pymethods]
impl TraceStep {
    fn __repr__(&self) -> String {
        let mv = self.mv.as_deref().map_or(String::new(), |m| format!(" {m}"));
        let value = self.value.map_or(String::new(), |v| format!(" value={v}"));
        format!("<TraceStep {}{mv} ply={} [{}, {}]{value}>", self.label, self.ply, self.alpha, self.beta)
    }
}

/// A recorded search: its result, the nodes in search order (`nodes[0]` is the root) and the line-level steps.
#[pyclass(module = "xiangqi", frozen)]
pub struct Trace {
    /// The nodes.
    #[pyo3(get)]
    nodes: Vec<TraceNode>,
    /// The line-level steps, in the order the search ran them.
    #[pyo3(get)]
    steps: Vec<TraceStep>,
    /// The root's value.
    #[pyo3(get)]
    score: i32,
    /// The best move.
    #[pyo3(get)]
    best_move: Option<Move>,
    /// The variant searched.
    #[pyo3(get)]
    variant: String,
    /// Nodes the search visited in all (kept or not).
    #[pyo3(get)]
    total: u64,
    /// The tree as Graphviz DOT.
    dot: String,
}

impl Trace {
    fn new(
        r: &CoreResult<xiangqi_core::Move>,
        rec: Recorder<xiangqi_core::Move>,
        spec: VariantConfig,
        steps: Vec<TraceStep>,
    ) -> Trace {
        use xiangqi_search::Exit;
        let nodes = rec
            .nodes()
            .iter()
            .enumerate()
            .map(|(index, n)| {
                let (edge, mv) = match n.edge {
                    Edge::Root => ("root", None),
                    Edge::Move(m) => ("move", Some(m.to_string())),
                    Edge::Null => ("null", None),
                    Edge::Again => ("again", None),
                };
                let mut node = TraceNode {
                    index,
                    parent: n.parent,
                    ply: n.ply,
                    edge,
                    mv,
                    searched: !n.is_pruned(),
                    pruned: None,
                    kind: None,
                    alpha: None,
                    beta: None,
                    value: None,
                    depth: None,
                    exit: None,
                    children: n.children.clone(),
                    omitted: n.omitted,
                };
                match n.state {
                    State::Pruned(why) => node.pruned = Some(why.name()),
                    State::Searched(v) => {
                        node.kind = Some(v.kind.name());
                        node.alpha = Some(v.alpha);
                        node.beta = Some(v.beta);
                        node.value = v.value;
                        node.depth = Some(v.depth);
                        node.exit = v.exit.map(Exit::name);
                    }
                }
                node
            })
            .collect();
        Trace {
            nodes,
            steps,
            score: r.score,
            best_move: r.best_move.map(|inner| Move { inner }),
            variant: spec.to_string(),
            total: rec.total(),
            dot: rec.to_dot(&DotOptions::default()),
        }
    }
}

#[pymethods]
impl Trace {
    /// The tree as Graphviz DOT, as `xiangqi tree` draws it.
    fn to_dot(&self) -> String {
        self.dot.clone()
    }

    fn __len__(&self) -> usize {
        self.nodes.len()
    }

    fn __repr__(&self) -> String {
        format!("<Trace of {} nodes ({} visited), score {}>", self.nodes.len(), self.total, self.score)
    }
}
