//! `xiangqi tune`: the search's tunable parameters ([`xiangqi_search::params`]) tuned by SPSA in games, as fishtest
//! tunes Stockfish's; a front end over [`xiangqi_match::tune`] (flags in, the state file, charts and a table out).
//!
//! ```text
//! xiangqi tune --params RazorMargin,RfpMargin --iterations 2000 --nodes 5000 --concurrency 2 \
//!              --state tune.json --out tuned.params --svg tune.svg
//! ```
//!
//! Each iteration plays one pair of games (one opening, each engine with both colours) between this binary with
//! the tuned parameters at `theta + c_k delta` ("plus") and at `theta - c_k delta` ("minus"), through the match
//! runner of `xiangqi-match` (UCI engines with each parameter set as an option), at `--nodes` or `--movetime` a
//! move, and moves theta by the pair's result ([`xiangqi_match::tune::spsa`] has the arithmetic and its source).
//! Game pair `k` starts from opening `k % 12` of the set followed by `--random-plies` quiet moves chosen by `k`, as
//! `xiangqi ablate`'s games do. With `--concurrency N` (at least 2), `N / 2` iterations are played at once from the same theta (as
//! fishtest's workers do), each pair's two games side by side, and their updates applied in order.
//!
//! The run's state (its settings, the iterations done, theta and its history, each pair's result) is a JSON file
//! (`--state`), written after each round of iterations under a temporary name and renamed over the old one; the
//! same command started again reads it and continues where it stopped (a state written by other settings is
//! refused). At the end, or at once with `--report`, the tuned values (theta rounded) are written as a parameter
//! file (`--out`, read by `xiangqi uci --params`, the `ParamFile` option, `search --params` and `bench --params`)
//! and each parameter's path as an SVG chart (`--svg`).

mod chart;

use crate::{CmdResult, UsageError};
use clap::Args;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use xiangqi_match::tune::{self, Games, State};
use xiangqi_match::TimeControl;
use xiangqi_search::options::HASH;
use xiangqi_search::params::R_END;

/// The flags of `xiangqi tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The parameters tuned (comma-separated names, e.g. RazorMargin,RfpMargin; default: every parameter).
    #[arg(long, value_delimiter = ',')]
    params: Vec<String>,
    /// Planned iterations (one game pair each): the gain schedule reaches c_end and r_end at the last.
    #[arg(long, default_value_t = 1000, value_parser = crate::args::range::<u64>(1, 100_000_000), allow_hyphen_values = true)]
    iterations: u64,
    /// Stop after this many iterations in this run (the next run resumes from --state).
    #[arg(long, value_parser = crate::args::at_least::<u64>(1), allow_hyphen_values = true)]
    max_iterations: Option<u64>,
    /// Nodes a move.
    #[arg(long, value_parser = crate::args::at_least::<u64>(1), allow_hyphen_values = true)]
    nodes: Option<u64>,
    /// Milliseconds a move (at most 604800000, one week).
    #[arg(long, value_parser = crate::args::range::<u64>(1, 604_800_000), allow_hyphen_values = true)]
    movetime: Option<u64>,
    /// Games played at the same time (from 2 on: N/2 iterations at once, each pair's games side by side).
    #[arg(long, default_value_t = 1, value_parser = crate::args::range::<usize>(1, 256), allow_hyphen_values = true)]
    concurrency: usize,
    /// The run's state (JSON), written after each round and read again to resume.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Write the tuned values as a parameter file (`name = value` lines).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Draw each parameter's path (theta by iteration) as an SVG chart.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Play nothing: write --out and --svg from the --state file as it is.
    #[arg(long)]
    report: bool,
    /// The seed of the perturbations' signs (a run is reproducible from it at a fixed node count).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// fishtest's r_end for every parameter: the learning rate a_end / c_end^2 at the last iteration.
    #[arg(long, default_value_t = R_END)]
    r_end: f64,
    /// Transposition table of the engines, in MB.
    #[arg(long, default_value_t = crate::args::option_default(HASH) as usize, value_parser = crate::args::option_range::<usize>(HASH), allow_hyphen_values = true)]
    hash: usize,
    /// Quiet moves played after each opening, chosen by the iteration (see `xiangqi ablate --random-plies`).
    #[arg(long, default_value_t = 2, value_parser = crate::args::range::<usize>(0, 20), allow_hyphen_values = true)]
    random_plies: usize,
    /// Opening file (as `xiangqi match --openings`); default: the built-in set.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// The variant both engines play (see `xiangqi search --list`), e.g. engine+hscale to tune a technique not in
    /// the engine.
    #[arg(long, default_value = "engine")]
    variant: String,
}

/// The time control of the flags.
fn time_control(args: &TuneArgs) -> Result<Option<TimeControl>, String> {
    match (args.nodes, args.movetime) {
        (Some(_), Some(_)) => Err("give one of --nodes and --movetime, not both".to_owned()),
        (Some(n), None) => Ok(Some(TimeControl::Nodes(n))),
        (None, Some(ms)) => Ok(Some(TimeControl::MoveTime(Duration::from_millis(ms)))),
        (None, None) => Ok(None),
    }
}

/// The fresh state of the flags, and the time control of the games (`None` with `--report`).
fn fresh_state(args: &TuneArgs) -> Result<(State, Option<TimeControl>), String> {
    let tuned = tune::chosen(&args.params).map_err(|e| format!("--params {e}"))?;
    let tc = time_control(args)?;
    if tc.is_none() && !args.report {
        return Err("give --nodes N or --movetime MS (the time of a move), or --report".to_owned());
    }
    if args.report && args.state.is_none() {
        return Err("--report needs --state FILE (the run to report)".to_owned());
    }
    if !(args.r_end.is_finite() && args.r_end > 0.0) {
        return Err(format!("--r-end {}: must be a positive number", args.r_end));
    }
    let variant = args
        .variant
        .parse::<xiangqi_search::VariantConfig>()
        .map_err(|e| format!("--variant {}: {e}", args.variant))?
        .to_string();
    let tc_text = tc.map_or_else(String::new, |tc| tc.describe());
    let state = State::new(&tuned, args.seed, args.iterations, args.r_end, &tc_text, args.random_plies, variant);
    Ok((state, tc))
}

/// Runs `xiangqi tune`.
pub fn run(args: &TuneArgs) -> CmdResult {
    let (fresh, tc) = fresh_state(args).map_err(UsageError::new)?;
    let mut state = match args.state.as_deref().map(tune::read_state).transpose()?.flatten() {
        Some(saved) => {
            if let Some(why) = saved.differs(&fresh).filter(|_| !args.report) {
                let path = args.state.as_deref().map_or(String::new(), |p| p.display().to_string());
                return Err(UsageError::new(format!("--state {path} is another run's ({why})")).into());
            }
            if !args.report && saved.iteration > 0 {
                eprintln!("resuming at iteration {} of {}", saved.iteration + 1, saved.iterations);
            }
            saved
        }
        None if args.report => {
            let path = args.state.as_deref().map_or(String::new(), |p| p.display().to_string());
            return Err(format!("--report: no state file {path}").into());
        }
        None => fresh,
    };
    if let Some(tc) = tc.filter(|_| !args.report) {
        let openings = xiangqi_match::openings::read_or_builtin(args.openings.as_deref())?;
        let program =
            std::env::current_exe().map_err(|e| format!("cannot find this program to run as the engines: {e}"))?;
        let program = program.to_string_lossy().into_owned();
        let games =
            Games { program: &program, hash: args.hash, concurrency: args.concurrency, tc, openings: &openings };
        let start = Instant::now();
        let stop_at = args.max_iterations.map_or(state.iterations, |m| (state.iteration + m).min(state.iterations));
        while state.iteration < stop_at {
            tune::round(&games, &mut state, stop_at, &mut |state, result| {
                eprintln!("{}", tune::progress_line(state, result, start.elapsed().as_secs_f64()));
            });
            if let Some(path) = &args.state {
                tune::write_state(path, &state)?;
            }
        }
        if state.iteration < state.iterations {
            eprintln!(
                "stopped after iteration {} of {}; run the same command again to resume",
                state.iteration, state.iterations
            );
        }
    }
    if let Some(path) = &args.out {
        std::fs::write(path, tune::param_file(&state)).map_err(|e| format!("--out {}: {e}", path.display()))?;
    }
    if let Some(path) = &args.svg {
        chart::chart(path, &state.params, &state.history, &state.tc)?;
    }
    print!("{}", tune::summary(&state));
    Ok(())
}
