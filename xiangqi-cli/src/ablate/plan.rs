//! The plan of an ablation: the flags checked, and the pairings (each technique's variant with it against the
//! variant without it).

use super::AblateArgs;
use std::time::Duration;
use xiangqi_match::elo::Sprt;
use xiangqi_match::openings::Opening;
use xiangqi_match::{EngineConfig, Protocol, TimeControl};
use xiangqi_search::VariantConfig;

/// One technique's comparison: the variant with it against the variant without it.
#[derive(Debug, Clone)]
pub(super) struct Pairing {
    pub(super) technique: String,
    pub(super) with: VariantConfig,
    pub(super) without: VariantConfig,
}

/// Checked settings.
pub(super) struct Plan {
    pub(super) base: VariantConfig,
    pub(super) pairings: Vec<Pairing>,
    pub(super) tc: Option<TimeControl>,
    pub(super) sprt: Option<Sprt>,
    pub(super) openings: Vec<Opening>,
    pub(super) random_plies: usize,
}

/// The pairings of an ablation (each technique of `base` taken away) or a build-up (each technique it lacks added).
pub(super) fn pairings(base: &VariantConfig, build_up: bool, only: &[String]) -> Result<Vec<Pairing>, String> {
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

/// Checks the flags.
pub(super) fn plan(args: &AblateArgs, openings: Vec<Opening>) -> Result<Plan, String> {
    let base_text =
        args.base.clone().unwrap_or_else(|| if args.build_up { "negamax-ab+order" } else { "engine" }.into());
    let base: VariantConfig = base_text.parse().map_err(|e: xiangqi_search::VariantError| format!("--base: {e}"))?;
    let pairings = pairings(&base, args.build_up, &args.only)?;
    if args.depth > 40 {
        return Err("--depth must be from 0 to 40".to_owned());
    }
    let limits = [args.nodes.is_some(), args.movetime.is_some(), args.tc.is_some()];
    if limits.iter().filter(|&&x| x).count() > 1 {
        return Err("give one of --nodes, --movetime and --tc, not more".to_owned());
    }
    let tc = match (args.nodes, args.movetime, &args.tc) {
        (Some(0), ..) => return Err("--nodes must be positive".to_owned()),
        (_, Some(ms), _) if ms == 0 || ms > 604_800_000 => {
            return Err("--movetime must be from 1 to 604800000 ms (one week)".to_owned())
        }
        (Some(n), ..) => Some(TimeControl::Nodes(n)),
        (_, Some(ms), _) => Some(TimeControl::MoveTime(Duration::from_millis(ms))),
        (.., Some(clock)) => Some(crate::matches::parse_clock(clock)?),
        (None, None, None) => None,
    };
    if args.games > 0 && tc.is_none() {
        return Err("--games needs --nodes N, --movetime MS (the time of a move) or --tc CLOCK".to_owned());
    }
    if args.games % 2 != 0 {
        return Err(format!("--games {}: must be even (each opening with both colours)", args.games));
    }
    if args.batch == 0 || args.batch % 2 != 0 {
        return Err(format!("--batch {}: must be even and positive (whole pairs of games)", args.batch));
    }
    if args.concurrency == 0 || args.concurrency > 256 {
        return Err("--concurrency must be from 1 to 256".to_owned());
    }
    if args.max_batches == Some(0) {
        return Err("--max-batches must be positive".to_owned());
    }
    if args.games == 0 && args.depth == 0 {
        return Err("nothing to measure: --depth 0 and no --games".to_owned());
    }
    let sprt = args.sprt.as_deref().map(crate::args::parse_sprt).transpose()?;
    if sprt.is_some() && args.games == 0 {
        return Err("--sprt needs --games (the most games a pairing may play)".to_owned());
    }
    if args.random_plies > 20 {
        return Err("--random-plies must be from 0 to 20".to_owned());
    }
    if args.random_plies == 0 && args.games > 2 * openings.len() {
        eprintln!(
            "warning: {} games a pairing from {} openings without --random-plies: engines at a fixed node count play \
             the same game again for each opening and colour",
            args.games,
            openings.len()
        );
    }
    Ok(Plan { base, pairings, tc, sprt, openings, random_plies: args.random_plies })
}

/// A variant's name for the table: `engine+no-lmr` rather than the canonical `negamax-ab+pvs+nmp+qs+order+engine+no-lmr`.
pub(super) fn short(variant: &VariantConfig) -> String {
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

/// The engine for a variant: this binary speaking UCI with the variant and table size set.
pub(super) fn engine(program: &str, variant: &VariantConfig, hash: usize) -> EngineConfig {
    EngineConfig {
        name: variant.to_string(),
        program: program.to_owned(),
        args: Vec::new(),
        dir: None,
        protocol: Protocol::Uci,
        options: vec![("Hash".to_owned(), hash.to_string()), ("Variant".to_owned(), variant.to_string())],
    }
}
