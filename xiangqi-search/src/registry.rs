//! What the registry of techniques knows of one technique: [`Technique`], its statistics [`Counter`]s, its tunable
//! [`Param`]s and its place ([`TechniqueId`]); and [`Params`], one value for each parameter. Each technique's file declares its own entry; the list of entries is
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
    pub(crate) const fn bit(self) -> u64 {
        1 << self.0
    }
}

/// How many techniques a variant can name (the bits of its set, a `u64`).
pub const MAX_TECHNIQUES: usize = 64;

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
    /// with [`crate::SwitchedAdditions`] and switched at run time.
    Addition,
}

/// Which forms of the search a technique works with (the variant parser refuses it in the others).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forms {
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
    pub forms: Forms,
    /// The technique it needs, unless the engine is asked for (`lmr` needs `order`).
    pub needs: Option<&'static str>,
    /// Whether the `engine` preset has it.
    pub in_engine: bool,
    /// Its statistics counters.
    pub counters: &'static [Counter],
    /// Its tunable numbers, in the order [`crate::params::PARAMS`] lists them.
    pub params: &'static [Param],
}

impl Technique {
    /// Whether `word` (lower case) names it.
    pub fn is_named(&self, word: &str) -> bool {
        self.name == word || self.aliases.contains(&word)
    }
}

/// How many parameters one technique may own.
pub const PARAMS_PER_TECHNIQUE: usize = 8;

/// The slots of a [`Params`]: one per parameter each technique may own.
pub const PARAM_SLOTS: usize = MAX_TECHNIQUES * PARAMS_PER_TECHNIQUE;

/// A tunable number of a technique: its name (a UCI option and a key of a parameter file), its compiled default,
/// its range, and the SPSA perturbation at the last iteration (`c_end`, fishtest's step).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Param {
    /// The name, such as `RazorMargin`: the UCI option and the parameter file's key.
    pub name: &'static str,
    /// The compiled value.
    pub default: i32,
    /// The smallest value allowed.
    pub min: i32,
    /// The largest value allowed.
    pub max: i32,
    /// SPSA's perturbation at the last iteration (fishtest's `c_end`).
    pub c_end: f64,
    /// What it sets.
    pub doc: &'static str,
    slot: u16,
}

impl Param {
    /// The `k`-th parameter (from 0) of the technique `owner`, with its compiled `default` and `range`; its slot
    /// in [`Params`] follows from `owner` and `k`, as a counter's does.
    pub const fn new(
        owner: TechniqueId,
        k: usize,
        name: &'static str,
        default: i32,
        range: std::ops::RangeInclusive<i32>,
        c_end: f64,
        doc: &'static str,
    ) -> Param {
        let (min, max) = (*range.start(), *range.end());
        assert!(k < PARAMS_PER_TECHNIQUE, "a technique owns at most PARAMS_PER_TECHNIQUE parameters");
        assert!(min <= default && default <= max, "a parameter's default lies in its range");
        Param { name, default, min, max, c_end, doc, slot: (owner.index() * PARAMS_PER_TECHNIQUE + k) as u16 }
    }

    /// Its slot in [`Params`].
    #[inline(always)]
    pub const fn slot(&self) -> usize {
        self.slot as usize
    }

    /// Its UCI option: a spin from `min` to `max` with the compiled default.
    pub const fn option(&self) -> xiangqi_core::evaluation::OptionDecl {
        xiangqi_core::evaluation::OptionDecl {
            name: self.name,
            ucci: None,
            kind: xiangqi_core::evaluation::OptionKind::Spin {
                default: self.default as i64,
                min: self.min as i64,
                max: self.max as i64,
            },
            doc: self.doc,
        }
    }
}

/// One value for each parameter of [`crate::params::PARAMS`], read by the techniques with [`Params::get`]. The
/// default ([`crate::params::DEFAULTS`]) is every parameter's compiled value; setting, parsing and writing them is
/// in [`crate::params`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Params(pub(crate) [i32; PARAM_SLOTS]);

impl Params {
    /// The value of `p`: one load from a fixed slot.
    #[inline(always)]
    pub fn get(&self, p: Param) -> i32 {
        self.0[p.slot()]
    }
}
