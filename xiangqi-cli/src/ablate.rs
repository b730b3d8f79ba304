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
//!   opening `k % 12` of the built-in set followed by `--random-plies` quiet moves chosen by `k`: engines at a fixed
//!   node count are deterministic, so without them each opening and colour would be one game repeated), at `--nodes N` or
//!   `--movetime MS` a move, played by the match runner ([`crate::matches::runner`]) with this binary as both
//!   engines (`option.Variant=...`), `--concurrency` games at a time. The Elo is the technique's worth: the side
//!   with it over the side without it, from colour-reversed pairs (pentanomial), with its 95% error bar; an SPRT
//!   (`--sprt elo0=.. elo1=..`) tests that same figure and stops the pairing when it decides.
//!
//! Games are played in batches of `--batch` (even: whole pairs), one batch of each pairing in turn, so every
//! pairing's figures grow together. After each batch a line is appended to the `--out` file (JSON lines): the two
//! variants, the time control, the games' first index and their scores. A run started again with the same file
//! reads it, continues each pairing at the next game (the next opening) and never plays a game twice.

use crate::chart::thousands;
use crate::matches::elo::{self, Pentanomial, Sprt, SprtState, Trinomial};
use crate::matches::engine::{EngineConfig, EngineProcess, Protocol};
use crate::matches::openings::{self, Opening};
use crate::matches::runner::{self, MatchSettings, TimeControl};
use crate::CmdResult;
use clap::Args;
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use xiangqi_search::VariantSpec;

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
    #[arg(long, default_value_t = 7)]
    depth: u32,
    /// Transposition table of the node part and of the engines in the games, in MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Nodes a move in the games.
    #[arg(long)]
    nodes: Option<u64>,
    /// Milliseconds a move in the games.
    #[arg(long)]
    movetime: Option<u64>,
    /// Games per pairing (even: each opening with both colours); 0 plays none.
    #[arg(long, default_value_t = 0)]
    games: usize,
    /// Stop a pairing when an SPRT on the technique's Elo decides: elo0=ELO elo1=ELO [alpha=0.05] [beta=0.05].
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Games per batch (even); the results file gets one line per batch.
    #[arg(long, default_value_t = 24)]
    batch: usize,
    /// Results file (JSON lines), appended to after each batch and read again to resume.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Stop after this many batches in this run (the next run resumes from --out).
    #[arg(long)]
    max_batches: Option<usize>,
    /// Quiet moves (no capture, no check) played after each opening, chosen by the game pair's number, so that the
    /// games differ: engines at a fixed node count are deterministic, and each opening with each colour would
    /// otherwise be one game played again and again. 0 plays the openings as they are.
    #[arg(long, default_value_t = 2)]
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

/// One technique's comparison: the variant with it against the variant without it.
#[derive(Debug, Clone)]
struct Pairing {
    technique: String,
    with: VariantSpec,
    without: VariantSpec,
}

/// The games of one pairing so far.
#[derive(Debug, Clone, Default)]
struct Tally {
    /// Game scores of the side with the technique, by game index ('1', '=', '0'; '-' not played).
    scores: Vec<u8>,
    /// Games ended by each reason.
    reasons: BTreeMap<String, u64>,
    /// Batches read from the file or played.
    batches: usize,
}

impl Tally {
    /// Games played: the first index not played yet (batches are contiguous).
    fn games(&self) -> usize {
        self.scores.iter().filter(|&&c| c != b'-').count()
    }

    fn trinomial(&self) -> Trinomial {
        let mut t = Trinomial::default();
        for &c in &self.scores {
            match c {
                b'1' => t.wins += 1,
                b'=' => t.draws += 1,
                b'0' => t.losses += 1,
                _ => {}
            }
        }
        t
    }

    fn pentanomial(&self) -> Pentanomial {
        let mut p = Pentanomial::default();
        let value = |c: u8| match c {
            b'1' => Some(1.0),
            b'=' => Some(0.5),
            b'0' => Some(0.0),
            _ => None,
        };
        for pair in self.scores.chunks(2) {
            if let [a, b] = pair {
                if let (Some(a), Some(b)) = (value(*a), value(*b)) {
                    p.add(a, b);
                }
            }
        }
        p
    }

    /// Elo and 95% error of the side with the technique, pair by pair (NaN without a pair).
    fn elo(&self) -> (f64, f64) {
        let p = self.pentanomial();
        if p.pairs() == 0 {
            (f64::NAN, f64::NAN)
        } else {
            p.elo()
        }
    }

    /// Records the scores of games `first..first + scores.len()`; an error when one was recorded before.
    fn record(&mut self, first: usize, scores: &[u8]) -> Result<(), String> {
        if self.scores.len() < first + scores.len() {
            self.scores.resize(first + scores.len(), b'-');
        }
        for (i, &c) in scores.iter().enumerate() {
            if !matches!(c, b'1' | b'=' | b'0') {
                return Err(format!("game {}: score {:?} is not 1, = or 0", first + i, c as char));
            }
            if self.scores[first + i] != b'-' {
                return Err(format!("game {} is recorded twice", first + i));
            }
            self.scores[first + i] = c;
        }
        Ok(())
    }
}

/// The node part of one variant.
#[derive(Debug, Clone)]
struct Nodes {
    per_position: Vec<u64>,
    total: u64,
    seconds: f64,
}

/// Checked settings.
struct Plan {
    base: VariantSpec,
    pairings: Vec<Pairing>,
    tc: Option<TimeControl>,
    sprt: Option<Sprt>,
    openings: Vec<Opening>,
    random_plies: usize,
}

/// The pairings of an ablation (each technique of `base` taken away) or a build-up (each technique it lacks added).
fn pairings(base: &VariantSpec, build_up: bool, only: &[String]) -> Result<Vec<Pairing>, String> {
    let all: Vec<&str> = "engine".parse::<VariantSpec>().expect("engine parses").techniques();
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
fn plan(args: &AblateArgs) -> Result<Plan, String> {
    let base_text =
        args.base.clone().unwrap_or_else(|| if args.build_up { "negamax-ab+order" } else { "engine" }.into());
    let base: VariantSpec = base_text.parse().map_err(|e: xiangqi_search::VariantError| format!("--base: {e}"))?;
    let pairings = pairings(&base, args.build_up, &args.only)?;
    if args.depth > 40 {
        return Err("--depth must be from 0 to 40".to_owned());
    }
    if !(1..=32_768).contains(&args.hash) {
        return Err("--hash must be from 1 to 32768".to_owned());
    }
    let tc = match (args.nodes, args.movetime) {
        (Some(_), Some(_)) => return Err("give one of --nodes and --movetime, not both".to_owned()),
        (Some(0), _) => return Err("--nodes must be positive".to_owned()),
        (_, Some(ms)) if ms == 0 || ms > 604_800_000 => {
            return Err("--movetime must be from 1 to 604800000 ms (one week)".to_owned())
        }
        (Some(n), None) => Some(TimeControl::Nodes(n)),
        (None, Some(ms)) => Some(TimeControl::MoveTime(Duration::from_millis(ms))),
        (None, None) => None,
    };
    if args.games > 0 && tc.is_none() {
        return Err("--games needs --nodes N or --movetime MS (the time of a move)".to_owned());
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
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    if sprt.is_some() && args.games == 0 {
        return Err("--sprt needs --games (the most games a pairing may play)".to_owned());
    }
    let openings = match &args.openings {
        Some(path) => openings::read(path)?,
        None => openings::builtin(),
    };
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

/// The key of a pairing in the results file: both variants, the time control and the openings' random plies.
fn key(p: &Pairing, tc: &TimeControl, plies: usize) -> (String, String, String, u64) {
    (p.with.to_string(), p.without.to_string(), tc.to_string(), plies as u64)
}

/// Reads the results file (if it exists) into one tally per pairing; lines of other pairings or time controls are
/// kept but not counted.
fn resume(path: &Path, plan: &Plan, tc: &TimeControl) -> Result<Vec<Tally>, String> {
    let mut tallies = vec![Tally::default(); plan.pairings.len()];
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(tallies),
        Err(e) => return Err(format!("--out {}: {e}", path.display())),
    };
    let lines: Vec<String> = std::io::BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--out {}: {e}", path.display()))?;
    let last = lines.len();
    for (n, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |why: &str| format!("--out {} line {}: {why}", path.display(), n + 1);
        let v: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            // A line cut short by a stop during the write: its games are played again.
            Err(_) if n + 1 == last => {
                eprintln!("warning: {}", bad("unfinished last line skipped (its batch is played again)"));
                continue;
            }
            Err(e) => return Err(bad(&format!("not JSON ({e})"))),
        };
        let text = |k: &str| v[k].as_str().map(str::to_owned).ok_or_else(|| bad(&format!("no {k:?}")));
        let found = (text("with")?, text("without")?, text("tc")?, v["random_plies"].as_u64().unwrap_or(0));
        let Some(i) = plan.pairings.iter().position(|p| key(p, tc, plan.random_plies) == found) else {
            continue;
        };
        let first = v["first"].as_u64().ok_or_else(|| bad("no \"first\""))? as usize;
        let scores = text("scores")?;
        tallies[i].record(first, scores.as_bytes()).map_err(|e| bad(&e))?;
        if let Some(reasons) = v["reasons"].as_object() {
            for (r, c) in reasons {
                *tallies[i].reasons.entry(r.clone()).or_default() += c.as_u64().unwrap_or(0);
            }
        }
        tallies[i].batches += 1;
    }
    for (t, p) in tallies.iter().zip(&plan.pairings) {
        if t.scores.contains(&b'-') {
            return Err(format!(
                "--out {}: the games of {} have a gap (the file was edited?)",
                path.display(),
                p.technique
            ));
        }
    }
    Ok(tallies)
}

/// A variant's name for the table: `engine+no-lmr` rather than the canonical `negamax-ab+pvs+nmp+qs+order+engine+no-lmr`.
fn short(spec: &VariantSpec) -> String {
    if !spec.is_engine() {
        return spec.to_string();
    }
    let have = spec.techniques();
    let engine: VariantSpec = "engine".parse().expect("engine parses");
    let mut name = "engine".to_owned();
    for t in engine.techniques().into_iter().filter(|t| !have.contains(t)) {
        name.push_str("+no-");
        name.push_str(t);
    }
    name
}

/// The engine for a variant: this binary speaking UCI with the variant and table size set.
fn engine(program: &str, spec: &VariantSpec, hash: usize) -> EngineConfig {
    EngineConfig {
        name: spec.to_string(),
        program: program.to_owned(),
        args: Vec::new(),
        dir: None,
        protocol: Protocol::Uci,
        options: vec![("Hash".to_owned(), hash.to_string()), ("Variant".to_owned(), spec.to_string())],
    }
}

/// Plays games `first..first + count` of a pairing; returns the scores of the side with the technique, by game,
/// and the reasons the games ended.
fn play_batch(
    program: &str,
    plan: &Plan,
    p: &Pairing,
    tc: TimeControl,
    args: &AblateArgs,
    first: usize,
    count: usize,
) -> (Vec<u8>, BTreeMap<String, u64>) {
    // Game `first + i` is game `i` of this batch's match, which the schedule gives the opening `i / 2`: the
    // opening of the game pair `(first + i) / 2`.
    let openings: Vec<Opening> = (first / 2..(first + count).div_ceil(2))
        .map(|pair| pair_opening(&plan.openings, pair, plan.random_plies))
        .collect();
    let engines = vec![engine(program, &p.with, args.hash), engine(program, &p.without, args.hash)];
    let settings = MatchSettings {
        engines,
        tc,
        openings,
        games: count,
        concurrency: args.concurrency.min(count),
        resign: None,
        draw: None,
        sprt: None,
        margin: Duration::from_millis(100),
        timeout: Duration::from_secs(60),
        event: format!("xiangqi ablate: {} with and without {}", short(&plan.base), p.technique),
    };
    let mut scores = vec![b'-'; count];
    let mut reasons = BTreeMap::new();
    let with_name = p.with.to_string();
    runner::run(&settings, |record, _| {
        let i = record.round - 1;
        let with_red = record.red == with_name;
        scores[i] = match record.winner {
            None => b'=',
            Some(c) if (c == xiangqi_core::Color::Red) == with_red => b'1',
            Some(_) => b'0',
        };
        *reasons.entry(record.reason.clone()).or_insert(0) += 1;
    });
    (scores, reasons)
}

/// SplitMix64's output function: a well-spread 64-bit value for each input.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The opening of game pair `pair`: the set's opening `pair % len`, then `plies` quiet moves (no capture, no
/// check, none that ends the game) chosen by `pair`. The same pair always gets the same opening.
fn pair_opening(set: &[Opening], pair: usize, plies: usize) -> Opening {
    let base = &set[pair % set.len()];
    let mut game = base.game();
    let mut moves = base.moves.clone();
    for ply in 0..plies {
        let pos = game.position().clone();
        let quiet: Vec<xiangqi_core::Move> = xiangqi_movegen::legal_moves(&pos)
            .iter()
            .copied()
            .filter(|&m| pos.piece_at(m.to()).is_none() && !pos.gives_check(m))
            .collect();
        let start = mix(((pair as u64) << 8) ^ ply as u64) as usize;
        let next = (0..quiet.len()).map(|k| quiet[(start + k) % quiet.len()]).find_map(|m| {
            let mut after = game.clone();
            let text = m.to_string();
            (after.play(&text).is_ok() && after.result().is_none()).then_some((after, text))
        });
        let Some((after, text)) = next else { break };
        game = after;
        moves.push(text);
    }
    Opening { fen: base.fen.clone(), moves }
}

/// The node part: each distinct variant searched on the bench positions.
fn node_part(plan: &Plan, depth: u32, hash: usize) -> Result<BTreeMap<String, Nodes>, String> {
    let mut out = BTreeMap::new();
    let specs = std::iter::once(plan.base).chain(plan.pairings.iter().flat_map(|p| [p.with, p.without]));
    for spec in specs {
        let name = spec.to_string();
        if out.contains_key(&name) {
            continue;
        }
        let r = xiangqi_search::bench::bench(&spec, depth, hash, 1, xiangqi_eval::EngineEval::new)
            .map_err(|e| e.to_string())?;
        eprintln!("nodes at depth {depth}: {}: {} in {:.2} s", short(&spec), r.total, r.elapsed.as_secs_f64());
        out.insert(name, Nodes { per_position: r.nodes, total: r.total, seconds: r.elapsed.as_secs_f64() });
    }
    Ok(out)
}

/// One line of the final table.
struct Row<'a> {
    p: &'a Pairing,
    tally: &'a Tally,
    nodes: Option<(&'a Nodes, &'a Nodes)>,
    sprt: Option<(f64, SprtState)>,
}

impl Row<'_> {
    /// Nodes without the technique over nodes with it: how many times more nodes its absence costs.
    fn saving(&self) -> Option<f64> {
        self.nodes.map(|(with, without)| without.total as f64 / with.total.max(1) as f64)
    }

    /// The variant that differs from the base.
    fn variant(&self, base: &VariantSpec) -> VariantSpec {
        if self.p.with == *base {
            self.p.without
        } else {
            self.p.with
        }
    }

    /// What the figures say.
    fn verdict(&self) -> &'static str {
        let (elo, err) = self.tally.elo();
        match self.sprt {
            Some((_, SprtState::AcceptH1)) => return "SPRT: H1",
            Some((_, SprtState::AcceptH0)) => return "SPRT: H0",
            _ => {}
        }
        let sign = |x: f64| if x > 0.0 { "helps" } else { "hurts" };
        if elo.is_nan() {
            "no games"
        } else if err.is_nan() {
            // Every pair won (or every one lost).
            sign(elo)
        } else if err.is_infinite() {
            // The interval reaches a score of 0 or 1: whether it holds 0.5 decides.
            let (lo, hi) = score_interval(&self.tally.pentanomial());
            if lo > 0.5 || hi < 0.5 {
                sign(elo)
            } else {
                "within error"
            }
        } else if elo.abs() > err {
            sign(elo)
        } else {
            "within error"
        }
    }
}

/// The 95% interval of the score per game, pair by pair (the interval the Elo error bar is drawn from).
fn score_interval(p: &Pentanomial) -> (f64, f64) {
    let n = p.pairs() as f64;
    let values = [0.0, 0.25, 0.5, 0.75, 1.0];
    let mean = p.counts.iter().zip(values).map(|(&c, x)| c as f64 * x).sum::<f64>() / n;
    let var = p.counts.iter().zip(values).map(|(&c, x)| c as f64 * (x - mean).powi(2)).sum::<f64>() / n;
    let half = elo::Z95 * (var / n).sqrt();
    (mean - half, mean + half)
}

/// Runs `xiangqi ablate`.
pub fn run(args: &AblateArgs) -> CmdResult {
    let plan = plan(args)?;
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
        for p in &plan.pairings {
            for spec in [p.with, p.without] {
                let e = EngineProcess::start(&engine(&program, &spec, args.hash), Duration::from_secs(60))
                    .map_err(|e| format!("engine {spec}: {e}"))?;
                e.quit();
            }
        }
        let resumed: usize = tallies.iter().map(Tally::games).sum();
        if resumed > 0 {
            eprintln!("resuming: {resumed} games read from the results file");
        }
    }
    let nodes = if args.depth > 0 { Some(node_part(&plan, args.depth, args.hash)?) } else { None };
    let sprt_of = |t: &Tally| {
        plan.sprt.map(|s| {
            let llr = t.pentanomial().llr(s.elo0, s.elo1);
            (llr, s.state(llr))
        })
    };
    let mut stopped = false;
    if let Some(tc) = plan.tc {
        let mut batches = 0usize;
        'rounds: loop {
            let mut played = false;
            for (p, tally) in plan.pairings.iter().zip(tallies.iter_mut()) {
                let first = tally.games();
                let count = args.batch.min(args.games.saturating_sub(first));
                let decided = sprt_of(tally).is_some_and(|(_, s)| s != SprtState::Continue);
                if count == 0 || decided {
                    continue;
                }
                if args.max_batches.is_some_and(|m| batches >= m) {
                    stopped = true;
                    break 'rounds;
                }
                let (scores, reasons) = play_batch(&program, &plan, p, tc, args, first, count);
                if let Some(f) = out_file.as_mut() {
                    let line = serde_json::json!({
                        "base": plan.base.to_string(), "technique": p.technique, "with": p.with.to_string(),
                        "without": p.without.to_string(), "tc": tc.to_string(), "random_plies": plan.random_plies,
                        "first": first,
                        "scores": String::from_utf8_lossy(&scores), "reasons": reasons,
                    });
                    f.write_all(format!("{line}\n").as_bytes()).and_then(|_| f.flush())?;
                }
                tally.record(first, &scores)?;
                for (r, c) in reasons {
                    *tally.reasons.entry(r).or_default() += c;
                }
                tally.batches += 1;
                batches += 1;
                played = true;
                let t = tally.trinomial();
                let (e, err) = tally.elo();
                let mut line = format!(
                    "[{:>6.0} s] {:<18} {:>5}/{} games: Elo {} (W {} D {} L {})",
                    start.elapsed().as_secs_f64(),
                    p.technique,
                    tally.games(),
                    args.games,
                    elo::format_elo(e, err),
                    t.wins,
                    t.draws,
                    t.losses
                );
                if let Some((llr, state)) = sprt_of(tally) {
                    line.push_str(&format!(", LLR {llr:.2}"));
                    if state != SprtState::Continue {
                        line.push_str(&format!(" {state} accepted"));
                    }
                }
                eprintln!("{line}");
            }
            if !played {
                break;
            }
        }
        if stopped {
            eprintln!("stopped after {batches} batches; run the same command again to resume");
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
            sprt: sprt_of(tally),
        })
        .collect();
    let elapsed = start.elapsed().as_secs_f64();
    if let Some(path) = &args.svg {
        chart(path, &plan, &rows, args)?;
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", json(&plan, &rows, nodes.as_ref(), args, elapsed))?;
    } else {
        table(&mut out, &plan, &rows, nodes.as_ref(), args, elapsed)?;
    }
    Ok(())
}

/// A number for JSON: `null` unless finite.
fn number(x: f64) -> serde_json::Value {
    if x.is_finite() {
        serde_json::json!(x + 0.0)
    } else {
        serde_json::Value::Null
    }
}

fn json(
    plan: &Plan,
    rows: &[Row],
    nodes: Option<&BTreeMap<String, Nodes>>,
    args: &AblateArgs,
    elapsed: f64,
) -> serde_json::Value {
    let base_nodes = nodes.map(|n| &n[&plan.base.to_string()]);
    serde_json::json!({
        "base": plan.base.to_string(),
        "mode": if args.build_up { "build-up" } else { "ablation" },
        "depth": args.depth,
        "time_control": plan.tc.map(|tc| tc.to_string()),
        "games_per_pairing": args.games,
        "seconds": elapsed,
        "base_nodes": base_nodes.map(|n| n.total),
        "base_positions": base_nodes.map(|n| n.per_position.clone()),
        "rows": rows.iter().map(|r| {
            let t = r.tally.trinomial();
            let (e, err) = r.tally.elo();
            let variant = r.variant(&plan.base);
            let vn = nodes.map(|n| &n[&variant.to_string()]);
            serde_json::json!({
                "technique": r.p.technique,
                "with": r.p.with.to_string(),
                "without": r.p.without.to_string(),
                "variant": short(&variant),
                "nodes": vn.map(|n| n.total),
                "positions": vn.map(|n| n.per_position.clone()),
                "seconds": vn.map(|n| n.seconds),
                "node_ratio": match (vn, base_nodes) {
                    (Some(v), Some(b)) => number(v.total as f64 / b.total.max(1) as f64),
                    _ => serde_json::Value::Null,
                },
                "nodes_with": r.nodes.map(|(w, _)| w.total),
                "nodes_without": r.nodes.map(|(_, wo)| wo.total),
                "games": r.tally.games(),
                "wins": t.wins, "draws": t.draws, "losses": t.losses,
                "pentanomial": r.tally.pentanomial().counts,
                "elo": number(e), "elo_error": number(err),
                "reasons": r.tally.reasons,
                "sprt": r.sprt.map(|(llr, s)| serde_json::json!({"llr": number(llr), "state": s.to_string()})),
                "verdict": r.verdict(),
            })
        }).collect::<Vec<_>>(),
    })
}

fn table(
    out: &mut impl Write,
    plan: &Plan,
    rows: &[Row],
    nodes: Option<&BTreeMap<String, Nodes>>,
    args: &AblateArgs,
    elapsed: f64,
) -> std::io::Result<()> {
    let mode = if args.build_up { "added alone to" } else { "taken alone from" };
    writeln!(out, "Techniques {mode} {}", short(&plan.base))?;
    let base_nodes = nodes.map(|n| &n[&plan.base.to_string()]);
    if let Some(b) = base_nodes {
        writeln!(
            out,
            "Nodes: the {} bench positions to depth {}, one thread, Hash {} MB; {}: {} nodes in {:.2} s",
            b.per_position.len(),
            args.depth,
            args.hash,
            short(&plan.base),
            thousands(b.total),
            b.seconds
        )?;
    }
    if let Some(tc) = plan.tc {
        writeln!(
            out,
            "Elo: the side with the technique over the side without it, {}, {} openings with both colours, 95% \
             error bars by game pairs",
            tc.describe(),
            plan.openings.len()
        )?;
    }
    writeln!(
        out,
        "{:<16} {:<32} {:>12} {:>8} {:>8} {:>16} {:>6} {:>14}  verdict",
        "technique", "variant", "nodes", "ratio", "time", "Elo", "games", "W/D/L"
    )?;
    for r in rows {
        let variant = r.variant(&plan.base);
        let vn = nodes.map(|n| &n[&variant.to_string()]);
        let t = r.tally.trinomial();
        let (e, err) = r.tally.elo();
        writeln!(
            out,
            "{:<16} {:<32} {:>12} {:>8} {:>8} {:>16} {:>6} {:>14}  {}",
            r.p.technique,
            short(&variant),
            vn.map_or("-".to_owned(), |n| thousands(n.total)),
            match (vn, base_nodes) {
                (Some(v), Some(b)) => format!("{:.3}", v.total as f64 / b.total.max(1) as f64),
                _ => "-".to_owned(),
            },
            vn.map_or("-".to_owned(), |n| format!("{:.2} s", n.seconds)),
            elo::format_elo(e, err),
            r.tally.games(),
            format!("{}/{}/{}", t.wins, t.draws, t.losses),
            r.verdict()
        )?;
    }
    writeln!(out, "Took {elapsed:.0} s")?;
    Ok(())
}

/// The chart: per technique, the Elo with its error bar (left axis) and the node factor its absence costs (nodes
/// without it over nodes with it, log scale, right axis).
fn chart(path: &Path, plan: &Plan, rows: &[Row], args: &AblateArgs) -> CmdResult {
    use plotters::prelude::*;
    let fail = |e: &dyn std::fmt::Display| format!("--svg {}: {e}", path.display());
    let n = rows.len();
    let elo: Vec<(f64, f64)> = rows.iter().map(|r| r.tally.elo()).collect();
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let top = elo.iter().map(|&(e, err)| finite(e).abs() + finite(err)).fold(50.0f64, f64::max) * 1.1;
    let savings: Vec<f64> = rows.iter().map(|r| r.saving().unwrap_or(1.0)).collect();
    // A log axis symmetric about 1, so that a factor of 1 (no saving) is level with 0 Elo.
    // Drawn as log2 of the factor on a linear axis (plotters labels no log axis below 1).
    let smax = (savings.iter().map(|s| s.max(1.0 / s)).fold(2.0f64, f64::max) * 1.3).log2();
    let root = SVGBackend::new(path, (1200, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mode = if args.build_up { "added alone to" } else { "taken alone from" };
    let tc = plan.tc.map_or("no games".to_owned(), |tc| tc.describe());
    let caption = format!("Techniques {mode} {}: Elo ({tc}) and nodes (depth {})", short(&plan.base), args.depth);
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 18))
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .right_y_label_area_size(70)
        .build_cartesian_2d(-0.5..n as f64 - 0.5, -top..top)
        .map_err(|e| fail(&e))?
        .set_secondary_coord(-0.5..n as f64 - 0.5, -smax..smax);
    let names: Vec<String> = rows.iter().map(|r| r.p.technique.clone()).collect();
    let label = move |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
            names[i as usize].clone()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n * 2 + 1)
        .x_label_formatter(&label)
        .x_label_style(("sans-serif", 12))
        .y_desc("Elo with the technique over without it (95% error bar)")
        .draw()
        .map_err(|e| fail(&e))?;
    chart
        .configure_secondary_axes()
        .y_desc("nodes without / nodes with (log)")
        .y_labels(16)
        .y_label_formatter(&|y: &f64| {
            let factor = y.exp2();
            if factor >= 10.0 {
                format!("{factor:.0}")
            } else if factor >= 1.0 {
                format!("{factor:.1}")
            } else {
                format!("{factor:.2}")
            }
        })
        .label_style(("sans-serif", 12))
        .draw()
        .map_err(|e| fail(&e))?;
    chart
        .draw_series(std::iter::once(PathElement::new(vec![(-0.5, 0.0), (n as f64 - 0.5, 0.0)], BLACK.mix(0.6))))
        .map_err(|e| fail(&e))?;
    let blue = RGBColor(40, 90, 170);
    chart
        .draw_series(
            elo.iter().enumerate().filter(|(_, (e, _))| e.is_finite()).map(|(i, &(e, _))| {
                Rectangle::new([(i as f64 - 0.3, 0.0), (i as f64 + 0.05, e)], blue.mix(0.7).filled())
            }),
        )
        .map_err(|e| fail(&e))?
        .label("Elo")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], blue.mix(0.7).filled()));
    chart
        .draw_series(elo.iter().enumerate().filter(|(_, (e, err))| e.is_finite() && err.is_finite()).flat_map(
            |(i, &(e, err))| {
                // A vertical bar from e - err to e + err with a cap at each end.
                let (x, w) = (i as f64 - 0.125, 0.08);
                [
                    vec![(x, e - err), (x, e + err)],
                    vec![(x - w, e - err), (x + w, e - err)],
                    vec![(x - w, e + err), (x + w, e + err)],
                ]
                .map(|points| PathElement::new(points, BLACK.stroke_width(2)))
            },
        ))
        .map_err(|e| fail(&e))?;
    // Each Elo written beyond the end of its error bar.
    chart
        .draw_series(elo.iter().enumerate().filter(|(_, (e, _))| e.is_finite()).map(|(i, &(e, err))| {
            let reach = if err.is_finite() { err } else { 0.0 };
            let y = if e >= 0.0 { e + reach + top * 0.07 } else { e - reach - top * 0.02 };
            // Rounded first, so that a small negative Elo reads +0, never -0.
            let rounded = e.round() + 0.0;
            let text = if err.is_finite() { format!("{rounded:+.0}") } else { format!("{rounded:+.0} (±inf)") };
            Text::new(text, (i as f64 - 0.3, y), ("sans-serif", 12).into_font())
        }))
        .map_err(|e| fail(&e))?;
    let red = RGBColor(200, 60, 40);
    chart
        .draw_secondary_series(
            savings.iter().enumerate().filter(|(i, _)| rows[*i].nodes.is_some()).map(|(i, &s)| {
                Rectangle::new([(i as f64 + 0.05, 0.0), (i as f64 + 0.3, s.log2())], red.mix(0.6).filled())
            }),
        )
        .map_err(|e| fail(&e))?
        .label("nodes without / with")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], red.mix(0.6).filled()));
    crate::chart::legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pair_gets_its_own_legal_opening_and_always_the_same() {
        let set = openings::builtin();
        let all: Vec<Opening> = (0..240).map(|p| pair_opening(&set, p, 2)).collect();
        let distinct: std::collections::HashSet<&Vec<String>> = all.iter().map(|o| &o.moves).collect();
        assert!(distinct.len() >= 235, "{} distinct of 240", distinct.len());
        for (p, o) in all.iter().enumerate() {
            let base = &set[p % set.len()];
            assert_eq!(o.moves.len(), base.moves.len() + 2);
            assert_eq!(o.moves[..base.moves.len()], base.moves[..]);
            // Legal, and neither capture nor check.
            let mut game = base.game();
            for m in &o.moves[base.moves.len()..] {
                let pos = game.position().clone();
                let mv = pos.parse_move(m).unwrap();
                assert!(pos.piece_at(mv.to()).is_none() && !pos.gives_check(mv), "{m}");
                game.play(m).unwrap();
            }
            assert!(game.result().is_none());
            assert_eq!(pair_opening(&set, p, 2), *o);
        }
        assert_eq!(pair_opening(&set, 5, 0), set[5]);
        assert_eq!(pair_opening(&set, 17, 0), set[5]);
    }
}
