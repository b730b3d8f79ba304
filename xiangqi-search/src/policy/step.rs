//! Line-level events: the line of the pseudocode a node function has just executed ([`Step`], named by a
//! [`Label`]). The node functions emit them through [`super::Observer::step`] only when the observer is
//! [`super::Observer::ACTIVE`], so an ordinary search compiles them away. The listings whose lines carry these
//! labels are in [`crate::record::pseudocode`].

use crate::game::Score;
use std::fmt;

/// A labelled line of the pseudocode. Each label names one line of one function of a listing
/// ([`crate::record::pseudocode`]); the text names ([`Label::name`]) are part of the page's protocol and of
/// `xiangqi tree --trace`'s output, and do not change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Label {
    /// The node function starts (`negamax` or `two_sided`): depth, alpha and beta as it received them.
    Enter,
    /// Depth 0: the static evaluation (`value`), or the call of quiescence (no value; its steps follow).
    Leaf,
    /// The next move is made (`mv`).
    Next,
    /// The child searched with the window the node gives returned `value` (from this node's view).
    Returned,
    /// The child's value is the best so far (`best`).
    Best,
    /// Alpha rose to the child's value.
    Alpha,
    /// Beta fell to the child's value (a MIN node of the two-sided forms).
    Beta,
    /// `alpha >= beta`: the moves not searched yet are pruned.
    Cutoff,
    /// The side to move has no move: the rules' score (`value`).
    NoMoves,
    /// The node function returns `value` (`best` is the best child's value; they differ when failing hard).
    Return,
    /// The null move's search returned `value` (the pass's score from this node's view).
    Null,
    /// The null move's score reached beta: the node returns beta without searching a move.
    NullCutoff,
    /// PVS: the zero-window search `[alpha, alpha + 1]` of a later child returned `value`.
    ZeroWindow,
    /// PVS: the zero-window search failed high inside the window; the full-window search returned `value`.
    ReSearch,
    /// Quiescence starts: alpha and beta as it received them.
    QsEnter,
    /// Quiescence's stand pat: the static evaluation (`value`).
    StandPat,
    /// The stand pat reached beta: quiescence returns it.
    StandPatCutoff,
    /// Quiescence makes the next capture (`mv`).
    QsNext,
    /// The capture's quiescence search returned `value`.
    QsReturned,
    /// Quiescence: the capture's value is the best so far.
    QsBest,
    /// Quiescence: alpha rose to the capture's value.
    QsAlpha,
    /// Quiescence: the capture's value reached beta; the other captures are pruned.
    QsCutoff,
    /// Quiescence returns `value`.
    QsReturn,
}

impl Label {
    /// Every label.
    pub const ALL: [Label; 23] = [
        Label::Enter,
        Label::Leaf,
        Label::Next,
        Label::Returned,
        Label::Best,
        Label::Alpha,
        Label::Beta,
        Label::Cutoff,
        Label::NoMoves,
        Label::Return,
        Label::Null,
        Label::NullCutoff,
        Label::ZeroWindow,
        Label::ReSearch,
        Label::QsEnter,
        Label::StandPat,
        Label::StandPatCutoff,
        Label::QsNext,
        Label::QsReturned,
        Label::QsBest,
        Label::QsAlpha,
        Label::QsCutoff,
        Label::QsReturn,
    ];

    /// The label's name in listings, traces and the page's protocol.
    pub const fn name(self) -> &'static str {
        match self {
            Label::Enter => "enter",
            Label::Leaf => "leaf",
            Label::Next => "next",
            Label::Returned => "returned",
            Label::Best => "best",
            Label::Alpha => "alpha",
            Label::Beta => "beta",
            Label::Cutoff => "cutoff",
            Label::NoMoves => "no-moves",
            Label::Return => "return",
            Label::Null => "null",
            Label::NullCutoff => "null-cutoff",
            Label::ZeroWindow => "zero-window",
            Label::ReSearch => "re-search",
            Label::QsEnter => "qs-enter",
            Label::StandPat => "stand-pat",
            Label::StandPatCutoff => "stand-pat-cutoff",
            Label::QsNext => "qs-next",
            Label::QsReturned => "qs-returned",
            Label::QsBest => "qs-best",
            Label::QsAlpha => "qs-alpha",
            Label::QsCutoff => "qs-cutoff",
            Label::QsReturn => "qs-return",
        }
    }

    /// The label named `name` ([`Label::name`]).
    pub fn from_name(name: &str) -> Option<Label> {
        Label::ALL.into_iter().find(|l| l.name() == name)
    }

    /// Whether the step prunes the moves not searched yet.
    pub const fn is_cutoff(self) -> bool {
        matches!(self, Label::Cutoff | Label::QsCutoff)
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One executed line of a node function: the label of the line and what a frame panel shows.
///
/// Windows and values are the running function's own variables: the side to move's view in `negamax`,
/// `search_child`, `null_search` and `quiesce`; the first player's (MAX's) view in `two_sided`, the node of the
/// two-sided forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step<M> {
    /// The line.
    pub label: Label,
    /// Plies from the root of the node that executed it.
    pub ply: usize,
    /// Plies left at the node (0 in quiescence).
    pub depth: i32,
    /// The node's alpha at this line.
    pub alpha: Score,
    /// The node's beta at this line.
    pub beta: Score,
    /// The value the line computed: a leaf's evaluation, a child's returned value, the value returned.
    pub value: Option<Score>,
    /// The best value so far (`None` before the first child).
    pub best: Option<Score>,
    /// The move being tried (`None` for a step that concerns no move, and for the null move).
    pub mv: Option<M>,
    /// Whether the side to move at the node is the first player (MAX; Red in xiangqi).
    pub first_to_move: bool,
}

impl<M> Step<M> {
    /// A step with no value, best or move.
    #[inline(always)]
    pub fn at(label: Label, ply: usize, depth: i32, alpha: Score, beta: Score, first_to_move: bool) -> Self {
        Step { label, ply, depth, alpha, beta, value: None, best: None, mv: None, first_to_move }
    }

    /// With the line's value.
    #[inline(always)]
    pub fn value(mut self, value: Score) -> Self {
        self.value = Some(value);
        self
    }

    /// With the best value so far (none when it is still an infinite bound).
    #[inline(always)]
    pub fn best(mut self, best: Score) -> Self {
        self.best = (best.abs() < crate::game::INFINITY).then_some(best);
        self
    }

    /// With the move being tried.
    #[inline(always)]
    pub fn with_move(mut self, m: M) -> Self {
        self.mv = Some(m);
        self
    }
}
