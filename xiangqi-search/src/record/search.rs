//! One function that records a search, for `xiangqi tree` and the page's `watch`: [`record`] for any game and
//! evaluator (a position), [`record_tree`] for a synthetic tree written as text.

use super::Recorder;
use crate::config::VariantConfig;
use crate::game::{Evaluator, FastPaths};
use crate::limits::Limits;
use crate::run::RunSetup;
use crate::stats::SearchResult;
use crate::synthetic::{Child, Tree, TreeEval, TreeParseError};
use crate::variants::VariantError;

/// What a recording keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordOptions {
    /// Nodes kept ([`Recorder::with_capacities`]).
    pub capacity: usize,
    /// Line-level steps kept.
    pub trace_capacity: usize,
    /// For [`record_tree`]: at most this many nodes of the pruned subtrees added by [`Recorder::fill_pruned`]
    /// (0: none).
    pub fill_pruned: usize,
}

impl Default for RecordOptions {
    fn default() -> Self {
        RecordOptions {
            capacity: super::DEFAULT_CAPACITY,
            trace_capacity: super::DEFAULT_TRACE_CAPACITY,
            fill_pruned: 0,
        }
    }
}

/// A recorded search: its result, the recorder (the tree, the trace, the explanations), the variant and depth.
#[derive(Debug, Clone)]
pub struct Recording<M> {
    /// The search's result and statistics.
    pub result: SearchResult<M>,
    /// The recorder.
    pub recorder: Recorder<M>,
    /// The variant searched.
    pub variant: VariantConfig,
    /// The depth searched.
    pub depth: u32,
    /// Nodes the search entered, before any pruned subtree was filled in.
    pub searched: usize,
    /// Moves the search pruned (cutoffs and futility), before any pruned subtree was filled in.
    pub pruned: usize,
}

/// Why [`record_tree`] could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The tree text.
    #[error(transparent)]
    Tree(#[from] TreeParseError),
    /// The variant text.
    #[error(transparent)]
    Variant(#[from] VariantError),
}

/// Records a fixed-depth search of `variant` on `game` with `eval` (a position and its evaluator): the one
/// function behind `xiangqi tree` and the page's `watch`.
pub fn record<G: FastPaths, E: Evaluator<G, G::Move>>(
    game: G,
    eval: E,
    variant: &VariantConfig,
    depth: u32,
    options: &RecordOptions,
) -> Recording<G::Move> {
    let observer = Recorder::with_capacities(options.capacity, options.trace_capacity);
    let (result, recorder) =
        variant.run_observing(game, eval, &Limits::depth(depth), &RunSetup::default(), |_| {}, observer);
    let (searched, pruned) = (recorder.searched_count(), recorder.pruned_count());
    Recording { result, recorder, variant: *variant, depth, searched, pruned }
}

/// Records `variant` (text such as `alphabeta` or `negamax-ab+pvs`) on the synthetic tree `tree` (the
/// [`Tree::parse`] syntax, leaves valued for the first player), to `depth` (the tree's height when `None`), then
/// fills in the pruned subtrees as [`RecordOptions::fill_pruned`] allows.
///
/// ```
/// use xiangqi_search::record::{record_tree, RecordOptions, Sides};
///
/// let spec = "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))";
/// let r = record_tree(spec, "alphabeta", None, &RecordOptions::default()).unwrap();
/// assert_eq!(r.result.score, 6);
/// let rec = &r.recorder;
/// let pruned: Vec<String> = (0..rec.len())
///     .filter_map(|id| rec.explain_text(id, |c| format!("#{c}"), Sides::default()))
///     .collect();
/// assert_eq!(pruned.len(), 3);
/// assert_eq!(pruned[0], "not searched: at node [#0 #0 #1] (Black to move), after child #1 returned 4, β = 4 ≤ α = 5");
/// ```
pub fn record_tree(
    tree: &str,
    variant: &str,
    depth: Option<u32>,
    options: &RecordOptions,
) -> Result<Recording<Child>, RecordError> {
    let parsed = Tree::parse(tree)?;
    let config: VariantConfig = variant.parse()?;
    let depth = depth.unwrap_or_else(|| parsed.height().max(1));
    let mut r = record(parsed.clone(), TreeEval, &config, depth, options);
    if options.fill_pruned > 0 {
        r.recorder.fill_pruned(&parsed, &mut TreeEval, options.fill_pruned);
    }
    Ok(r)
}
