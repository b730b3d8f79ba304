//! `xiangqi ablate`: what each technique of a variant is worth, in nodes and in Elo.
//!
//! ```text
//! xiangqi ablate --depth 7 --nodes 2000 --games 400 --batch 40 --out ablate.jsonl --svg ablate.svg
//! xiangqi ablate --build-up --depth 6 --nodes 2000 --games 200 --out build-up.jsonl
//! ```
//!
//! For a base variant (`engine` by default) every technique it has is taken away alone (`engine+no-lmr`, ...); with
//! `--build-up` every technique it lacks is added alone to it (the base then defaults to `negamax-ab+order`; an
//! addition that needs another technique, `qsprune` needing `qs`, is measured on top of that one: `+qs+qsprune`
//! against `+qs`). Each pairing compares the side *with* the technique against the side *without* it:
//!
//! - nodes: both searched on the bench positions ([`xiangqi_search::bench::BENCH_FENS`]) to `--depth`, one thread,
//!   a cleared table of `--hash` MB for each position, exactly as `xiangqi bench --variant V` (so the counts
//!   reproduce exactly);
//! - Elo: games between the two from the match's openings, each with both colours (game pair `k` starts from
//!   opening `k % 12` of the built-in set followed by `--random-plies` quiet moves chosen by `k`, as
//!   `xiangqi_match::openings::for_pair` gives them: engines at a fixed node count are deterministic, so without them
//!   each opening and colour would be one game repeated), at `--nodes N` or `--movetime MS` a move or on a clock
//!   (`--tc`), played by the match runner of `xiangqi-match` with this binary as both engines
//!   (`option.Variant=...`), `--concurrency` games at a time. The Elo is the technique's worth: the side with it over the side without it, from colour-reversed
//!   pairs (pentanomial), with its 95% error bar; an SPRT (`--sprt elo0=.. elo1=..`) tests that same figure and
//!   stops the pairing when it decides.
//!
//! The command checks the flags into an [`xiangqi_match::ablate::Plan`] and runs it: the library
//! ([`xiangqi_match::ablate`]) makes the pairings, reads and appends the results file, plays a batch, searches the
//! bench positions and writes the table or the JSON; [`chart`] draws the SVG.
//!
//! Games are played in batches of `--batch` (even: whole pairs), one batch of each pairing in turn, so every
//! pairing's figures grow together. After each batch a line is appended to the `--out` file (JSON lines): the two
//! variants, the time control, the games' first index and their scores. A run started again with the same file
//! reads it, continues each pairing at the next game (the next opening) and never plays a game twice.

mod chart;

use crate::args::{option_default, option_range};
use crate::{CmdResult, UsageError};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use xiangqi_match::ablate::report::{self, Row};
use xiangqi_match::ablate::results::{resume, Tally};
use xiangqi_match::ablate::{self, games, nodes, short, Plan};
use xiangqi_match::openings::Opening;
use xiangqi_match::TimeControl;
use xiangqi_search::options::HASH;
use xiangqi_search::VariantConfig;

/// The flags of `xiangqi ablate`.
#[derive(Args, Debug)]
pub struct AblateArgs {
    /// The variant whose techniques are measured (default: engine; with --build-up: negamax-ab+order).
    #[arg(long)]
    base: Option<String>,
    /// Add each technique the base lacks alone to it, instead of taking each it has away.
    #[arg(long)]
    build_up: bool,
    /// Only these techniques (comma-separated names, e.g. lmr,tt).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Depth of the node part (the bench positions searched to this depth); 0 skips it.
    #[arg(long, default_value_t = 7, value_parser = crate::args::depth::<u32>(0), allow_hyphen_values = true)]
    depth: u32,
    /// Transposition table of the node part and of the engines in the games, in MB.
    #[arg(long, default_value_t = option_default(HASH) as usize, value_parser = option_range::<usize>(HASH), allow_hyphen_values = true)]
    hash: usize,
    /// Nodes a move in the games.
    #[arg(long, value_parser = crate::args::at_least::<u64>(1), allow_hyphen_values = true)]
    nodes: Option<u64>,
    /// Milliseconds a move in the games (at most 604800000, one week).
    #[arg(long, value_parser = crate::args::range::<u64>(1, 604_800_000), allow_hyphen_values = true)]
    movetime: Option<u64>,
    /// A clock for the games, as `xiangqi match --tc`: [moves/]seconds[+increment], e.g. 8+0.08 (what a technique
    /// that acts only on a clock, such as `tm`, needs to be measured).
    #[arg(long, value_name = "CLOCK")]
    tc: Option<String>,
    /// Games per pairing (even: each opening with both colours); 0 plays none.
    #[arg(long, default_value_t = 0)]
    games: usize,
    /// Stop a pairing when an SPRT on the technique's Elo decides: elo0=ELO elo1=ELO [alpha=0.05] [beta=0.05].
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = crate::args::range::<usize>(1, 256), allow_hyphen_values = true)]
    concurrency: usize,
    /// Games per batch (even); the results file gets one line per batch.
    #[arg(long, default_value_t = 24)]
    batch: usize,
    /// Results file (JSON lines), appended to after each batch and read again to resume.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Stop after this many batches in this run (the next run resumes from --out).
    #[arg(long, value_parser = crate::args::at_least::<usize>(1), allow_hyphen_values = true)]
    max_batches: Option<usize>,
    /// Quiet moves (no capture, no check) played after each opening, chosen by the game pair's number, so that the
    /// games differ: engines at a fixed node count are deterministic, and each opening with each colour would
    /// otherwise be one game played again and again. 0 plays the openings as they are.
    #[arg(long, default_value_t = 2, value_parser = crate::args::range::<usize>(0, 20), allow_hyphen_values = true)]
    random_plies: usize,
    /// Opening file (as `xiangqi match --openings`); default: the built-in set.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Print one JSON object at the end instead of the table.
    #[arg(long)]
    json: bool,
    /// Draw the Elo (with error bars) and the node savings of each technique as an SVG chart.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

/// Runs `xiangqi ablate`.
pub fn run(args: &AblateArgs) -> CmdResult {
    // A file of --openings that cannot be read is a run-time error; a flag that cannot be used, a usage error.
    let openings = xiangqi_match::openings::read_or_builtin(args.openings.as_deref())?;
    let plan = plan(args, openings).map_err(UsageError::new)?;
    let start = Instant::now();
    let program =
        std::env::current_exe().map_err(|e| format!("cannot find this program to run as the engines: {e}"))?;
    let program = program.to_string_lossy().into_owned();
    let mut tallies = match (&args.out, &plan.tc) {
        (Some(path), Some(tc)) => resume(path, &plan, tc)?,
        _ => vec![Tally::default(); plan.pairings.len()],
    };
    let mut out_file = match &args.out {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("--out {}: {e}", path.display()))?,
        ),
        None => None,
    };
    if plan.tc.is_some() && args.games > 0 {
        // Start the engines once: a variant the engine refuses stops here, before any game.
        games::check_engines(&program, &plan)?;
        let resumed: usize = tallies.iter().map(Tally::games).sum();
        if resumed > 0 {
            eprintln!("resuming: {resumed} games read from the results file");
        }
    }
    let mut said = |v: &VariantConfig, n: &nodes::Nodes| {
        eprintln!("nodes at depth {}: {}: {} in {:.2} s", args.depth, short(v), n.total, n.seconds);
    };
    let nodes = if args.depth > 0 { Some(nodes::node_part(&plan, &mut said)?) } else { None };
    if let Some(tc) = plan.tc {
        let mut progress = |p: &ablate::Pairing, tally: &Tally| {
            let elapsed = start.elapsed().as_secs_f64();
            eprintln!("{}", report::progress_line(elapsed, p, tally, args.games, plan.sprt_of(tally)));
        };
        let out = out_file.as_mut().map(|f| f as &mut dyn Write);
        let played =
            games::play(&program, &plan, tc, &mut tallies, (args.batch, args.max_batches), out, &mut progress)?;
        if played.stopped {
            eprintln!("stopped after {} batches; run the same command again to resume", played.batches);
        }
    }
    let rows: Vec<Row> = plan
        .pairings
        .iter()
        .zip(&tallies)
        .map(|(p, tally)| Row {
            p,
            tally,
            nodes: nodes.as_ref().map(|n| (&n[&p.with.to_string()], &n[&p.without.to_string()])),
            sprt: plan.sprt_of(tally),
        })
        .collect();
    let elapsed = start.elapsed().as_secs_f64();
    if let Some(path) = &args.svg {
        chart::chart(path, &plan, &rows)?;
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", report::json(&plan, &rows, nodes.as_ref(), elapsed))?;
    } else {
        report::table(&mut out, &plan, &rows, nodes.as_ref(), elapsed)?;
    }
    Ok(())
}

/// Checks the flags.
fn plan(args: &AblateArgs, openings: Vec<Opening>) -> Result<Plan, String> {
    let base_text =
        args.base.clone().unwrap_or_else(|| if args.build_up { "negamax-ab+order" } else { "engine" }.into());
    let base: VariantConfig = base_text.parse().map_err(|e: xiangqi_search::VariantError| format!("--base: {e}"))?;
    let pairings = ablate::pairings(&base, args.build_up, &args.only)?;
    let limits = [args.nodes.is_some(), args.movetime.is_some(), args.tc.is_some()];
    if limits.iter().filter(|&&x| x).count() > 1 {
        return Err("give one of --nodes, --movetime and --tc, not more".to_owned());
    }
    let tc = match (args.nodes, args.movetime, &args.tc) {
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
    if args.games == 0 && args.depth == 0 {
        return Err("nothing to measure: --depth 0 and no --games".to_owned());
    }
    let sprt = args.sprt.as_deref().map(crate::args::parse_sprt).transpose()?;
    if sprt.is_some() && args.games == 0 {
        return Err("--sprt needs --games (the most games a pairing may play)".to_owned());
    }
    if args.random_plies == 0 && args.games > 2 * openings.len() {
        eprintln!(
            "warning: {} games a pairing from {} openings without --random-plies: engines at a fixed node count play \
             the same game again for each opening and colour",
            args.games,
            openings.len()
        );
    }
    Ok(Plan {
        base,
        build_up: args.build_up,
        pairings,
        tc,
        sprt,
        openings,
        random_plies: args.random_plies,
        games: args.games,
        concurrency: args.concurrency,
        depth: args.depth,
        hash: args.hash,
    })
}
