//! Recording the searched tree, for drawing it, and the search's line-level trace, for stepping through it.
//!
//! [`record`] (a game and its evaluator) and [`record_tree`] (a synthetic tree written as text) record one search
//! in a call: `xiangqi tree` and the page's `watch` both use them. Besides the tree, the recorder keeps the
//! search's [`Step`]s ([`Recorder::trace`], bounded like the nodes): each names by its [`crate::Label`] the line of
//! the variant's pseudocode ([`pseudocode::listing`]) that a node function has just executed, with the frame's
//! values. Each move pruned by a cutoff keeps the cutoff ([`Cutoff`]), which [`Recorder::explain_text`] turns into
//! a sentence and [`trace_text`] prints after the cutoff's step.
//!
//! [`Recorder`] is an [`Observer`]: it keeps every node a search enters (the move that led there, the alpha/beta
//! window on entry, the depth left, the kind of search, the value returned and how the node ended) and every move
//! that was never searched because of a cutoff. [`Recorder::to_dot`] (the Graphviz writer, `dot.rs`) writes the
//! tree as Graphviz DOT, with the pruned moves grey as in the spec's alpha-beta figure. Ordinary searches use
//! [`crate::Silent`] and pay nothing.
//!
//! Windows and values are recorded as observers receive them: from the point of view of the side to move at the
//! node (the negamax convention), whatever the form of the search. [`View::Root`] turns them back into the root
//! player's view when drawing, with MAX and MIN levels as in the spec.
//!
//! ```
//! use xiangqi_search::record::{Recorder, State};
//! use xiangqi_search::synthetic::{Tree, TreeEval};
//! use xiangqi_search::{AlphaBeta, Limits, Searcher};
//!
//! let spec = "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))";
//! let mut s = Searcher::<_, _, AlphaBeta, Recorder<_>>::new(Tree::parse(spec).unwrap(), TreeEval);
//! let r = s.search(&Limits::depth(4));
//! let rec = &s.observer;
//! // Every node entered is recorded, plus the three moves the cutoffs skipped.
//! assert_eq!(rec.searched_count() as u64, r.stats.main_nodes);
//! assert_eq!(rec.pruned_count(), 3);
//! assert_eq!(rec.node(rec.roots()[0]).visit().unwrap().value, Some(6));
//! let dot = rec.to_dot(&Default::default());
//! assert!(dot.starts_with("digraph search {"));
//! ```

use crate::game::{Evaluator, FastPaths, Score};
use crate::policy::{Exit, Label, NodeKind, Observer, Step};

mod dot;
mod explain;
pub mod pseudocode;
mod search;
mod text;

pub use dot::{score_label, DotOptions, View};
pub use explain::{Cutoff, Explanation, Sides};
pub use search::{record, record_tree, RecordError, RecordOptions, Recording};
pub use text::trace_text;

/// How many nodes a [`Recorder`] keeps by default; the search goes on beyond, only counting what it does not keep.
pub const DEFAULT_CAPACITY: usize = 200_000;

/// How many line-level steps a [`Recorder`] keeps by default; past that it only counts them.
pub const DEFAULT_TRACE_CAPACITY: usize = 200_000;

/// One step of a recorded trace: the line-level event and the recorded node that emitted it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceStep<M> {
    /// The event.
    pub step: Step<M>,
    /// The node (an index into [`Recorder::nodes`]), `None` when the node was not kept.
    pub node: Option<usize>,
}

/// How a node was reached from its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge<M> {
    /// The node is a root: the search started here.
    Root,
    /// A move.
    Move(M),
    /// A null move (the side to move passed).
    Null,
    /// No move: the same position searched again at the same ply (razoring's quiescence probe, the verification
    /// of a null-move cutoff).
    Again,
}

/// Why a move was never searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PruneReason {
    /// A move before it reached beta (the observer's `pruned`).
    Cutoff,
    /// Futility pruning skipped it: it was announced but never entered.
    Futility,
    /// It lies inside a pruned subtree, added afterwards by [`Recorder::fill_pruned`].
    Beneath,
}

impl PruneReason {
    /// Every reason, in declaration order.
    pub const ALL: [PruneReason; 3] = [PruneReason::Cutoff, PruneReason::Futility, PruneReason::Beneath];

    /// The reason's name, as the page's protocol and the Python package write it.
    ///
    /// ```
    /// assert_eq!(xiangqi_search::record::PruneReason::Beneath.name(), "beneath");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            PruneReason::Cutoff => "cutoff",
            PruneReason::Futility => "futility",
            PruneReason::Beneath => "beneath",
        }
    }
}

// The names of the observer's enums live here, beside the recorder that reports them: the one spelling every front
// end (the page's protocol, the Python package) writes.
impl NodeKind {
    /// Every kind, in declaration order.
    pub const ALL: [NodeKind; 7] = [
        NodeKind::Root,
        NodeKind::Main,
        NodeKind::ZeroWindow,
        NodeKind::Research,
        NodeKind::Reduced,
        NodeKind::Null,
        NodeKind::Quiescence,
    ];

    /// The kind's name, as the page's protocol and the Python package write it.
    ///
    /// ```
    /// assert_eq!(xiangqi_search::NodeKind::Research.name(), "re-search");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            NodeKind::Root => "root",
            NodeKind::Main => "main",
            NodeKind::ZeroWindow => "zero-window",
            NodeKind::Research => "re-search",
            NodeKind::Reduced => "reduced",
            NodeKind::Null => "null",
            NodeKind::Quiescence => "quiescence",
        }
    }
}

impl Exit {
    /// Every exit, in declaration order.
    pub const ALL: [Exit; 8] = [
        Exit::Value,
        Exit::BetaCutoff,
        Exit::NullCutoff,
        Exit::StandPat,
        Exit::TableHit,
        Exit::Rule,
        Exit::Pruned,
        Exit::NoMoves,
    ];

    /// The exit's name, as the page's protocol and the Python package write it.
    ///
    /// ```
    /// assert_eq!(xiangqi_search::Exit::BetaCutoff.name(), "beta-cutoff");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
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
}

/// What the search did at a node it entered. Windows and values are from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visit {
    /// The kind of search that entered the node.
    pub kind: NodeKind,
    /// Alpha on entry.
    pub alpha: Score,
    /// Beta on entry.
    pub beta: Score,
    /// Plies left on entry.
    pub depth: i32,
    /// The value returned (`None` if the node was never left, which a complete search does not do).
    pub value: Option<Score>,
    /// How the node ended.
    pub exit: Option<Exit>,
}

/// A recorded node: searched, or a move never searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// The search entered the node.
    Searched(Visit),
    /// The move was never searched.
    Pruned(PruneReason),
}

/// One node of a recorded tree.
#[derive(Debug, Clone)]
pub struct Node<M> {
    /// The parent's index, `None` for a root.
    pub parent: Option<usize>,
    /// Plies from the root (the side to move is the root's when it is even).
    pub ply: usize,
    /// How the node was reached.
    pub edge: Edge<M>,
    /// Searched or pruned.
    pub state: State,
    /// The children's indices, in the order they were recorded.
    pub children: Vec<usize>,
    /// Descendants that exist but are not kept (the capacity was reached, or [`Recorder::cut`] dropped them).
    pub omitted: u64,
    /// The static value of a node that was never searched, for the side to move (set by [`Recorder::fill_pruned`]
    /// on pruned leaves).
    pub static_value: Option<Score>,
    /// For a move pruned by a cutoff: the cutoff (see [`Recorder::explain`]).
    pub cutoff: Option<Cutoff>,
}

impl<M> Node<M> {
    /// What the search did here, `None` for a pruned move.
    pub fn visit(&self) -> Option<&Visit> {
        match &self.state {
            State::Searched(v) => Some(v),
            State::Pruned(_) => None,
        }
    }

    /// Whether the move was never searched.
    pub fn is_pruned(&self) -> bool {
        matches!(self.state, State::Pruned(_))
    }
}

/// An entered node that has not returned yet.
#[derive(Debug, Clone)]
struct Frame<M> {
    /// Its index, `None` when it is not kept.
    id: Option<usize>,
    /// The nearest kept node at or above it.
    anchor: Option<usize>,
    ply: usize,
    /// A move announced with `edge` and not entered yet.
    pending: Option<Edge<M>>,
    /// The last move entered (PVS and LMR search the same move again without announcing it).
    last: Option<Edge<M>>,
    /// The bound the node last moved (the `alpha` or `beta` step), and its cutoff once it has one.
    bound: Option<Label>,
    cutoff: Option<Cutoff>,
}

/// The observer that records the searched tree (see the [module](self) documentation).
///
/// It keeps at most a capacity of nodes ([`DEFAULT_CAPACITY`] unless built with [`Recorder::with_capacity`]); past
/// that the search goes on and the recorder only counts, on the deepest kept ancestor, what it leaves out.
#[derive(Debug, Clone)]
pub struct Recorder<M> {
    nodes: Vec<Node<M>>,
    roots: Vec<usize>,
    stack: Vec<Frame<M>>,
    capacity: usize,
    dropped: u64,
    unbalanced: u64,
    trace: Vec<TraceStep<M>>,
    trace_capacity: usize,
    trace_dropped: u64,
}

impl<M: Copy> Default for Recorder<M> {
    fn default() -> Self {
        Recorder::with_capacity(DEFAULT_CAPACITY)
    }
}

impl<M: Copy> Recorder<M> {
    /// A recorder keeping at most `capacity` nodes (at least one).
    pub fn with_capacity(capacity: usize) -> Self {
        Recorder::with_capacities(capacity, DEFAULT_TRACE_CAPACITY)
    }

    /// A recorder keeping at most `capacity` nodes (at least one) and `trace_capacity` line-level steps.
    pub fn with_capacities(capacity: usize, trace_capacity: usize) -> Self {
        Recorder {
            nodes: Vec::new(),
            roots: Vec::new(),
            stack: Vec::new(),
            capacity: capacity.max(1),
            dropped: 0,
            unbalanced: 0,
            trace: Vec::new(),
            trace_capacity,
            trace_dropped: 0,
        }
    }

    /// The kept line-level steps, in the order the search executed them (see [`Step`] and [`pseudocode`]).
    pub fn trace(&self) -> &[TraceStep<M>] {
        &self.trace
    }

    /// Steps that were not kept (past the trace's capacity).
    pub fn trace_dropped(&self) -> u64 {
        self.trace_dropped
    }

    /// The kept nodes; a node's parent always comes before it.
    pub fn nodes(&self) -> &[Node<M>] {
        &self.nodes
    }

    /// The node at `id`.
    pub fn node(&self, id: usize) -> &Node<M> {
        &self.nodes[id]
    }

    /// The roots: one per call of the search's root (one for a fixed-depth search).
    pub fn roots(&self) -> &[usize] {
        &self.roots
    }

    /// The number of kept nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Kept nodes that the search entered.
    pub fn searched_count(&self) -> usize {
        self.nodes.iter().filter(|n| !n.is_pruned()).count()
    }

    /// Kept moves that were never searched.
    pub fn pruned_count(&self) -> usize {
        self.nodes.iter().filter(|n| n.is_pruned()).count()
    }

    /// Nodes that exist but are not kept (over the capacity, or dropped by [`Recorder::cut`]).
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Every node, kept or not: `len() + dropped()`.
    pub fn total(&self) -> u64 {
        self.nodes.len() as u64 + self.dropped
    }

    /// Events that did not fit the node structure (a `leave` without its `enter`); 0 for a well-behaved search.
    pub fn unbalanced(&self) -> u64 {
        self.unbalanced + self.stack.len() as u64
    }

    /// The edges from the root down to `id` (the root's own [`Edge::Root`] left out).
    pub fn path(&self, id: usize) -> Vec<Edge<M>> {
        let mut path = Vec::new();
        let mut at = Some(id);
        while let Some(i) = at {
            if self.nodes[i].parent.is_some() {
                path.push(self.nodes[i].edge);
            }
            at = self.nodes[i].parent;
        }
        path.reverse();
        path
    }

    /// Keeps a new node under the top frame (or as a root), unless it is over the capacity or its parent was not
    /// kept; what is not kept is counted on the nearest kept ancestor.
    fn add(&mut self, ply: usize, edge: Edge<M>, state: State) -> (Option<usize>, Option<usize>) {
        let (parent, anchor) = match self.stack.last() {
            Some(f) => (f.id, f.anchor),
            None => (None, None),
        };
        let parent_missing = !self.stack.is_empty() && parent.is_none();
        if parent_missing || self.nodes.len() >= self.capacity {
            self.dropped += 1;
            if let Some(a) = anchor {
                self.nodes[a].omitted += 1;
            }
            return (None, anchor);
        }
        let id = self.nodes.len();
        self.nodes.push(Node {
            parent,
            ply,
            edge,
            state,
            children: Vec::new(),
            omitted: 0,
            static_value: None,
            cutoff: None,
        });
        match parent {
            Some(p) => self.nodes[p].children.push(id),
            None => self.roots.push(id),
        }
        (Some(id), Some(id))
    }

    /// Records the announced move of the top frame, never entered, as skipped by futility pruning.
    fn flush_pending(&mut self) {
        let Some(top) = self.stack.last_mut() else { return };
        if let Some(edge) = top.pending.take() {
            let ply = top.ply + 1;
            self.add(ply, edge, State::Pruned(PruneReason::Futility));
        }
    }

    /// Keeps only the first `max_nodes` nodes in the order they were recorded (the search's order, then whatever
    /// [`Recorder::fill_pruned`] added): a connected tree from the root, since parents come before children. Each
    /// kept node counts in [`Node::omitted`] the descendants it lost.
    pub fn cut(&self, max_nodes: usize) -> Recorder<M> {
        let keep = max_nodes.min(self.nodes.len());
        let mut nodes: Vec<Node<M>> = self.nodes[..keep].to_vec();
        for n in &mut nodes {
            n.children.retain(|&c| c < keep);
        }
        let mut dropped = self.dropped;
        for id in keep..self.nodes.len() {
            dropped += 1;
            let mut at = self.nodes[id].parent;
            while let Some(p) = at {
                if p < keep {
                    nodes[p].omitted += 1 + self.nodes[id].omitted;
                    break;
                }
                at = self.nodes[p].parent;
            }
        }
        Recorder {
            nodes,
            roots: self.roots.iter().copied().filter(|&r| r < keep).collect(),
            stack: Vec::new(),
            capacity: self.capacity,
            dropped,
            unbalanced: self.unbalanced,
            trace: self.trace.iter().filter(|t| t.node.map_or(true, |n| n < keep)).copied().collect(),
            trace_capacity: self.trace_capacity,
            trace_dropped: self.trace_dropped,
        }
    }

    /// Adds, under every move pruned by a cutoff or by futility, the subtree the search would have walked there
    /// (every move, down to the depth the parent had left), all marked [`PruneReason::Beneath`]; leaves get their
    /// [`Node::static_value`] from `eval`. This is what the spec's figure greys out. `game` is the root position.
    /// Pruned moves of quiescence nodes only get their static value. Adds at most `budget` nodes (and never past
    /// the capacity); returns whether every subtree fitted.
    ///
    /// Only sensible for small trees, such as [`crate::synthetic::Tree`]s.
    pub fn fill_pruned<G, E>(&mut self, game: &G, eval: &mut E, budget: usize) -> bool
    where
        G: FastPaths<Move = M> + Clone,
        E: Evaluator<G, G::Move>,
    {
        let targets: Vec<usize> = (0..self.nodes.len())
            .filter(|&i| matches!(self.nodes[i].state, State::Pruned(PruneReason::Cutoff | PruneReason::Futility)))
            .collect();
        let mut left = budget;
        let mut complete = true;
        for id in targets {
            let depth = match self.nodes[id].parent.and_then(|p| self.nodes[p].visit()) {
                Some(v) if v.kind != NodeKind::Quiescence => v.depth - 1,
                _ => 0,
            };
            let mut g = game.clone();
            let path = self.path(id);
            let mut made = 0;
            for e in &path {
                match *e {
                    Edge::Move(m) => {
                        eval.on_make(&g, m);
                        g.make(m);
                        made += 1;
                    }
                    Edge::Null => g.make_null(),
                    Edge::Root | Edge::Again => {}
                }
            }
            complete &= self.fill_below(id, &mut g, eval, depth, &mut left);
            for e in path.iter().rev() {
                match e {
                    Edge::Move(_) => {
                        g.unmake();
                        eval.on_unmake();
                        made -= 1;
                    }
                    Edge::Null => g.unmake(),
                    Edge::Root | Edge::Again => {}
                }
            }
            debug_assert_eq!(made, 0);
        }
        complete
    }

    fn fill_below<G, E>(&mut self, id: usize, g: &mut G, eval: &mut E, depth: i32, left: &mut usize) -> bool
    where
        G: FastPaths<Move = M>,
        E: Evaluator<G, G::Move>,
    {
        let mut moves = crate::game::MoveBuf::new();
        if depth > 0 {
            g.generate(false, &mut moves);
        }
        if moves.is_empty() {
            let ply = self.nodes[id].ply;
            self.nodes[id].static_value = Some(if depth > 0 { g.no_moves_score(ply) } else { eval.evaluate(g) });
            return true;
        }
        let ply = self.nodes[id].ply + 1;
        for m in moves {
            if *left == 0 || self.nodes.len() >= self.capacity {
                return false;
            }
            *left -= 1;
            let child = self.nodes.len();
            self.nodes.push(Node {
                parent: Some(id),
                ply,
                edge: Edge::Move(m),
                state: State::Pruned(PruneReason::Beneath),
                children: Vec::new(),
                omitted: 0,
                static_value: None,
                cutoff: None,
            });
            self.nodes[id].children.push(child);
            eval.on_make(g, m);
            g.make(m);
            let ok = self.fill_below(child, g, eval, depth - 1, left);
            g.unmake();
            eval.on_unmake();
            if !ok {
                return false;
            }
        }
        true
    }
}

impl<G: FastPaths> Observer<G> for Recorder<G::Move> {
    const ACTIVE: bool = true;

    fn enter(&mut self, ply: usize, alpha: Score, beta: Score, depth: i32, kind: NodeKind) {
        let edge = match self.stack.last_mut() {
            None => Edge::Root,
            Some(top) if ply <= top.ply => Edge::Again,
            Some(top) if kind == NodeKind::Null => {
                if matches!(top.pending, Some(Edge::Null)) {
                    top.pending = None;
                }
                Edge::Null
            }
            Some(top) => match top.pending.take() {
                Some(e) => {
                    top.last = Some(e);
                    e
                }
                // A move searched again (PVS re-search, full search after a reduced one).
                None => top.last.unwrap_or(Edge::Again),
            },
        };
        let visit = Visit { kind, alpha, beta, depth, value: None, exit: None };
        let (id, anchor) = self.add(ply, edge, State::Searched(visit));
        self.stack.push(Frame { id, anchor, ply, pending: None, last: None, bound: None, cutoff: None });
    }

    fn edge(&mut self, ply: usize, m: Option<G::Move>) {
        self.flush_pending();
        match self.stack.last_mut() {
            Some(top) => {
                if top.ply != ply {
                    self.unbalanced += 1;
                }
                top.pending = Some(m.map_or(Edge::Null, Edge::Move));
            }
            None => self.unbalanced += 1,
        }
    }

    fn leave(&mut self, ply: usize, score: Score, exit: Exit) {
        if !matches!(self.stack.last(), Some(top) if top.ply == ply) {
            self.unbalanced += 1;
            return;
        }
        self.flush_pending();
        let frame = self.stack.pop().expect("checked above");
        if let Some(id) = frame.id {
            if let State::Searched(v) = &mut self.nodes[id].state {
                v.value = Some(score);
                v.exit = Some(exit);
            }
        }
    }

    fn pruned(&mut self, ply: usize, m: G::Move) {
        let Some(top) = self.stack.last() else {
            self.unbalanced += 1;
            return;
        };
        if top.ply != ply {
            self.unbalanced += 1;
        }
        let child_ply = top.ply + 1;
        let cutoff = top.cutoff;
        if let (Some(id), _) = self.add(child_ply, Edge::Move(m), State::Pruned(PruneReason::Cutoff)) {
            self.nodes[id].cutoff = cutoff;
        }
    }

    fn step(&mut self, step: Step<G::Move>) {
        let Some(top) = self.stack.last_mut() else {
            self.unbalanced += 1;
            return;
        };
        match step.label {
            Label::Alpha | Label::Beta | Label::QsAlpha => top.bound = Some(step.label),
            Label::Cutoff | Label::QsCutoff => {
                let child = top.id.and_then(|id| self.nodes[id].children.last().copied());
                top.cutoff = top.id.map(|node| Cutoff {
                    node,
                    child,
                    value: step.value.unwrap_or(0),
                    alpha: step.alpha,
                    beta: step.beta,
                    first_to_move: step.first_to_move,
                    lowered_beta: top.bound == Some(Label::Beta),
                });
            }
            _ => {}
        }
        let node = top.id;
        if self.trace.len() < self.trace_capacity {
            self.trace.push(TraceStep { step, node });
        } else {
            self.trace_dropped += 1;
        }
    }
}
