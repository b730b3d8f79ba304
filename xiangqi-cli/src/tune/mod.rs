//! `xiangqi tune`: the search's tunable parameters ([`xiangqi_search::params`]) tuned by SPSA in games, as fishtest
//! tunes Stockfish's.
//!
//! ```text
//! xiangqi tune --params RazorMargin,RfpMargin --iterations 2000 --nodes 5000 --concurrency 2 \
//!              --state tune.json --out tuned.params --svg tune.svg
//! ```
//!
//! Each iteration plays one pair of games (one opening, each engine with both colours) between this binary with
//! the tuned parameters at `theta + c_k delta` ("plus") and at `theta - c_k delta` ("minus"), through the match
//! runner of `xiangqi-match` (UCI engines with each parameter set as an option), at `--nodes` or `--movetime` a
//! move, and moves theta by the pair's result ([`spsa`] has the arithmetic and its source). Game pair `k` starts
//! from opening `k % 12` of the set followed by `--random-plies` quiet moves chosen by `k`, as `xiangqi ablate`'s
//! games do. With `--concurrency N` (at least 2), `N / 2` iterations are played at once from the same theta (as
//! fishtest's workers do), each pair's two games side by side, and their updates applied in order.
//!
//! The run's state (its settings, the iterations done, theta and its history, each pair's result) is a JSON file
//! (`--state`), written after each round of iterations under a temporary name and renamed over the old one; the
//! same command started again reads it and continues where it stopped (a state written by other settings is
//! refused). At the end, or at once with `--report`, the tuned values (theta rounded) are written as a parameter
//! file (`--out`, read by `xiangqi uci --params`, the `ParamFile` option, `search --params` and `bench --params`)
//! and each parameter's path as an SVG chart (`--svg`).

mod chart;
pub(crate) mod spsa;

use crate::{CmdResult, UsageError};
use clap::Args;
use serde::{Deserialize, Serialize};
use spsa::Schedule;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use xiangqi_match::openings::{for_pair, Opening};
use xiangqi_match::{EngineConfig, MatchSettings, Protocol, TimeControl};
use xiangqi_search::options::HASH;
use xiangqi_search::params::{self, Param, R_END};

/// The flags of `xiangqi tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The parameters tuned (comma-separated names, e.g. RazorMargin,RfpMargin; default: every parameter).
    #[arg(long, value_delimiter = ',')]
    params: Vec<String>,
    /// Planned iterations (one game pair each): the gain schedule reaches c_end and r_end at the last.
    #[arg(long, default_value_t = 1000)]
    iterations: u64,
    /// Stop after this many iterations in this run (the next run resumes from --state).
    #[arg(long)]
    max_iterations: Option<u64>,
    /// Nodes a move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Milliseconds a move.
    #[arg(long)]
    movetime: Option<u64>,
    /// Games played at the same time (from 2 on: N/2 iterations at once, each pair's games side by side).
    #[arg(long, default_value_t = 1)]
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
    #[arg(long, default_value_t = 2)]
    random_plies: usize,
    /// Opening file (as `xiangqi match --openings`); default: the built-in set.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// The variant both engines play (see `xiangqi search --list`), e.g. engine+hscale to tune a technique not in
    /// the engine.
    #[arg(long, default_value = "engine")]
    variant: String,
}

/// One tuned parameter as the state file keeps it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
struct Tuned {
    name: String,
    start: f64,
    min: f64,
    max: f64,
    c_end: f64,
}

/// The state of a run: its settings, how far it got, theta and its history.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct State {
    /// The settings that fix the run (a resumed run must have the same).
    seed: u64,
    iterations: u64,
    r_end: f64,
    tc: String,
    random_plies: usize,
    /// The variant both engines play, in its full form (`engine` in a state written before the flag existed).
    #[serde(default = "engine_variant")]
    variant: String,
    params: Vec<Tuned>,
    /// Iterations done.
    iteration: u64,
    /// Theta now, one value per parameter.
    theta: Vec<f64>,
    /// Theta at the start and after each iteration.
    history: Vec<Vec<f64>>,
    /// Each iteration's result: the plus engine's wins minus its losses in the pair.
    results: Vec<i32>,
}

/// The variant of a state file that names none: `engine`, written as the flag's default is.
fn engine_variant() -> String {
    "engine".parse::<xiangqi_search::VariantConfig>().map_or_else(|_| "engine".to_owned(), |v| v.to_string())
}

impl State {
    /// The schedule of the `i`-th tuned parameter.
    fn schedule(&self, i: usize) -> Schedule {
        let p = &self.params[i];
        Schedule::new(p.min, p.max, p.c_end, self.r_end, self.iterations)
    }

    /// Why a state read from a file cannot continue this run (`None` when it can).
    fn differs(&self, fresh: &State) -> Option<String> {
        let names = |s: &State| s.params.iter().map(|p| p.name.clone()).collect::<Vec<_>>().join(",");
        let diffs = [
            ("--seed", self.seed.to_string(), fresh.seed.to_string()),
            ("--iterations", self.iterations.to_string(), fresh.iterations.to_string()),
            ("--r-end", self.r_end.to_string(), fresh.r_end.to_string()),
            ("the time control", self.tc.clone(), fresh.tc.clone()),
            ("--random-plies", self.random_plies.to_string(), fresh.random_plies.to_string()),
            ("--variant", self.variant.clone(), fresh.variant.clone()),
            ("--params", names(self), names(fresh)),
        ];
        diffs.into_iter().find(|(_, a, b)| a != b).map(|(what, a, b)| format!("{what}: the state has {a}, not {b}"))
    }
}

/// The parameters named by `--params` (all when none), checked.
fn chosen(names: &[String]) -> Result<Vec<&'static Param>, String> {
    if names.is_empty() {
        return Ok(params::PARAMS.to_vec());
    }
    let mut out: Vec<&'static Param> = Vec::new();
    for name in names {
        let p = params::find(name).ok_or_else(|| {
            let known: Vec<&str> = params::PARAMS.iter().map(|p| p.name).collect();
            format!("--params {name}: no such parameter ({})", known.join(", "))
        })?;
        if out.iter().any(|q| q.name == p.name) {
            return Err(format!("--params {name}: named twice"));
        }
        out.push(p);
    }
    Ok(out)
}

/// The time control of the flags.
fn time_control(args: &TuneArgs) -> Result<Option<TimeControl>, String> {
    match (args.nodes, args.movetime) {
        (Some(_), Some(_)) => Err("give one of --nodes and --movetime, not both".to_owned()),
        (Some(0), _) => Err("--nodes must be positive".to_owned()),
        (_, Some(ms)) if ms == 0 || ms > 604_800_000 => {
            Err("--movetime must be from 1 to 604800000 ms (one week)".to_owned())
        }
        (Some(n), None) => Ok(Some(TimeControl::Nodes(n))),
        (None, Some(ms)) => Ok(Some(TimeControl::MoveTime(Duration::from_millis(ms)))),
        (None, None) => Ok(None),
    }
}

/// The fresh state of the flags, and the time control of the games (`None` with `--report`).
fn fresh_state(args: &TuneArgs) -> Result<(State, Option<TimeControl>), String> {
    let tuned = chosen(&args.params)?;
    let tc = time_control(args)?;
    if tc.is_none() && !args.report {
        return Err("give --nodes N or --movetime MS (the time of a move), or --report".to_owned());
    }
    if args.report && args.state.is_none() {
        return Err("--report needs --state FILE (the run to report)".to_owned());
    }
    if args.iterations == 0 || args.iterations > 100_000_000 {
        return Err("--iterations must be from 1 to 100000000".to_owned());
    }
    if args.max_iterations == Some(0) {
        return Err("--max-iterations must be positive".to_owned());
    }
    if args.concurrency == 0 || args.concurrency > 256 {
        return Err("--concurrency must be from 1 to 256".to_owned());
    }
    if !(args.r_end.is_finite() && args.r_end > 0.0) {
        return Err(format!("--r-end {}: must be a positive number", args.r_end));
    }
    if args.random_plies > 20 {
        return Err("--random-plies must be from 0 to 20".to_owned());
    }
    let variant = args
        .variant
        .parse::<xiangqi_search::VariantConfig>()
        .map_err(|e| format!("--variant {}: {e}", args.variant))?
        .to_string();
    let params: Vec<Tuned> = tuned
        .iter()
        .map(|p| Tuned {
            name: p.name.to_owned(),
            start: f64::from(p.default),
            min: f64::from(p.min),
            max: f64::from(p.max),
            c_end: p.c_end,
        })
        .collect();
    let theta: Vec<f64> = params.iter().map(|p| p.start).collect();
    let state = State {
        seed: args.seed,
        iterations: args.iterations,
        r_end: args.r_end,
        tc: tc.map_or_else(String::new, |tc| tc.describe()),
        random_plies: args.random_plies,
        variant,
        params,
        iteration: 0,
        history: vec![theta.clone()],
        theta,
        results: Vec::new(),
    };
    Ok((state, tc))
}

/// Reads the state file at `path`; `Ok(None)` when there is none yet.
fn read_state(path: &Path) -> Result<Option<State>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let state: State = serde_json::from_str(&text)
                .map_err(|e| format!("--state {}: not a tune state: {e}", path.display()))?;
            let n = state.params.len();
            let consistent = state.theta.len() == n
                && state.history.iter().all(|h| h.len() == n)
                && state.history.len() as u64 == state.iteration + 1
                && state.results.len() as u64 == state.iteration;
            if !consistent {
                return Err(format!("--state {}: its theta, history and results do not agree", path.display()));
            }
            Ok(Some(state))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("--state {}: {e}", path.display())),
    }
}

/// Writes `state` to `path` atomically: to a temporary file beside it, then renamed over it.
fn write_state(path: &Path, state: &State) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("--state {}: {e}", path.display());
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let text = serde_json::to_string_pretty(state).map_err(|e| fail(&e))?;
    std::fs::write(&tmp, text + "\n").map_err(|e| fail(&e))?;
    std::fs::rename(&tmp, path).map_err(|e| fail(&e))
}

/// This binary as a UCI engine named `name` with the tuned parameters set to `values`.
fn engine(program: &str, name: &str, hash: usize, state: &State, values: &[i64]) -> EngineConfig {
    let mut options = vec![("Hash".to_owned(), hash.to_string()), ("Variant".to_owned(), state.variant.clone())];
    options.extend(state.params.iter().zip(values).map(|(p, v)| (p.name.clone(), v.to_string())));
    EngineConfig {
        name: name.to_owned(),
        program: program.to_owned(),
        args: Vec::new(),
        dir: None,
        protocol: Protocol::Uci,
        options,
    }
}

/// Plays iteration `k`'s pair of games from `theta`; returns the plus engine's wins minus its losses.
fn play_pair(program: &str, args: &TuneArgs, state: &State, tc: TimeControl, opening: Opening, k: u64) -> i32 {
    let delta = spsa::deltas(state.seed, k, state.params.len());
    let values = |sign: f64| -> Vec<i64> {
        (0..state.params.len()).map(|i| state.schedule(i).engine_value(state.theta[i], k, delta[i], sign)).collect()
    };
    let engines = vec![
        engine(program, "plus", args.hash, state, &values(1.0)),
        engine(program, "minus", args.hash, state, &values(-1.0)),
    ];
    let mut settings = MatchSettings::new(engines, tc);
    settings.openings = vec![opening];
    settings.games = 2;
    settings.concurrency = args.concurrency.min(2);
    settings.timeout = Duration::from_secs(60);
    settings.event = format!("xiangqi tune: iteration {}", k + 1);
    let summary = xiangqi_match::run(&settings, |_, _| {});
    summary.first.wins as i32 - summary.first.losses as i32
}

/// Runs `xiangqi tune`.
pub fn run(args: &TuneArgs) -> CmdResult {
    let (fresh, tc) = fresh_state(args).map_err(UsageError::new)?;
    let mut state = match args.state.as_deref().map(read_state).transpose()?.flatten() {
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
        let openings = crate::matches::read_openings(args.openings.as_deref())?;
        let program =
            std::env::current_exe().map_err(|e| format!("cannot find this program to run as the engines: {e}"))?;
        let program = program.to_string_lossy().into_owned();
        let start = Instant::now();
        let per_round = (args.concurrency / 2).max(1) as u64;
        let stop_at = args.max_iterations.map_or(state.iterations, |m| (state.iteration + m).min(state.iterations));
        while state.iteration < stop_at {
            let first = state.iteration;
            let count = per_round.min(stop_at - first);
            // A round's iterations all start from the same theta, as fishtest's workers do.
            let results: Vec<i32> = std::thread::scope(|scope| {
                let handles: Vec<_> = (first..first + count)
                    .map(|k| {
                        let opening = for_pair(&openings, k as usize, state.random_plies);
                        let (program, state) = (&program, &state);
                        scope.spawn(move || play_pair(program, args, state, tc, opening, k))
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or(0)).collect()
            });
            for (k, result) in (first..first + count).zip(results) {
                let delta = spsa::deltas(state.seed, k, state.params.len());
                state.theta = (0..state.params.len())
                    .map(|i| state.schedule(i).update(state.theta[i], k, delta[i], f64::from(result)))
                    .collect();
                state.history.push(state.theta.clone());
                state.results.push(result);
                state.iteration = k + 1;
                eprintln!("{}", progress_line(&state, result, start.elapsed().as_secs_f64()));
            }
            if let Some(path) = &args.state {
                write_state(path, &state)?;
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
        std::fs::write(path, param_file(&state)).map_err(|e| format!("--out {}: {e}", path.display()))?;
    }
    if let Some(path) = &args.svg {
        chart::chart(path, &state.params, &state.history, &state.tc)?;
    }
    print!("{}", summary(&state));
    Ok(())
}

/// One line of progress: the iteration, the pair's result, the time, and theta.
fn progress_line(state: &State, result: i32, seconds: f64) -> String {
    let theta: Vec<String> = state.params.iter().zip(&state.theta).map(|(p, t)| format!("{} {t:.1}", p.name)).collect();
    format!("iteration {}/{}: pair {result:+}, {seconds:.0} s; {}", state.iteration, state.iterations, theta.join(", "))
}

/// The tuned values as a parameter file: a comment naming the run, then `name = value` (theta rounded).
fn param_file(state: &State) -> String {
    let mut out = format!(
        "# xiangqi tune: {} of {} iterations, {}, seed {}\n",
        state.iteration, state.iterations, state.tc, state.seed
    );
    for (p, t) in state.params.iter().zip(&state.theta) {
        out.push_str(&format!("{} = {}\n", p.name, t.round() as i64));
    }
    out
}

/// The table printed at the end: each parameter's start, theta and range.
fn summary(state: &State) -> String {
    let mut out = format!("iterations {} of {} ({})\n", state.iteration, state.iterations, state.tc);
    let wins = state.results.iter().filter(|&&r| r > 0).count();
    let losses = state.results.iter().filter(|&&r| r < 0).count();
    out.push_str(&format!(
        "pairs won by plus {wins}, by minus {losses}, even {}\n",
        state.results.len() - wins - losses
    ));
    let width = state.params.iter().map(|p| p.name.len()).max().unwrap_or(4).max(9);
    out.push_str(&format!("{:<width$} {:>8} {:>10} {:>8} {:>8}\n", "parameter", "start", "theta", "min", "max"));
    for (p, t) in state.params.iter().zip(&state.theta) {
        out.push_str(&format!("{:<width$} {:>8} {:>10.2} {:>8} {:>8}\n", p.name, p.start, t, p.min, p.max));
    }
    out
}
