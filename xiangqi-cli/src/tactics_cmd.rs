//! `xiangqi tactics`: the engine over a tactical test set ([`xiangqi_match::tactics`]), position by position, and the
//! share solved.

use crate::args::{option_default, option_range};
use crate::{CmdResult, UsageError};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;
use xiangqi_match::tactics::{parse, solve};
use xiangqi_search::options::HASH;
use xiangqi_search::{Limits, SearchEngine, VariantConfig};
use xiangqi_uci::uci_score;

/// Arguments of `xiangqi tactics`.
#[derive(clap::Args)]
pub struct TacticsArgs {
    /// The test set: one `FEN bm MOVE...; id "..."; source "..."; [dm N;]` a line (see the tactics module's doc).
    pub file: PathBuf,
    /// Milliseconds a position (the default is 1000 when no limit is given).
    #[arg(long, value_parser = crate::args::at_least::<u64>(1), allow_hyphen_values = true, group = "limit")]
    pub movetime: Option<u64>,
    /// Nodes a position, deepening iteratively (reproducible, unlike a time).
    #[arg(long, value_parser = crate::args::at_least::<u64>(1), allow_hyphen_values = true, group = "limit")]
    pub nodes: Option<u64>,
    /// The variant: a preset or parts joined with '+' (see `xiangqi search --list`); by default the playing
    /// engine's.
    #[arg(long, default_value = xiangqi_search::ENGINE_VARIANT)]
    pub variant: String,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = option_default(HASH), value_parser = option_range::<u64>(HASH), allow_hyphen_values = true)]
    pub hash: u64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// The evaluator.
    #[command(flatten)]
    pub eval: crate::evalopt::EvalOpts,
}

/// Runs the `tactics` command.
pub fn run(args: &TacticsArgs) -> CmdResult {
    let variant: VariantConfig = args.variant.parse().map_err(|e| UsageError::value("variant", &args.variant, e))?;
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let set = parse(&text).map_err(|e| format!("{}: {e}", args.file.display()))?;
    if set.is_empty() {
        return Err(format!("{}: no position", args.file.display()).into());
    }
    let limits = match args.nodes {
        Some(n) => Limits::nodes(n),
        None => Limits::movetime(Duration::from_millis(args.movetime.unwrap_or(1000))),
    };
    let limit_text = match args.nodes {
        Some(n) => format!("{n} nodes"),
        None => format!("{} ms", args.movetime.unwrap_or(1000)),
    };
    let mut engine = SearchEngine::new(args.eval.choice()?)?;
    engine.set_hash(args.hash as usize)?;
    engine.table().prefault();
    let mut out = std::io::stdout().lock();
    let mut rows = Vec::with_capacity(set.len());
    let mut solved = 0;
    let mut seconds = 0.0;
    for (k, t) in set.iter().enumerate() {
        let o = solve(&mut engine, &variant, t, &limits);
        solved += usize::from(o.solved);
        seconds += o.seconds;
        let chosen = o.chosen.map_or("(none)".to_owned(), |m| m.to_string());
        let best: Vec<String> = t.best.iter().map(ToString::to_string).collect();
        if args.json {
            rows.push(json!({
                "id": t.id, "source": t.source, "fen": t.position.fen(), "best": best, "mate": t.mate,
                "chosen": o.chosen.map(|m| m.to_string()), "solved": o.solved, "score": o.score,
                "score_text": uci_score(o.score), "depth": o.depth, "nodes": o.nodes, "seconds": o.seconds,
            }));
        } else {
            let mark = if o.solved { "ok  " } else { "MISS" };
            let mate = t.mate.map_or(String::new(), |n| format!(" (mate in {n})"));
            writeln!(
                out,
                "{:>3} {mark} {:<24} chose {chosen:<5} best {}{mate}  {} depth {} {} nodes",
                k + 1,
                t.id,
                best.join(" "),
                uci_score(o.score),
                o.depth,
                o.nodes
            )?;
        }
    }
    let share = solved as f64 / set.len() as f64;
    if args.json {
        let obj = json!({
            "file": args.file.display().to_string(), "variant": variant.to_string(), "limit": limit_text,
            "positions": set.len(), "solved": solved, "share": share, "seconds": seconds, "results": rows,
        });
        writeln!(out, "{obj}")?;
    } else {
        writeln!(
            out,
            "solved {solved} of {} ({:.1}%) with {variant} at {limit_text} a position, {seconds:.1} s",
            set.len(),
            100.0 * share
        )?;
    }
    Ok(())
}
