//! The SPSA tuner of the search's parameters ([`xiangqi_search::params`]) in games, as fishtest tunes Stockfish's:
//! what `xiangqi tune` runs.
//!
//! Each iteration plays one pair of games (one opening, each engine with both colours) between an engine with the
//! tuned parameters at `theta + c_k delta` ("plus") and at `theta - c_k delta` ("minus"), through the match runner
//! ([`crate::run`]; UCI engines with each parameter set as an option), and moves theta by the pair's result
//! ([`spsa`] has the arithmetic and its source). Game pair `k` starts from opening `k % len` of the set followed by
//! `random_plies` quiet moves chosen by `k` ([`crate::openings::for_pair`]). [`round`] plays `concurrency / 2`
//! iterations at once from the same theta (as fishtest's workers do) and applies their updates in order.
//!
//! The run's state ([`State`]: its settings, the iterations done, theta and its history, each pair's result) is a
//! JSON file ([`write_state`], [`read_state`]) from which a stopped run continues; at the end the tuned values
//! (theta rounded) are a parameter file ([`param_file`]) that `xiangqi_search::Params::load` reads.
//!
//! ```
//! use xiangqi_match::tune::{param_file, State};
//! use xiangqi_search::params;
//!
//! let chosen = [params::find("RazorMargin").unwrap()];
//! let state = State::new(&chosen, 1, 1000, params::R_END, "nodes=2000", 2, "engine".to_owned());
//! assert_eq!((state.iteration, state.theta.len(), state.history.len()), (0, 1, 1));
//! let file = param_file(&state);
//! assert!(file.starts_with("# xiangqi tune: 0 of 1000 iterations, nodes=2000, seed 1\n"));
//! assert!(file.contains(&format!("RazorMargin = {}\n", chosen[0].default)));
//! ```

pub mod spsa;

use crate::clock::TimeControl;
use crate::engine::{EngineConfig, Protocol};
use crate::openings::{for_pair, Opening};
use crate::runner::MatchSettings;
use serde::{Deserialize, Serialize};
use spsa::Schedule;
use std::path::{Path, PathBuf};
use std::time::Duration;
use xiangqi_search::params::Param;

/// One tuned parameter as the state file keeps it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Tuned {
    /// The parameter's name ([`xiangqi_search::params::Param::name`]).
    pub name: String,
    /// Its value at the start (its default).
    pub start: f64,
    /// Its smallest value.
    pub min: f64,
    /// Its largest value.
    pub max: f64,
    /// Its step `c_end` at the last iteration.
    pub c_end: f64,
}

/// The state of a run: its settings, how far it got, theta and its history.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct State {
    /// The seed of the perturbations' signs. This and the next four fix the run (a resumed run must have the same).
    pub seed: u64,
    /// Planned iterations.
    pub iterations: u64,
    /// fishtest's `r_end`.
    pub r_end: f64,
    /// The time control, described ([`TimeControl::describe`]).
    pub tc: String,
    /// Quiet moves played after each opening.
    pub random_plies: usize,
    /// The variant both engines play, in its full form (`engine` in a state written before the flag existed).
    #[serde(default = "engine_variant")]
    pub variant: String,
    /// The tuned parameters.
    pub params: Vec<Tuned>,
    /// Iterations done.
    pub iteration: u64,
    /// Theta now, one value per parameter.
    pub theta: Vec<f64>,
    /// Theta at the start and after each iteration.
    pub history: Vec<Vec<f64>>,
    /// Each iteration's result: the plus engine's wins minus its losses in the pair.
    pub results: Vec<i32>,
}

/// The variant of a state file that names none: `engine`, written as the flag's default is.
fn engine_variant() -> String {
    "engine".parse::<xiangqi_search::VariantConfig>().map_or_else(|_| "engine".to_owned(), |v| v.to_string())
}

impl State {
    /// The schedule of the `i`-th tuned parameter.
    pub fn schedule(&self, i: usize) -> Schedule {
        let p = &self.params[i];
        Schedule::new(p.min, p.max, p.c_end, self.r_end, self.iterations)
    }

    /// Why a state read from a file cannot continue this run (`None` when it can).
    pub fn differs(&self, fresh: &State) -> Option<String> {
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

impl State {
    /// The state of a fresh run tuning `params` (from their defaults): `iterations` planned, the signs seeded `seed`,
    /// fishtest's `r_end`, the time control `tc` (described), `random_plies` after each opening, both engines
    /// playing `variant` (in its full form).
    pub fn new(
        params: &[&Param],
        seed: u64,
        iterations: u64,
        r_end: f64,
        tc: &str,
        random_plies: usize,
        variant: String,
    ) -> State {
        let params: Vec<Tuned> = params
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
        State {
            seed,
            iterations,
            r_end,
            tc: tc.to_owned(),
            random_plies,
            variant,
            params,
            iteration: 0,
            history: vec![theta.clone()],
            theta,
            results: Vec::new(),
        }
    }
}

/// How the games of a tuning run are played.
#[derive(Debug, Clone, Copy)]
pub struct Games<'a> {
    /// The engine's program (a UCI engine with each tuned parameter as an option, and `Variant`).
    pub program: &'a str,
    /// Its transposition table in MB.
    pub hash: usize,
    /// Games at the same time: `concurrency / 2` iterations at once (at least one), each pair's two games side by
    /// side.
    pub concurrency: usize,
    /// The time of a move.
    pub tc: TimeControl,
    /// The opening set.
    pub openings: &'a [Opening],
}

/// Reads the state file at `path`; `Ok(None)` when there is none yet.
///
/// # Errors
/// When the file cannot be read, is no state, or its theta, history and results do not agree.
pub fn read_state(path: &Path) -> Result<Option<State>, String> {
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
///
/// # Errors
/// When the file cannot be written.
pub fn write_state(path: &Path, state: &State) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("--state {}: {e}", path.display());
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let text = serde_json::to_string_pretty(state).map_err(|e| fail(&e))?;
    std::fs::write(&tmp, text + "\n").map_err(|e| fail(&e))?;
    std::fs::rename(&tmp, path).map_err(|e| fail(&e))
}

/// The parameters named in `names` (every parameter of [`xiangqi_search::params::PARAMS`] when none), in the order
/// given; an unknown name or one named twice is an error that starts with the name.
///
/// ```
/// let all = xiangqi_match::tune::chosen(&[]).unwrap();
/// assert_eq!(all.len(), xiangqi_search::params::PARAMS.len());
/// let two = xiangqi_match::tune::chosen(&["RfpMargin".to_owned(), "RazorMargin".to_owned()]).unwrap();
/// assert_eq!((two[0].name, two[1].name), ("RfpMargin", "RazorMargin"));
/// assert!(xiangqi_match::tune::chosen(&["NoSuch".to_owned()]).unwrap_err().starts_with("NoSuch: no such parameter ("));
/// ```
pub fn chosen(names: &[String]) -> Result<Vec<&'static xiangqi_search::params::Param>, String> {
    use xiangqi_search::params::{find, PARAMS};
    if names.is_empty() {
        return Ok(PARAMS.to_vec());
    }
    let mut out: Vec<&'static xiangqi_search::params::Param> = Vec::new();
    for name in names {
        let p = find(name).ok_or_else(|| {
            let known: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
            format!("{name}: no such parameter ({})", known.join(", "))
        })?;
        if out.iter().any(|q| q.name == p.name) {
            return Err(format!("{name}: named twice"));
        }
        out.push(p);
    }
    Ok(out)
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

/// Plays iteration `k`'s pair of games from `state`'s theta; returns the plus engine's wins minus its losses.
pub fn play_pair(games: &Games, state: &State, opening: Opening, k: u64) -> i32 {
    let delta = spsa::deltas(state.seed, k, state.params.len());
    let values = |sign: f64| -> Vec<i64> {
        (0..state.params.len()).map(|i| state.schedule(i).engine_value(state.theta[i], k, delta[i], sign)).collect()
    };
    let engines = vec![
        engine(games.program, "plus", games.hash, state, &values(1.0)),
        engine(games.program, "minus", games.hash, state, &values(-1.0)),
    ];
    let mut settings = MatchSettings::new(engines, games.tc);
    settings.openings = vec![opening];
    settings.games = 2;
    settings.concurrency = games.concurrency.min(2);
    settings.timeout = Duration::from_secs(60);
    settings.event = format!("xiangqi tune: iteration {}", k + 1);
    let summary = crate::run(&settings, |_, _| {});
    summary.first.wins as i32 - summary.first.losses as i32
}

/// Plays one round: the next `concurrency / 2` iterations (at least one, none past `stop_at`) at once from the same
/// theta, then applies their updates in order, calling `on_iteration(state, result)` after each.
pub fn round(games: &Games, state: &mut State, stop_at: u64, on_iteration: &mut dyn FnMut(&State, i32)) {
    let per_round = (games.concurrency / 2).max(1) as u64;
    let first = state.iteration;
    let count = per_round.min(stop_at.saturating_sub(first));
    let results: Vec<i32> = std::thread::scope(|scope| {
        let handles: Vec<_> = (first..first + count)
            .map(|k| {
                let opening = for_pair(games.openings, k as usize, state.random_plies);
                let state = &*state;
                scope.spawn(move || play_pair(games, state, opening, k))
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
        on_iteration(state, result);
    }
}

/// One line of progress: the iteration, the pair's result, the time, and theta.
pub fn progress_line(state: &State, result: i32, seconds: f64) -> String {
    let theta: Vec<String> = state.params.iter().zip(&state.theta).map(|(p, t)| format!("{} {t:.1}", p.name)).collect();
    format!("iteration {}/{}: pair {result:+}, {seconds:.0} s; {}", state.iteration, state.iterations, theta.join(", "))
}

/// The tuned values as a parameter file: a comment naming the run, then `name = value` (theta rounded).
pub fn param_file(state: &State) -> String {
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
pub fn summary(state: &State) -> String {
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
