//! Tunable search parameters: each number of a technique that a tuner may change is a [`Param`] declared in the
//! technique's own file (its name, default, range and SPSA step) and listed in its registry entry, [`PARAMS`]
//! gathers them from the entries, and [`Params`] holds one value for each: the searcher keeps a copy and a
//! technique reads its number with one indexed load (`s.params().get(Razoring::MARGIN)`), no lock, no atomic, no
//! dynamic dispatch. Tables built from the numbers (the late move reductions' [`crate::LmrTable`]) are rebuilt when
//! the searcher is given its parameters.
//!
//! [`Params::default`] holds the compiled defaults, so a search without a parameter file visits exactly the nodes
//! it visited before the numbers were tunable. A parameter file ([`Params::parse`], [`Params::load`]) has one
//! `name = value` line per parameter it changes (`#` starts a comment); [`Params::to_file`] writes one. The UCI
//! engine lists each parameter as a spin option ([`Param::option`]), as Stockfish's `TUNE` macro does.
//!
//! The SPSA step `c_end` and the global [`R_END`] follow fishtest's SPSA: `c_end` is the perturbation at the last
//! iteration, `r_end` the learning rate there (`a_end / c_end^2`).
//!
//! ```
//! use xiangqi_search::params::{Params, PARAMS};
//! use xiangqi_search::techniques::razoring::Razoring;
//! let mut p = Params::default();
//! assert_eq!(p.get(Razoring::MARGIN), 350);
//! p.set("RazorMargin", 300).unwrap();
//! assert_eq!(p.get(Razoring::MARGIN), 300);
//! assert!(p.set("RazorMargin", 100_000).unwrap_err().to_string().contains("RazorMargin"));
//! let text = p.to_file();
//! assert_eq!(Params::parse(&text).unwrap(), p);
//! assert!(PARAMS.iter().any(|q| q.name == "LmrDivisor"));
//! ```

use crate::registry::TechniqueId;
pub use crate::registry::{Param, Params, PARAMS_PER_TECHNIQUE, PARAM_SLOTS};
use crate::techniques::TECHNIQUES;

/// fishtest's `r_end` for every parameter: the learning rate at the last iteration, `a_end / c_end^2`.
pub const R_END: f64 = 0.002;

/// How many parameters the techniques declare.
const COUNT: usize = {
    let (mut n, mut i) = (0, 0);
    while i < TECHNIQUES.len() {
        n += TECHNIQUES[i].params.len();
        i += 1;
    }
    n
};

/// Every tunable parameter, technique by technique in the order of [`TECHNIQUES`]: each entry's
/// [`crate::registry::Technique::params`], gathered (no second list).
pub const PARAMS: &[&Param] = &{
    const NONE: Param = Param::new(TechniqueId::new(0), 0, "", 0, 0..=0, 1.0, "");
    let mut out = [&NONE; COUNT];
    let (mut n, mut i) = (0, 0);
    while i < TECHNIQUES.len() {
        let mut k = 0;
        while k < TECHNIQUES[i].params.len() {
            out[n] = &TECHNIQUES[i].params[k];
            n += 1;
            k += 1;
        }
        i += 1;
    }
    out
};

/// The parameter named `name` (without regard to case).
pub fn find(name: &str) -> Option<&'static Param> {
    PARAMS.iter().copied().find(|p| p.name.eq_ignore_ascii_case(name.trim()))
}

/// Why a parameter could not be set or a parameter file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No parameter has this name.
    #[error("unknown parameter {0:?}")]
    Unknown(String),
    /// The value lies outside the parameter's range.
    #[error("parameter {name}: {value} is out of range {min}..={max}")]
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: i64,
        /// The smallest value allowed.
        min: i32,
        /// The largest value allowed.
        max: i32,
    },
    /// The value is not a whole number.
    #[error("parameter {name}: {text:?} is not a whole number")]
    BadNumber {
        /// The parameter.
        name: String,
        /// The text given.
        text: String,
    },
    /// A line of a parameter file is not `name = value`.
    #[error("line {line}: expected `name = value`, found {text:?}")]
    Syntax {
        /// The line, from 1.
        line: usize,
        /// Its text.
        text: String,
    },
    /// A line of a parameter file has an error.
    #[error("line {line}: {error}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        error: Box<ParamError>,
    },
    /// The file could not be read.
    #[error("cannot read parameter file {path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        error: String,
    },
}

/// Every parameter at its compiled value.
pub const DEFAULTS: Params = {
    let mut v = [0; PARAM_SLOTS];
    let mut i = 0;
    while i < PARAMS.len() {
        v[PARAMS[i].slot()] = PARAMS[i].default;
        i += 1;
    }
    Params(v)
};

impl Default for Params {
    fn default() -> Params {
        DEFAULTS
    }
}

impl std::fmt::Debug for Params {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(PARAMS.iter().map(|p| (p.name, self.get(**p)))).finish()
    }
}

impl Params {
    /// Sets the parameter named `name` (any case) to `value`, checked against its range; on an error nothing
    /// changes.
    ///
    /// # Errors
    /// An unknown name or a value out of range.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let p = find(name).ok_or_else(|| ParamError::Unknown(name.trim().to_owned()))?;
        if value < i64::from(p.min) || value > i64::from(p.max) {
            return Err(ParamError::OutOfRange { name: p.name, value, min: p.min, max: p.max });
        }
        self.0[p.slot()] = value as i32;
        Ok(())
    }

    /// Sets the parameter named `name` from text (a whole number), as [`Params::set`].
    ///
    /// # Errors
    /// An unknown name, a bad number or a value out of range.
    pub fn set_text(&mut self, name: &str, text: &str) -> Result<(), ParamError> {
        let value: i64 = text
            .trim()
            .parse()
            .map_err(|_| ParamError::BadNumber { name: name.trim().to_owned(), text: text.trim().to_owned() })?;
        self.set(name, value)
    }

    /// Every parameter with its value, in the order of [`PARAMS`].
    pub fn values(&self) -> impl Iterator<Item = (&'static Param, i32)> + '_ {
        PARAMS.iter().map(move |p| (*p, self.get(**p)))
    }

    /// The defaults changed by a parameter file's text: `name = value` lines, blank lines and `#` comments; a
    /// name may appear once. The whole file is refused at its first error (which names the line).
    ///
    /// # Errors
    /// A line that is not `name = value`, an unknown or repeated name, a bad number, a value out of range.
    pub fn parse(text: &str) -> Result<Params, ParamError> {
        Params::default().with_file_text(text)
    }

    /// These values changed by a parameter file's text (see [`Params::parse`]); `self` is untouched.
    ///
    /// # Errors
    /// As [`Params::parse`].
    pub fn with_file_text(&self, text: &str) -> Result<Params, ParamError> {
        let mut out = *self;
        let mut seen = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let wrap = |error| ParamError::Line { line: i + 1, error: Box::new(error) };
            let Some((name, value)) = line.split_once('=') else {
                return Err(ParamError::Syntax { line: i + 1, text: raw.trim().to_owned() });
            };
            let p = find(name).ok_or_else(|| wrap(ParamError::Unknown(name.trim().to_owned())))?;
            if seen.contains(&p.slot()) {
                let error = ParamError::Syntax { line: i + 1, text: format!("{} given twice", p.name) };
                return Err(error);
            }
            seen.push(p.slot());
            out.set_text(name, value).map_err(wrap)?;
        }
        Ok(out)
    }

    /// These values changed by the parameter file at `path` (see [`Params::parse`]); `self` is untouched.
    ///
    /// # Errors
    /// When the file cannot be read, or as [`Params::parse`] (the message names the file).
    pub fn load(&self, path: &std::path::Path) -> Result<Params, ParamError> {
        let io = |e: std::io::Error| ParamError::Io { path: path.display().to_string(), error: e.to_string() };
        let text = std::fs::read_to_string(path).map_err(io)?;
        self.with_file_text(&text)
            .map_err(|e| ParamError::Io { path: path.display().to_string(), error: e.to_string() })
    }

    /// A parameter file of every parameter: `name = value` lines in the order of [`PARAMS`].
    pub fn to_file(&self) -> String {
        self.values().map(|(p, v)| format!("{} = {v}\n", p.name)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::techniques::{
        late_move_reductions::LateMoveReductions, razoring::Razoring, reverse_futility::ReverseFutility,
    };

    #[test]
    fn declarations_are_unique_and_in_range() {
        let mut slots: Vec<usize> = PARAMS.iter().map(|p| p.slot()).collect();
        let mut names: Vec<String> = PARAMS.iter().map(|p| p.name.to_ascii_lowercase()).collect();
        slots.sort_unstable();
        slots.dedup();
        names.sort_unstable();
        names.dedup();
        assert_eq!((slots.len(), names.len()), (PARAMS.len(), PARAMS.len()));
        for p in PARAMS {
            assert!(p.min <= p.default && p.default <= p.max && p.c_end > 0.0, "{}", p.name);
            assert_eq!(DEFAULTS.get(**p), p.default, "{}", p.name);
            assert!(crate::options::ENGINE_OPTIONS.iter().all(|o| !o.decl.name.eq_ignore_ascii_case(p.name)));
        }
    }

    #[test]
    fn a_file_round_trips_and_bad_files_name_the_problem() {
        let mut p = Params::default();
        p.set("lmrdivisor", 250).unwrap();
        p.set("FutilityMargin2", 333).unwrap();
        let back = Params::parse(&p.to_file()).unwrap();
        assert_eq!(back, p);
        assert_eq!(back.get(LateMoveReductions::DIVISOR), 250);
        let partial = Params::parse("# tuned\n\nRazorMargin = 300  # less\n").unwrap();
        assert_eq!(partial.get(Razoring::MARGIN), 300);
        assert_eq!(partial.get(ReverseFutility::MARGIN), ReverseFutility::MARGIN.default);
        let err = |text: &str| Params::parse(text).unwrap_err().to_string();
        assert_eq!(err("RazorMargin = 300\nNoSuch = 1"), "line 2: unknown parameter \"NoSuch\"");
        assert_eq!(err("RazorMargin = 5000"), "line 1: parameter RazorMargin: 5000 is out of range 0..=1000");
        assert_eq!(err("RazorMargin = 3.5"), "line 1: parameter RazorMargin: \"3.5\" is not a whole number");
        assert!(err("RazorMargin 300").starts_with("line 1: expected `name = value`"));
        assert!(err("RazorMargin = 1\nrazormargin = 2").contains("given twice"));
        // A refused value leaves the values as they were.
        let mut q = Params::default();
        assert!(q.set("RazorMargin", -1).is_err());
        assert_eq!(q, Params::default());
        let missing = q.load(std::path::Path::new("/nonexistent/params.txt")).unwrap_err().to_string();
        assert!(missing.contains("/nonexistent/params.txt"), "{missing}");
    }

    /// Every parameter is read by the search: moving it to one end of its range or the other changes the nodes of
    /// a fixed-depth search with every technique on (but `qsee`, which replaces `qsprune`'s test), in one of four
    /// positions (the start position, a middlegame, and two tactics of ElephantEye's test set whose scores jump
    /// between iterations, so that aspiration windows fail).
    #[test]
    fn every_parameter_changes_the_search() {
        use crate::test_eval::Textured;
        use crate::{Limits, VariantConfig};
        use xiangqi_core::Position;
        let variant: VariantConfig = "engine+no-qsee+qsprune+caphist+hlmr+conthist+hprune+corrhist+see+probcut+mdp"
            .parse()
            .expect("a known variant");
        let positions = [
            Position::startpos(),
            Position::from_fen("r1bakab2/9/1cn3nc1/p3p1p1p/2p6/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R w").expect("a FEN"),
            Position::from_fen("3k2r2/2P1a4/9/9/4N4/7r1/9/4B3C/9/4RK3 w").expect("a FEN"),
            Position::from_fen("r1b1ka3/3Pa4/b8/9/9/9/9/1C4p2/9/c3K4 w").expect("a FEN"),
        ];
        let nodes = |params: &Params| -> Vec<u64> {
            positions
                .iter()
                .map(|pos| {
                    let setup = crate::RunSetup { params: *params, ..Default::default() };
                    variant
                        .run_with(
                            pos.clone(),
                            Textured,
                            &Limits { iterative: true, ..Limits::depth(11) },
                            &setup,
                            |_| {},
                        )
                        .stats
                        .nodes()
                })
                .collect()
        };
        let base = nodes(&Params::default());
        let mut unread = Vec::new();
        for p in PARAMS {
            let moved = |value: i32| {
                let mut q = Params::default();
                q.set(p.name, i64::from(value)).expect("in range");
                nodes(&q)
            };
            if moved(p.min) == base && moved(p.max) == base {
                unread.push(p.name);
            }
        }
        assert!(unread.is_empty(), "parameters that change nothing: {unread:?}");
    }
}
