//! `xiangqi search` and `xiangqi compare`: one variant with all its statistics, or several side by side.

use crate::args::{option_default, option_range};
use crate::chart::thousands;
use crate::{parse_fen, CmdResult, UsageError};
use serde_json::json;
use std::io::Write;
use std::time::Duration;
use xiangqi_core::{Move, Position, START_FEN};
use xiangqi_search::options::{HASH, MULTIPV, THREADS};
use xiangqi_search::policy::{child, null_move};
use xiangqi_search::{fixed_depth, Limits, SearchEngine, SearchResult, VariantConfig, PRESETS};
use xiangqi_uci::uci_score;

/// Arguments of `xiangqi search`.
#[derive(clap::Args)]
pub struct SearchArgs {
    /// Position (default: the start position).
    #[arg(long, default_value = START_FEN, hide_default_value = true)]
    pub fen: String,
    /// Search this many plies: one fixed-depth pass, except that the engine's additions (`--variant engine`) and
    /// more than one thread deepen iteratively up to this depth. The default when no limit is given is 4.
    #[arg(long, value_parser = crate::args::depth::<u32>(1), allow_hyphen_values = true, group = "limit")]
    pub depth: Option<u32>,
    /// Deepen iteratively until about this many nodes are searched.
    #[arg(long, value_parser = crate::args::at_least::<u64>(1), allow_hyphen_values = true, group = "limit")]
    pub nodes: Option<u64>,
    /// Deepen iteratively for this many milliseconds.
    #[arg(long, value_parser = crate::args::at_least::<u64>(1), allow_hyphen_values = true, group = "limit")]
    pub movetime: Option<u64>,
    /// The variant: a preset or parts joined with '+' (see `xiangqi search --list`); by default the playing
    /// engine's.
    #[arg(long, default_value = xiangqi_search::ENGINE_VARIANT)]
    pub variant: String,
    /// Transposition table size in MB (used by the variants with a table: the engine's, and `tt`).
    #[arg(long, default_value_t = option_default(HASH), value_parser = option_range::<u64>(HASH), allow_hyphen_values = true)]
    pub hash: u64,
    /// Search threads (Lazy SMP; one thread is reproducible).
    #[arg(long, default_value_t = option_default(THREADS), value_parser = option_range::<u64>(THREADS), allow_hyphen_values = true)]
    pub threads: u64,
    /// Principal variations to search and print (the engine's `MultiPV`).
    #[arg(long, default_value_t = option_default(MULTIPV), value_parser = option_range::<u64>(MULTIPV), allow_hyphen_values = true)]
    pub multipv: u64,
    /// List the presets and parts, then exit.
    #[arg(long)]
    pub list: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// The evaluator.
    #[command(flatten)]
    pub eval: crate::evalopt::EvalOpts,
    /// Tuned search parameters.
    #[command(flatten)]
    pub params: crate::evalopt::ParamOpts,
}

/// Arguments of `xiangqi compare`.
#[derive(clap::Args)]
pub struct CompareArgs {
    /// Position (default: the start position).
    #[arg(long, default_value = START_FEN, hide_default_value = true)]
    pub fen: String,
    /// Depth in plies.
    #[arg(long, value_parser = crate::args::depth::<u32>(1), allow_hyphen_values = true)]
    pub depth: u32,
    /// Variants to compare, separated by commas (default: every preset).
    #[arg(long, value_delimiter = ',')]
    pub variants: Vec<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also search every depth from 1 to --depth and draw the node counts (log scale) and the effective branching
    /// factor of each variant by depth, as an SVG chart in this file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,
    /// The evaluator (default: the built-in network).
    #[command(flatten)]
    pub eval: crate::evalopt::EvalOpts,
}

/// The variant of the flag `--FLAG` (a usage error when it is none).
fn parse_variant(flag: &str, text: &str) -> Result<VariantConfig, UsageError> {
    text.parse::<VariantConfig>().map_err(|e| UsageError::value(flag, text, e))
}

fn list_variants() -> String {
    let mut s = String::from("presets:\n");
    for (name, what) in PRESETS {
        s.push_str(&format!("  {name:<18} {what}\n"));
    }
    s.push_str("parts (join with '+'):\n");
    for (name, what) in xiangqi_search::parts() {
        s.push_str(&format!("  {name:<60} {what}\n"));
    }
    s
}

/// The statistics as JSON: the node counts and rates, then every technique's counters under the keys the
/// registry gives them.
fn stats_json(r: &SearchResult<Move>) -> serde_json::Value {
    let s = &r.stats;
    let mut stats = json!({
        "depth": r.depth,
        "seldepth": s.seldepth,
        "nodes": s.nodes(),
        "main_nodes": s.main_nodes,
        "interior_nodes": s.interior_nodes(),
        "leaf_nodes": s.leaf_nodes,
        "quiescence_nodes": s.quiescence_nodes,
        "beta_cutoffs": s.beta_cutoffs,
        "first_move_cutoffs": s.first_move_cutoffs,
        "first_move_cutoff_rate": s.first_move_cutoff_rate(),
        "ebf": s.ebf(r.depth),
        "iteration_nodes": s.iteration_nodes,
        "seconds": s.elapsed.as_secs_f64(),
        "nps": s.nps(),
    });
    for (counter, value) in xiangqi_search::techniques::counters(s) {
        stats[counter.key] = json!(value);
    }
    stats
}

/// The principal variations searched (`--multipv`), best first: score and moves.
fn lines_json(r: &SearchResult<Move>) -> serde_json::Value {
    let lines: Vec<serde_json::Value> = r
        .lines
        .iter()
        .map(|l| json!({ "score": l.score, "pv": l.pv.iter().map(Move::to_string).collect::<Vec<_>>() }))
        .collect();
    lines.into()
}

/// Runs the `search` command.
pub fn run(args: &SearchArgs) -> CmdResult {
    if args.list {
        write!(std::io::stdout(), "{}", list_variants())?;
        return Ok(());
    }
    let pos = parse_fen(&args.fen)?;
    let spec = parse_variant("variant", &args.variant)?;
    let choice = args.eval.choice()?;
    let params = args.params.params()?;
    let eval_text = choice.describe();
    let limits = Limits {
        depth: if args.nodes.is_none() && args.movetime.is_none() { Some(args.depth.unwrap_or(4)) } else { None },
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        // Iterative for the engine's variant, as `compare` searches.
        ..fixed_depth::limits(&spec, 0)
    };
    let mut engine = SearchEngine::new(choice)?;
    engine.set_variant(spec);
    engine.set_params(params);
    engine.set_hash(args.hash as usize)?;
    engine.set_threads(args.threads as usize)?;
    engine.set_multipv(args.multipv as usize);
    // Fault the table in before the clock starts, so that a large one does not slow the search down.
    engine.table().prefault();
    let r = engine.search(&pos, &limits);
    let pv: Vec<String> = r.pv.iter().map(Move::to_string).collect();
    let best = r.best_move.map_or("(none)".to_owned(), |m| m.to_string());
    let mut out = std::io::stdout().lock();
    if args.json {
        let obj = json!({
            "fen": pos.fen(), "variant": spec.to_string(), "variant_asked": args.variant, "eval": eval_text,
            "best_move": r.best_move.map(|m| m.to_string()),
            "score": r.score, "score_text": uci_score(r.score), "pv": pv, "nodes": r.stats.nodes(),
            "lines": lines_json(&r), "stats": stats_json(&r),
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    let s = &r.stats;
    if args.variant == spec.to_string() {
        writeln!(out, "variant            {spec}")?;
    } else {
        writeln!(out, "variant            {} ({spec})", args.variant)?;
    }
    writeln!(out, "evaluator          {eval_text}")?;
    writeln!(out, "best move          {best}")?;
    writeln!(out, "score              {}", uci_score(r.score))?;
    writeln!(out, "pv                 {}", pv.join(" "))?;
    for (k, line) in r.lines.iter().enumerate().skip(1) {
        let moves: Vec<String> = line.pv.iter().map(Move::to_string).collect();
        writeln!(out, "line {:<13} {} {}", k + 1, uci_score(line.score), moves.join(" "))?;
    }
    writeln!(out, "depth              {} (seldepth {})", r.depth, s.seldepth)?;
    writeln!(
        out,
        "nodes              {} = main search {} (interior {}, leaves {}) + quiescence {}",
        s.nodes(),
        s.main_nodes,
        s.interior_nodes(),
        s.leaf_nodes,
        s.quiescence_nodes
    )?;
    writeln!(
        out,
        "beta cutoffs       {} ({:.1}% on the first move)",
        s.beta_cutoffs,
        100.0 * s.first_move_cutoff_rate()
    )?;
    writeln!(out, "null move          {} tries, {} cutoffs", s.get(null_move::TRIES), s.get(null_move::CUTOFFS))?;
    writeln!(out, "pvs re-searches    {}", s.get(child::RESEARCHES))?;
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
        let names: Vec<String> = args.variants.iter().map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()).collect();
        if names.is_empty() {
            return Err(UsageError::new(format!(
                "--variants names no variant: give one or more separated by commas (without --variants, every \
                 preset); {}",
                xiangqi_search::available()
            ))
            .into());
        }
        names
    };
    // Check every name before searching anything.
    let specs: Vec<(String, VariantConfig)> =
        names.iter().map(|n| parse_variant("variants", n).map(|s| (n.clone(), s))).collect::<Result<_, _>>()?;
    if let Some(path) = &args.plot {
        if !path.extension().is_some_and(|e| e.eq_ignore_ascii_case("svg")) {
            let why = "the chart is SVG, the file name must end in .svg";
            return Err(UsageError::value("plot", &path.display().to_string(), why).into());
        }
    }
    let choice = args.eval.choice()?;
    let eval_text = choice.describe();
    let mut engine = SearchEngine::new(choice)?;
    let eval = &mut engine;
    // With --plot, every depth up to --depth: (depth, nodes) per variant, the last search being the table's.
    let mut curves: Vec<(String, Vec<(u32, u64)>)> = Vec::new();
    let results: Vec<(String, VariantConfig, SearchResult<Move>)> = specs
        .into_iter()
        .map(|(n, s)| {
            if args.plot.is_some() {
                let mut points = Vec::new();
                for d in 1..args.depth {
                    points.push((d, fixed_depth::search(eval, &s, &pos, d).stats.nodes()));
                }
                let r = fixed_depth::search(eval, &s, &pos, args.depth);
                points.push((args.depth, r.stats.nodes()));
                curves.push((n.clone(), points));
                (n, s, r)
            } else {
                let r = fixed_depth::search(eval, &s, &pos, args.depth);
                (n, s, r)
            }
        })
        .collect();
    if let Some(path) = &args.plot {
        let place = if pos.fen() == Position::startpos().fen() { "the start position".to_owned() } else { pos.fen() };
        plot_nodes(path, &place, &curves)?;
        eprintln!("wrote the chart to {}", path.display());
    }
    // Minimax has no quiescence: the ratio compares main-search nodes.
    let minimax_nodes = results.iter().find(|(n, _, _)| n == "minimax").map(|(_, _, r)| r.stats.main_nodes);
    let ratio = |r: &SearchResult<Move>| minimax_nodes.map(|m| r.stats.main_nodes as f64 / m.max(1) as f64);
    let mut out = std::io::stdout().lock();
    if args.json {
        let rows: Vec<serde_json::Value> = results
            .iter()
            .map(|(n, s, r)| {
                json!({
                    "variant": n, "canonical": s.to_string(), "score": r.score,
                    "best_move": r.best_move.map(|m| m.to_string()),
                    "pv": r.pv.iter().map(Move::to_string).collect::<Vec<_>>(),
                    "nodes": r.stats.nodes(), "main_nodes": r.stats.main_nodes,
                    "quiescence_nodes": r.stats.quiescence_nodes, "beta_cutoffs": r.stats.beta_cutoffs,
                    "seconds": r.stats.elapsed.as_secs_f64(), "ratio_to_minimax": ratio(r), "stats": stats_json(r),
                })
            })
            .collect();
        writeln!(out, "{}", json!({ "fen": pos.fen(), "depth": args.depth, "eval": eval_text, "variants": rows }))?;
        return Ok(());
    }
    writeln!(out, "evaluator: {eval_text}")?;
    if results.iter().any(|(_, s, _)| s.is_engine()) {
        writeln!(
            out,
            "(the engine deepens iteratively to --depth, as `xiangqi search` does; the others search it once)"
        )?;
    }
    writeln!(
        out,
        "{:<18} {:>9} {:<6} {:>11} {:>11} {:>11} {:>9} {:>9} {:>8} {:>9}",
        "variant", "score", "best", "nodes", "main", "quiescence", "cutoffs", "1st-cut%", "time s", "vs minimax"
    )?;
    for (n, _, r) in &results {
        writeln!(
            out,
            "{:<18} {:>9} {:<6} {:>11} {:>11} {:>11} {:>9} {:>9.1} {:>8.3} {:>9}",
            n,
            uci_score(r.score).replace("cp ", ""),
            r.best_move.map_or("-".to_owned(), |m| m.to_string()),
            r.stats.nodes(),
            r.stats.main_nodes,
            r.stats.quiescence_nodes,
            r.stats.beta_cutoffs,
            100.0 * r.stats.first_move_cutoff_rate(),
            r.stats.elapsed.as_secs_f64(),
            ratio(r).map_or("-".to_owned(), |x| format!("{x:.4}")),
        )?;
    }
    Ok(())
}

/// Draws, for `compare --plot`, the node counts (log scale) and the effective branching factor `nodes^(1/depth)`
/// of each variant by depth, side by side, as an SVG chart (plotters' SVG backend writes text as SVG text, so no
/// font is needed).
fn plot_nodes(path: &std::path::Path, place: &str, curves: &[(String, Vec<(u32, u64)>)]) -> CmdResult {
    use plotters::prelude::*;
    let fail = |e: &dyn std::fmt::Display| format!("cannot write the chart {}: {e}", path.display());
    let depth = curves.iter().flat_map(|(_, p)| p.iter().map(|&(d, _)| d)).max().unwrap_or(1);
    let max_nodes = curves.iter().flat_map(|(_, p)| p.iter().map(|&(_, n)| n)).max().unwrap_or(1).max(1) as f64;
    let ebf = |d: u32, n: u64| (n.max(1) as f64).powf(1.0 / f64::from(d));
    let max_ebf = curves.iter().flat_map(|(_, p)| p.iter().map(|&(d, n)| ebf(d, n))).fold(1.0, f64::max);
    let x_range = 0.75..f64::from(depth) + 0.25;
    let x_label = |x: &f64| if (x - x.round()).abs() < 1e-6 { format!("{x:.0}") } else { String::new() };

    let root = SVGBackend::new(path, (1200, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let root = root.titled(&format!("Nodes searched by depth, {place}"), ("sans-serif", 22)).map_err(|e| fail(&e))?;
    let (left, right) = root.split_horizontally(600);

    let mut nodes = ChartBuilder::on(&left)
        .caption("nodes, main search + quiescence (log scale)", ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(85)
        .build_cartesian_2d(x_range.clone(), (0.8..max_nodes * 3.0).log_scale())
        .map_err(|e| fail(&e))?;
    nodes
        .configure_mesh()
        .x_desc("depth (plies)")
        .y_desc("nodes")
        .x_labels(depth as usize * 4 + 1)
        .x_label_formatter(&x_label)
        .y_label_formatter(&|y| thousands(y.round() as u64))
        .draw()
        .map_err(|e| fail(&e))?;
    let mut branching = ChartBuilder::on(&right)
        .caption("effective branching factor, nodes^(1/depth)", ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x_range, 0.0..(max_ebf * 1.1).ceil())
        .map_err(|e| fail(&e))?;
    branching
        .configure_mesh()
        .x_desc("depth (plies)")
        .y_desc("branching factor")
        .x_labels(depth as usize * 4 + 1)
        .x_label_formatter(&x_label)
        .draw()
        .map_err(|e| fail(&e))?;

    for (i, (name, points)) in curves.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        // Each line thinner than the one before, so that variants with equal counts show as nested stripes.
        let width = 2 + 2 * (curves.len() - 1 - i) as u32;
        let style = ShapeStyle { color, filled: true, stroke_width: width };
        let xy: Vec<(f64, f64)> = points.iter().map(|&(d, n)| (f64::from(d), n.max(1) as f64)).collect();
        nodes
            .draw_series(LineSeries::new(xy.iter().copied(), style))
            .map_err(|e| fail(&e))?
            .label(format!("{name}: {} at depth {}", thousands(points.last().map_or(0, |p| p.1)), depth))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        nodes.draw_series(xy.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(|e| fail(&e))?;
        let be: Vec<(f64, f64)> = points.iter().map(|&(d, n)| (f64::from(d), ebf(d, n))).collect();
        branching
            .draw_series(LineSeries::new(be.iter().copied(), style))
            .map_err(|e| fail(&e))?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        branching.draw_series(be.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(|e| fail(&e))?;
    }
    crate::chart::legend(&mut nodes, SeriesLabelPosition::UpperLeft).map_err(|e| fail(&e))?;
    crate::chart::legend(&mut branching, SeriesLabelPosition::LowerRight).map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}
