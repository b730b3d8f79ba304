//! Named presets and free combinations (`alphabeta+pvs+qs`), mapped onto monomorphized [`Searcher`] instances.

use crate::game::{Evaluator, Game};
use crate::policy::{
    AlphaBetaForm, Compose, FullWindow, GenerationOrder, MinimaxForm, NegamaxAbHardForm, NegamaxAbSoftForm,
    NegamaxForm, NoNull, NullMove, Ordered, PrincipalVariation, Quiescence, StaticLeaf,
};
use crate::searcher::{Limits, SearchResult, Searcher};
use std::fmt;
use std::str::FromStr;

/// The named presets, with what each is.
pub const PRESETS: &[(&str, &str)] = &[
    ("minimax", "two-sided minimax, every node searched"),
    ("alphabeta", "two-sided alpha-beta"),
    ("negamax", "negamax without pruning"),
    ("negamax-ab", "negamax alpha-beta, fail-soft"),
    ("negamax-ab-hard", "negamax alpha-beta, fail-hard"),
    ("pvs", "alpha-beta with principal variation search"),
    ("nmp", "alpha-beta with null-move pruning (R = 3)"),
    ("qs", "alpha-beta with quiescence search"),
    ("pvs+nmp+qs", "all three techniques together"),
];

/// The parts a variant string may combine with `+`.
pub const PARTS: &[(&str, &str)] = &[
    ("minimax | alphabeta | negamax | negamax-ab | negamax-ab-hard", "the form (default negamax-ab)"),
    ("pvs", "principal variation search (needs alpha-beta)"),
    ("nmp", "null-move pruning, R = 3 (needs alpha-beta)"),
    ("qs", "quiescence search at the horizon"),
    ("order", "MVV-LVA captures, killers and history (default: generation order)"),
];

/// The form of a variant: how children combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormKind {
    /// Two-sided minimax.
    Minimax,
    /// Two-sided alpha-beta.
    AlphaBeta,
    /// Negamax without pruning.
    Negamax,
    /// Negamax alpha-beta, fail-soft.
    NegamaxAb,
    /// Negamax alpha-beta, fail-hard.
    NegamaxAbHardForm,
}

impl FormKind {
    fn name(self) -> &'static str {
        match self {
            FormKind::Minimax => "minimax",
            FormKind::AlphaBeta => "alphabeta",
            FormKind::Negamax => "negamax",
            FormKind::NegamaxAb => "negamax-ab",
            FormKind::NegamaxAbHardForm => "negamax-ab-hard",
        }
    }

    fn prunes(self) -> bool {
        !matches!(self, FormKind::Minimax | FormKind::Negamax)
    }
}

/// A variant chosen at run time: a form and the techniques switched on.
///
/// ```
/// use xiangqi_search::VariantSpec;
/// let v: VariantSpec = "alphabeta+pvs+qs".parse().unwrap();
/// assert!(v.pvs && v.qs && !v.nmp);
/// assert_eq!(v.to_string(), "negamax-ab+pvs+qs");
/// let err = "minimax+pvs".parse::<VariantSpec>().unwrap_err().to_string();
/// assert!(err.contains("needs alpha-beta"));
/// assert!("bogus".parse::<VariantSpec>().unwrap_err().to_string().contains("available"));
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
    let parts: Vec<&str> = PARTS.iter().map(|(n, _)| *n).collect();
    format!("available presets: {}; parts to join with '+': {}", presets.join(", "), parts.join(", "))
}

impl FromStr for VariantSpec {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<VariantSpec, VariantError> {
        let mut form: Option<FormKind> = None;
        let mut spec = VariantSpec { form: FormKind::NegamaxAb, pvs: false, nmp: false, qs: false, order: false };
        for part in s.split('+').map(str::trim) {
            let f = match part.to_ascii_lowercase().as_str() {
                "minimax" => Some(FormKind::Minimax),
                "alphabeta" | "alpha-beta" | "ab" => Some(FormKind::AlphaBeta),
                "negamax" => Some(FormKind::Negamax),
                "negamax-ab" | "negamax-ab-soft" => Some(FormKind::NegamaxAb),
                "negamax-ab-hard" => Some(FormKind::NegamaxAbHardForm),
                "pvs" => {
                    spec.pvs = true;
                    None
                }
                "nmp" | "null" => {
                    spec.nmp = true;
                    None
                }
                "qs" => {
                    spec.qs = true;
                    None
                }
                "order" | "ordering" => {
                    spec.order = true;
                    None
                }
                _ => return Err(VariantError::Unknown { part: part.chars().take(40).collect() }),
            };
            if let Some(f) = f {
                if let Some(old) = form.filter(|&old| old != f) {
                    return Err(VariantError::TwoForms(old.name(), f.name()));
                }
                form = Some(f);
            }
        }
        spec.form = form.unwrap_or(FormKind::NegamaxAb);
        for (on, technique) in [(spec.pvs, "pvs"), (spec.nmp, "nmp")] {
            if on && !spec.form.prunes() {
                return Err(VariantError::NeedsWindow { technique, form: spec.form.name() });
            }
        }
        // PVS and null move are written in negamax form: with them, two-sided alpha-beta runs as negamax
        // alpha-beta, the same algorithm (the equality tests show the two return the same score).
        if spec.form == FormKind::AlphaBeta && (spec.pvs || spec.nmp) {
            spec.form = FormKind::NegamaxAb;
        }
        Ok(spec)
    }
}

impl fmt::Display for VariantSpec {
    /// The canonical name: the form, then the techniques in a fixed order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.form.name())?;
        for (on, name) in [(self.pvs, "pvs"), (self.nmp, "nmp"), (self.qs, "qs"), (self.order, "order")] {
            if on {
                write!(f, "+{name}")?;
            }
        }
        Ok(())
    }
}

impl VariantSpec {
    /// Runs this variant on `game` with `eval` within `limits`, through the monomorphized searcher it names.
    pub fn run<G: Game, E: Evaluator<G>>(&self, game: G, eval: E, limits: &Limits) -> SearchResult<G::Move> {
        self.run_with(game, eval, limits, |_| {})
    }

    /// [`VariantSpec::run`] with a callback after each iteration of iterative deepening.
    pub fn run_with<G: Game, E: Evaluator<G>>(
        &self,
        game: G,
        eval: E,
        limits: &Limits,
        on_iteration: impl FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        macro_rules! go {
            ($v:ty) => {
                Searcher::<G, E, $v>::new(game, eval).search_with(limits, on_iteration)
            };
        }
        macro_rules! order {
            ($f:ty, $l:ty, $n:ty, $c:ty) => {
                if self.order {
                    go!(Compose<$f, $l, $n, $c, Ordered>)
                } else {
                    go!(Compose<$f, $l, $n, $c, GenerationOrder>)
                }
            };
        }
        macro_rules! leaf {
            ($f:ty, $n:ty, $c:ty) => {
                if self.qs {
                    order!($f, Quiescence, $n, $c)
                } else {
                    order!($f, StaticLeaf, $n, $c)
                }
            };
        }
        macro_rules! windowed {
            ($f:ty) => {
                match (self.nmp, self.pvs) {
                    (false, false) => leaf!($f, NoNull, FullWindow),
                    (true, false) => leaf!($f, NullMove<3>, FullWindow),
                    (false, true) => leaf!($f, NoNull, PrincipalVariation),
                    (true, true) => leaf!($f, NullMove<3>, PrincipalVariation),
                }
            };
        }
        match self.form {
            FormKind::Minimax => leaf!(MinimaxForm, NoNull, FullWindow),
            FormKind::AlphaBeta => leaf!(AlphaBetaForm, NoNull, FullWindow),
            FormKind::Negamax => leaf!(NegamaxForm, NoNull, FullWindow),
            FormKind::NegamaxAb => windowed!(NegamaxAbSoftForm),
            FormKind::NegamaxAbHardForm => windowed!(NegamaxAbHardForm),
        }
    }
}
