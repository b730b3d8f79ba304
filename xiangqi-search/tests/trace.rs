//! Line-level traces: on the spec's tree, the trace of every exact variant agrees with the recorder's counts and
//! the search's statistics, every label it emits is a line of the variant's listing, each pruned move is explained
//! with the right node and values, and fail-soft and fail-hard negamax return different values at known nodes
//! while the root value is the same. On a real position, the same counts with quiescence and the null move.

use std::collections::BTreeSet;
use xiangqi_core::Position;
use xiangqi_eval::ChosenEval;
use xiangqi_search::policy::{child, null_move};
use xiangqi_search::record::pseudocode::listing;
use xiangqi_search::record::{
    record, record_tree, trace_text, Explanation, PruneReason, RecordOptions, Recorder, Recording, Sides, State,
};
use xiangqi_search::{Label, NodeKind, Score};

/// The spec's alpha-beta figure.
const SPEC_TREE: &str = "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))";

/// The exact variants of the course (and their combinations with ordering, PVS and quiescence).
const EXACT: [&str; 11] = [
    "minimax",
    "alphabeta",
    "alphabeta-hard",
    "negamax",
    "negamax-ab",
    "negamax-ab-hard",
    "negamax-ab+order",
    "negamax-ab+pvs",
    "negamax-ab-hard+pvs",
    "negamax-ab+qs",
    "negamax-ab+pvs+qs+order",
];

fn on_spec(variant: &str) -> Recording<xiangqi_search::synthetic::Child> {
    record_tree(SPEC_TREE, variant, None, &RecordOptions::default()).unwrap()
}

fn hash(c: &xiangqi_search::synthetic::Child) -> String {
    format!("#{c}")
}

fn count(rec: &Recorder<impl Copy>, label: Label) -> usize {
    rec.trace().iter().filter(|t| t.step.label == label).count()
}

/// The trace's own counts against the recorder's and the statistics: nodes entered, quiescence nodes, cutoffs,
/// pruned moves, PVS zero windows and re-searches, null-move tries and cutoffs; and every pruned move explained.
fn check_counts<M: Copy + PartialEq + std::fmt::Debug>(r: &Recording<M>, what: &str) {
    let rec = &r.recorder;
    let stats = &r.result.stats;
    assert_eq!(rec.trace_dropped(), 0, "{what}");
    assert_eq!(count(rec, Label::Enter) as u64, stats.main_nodes, "{what}: enter steps");
    let qs_nodes = rec
        .trace()
        .iter()
        .filter(|t| {
            t.step.label == Label::QsEnter
                && t.node.and_then(|n| rec.node(n).visit()).is_some_and(|v| v.kind == NodeKind::Quiescence)
        })
        .count();
    assert_eq!(qs_nodes as u64, stats.quiescence_nodes, "{what}: quiescence nodes");
    let nodes: BTreeSet<usize> = rec.trace().iter().filter_map(|t| t.node).collect();
    assert_eq!(nodes.len(), rec.searched_count(), "{what}: nodes in the trace");
    assert_eq!(nodes.len(), r.searched, "{what}");
    assert_eq!(count(rec, Label::Cutoff) as u64, stats.beta_cutoffs, "{what}: cutoffs");
    // Every pruned move hangs under a node whose trace has a cutoff, and is explained by it.
    let mut pruned_under_cutoffs = 0;
    for t in rec.trace().iter().filter(|t| t.step.label.is_cutoff()) {
        let id = t.node.unwrap();
        for &c in &rec.node(id).children {
            if rec.node(c).state == State::Pruned(PruneReason::Cutoff) {
                pruned_under_cutoffs += 1;
                let Some(Explanation::Cutoff(cut)) = rec.explain(c) else { panic!("{what}: no explanation") };
                assert_eq!(cut.node, id);
                assert_eq!((cut.alpha, cut.beta, cut.value), (t.step.alpha, t.step.beta, t.step.value.unwrap()));
                assert!(cut.alpha >= cut.beta, "{what}: a cutoff needs alpha >= beta");
            }
        }
    }
    assert_eq!(pruned_under_cutoffs, rec.pruned_count(), "{what}: pruned moves");
    assert_eq!(pruned_under_cutoffs, r.pruned, "{what}");
    assert_eq!(count(rec, Label::ZeroWindow), visits(rec, NodeKind::ZeroWindow), "{what}: zero windows");
    assert_eq!(count(rec, Label::ReSearch) as u64, stats.get(child::RESEARCHES), "{what}: re-searches");
    assert_eq!(count(rec, Label::ReSearch), visits(rec, NodeKind::Research), "{what}");
    assert_eq!(count(rec, Label::Null) as u64, stats.get(null_move::TRIES), "{what}: null moves");
    assert_eq!(count(rec, Label::NullCutoff) as u64, stats.get(null_move::CUTOFFS), "{what}: null cutoffs");
    // Every node function returns once: a `return`, `no-moves`, a cutoff of quiescence's stand pat, a
    // `qs-return`, a static leaf, or a null-move cutoff (quiescence at the horizon returns for its node).
    let leaves = rec.trace().iter().filter(|t| t.step.label == Label::Leaf && t.step.value.is_some()).count();
    let returns = count(rec, Label::Return)
        + count(rec, Label::NoMoves)
        + count(rec, Label::NullCutoff)
        + count(rec, Label::StandPatCutoff)
        + count(rec, Label::QsReturn)
        + leaves;
    assert_eq!(returns, rec.searched_count(), "{what}: one return per node");
}

fn visits<M: Copy>(rec: &Recorder<M>, kind: NodeKind) -> usize {
    rec.nodes().iter().filter(|n| n.visit().is_some_and(|v| v.kind == kind)).count()
}

/// Every label the trace emits names a line of the variant's listing.
fn check_labels<M: Copy>(r: &Recording<M>, what: &str) -> BTreeSet<Label> {
    let listed = listing(&r.variant).labels();
    let emitted: BTreeSet<Label> = r.recorder.trace().iter().map(|t| t.step.label).collect();
    let missing: Vec<_> = emitted.difference(&listed).collect();
    assert!(missing.is_empty(), "{what}: labels emitted but not in the listing: {missing:?}");
    emitted
}

#[test]
fn every_exact_variant_traces_the_nodes_the_recorder_counts() {
    for v in EXACT {
        let r = on_spec(v);
        assert_eq!(r.result.score, 6, "{v}");
        check_counts(&r, v);
        let emitted = check_labels(&r, v);
        assert!(emitted.contains(&Label::Enter) && emitted.contains(&Label::Return), "{v}");
        let prunes = listing(&r.variant).labels().contains(&Label::Cutoff);
        assert_eq!(emitted.contains(&Label::Cutoff), prunes, "{v}: cutoffs exactly where the form prunes");
    }
}

#[test]
fn minimax_and_negamax_prune_nothing_and_enter_all_25_inner_and_14_leaf_nodes() {
    for v in ["minimax", "negamax"] {
        let r = on_spec(v);
        assert_eq!(count(&r.recorder, Label::Enter), 33, "{v}");
        assert_eq!(count(&r.recorder, Label::Leaf), 14, "{v}");
        assert_eq!(r.pruned, 0, "{v}");
    }
}

/// The sentences of the pruned moves, by the pruned move's path.
fn sentences<M: Copy>(rec: &Recorder<M>, label: impl Fn(&M) -> String) -> Vec<(String, String)> {
    (0..rec.len())
        .filter_map(|id| Some((rec.node_name(id, &label), rec.explain_text(id, &label, Sides::default())?)))
        .collect()
}

/// The spec's figure prunes three moves: the 5 after 7 and 4, the 9 after 6, and the whole subtree ((9 8) (6))
/// of the third root move. The two-sided forms see the root player's values at MIN nodes.
#[test]
fn two_sided_alpha_beta_explains_the_spec_figure_prunes() {
    let expected = vec![
        (
            "#0 #0 #1 #2".to_owned(),
            "not searched: at node [#0 #0 #1] (Black to move), after child #1 returned 4, β = 4 ≤ α = 5".to_owned(),
        ),
        (
            "#1 #0 #1 #1".to_owned(),
            "not searched: at node [#1 #0 #1] (Black to move), after child #0 returned 6, β = 6 ≤ α = 6".to_owned(),
        ),
        (
            "#2 #1".to_owned(),
            "not searched: at node [#2] (Black to move), after child #0 returned 5, β = 5 ≤ α = 6".to_owned(),
        ),
    ];
    assert_eq!(sentences(&on_spec("alphabeta").recorder, hash), expected);
    // Fail-hard, the third root move's first child returns its window's bound 6 (its best is 5): the same
    // prune, for a different reason on the page.
    let mut hard = expected;
    hard[2].1 = "not searched: at node [#2] (Black to move), after child #0 returned 6, β = 6 ≤ α = 6".to_owned();
    assert_eq!(sentences(&on_spec("alphabeta-hard").recorder, hash), hard);
}

/// Negamax alpha-beta prunes the same moves, with the side to move's values: alpha rose to the child's value.
#[test]
fn negamax_alpha_beta_explains_the_same_prunes_from_the_side_to_move() {
    let expected = vec![
        (
            "#0 #0 #1 #2".to_owned(),
            "not searched: at node [#0 #0 #1] (Black to move), after child #1 returned -4, α = -4 ≥ β = -5".to_owned(),
        ),
        (
            "#1 #0 #1 #1".to_owned(),
            "not searched: at node [#1 #0 #1] (Black to move), after child #0 returned -6, α = -6 ≥ β = -6".to_owned(),
        ),
        (
            "#2 #1".to_owned(),
            "not searched: at node [#2] (Black to move), after child #0 returned -5, α = -5 ≥ β = -6".to_owned(),
        ),
    ];
    let mut hard = expected.clone();
    hard[2].1 = "not searched: at node [#2] (Black to move), after child #0 returned -6, α = -6 ≥ β = -6".to_owned();
    assert_eq!(sentences(&on_spec("negamax-ab-hard").recorder, hash), hard);
    for v in ["negamax-ab", "negamax-ab+qs"] {
        let r = on_spec(v);
        assert_eq!(sentences(&r.recorder, hash), expected, "{v}");
        // The structured form says the same.
        let id = (0..r.recorder.len()).find(|&i| r.recorder.node_name(i, hash) == "#2 #1").unwrap();
        let Some(Explanation::Cutoff(c)) = r.recorder.explain(id) else { panic!("{v}") };
        assert_eq!((c.value, c.alpha, c.beta, c.first_to_move, c.lowered_beta), (-5, -5, -6, false, false));
        assert_eq!(r.recorder.node_name(c.node, hash), "#2");
        assert_eq!(r.recorder.node_name(c.child.unwrap(), hash), "#2 #0");
    }
}

/// The value the node at `path` returned, from its `return` step.
fn returned(r: &Recording<xiangqi_search::synthetic::Child>, path: &str) -> Score {
    let rec = &r.recorder;
    let t = rec
        .trace()
        .iter()
        .find(|t| t.step.label == Label::Return && t.node.is_some_and(|n| rec.node_name(n, hash) == path))
        .unwrap_or_else(|| panic!("no return at {path}"));
    t.step.value.unwrap()
}

/// Fail-soft returns the best value found even beyond the window; fail-hard the window's bound. At the node
/// [#0 #0 #1] (window up to -5 for Black, best -4) and [#2] (window up to -6, best -5) the returned values
/// differ; the root's value does not.
#[test]
fn fail_soft_and_fail_hard_return_different_values_below_the_same_root_value() {
    let (soft, hard) = (on_spec("negamax-ab"), on_spec("negamax-ab-hard"));
    assert_eq!((returned(&soft, "#0 #0 #1"), returned(&hard, "#0 #0 #1")), (-4, -5));
    assert_eq!((returned(&soft, "#2"), returned(&hard, "#2")), (-5, -6));
    assert_eq!((returned(&soft, "root"), returned(&hard, "root")), (6, 6));
    // Where the value lies inside the window they agree.
    assert_eq!((returned(&soft, "#0 #0 #0"), returned(&hard, "#0 #0 #0")), (-5, -5));
    // The two-sided forms, from the root player's view: 4 against the bound 5, 5 against 6.
    let (soft, hard) = (on_spec("alphabeta"), on_spec("alphabeta-hard"));
    assert_eq!((returned(&soft, "#0 #0 #1"), returned(&hard, "#0 #0 #1")), (4, 5));
    assert_eq!((returned(&soft, "#2"), returned(&hard, "#2")), (5, 6));
    assert_eq!((returned(&soft, "root"), returned(&hard, "root")), (6, 6));
}

/// The trace text: one line per step, the cutoffs' sentences after them, stable.
#[test]
fn trace_text_has_one_line_per_step_and_the_prune_sentences() {
    let r = on_spec("alphabeta");
    let text = trace_text(&r.recorder, hash, Sides::default());
    let lines: Vec<&str> = text.lines().collect();
    let steps: Vec<&&str> = lines.iter().filter(|l| !l.starts_with("      ")).collect();
    assert_eq!(steps.len(), r.recorder.trace().len());
    assert_eq!(
        *steps[0],
        "    1 enter            ply=0 depth=4 alpha=-inf beta=+inf value=- best=- move=- node=[root]"
    );
    let pruned: Vec<&&str> = lines.iter().filter(|l| l.starts_with("      pruned ")).collect();
    assert_eq!(pruned.len(), 3);
    assert_eq!(
        *pruned[2],
        "      pruned [#2 #1]: not searched: at node [#2] (Black to move), after child #0 returned 5, β = 5 ≤ α = 6"
    );
}

/// PVS on the spec's tree: later children get zero windows, and those that land inside the window are searched
/// again; each re-search follows its zero-window step at the same node.
#[test]
fn pvs_traces_zero_windows_and_re_searches() {
    let r = on_spec("negamax-ab+pvs");
    let rec = &r.recorder;
    assert!(count(rec, Label::ZeroWindow) > 0);
    for (i, t) in rec.trace().iter().enumerate().filter(|(_, t)| t.step.label == Label::ReSearch) {
        let zw = rec.trace()[..i].iter().rev().find(|u| u.node == t.node && u.step.label != Label::Next).unwrap();
        assert_eq!(zw.step.label, Label::ZeroWindow);
        let v = zw.step.value.unwrap();
        assert!(v > t.step.alpha && v < t.step.beta, "a re-search only after a fail high inside the window");
    }
}

/// On a real position: quiescence's captures and the null move show in the trace as the statistics count them.
#[test]
fn a_position_traces_quiescence_and_the_null_move() {
    let pos = Position::startpos();
    for v in ["negamax-ab+qs", "negamax-ab+pvs+nmp+qs+order", "alphabeta+qs"] {
        let config = v.parse().unwrap();
        let r = record(pos.clone(), ChosenEval::new(&pos), &config, 2, &RecordOptions::default());
        check_counts(&r, v);
        check_labels(&r, v);
        assert!(r.result.stats.quiescence_nodes > 0, "{v}");
        assert!(count(&r.recorder, Label::QsCutoff) > 0, "{v}");
    }
    // Deep enough for R = 3 below the root (depth 4 at ply 1), in a small endgame (a chariot each): the null move is tried (and
    // its steps follow the listing).
    let pos = Position::from_fen("r3k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1").unwrap();
    let config = "negamax-ab+pvs+nmp+qs+order".parse().unwrap();
    let r = record(pos.clone(), ChosenEval::new(&pos), &config, 5, &RecordOptions::default());
    check_counts(&r, "nmp depth 5");
    check_labels(&r, "nmp depth 5");
    assert!(count(&r.recorder, Label::Null) > 0);
    assert!(count(&r.recorder, Label::NullCutoff) > 0);
}

/// A full trace is bounded: past its capacity the recorder counts the steps it does not keep.
#[test]
fn the_trace_is_bounded() {
    let opts = RecordOptions { trace_capacity: 10, ..RecordOptions::default() };
    let r = record_tree(SPEC_TREE, "alphabeta", None, &opts).unwrap();
    let all = on_spec("alphabeta").recorder.trace().len() as u64;
    assert_eq!(r.recorder.trace().len(), 10);
    assert_eq!(r.recorder.trace_dropped(), all - 10);
    // The explanations do not depend on the trace: they are kept on the pruned moves.
    assert_eq!(sentences(&r.recorder, hash).len(), 3);
}
