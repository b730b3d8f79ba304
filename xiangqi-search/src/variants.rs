//! Variants as text: the named presets, the parser that turns a free combination (`negamax-ab+pvs+qs`,
//! `alphabeta+qs+order`, `engine+no-lmr`) into a checked [`VariantConfig`], its canonical name, and the list of
//! parts for `--list` and error messages. Every technique's name, what it needs and which forms it works with come
//! from the registry ([`crate::techniques::TECHNIQUES`]); nothing here names a technique.

use crate::config::{FormKind, VariantConfig};
use crate::registry::{Forms, Group, Technique};
use crate::techniques::{self, TECHNIQUES};
use std::fmt;
use std::str::FromStr;

/// The former name of [`VariantConfig`], kept for the code that still uses it ("spec" now means only the course
/// texts the techniques come from).
pub type VariantSpec = VariantConfig;

/// The named presets, with what each is. (What `engine` has is the registry's: the techniques marked
/// [`crate::registry::Technique::in_engine`].)
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
    ("engine", "the playing engine: pvs+nmp+qs+order and every addition of the parts marked \"in the engine\""),
];

/// A variant string that names nothing we have, or asks for something contradictory.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// A part that is not known: the message names the closest part, if one is close, and `xiangqi search --list`.
    #[error(
        "unknown variant part {part:?}{}; `xiangqi search --list` lists the presets and parts",
        did_you_mean(part)
    )]
    Unknown {
        /// The part.
        part: String,
    },
    /// Two forms in one variant.
    #[error("contradictory variant: both {0} and {1} given, choose one form")]
    TwoForms(&'static str, &'static str),
    /// The engine's additions on another form than negamax alpha-beta (fail-soft).
    #[error("contradictory variant: the engine's additions need negamax-ab, not {0}")]
    EngineForm(&'static str),
    /// A switch that changes nothing without the engine's additions: a run-time switch of them, or a technique
    /// switched off (only `engine` switches techniques on by itself).
    #[error(
        "variant part {part:?} needs the engine part: without engine it would change nothing (write engine+{part});"
    )]
    NeedsEngine {
        /// The part, as written.
        part: String,
    },
    /// One switch given both on and off.
    #[error("contradictory variant: both {0} and {1} given, choose one")]
    OnAndOff(String, String),
    /// A technique the engine does not have, taken from it: it would change nothing.
    #[error("variant part {part:?} changes nothing: the engine does not have {name} (write engine+{name} to add it)")]
    NotInEngine {
        /// The part, as written.
        part: String,
        /// The technique.
        name: &'static str,
    },
    /// A technique that needs another (an addition of the engine's that needs one of the spec's techniques).
    #[error("variant part {addition:?} needs {needs} (write {needs}+{addition})")]
    Needs {
        /// The addition.
        addition: &'static str,
        /// The technique it needs.
        needs: &'static str,
    },
    /// The engine's additions on a two-sided form.
    #[error(
        "contradictory variant: the engine's additions other than tt are written for the negamax node, not for {0} \
         (use a negamax form: negamax, negamax-ab or negamax-ab-hard; tt joins any form)"
    )]
    AdditionForm(&'static str),
    /// A technique written for the negamax node, on the two-sided alpha-beta form.
    #[error(
        "contradictory variant: {technique} is written for the negamax node, not for two-sided alphabeta; \
         negamax-ab+{technique} is the same algorithm in negamax form"
    )]
    TwoSided {
        /// The technique.
        technique: &'static str,
    },
    /// A technique that needs a search window, on a form without one.
    #[error("contradictory variant: {technique} needs alpha-beta, but {form} searches every move without a window")]
    NeedsWindow {
        /// The technique.
        technique: &'static str,
        /// The form.
        form: &'static str,
    },
}

/// The parts a variant string may combine with `+`, with what each is: the forms, the spec's techniques,
/// `engine`, each of the engine's additions, and the `no-` parts. Every name comes from the registry.
///
/// ```
/// let parts = xiangqi_search::parts();
/// assert!(parts.iter().any(|(name, what)| name == "lmr" && what.contains("needs order")));
/// assert!(parts.iter().any(|(names, _)| names.split(" | ").any(|n| n == "no-lmr")));
/// ```
pub fn parts() -> Vec<(String, String)> {
    let forms: Vec<&str> = FormKind::ALL.iter().map(|f| f.name()).collect();
    let mut rows = vec![(forms.join(" | "), "the form (default negamax-ab)".to_owned())];
    let group = |g: Group| TECHNIQUES.iter().copied().filter(move |t| t.group == g);
    for t in group(Group::Spec) {
        let window = if t.forms == Forms::NegamaxWindow { " (needs alpha-beta)" } else { "" };
        rows.push((t.name.to_owned(), format!("{}{window}", t.summary)));
    }
    let spec: Vec<&str> = group(Group::Spec).map(|t| t.name).collect();
    rows.push((
        "engine".to_owned(),
        format!(
            "the playing engine (needs negamax-ab): {} and every addition below marked \"in the engine\"",
            spec.join("+")
        ),
    ));
    for t in group(Group::Addition) {
        let needs = t.needs.map_or(String::new(), |n| format!(" (needs {n})"));
        let forms = if t.forms == Forms::AnyForm { "any search" } else { "a negamax search" };
        let engine = if t.in_engine { "in the engine" } else { "not in the engine" };
        rows.push((t.name.to_owned(), format!("{}{needs}; an addition that joins {forms}; {engine}", t.summary)));
    }
    let off: Vec<String> = TECHNIQUES.iter().filter(|t| t.in_engine).map(|t| format!("no-{}", t.name)).collect();
    rows.push((off.join(" | "), "take one technique or addition from the engine (needs engine)".to_owned()));
    rows
}

/// The list of presets and parts, for `--help` and `--list`-like answers (the parse errors name only what is wrong:
/// they do not grow with the registry).
pub fn available() -> String {
    let presets: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
    let forms: Vec<&str> = FormKind::ALL.iter().map(|f| f.name()).collect();
    let switches: Vec<&str> = TECHNIQUES.iter().map(|t| t.name).collect();
    format!(
        "available presets: {}; parts to join with '+': a form ({}), engine, {}, and no-<part> with engine",
        presets.join(", "),
        forms.join(", "),
        switches.join(", ")
    )
}

/// ` (did you mean "X"?)` for the known part or preset closest to `part` by edit distance, if one is close (at most
/// a third of its letters, and at least one, changed); empty otherwise.
fn did_you_mean(part: &str) -> String {
    let lower = part.to_ascii_lowercase();
    let mut names: Vec<String> = PRESETS.iter().map(|(n, _)| (*n).to_owned()).collect();
    names.extend(FormKind::ALL.iter().map(|f| f.name().to_owned()));
    names.push("engine".to_owned());
    for t in TECHNIQUES {
        names.push(t.name.to_owned());
        if t.in_engine {
            names.push(format!("no-{}", t.name));
        }
    }
    let closest = names.iter().map(|n| (edit_distance(&lower, n), n)).min_by_key(|&(d, _)| d);
    match closest {
        Some((d, name)) if d <= (lower.chars().count() / 3).max(1) => format!(" (did you mean {name:?}?)"),
        _ => String::new(),
    }
}

/// The edit distance between two short strings: insertions, deletions, substitutions and transpositions of
/// adjacent characters (`lrm` is one edit from `lmr`), each counting one.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    d[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The form a part names, if it names one.
fn form_named(lower: &str) -> Option<FormKind> {
    Some(match lower {
        "minimax" => FormKind::Minimax,
        "alphabeta" | "alpha-beta" | "ab" => FormKind::AlphaBeta,
        "alphabeta-hard" | "best-worst" => FormKind::AlphaBetaHard,
        "negamax" => FormKind::Negamax,
        "negamax-ab" | "negamax-ab-soft" => FormKind::NegamaxAb,
        "negamax-ab-hard" => FormKind::NegamaxAbHard,
        _ => return None,
    })
}

/// A variant chosen at run time, parsed from text.
///
/// The order of the parts does not matter: `no-nmp+engine` is `engine+no-nmp`. A part that would change nothing is
/// an error rather than ignored: a switch of the engine's additions (`no-tt`, `lmr`, ...) or a technique switched
/// off (`no-nmp`) without `engine`, or one switch given both on and off (`pvs+no-pvs`).
///
/// ```
/// use xiangqi_search::{techniques, VariantConfig};
/// let v: VariantConfig = "negamax-ab+pvs+qs".parse().unwrap();
/// assert_eq!(v.techniques(), ["pvs", "qs"]);
/// assert!(v.has(xiangqi_search::policy::child::ID) && !v.has(xiangqi_search::policy::null_move::ID));
/// assert_eq!(v.to_string(), "negamax-ab+pvs+qs");
/// let err = "alphabeta+pvs".parse::<VariantConfig>().unwrap_err().to_string();
/// assert!(err.contains("negamax-ab+pvs is the same algorithm"));
/// let err = "minimax+pvs".parse::<VariantConfig>().unwrap_err().to_string();
/// assert!(err.contains("needs alpha-beta"));
/// assert!("bogus".parse::<VariantConfig>().unwrap_err().to_string().contains("xiangqi search --list"));
/// assert!("negamax-ab+no-tt".parse::<VariantConfig>().unwrap_err().to_string().contains("needs the engine part"));
/// ```
impl FromStr for VariantConfig {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<VariantConfig, VariantError> {
        let mut form: Option<FormKind> = None;
        let mut engine = false;
        // The switches given: the technique, on or off, and the part as written. Applied after the loop, so that
        // they override `engine` wherever they stand.
        let mut given: Vec<(&Technique, bool, String)> = Vec::new();
        for part in s.split('+').map(str::trim) {
            let lower = part.to_ascii_lowercase();
            if lower == "engine" {
                engine = true;
            } else if let Some(f) = form_named(&lower) {
                if let Some(old) = form.filter(|&old| old != f) {
                    return Err(VariantError::TwoForms(old.name(), f.name()));
                }
                form = Some(f);
            } else {
                let (name, on) = match lower.strip_prefix("no-") {
                    Some(name) => (name, false),
                    None => (lower.as_str(), true),
                };
                let Some(t) = TECHNIQUES.iter().copied().find(|t| t.is_named(name)) else {
                    return Err(VariantError::Unknown { part: part.chars().take(40).collect() });
                };
                if let Some((_, _, other)) = given.iter().find(|&&(g, o, _)| g.id == t.id && o != on) {
                    return Err(VariantError::OnAndOff(other.clone(), part.to_owned()));
                }
                given.push((t, on, part.to_owned()));
            }
        }
        let form = form.unwrap_or(FormKind::NegamaxAb);
        let mut set = if engine { techniques::engine_set() } else { 0 };
        for (t, on, part) in given {
            if !engine && !on {
                return Err(VariantError::NeedsEngine { part });
            }
            if !on && !t.in_engine {
                return Err(VariantError::NotInEngine { part, name: t.name });
            }
            set = if on { set | t.id.bit() } else { set & !t.id.bit() };
        }
        let on = |t: &&Technique| set & t.id.bit() != 0;
        let has = |name: &str| techniques::find(name).is_some_and(|t| on(&t));
        // The engine's additions other than those that join any form are written for the negamax node.
        if !engine
            && form.two_sided()
            && TECHNIQUES.iter().copied().filter(on).any(|t| t.group == Group::Addition && t.forms != Forms::AnyForm)
        {
            return Err(VariantError::AdditionForm(form.name()));
        }
        // What a technique needs besides the negamax node (the engine may do without any of its parts).
        for t in TECHNIQUES.iter().copied().filter(on) {
            if let Some(needs) = t.needs.filter(|&n| !engine && !has(n)) {
                return Err(VariantError::Needs { addition: t.name, needs });
            }
        }
        if engine && form != FormKind::NegamaxAb {
            return Err(VariantError::EngineForm(form.name()));
        }
        let windowed = || TECHNIQUES.iter().copied().filter(on).filter(|t| t.forms == Forms::NegamaxWindow);
        if let Some(t) = windowed().find(|_| !form.prunes()) {
            return Err(VariantError::NeedsWindow { technique: t.name, form: form.name() });
        }
        // PVS and the null move are written for the negamax node (a zero window and a pass are searched from the
        // side to move's view): a two-sided form with them is refused, never quietly run as negamax.
        if let Some(t) = windowed().find(|_| form.two_sided()) {
            return Err(VariantError::TwoSided { technique: t.name });
        }
        Ok(VariantConfig::checked(form, set, engine))
    }
}

impl fmt::Display for VariantConfig {
    /// The canonical name: the form, then the spec's techniques in the registry's order; with the engine, then the
    /// additions that differ from the engine's and the spec's techniques switched off.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.form().name())?;
        let engine = self.is_engine();
        let group = |g: Group| TECHNIQUES.iter().filter(move |t| t.group == g);
        for t in group(Group::Spec).filter(|t| self.has(t.id)) {
            write!(f, "+{}", t.name)?;
        }
        if engine {
            f.write_str("+engine")?;
        }
        for t in group(Group::Addition) {
            let on = self.has(t.id);
            if on != (engine && t.in_engine) {
                write!(f, "+{}{}", if on { "" } else { "no-" }, t.name)?;
            }
        }
        if engine {
            for t in group(Group::Spec).filter(|t| !self.has(t.id)) {
                write!(f, "+no-{}", t.name)?;
            }
        }
        Ok(())
    }
}

impl VariantConfig {
    /// The playing engine: the `engine` preset.
    pub fn engine() -> VariantConfig {
        VariantConfig::checked(FormKind::NegamaxAb, techniques::engine_set(), true)
    }

    /// The names of the techniques switched on, in the registry's order (`pvs`, `nmp`, `qs`, `order`, then the
    /// engine's additions `tt` ... `verified`): what an ablation takes away one at a time.
    ///
    /// ```
    /// use xiangqi_search::VariantConfig;
    /// let v: VariantConfig = "engine+no-lmr".parse().unwrap();
    /// let engine = VariantConfig::engine().techniques();
    /// assert_eq!(v.techniques().len(), engine.len() - 1);
    /// assert!(!v.techniques().contains(&"lmr"));
    /// assert_eq!("pvs+qs+tt".parse::<VariantConfig>().unwrap().techniques(), ["pvs", "qs", "tt"]);
    /// ```
    pub fn techniques(&self) -> Vec<&'static str> {
        TECHNIQUES.iter().filter(|t| self.has(t.id)).map(|t| t.name).collect()
    }

    /// This variant with the technique `name` (a name of [`VariantConfig::techniques`], or an alias the parser
    /// takes) switched on or off: the builder of variants, which refuses what the parser refuses (the unknown
    /// name, `lmr` on a search without `order`, `order` taken from `negamax-ab+order+lmr`).
    ///
    /// ```
    /// use xiangqi_search::VariantConfig;
    /// let engine: VariantConfig = "engine".parse().unwrap();
    /// assert_eq!(engine.with_technique("lmr", false).unwrap(), "engine+no-lmr".parse().unwrap());
    /// let plain: VariantConfig = "negamax-ab+order".parse().unwrap();
    /// assert_eq!(plain.with_technique("tt", true).unwrap().to_string(), "negamax-ab+order+tt");
    /// assert!(plain.with_technique("qsprune", true).unwrap_err().to_string().contains("needs qs"));
    /// assert!(plain.with_technique("bogus", true).is_err());
    /// ```
    pub fn with_technique(&self, name: &str, on: bool) -> Result<VariantConfig, VariantError> {
        let Some(t) = techniques::find(name) else {
            return Err(VariantError::Unknown { part: name.chars().take(40).collect() });
        };
        let set = if on { self.bits() | t.id.bit() } else { self.bits() & !t.id.bit() };
        // The canonical name read back: the parser's checks decide whether the result is a variant.
        VariantConfig::checked(self.form(), set, self.is_engine()).to_string().parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_display() {
        for text in ["minimax", "alphabeta+qs", "pvs+nmp+qs", "engine", "engine+no-lmr+no-tt", "negamax-ab-hard+pvs"] {
            let spec: VariantConfig = text.parse().unwrap();
            let again: VariantConfig = spec.to_string().parse().unwrap();
            assert_eq!(spec, again, "{text} -> {spec}");
        }
        let spec: VariantConfig = "engine+no-lmr+no-qsee".parse().unwrap();
        let on = spec.techniques();
        assert!(!on.contains(&"lmr") && !on.contains(&"qsee") && on.contains(&"tt"));
        assert_eq!(spec.to_string(), "negamax-ab+pvs+nmp+qs+order+engine+no-lmr+no-qsee");
        let spec: VariantConfig = "engine+no-nmp+no-order".parse().unwrap();
        let on = spec.techniques();
        assert!(spec.is_engine() && !on.contains(&"nmp") && !on.contains(&"order") && on.contains(&"pvs"));
        // Techniques switched off are named too, so that the name reads back as the same variant.
        assert_eq!(spec.to_string(), "negamax-ab+pvs+qs+engine+no-nmp+no-order");
        assert_eq!(spec.to_string().parse::<VariantConfig>().unwrap(), spec);
        // The order of the parts does not matter.
        assert_eq!("no-nmp+no-order+engine".parse::<VariantConfig>().unwrap(), spec);
    }

    #[test]
    fn switches_without_effect_are_errors() {
        for text in
            ["negamax-ab+no-tt", "no-lmr", "pvs+qs+no-aspiration", "no-verified", "alphabeta+no-nmp", "no-order"]
        {
            let err = text.parse::<VariantConfig>().unwrap_err();
            let part = text.rsplit('+').next().unwrap();
            assert_eq!(err, VariantError::NeedsEngine { part: part.to_owned() }, "{text}");
            let message = err.to_string();
            assert!(message.contains("needs the engine part") && message.contains(&format!("engine+{part}")));
        }
        assert_eq!(
            "engine+pvs+no-pvs".parse::<VariantConfig>(),
            Err(VariantError::OnAndOff("pvs".to_owned(), "no-pvs".to_owned()))
        );
        assert!(matches!("engine+no-tt+tt".parse::<VariantConfig>(), Err(VariantError::OnAndOff(..))));
        // With the engine they switch it off.
        let spec: VariantConfig = "engine+no-tt".parse().unwrap();
        assert!(spec.is_engine() && !spec.techniques().contains(&"tt"));
    }

    #[test]
    fn additions_join_any_negamax_search() {
        let spec: VariantConfig = "pvs+tt".parse().unwrap();
        assert!(spec.techniques() == ["pvs", "tt"] && !spec.is_engine());
        assert_eq!(spec.to_string(), "negamax-ab+pvs+tt");
        let spec: VariantConfig = "negamax-ab-hard+qs+order+lmr+qsprune+tt".parse().unwrap();
        assert_eq!(spec.to_string(), "negamax-ab-hard+qs+order+tt+lmr+qsprune");
        assert_eq!(spec.to_string().parse::<VariantConfig>(), Ok(spec));
        assert_eq!("negamax+checkext".parse::<VariantConfig>().map(|s| s.techniques()), Ok(vec!["checkext"]));
        for (text, addition, needs) in [
            ("lmr", "lmr", "order"),
            ("pvs+futility", "futility", "order"),
            ("qsprune", "qsprune", "qs"),
            ("verified", "verified", "nmp"),
        ] {
            assert_eq!(text.parse::<VariantConfig>(), Err(VariantError::Needs { addition, needs }), "{text}");
        }
        let err = "alphabeta+lmr".parse::<VariantConfig>().unwrap_err();
        assert_eq!(err, VariantError::AdditionForm("alphabeta"));
        assert!(err.to_string().contains("written for the negamax node"));
        // The table joins every form, the two-sided ones included.
        for text in ["alphabeta+tt", "alphabeta-hard+tt", "minimax+tt", "alphabeta+order+tt"] {
            assert!(text.parse::<VariantConfig>().is_ok(), "{text}");
        }
        // The engine does without any of its parts.
        for part in ["no-order", "no-qs", "no-nmp"] {
            assert!(format!("engine+{part}").parse::<VariantConfig>().is_ok(), "{part}");
        }
    }

    #[test]
    fn techniques_are_listed_and_switched_one_at_a_time() {
        let engine: VariantConfig = "engine".parse().unwrap();
        let all: Vec<&str> = TECHNIQUES.iter().filter(|t| t.in_engine).map(|t| t.name).collect();
        assert_eq!(engine.techniques(), all);
        for name in engine.techniques() {
            let without = engine.with_technique(name, false).unwrap();
            assert_eq!(without, format!("engine+no-{name}").parse().unwrap(), "{name}");
            assert!(!without.techniques().contains(&name) && without.techniques().len() == all.len() - 1);
            assert_eq!(without.with_technique(name, true), Ok(engine), "{name}");
        }
        let plain: VariantConfig = "negamax-ab+order".parse().unwrap();
        assert_eq!(plain.techniques(), ["order"]);
        assert_eq!(plain.with_technique("order", false).unwrap().to_string(), "negamax-ab");
        assert_eq!(plain.with_technique("null", true).unwrap().to_string(), "negamax-ab+nmp+order");
        let lmr: VariantConfig = "negamax-ab+order+lmr".parse().unwrap();
        assert_eq!(lmr.with_technique("order", false), Err(VariantError::Needs { addition: "lmr", needs: "order" }));
        assert!(matches!(plain.with_technique("nope", true), Err(VariantError::Unknown { .. })));
        let minimax: VariantConfig = "minimax".parse().unwrap();
        assert!(matches!(minimax.with_technique("pvs", true), Err(VariantError::NeedsWindow { .. })));
    }

    #[test]
    fn parts_list_every_switch() {
        let parts = parts();
        let listed: Vec<&str> = parts.iter().flat_map(|(names, _)| names.split(" | ")).collect();
        for t in TECHNIQUES {
            assert!(listed.contains(&t.name), "{} is not in parts()", t.name);
            if t.in_engine {
                assert!(listed.contains(&format!("no-{}", t.name).as_str()), "no-{} is not in parts()", t.name);
            }
        }
        // And every part listed is one the parser takes, alone or with the engine.
        for part in listed {
            let alone = part.parse::<VariantConfig>();
            assert!(alone.is_ok() || format!("engine+{part}").parse::<VariantConfig>().is_ok(), "{part}: {alone:?}");
        }
        // The list names the same names.
        let available = available();
        assert!(TECHNIQUES.iter().all(|t| available.contains(t.name)));
    }

    #[test]
    fn errors_name_what_is_wrong_and_stay_short() {
        // A UCI error line has to stay short (the fuzz test's bound is 600 bytes), so no message lists the registry.
        for bad in
            ["minimax+alphabeta", "negamax+nmp", "minimax+pvs", "alphabeta+engine", "no-bogus", "negamax-ab+no-tt"]
        {
            let e = bad.parse::<VariantConfig>().unwrap_err().to_string();
            assert!(e.len() < 300 && !e.contains("available presets"), "{bad}: {e}");
        }
    }

    #[test]
    fn contradictions_are_errors() {
        assert!(matches!("minimax+alphabeta".parse::<VariantConfig>(), Err(VariantError::TwoForms(..))));
        assert!(matches!("negamax+nmp".parse::<VariantConfig>(), Err(VariantError::NeedsWindow { .. })));
        assert!(matches!("alphabeta+engine".parse::<VariantConfig>(), Err(VariantError::EngineForm(_))));
        assert!(matches!("no-bogus".parse::<VariantConfig>(), Err(VariantError::Unknown { .. })));
        // An unknown part is answered in one short line: the closest part, and where the list is.
        let err = "engine+lrm".parse::<VariantConfig>().unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown variant part \"lrm\" (did you mean \"lmr\"?); `xiangqi search --list` lists the presets and parts"
        );
        let err = "engine+no-singulr".parse::<VariantConfig>().unwrap_err().to_string();
        assert!(err.contains("did you mean \"no-singular\"?"), "{err}");
        let err = "qwertyuiop".parse::<VariantConfig>().unwrap_err().to_string();
        assert!(!err.contains("did you mean") && err.contains("xiangqi search --list") && err.len() < 120, "{err}");
        // Never rewritten quietly into negamax-ab.
        for v in ["alphabeta+pvs", "alphabeta+nmp", "ab+pvs+qs"] {
            assert!(matches!(v.parse::<VariantConfig>(), Err(VariantError::TwoSided { .. })), "{v}");
        }
    }
}
