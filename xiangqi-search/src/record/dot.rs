//! The Graphviz DOT writer of a recorded tree: [`Recorder::to_dot`], its [`DotOptions`] and the styling (fills
//! by kind of search, borders by how a node ended, grey pruned moves, the legend).

use super::{Edge, Node, PruneReason, Recorder, State};
use crate::game::{Score, INFINITY, MATE, MATE_BOUND};
use crate::policy::{Exit, NodeKind};
use std::fmt::{Display, Write};

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
