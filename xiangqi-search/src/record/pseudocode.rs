//! The pseudocode of the course's algorithms, written to mirror the Rust functions that run them (same names, same
//! order of steps): `two_sided` and `negamax` in `node.rs`, PVS's `search_child` in `policy/child.rs`,
//! `null_search` in `policy/null_move.rs`, `quiesce` in `policy/quiescence.rs`. A line that the search reports
//! carries the [`Label`] of its [`crate::Step`]s, so a trace ([`super::Recorder::trace`]) can highlight the line
//! being executed. `xiangqi tree --trace` and the page print the same text.
//!
//! A variant's listing ([`listing`]) is composed from the lines below: the node function of its form, then the
//! functions its techniques add. Lines are data: each has a condition on the variant ([`When`]), an indentation,
//! its text and its label.
//!
//! ```
//! use xiangqi_search::record::pseudocode::listing;
//! use xiangqi_search::{Label, VariantConfig};
//!
//! let l = listing(&"negamax-ab+pvs".parse::<VariantConfig>().unwrap());
//! assert_eq!(l.functions[0].name, "negamax");
//! assert_eq!(l.functions[1].name, "search_child");
//! assert!(l.labels().contains(&Label::ZeroWindow));
//! assert!(l.to_text().contains("score = search_child(m, i, depth, alpha, beta, ply)"));
//! ```

use crate::config::VariantConfig;
use crate::ordering;
use crate::policy::{child, null_move, quiescence, Label};
use std::collections::BTreeSet;
use std::fmt::Write;

/// When a line belongs to a variant's listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Always.
    Always,
    /// Forms that prune (alpha-beta).
    Prune,
    /// Forms that do not prune (minimax, negamax).
    NoPrune,
    /// Fail-soft forms (and the forms without pruning).
    Soft,
    /// Fail-hard forms.
    Hard,
    /// With quiescence at the horizon.
    Qs,
    /// With the static evaluation at the horizon.
    Static,
    /// With principal variation search.
    Pvs,
    /// Without it.
    NoPvs,
    /// With null-move pruning.
    Null,
    /// With move ordering.
    Order,
    /// In generation order.
    NoOrder,
}

impl When {
    fn holds(self, config: &VariantConfig) -> bool {
        let form = config.form();
        match self {
            When::Always => true,
            When::Prune => form.prunes(),
            When::NoPrune => !form.prunes(),
            When::Soft => !form.prunes() || form.fail_soft(),
            When::Hard => form.prunes() && !form.fail_soft(),
            When::Qs => config.has(quiescence::ID),
            When::Static => !config.has(quiescence::ID),
            When::Pvs => config.has(child::ID),
            When::NoPvs => !config.has(child::ID),
            When::Null => config.has(null_move::ID),
            When::Order => config.has(ordering::ID),
            When::NoOrder => !config.has(ordering::ID),
        }
    }
}

/// One line of pseudocode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    /// Indentation, in levels (the function's header is level 0).
    pub indent: u8,
    /// The text.
    pub text: &'static str,
    /// The label its steps carry, if the search reports it.
    pub label: Option<Label>,
}

/// One function of a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// The Rust function it mirrors.
    pub name: &'static str,
    /// Its lines, the header first.
    pub lines: Vec<Line>,
}

/// The pseudocode of a variant: its node function, then the functions its techniques add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// The variant, as written by [`VariantConfig`]'s `Display`.
    pub variant: String,
    /// The functions.
    pub functions: Vec<Function>,
}

impl Listing {
    /// Every label of the listing.
    pub fn labels(&self) -> BTreeSet<Label> {
        self.functions.iter().flat_map(|f| f.lines.iter()).filter_map(|l| l.label).collect()
    }

    /// The function and line indices of the line labelled `label`.
    pub fn find(&self, label: Label) -> Option<(usize, usize)> {
        self.functions
            .iter()
            .enumerate()
            .find_map(|(fi, f)| f.lines.iter().position(|l| l.label == Some(label)).map(|li| (fi, li)))
    }

    /// The listing as text: each function's lines, indented by four spaces a level, labels in a right-hand column
    /// as `[label]`, a blank line between functions.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (i, f) in self.functions.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            for l in &f.lines {
                let code = format!("{}{}", "    ".repeat(l.indent as usize), l.text);
                match l.label {
                    Some(label) => writeln!(out, "{code:<76} [{label}]").expect("writing to a String"),
                    None => writeln!(out, "{code}").expect("writing to a String"),
                }
            }
        }
        out
    }
}

type Row = (When, u8, &'static str, Option<Label>);

const TWO_SIDED: &[Row] = &[
    (When::Always, 0, "two_sided(depth, alpha, beta, ply):", Some(Label::Enter)),
    (When::NoPrune, 1, "// minimax: alpha and beta are passed along and never read", None),
    (When::Always, 1, "// values are the first player's (MAX's): MAX nodes maximise, MIN nodes minimise", None),
    (When::Static, 1, "if depth <= 0: return evaluate()", Some(Label::Leaf)),
    (
        When::Qs,
        1,
        "if depth <= 0: return quiesce(alpha, beta, ply)   // from the side to move's view",
        Some(Label::Leaf),
    ),
    (When::Always, 1, "max = (the first player is to move)", None),
    (When::Always, 1, "best = if max then -inf else +inf", None),
    (When::NoOrder, 1, "for each move m, in the order the generator gives them:", Some(Label::Next)),
    (When::Order, 1, "for each move m, best first (captures by victim, killers, history):", Some(Label::Next)),
    (When::Always, 2, "make(m)", None),
    (When::Always, 2, "score = two_sided(depth - 1, alpha, beta, ply + 1)", Some(Label::Returned)),
    (When::Always, 2, "unmake()", None),
    (When::Always, 2, "if (max and score > best) or (not max and score < best):", None),
    (When::Always, 3, "best = score", Some(Label::Best)),
    (When::Prune, 2, "if max: alpha = max(alpha, score)", Some(Label::Alpha)),
    (When::Prune, 2, "else: beta = min(beta, score)", Some(Label::Beta)),
    (When::Prune, 2, "if alpha >= beta: break   // the moves left are pruned", Some(Label::Cutoff)),
    (When::Always, 1, "if no move was made: return the rules' score (the side to move has lost)", Some(Label::NoMoves)),
    (When::Soft, 1, "return best", Some(Label::Return)),
    (When::Hard, 1, "return clamp(best, alpha0, beta0)   // fail-hard: the window it was given", Some(Label::Return)),
];

const NEGAMAX: &[Row] = &[
    (When::Always, 0, "negamax(depth, alpha, beta, ply, null_ok):", Some(Label::Enter)),
    (When::NoPrune, 1, "// negamax: alpha and beta are passed along and never read", None),
    (When::Always, 1, "// values are the side to move's: every node maximises", None),
    (When::Static, 1, "if depth <= 0: return evaluate()", Some(Label::Leaf)),
    (When::Qs, 1, "if depth <= 0: return quiesce(alpha, beta, ply)", Some(Label::Leaf)),
    (When::Null, 1, "if null_search(depth, alpha, beta, ply, null_ok) >= beta: return beta", Some(Label::NullCutoff)),
    (When::Hard, 1, "alpha0 = alpha", None),
    (When::Always, 1, "best = -inf", None),
    (When::NoOrder, 1, "for each move m (the i-th), in the order the generator gives them:", Some(Label::Next)),
    (
        When::Order,
        1,
        "for each move m (the i-th), best first (captures by victim, killers, history):",
        Some(Label::Next),
    ),
    (When::Always, 2, "make(m)", None),
    (When::NoPvs, 2, "score = -negamax(depth - 1, -beta, -alpha, ply + 1, true)", Some(Label::Returned)),
    (When::Pvs, 2, "score = search_child(m, i, depth, alpha, beta, ply)", Some(Label::Returned)),
    (When::Always, 2, "unmake()", None),
    (When::Always, 2, "if score > best: best = score", Some(Label::Best)),
    (When::Prune, 2, "alpha = max(alpha, score)", Some(Label::Alpha)),
    (When::Prune, 2, "if alpha >= beta: break   // the moves left are pruned", Some(Label::Cutoff)),
    (When::Always, 1, "if no move was made: return the rules' score (the side to move has lost)", Some(Label::NoMoves)),
    (When::Soft, 1, "return best", Some(Label::Return)),
    (When::Hard, 1, "return clamp(best, alpha0, beta)   // fail-hard: never outside the window", Some(Label::Return)),
];

const SEARCH_CHILD: &[Row] = &[
    (When::Always, 0, "search_child(m, i, depth, alpha, beta, ply):   // principal variation search", None),
    (When::Always, 1, "if i == 0: return -negamax(depth - 1, -beta, -alpha, ply + 1, true)", None),
    (
        When::Always,
        1,
        "score = -negamax(depth - 1, -alpha - 1, -alpha, ply + 1, true)   // zero window",
        Some(Label::ZeroWindow),
    ),
    (When::Always, 1, "if alpha < score < beta:   // it failed high: search it again", None),
    (When::Always, 2, "score = -negamax(depth - 1, -beta, -alpha, ply + 1, true)", Some(Label::ReSearch)),
    (When::Always, 1, "return score", None),
];

const NULL_SEARCH: &[Row] = &[
    (When::Always, 0, "null_search(depth, alpha, beta, ply, null_ok):   // R = 3", None),
    (When::Always, 1, "if depth < R + 1 or not null_ok or in check: return -inf   // no null move here", None),
    (When::Always, 1, "pass()   // the side to move lets the opponent move twice", None),
    (When::Always, 1, "score = -negamax(depth - R - 1, -beta, -beta + 1, ply + 1, false)", Some(Label::Null)),
    (When::Always, 1, "unpass()", None),
    (When::Always, 1, "return score", None),
];

const QUIESCE: &[Row] = &[
    (When::Always, 0, "quiesce(alpha, beta, ply):   // values are the side to move's", Some(Label::QsEnter)),
    (When::Always, 1, "stand_pat = evaluate()   // the side to move may decline every capture", Some(Label::StandPat)),
    (When::Always, 1, "if stand_pat >= beta: return stand_pat", Some(Label::StandPatCutoff)),
    (When::Always, 1, "alpha = max(alpha, stand_pat)", None),
    (When::Always, 1, "best = stand_pat", None),
    (When::Always, 1, "for each legal capture m, most valuable victim first:", Some(Label::QsNext)),
    (When::Always, 2, "make(m)", None),
    (When::Always, 2, "score = -quiesce(-beta, -alpha, ply + 1)", Some(Label::QsReturned)),
    (When::Always, 2, "unmake()", None),
    (When::Always, 2, "if score > best:", None),
    (When::Always, 3, "best = score", Some(Label::QsBest)),
    (When::Always, 3, "if score > alpha:", None),
    (When::Always, 4, "alpha = score", Some(Label::QsAlpha)),
    (When::Always, 4, "if score >= beta: break   // the other captures are pruned", Some(Label::QsCutoff)),
    (When::Always, 1, "return best", Some(Label::QsReturn)),
];

fn function(name: &'static str, rows: &[Row], config: &VariantConfig) -> Function {
    let lines = rows
        .iter()
        .filter(|r| r.0.holds(config))
        .map(|&(_, indent, text, label)| Line { indent, text, label })
        .collect();
    Function { name, lines }
}

/// The listing of `config`: `two_sided` (minimax, alpha-beta, the fail-hard best/worst routines) or `negamax`
/// (negamax, alpha-beta fail-soft and fail-hard), then `search_child` with PVS, `null_search` with the null move,
/// `quiesce` with quiescence. Move ordering changes the loop's line. The engine's own additions (the table,
/// reductions, pruning) have no lines: their steps are the `return` of a node they end early.
pub fn listing(config: &VariantConfig) -> Listing {
    let mut functions = Vec::new();
    if config.form().two_sided() {
        functions.push(function("two_sided", TWO_SIDED, config));
    } else {
        functions.push(function("negamax", NEGAMAX, config));
        if config.has(child::ID) {
            functions.push(function("search_child", SEARCH_CHILD, config));
        }
        if config.has(null_move::ID) {
            functions.push(function("null_search", NULL_SEARCH, config));
        }
    }
    if config.has(quiescence::ID) {
        functions.push(function("quiesce", QUIESCE, config));
    }
    Listing { variant: config.to_string(), functions }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_unique_within_each_listing() {
        for v in ["minimax", "alphabeta-hard+qs+order", "negamax-ab-hard+pvs+nmp+qs+order", "negamax", "engine"] {
            let l = listing(&v.parse().unwrap());
            let all: Vec<Label> = l.functions.iter().flat_map(|f| f.lines.iter()).filter_map(|l| l.label).collect();
            assert_eq!(all.len(), l.labels().len(), "{v}: a label names two lines");
        }
    }

    #[test]
    fn fail_hard_returns_the_clamp() {
        let hard = listing(&"negamax-ab-hard".parse().unwrap()).to_text();
        let soft = listing(&"negamax-ab".parse().unwrap()).to_text();
        assert!(hard.contains("return clamp(best, alpha0, beta)") && !hard.contains("    return best"));
        assert!(soft.contains("    return best") && !soft.contains("clamp"));
    }
}
