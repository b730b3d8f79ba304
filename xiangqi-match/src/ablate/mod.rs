//! What each technique of a variant is worth, in nodes and in Elo: the ablation study `xiangqi ablate` runs.
//!
//! For a base variant every technique it has is taken away alone (`engine+no-lmr`, ...); in a build-up every
//! technique it lacks is added alone to it (an addition that needs another technique, `qsprune` needing `qs`, is
//! measured on top of that one). Each [`Pairing`] compares the side *with* the technique against the side *without*
//! it: in nodes on the bench positions ([`nodes::node_part`], as `xiangqi bench --variant V` counts them), and in
//! Elo from games between the two ([`games::play`], in batches of colour-reversed pairs from the openings followed
//! by quiet moves chosen by the pair). The games' results are tallied by pairing ([`results::Tally`]), appended to
//! a results file batch by batch and read again to resume ([`results::resume`]), and reported as a table or JSON
//! ([`report`]).
//!
//! ```
//! use xiangqi_match::ablate::{pairings, short};
//!
//! let base = "engine".parse().unwrap();
//! let p = pairings(&base, false, &["lmr".to_owned()]).unwrap();
//! assert_eq!((p.len(), p[0].technique.as_str(), short(&p[0].without).as_str()), (1, "lmr", "engine+no-lmr"));
//! assert!(pairings(&base, false, &["no-such".to_owned()]).is_err());
//! ```

pub mod games;
pub mod nodes;
pub mod report;
pub mod results;

use crate::clock::TimeControl;
use crate::elo::Sprt;
use crate::engine::{EngineConfig, Protocol};
use crate::openings::Opening;
use xiangqi_search::VariantConfig;

/// One technique's comparison: the variant with it against the variant without it.
#[derive(Debug, Clone)]
pub struct Pairing {
    /// The technique's name (`needs+name` for an addition measured on top of the technique it needs).
    pub technique: String,
    /// The variant with it.
    pub with: VariantConfig,
    /// The variant without it.
    pub without: VariantConfig,
}

/// An ablation's settings, checked.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The variant whose techniques are measured.
    pub base: VariantConfig,
    /// Whether each technique the base lacks is added to it (a build-up), rather than each it has taken away.
    pub build_up: bool,
    /// The comparisons, one per technique.
    pub pairings: Vec<Pairing>,
    /// The games' time control (`None`: no games).
    pub tc: Option<TimeControl>,
    /// The SPRT that stops a pairing when it decides.
    pub sprt: Option<Sprt>,
    /// The opening set.
    pub openings: Vec<Opening>,
    /// Quiet moves played after each opening, chosen by the game pair.
    pub random_plies: usize,
    /// Games per pairing.
    pub games: usize,
    /// Games at the same time.
    pub concurrency: usize,
    /// Depth of the node part (0: none).
    pub depth: u32,
    /// Transposition table of the node part and of the engines, in MB.
    pub hash: usize,
}

impl Plan {
    /// The SPRT's log-likelihood ratio of a pairing's games and its decision, when the plan has an SPRT.
    pub fn sprt_of(&self, tally: &results::Tally) -> Option<(f64, crate::elo::SprtState)> {
        self.sprt.map(|s| {
            let llr = tally.pentanomial().llr(s.elo0, s.elo1);
            (llr, s.state(llr))
        })
    }
}

/// The pairings of an ablation (each technique of `base` taken away) or a build-up (each technique it lacks added),
/// only those named in `only` when it names any.
///
/// # Errors
/// When a name of `only` is no technique of the run, or there is nothing to measure.
pub fn pairings(base: &VariantConfig, build_up: bool, only: &[String]) -> Result<Vec<Pairing>, String> {
    // Every technique of the registry, the engine's and those it leaves out (added with `--build-up`).
    let all: Vec<&str> = xiangqi_search::techniques::TECHNIQUES.iter().map(|t| t.name).collect();
    let mut out = Vec::new();
    if build_up {
        let have = base.techniques();
        for name in all.iter().filter(|n| !have.contains(n)) {
            let pairing = match base.with_technique(name, true) {
                Ok(with) => Pairing { technique: (*name).to_owned(), with, without: *base },
                // An addition that needs another technique is measured on top of that one.
                Err(xiangqi_search::VariantError::Needs { needs, .. }) => {
                    let without = base.with_technique(needs, true).map_err(|e| e.to_string())?;
                    let with = without.with_technique(name, true).map_err(|e| e.to_string())?;
                    Pairing { technique: format!("{needs}+{name}"), with, without }
                }
                // Nothing to add on this form (the engine's additions on a two-sided form): not a pairing.
                Err(_) => continue,
            };
            out.push(pairing);
        }
    } else {
        for name in base.techniques() {
            let without =
                base.with_technique(name, false).map_err(|e| format!("--base {base}: without {name}: {e}"))?;
            out.push(Pairing { technique: name.to_owned(), with: *base, without });
        }
    }
    if !only.is_empty() {
        for name in only {
            let known = out.iter().any(|p| p.technique == *name || p.technique.ends_with(&format!("+{name}")));
            if !known {
                let names: Vec<&str> = out.iter().map(|p| p.technique.as_str()).collect();
                return Err(format!("--only {name}: not a technique of this run ({})", names.join(", ")));
            }
        }
        out.retain(|p| only.iter().any(|n| p.technique == *n || p.technique.ends_with(&format!("+{n}"))));
    }
    if out.is_empty() {
        return Err(format!("--base {base}: no technique to {}", if build_up { "add" } else { "take away" }));
    }
    Ok(out)
}

/// A variant's name for the table: `engine+no-lmr` rather than the canonical `negamax-ab+pvs+nmp+qs+order+engine+no-lmr`.
pub fn short(variant: &VariantConfig) -> String {
    if !variant.is_engine() {
        return variant.to_string();
    }
    let have = variant.techniques();
    let engine: VariantConfig = "engine".parse().expect("engine parses");
    let mut name = "engine".to_owned();
    for t in engine.techniques().into_iter().filter(|t| !have.contains(t)) {
        name.push_str("+no-");
        name.push_str(t);
    }
    name
}

/// The engine for a variant: the program `program` (this engine's binary) speaking UCI with the variant and table
/// size set.
pub fn engine(program: &str, variant: &VariantConfig, hash: usize) -> EngineConfig {
    EngineConfig {
        name: variant.to_string(),
        program: program.to_owned(),
        args: Vec::new(),
        dir: None,
        protocol: Protocol::Uci,
        options: vec![("Hash".to_owned(), hash.to_string()), ("Variant".to_owned(), variant.to_string())],
    }
}
