//! The registry of techniques: [`TECHNIQUES`] names every technique a variant string can switch, and the variant
//! parser, `--list`, the `engine` preset, the statistics and their JSON keys all come from it.
//!
//! Each technique's file owns all of it: its entry ([`crate::registry::Technique`]: its name, what it needs, its
//! counters, its tunable [`crate::registry::Param`]s, which [`crate::params::PARAMS`] gathers from the entries and
//! the searcher's [`crate::registry::Params`] holds), its doc (conditions and source) and what it does at its hook,
//! handed the node's context ([`crate::policy::Node`]) and searching, when it does, through
//! [`crate::policy::Search`]. The
//! spec's techniques (`pvs`, `nmp`, `qs`, `order`) are policy types of their own in [`crate::policy`] and
//! [`crate::ordering`], and declare their entries there; the engine's additions live here, one file each, and the
//! negamax node (`node.rs`) or the root (`searcher.rs`) calls each at one hook. Those calls fold away when the
//! variant lacks the engine's additions ([`crate::Additions::ENABLED`], a constant), and otherwise test the
//! technique's bit in the [`crate::VariantConfig`].
//!
//! | technique (its name in a variant) | file | hook | what it does | where it comes from |
//! | --- | --- | --- | --- | --- |
//! | `tt`: transposition table | `table.rs` | node: probe, store | answers a node searched before to enough depth, and gives its best move first | Greenblatt (1967); Stockfish's `tt.cpp` |
//! | `lmr`: late move reductions | `late_move_reductions.rs` | node: reduce; child search: the reduced probe | late quiet moves are searched shallower first | Stockfish's logarithmic formula |
//! | `futility`: futility and late move pruning | `futility.rs` | node: skip a move | quiet moves that cannot raise alpha, and late quiet moves, are not searched | Heinz (1998); Stockfish's move-count pruning |
//! | `rfp`: reverse futility | `reverse_futility.rs` | node: prune before the moves | a zero-window node whose static evaluation beats beta by a margin returns it | Heinz's "static null move"; Stockfish |
//! | `razor`: razoring | `razoring.rs` | node: prune before the moves | a node far below alpha near the horizon drops into quiescence | Birmingham and Kent (1977); Stockfish |
//! | `checkext`: check extension | `check_extension.rs` | node: extend | a node in check is searched one ply deeper | Stockfish, Pikafish |
//! | `rules`: the game's rules | `rules.rs` | node: rules, first of all | repetition, perpetual check and chase, the move limit decide or bound the node | the Asian rules (`xiangqi_core::rules`) |
//! | `aspiration`: aspiration windows | `aspiration.rs` | root: each iteration's window (`searcher.rs`) | each iteration starts in a window around the last score | Stockfish |
//! | `qsprune`: quiescence pruning (not in `engine`: `qsee` decides there) | `qs_pruning.rs` | quiescence: each capture (`policy/quiescence.rs`) | captures that lose material are not searched | Stockfish's SEE pruning in qsearch |
//! | `verified`: verified null move | `verified_null.rs` | node: the null move, the composition's null-move slot | the null move with an adaptive reduction, verified deep down | Tabibi and Netanyahu (2002) |
//! | `mdp`: mate distance pruning (not in `engine`) | `mate_distance.rs` | node: right after the rules | the window narrows to the mates still possible; an empty one returns | Stockfish's step 3 |
//! | `caphist`: capture history (not in `engine`) | `capture_history.rs` | ordering: captures; node: a capture's cutoff | captures ordered by victim and by their history of cutoffs, by piece, target and victim | Stockfish's `captureHistory` |
//! | `conthist`: continuation history (not in `engine`) | `continuation_history.rs` | ordering: quiet moves; node: make, cutoff | quiet moves scored by what followed the moves one and two plies back | Stockfish's `continuationHistory` |
//! | `hlmr`: history-adjusted reductions (not in `engine`) | `history_lmr.rs` | node: reduce | a quiet move's reduction shrinks or grows with its history | Stockfish's `statScore` |
//! | `hprune`: history pruning (not in `engine`) | `history_pruning.rs` | node: skip a move | late quiet moves with a history far below zero are not searched at shallow depth | Stockfish's step 14 (continuation history) |
//! | `corrhist`: correction history (not in `engine`) | `correction_history.rs` | node: static evaluation; store | the static evaluation is corrected by the errors searches found in positions of the same soldiers and the same material | Stockfish's `correctionHistory` |
//! | `improving`: improving | `improving.rs` | node: static evaluation; prune; reduce | whether the evaluation rose since two plies back loosens or tightens the pruning margins | Stockfish's `improving` |
//! | `iir`: internal iterative reduction | `iir.rs` | node: before the moves | a node without a table move is searched a ply shallower | Stockfish, Ed Schröder |
//! | `singular`: singular extension | `singular.rs` | node: before the moves | the table move is extended when every other move falls short of its value; multi-cut and negative extensions | Stockfish, Pikafish |
//! | `see`: SEE pruning (not in `engine`) | `see_pruning.rs` | node: skip a move | captures and quiet moves that lose material by static exchange are not searched at shallow depth | Stockfish's step 14, Pikafish |
//! | `qsee`: quiescence by SEE | `qs_see.rs` | quiescence: each capture (`policy/quiescence.rs`) | captures whose static exchange loses are not searched (instead of `qsprune`'s test) | Stockfish's qsearch, Pikafish |
//! | `tm`: time management | `time_management.rs` | root: after each iteration (`searcher.rs`); node: nodes under each root move | on a clock, the optimum time scaled by best-move stability, the best move's share of the nodes and a falling score | Stockfish's `bestMoveChanges`, `fallingEval`, `nodesEffort` |
//! | `probcut`: ProbCut (not in `engine`) | `probcut.rs` | node: before the moves (after internal iterative reduction) | a capture that wins material and beats beta by a margin in a quiescence search and a search 4 plies shallower cuts the node off; so does a table lower bound far above beta from nearly this depth | Buro (1995); Stockfish's step 11 and its "small ProbCut", Pikafish |
//! | `hscale`: history scale | `history_scale.rs` | the histories' learning (`history/stats.rs`) | the histories are bounded near 2^14 and learn with bonuses linear in depth, so gravity keeps them a recent average | Stockfish's `stat_bonus`, `StatsEntry` |
//! | `qsevasion`: quiescence evasions (not in `engine`) | `qs_evasions.rs` | quiescence: the top of each node (`policy/quiescence.rs`) | a quiescence node in check searches every evasion instead of standing pat, and is mated without one | Stockfish's qsearch, Pikafish |
//! | `failhigh`: fail-high damping (not in `engine`) | `fail_high.rs` | node: after the moves, before the store | a zero-window node's fail-soft value above beta is pulled toward beta, more at shallow depth | Stockfish's `search.cpp` (fail high adjustment) |
//!
//! Adding a technique: its file (entry, parameters, doc, hook function), one line in [`TECHNIQUES`], and one call
//! at its hook. A test checks this table against [`TECHNIQUES`] (each of the engine's additions a row, in the
//! list's order, with its file), and each file's declared parameters against its entry.

use crate::registry::Technique;
use crate::stats::Stats;

pub mod aspiration;
pub mod capture_history;
pub mod check_extension;
pub mod continuation_history;
pub mod correction_history;
pub mod fail_high;
pub mod futility;
pub mod history_lmr;
pub mod history_pruning;
pub mod history_scale;
pub mod iir;
pub mod improving;
pub mod late_move_reductions;
pub mod mate_distance;
pub mod probcut;
pub mod qs_evasions;
pub mod qs_pruning;
pub mod qs_see;
pub mod razoring;
pub mod reverse_futility;
pub mod rules;
pub mod see_pruning;
pub mod singular;
pub mod table;
pub mod time_management;
pub mod verified_null;

/// Every technique a variant string can switch, in the order variant names write them (the spec's first).
pub const TECHNIQUES: &[&Technique] = &[
    &crate::policy::child::TECHNIQUE,
    &crate::policy::null_move::TECHNIQUE,
    &crate::policy::quiescence::TECHNIQUE,
    &crate::ordering::TECHNIQUE,
    &table::TECHNIQUE,
    &late_move_reductions::TECHNIQUE,
    &futility::TECHNIQUE,
    &reverse_futility::TECHNIQUE,
    &razoring::TECHNIQUE,
    &check_extension::TECHNIQUE,
    &rules::TECHNIQUE,
    &aspiration::TECHNIQUE,
    &qs_pruning::TECHNIQUE,
    &verified_null::TECHNIQUE,
    &mate_distance::TECHNIQUE,
    &capture_history::TECHNIQUE,
    &continuation_history::TECHNIQUE,
    &history_lmr::TECHNIQUE,
    &history_pruning::TECHNIQUE,
    &correction_history::TECHNIQUE,
    &improving::TECHNIQUE,
    &iir::TECHNIQUE,
    &singular::TECHNIQUE,
    &see_pruning::TECHNIQUE,
    &qs_see::TECHNIQUE,
    &time_management::TECHNIQUE,
    &probcut::TECHNIQUE,
    &history_scale::TECHNIQUE,
    &qs_evasions::TECHNIQUE,
    &fail_high::TECHNIQUE,
];

/// The technique named `word` (its name or an alias, any case).
pub fn find(word: &str) -> Option<&'static Technique> {
    let lower = word.trim().to_ascii_lowercase();
    TECHNIQUES.iter().copied().find(|t| t.is_named(&lower))
}

/// Every technique's counters in `stats`, with their keys, in the list's order: what `xiangqi search --json`
/// prints beside the node counts.
///
/// ```
/// use xiangqi_search::Stats;
/// let keys: Vec<&str> = xiangqi_search::techniques::counters(&Stats::default()).map(|(c, _)| c.key).collect();
/// assert!(keys.contains(&"lmr_reductions") && keys.contains(&"tt_hits"));
/// ```
pub fn counters(stats: &Stats) -> impl Iterator<Item = (&'static crate::registry::Counter, u64)> + '_ {
    TECHNIQUES.iter().flat_map(|t| t.counters).map(move |c| (c, stats.get(*c)))
}

/// The set of techniques the `engine` preset switches on.
pub(crate) fn engine_set() -> u64 {
    TECHNIQUES.iter().filter(|t| t.in_engine).fold(0, |set, t| set | t.id.bit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{Group, COUNTERS_PER_TECHNIQUE, MAX_TECHNIQUES};

    #[test]
    fn the_list_holds_each_technique_at_its_place() {
        assert!(TECHNIQUES.len() <= MAX_TECHNIQUES);
        for (i, t) in TECHNIQUES.iter().enumerate() {
            assert_eq!(t.id.index(), i, "{} is declared at place {} but listed at {i}", t.name, t.id.index());
            assert!(t.counters.len() <= COUNTERS_PER_TECHNIQUE, "{}", t.name);
            for (k, c) in t.counters.iter().enumerate() {
                assert_eq!(usize::from(c.slot), i * COUNTERS_PER_TECHNIQUE + k, "{}", c.key);
            }
            if let Some(needs) = t.needs {
                assert!(find(needs).is_some(), "{} needs {needs}, which is not listed", t.name);
            }
        }
        // The spec's techniques come first: variant names write them before `engine`.
        let first_addition = TECHNIQUES.iter().position(|t| t.group == Group::Addition).unwrap();
        assert!(TECHNIQUES[first_addition..].iter().all(|t| t.group == Group::Addition));
        // Names, aliases and counter keys are unique.
        let mut words: Vec<&str> = TECHNIQUES.iter().flat_map(|t| t.aliases.iter().copied().chain([t.name])).collect();
        let mut keys: Vec<&str> = TECHNIQUES.iter().flat_map(|t| t.counters).map(|c| c.key).collect();
        let (w, k) = (words.len(), keys.len());
        words.sort_unstable();
        words.dedup();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!((words.len(), keys.len()), (w, k));
    }

    /// Each entry's parameters are its own (declared with its id) and every `Param` its file declares; the
    /// module doc's table has a row for each of the engine's additions, in the list's order, naming its file.
    #[test]
    fn entries_own_their_parameters_and_the_table_lists_them() {
        use crate::registry::PARAMS_PER_TECHNIQUE;
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/techniques");
        let rows: Vec<(String, String)> = include_str!("mod.rs")
            .lines()
            .filter_map(|l| l.strip_prefix("//! | `"))
            .map(|l| {
                let name = l.split('`').next().unwrap_or_default().to_owned();
                let file = l.split('|').nth(1).unwrap_or_default().trim().trim_matches('`').to_owned();
                (name, file)
            })
            .collect();
        let additions: Vec<&Technique> = TECHNIQUES.iter().copied().filter(|t| t.group == Group::Addition).collect();
        let names: Vec<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, additions.iter().map(|t| t.name).collect::<Vec<_>>(), "the table's rows");
        for ((_, file), t) in rows.iter().zip(&additions) {
            let text = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(text.contains(&format!("name: \"{}\"", t.name)), "{file} does not declare {}", t.name);
            let declared = text.matches(": Param =").count();
            assert_eq!(declared, t.params.len(), "{file} declares {declared} parameters, its entry lists others");
        }
        for t in TECHNIQUES {
            for p in t.params {
                assert_eq!(p.slot() / PARAMS_PER_TECHNIQUE, t.id.index(), "{} lists {}, another's", t.name, p.name);
            }
        }
    }
}
