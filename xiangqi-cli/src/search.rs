//! `xiangqi search` and `xiangqi compare`: one variant with all its statistics, or several side by side.

use crate::{parse_fen, CmdResult};
use serde_json::json;
use std::io::Write;
use std::time::Duration;
use xiangqi_cli::engine::EngineEval;
use xiangqi_core::{Move, Position, START_FEN};
use xiangqi_search::{Limits, Score, SearchResult, VariantSpec, MATE, MATE_BOUND, PRESETS};

/// Arguments of `xiangqi search`.
#[derive(clap::Args)]
pub struct SearchArgs {
    /// Position (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Search this many plies (one fixed-depth pass). The default when no limit is given is 4.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64), group = "limit")]
    pub depth: Option<u32>,
    /// Deepen iteratively until about this many nodes are searched.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), group = "limit")]
    pub nodes: Option<u64>,
    /// Deepen iteratively for this many milliseconds.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), group = "limit")]
    pub movetime: Option<u64>,
    /// The variant: a preset or parts joined with '+' (see `xiangqi search --list`).
    #[arg(long, default_value = "pvs+nmp+qs+order")]
    pub variant: String,
    /// List the presets and parts, then exit.
    #[arg(long)]
    pub list: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `xiangqi compare`.
#[derive(clap::Args)]
pub struct CompareArgs {
    /// Position (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Depth in plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub depth: u32,
    /// Variants to compare, separated by commas (default: every preset).
    #[arg(long, value_delimiter = ',')]
    pub variants: Vec<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `cp N` or `mate N` (moves, negative when the side to move is mated), as UCI prints scores.
pub fn score_text(score: Score) -> String {
    if score.abs() >= MATE_BOUND {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

fn parse_variant(text: &str) -> Result<VariantSpec, Box<dyn std::error::Error>> {
    text.parse::<VariantSpec>().map_err(|e| e.to_string().into())
}

fn list_variants() -> String {
    let mut s = String::from("presets:\n");
    for (name, what) in PRESETS {
        s.push_str(&format!("  {name:<18} {what}\n"));
    }
    s.push_str("parts (join with '+'):\n");
    for (name, what) in xiangqi_search::PARTS {
        s.push_str(&format!("  {name:<60} {what}\n"));
    }
    s
}

fn stats_json(r: &SearchResult<Move>) -> serde_json::Value {
    let s = &r.stats;
    json!({
        "depth": r.depth,
        "seldepth": s.seldepth,
        "nodes": s.nodes,
        "leaf_nodes": s.leaf_nodes,
        "qnodes": s.qnodes,
        "total_nodes": s.total_nodes(),
        "beta_cutoffs": s.beta_cutoffs,
        "first_move_cutoffs": s.first_move_cutoffs,
        "first_move_cutoff_rate": s.first_move_cutoff_rate(),
        "null_tries": s.null_tries,
        "null_cutoffs": s.null_cutoffs,
        "pvs_researches": s.pvs_researches,
        "ebf": s.ebf(r.depth),
        "seconds": s.elapsed.as_secs_f64(),
        "nps": s.nps(),
    })
}

/// Runs `spec` on `pos` with the default evaluator.
pub fn run_search(spec: &VariantSpec, pos: &Position, limits: &Limits) -> SearchResult<Move> {
    spec.run(pos.clone(), EngineEval::new(pos), limits)
}

/// Runs the `search` command.
pub fn run(args: &SearchArgs) -> CmdResult {
    if args.list {
        print!("{}", list_variants());
        return Ok(());
    }
    let pos = parse_fen(&args.fen)?;
    let spec = parse_variant(&args.variant)?;
    let limits = Limits {
        depth: if args.nodes.is_none() && args.movetime.is_none() { Some(args.depth.unwrap_or(4)) } else { None },
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        // The engine deepens iteratively even to a fixed depth: each iteration fills the table for the next.
        iterative: spec.engine,
        ..Limits::default()
    };
    let r = run_search(&spec, &pos, &limits);
    let pv: Vec<String> = r.pv.iter().map(Move::to_string).collect();
    let best = r.best_move.map_or("(none)".to_owned(), |m| m.to_string());
    let mut out = std::io::stdout().lock();
    if args.json {
        let obj = json!({
            "fen": pos.fen(), "variant": spec.to_string(), "best_move": r.best_move.map(|m| m.to_string()),
            "score": r.score, "score_text": score_text(r.score), "pv": pv, "nodes": r.stats.total_nodes(),
            "stats": stats_json(&r),
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    let s = &r.stats;
    writeln!(out, "variant            {spec}")?;
    writeln!(out, "best move          {best}")?;
    writeln!(out, "score              {}", score_text(r.score))?;
    writeln!(out, "pv                 {}", pv.join(" "))?;
    writeln!(out, "depth              {} (seldepth {})", r.depth, s.seldepth)?;
    writeln!(out, "nodes              {} (leaves {}, quiescence {})", s.nodes, s.leaf_nodes, s.qnodes)?;
    writeln!(
        out,
        "beta cutoffs       {} ({:.1}% on the first move)",
        s.beta_cutoffs,
        100.0 * s.first_move_cutoff_rate()
    )?;
    writeln!(out, "null move          {} tries, {} cutoffs", s.null_tries, s.null_cutoffs)?;
    writeln!(out, "pvs re-searches    {}", s.pvs_researches)?;
    writeln!(out, "branching factor   {:.2}", s.ebf(r.depth))?;
    writeln!(out, "time               {:.3} s", s.elapsed.as_secs_f64())?;
    writeln!(out, "nps                {}", s.nps())?;
    Ok(())
}

/// Runs the `compare` command.
pub fn compare(args: &CompareArgs) -> CmdResult {
    let pos = parse_fen(&args.fen)?;
    let names: Vec<String> = if args.variants.is_empty() {
        PRESETS.iter().map(|(n, _)| n.to_string()).collect()
    } else {
        args.variants.iter().map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()).collect()
    };
    // Check every name before searching anything.
    let specs: Vec<(String, VariantSpec)> =
        names.iter().map(|n| parse_variant(n).map(|s| (n.clone(), s))).collect::<Result<_, _>>()?;
    let limits = Limits::depth(args.depth);
    let results: Vec<(String, VariantSpec, SearchResult<Move>)> =
        specs.into_iter().map(|(n, s)| (n, s, run_search(&s, &pos, &limits))).collect();
    let minimax_nodes = results.iter().find(|(n, _, _)| n == "minimax").map(|(_, _, r)| r.stats.nodes);
    let ratio = |r: &SearchResult<Move>| minimax_nodes.map(|m| r.stats.nodes as f64 / m.max(1) as f64);
    let mut out = std::io::stdout().lock();
    if args.json {
        let rows: Vec<serde_json::Value> = results
            .iter()
            .map(|(n, s, r)| {
                json!({
                    "variant": n, "canonical": s.to_string(), "score": r.score,
                    "best_move": r.best_move.map(|m| m.to_string()),
                    "pv": r.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
                    "nodes": r.stats.nodes, "qnodes": r.stats.qnodes, "beta_cutoffs": r.stats.beta_cutoffs,
                    "seconds": r.stats.elapsed.as_secs_f64(), "ratio_to_minimax": ratio(r), "stats": stats_json(r),
                })
            })
            .collect();
        writeln!(out, "{}", json!({ "fen": pos.fen(), "depth": args.depth, "variants": rows }))?;
        return Ok(());
    }
    writeln!(
        out,
        "{:<18} {:>9} {:<6} {:>11} {:>11} {:>9} {:>9} {:>8} {:>9}",
        "variant", "score", "best", "nodes", "qnodes", "cutoffs", "1st-cut%", "time s", "vs minimax"
    )?;
    for (n, _, r) in &results {
        writeln!(
            out,
            "{:<18} {:>9} {:<6} {:>11} {:>11} {:>9} {:>9.1} {:>8.3} {:>9}",
            n,
            score_text(r.score).replace("cp ", ""),
            r.best_move.map_or("-".to_owned(), |m| m.to_string()),
            r.stats.nodes,
            r.stats.qnodes,
            r.stats.beta_cutoffs,
            100.0 * r.stats.first_move_cutoff_rate(),
            r.stats.elapsed.as_secs_f64(),
            ratio(r).map_or("-".to_owned(), |x| format!("{x:.4}")),
        )?;
    }
    Ok(())
}
