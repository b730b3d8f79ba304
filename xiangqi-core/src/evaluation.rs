//! [`Evaluator`]: the small trait that joins a static evaluation to a search.
//!
//! It lives here, at the bottom of the workspace, because it is the one crate both sides depend on: `xiangqi-eval`
//! implements it for its evaluators, `xiangqi-search` calls it, and neither knows the other. A new evaluator needs
//! this crate only.

use crate::{Move, Position};

/// A static evaluation that follows the line a search plays: the score of the position for the side to move, and two
/// hooks that let an incremental evaluator keep its state (accumulators, a network's hidden layer) in step with the
/// moves made and taken back.
///
/// `G` is the game state (a [`Position`] by default; the search's synthetic test trees are other games) and `M` its
/// move. The search calls [`Evaluator::on_make`] before each move it makes and [`Evaluator::on_unmake`] after each
/// move it takes back, never for null moves (which change no material); a stateless evaluator leaves both as they
/// are, and they cost nothing.
///
/// ```
/// use xiangqi_core::evaluation::Evaluator;
/// use xiangqi_core::{PieceKind, Position};
///
/// /// Chariots only, for the side to move.
/// struct Chariots;
/// impl Evaluator for Chariots {
///     fn evaluate(&mut self, pos: &Position) -> i32 {
///         let us = pos.turn();
///         900 * (pos.pieces(us, PieceKind::Chariot).count() as i32 - pos.pieces(!us, PieceKind::Chariot).count() as i32)
///     }
/// }
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K1R3 b").unwrap();
/// assert_eq!(Chariots.evaluate(&pos), -900);
/// ```
pub trait Evaluator<G: ?Sized = Position, M = Move> {
    /// The score for the side to move, well inside the search's mate scores (within `-10_000..=10_000` for the
    /// evaluators of `xiangqi-eval`).
    fn evaluate(&mut self, game: &G) -> i32;

    /// The score when only its relation to `[alpha, beta]` matters (quiescence's stand pat): an evaluator may return
    /// a bound, at most `alpha` or at least `beta`, without computing every term (lazy evaluation). The default is the
    /// full evaluation.
    #[inline(always)]
    fn evaluate_in_window(&mut self, game: &G, _alpha: i32, _beta: i32) -> i32 {
        self.evaluate(game)
    }

    /// Called before `m` is made in `game`.
    #[inline(always)]
    fn on_make(&mut self, _game: &G, _m: M) {}

    /// Called after a move (not a null move) is taken back.
    #[inline(always)]
    fn on_unmake(&mut self) {}
}

/// What builds a search's evaluators, one per search thread, and the options it answers to. `xiangqi-eval`
/// implements it for its evaluator settings (`EvalSettings`, with the options `Use NNUE` and `EvalFile`) and its
/// evaluator choice (`EvalChoice`, no options), and so does any function from a game to an [`Evaluator`] (no
/// options): an engine is generic over it, holds the choice and lists its options
/// with its own, without naming a concrete evaluator.
///
/// ```
/// use xiangqi_core::evaluation::{EvalSource, Evaluator};
/// use xiangqi_core::Position;
///
/// struct Zero;
/// impl Evaluator for Zero {
///     fn evaluate(&mut self, _: &Position) -> i32 { 0 }
/// }
/// let source = |_: &Position| Zero;
/// assert!(EvalSource::<Position>::options(&source).is_empty());
/// assert_eq!(source.for_search(&Position::startpos()).evaluate(&Position::startpos()), 0);
/// ```
pub trait EvalSource<G: ?Sized = Position, M = Move> {
    /// The evaluator a search thread uses.
    type Eval: Evaluator<G, M>;

    /// A new evaluator, its incremental state set to `game` (the root of the search).
    fn for_search(&self, game: &G) -> Self::Eval;

    /// The options of the evaluation (none by default).
    fn options(&self) -> &'static [OptionDecl] {
        &[]
    }

    /// Sets the option `name` (one of [`EvalSource::options`], as declared) to `value`, checked against its
    /// declaration already. `Ok` may carry a message for the user (what was loaded); an error leaves the source as
    /// it was.
    ///
    /// # Errors
    /// When the value cannot be used (a file that does not load), or the option is not this source's.
    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<Option<String>, String> {
        let _ = value;
        Err(format!("unknown option {name:?}"))
    }

    /// What evaluates, in a few words (`handcrafted`, a network's size and hash).
    fn describe(&self) -> String {
        "a custom evaluator".to_owned()
    }
}

impl<G: ?Sized, M, E: Evaluator<G, M>, F: Fn(&G) -> E> EvalSource<G, M> for F {
    type Eval = E;

    fn for_search(&self, game: &G) -> E {
        self(game)
    }
}

/// The type, default and range of an option, as UCI declares them (`check`, `spin`, `combo`, `string`, `button`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// On or off (`true`/`false`).
    Check {
        /// The value at start.
        default: bool,
    },
    /// A whole number from `min` to `max`.
    Spin {
        /// The value at start.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// One of a few words.
    Combo {
        /// The value at start.
        default: &'static str,
        /// The words allowed.
        choices: &'static [&'static str],
    },
    /// Any text (UCI's `string`).
    Text {
        /// The value at start.
        default: &'static str,
    },
    /// An action without a value.
    Button,
}

/// One option as users see it: its UCI name, its UCCI name (when UCCI has it), its type, default and range, and
/// what setting it does. Front ends print and check options from these declarations only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionDecl {
    /// The UCI name (matched without regard to case).
    pub name: &'static str,
    /// The UCCI name, when the option is offered in UCCI too.
    pub ucci: Option<&'static str>,
    /// Type, default and range.
    pub kind: OptionKind,
    /// What setting it does.
    pub doc: &'static str,
}

/// A value checked against its option's declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionValue {
    /// A `check` option's value.
    Check(bool),
    /// A `spin` option's value, in its range.
    Spin(i64),
    /// A `combo` or `string` option's value.
    Text(String),
    /// A button was pressed.
    Button,
}

impl OptionDecl {
    /// The default and the range of a `spin` option (`(0, 0, 0)` for another kind): what a command-line flag of
    /// the same setting takes.
    pub const fn spin(&self) -> (i64, i64, i64) {
        match self.kind {
            OptionKind::Spin { default, min, max } => (default, min, max),
            _ => (0, 0, 0),
        }
    }

    /// Checks `value` (`None` when none was given) against the declaration; errors name the option as `shown`
    /// (the name the user typed, in UCI or UCCI) and never echo more than 40 characters of the value.
    ///
    /// ```
    /// use xiangqi_core::evaluation::{OptionDecl, OptionKind, OptionValue};
    /// let hash = OptionDecl { name: "Hash", ucci: None, kind: OptionKind::Spin { default: 16, min: 1, max: 32768 }, doc: "" };
    /// assert_eq!(hash.parse("Hash", Some("64")), Ok(OptionValue::Spin(64)));
    /// assert_eq!(hash.parse("Hash", Some("0")).unwrap_err(), "option Hash: \"0\" is not a number from 1 to 32768");
    /// assert_eq!(hash.parse("Hash", None).unwrap_err(), "option Hash needs a value");
    /// assert!(hash.parse("Hash", Some("-1")).is_err());
    /// let signed = OptionDecl { name: "Margin", ucci: None, kind: OptionKind::Spin { default: 0, min: -64, max: 64 }, doc: "" };
    /// assert_eq!(signed.parse("Margin", Some("-4")), Ok(OptionValue::Spin(-4)));
    /// assert!(signed.parse("Margin", Some("-65")).is_err() && signed.parse("Margin", Some("-+4")).is_err());
    /// ```
    ///
    /// # Errors
    /// A missing value (but for a button), a check that is not `true` or `false`, a number out of range, a word
    /// that is not one of the combo's.
    pub fn parse(&self, shown: &str, value: Option<&str>) -> Result<OptionValue, String> {
        let clip = |v: &str| match v.char_indices().nth(40) {
            Some((i, _)) => format!("{}...", &v[..i]),
            None => v.to_owned(),
        };
        if self.kind == OptionKind::Button {
            return Ok(OptionValue::Button);
        }
        let v = value.ok_or_else(|| format!("option {shown} needs a value"))?;
        match self.kind {
            OptionKind::Check { .. } => match v {
                "true" => Ok(OptionValue::Check(true)),
                "false" => Ok(OptionValue::Check(false)),
                _ => Err(format!("option {shown}: {:?} is not true or false", clip(v))),
            },
            // A whole number, with a minus sign for a range below 0 (one sign at most).
            OptionKind::Spin { min, max, .. } => match v.strip_prefix('-').unwrap_or(v).parse::<u64>() {
                Ok(n) if n <= i64::MAX as u64 && !v.starts_with("-+") => {
                    let n = if v.starts_with('-') { -(n as i64) } else { n as i64 };
                    if (min..=max).contains(&n) {
                        Ok(OptionValue::Spin(n))
                    } else {
                        Err(format!("option {shown}: {:?} is not a number from {min} to {max}", clip(v)))
                    }
                }
                _ => Err(format!("option {shown}: {:?} is not a number from {min} to {max}", clip(v))),
            },
            OptionKind::Combo { choices, .. } => match choices.iter().find(|c| c.eq_ignore_ascii_case(v)) {
                Some(c) => Ok(OptionValue::Text((*c).to_owned())),
                None => Err(format!("option {shown}: {:?} is not one of {}", clip(v), choices.join(", "))),
            },
            OptionKind::Text { .. } => Ok(OptionValue::Text(v.to_owned())),
            OptionKind::Button => Ok(OptionValue::Button),
        }
    }
}
