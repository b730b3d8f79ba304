//! Recording the searched tree, for drawing it.
//!
//! [`Recorder`] is an [`Observer`]: it keeps every node a search enters (the move that led there, the alpha/beta
//! window on entry, the depth left, the kind of search, the value returned and how the node ended) and every move
//! that was never searched because of a cutoff. [`Recorder::to_dot`] writes the tree as Graphviz DOT, with the
//! pruned moves grey as in the spec's alpha-beta figure. Ordinary searches use [`crate::Silent`] and pay nothing.
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

use crate::game::{Evaluator, FastPaths, Score, INFINITY, MATE, MATE_BOUND};
use crate::policy::{Exit, NodeKind, Observer};
use std::fmt::{Display, Write};

/// How many nodes a [`Recorder`] keeps by default; the search goes on beyond, only counting what it does not keep.
pub const DEFAULT_CAPACITY: usize = 200_000;

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
}

impl<M: Copy> Default for Recorder<M> {
    fn default() -> Self {
        Recorder::with_capacity(DEFAULT_CAPACITY)
    }
}

impl<M: Copy> Recorder<M> {
    /// A recorder keeping at most `capacity` nodes (at least one).
    pub fn with_capacity(capacity: usize) -> Self {
        Recorder {
            nodes: Vec::new(),
            roots: Vec::new(),
            stack: Vec::new(),
            capacity: capacity.max(1),
            dropped: 0,
            unbalanced: 0,
        }
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
        self.nodes.push(Node { parent, ply, edge, state, children: Vec::new(), omitted: 0, static_value: None });
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
        self.stack.push(Frame { id, anchor, ply, pending: None, last: None });
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
        self.add(child_ply, Edge::Move(m), State::Pruned(PruneReason::Cutoff));
    }
}

/// Whose point of view windows and values are drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// The root player's: MAX levels (the root's side to move) and MIN levels, as in the spec's figure.
    #[default]
    Root,
    /// The side to move's at each node, as the negamax search sees them.
    Mover,
}

/// How [`Recorder::to_dot`] draws.
#[derive(Debug, Clone, Default)]
pub struct DotOptions {
    /// A title above the tree (may hold several lines).
    pub title: String,
    /// Whose point of view values are drawn from.
    pub view: View,
    /// Lay the tree out left to right instead of top down; `None` chooses left to right for wide trees.
    pub left_to_right: Option<bool>,
    /// Leave out the legend.
    pub no_legend: bool,
    /// Runs of at least this many pruned sibling moves (without children or a static value) share one grey box
    /// `g<index of the first>` listing them; 0 (the default) draws every pruned move in its own box.
    pub group_pruned: usize,
}

// Colours: fills by kind of search, borders by how a node ended.
const FILL_MAIN: &str = "#ffffff";
const FILL_ZERO: &str = "#dbeafe";
const FILL_RESEARCH: &str = "#e9d5ff";
const FILL_REDUCED: &str = "#cffafe";
const FILL_NULL: &str = "#fef3c7";
const FILL_QUIET: &str = "#dcfce7";
const FILL_PRUNED: &str = "#f3f4f6";
const GREY: &str = "#9ca3af";
const BORDER_CUT: &str = "#dc2626";
const BORDER_NULL_CUT: &str = "#ea580c";
const BORDER_STAND_PAT: &str = "#16a34a";
const BORDER_TABLE: &str = "#2563eb";
const BORDER_OTHER: &str = "#7c2d12";

/// A score as text: `∞`, mate distances as `M3` (mating in 3 plies) or `-M3`, otherwise the number.
pub fn score_label(v: Score) -> String {
    if v >= INFINITY {
        "∞".to_owned()
    } else if v <= -INFINITY {
        "-∞".to_owned()
    } else if v.abs() >= MATE_BOUND {
        format!("{}M{}", if v < 0 { "-" } else { "" }, MATE - v.abs())
    } else {
        v.to_string()
    }
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

impl<M: Copy + Display> Recorder<M> {
    /// The tree as Graphviz DOT, moves written with their `Display`. See [`Recorder::to_dot_with`].
    pub fn to_dot(&self, opts: &DotOptions) -> String {
        self.to_dot_with(opts, |m| m.to_string())
    }

    /// The tree as Graphviz DOT, moves written by `move_label`.
    ///
    /// Each kept node is a DOT node `n<index>` whose label gives its move, its window `[alpha, beta]` on entry with
    /// the depth left, and its value; its fill tells the kind of search (zero window, re-search, reduced, null
    /// move, quiescence as an ellipse), its border how it ended (beta cutoff, null-move cutoff, stand pat, table
    /// hit). Moves never searched are grey and dashed (runs of them may share one box, see
    /// [`DotOptions::group_pruned`]). Each edge `n<parent> -> n<child>` is one parent-child link;
    /// a node that lost descendants to the capacity or to [`Recorder::cut`] gets a dashed box `m<index>` counting
    /// them; the legend is the single node `legend`.
    pub fn to_dot_with(&self, opts: &DotOptions, move_label: impl Fn(&M) -> String) -> String {
        let mut out = String::new();
        let horizontal = opts.left_to_right.unwrap_or_else(|| self.widest_level() > 20);
        let _ = writeln!(out, "digraph search {{");
        let mut title = opts.title.clone();
        let view_note = match opts.view {
            View::Root => "windows and values from the root player's view (MAX levels: the root's side to move)",
            View::Mover => "windows and values from the side to move's view at each node (negamax)",
        };
        if !title.is_empty() {
            title.push('\n');
        }
        title.push_str(view_note);
        if self.dropped > 0 {
            let _ = write!(
                title,
                "\ntree cut: {} of {} nodes drawn; dashed boxes count the nodes not drawn",
                self.nodes.len(),
                self.total()
            );
        }
        let _ = writeln!(
            out,
            "  graph [label=\"{}\", labelloc=t, fontname=\"Helvetica\", fontsize=12, rankdir={}, nodesep=0.12, \
             ranksep=0.3];",
            escape(&title),
            if horizontal { "LR" } else { "TB" }
        );
        let _ =
            writeln!(out, "  node [fontname=\"Helvetica\", fontsize=9, margin=\"0.06,0.03\", height=0.2, width=0.3];");
        let _ = writeln!(out, "  edge [arrowsize=0.5];");
        let groups = self.pruned_runs(opts.group_pruned);
        let (sep, per_line) = if horizontal { ("   ", 12) } else { ("\n", 6) };
        for (id, n) in self.nodes.iter().enumerate() {
            match groups[id] {
                None => {
                    let _ = writeln!(out, "  n{id} [{}];", self.node_attrs(n, opts.view, sep, &move_label));
                }
                Some((first, len)) if first == id => {
                    let run = &self.nodes[n.parent.expect("pruned moves have a parent")].children;
                    let at = run.iter().position(|&c| c == id).expect("a child of its parent");
                    let mut label = format!("{len} moves pruned");
                    for (i, &c) in run[at..at + len].iter().enumerate() {
                        if i == 24 {
                            label.push_str(" …");
                            break;
                        }
                        label.push(if i % per_line == 0 { '\n' } else { ' ' });
                        if let Edge::Move(m) = &self.nodes[c].edge {
                            label.push_str(&move_label(m));
                        }
                    }
                    let _ = writeln!(
                        out,
                        "  g{id} [label=\"{}\", shape=box, style=\"rounded,filled,dashed\", fillcolor=\"{FILL_PRUNED}\", \
                         color=\"{GREY}\", fontcolor=\"{GREY}\"];",
                        escape(&label)
                    );
                }
                Some(_) => {}
            }
        }
        for (id, n) in self.nodes.iter().enumerate() {
            match (n.parent, groups[id]) {
                (Some(p), None) => {
                    let _ = writeln!(out, "  n{p} -> n{id}{};", edge_attrs(n));
                }
                (Some(p), Some((first, _))) if first == id => {
                    let _ = writeln!(out, "  n{p} -> g{id}{};", edge_attrs(n));
                }
                _ => {}
            }
            if n.omitted > 0 {
                let _ = writeln!(
                    out,
                    "  m{id} [label=\"+{} not drawn\", shape=note, style=dashed, color=\"{GREY}\", \
                     fontcolor=\"{GREY}\"];",
                    n.omitted
                );
                let _ = writeln!(out, "  n{id} -> m{id} [style=dashed, color=\"{GREY}\"];");
            }
        }
        if !opts.no_legend {
            let _ = writeln!(out, "  legend [shape=plaintext, margin=0, label=<{}>];", self.legend(opts.view));
        }
        out.push_str("}\n");
        out
    }

    /// For each node in a run of at least `min` pruned sibling leaves: the run's first node and length.
    fn pruned_runs(&self, min: usize) -> Vec<Option<(usize, usize)>> {
        let mut groups = vec![None; self.nodes.len()];
        if min == 0 {
            return groups;
        }
        let lone = |c: usize| {
            let n = &self.nodes[c];
            n.is_pruned() && n.children.is_empty() && n.omitted == 0 && n.static_value.is_none()
        };
        for n in &self.nodes {
            let mut i = 0;
            while i < n.children.len() {
                let start = i;
                while i < n.children.len() && lone(n.children[i]) {
                    i += 1;
                }
                if i - start >= min.max(2) {
                    for &c in &n.children[start..i] {
                        groups[c] = Some((n.children[start], i - start));
                    }
                }
                i = i.max(start + 1);
            }
        }
        groups
    }

    /// The largest number of nodes at one level.
    fn widest_level(&self) -> usize {
        let mut level = vec![0usize; self.nodes.len()];
        let mut count: Vec<usize> = Vec::new();
        for (id, n) in self.nodes.iter().enumerate() {
            level[id] = n.parent.map_or(0, |p| level[p] + 1);
            if count.len() <= level[id] {
                count.resize(level[id] + 1, 0);
            }
            count[level[id]] += 1;
        }
        count.into_iter().max().unwrap_or(0)
    }

    /// The attributes of a node; `sep` separates the lines of its label (a newline top down, spaces left to right,
    /// where width is cheap and height is not).
    fn node_attrs(&self, n: &Node<M>, view: View, sep: &str, move_label: &impl Fn(&M) -> String) -> String {
        let flip = view == View::Root && n.ply % 2 == 1;
        let pov = |v: Score| if flip { -v } else { v };
        let mut first = match n.edge {
            Edge::Root => "root".to_owned(),
            Edge::Move(m) => move_label(&m),
            Edge::Null => "null move".to_owned(),
            Edge::Again => "same position".to_owned(),
        };
        if view == View::Root {
            first.push_str(if n.ply % 2 == 0 { " (max)" } else { " (min)" });
        }
        match &n.state {
            State::Pruned(reason) => {
                let mut label = first;
                match reason {
                    PruneReason::Cutoff => {
                        let _ = write!(label, "{sep}pruned");
                    }
                    PruneReason::Futility => {
                        let _ = write!(label, "{sep}futility pruned");
                    }
                    PruneReason::Beneath => {}
                }
                if let Some(v) = n.static_value {
                    let _ = write!(label, "{sep}{}", score_label(pov(v)));
                }
                format!(
                    "label=\"{}\", shape=box, style=\"rounded,filled,dashed\", fillcolor=\"{FILL_PRUNED}\", \
                     color=\"{GREY}\", fontcolor=\"{GREY}\"",
                    escape(&label)
                )
            }
            State::Searched(v) => {
                let (a, b) = if flip { (-v.beta, -v.alpha) } else { (v.alpha, v.beta) };
                let (fill, tag, shape) = match (v.kind, n.edge) {
                    (NodeKind::Quiescence, _) => (FILL_QUIET, "quiescence", "ellipse"),
                    (NodeKind::ZeroWindow, _) => (FILL_ZERO, "zero window", "box"),
                    (NodeKind::Research, _) => (FILL_RESEARCH, "re-search", "box"),
                    (NodeKind::Reduced, _) => (FILL_REDUCED, "reduced", "box"),
                    (NodeKind::Null, _) => (FILL_NULL, "", "hexagon"),
                    (_, Edge::Again) => (FILL_NULL, "verification", "box"),
                    _ => (FILL_MAIN, "", "box"),
                };
                let mut label = first;
                if !tag.is_empty() {
                    let _ = write!(label, " · {tag}");
                }
                let _ = write!(label, "{sep}[{}, {}] d={}", score_label(a), score_label(b), v.depth);
                let value = v.value.map_or("?".to_owned(), |x| score_label(pov(x)));
                let (border, exit_tag) = match v.exit {
                    // In the root player's view a MIN node cuts off below alpha (the spec's "Alpha pruning").
                    Some(Exit::BetaCutoff) if flip => (Some(BORDER_CUT), "α-cutoff"),
                    Some(Exit::BetaCutoff) => (Some(BORDER_CUT), "β-cutoff"),
                    Some(Exit::NullCutoff) => (Some(BORDER_NULL_CUT), "null-move cutoff"),
                    Some(Exit::StandPat) => (Some(BORDER_STAND_PAT), "stand pat"),
                    Some(Exit::TableHit) => (Some(BORDER_TABLE), "table hit"),
                    Some(Exit::Rule) => (Some(BORDER_OTHER), "rule"),
                    Some(Exit::Pruned) => (Some(BORDER_OTHER), "node pruned"),
                    Some(Exit::NoMoves) => (Some(BORDER_OTHER), "no moves"),
                    Some(Exit::Value) | None => (None, ""),
                };
                let _ = write!(label, "{sep}= {value}");
                if !exit_tag.is_empty() {
                    let _ = write!(label, " · {exit_tag}");
                }
                let style = if shape == "box" { "rounded,filled" } else { "filled" };
                let mut attrs =
                    format!("label=\"{}\", shape={shape}, style=\"{style}\", fillcolor=\"{fill}\"", escape(&label));
                if let Some(c) = border {
                    let _ = write!(attrs, ", color=\"{c}\", penwidth=2");
                }
                if matches!(n.edge, Edge::Root) {
                    attrs.push_str(", peripheries=2");
                }
                attrs
            }
        }
    }

    /// The legend as an HTML-like table, with a row for each mark the tree uses.
    fn legend(&self, view: View) -> String {
        let has = |f: &dyn Fn(&Node<M>) -> bool| self.nodes.iter().any(f);
        let kind = |k: NodeKind| move |n: &Node<M>| n.visit().is_some_and(|v| v.kind == k);
        let exit = |e: Exit| move |n: &Node<M>| n.visit().is_some_and(|v| v.exit == Some(e));
        let mut rows: Vec<(String, &str, &str, String)> = Vec::new(); // (text, fill, border, font)
        let mut row = |text: &str, fill: &'static str, border: &'static str, font: &str| {
            rows.push((text.to_owned(), fill, border, font.to_owned()))
        };
        row("searched node: move / [α, β] on entry, d = plies left / = value returned", FILL_MAIN, "#000000", "");
        if has(&kind(NodeKind::ZeroWindow)) {
            row("zero-window search (PVS)", FILL_ZERO, "#000000", "");
        }
        if has(&kind(NodeKind::Research)) {
            row("PVS re-search with the full window", FILL_RESEARCH, "#000000", "");
        }
        if has(&kind(NodeKind::Reduced)) {
            row("reduced search of a late move (LMR)", FILL_REDUCED, "#000000", "");
        }
        if has(&kind(NodeKind::Null)) {
            row("hexagon: after a null move", FILL_NULL, "#000000", "");
        }
        if has(&kind(NodeKind::Quiescence)) {
            row("ellipse: quiescence node (captures only)", FILL_QUIET, "#000000", "");
        }
        if has(&exit(Exit::BetaCutoff)) {
            let text = match view {
                View::Root => "red border: cutoff (β at MAX nodes, α at MIN nodes), the moves after it were pruned",
                View::Mover => "red border: beta cutoff, the moves after it were pruned",
            };
            row(text, FILL_MAIN, BORDER_CUT, "");
        }
        if has(&exit(Exit::NullCutoff)) {
            row("orange border: null-move cutoff, no move searched", FILL_MAIN, BORDER_NULL_CUT, "");
        }
        if has(&exit(Exit::StandPat)) {
            row("green border: stand pat at or above beta", FILL_MAIN, BORDER_STAND_PAT, "");
        }
        if has(&exit(Exit::TableHit)) {
            row("blue border: transposition table answered", FILL_MAIN, BORDER_TABLE, "");
        }
        if has(&|n: &Node<M>| matches!(n.visit().and_then(|v| v.exit), Some(Exit::Rule | Exit::Pruned | Exit::NoMoves)))
        {
            row("brown border: decided by the rules, node pruning, or no moves", FILL_MAIN, BORDER_OTHER, "");
        }
        row("grey, dashed: never searched (pruned)", FILL_PRUNED, GREY, GREY);
        let mut t = String::from("<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"2\" CELLPADDING=\"3\">");
        t.push_str("<TR><TD BORDER=\"0\"><B>legend</B></TD></TR>");
        for (text, fill, border, font) in rows {
            let text = html_escape(&text);
            let text = if font.is_empty() { text } else { format!("<FONT COLOR=\"{font}\">{text}</FONT>") };
            let _ = write!(t, "<TR><TD ALIGN=\"LEFT\" BGCOLOR=\"{fill}\" COLOR=\"{border}\">{text}</TD></TR>");
        }
        t.push_str("</TABLE>");
        t
    }
}

fn edge_attrs<M>(n: &Node<M>) -> String {
    match (&n.state, &n.edge) {
        (State::Pruned(_), _) => format!(" [style=dashed, color=\"{GREY}\"]"),
        (_, Edge::Null) => " [style=dashed, color=\"#b45309\"]".to_owned(),
        (_, Edge::Again) => " [style=dotted]".to_owned(),
        (State::Searched(v), _) if v.kind == NodeKind::Research => " [color=\"#7e22ce\", penwidth=1.5]".to_owned(),
        (State::Searched(v), _) if v.kind == NodeKind::ZeroWindow => " [color=\"#1d4ed8\"]".to_owned(),
        _ => String::new(),
    }
}
