//! Named presets and free combinations (`negamax-ab+pvs+qs`, `alphabeta+qs+order`), mapped onto monomorphized
//! [`Searcher`] instances.

use crate::game::{Evaluator, FastPaths};
use crate::limits::{Limits, SearchOptions};
use crate::memory::SearchMemory;
use crate::policy::{
    ChosenNull, Compose, DynamicChild, DynamicForm, DynamicLeaf, DynamicNull, DynamicOrder, Enhanced, Extras,
    NegamaxAbSoftForm, NullMove, Observer, OrderPolicy, Ordered, Parts, Plain, PrincipalVariation, Quiescence, Silent,
    Variant,
};
use crate::searcher::Searcher;
use crate::stats::SearchResult;
use crate::tt::TranspositionTable;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// The named presets, with what each is.
pub const PRESETS: &[(&str, &str)] = &[
    ("minimax", "two-sided minimax, every node searched"),
    ("alphabeta", "two-sided alpha-beta"),
    ("alphabeta-hard", "two-sided alpha-beta, fail-hard (the CS557 best/worst routines)"),
    ("negamax", "negamax without pruning"),
    ("negamax-ab", "negamax alpha-beta, fail-soft"),
    ("negamax-ab-hard", "negamax alpha-beta, fail-hard"),
    ("pvs", "alpha-beta with principal variation search"),
    ("nmp", "alpha-beta with null-move pruning (R = 3)"),
    ("qs", "alpha-beta with quiescence search"),
    ("pvs+nmp+qs", "all three techniques together"),
    (
        "engine",
        "the playing engine: pvs+nmp+qs+order with a transposition table, check extension, late move reductions, \
         futility, reverse futility and razoring, verified null move, aspiration windows and the game's rules",
    ),
];

/// The parts a variant string may combine with `+`. Every switch the parser knows is listed (a unit test checks it).
pub const PARTS: &[(&str, &str)] = &[
    ("minimax | alphabeta | alphabeta-hard | negamax | negamax-ab | negamax-ab-hard", "the form (default negamax-ab)"),
    ("pvs", "principal variation search (needs alpha-beta)"),
    ("nmp", "null-move pruning, R = 3 (needs alpha-beta)"),
    ("qs", "quiescence search at the horizon"),
    ("order", "MVV-LVA captures, killers and history (default: generation order)"),
    ("engine", "the playing engine (needs negamax-ab): pvs+nmp+qs+order and every addition below"),
    (
        "tt | lmr | futility | rfp | razor | checkext | rules | aspiration | qsprune | verified",
        "one of the engine's additions, added to a negamax search (pvs+tt, negamax-ab+order+lmr): transposition \
         table, late move reductions (needs order), futility and late move pruning (needs order), reverse \
         futility, razoring, check extension, the game's rules, aspiration windows, quiescence pruning (needs qs), \
         the engine's verified null move (needs nmp)",
    ),
    (
        "no-pvs | no-nmp | no-qs | no-order | no-tt | no-lmr | no-futility | no-rfp | no-razor | no-checkext | \
         no-rules | no-aspiration | no-qsprune | no-verified",
        "take one technique or addition from the engine (needs engine)",
    ),
];

/// The form of a variant: how children combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormKind {
    /// Two-sided minimax.
    Minimax,
    /// Two-sided alpha-beta.
    AlphaBeta,
    /// Two-sided alpha-beta, fail-hard (the CS557 best/worst routines).
    AlphaBetaHard,
    /// Negamax without pruning.
    Negamax,
    /// Negamax alpha-beta, fail-soft.
    NegamaxAb,
    /// Negamax alpha-beta, fail-hard.
    NegamaxAbHard,
}

impl FormKind {
    fn name(self) -> &'static str {
        match self {
            FormKind::Minimax => "minimax",
            FormKind::AlphaBeta => "alphabeta",
            FormKind::AlphaBetaHard => "alphabeta-hard",
            FormKind::Negamax => "negamax",
            FormKind::NegamaxAb => "negamax-ab",
            FormKind::NegamaxAbHard => "negamax-ab-hard",
        }
    }

    fn prunes(self) -> bool {
        !matches!(self, FormKind::Minimax | FormKind::Negamax)
    }
}

type Switch = fn(&mut VariantSpec) -> &mut bool;

/// Every technique or switch a variant string names: `name` turns it on, `no-name` off. The first
/// [`ENGINE_SWITCHES`] are the spec's techniques; the rest are the engine's additions, each of which can be added
/// to a negamax search of the spec's techniques (`pvs+tt`) or taken from the engine (`engine+no-tt`). Switching
/// anything off needs `engine` (only `engine` turns things on by itself).
const SWITCHES: &[(&str, Switch)] = &[
    ("pvs", |s| &mut s.pvs),
    ("nmp", |s| &mut s.nmp),
    ("qs", |s| &mut s.qs),
    ("order", |s| &mut s.order),
    ("tt", |s| &mut s.options.tt),
    ("lmr", |s| &mut s.options.lmr),
    ("futility", |s| &mut s.options.futility),
    ("rfp", |s| &mut s.options.reverse_futility),
    ("razor", |s| &mut s.options.razoring),
    ("checkext", |s| &mut s.options.check_extension),
    ("rules", |s| &mut s.options.rules),
    ("aspiration", |s| &mut s.options.aspiration),
    ("qsprune", |s| &mut s.options.qs_pruning),
    ("verified", |s| &mut s.options.verified_null),
];

/// Where the engine's run-time switches start in [`SWITCHES`].
const ENGINE_SWITCHES: usize = 4;

/// A variant chosen at run time: a form and the techniques switched on.
///
/// The order of the parts does not matter: `no-nmp+engine` is `engine+no-nmp`. A part that would change nothing is
/// an error rather than ignored: a switch of the engine's additions (`no-tt`, `lmr`, ...) or a technique switched
/// off (`no-nmp`) without `engine`, or one switch given both on and off (`pvs+no-pvs`).
///
/// ```
/// use xiangqi_search::VariantSpec;
/// let v: VariantSpec = "negamax-ab+pvs+qs".parse().unwrap();
/// assert!(v.pvs && v.qs && !v.nmp);
/// assert_eq!(v.to_string(), "negamax-ab+pvs+qs");
/// let err = "alphabeta+pvs".parse::<VariantSpec>().unwrap_err().to_string();
/// assert!(err.contains("negamax-ab+pvs is the same algorithm"));
/// let err = "minimax+pvs".parse::<VariantSpec>().unwrap_err().to_string();
/// assert!(err.contains("needs alpha-beta"));
/// assert!("bogus".parse::<VariantSpec>().unwrap_err().to_string().contains("available"));
/// assert!("negamax-ab+no-tt".parse::<VariantSpec>().unwrap_err().to_string().contains("needs the engine part"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VariantSpec {
    /// How children combine.
    pub form: FormKind,
    /// Principal variation search.
    pub pvs: bool,
    /// Null-move pruning.
    pub nmp: bool,
    /// Quiescence search.
    pub qs: bool,
    /// Move ordering (MVV-LVA, killers, history).
    pub order: bool,
    /// The engine's additions (transposition table, selectivity, rules).
    pub engine: bool,
    /// Run-time switches of the engine's additions.
    pub options: SearchOptions,
}

/// A variant string that names nothing we have, or asks for something contradictory.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// A part that is not known.
    #[error("unknown variant part {part:?}; {}", available())]
    Unknown {
        /// The part.
        part: String,
    },
    /// Two forms in one variant.
    #[error("contradictory variant: both {0} and {1} given, choose one form; {list}", list = available())]
    TwoForms(&'static str, &'static str),
    /// The engine's additions on another form than negamax alpha-beta (fail-soft).
    #[error("contradictory variant: the engine's additions need negamax-ab, not {0}; {list}", list = available())]
    EngineForm(&'static str),
    /// A switch that changes nothing without the engine's additions: a run-time switch of them, or a technique
    /// switched off (only `engine` switches techniques on by itself).
    #[error(
        "variant part {part:?} needs the engine part: without engine it would change nothing (write engine+{part}); \
         {list}",
        list = available()
    )]
    NeedsEngine {
        /// The part, as written.
        part: String,
    },
    /// One switch given both on and off.
    #[error("contradictory variant: both {0} and {1} given, choose one; {list}", list = available())]
    OnAndOff(String, String),
    /// An addition of the engine's that needs one of the spec's techniques.
    #[error("variant part {addition:?} needs {needs} (write {needs}+{addition}); {}", available())]
    Needs {
        /// The addition.
        addition: &'static str,
        /// The technique it needs.
        needs: &'static str,
    },
    /// The engine's additions on a two-sided form.
    #[error(
        "contradictory variant: the engine's additions other than tt are written for the negamax node, not for {0} \
         (use a negamax form: negamax, negamax-ab or negamax-ab-hard; tt joins any form); {list}",
        list = available()
    )]
    AdditionForm(&'static str),
    /// A technique written for the negamax node, on the two-sided alpha-beta form.
    #[error(
        "contradictory variant: {technique} is written for the negamax node, not for two-sided alphabeta; \
         negamax-ab+{technique} is the same algorithm in negamax form; {}",
        available()
    )]
    TwoSided {
        /// The technique.
        technique: &'static str,
    },
    /// A technique that needs a search window, on a form without one.
    #[error(
        "contradictory variant: {technique} needs alpha-beta, but {form} searches every move without a window; {}",
        available()
    )]
    NeedsWindow {
        /// The technique.
        technique: &'static str,
        /// The form.
        form: &'static str,
    },
}

/// The list of presets and parts, for error messages and `--help`.
pub fn available() -> String {
    let presets: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
    let switches: Vec<&str> = SWITCHES.iter().map(|(n, _)| *n).collect();
    format!(
        "available presets: {}; parts to join with '+': a form ({}), engine, {}, and no-<part> with engine",
        presets.join(", "),
        PARTS[0].0.replace(" | ", ", "),
        switches.join(", ")
    )
}

impl FromStr for VariantSpec {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<VariantSpec, VariantError> {
        let mut form: Option<FormKind> = None;
        let mut engine = false;
        // The switches given: index in SWITCHES, on or off, and the part as written. Applied after the loop, so
        // that they override `engine` wherever they stand.
        let mut given: Vec<(usize, bool, String)> = Vec::new();
        let mut spec = VariantSpec {
            form: FormKind::NegamaxAb,
            pvs: false,
            nmp: false,
            qs: false,
            order: false,
            engine: false,
            options: SearchOptions::none(),
        };
        for part in s.split('+').map(str::trim) {
            let lower = part.to_ascii_lowercase();
            let f = match lower.as_str() {
                "minimax" => Some(FormKind::Minimax),
                "alphabeta" | "alpha-beta" | "ab" => Some(FormKind::AlphaBeta),
                "alphabeta-hard" | "best-worst" => Some(FormKind::AlphaBetaHard),
                "negamax" => Some(FormKind::Negamax),
                "negamax-ab" | "negamax-ab-soft" => Some(FormKind::NegamaxAb),
                "negamax-ab-hard" => Some(FormKind::NegamaxAbHard),
                "engine" => {
                    engine = true;
                    None
                }
                _ => {
                    let (name, on) = match lower.strip_prefix("no-") {
                        Some(name) => (name, false),
                        None => (lower.as_str(), true),
                    };
                    let name = match name {
                        "null" => "nmp",
                        "ordering" => "order",
                        other => other,
                    };
                    let Some(index) = SWITCHES.iter().position(|(n, _)| *n == name) else {
                        return Err(VariantError::Unknown { part: part.chars().take(40).collect() });
                    };
                    if let Some((_, _, other)) = given.iter().find(|&&(i, o, _)| i == index && o != on) {
                        return Err(VariantError::OnAndOff(other.clone(), part.to_owned()));
                    }
                    given.push((index, on, part.to_owned()));
                    None
                }
            };
            if let Some(f) = f {
                if let Some(old) = form.filter(|&old| old != f) {
                    return Err(VariantError::TwoForms(old.name(), f.name()));
                }
                form = Some(f);
            }
        }
        spec.form = form.unwrap_or(FormKind::NegamaxAb);
        if engine {
            (spec.pvs, spec.nmp, spec.qs, spec.order, spec.engine) = (true, true, true, true, true);
            spec.options = SearchOptions::default();
        }
        for (index, on, part) in given {
            if !engine && !on {
                return Err(VariantError::NeedsEngine { part });
            }
            *SWITCHES[index].1(&mut spec) = on;
        }
        let o = spec.options;
        if !spec.engine
            && (SearchOptions { tt: false, ..o }).any_addition()
            && matches!(spec.form, FormKind::Minimax | FormKind::AlphaBeta | FormKind::AlphaBetaHard)
        {
            return Err(VariantError::AdditionForm(spec.form.name()));
        }
        // What an addition needs besides the negamax node (the engine may do without any of its parts).
        for (on, addition, needs, has) in [
            (o.lmr, "lmr", "order", spec.order),
            (o.futility, "futility", "order", spec.order),
            (o.qs_pruning, "qsprune", "qs", spec.qs),
            (o.verified_null, "verified", "nmp", spec.nmp),
        ] {
            if on && !has && !spec.engine {
                return Err(VariantError::Needs { addition, needs });
            }
        }
        if spec.engine && spec.form != FormKind::NegamaxAb {
            return Err(VariantError::EngineForm(spec.form.name()));
        }
        for (on, technique) in [(spec.pvs, "pvs"), (spec.nmp, "nmp")] {
            if on && !spec.form.prunes() {
                return Err(VariantError::NeedsWindow { technique, form: spec.form.name() });
            }
        }
        // PVS and the null move are written for the negamax node (a zero window and a pass are searched from the
        // side to move's view): a two-sided form with them is refused, never quietly run as negamax.
        for (on, technique) in [(spec.pvs, "pvs"), (spec.nmp, "nmp")] {
            if on && matches!(spec.form, FormKind::AlphaBeta | FormKind::AlphaBetaHard) {
                return Err(VariantError::TwoSided { technique });
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for VariantSpec {
    /// The canonical name: the form, then the techniques in a fixed order; with the engine's additions, then the
    /// techniques and additions switched off.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.form.name())?;
        for (on, name) in
            [(self.pvs, "pvs"), (self.nmp, "nmp"), (self.qs, "qs"), (self.order, "order"), (self.engine, "engine")]
        {
            if on {
                write!(f, "+{name}")?;
            }
        }
        let mut copy = *self;
        for (name, field) in &SWITCHES[ENGINE_SWITCHES..] {
            let on = *field(&mut copy);
            if self.engine && !on {
                write!(f, "+no-{name}")?;
            } else if !self.engine && on {
                write!(f, "+{name}")?;
            }
        }
        if self.engine {
            for (name, field) in &SWITCHES[..ENGINE_SWITCHES] {
                if !*field(&mut copy) {
                    write!(f, "+no-{name}")?;
                }
            }
        }
        Ok(())
    }
}

/// One monomorphized run. Kept out of line so that the dispatch's dozens of arms do not each reserve room for a
/// searcher on the caller's stack (in unoptimised builds that alone overflowed an 8 MB stack).
#[inline(never)]
fn run_variant<G: FastPaths, E: Evaluator<G, G::Move>, W: Observer<G>, V: Variant>(
    game: G,
    eval: E,
    limits: &Limits,
    setup: &RunSetup,
    options: SearchOptions,
    on_iteration: impl FnMut(&SearchResult<G::Move>),
) -> (SearchResult<G::Move>, W) {
    let mut s = Box::new(Searcher::<G, E, V, W>::new(game, eval).with_options(options));
    if V::Extras::ENABLED {
        s.set_tt(setup.tt.clone().unwrap_or_else(|| Arc::new(TranspositionTable::new(16))));
    }
    if let Some(saved) = setup.memory.as_ref().and_then(|m| m.take(setup.thread)) {
        V::Order::import(&mut s.order, &saved);
    }
    let r = s.search_with(limits, on_iteration);
    if let (Some(memory), Some(learnt)) = (&setup.memory, V::Order::export(&s.order)) {
        memory.put(setup.thread, learnt);
    }
    (r, std::mem::take(&mut s.observer))
}

/// What a run gets besides the game and the evaluator: a transposition table (used by the engine's additions) and
/// the run-time options (the spec's own, unless replaced).
#[derive(Clone, Default)]
pub struct RunSetup {
    /// The (shared) transposition table; the engine builds a small one of its own when none is given.
    pub tt: Option<Arc<TranspositionTable>>,
    /// Replaces the spec's options (for example with a thread's depth offset or MultiPV).
    pub options: Option<SearchOptions>,
    /// Where the ordering's tables are kept between the searches of a game; `None` starts fresh.
    pub memory: Option<Arc<SearchMemory>>,
    /// The thread's slot in `memory`.
    pub thread: usize,
}

impl VariantSpec {
    /// Runs this variant on `game` with `eval` within `limits`, through the monomorphized searcher it names.
    pub fn run<G: FastPaths, E: Evaluator<G, G::Move>>(
        &self,
        game: G,
        eval: E,
        limits: &Limits,
    ) -> SearchResult<G::Move> {
        self.run_observed::<G, E, Silent>(game, eval, limits, &RunSetup::default(), |_| {}).0
    }

    /// [`VariantSpec::run`] with a table, options, and a callback after each iteration of iterative deepening.
    pub fn run_with<G: FastPaths, E: Evaluator<G, G::Move>>(
        &self,
        game: G,
        eval: E,
        limits: &Limits,
        setup: &RunSetup,
        on_iteration: impl FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        self.run_observed::<G, E, Silent>(game, eval, limits, setup, on_iteration).0
    }

    /// [`VariantSpec::run_with`] watched by an observer `W`, returned with the result.
    pub fn run_observed<G: FastPaths, E: Evaluator<G, G::Move>, W: Observer<G>>(
        &self,
        game: G,
        eval: E,
        limits: &Limits,
        setup: &RunSetup,
        on_iteration: impl FnMut(&SearchResult<G::Move>),
    ) -> (SearchResult<G::Move>, W) {
        let mut options = setup.options.unwrap_or(self.options);
        options.parts = self.parts();
        macro_rules! go {
            ($v:ty) => {
                run_variant::<G, E, W, $v>(game, eval, limits, setup, options, on_iteration)
            };
        }
        // The presets that play get compositions of fixed policies (a technique that is off costs nothing); every
        // other variant runs on one composition of dynamic policies, which visits the same nodes.
        let pvs_nmp_qs_order = self.pvs && self.nmp && self.qs && self.order;
        if self.engine && pvs_nmp_qs_order && options.verified_null {
            go!(crate::Engine)
        } else if self.engine || options.any_addition() {
            go!(Compose<DynamicForm, DynamicLeaf, DynamicNull<ChosenNull>, DynamicChild, DynamicOrder, Enhanced>)
        } else if self.form == FormKind::NegamaxAb && pvs_nmp_qs_order {
            go!(Compose<NegamaxAbSoftForm, Quiescence, NullMove<3>, PrincipalVariation, Ordered, Plain>)
        } else {
            go!(Compose<DynamicForm, DynamicLeaf, DynamicNull<NullMove<3>>, DynamicChild, DynamicOrder, Plain>)
        }
    }

    /// The names of the techniques and additions switched on, in the parser's order (`pvs`, `nmp`, `qs`, `order`,
    /// then the engine's additions `tt` ... `verified`): what an ablation takes away one at a time.
    ///
    /// ```
    /// use xiangqi_search::VariantSpec;
    /// let v: VariantSpec = "engine+no-lmr".parse().unwrap();
    /// assert_eq!(v.techniques().len(), 13);
    /// assert!(!v.techniques().contains(&"lmr"));
    /// assert_eq!("pvs+qs+tt".parse::<VariantSpec>().unwrap().techniques(), ["pvs", "qs", "tt"]);
    /// ```
    pub fn techniques(&self) -> Vec<&'static str> {
        let mut copy = *self;
        SWITCHES.iter().filter(|(_, field)| *field(&mut copy)).map(|(name, _)| *name).collect()
    }

    /// This variant with the technique `name` (a name of [`VariantSpec::techniques`], or an alias the parser
    /// takes) switched on or off; an error when the name is unknown or the result is no valid variant (`lmr` on
    /// a search without `order`, `order` taken from `negamax-ab+order+lmr`).
    ///
    /// ```
    /// use xiangqi_search::VariantSpec;
    /// let engine: VariantSpec = "engine".parse().unwrap();
    /// assert_eq!(engine.with_technique("lmr", false).unwrap(), "engine+no-lmr".parse().unwrap());
    /// let plain: VariantSpec = "negamax-ab+order".parse().unwrap();
    /// assert_eq!(plain.with_technique("tt", true).unwrap().to_string(), "negamax-ab+order+tt");
    /// assert!(plain.with_technique("qsprune", true).unwrap_err().to_string().contains("needs qs"));
    /// assert!(plain.with_technique("bogus", true).is_err());
    /// ```
    pub fn with_technique(&self, name: &str, on: bool) -> Result<VariantSpec, VariantError> {
        let lower = name.trim().to_ascii_lowercase();
        let lower = match lower.as_str() {
            "null" => "nmp".to_owned(),
            "ordering" => "order".to_owned(),
            _ => lower,
        };
        let Some((_, field)) = SWITCHES.iter().find(|(n, _)| *n == lower) else {
            return Err(VariantError::Unknown { part: name.chars().take(40).collect() });
        };
        let mut copy = *self;
        *field(&mut copy) = on;
        // The canonical name read back: the parser's checks decide whether the result is a variant.
        copy.to_string().parse()
    }

    /// The techniques of this variant as the dynamic policies read them.
    pub fn parts(&self) -> Parts {
        let (two_sided, prune, fail_soft) = match self.form {
            FormKind::Minimax => (true, false, true),
            FormKind::AlphaBeta => (true, true, true),
            FormKind::AlphaBetaHard => (true, true, false),
            FormKind::Negamax => (false, false, true),
            FormKind::NegamaxAb => (false, true, true),
            FormKind::NegamaxAbHard => (false, true, false),
        };
        Parts { two_sided, prune, fail_soft, pvs: self.pvs, nmp: self.nmp, qs: self.qs, order: self.order }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_display() {
        for text in ["minimax", "alphabeta+qs", "pvs+nmp+qs", "engine", "engine+no-lmr+no-tt", "negamax-ab-hard+pvs"] {
            let spec: VariantSpec = text.parse().unwrap();
            let again: VariantSpec = spec.to_string().parse().unwrap();
            assert_eq!(spec, again, "{text} -> {spec}");
        }
        let spec: VariantSpec = "engine+no-lmr+no-qsprune".parse().unwrap();
        assert!(!spec.options.lmr && !spec.options.qs_pruning && spec.options.tt);
        assert_eq!(spec.to_string(), "negamax-ab+pvs+nmp+qs+order+engine+no-lmr+no-qsprune");
        let spec: VariantSpec = "engine+no-nmp+no-order".parse().unwrap();
        assert!(spec.engine && !spec.nmp && !spec.order && spec.pvs);
        // Techniques switched off are named too, so that the name reads back as the same variant.
        assert_eq!(spec.to_string(), "negamax-ab+pvs+qs+engine+no-nmp+no-order");
        assert_eq!(spec.to_string().parse::<VariantSpec>().unwrap(), spec);
        // The order of the parts does not matter.
        assert_eq!("no-nmp+no-order+engine".parse::<VariantSpec>().unwrap(), spec);
    }

    #[test]
    fn switches_without_effect_are_errors() {
        for text in
            ["negamax-ab+no-tt", "no-lmr", "pvs+qs+no-aspiration", "no-verified", "alphabeta+no-nmp", "no-order"]
        {
            let err = text.parse::<VariantSpec>().unwrap_err();
            let part = text.rsplit('+').next().unwrap();
            assert_eq!(err, VariantError::NeedsEngine { part: part.to_owned() }, "{text}");
            let message = err.to_string();
            assert!(message.contains("needs the engine part") && message.contains(&format!("engine+{part}")));
        }
        assert_eq!(
            "engine+pvs+no-pvs".parse::<VariantSpec>(),
            Err(VariantError::OnAndOff("pvs".to_owned(), "no-pvs".to_owned()))
        );
        assert!(matches!("engine+no-tt+tt".parse::<VariantSpec>(), Err(VariantError::OnAndOff(..))));
        // With the engine they switch it off.
        let spec: VariantSpec = "engine+no-tt".parse().unwrap();
        assert!(spec.engine && !spec.options.tt);
    }

    #[test]
    fn additions_join_any_negamax_search() {
        let spec: VariantSpec = "pvs+tt".parse().unwrap();
        assert!(spec.pvs && spec.options.tt && !spec.options.lmr && !spec.engine);
        assert_eq!(spec.to_string(), "negamax-ab+pvs+tt");
        let spec: VariantSpec = "negamax-ab-hard+qs+order+lmr+qsprune+tt".parse().unwrap();
        assert_eq!(spec.to_string(), "negamax-ab-hard+qs+order+tt+lmr+qsprune");
        assert_eq!(spec.to_string().parse::<VariantSpec>(), Ok(spec));
        assert_eq!("negamax+checkext".parse::<VariantSpec>().map(|s| s.options.check_extension), Ok(true));
        for (text, addition, needs) in [
            ("lmr", "lmr", "order"),
            ("pvs+futility", "futility", "order"),
            ("qsprune", "qsprune", "qs"),
            ("verified", "verified", "nmp"),
        ] {
            assert_eq!(text.parse::<VariantSpec>(), Err(VariantError::Needs { addition, needs }), "{text}");
        }
        let err = "alphabeta+lmr".parse::<VariantSpec>().unwrap_err();
        assert_eq!(err, VariantError::AdditionForm("alphabeta"));
        assert!(err.to_string().contains("written for the negamax node"));
        // The table joins every form, the two-sided ones included.
        for text in ["alphabeta+tt", "alphabeta-hard+tt", "minimax+tt", "alphabeta+order+tt"] {
            assert!(text.parse::<VariantSpec>().is_ok(), "{text}");
        }
        // The engine does without any of its parts.
        for part in ["no-order", "no-qs", "no-nmp"] {
            assert!(format!("engine+{part}").parse::<VariantSpec>().is_ok(), "{part}");
        }
    }

    #[test]
    fn techniques_are_listed_and_switched_one_at_a_time() {
        let engine: VariantSpec = "engine".parse().unwrap();
        let all: Vec<&str> = SWITCHES.iter().map(|(n, _)| *n).collect();
        assert_eq!(engine.techniques(), all);
        for name in engine.techniques() {
            let without = engine.with_technique(name, false).unwrap();
            assert_eq!(without, format!("engine+no-{name}").parse().unwrap(), "{name}");
            assert!(!without.techniques().contains(&name) && without.techniques().len() == all.len() - 1);
            assert_eq!(without.with_technique(name, true), Ok(engine), "{name}");
        }
        let plain: VariantSpec = "negamax-ab+order".parse().unwrap();
        assert_eq!(plain.techniques(), ["order"]);
        assert_eq!(plain.with_technique("order", false).unwrap().to_string(), "negamax-ab");
        assert_eq!(plain.with_technique("null", true).unwrap().to_string(), "negamax-ab+nmp+order");
        let lmr: VariantSpec = "negamax-ab+order+lmr".parse().unwrap();
        assert_eq!(lmr.with_technique("order", false), Err(VariantError::Needs { addition: "lmr", needs: "order" }));
        assert!(matches!(plain.with_technique("nope", true), Err(VariantError::Unknown { .. })));
        let minimax: VariantSpec = "minimax".parse().unwrap();
        assert!(matches!(minimax.with_technique("pvs", true), Err(VariantError::NeedsWindow { .. })));
    }

    #[test]
    fn parts_list_every_switch() {
        let listed: Vec<&str> = PARTS.iter().flat_map(|(names, _)| names.split(" | ")).collect();
        for (i, (name, _)) in SWITCHES.iter().enumerate() {
            assert!(listed.contains(&format!("no-{name}").as_str()), "no-{name} is not in PARTS");
            if i < ENGINE_SWITCHES {
                assert!(listed.contains(name), "{name} is not in PARTS");
            }
        }
        // And every part listed is one the parser takes, alone or with the engine.
        for part in listed {
            let alone = part.parse::<VariantSpec>();
            assert!(alone.is_ok() || format!("engine+{part}").parse::<VariantSpec>().is_ok(), "{part}: {alone:?}");
        }
    }

    #[test]
    fn contradictions_are_errors() {
        assert!(matches!("minimax+alphabeta".parse::<VariantSpec>(), Err(VariantError::TwoForms(..))));
        assert!(matches!("negamax+nmp".parse::<VariantSpec>(), Err(VariantError::NeedsWindow { .. })));
        assert!(matches!("alphabeta+engine".parse::<VariantSpec>(), Err(VariantError::EngineForm(_))));
        assert!(matches!("no-bogus".parse::<VariantSpec>(), Err(VariantError::Unknown { .. })));
        // Never rewritten quietly into negamax-ab.
        for v in ["alphabeta+pvs", "alphabeta+nmp", "ab+pvs+qs"] {
            assert!(matches!(v.parse::<VariantSpec>(), Err(VariantError::TwoSided { .. })), "{v}");
        }
    }
}
