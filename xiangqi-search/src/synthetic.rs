//! A synthetic game tree: explicit nodes with leaf values, so tests (and students) can see exactly which leaves
//! each algorithm visits.
//!
//! The text form nests children in parentheses, leaves are integers from the first (MAX, root) player's view.
//! The alpha-beta figure of the spec is:
//!
//! ```
//! use xiangqi_search::synthetic::{Tree, TreeEval};
//! use xiangqi_search::{AlphaBeta, Limits, Searcher, Minimax};
//!
//! let spec = "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))";
//! let mut ab = Searcher::<_, _, AlphaBeta>::new(Tree::parse(spec).unwrap(), TreeEval);
//! let r = ab.search(&Limits::depth(4));
//! assert_eq!(r.score, 6);
//! // The leaf 5 after 7 and 4 is pruned, as the spec explains; so are 9, and 9 8 6 at the end.
//! assert_eq!(ab.game.visited_leaves(), vec![0, 1, 2, 3, 5, 6, 7, 9, 10]);
//! let mut mm = Searcher::<_, _, Minimax>::new(Tree::parse(spec).unwrap(), TreeEval);
//! assert_eq!(mm.search(&Limits::depth(4)).score, 6);
//! assert_eq!(mm.game.visited_leaves().len(), 14);
//! ```

use crate::game::{Evaluator, GameTree, MoveBuf, Score, SimpleGame};
use std::cell::RefCell;
use std::fmt;

#[derive(Debug, Clone)]
struct Node {
    children: Vec<usize>,
    value: Score,
    leaf: Option<usize>,
}

/// A game tree with explicit nodes. The root's player is MAX (the first player).
#[derive(Debug, Clone)]
pub struct Tree {
    nodes: Vec<Node>,
    path: Vec<usize>,
    visits: RefCell<Vec<usize>>,
}

/// A move in a [`Tree`]: the index of the child to go to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Child(pub u16);

impl fmt::Display for Child {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Why a tree text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid tree at character {at}: {reason}")]
pub struct TreeParseError {
    /// Where (in characters).
    pub at: usize,
    /// What is wrong.
    pub reason: &'static str,
}

impl Tree {
    /// Reads the nested-parentheses form, for example `((5 6) (7 4 5))`.
    pub fn parse(text: &str) -> Result<Tree, TreeParseError> {
        let chars: Vec<char> = text.chars().collect();
        let mut tree = Tree { nodes: Vec::new(), path: vec![0], visits: RefCell::new(Vec::new()) };
        let mut leaves = 0;
        let mut pos = 0;
        tree.parse_node(&chars, &mut pos, &mut leaves, 0)?;
        while pos < chars.len() && chars[pos].is_whitespace() {
            pos += 1;
        }
        if pos != chars.len() {
            return Err(TreeParseError { at: pos, reason: "text after the root's closing parenthesis" });
        }
        Ok(tree)
    }

    fn parse_node(
        &mut self,
        c: &[char],
        pos: &mut usize,
        leaves: &mut usize,
        depth: usize,
    ) -> Result<usize, TreeParseError> {
        while *pos < c.len() && c[*pos].is_whitespace() {
            *pos += 1;
        }
        if depth > 64 {
            return Err(TreeParseError { at: *pos, reason: "nested deeper than 64 levels" });
        }
        let id = self.nodes.len();
        self.nodes.push(Node { children: Vec::new(), value: 0, leaf: None });
        match c.get(*pos) {
            Some('(') => {
                *pos += 1;
                loop {
                    while *pos < c.len() && c[*pos].is_whitespace() {
                        *pos += 1;
                    }
                    match c.get(*pos) {
                        Some(')') => {
                            *pos += 1;
                            break;
                        }
                        None => return Err(TreeParseError { at: *pos, reason: "missing ')'" }),
                        _ => {
                            if self.nodes[id].children.len() >= 1024 {
                                return Err(TreeParseError { at: *pos, reason: "more than 1024 children" });
                            }
                            let child = self.parse_node(c, pos, leaves, depth + 1)?;
                            self.nodes[id].children.push(child);
                        }
                    }
                }
                if self.nodes[id].children.is_empty() {
                    return Err(TreeParseError { at: *pos, reason: "'()' has no children" });
                }
            }
            Some(ch) if ch.is_ascii_digit() || *ch == '-' => {
                let start = *pos;
                *pos += 1;
                while *pos < c.len() && c[*pos].is_ascii_digit() {
                    *pos += 1;
                }
                let text: String = c[start..*pos].iter().collect();
                let value: Score = text
                    .parse()
                    .ok()
                    .filter(|v: &Score| v.abs() < 10_000)
                    .ok_or(TreeParseError { at: start, reason: "a leaf is an integer between -9999 and 9999" })?;
                self.nodes[id].value = value;
                self.nodes[id].leaf = Some(*leaves);
                *leaves += 1;
            }
            _ => return Err(TreeParseError { at: *pos, reason: "expected '(' or a number" }),
        }
        Ok(id)
    }

    /// A uniform tree: every inner node has `branching` children, every leaf is at `depth`; leaf `i` (left to right)
    /// has the value `value(i)`.
    pub fn uniform(branching: usize, depth: u32, mut value: impl FnMut(usize) -> Score) -> Tree {
        let mut tree = Tree { nodes: Vec::new(), path: vec![0], visits: RefCell::new(Vec::new()) };
        let mut leaves = 0;
        tree.build_uniform(branching.clamp(1, 1024), depth, &mut value, &mut leaves);
        tree
    }

    fn build_uniform(
        &mut self,
        b: usize,
        depth: u32,
        value: &mut impl FnMut(usize) -> Score,
        leaves: &mut usize,
    ) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node { children: Vec::new(), value: 0, leaf: None });
        if depth == 0 {
            self.nodes[id].value = value(*leaves);
            self.nodes[id].leaf = Some(*leaves);
            *leaves += 1;
        } else {
            for _ in 0..b {
                let c = self.build_uniform(b, depth - 1, value, leaves);
                self.nodes[id].children.push(c);
            }
        }
        id
    }

    /// Reorders every node's children best first for the player to move there (perfect move ordering), and
    /// renumbers the leaves left to right. Returns the root's minimax value.
    pub fn sort_best_first(&mut self) -> Score {
        let v = self.sort_node(0, true);
        let mut next = 0;
        self.renumber(0, &mut next);
        v
    }

    fn sort_node(&mut self, id: usize, max: bool) -> Score {
        if self.nodes[id].children.is_empty() {
            return self.nodes[id].value;
        }
        let children = self.nodes[id].children.clone();
        let mut scored: Vec<(Score, usize)> = children.iter().map(|&c| (self.sort_node(c, !max), c)).collect();
        if max {
            scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        } else {
            scored.sort_by_key(|s| s.0);
        }
        self.nodes[id].children = scored.iter().map(|&(_, c)| c).collect();
        scored[0].0
    }

    fn renumber(&mut self, id: usize, next: &mut usize) {
        if self.nodes[id].children.is_empty() {
            self.nodes[id].leaf = Some(*next);
            *next += 1;
        }
        for c in self.nodes[id].children.clone() {
            self.renumber(c, next);
        }
    }

    /// The height of the tree: the plies of the longest path from the root to a leaf (the depth that searches it
    /// whole).
    ///
    /// ```
    /// use xiangqi_search::synthetic::Tree;
    /// assert_eq!(Tree::parse("((1 2) 3)").unwrap().height(), 2);
    /// assert_eq!(Tree::parse("((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))").unwrap().height(), 4);
    /// ```
    pub fn height(&self) -> u32 {
        fn below(nodes: &[Node], id: usize) -> u32 {
            nodes[id].children.iter().map(|&c| 1 + below(nodes, c)).max().unwrap_or(0)
        }
        below(&self.nodes, 0)
    }

    /// The number of leaves.
    pub fn leaf_count(&self) -> usize {
        self.nodes.iter().filter(|n| n.children.is_empty()).count()
    }

    /// The leaves evaluated since the tree was built or [`Tree::clear_visits`], by left-to-right index, in the
    /// order they were visited.
    pub fn visited_leaves(&self) -> Vec<usize> {
        self.visits.borrow().clone()
    }

    /// Forgets the recorded visits.
    pub fn clear_visits(&self) {
        self.visits.borrow_mut().clear();
    }

    fn current(&self) -> &Node {
        &self.nodes[*self.path.last().unwrap_or(&0)]
    }

    /// The current node's value for the side to move, recording the visit if it is a leaf.
    fn leaf_score(&self) -> Score {
        let n = self.current();
        if let Some(i) = n.leaf {
            self.visits.borrow_mut().push(i);
        }
        if self.first_player_to_move() {
            n.value
        } else {
            -n.value
        }
    }
}

impl SimpleGame for Tree {}

impl GameTree for Tree {
    type Move = Child;
    const MOVE_KEYS: usize = 1024;

    fn move_key(m: Child) -> usize {
        m.0 as usize % 1024
    }

    fn encode_move(m: Child) -> u16 {
        m.0.wrapping_add(1).max(1)
    }

    fn generate(&self, captures_only: bool, out: &mut MoveBuf<Child>) {
        if !captures_only {
            out.extend((0..self.current().children.len()).map(|i| Child(i as u16)));
        }
    }

    fn make(&mut self, m: Child) {
        let next = self.current().children[m.0 as usize];
        self.path.push(next);
    }

    fn unmake(&mut self) {
        if self.path.len() > 1 {
            self.path.pop();
        }
    }

    fn make_null(&mut self) {
        // Passing keeps the node and hands the turn over (the side to move is the parity of the path).
        let here = *self.path.last().unwrap_or(&0);
        self.path.push(here);
    }

    fn in_check(&self) -> bool {
        false
    }

    fn null_move_allowed(&self) -> bool {
        true
    }

    fn hash(&self) -> u64 {
        *self.path.last().unwrap_or(&0) as u64 ^ (self.path.len() as u64) << 32
    }

    fn first_player_to_move(&self) -> bool {
        self.path.len() % 2 == 1
    }

    fn no_moves_score(&self, _ply: usize) -> Score {
        self.leaf_score()
    }

    fn capture_key(&self, _m: Child) -> i32 {
        0
    }
}

/// The evaluator of a [`Tree`]: a leaf's value (for the side to move), recorded as visited. Inner nodes evaluated
/// at the horizon score 0.
#[derive(Debug, Clone, Copy, Default)]
pub struct TreeEval;

impl Evaluator<Tree, Child> for TreeEval {
    fn evaluate(&mut self, tree: &Tree) -> Score {
        tree.leaf_score()
    }
}
