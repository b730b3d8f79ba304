//! A recorded trace as text, one line per step: what `xiangqi tree --trace` prints and the page's test compares
//! against.
//!
//! Each step is one line: its number from 1, the label, then `key=value` fields, always in this order and
//! separated by single spaces:
//!
//! ```text
//!     7 returned         ply=2 depth=2 alpha=-inf beta=+inf value=6 best=- move=#0 node=[#0 #0]
//! ```
//!
//! `ply`, `depth`, `alpha`, `beta`, `value` and `best` are the step's ([`crate::Step`]; `-` when there is none,
//! `-inf`/`+inf` for the infinite bounds), `move` the move being tried (`null` for the null move's steps, `-`
//! when none), `node` the node that executed the line, named as [`Recorder::node_name`] names it. After the step
//! of a cutoff (`cutoff`, `qs-cutoff`), each move it pruned gets a line of its own, indented by six spaces:
//! `pruned [path]: ` and the sentence of [`Recorder::explain_text`].

use super::{PruneReason, Recorder, Sides, State};
use crate::game::{Score, INFINITY};
use crate::policy::Label;
use std::fmt::Write;

fn score(v: Option<Score>) -> String {
    match v {
        None => "-".to_owned(),
        Some(v) if v >= INFINITY => "+inf".to_owned(),
        Some(v) if v <= -INFINITY => "-inf".to_owned(),
        Some(v) => v.to_string(),
    }
}

/// The trace of `rec` as text (see this module's documentation), moves written by `label`, sides named by
/// `sides`.
pub fn trace_text<M: Copy>(rec: &Recorder<M>, label: impl Fn(&M) -> String, sides: Sides) -> String {
    let mut out = String::new();
    for (i, t) in rec.trace().iter().enumerate() {
        let s = &t.step;
        let mv = match (s.mv, s.label) {
            (Some(m), _) => label(&m),
            (None, Label::Null | Label::NullCutoff) => "null".to_owned(),
            (None, _) => "-".to_owned(),
        };
        let node = t.node.map_or("?".to_owned(), |n| rec.node_name(n, &label));
        writeln!(
            out,
            "{:>5} {:<16} ply={} depth={} alpha={} beta={} value={} best={} move={mv} node=[{node}]",
            i + 1,
            s.label.name(),
            s.ply,
            s.depth,
            score(Some(s.alpha)),
            score(Some(s.beta)),
            score(s.value),
            score(s.best),
        )
        .expect("writing to a String");
        if s.label.is_cutoff() {
            let Some(id) = t.node else { continue };
            for &c in &rec.node(id).children {
                if rec.node(c).state == State::Pruned(PruneReason::Cutoff) {
                    let why = rec.explain_text(c, &label, sides).unwrap_or_else(|| "not searched".to_owned());
                    let name = rec.node_name(c, &label);
                    writeln!(out, "      pruned [{name}]: {why}").expect("writing to a String");
                }
            }
        }
    }
    if rec.trace_dropped() > 0 {
        writeln!(out, "      ... {} more steps not kept (the trace's capacity)", rec.trace_dropped())
            .expect("writing to a String");
    }
    out
}
