//! Why a move was never searched: the structured explanation ([`Explanation`]) and its English sentence.

use super::{Edge, PruneReason, Recorder, State};
use crate::game::Score;

/// The cutoff that pruned a node's remaining moves, as the node's steps reported it: the structured form of the
/// sentence "not searched: at node X (Black to move), after child Y returned 5, β = 5 ≤ α = 6". Windows and
/// values are those of the node function's own variables (see [`crate::Step`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cutoff {
    /// The node whose moves were pruned (an index into [`Recorder::nodes`]).
    pub node: usize,
    /// The child whose value caused the cutoff (`None` if it was not kept).
    pub child: Option<usize>,
    /// The value the child returned, from the node's view.
    pub value: Score,
    /// The node's alpha after the child.
    pub alpha: Score,
    /// The node's beta after the child.
    pub beta: Score,
    /// Whether the side to move at the node is the first player (Red; MAX in a synthetic tree).
    pub first_to_move: bool,
    /// Whether the child lowered beta (a MIN node of the two-sided forms) rather than raised alpha.
    pub lowered_beta: bool,
}

/// Why a recorded move was never searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Explanation {
    /// A cutoff at its parent.
    Cutoff(Cutoff),
    /// It lies below `pruned`, a move that was never searched ([`Recorder::fill_pruned`]'s subtrees).
    Beneath {
        /// The nearest ancestor pruned by a cutoff or by futility.
        pruned: usize,
    },
    /// Futility pruning (the engine's) skipped it at `node`.
    Futility {
        /// Its parent.
        node: usize,
    },
}

/// How sentences name the two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sides {
    /// The first player (MAX).
    pub first: &'static str,
    /// The second player (MIN).
    pub second: &'static str,
}

impl Default for Sides {
    fn default() -> Self {
        Sides { first: "Red", second: "Black" }
    }
}

impl<M: Copy> Recorder<M> {
    /// Why the node `id` was never searched; `None` for a searched node (or a cutoff the recorder did not see).
    pub fn explain(&self, id: usize) -> Option<Explanation> {
        let node = &self.nodes[id];
        match node.state {
            State::Searched(_) => None,
            State::Pruned(PruneReason::Cutoff) => node.cutoff.map(Explanation::Cutoff),
            State::Pruned(PruneReason::Futility) => node.parent.map(|node| Explanation::Futility { node }),
            State::Pruned(PruneReason::Beneath) => {
                let mut at = node.parent;
                while let Some(p) = at {
                    if matches!(self.nodes[p].state, State::Pruned(PruneReason::Cutoff | PruneReason::Futility)) {
                        return Some(Explanation::Beneath { pruned: p });
                    }
                    at = self.nodes[p].parent;
                }
                None
            }
        }
    }

    /// The name of node `id`: `root`, or the moves from the root written by `label` and joined by spaces (a null
    /// move is `null`), as the drawn tree labels its edges.
    pub fn node_name(&self, id: usize, label: impl Fn(&M) -> String) -> String {
        let path = self.path(id);
        if path.is_empty() {
            return "root".to_owned();
        }
        path.iter()
            .map(|e| match e {
                Edge::Move(m) => label(m),
                Edge::Null => "null".to_owned(),
                Edge::Root | Edge::Again => "again".to_owned(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Why the node `id` was never searched, as an English sentence: "not searched: at node [#0 #1] (Black to
    /// move), after child #0 returned 5, β = 5 ≤ α = 6". Nodes are named by [`Recorder::node_name`].
    pub fn explain_text(&self, id: usize, label: impl Fn(&M) -> String, sides: Sides) -> Option<String> {
        Some(match self.explain(id)? {
            Explanation::Cutoff(c) => {
                let side = if c.first_to_move { sides.first } else { sides.second };
                let child = c.child.map_or("a child".to_owned(), |ch| {
                    format!("child {}", self.path(ch).last().map_or("?".to_owned(), |e| edge_name(e, &label)))
                });
                let bounds = if c.lowered_beta {
                    format!("β = {} ≤ α = {}", c.beta, c.alpha)
                } else {
                    format!("α = {} ≥ β = {}", c.alpha, c.beta)
                };
                format!(
                    "not searched: at node [{}] ({side} to move), after {child} returned {}, {bounds}",
                    self.node_name(c.node, &label),
                    c.value
                )
            }
            Explanation::Beneath { pruned } => {
                format!("not searched: below [{}], which was not searched", self.node_name(pruned, &label))
            }
            Explanation::Futility { node } => {
                format!("not searched: futility pruning skipped it at node [{}]", self.node_name(node, &label))
            }
        })
    }
}

fn edge_name<M>(e: &Edge<M>, label: impl Fn(&M) -> String) -> String {
    match e {
        Edge::Move(m) => label(m),
        Edge::Null => "null".to_owned(),
        Edge::Root | Edge::Again => "again".to_owned(),
    }
}
