//! The engine's options, declared once: each has its UCI name, its UCCI name (when UCCI offers it), its type,
//! default and range, and what setting it does. UCI's `uci` answer, UCCI's `ucci` answer, the checks of
//! `setoption` and the command line's flags (`--hash`, `--threads`) all read these declarations; the evaluator's
//! options (`Use NNUE`, `EvalFile`) come from the engine's [`EvalSource`](xiangqi_core::evaluation::EvalSource)
//! and follow them in [`crate::SearchEngine::options`].

pub use xiangqi_core::evaluation::{OptionDecl, OptionKind, OptionValue};

/// The variant the engine plays: every technique of the playing engine (the `Variant` option's default).
pub const ENGINE_VARIANT: &str = "engine";

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
    kind: OptionKind::Text { default: ENGINE_VARIANT },
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

/// `Skill Level`: 1 (weakest) to 10 (full strength); each level below 10 caps the search's nodes and chooses at
/// random among the moves near the best ([`crate::skill`]).
pub const SKILL_LEVEL: OptionDecl = OptionDecl {
    name: "Skill Level",
    ucci: None,
    kind: OptionKind::Spin {
        default: crate::skill::FULL_STRENGTH as i64,
        min: 1,
        max: crate::skill::FULL_STRENGTH as i64,
    },
    doc: "1 (weakest) to 10 (full strength): below 10, fewer nodes and a random choice among the moves near the best.",
};

/// `UCI_LimitStrength`: play at the level of `UCI_Elo` instead of `Skill Level`.
pub const UCI_LIMIT_STRENGTH: OptionDecl = OptionDecl {
    name: "UCI_LimitStrength",
    ucci: None,
    kind: OptionKind::Check { default: false },
    doc: "Plays at the strength of UCI_Elo (the level whose measured Elo is not above it) instead of Skill Level.",
};

/// `UCI_Elo`: the strength played under `UCI_LimitStrength`, on the scale of [`crate::skill::LEVEL_ELO`] with level
/// 10 at [`crate::skill::NOMINAL_FULL_ELO`].
pub const UCI_ELO: OptionDecl = OptionDecl {
    name: "UCI_Elo",
    ucci: None,
    kind: OptionKind::Spin {
        default: crate::skill::MIN_ELO as i64,
        min: crate::skill::MIN_ELO as i64,
        max: crate::skill::MAX_ELO as i64,
    },
    doc: "The Elo played under UCI_LimitStrength (levels measured against each other; level 10 nominally 2400).",
};

/// `Variety`: at full strength, the plies from the game's start in which the engine chooses at random among the
/// moves nearly as good as the best (0, the default: never; the engine plays as itself).
pub const VARIETY: OptionDecl = OptionDecl {
    name: "Variety",
    ucci: None,
    kind: OptionKind::Spin { default: 0, min: 0, max: 200 },
    doc: "Plies from the game's start in which full strength varies among moves nearly as good as the best.",
};

/// `Seed`: the seed of the random choices of the levels and of `Variety` (0, the default: a new seed every game;
/// any other value: the same choices in the same positions, for measurement).
pub const SEED: OptionDecl = OptionDecl {
    name: "Seed",
    ucci: None,
    kind: OptionKind::Spin { default: 0, min: 0, max: i32::MAX as i64 },
    doc: "Seed of the levels' and Variety's random choices: 0 for a new seed every game, else reproducible.",
};

/// What setting one of the engine's options asks of the engine beyond keeping its value in [`SearchEngineSettings`]
/// (what [`crate::SearchEngine::set_option`] does after the setter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more: the search reads the value from the settings.
    Stored,
    /// A new, empty table of `hash_mb` megabytes.
    NewTable,
    /// `threads` search threads.
    Threads,
    /// The table emptied.
    ClearTable,
    /// The random choices start again from `seed`.
    NewSeed,
    /// The variant played is `variant`.
    Variant,
}

/// One of the engine's options: its declaration and its setter, which checks a value and keeps it in the
/// settings, saying what more the engine must do ([`Effect`]).
#[derive(Clone, Copy)]
pub struct EngineOption {
    /// The declaration (name, type, default, range).
    pub decl: OptionDecl,
    /// Checks `value` and keeps it in the settings; an error leaves the engine as it was.
    pub set: fn(&mut SearchEngineSettings, &OptionValue) -> Result<Effect, String>,
}

impl std::fmt::Debug for EngineOption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.decl.fmt(f)
    }
}

/// The number `value` of the spin option `decl`.
pub(crate) fn spin(decl: OptionDecl, value: &OptionValue) -> Result<i64, String> {
    match value {
        OptionValue::Spin(n) => Ok(*n),
        other => Err(format!("option {}: {other:?} is not a number", decl.name)),
    }
}

/// The truth `value` of the check option `decl`.
fn check(decl: OptionDecl, value: &OptionValue) -> Result<bool, String> {
    match value {
        OptionValue::Check(b) => Ok(*b),
        other => Err(format!("option {}: {other:?} is not true or false", decl.name)),
    }
}

/// An entry of [`ENGINE_OPTIONS`] whose setter reads the value with `spin` (a number) or `check` (a truth) as `$x`,
/// keeps it with `$store`, and asks [`Effect`]`::$effect` of the engine.
macro_rules! option {
    ($decl:ident, $read:ident, |$s:ident, $x:ident| $store:expr, $effect:ident) => {
        EngineOption {
            decl: $decl,
            set: |$s, v| {
                let $x = $read($decl, v)?;
                $store;
                Ok(Effect::$effect)
            },
        }
    };
}

/// The engine's own options with their setters, in the order UCI lists them; the evaluator's follow.
pub const ENGINE_OPTIONS: [EngineOption; 13] = [
    option!(HASH, spin, |s, n| s.hash_mb = n as usize, NewTable),
    option!(THREADS, spin, |s, n| s.threads = (n as usize).max(1), Threads),
    option!(MULTIPV, spin, |s, n| s.multipv = (n as usize).max(1), Stored),
    EngineOption { decl: CLEAR_HASH, set: |_, _| Ok(Effect::ClearTable) },
    option!(MOVE_OVERHEAD, spin, |s, n| s.move_overhead = std::time::Duration::from_millis(n as u64), Stored),
    option!(PONDER, check, |s, b| s.ponder = b, Stored),
    option!(LENIENT, check, |s, b| s.lenient = b, Stored),
    EngineOption {
        decl: VARIANT,
        set: |s, v| {
            let OptionValue::Text(text) = v else { return Err(format!("option {} needs a variant", VARIANT.name)) };
            text.parse::<crate::VariantConfig>().map_err(|e| e.to_string())?;
            s.variant = text.clone();
            Ok(Effect::Variant)
        },
    },
    option!(SKILL_LEVEL, spin, |s, n| s.skill_level = n as u8, Stored),
    option!(UCI_LIMIT_STRENGTH, check, |s, b| s.limit_strength = b, Stored),
    option!(UCI_ELO, spin, |s, n| s.uci_elo = n as i32, Stored),
    option!(VARIETY, spin, |s, n| s.variety = n as u32, Stored),
    option!(SEED, spin, |s, n| s.seed = n as u64, NewSeed),
];

/// The engine's own option named `name` (exactly, as [`crate::SearchEngine::options`] gives it).
pub fn find(name: &str) -> Option<&'static EngineOption> {
    ENGINE_OPTIONS.iter().find(|o| o.decl.name == name)
}

/// The values of the engine's own options ([`ENGINE_OPTIONS`]), as set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchEngineSettings {
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
    /// `Skill Level`.
    pub skill_level: u8,
    /// `UCI_LimitStrength`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub uci_elo: i32,
    /// `Variety`, in plies.
    pub variety: u32,
    /// `Seed`.
    pub seed: u64,
}

impl SearchEngineSettings {
    /// The level played: `UCI_Elo`'s under `UCI_LimitStrength`, else `Skill Level`.
    pub fn level(&self) -> u8 {
        if self.limit_strength {
            crate::skill::level_for_elo(self.uci_elo)
        } else {
            self.skill_level
        }
    }
}

impl Default for SearchEngineSettings {
    /// Every option at its declared default.
    fn default() -> SearchEngineSettings {
        let spin = |d: OptionDecl| d.spin().0 as usize;
        let check = |d: OptionDecl| matches!(d.kind, OptionKind::Check { default: true });
        let OptionKind::Text { default: variant } = VARIANT.kind else { unreachable!("Variant is text") };
        SearchEngineSettings {
            hash_mb: spin(HASH),
            threads: spin(THREADS),
            multipv: spin(MULTIPV),
            move_overhead: std::time::Duration::from_millis(MOVE_OVERHEAD.spin().0 as u64),
            ponder: check(PONDER),
            lenient: check(LENIENT),
            variant: variant.to_owned(),
            skill_level: SKILL_LEVEL.spin().0 as u8,
            limit_strength: check(UCI_LIMIT_STRENGTH),
            uci_elo: UCI_ELO.spin().0 as i32,
            variety: VARIETY.spin().0 as u32,
            seed: SEED.spin().0 as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        for d in ENGINE_OPTIONS.map(|o| o.decl) {
            if let OptionKind::Spin { default, min, max } = d.kind {
                assert!(min <= default && default <= max, "{}", d.name);
            }
            let same = ENGINE_OPTIONS.iter().filter(|o| o.decl.name.eq_ignore_ascii_case(d.name)).count();
            assert_eq!(same, 1, "{}", d.name);
        }
        let s = SearchEngineSettings::default();
        assert_eq!((s.hash_mb, s.threads, s.multipv, s.variant.as_str()), (16, 1, 1, "engine"));
        assert_eq!(s.move_overhead.as_millis(), 10);
        assert_eq!((s.skill_level, s.limit_strength, s.variety, s.seed, s.level()), (10, false, 0, 0, 10));
    }
}
