//! `xiangqi analyze FILE`: the engine evaluates every position of a game's main line; the game comes back as PGN
//! with each move's evaluation and the engine's best line in comments, and marks for the moves that lose score,
//! plus an SVG chart of the evaluation over the game.
//!
//! A move's loss is what the mover's score drops from the engine's best in the position before the move to the
//! engine's evaluation after it (0 when the move played is the engine's choice). Scores are in the evaluator's
//! units (a soldier is worth 45 to 125, a horse 420, a chariot about 900) and capped at ±1000, a mate counting as
//! 1000. The marks, after PGN's custom: `?!` inaccuracy from [`review::INACCURACY`] (50), `?` mistake from
//! [`review::MISTAKE`] (100), `??` blunder from [`review::BLUNDER`] (300). The evaluation and the marks are
//! [`xiangqi_search::review`]'s, which `xiangqi serve`'s review uses too.

use crate::records::{load, write_text};
use crate::{args, CmdResult};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;
use xiangqi_core::record::{write_pgn, GameRecord, Notation, TextEncoding};
use xiangqi_core::Position;
use xiangqi_eval::EvalChoice;
use xiangqi_search::options::HASH;
use xiangqi_search::review;
use xiangqi_search::Limits;

use xiangqi_search::review::{mark, PositionEval, CAP};

/// Arguments of `xiangqi analyze`.
#[derive(clap::Args)]
#[command(
    after_help = "Marks by the mover's loss of score against the engine's best move (evaluator units: a soldier \
                        45-125, a horse 420, a chariot about 900; scores capped at +-1000, a mate counting 1000): \
                        ?! inaccuracy from 50, ? mistake from 100, ?? blunder from 300."
)]
pub struct AnalyzeArgs {
    /// The game record: PGN (any notation, UTF-8 or GBK) or XQF.
    pub file: PathBuf,
    /// Search time per position, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = args::range::<u64>(1, 3_600_000), allow_hyphen_values = true)]
    pub movetime: u64,
    /// Search each position to this depth instead of for a time (reproducible from run to run).
    #[arg(long, conflicts_with = "movetime", value_parser = args::depth::<u32>(1), allow_hyphen_values = true)]
    pub depth: Option<u32>,
    /// Which game of the file to analyze, from 1.
    #[arg(long, default_value_t = 1, value_parser = args::range::<usize>(1, 1_000_000), allow_hyphen_values = true)]
    pub game: usize,
    /// Write the annotated game here (default: standard output).
    #[arg(long, value_name = "OUT.pgn")]
    pub out: Option<PathBuf>,
    /// Draw the evaluation over the game, with the marks, as an SVG chart in this file.
    #[arg(long, value_name = "CHART.svg")]
    pub svg: Option<PathBuf>,
    /// Notation of the annotated game: chinese, wxf, iccs or uci (default: the notation it was read in; Chinese
    /// for XQF).
    #[arg(long)]
    pub notation: Option<Notation>,
    /// Text encoding of the annotated game: utf8 or gbk.
    #[arg(long, default_value = "utf8")]
    pub encoding: TextEncoding,
    /// Transposition table size in MB (kept from one position to the next).
    #[arg(long, default_value_t = args::option_default(HASH), value_parser = args::option_range::<u64>(HASH), allow_hyphen_values = true)]
    pub hash: u64,
}

/// The loss of each move of the main line ([`xiangqi_search::review::losses`]).
pub fn losses(record: &GameRecord, evals: &[PositionEval]) -> Vec<i32> {
    review::losses(&record.main_line(), evals)
}

/// Searches every position of the main line (the start, and after each move) with the engine's evaluator, calling
/// `progress(done, total)` after each ([`xiangqi_search::review::evaluate`], which `xiangqi serve`'s review runs too).
pub fn evaluate(
    record: &GameRecord,
    limits: &Limits,
    hash_mb: usize,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<PositionEval>, Box<dyn std::error::Error>> {
    let eval = EvalChoice::engine_default();
    Ok(review::evaluate(&record.start, &record.main_line(), limits, hash_mb, eval, None, progress)?)
}

/// Draws the evaluation (Red's view) over the game, with each marked move's point coloured by its mark.
pub fn chart(path: &Path, title: &str, record: &GameRecord, evals: &[PositionEval]) -> CmdResult {
    use plotters::prelude::*;
    let fail = |e: &dyn std::fmt::Display| format!("cannot write the chart {}: {e}", path.display());
    let losses = losses(record, evals);
    let plies = evals.len().saturating_sub(1).max(1) as f64;
    let root = SVGBackend::new(path, (1000, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut c = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..plies, -(CAP as f64) * 1.05..(CAP as f64) * 1.05)
        .map_err(|e| fail(&e))?;
    c.configure_mesh()
        .x_desc("ply (moves of both sides)")
        .y_desc("evaluation, Red's view (mate = ±1000)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:+.0}"))
        .draw()
        .map_err(|e| fail(&e))?;
    c.draw_series(LineSeries::new([(0.0, 0.0), (plies, 0.0)], BLACK.mix(0.4))).map_err(|e| fail(&e))?;
    let points: Vec<(f64, f64)> = evals.iter().enumerate().map(|(i, e)| (i as f64, f64::from(e.red))).collect();
    let red_line = ShapeStyle { color: RGBColor(180, 30, 30).to_rgba(), filled: true, stroke_width: 2 };
    c.draw_series(LineSeries::new(points.iter().copied(), red_line))
        .map_err(|e| fail(&e))?
        .label("evaluation")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], red_line));
    for (name, sign, color) in [
        ("inaccuracy ?! (loss >= 50)", "?!", RGBColor(230, 190, 0)),
        ("mistake ? (loss >= 100)", "?", RGBColor(240, 120, 0)),
        ("blunder ?? (loss >= 300)", "??", RGBColor(200, 0, 0)),
    ] {
        let marked: Vec<(f64, f64)> =
            losses.iter().enumerate().filter(|&(_, &l)| mark(l) == Some(sign)).map(|(i, _)| points[i + 1]).collect();
        c.draw_series(marked.iter().map(|&p| Circle::new(p, 6, color.filled())))
            .map_err(|e| fail(&e))?
            .label(format!("{name}: {}", marked.len()))
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, color.filled()));
    }
    crate::chart::legend(&mut c, SeriesLabelPosition::UpperLeft).map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}

/// Runs `xiangqi analyze`.
pub fn run(args: &AnalyzeArgs) -> CmdResult {
    let loaded = load(&args.file)?;
    let count = loaded.games.len();
    let record = match loaded.games.into_iter().nth(args.game - 1) {
        Some(Ok(r)) => r,
        Some(Err(e)) => return Err(format!("{}: {e}", args.file.display()).into()),
        None => {
            return Err(format!("{} has {count} game(s); there is no game {}", args.file.display(), args.game).into())
        }
    };
    let limits = match args.depth {
        Some(d) => Limits { depth: Some(d), iterative: true, ..Limits::default() },
        None => Limits { movetime: Some(Duration::from_millis(args.movetime)), ..Limits::default() },
    };
    let how = match args.depth {
        Some(d) => format!("engine, depth {d} per position"),
        None => format!("engine, {} ms per position", args.movetime),
    };
    let tty = std::io::stderr().is_terminal();
    let mut progress = |done: usize, total: usize| {
        let line = format!("analyze: position {done}/{total} ({}%)", 100 * done / total);
        if tty {
            eprint!("\r{line}");
        } else if done == total || done % 10 == 1 {
            eprintln!("{line}");
        }
    };
    let evals = evaluate(&record, &limits, args.hash as usize, &mut progress)?;
    if tty {
        eprintln!();
    }
    let notation = args.notation.or(record.notation).unwrap_or(Notation::Chinese);
    let annotated = review::annotate(&record, &evals, notation, &format!("xiangqi analyze ({how})"));
    let text = write_pgn(std::slice::from_ref(&annotated), notation);
    let mut summary = review::summary(&record, &evals);
    if record.start == Position::startpos() {
        if let Some(n) = xiangqi_core::record::openings::opening_of(&record.start, &record.main_line()) {
            summary.push_str(&format!("opening: {}, at ply {}\n", n.opening.label(), n.ply));
        }
    }
    match &args.out {
        Some(path) => {
            write_text(path, &text, args.encoding)?;
            write!(std::io::stdout().lock(), "{summary}")?;
        }
        None => {
            write_text(Path::new("-"), &text, args.encoding)?;
            eprint!("{summary}");
        }
    }
    if let Some(svg) = &args.svg {
        let names = match (record.tag("Red"), record.tag("Black")) {
            (Some(r), Some(b)) if !r.is_empty() && !b.is_empty() => format!("{r} - {b}"),
            _ => args.file.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()),
        };
        chart(svg, &format!("{names}: evaluation by ply ({how})"), &record, &evals)?;
    }
    Ok(())
}
