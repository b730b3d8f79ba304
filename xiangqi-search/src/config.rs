//! A variant as a value: [`VariantConfig`], a form and the set of techniques switched on, checked when it is built
//! (by the parser or [`VariantConfig::with_technique`]). The policies read it at run time
//! through [`crate::policy::Search::config`]: a technique's switch is one bit test, the form's properties are bits
//! of [`FormKind`].

use crate::registry::TechniqueId;

const TWO_SIDED: u8 = 1;
const PRUNE: u8 = 2;
const FAIL_SOFT: u8 = 4;

/// The form of a variant: how children combine. Its value holds its properties as bits, so that a composition
/// that chooses the form at run time ([`crate::DynamicForm`]) reads each with one bit test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum FormKind {
    /// Two-sided minimax.
    Minimax = TWO_SIDED | FAIL_SOFT,
    /// Two-sided alpha-beta.
    AlphaBeta = TWO_SIDED | PRUNE | FAIL_SOFT,
    /// Two-sided alpha-beta, fail-hard (the CS557 best/worst routines).
    AlphaBetaHard = TWO_SIDED | PRUNE,
    /// Negamax without pruning.
    Negamax = FAIL_SOFT,
    /// Negamax alpha-beta, fail-soft.
    NegamaxAb = PRUNE | FAIL_SOFT,
    /// Negamax alpha-beta, fail-hard.
    NegamaxAbHard = PRUNE,
}

impl FormKind {
    /// Every form, in the order `--list` gives them.
    pub const ALL: [FormKind; 6] = [
        FormKind::Minimax,
        FormKind::AlphaBeta,
        FormKind::AlphaBetaHard,
        FormKind::Negamax,
        FormKind::NegamaxAb,
        FormKind::NegamaxAbHard,
    ];

    /// Its name in a variant string.
    pub const fn name(self) -> &'static str {
        match self {
            FormKind::Minimax => "minimax",
            FormKind::AlphaBeta => "alphabeta",
            FormKind::AlphaBetaHard => "alphabeta-hard",
            FormKind::Negamax => "negamax",
            FormKind::NegamaxAb => "negamax-ab",
            FormKind::NegamaxAbHard => "negamax-ab-hard",
        }
    }

    /// Max/min nodes with scores from the first player's view.
    #[inline(always)]
    pub const fn two_sided(self) -> bool {
        self as u8 & TWO_SIDED != 0
    }

    /// Alpha-beta pruning.
    #[inline(always)]
    pub const fn prunes(self) -> bool {
        self as u8 & PRUNE != 0
    }

    /// Fail-soft (the best score found even outside the window) rather than fail-hard.
    #[inline(always)]
    pub const fn fail_soft(self) -> bool {
        self as u8 & FAIL_SOFT != 0
    }
}

/// A variant: a form and the techniques switched on, whether the `engine` part was asked for, and nothing else.
/// Its fields are private: it is built only by the parser (`"engine+no-lmr".parse()`) or from another one by
/// [`VariantConfig::with_technique`], which refuses what the parser refuses, so every value is a variant that makes
/// sense. The run settings (MultiPV in [`crate::Limits`], a thread's first depth in [`crate::RunSetup`]) are not
/// part of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VariantConfig {
    form: FormKind,
    on: u64,
    engine: bool,
}

impl VariantConfig {
    /// A variant the parser has checked.
    pub(crate) const fn checked(form: FormKind, on: u64, engine: bool) -> VariantConfig {
        VariantConfig { form, on, engine }
    }

    /// How children combine.
    #[inline(always)]
    pub const fn form(&self) -> FormKind {
        self.form
    }

    /// Whether the technique `id` is switched on.
    #[inline(always)]
    pub const fn has(&self, id: TechniqueId) -> bool {
        self.on & id.bit() != 0
    }

    /// Whether the `engine` part was asked for: the engine's additions, then what was taken from them.
    pub const fn is_engine(&self) -> bool {
        self.engine
    }

    /// The set of techniques switched on, one bit per place in [`crate::techniques::TECHNIQUES`].
    pub(crate) const fn bits(&self) -> u64 {
        self.on
    }
}
