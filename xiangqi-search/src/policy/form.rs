//! The forms: how a node combines its children's scores.

use super::Form;
use crate::config::VariantConfig;

macro_rules! form {
    ($(#[$m:meta])* $name:ident, $label:literal, $two:expr, $prune:expr, $soft:expr) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $name;
        impl Form for $name {
            const NAME: &'static str = $label;
            const FIXED_TWO_SIDED: bool = $two;
            const FIXED_NO_WINDOW: bool = !$prune;
            #[inline(always)]
            fn two_sided(_: &VariantConfig) -> bool {
                $two
            }
            #[inline(always)]
            fn prune(_: &VariantConfig) -> bool {
                $prune
            }
            #[inline(always)]
            fn fail_soft(_: &VariantConfig) -> bool {
                $soft
            }
        }
    };
}

/// The form named by the run-time [`VariantConfig`].
#[derive(Debug, Clone, Copy, Default)]
pub struct DynamicForm;

impl Form for DynamicForm {
    const NAME: &'static str = "dynamic";
    #[inline(always)]
    fn two_sided(config: &VariantConfig) -> bool {
        config.form().two_sided()
    }
    #[inline(always)]
    fn prune(config: &VariantConfig) -> bool {
        config.form().prunes()
    }
    #[inline(always)]
    fn fail_soft(config: &VariantConfig) -> bool {
        config.form().fail_soft()
    }
}

form!(
    /// Two-sided minimax: MAX nodes take the largest child, MIN nodes the smallest, every node searched.
    MinimaxForm, "minimax", true, false, true
);
form!(
    /// Two-sided alpha-beta (the CS557 best/worst form is the same algorithm).
    AlphaBetaForm, "alphabeta", true, true, true
);
form!(
    /// Two-sided alpha-beta, fail-hard: a node's value is clamped to the window it was given. The CS557
    /// `maximizer(board, worst, best)` / `minimizer(board, best, worst)` routines are this form (they return the
    /// window's bound when nothing beats it); it visits exactly the nodes of [`AlphaBetaForm`].
    AlphaBetaHardForm, "alphabeta-hard", true, true, false
);
form!(
    /// Negamax without pruning: `max(-child)` at every node.
    NegamaxForm, "negamax", false, false, true
);
form!(
    /// Negamax alpha-beta, fail-soft: returns the best score even when it falls outside the window.
    NegamaxAbSoftForm, "negamax-ab", false, true, true
);
form!(
    /// Negamax alpha-beta, fail-hard: returns `beta` on a cutoff and never less than `alpha`.
    NegamaxAbHardForm, "negamax-ab-hard", false, true, false
);
