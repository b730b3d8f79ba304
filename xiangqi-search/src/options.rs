//! The engine's options, declared once: each has its UCI name, its UCCI name (when UCCI offers it), its type,
//! default and range, and what setting it does. UCI's `uci` answer, UCCI's `ucci` answer, the checks of
//! `setoption` and the command line's flags (`--hash`, `--threads`) all read these declarations; the evaluator's
//! options (`Use NNUE`, `EvalFile`) come from the engine's [`EvalSource`](xiangqi_core::evaluation::EvalSource)
//! and follow them in [`crate::SearchEngine::options`].

pub use xiangqi_core::evaluation::{OptionDecl, OptionKind, OptionValue};

/// `Hash`: the transposition table's size in megabytes (a new, empty table).
pub const HASH: OptionDecl = OptionDecl {
    name: "Hash",
    ucci: Some("hashsize"),
    kind: OptionKind::Spin { default: 16, min: 1, max: 32768 },
    doc: "Transposition table size in MB (a new, empty table).",
};

/// `Threads`: search threads (Lazy SMP; one thread is reproducible node for node).
pub const THREADS: OptionDecl = OptionDecl {
    name: "Threads",
    ucci: Some("threads"),
    kind: OptionKind::Spin { default: 1, min: 1, max: 256 },
    doc: "Search threads (Lazy SMP; one thread is reproducible).",
};

/// `MultiPV`: principal variations searched and reported at the root.
pub const MULTIPV: OptionDecl = OptionDecl {
    name: "MultiPV",
    ucci: None,
    kind: OptionKind::Spin { default: 1, min: 1, max: 128 },
    doc: "Principal variations searched and reported at the root.",
};

/// `Clear Hash`: empties the transposition table.
pub const CLEAR_HASH: OptionDecl =
    OptionDecl { name: "Clear Hash", ucci: None, kind: OptionKind::Button, doc: "Empties the transposition table." };

/// `Move Overhead`: milliseconds kept back per move for the move's way to the opponent.
pub const MOVE_OVERHEAD: OptionDecl = OptionDecl {
    name: "Move Overhead",
    ucci: None,
    kind: OptionKind::Spin { default: 10, min: 0, max: 5000 },
    doc: "Milliseconds kept back per move, on a clock, for the move's way to the opponent.",
};

/// `Ponder`: tells the GUI that the engine can ponder; pondering itself is the GUI's choice (`go ponder`).
pub const PONDER: OptionDecl = OptionDecl {
    name: "Ponder",
    ucci: Some("ponder"),
    kind: OptionKind::Check { default: false },
    doc: "Tells the GUI that the engine can ponder (`go ponder`); no effect on the search.",
};

/// `Lenient`: `position fen` loads the setups of rule books and studies (see `xiangqi_core::Validation`).
pub const LENIENT: OptionDecl = OptionDecl {
    name: "Lenient",
    ucci: None,
    kind: OptionKind::Check { default: false },
    doc: "Loads the FENs of rule books and studies that strict checking refuses.",
};

/// `Variant`: the search variant played (a preset or techniques joined with `+`, [`crate::VariantConfig`]).
pub const VARIANT: OptionDecl = OptionDecl {
    name: "Variant",
    ucci: Some("variant"),
    kind: OptionKind::Text { default: crate::engine::ENGINE_VARIANT },
    doc: "The search variant: a preset or techniques joined with '+' (`xiangqi search --list`).",
};

/// `ParamFile`: a parameter file (`name = value` lines, [`crate::params`]) whose values the search takes; a file
/// that cannot be read or has an error changes nothing; `<empty>` (the default, as Stockfish writes an empty string
/// option) or an empty value loads none. Listed, with one spin option per tunable parameter, after
/// the evaluator's options.
pub const PARAM_FILE: OptionDecl = OptionDecl {
    name: "ParamFile",
    ucci: None,
    kind: OptionKind::Text { default: "<empty>" },
    doc: "A file of tuned search parameters (`name = value` lines); empty for none.",
};

/// The engine's own options, in the order UCI lists them; the evaluator's follow.
pub const ENGINE_OPTIONS: [OptionDecl; 8] =
    [HASH, THREADS, MULTIPV, CLEAR_HASH, MOVE_OVERHEAD, PONDER, LENIENT, VARIANT];

/// The values of the engine's own options ([`ENGINE_OPTIONS`]), as set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSettings {
    /// `Hash`, in megabytes.
    pub hash_mb: usize,
    /// `Threads`.
    pub threads: usize,
    /// `MultiPV`.
    pub multipv: usize,
    /// `Move Overhead`.
    pub move_overhead: std::time::Duration,
    /// `Ponder`.
    pub ponder: bool,
    /// `Lenient`.
    pub lenient: bool,
    /// `Variant`, as given.
    pub variant: String,
}

impl Default for EngineSettings {
    /// Every option at its declared default.
    fn default() -> EngineSettings {
        let spin = |d: OptionDecl| d.spin().0 as usize;
        let check = |d: OptionDecl| matches!(d.kind, OptionKind::Check { default: true });
        let OptionKind::Text { default: variant } = VARIANT.kind else { unreachable!("Variant is text") };
        EngineSettings {
            hash_mb: spin(HASH),
            threads: spin(THREADS),
            multipv: spin(MULTIPV),
            move_overhead: std::time::Duration::from_millis(MOVE_OVERHEAD.spin().0 as u64),
            ponder: check(PONDER),
            lenient: check(LENIENT),
            variant: variant.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        for d in ENGINE_OPTIONS {
            if let OptionKind::Spin { default, min, max } = d.kind {
                assert!(min <= default && default <= max, "{}", d.name);
            }
            let same = ENGINE_OPTIONS.iter().filter(|o| o.name.eq_ignore_ascii_case(d.name)).count();
            assert_eq!(same, 1, "{}", d.name);
        }
        let s = EngineSettings::default();
        assert_eq!((s.hash_mb, s.threads, s.multipv, s.variant.as_str()), (16, 1, 1, "engine"));
        assert_eq!(s.move_overhead.as_millis(), 10);
    }
}
