//! What the registry of techniques knows of one technique: [`Technique`], its statistics [`Counter`]s and its
//! place ([`TechniqueId`]). Each technique's file declares its own entry; the list of entries is
//! [`crate::techniques::TECHNIQUES`], and the variant parser, `--list`, the `engine` preset, the statistics and
//! their JSON keys all read it.

/// A technique's place in [`crate::techniques::TECHNIQUES`]: the bit that switches it on in a variant, and the
/// slots of its counters in [`crate::Stats`]. Each technique's file names its own (the next free number); a unit
/// test checks that the list holds them in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TechniqueId(pub(crate) u8);

impl TechniqueId {
    /// The technique at `index` in the list.
    pub const fn new(index: u8) -> TechniqueId {
        assert!((index as usize) < MAX_TECHNIQUES, "too many techniques for the variant's bit set");
        TechniqueId(index)
    }

    /// Its index in the list.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its bit in a variant's set of techniques.
    #[inline(always)]
    pub(crate) const fn bit(self) -> u32 {
        1 << self.0
    }
}

/// How many techniques a variant can name (the bits of its set).
pub const MAX_TECHNIQUES: usize = 32;

/// How many counters one technique may own.
pub const COUNTERS_PER_TECHNIQUE: usize = 2;

/// A statistics counter owned by a technique: its key in the statistics (and in the JSON of `xiangqi search` and
/// `compare`), what it counts, and its slot in [`crate::Stats`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counter {
    /// The key, such as `lmr_reductions`.
    pub key: &'static str,
    /// What it counts.
    pub description: &'static str,
    pub(crate) slot: u8,
}

impl Counter {
    /// The `k`-th counter (from 0) of the technique `owner`.
    pub const fn new(owner: TechniqueId, k: usize, key: &'static str, description: &'static str) -> Counter {
        assert!(k < COUNTERS_PER_TECHNIQUE, "a technique owns at most COUNTERS_PER_TECHNIQUE counters");
        Counter { key, description, slot: (owner.index() * COUNTERS_PER_TECHNIQUE + k) as u8 }
    }
}

/// Where a technique sits among the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// One of the spec's techniques (`pvs`, `nmp`, `qs`, `order`): a policy type of its own in one slot of the
    /// composition ([`crate::policy`]), switched on freely.
    Spec,
    /// One of the engine's additions: a call at one of the negamax node's hooks (or the root's), compiled in only
    /// with [`crate::EngineAdditions`] and switched at run time.
    Addition,
}

/// Which forms of the search a technique works with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Every form, the two-sided ones included (quiescence, ordering, the transposition table).
    AnyForm,
    /// The negamax node, with or without a window (the engine's additions).
    Negamax,
    /// The negamax node with a window (PVS and the null move search zero windows from the side to move's view).
    NegamaxWindow,
}

/// One technique, as the registry describes it. Each technique's file declares its own as a constant.
#[derive(Debug, Clone, Copy)]
pub struct Technique {
    /// Its place in the list.
    pub id: TechniqueId,
    /// Its name in a variant string (`lmr`; `no-lmr` takes it from the engine).
    pub name: &'static str,
    /// Other spellings the parser takes (`null` for `nmp`).
    pub aliases: &'static [&'static str],
    /// What it does, in a few words (for `--list`).
    pub summary: &'static str,
    /// The spec's technique or the engine's addition.
    pub group: Group,
    /// The forms it works with.
    pub reach: Reach,
    /// The technique it needs, unless the engine is asked for (`lmr` needs `order`).
    pub needs: Option<&'static str>,
    /// Whether the `engine` preset has it.
    pub in_engine: bool,
    /// Its statistics counters.
    pub counters: &'static [Counter],
}

impl Technique {
    /// Whether `word` (lower case) names it.
    pub fn is_named(&self, word: &str) -> bool {
        self.name == word || self.aliases.contains(&word)
    }
}
