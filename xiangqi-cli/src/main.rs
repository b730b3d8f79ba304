//! The `xiangqi` command: perft, moves, show, eval, game, convert, analyze, search, compare, tree, tactics, bench,
//! datagen, match, merge, ablate, tune, serve and uci.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;
use xiangqi_core::{Position, START_FEN};
use xiangqi_search::options::{HASH, THREADS};

mod ablate;
mod analyze;
mod args;
mod chart;
mod datagen;
mod eval;
mod evalopt;
mod game;
mod matches;
mod records;
// The book's command-line reference and the man page, generated from `Cli` by a test.
mod merge;
#[cfg(test)]
mod reference;
mod search;
mod serve;
mod tactics_cmd;
mod tree;
mod tune;

#[derive(Parser)]
#[command(name = "xiangqi", version, about = "A xiangqi (Chinese chess) toolkit: rules, perft, evaluation and search.")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (perft), with time and nodes per second.
    Perft {
        /// Position to start from (default: the start position).
        #[arg(long, default_value = START_FEN, hide_default_value = true)]
        fen: String,
        /// Depth in plies.
        #[arg(long, default_value_t = 5, value_parser = args::range::<u32>(1, 12), allow_hyphen_values = true)]
        depth: u32,
        /// Worker threads.
        #[arg(long, default_value_t = 1, value_parser = args::range::<u32>(1, 1024), allow_hyphen_values = true)]
        threads: u32,
        /// Print the count below each legal move.
        #[arg(long)]
        divide: bool,
        /// Make every leaf move instead of counting the last ply's moves (slower; a check of make/unmake).
        #[arg(long)]
        no_bulk: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Print the legal moves in UCI notation, space-separated, sorted.
    Moves {
        /// Position (default: the start position).
        #[arg(long, default_value = START_FEN, hide_default_value = true, conflicts_with = "stdin")]
        fen: String,
        /// Read one FEN per line from standard input and print one line of moves per FEN (`error: ...` for a bad
        /// FEN or a line that is not UTF-8). Every line is answered; the exit code is 1 when any line was bad.
        #[arg(long)]
        stdin: bool,
    },
    /// Evaluate a position statically, with a breakdown by term and side.
    Eval(eval::EvalArgs),
    /// Replay a game (or every game of a PGN or XQF file) and say whether it is over, who won, and by which rule.
    Game(game::GameArgs),
    /// Convert a game record (PGN in any notation and encoding, or XQF) to PGN in a chosen notation and encoding.
    Convert(records::ConvertArgs),
    /// Evaluate every position of a game with the engine: PGN with evaluations, best lines and marks, and a chart.
    Analyze(analyze::AnalyzeArgs),
    /// Search a position with one variant and print the best move, score, PV and statistics.
    Search(search::SearchArgs),
    /// Search a position with several variants and compare scores, nodes and time.
    Compare(search::CompareArgs),
    /// Record the tree one search visits and write it as Graphviz DOT or SVG.
    Tree(tree::TreeArgs),
    /// Run the engine over a tactical test set (positions with known best moves) and print the share solved.
    Tactics(tactics_cmd::TacticsArgs),
    /// Search the bench positions to a fixed depth: the total node count is the search's signature.
    Bench {
        /// Depth of each search.
        #[arg(long, default_value_t = xiangqi_search::bench::BENCH_DEPTH, value_parser = args::depth::<u32>(1), allow_hyphen_values = true)]
        depth: u32,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = args::option_default(HASH), value_parser = args::option_range::<u64>(HASH), allow_hyphen_values = true)]
        hash: u64,
        /// Search threads.
        #[arg(long, default_value_t = args::option_default(THREADS), value_parser = args::option_range::<u64>(THREADS), allow_hyphen_values = true)]
        threads: u64,
        /// The variant.
        #[arg(long, default_value = xiangqi_uci::DEFAULT_VARIANT)]
        variant: String,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// The evaluator.
        #[command(flatten)]
        eval: evalopt::EvalOpts,
        /// Tuned search parameters.
        #[command(flatten)]
        params: evalopt::ParamOpts,
    },
    /// Generate training data for the neural evaluation from the engine's games against itself.
    Datagen(datagen::DatagenArgs),
    /// Play engines (UCI or UCCI) against each other: openings, time controls, adjudication, Elo and SPRT.
    Match(matches::MatchArgs),
    /// Check the shards of a distributed datagen or match run and merge them in shard order (data concatenated,
    /// match results summed).
    Merge(merge::MergeArgs),
    /// What each technique of a variant is worth: nodes to a fixed depth and Elo in games, one taken away (or added)
    /// at a time.
    Ablate(ablate::AblateArgs),
    /// Tune the search's parameters by SPSA in games (as fishtest does): resumable, writes the tuned values and
    /// a chart of each parameter's path.
    Tune(tune::TuneArgs),
    /// Serve the engine in the browser: play, analyse, review games and watch the search (one page, one WebSocket).
    Serve(serve::ServeArgs),
    /// Speak UCI on standard input and output (also what the binary does without arguments).
    Uci {
        /// Tuned search parameters.
        #[command(flatten)]
        params: evalopt::ParamOpts,
    },
    /// Draw the board in the terminal.
    Show {
        /// Position (default: the start position).
        #[arg(long, default_value = START_FEN, hide_default_value = true)]
        fen: String,
    },
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    // What `Cli::parse` does, keeping the matches: the name of the command run, for a usage error found later.
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut Cli::command()).exit());
    let result = match cli.command {
        Some(Command::Perft { fen, depth, threads, divide, no_bulk, json }) => {
            perft(&fen, depth, threads as usize, divide, !no_bulk, json)
        }
        Some(Command::Moves { fen, stdin }) => moves(&fen, stdin),
        Some(Command::Show { fen }) => show(&fen),
        Some(Command::Eval(args)) => eval::run(&args),
        Some(Command::Game(args)) => game::run(&args),
        Some(Command::Convert(args)) => records::convert(&args),
        Some(Command::Analyze(args)) => analyze::run(&args),
        Some(Command::Search(args)) => search::run(&args),
        Some(Command::Compare(args)) => search::compare(&args),
        Some(Command::Tree(args)) => tree::run(&args),
        Some(Command::Tactics(args)) => tactics_cmd::run(&args),
        Some(Command::Match(args)) => matches::run(&args),
        Some(Command::Merge(args)) => merge::merge(&args),
        Some(Command::Ablate(args)) => ablate::run(&args),
        Some(Command::Datagen(args)) => datagen::run(&args),
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Bench { depth, hash, threads, variant, json, eval, params }) => {
            bench(depth, hash as usize, threads as usize, &variant, json, &eval, &params)
        }
        Some(Command::Uci { params }) => match params.params() {
            Ok(params) => {
                xiangqi_uci::run_stdio_with(params);
                Ok(())
            }
            Err(e) => Err(e.into()),
        },
        None => {
            xiangqi_uci::run_stdio();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`xiangqi perft --divide | head -2`): the output was wanted no further, so the
        // command ends quietly and successfully, as Unix tools do.
        Err(e) if is_broken_pipe(e.as_ref()) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<BadLines>().is_some() => ExitCode::FAILURE,
        Err(e) if e.downcast_ref::<UsageError>().is_some() => usage_error(matches.subcommand_name(), &e.to_string()),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Whether `e` (or what it wraps) is a write to a closed pipe.
fn is_broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) {
            return true;
        }
        cause = c.source();
    }
    false
}

/// Some input lines were bad: each was answered with `error: ...` on standard output already, so nothing more is
/// printed, but the exit code says so.
#[derive(Debug)]
struct BadLines(usize);

impl std::fmt::Display for BadLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} bad line(s)", self.0)
    }
}

impl std::error::Error for BadLines {}

/// Prints a [`UsageError`] as clap prints its own: the message, the usage of `command`, and the hint to `--help`;
/// the exit code is clap's for a usage error (2).
fn usage_error(command: Option<&str>, message: &str) -> ExitCode {
    let mut cli = Cli::command();
    cli.build();
    let e = match command.and_then(|name| cli.find_subcommand_mut(name)) {
        Some(sub) => sub.error(clap::error::ErrorKind::ValueValidation, message),
        None => cli.error(clap::error::ErrorKind::ValueValidation, message),
    };
    let _ = e.print();
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

/// What a command returns: an error is printed as `error: ...` and the exit code is 1, unless it is a
/// [`UsageError`] (see the crate doc for the rule).
pub(crate) type CmdResult = Result<(), Box<dyn std::error::Error>>;

/// An error in the command line that only the command can see (a FEN that is no position, a variant that does not
/// exist, an illegal move in `--moves`): printed like clap's own usage errors, with the usage and the hint to
/// `--help`, and the exit code 2.
#[derive(Debug)]
pub(crate) struct UsageError(String);

impl UsageError {
    /// A message that names the flag itself (`--games 3: must be even ...`).
    pub(crate) fn new(message: String) -> UsageError {
        UsageError(message)
    }

    /// `invalid value 'TEXT' for --FLAG: WHY`, in the words of clap's value errors (`TEXT` cut to 80 characters).
    pub(crate) fn value(flag: &str, text: &str, why: impl std::fmt::Display) -> UsageError {
        let shown = match text.char_indices().nth(80) {
            Some((end, _)) => format!("{}...", &text[..end]),
            None => text.to_string(),
        };
        UsageError(format!("invalid value '{shown}' for --{flag}: {why}"))
    }
}

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Reads the FEN of a `--fen` flag strictly; a bad one is a [`UsageError`].
pub(crate) fn parse_fen(fen: &str) -> Result<Position, Box<dyn std::error::Error>> {
    Position::from_fen(fen).map_err(|e| UsageError::value("fen", fen, e).into())
}

fn perft(fen: &str, depth: u32, threads: usize, show_divide: bool, bulk: bool, json: bool) -> CmdResult {
    let pos = parse_fen(fen)?;
    let progress_on = std::io::stderr().is_terminal() && depth >= 5;
    let start = Instant::now();
    let rows = xiangqi_movegen::divide_with(&pos, depth, threads, bulk, |done, total| {
        if progress_on {
            eprint!("\r{done}/{total} root moves, {:.1} s", start.elapsed().as_secs_f64());
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    if progress_on {
        eprint!("\r{}\r", " ".repeat(40));
    }
    let nodes: u64 = rows.iter().map(|&(_, n)| n).sum();
    let nps = if seconds > 0.0 { (nodes as f64 / seconds) as u64 } else { 0 };
    let mut out = std::io::stdout().lock();
    if json {
        let mut obj = serde_json::json!({
            "fen": pos.fen(), "depth": depth, "threads": threads, "bulk": bulk,
            "nodes": nodes, "seconds": seconds, "nps": nps,
        });
        if show_divide {
            let map: serde_json::Map<String, serde_json::Value> =
                rows.iter().map(|(m, n)| (m.to_string(), (*n).into())).collect();
            obj["divide"] = map.into();
        }
        writeln!(out, "{obj}")?;
    } else {
        if show_divide {
            for (m, n) in &rows {
                writeln!(out, "{m}: {n}")?;
            }
            writeln!(out)?;
        }
        writeln!(out, "nodes {nodes}")?;
        writeln!(out, "time {seconds:.3} s")?;
        writeln!(out, "nps {nps}")?;
    }
    Ok(())
}

fn bench(
    depth: u32,
    hash: usize,
    threads: usize,
    variant: &str,
    json: bool,
    eval: &evalopt::EvalOpts,
    params: &evalopt::ParamOpts,
) -> CmdResult {
    let spec: xiangqi_search::VariantConfig =
        variant.parse().map_err(|e: xiangqi_search::VariantError| UsageError::value("variant", variant, e))?;
    let choice = eval.choice()?;
    let params = params.params()?;
    let make_eval = |p: &xiangqi_core::Position| choice.for_search(p);
    let r = xiangqi_search::bench::bench_with_params(&spec, &params, depth, hash, threads, make_eval)?;
    let secs = r.elapsed.as_secs_f64();
    let nps = if secs > 0.0 { (r.total as f64 / secs) as u64 } else { 0 };
    let mut out = std::io::stdout().lock();
    if json {
        let obj = serde_json::json!({
            "depth": depth, "threads": threads, "hash": hash, "variant": spec.to_string(),
            "nodes": r.total, "positions": r.nodes, "best_moves": r.best, "seconds": secs, "nps": nps,
            "eval": choice.describe(),
        });
        writeln!(out, "{obj}")?;
    } else {
        for (i, (n, b)) in r.nodes.iter().zip(&r.best).enumerate() {
            writeln!(out, "position {:>2}: {:>10} nodes, best {b}", i + 1, n)?;
        }
        writeln!(out, "===========================")?;
        writeln!(out, "Total time (ms) : {}", r.elapsed.as_millis())?;
        writeln!(out, "Nodes searched  : {}", r.total)?;
        writeln!(out, "Nodes/second    : {nps}")?;
    }
    Ok(())
}

fn moves_line(pos: &Position) -> String {
    let mut moves: Vec<String> = xiangqi_movegen::legal_moves(pos).iter().map(|m| m.to_string()).collect();
    moves.sort();
    moves.join(" ")
}

fn moves(fen: &str, stdin: bool) -> CmdResult {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if !stdin {
        let pos = parse_fen(fen)?;
        writeln!(out, "{}", moves_line(&pos))?;
        return Ok(());
    }
    // Raw lines: one that is not UTF-8 is a bad line like any other, not the end of the run.
    let mut bad = 0;
    for line in std::io::stdin().lock().split(b'\n') {
        let line = line?;
        match std::str::from_utf8(&line) {
            Ok(text) => match Position::from_fen(text.trim()) {
                Ok(pos) => writeln!(out, "{}", moves_line(&pos))?,
                Err(e) => {
                    bad += 1;
                    writeln!(out, "error: {e}")?
                }
            },
            Err(e) => {
                bad += 1;
                writeln!(out, "error: the line is not valid UTF-8 ({e})")?
            }
        }
    }
    out.flush()?;
    if bad > 0 {
        return Err(BadLines(bad).into());
    }
    Ok(())
}

/// The board, then its FEN and key with the labels UCI's `d` uses (`Fen: `, `Key: ` in upper-case hex).
fn show(fen: &str) -> CmdResult {
    let pos = parse_fen(fen)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{pos}")?;
    writeln!(out, "Fen: {}", pos.fen())?;
    writeln!(out, "Key: {:016X}", pos.key())?;
    if pos.in_check() {
        writeln!(out, "{} is in check", pos.turn())?;
    }
    Ok(())
}

// The Kubernetes manifests' command lines, parsed by `Cli` (visible only here).
#[cfg(test)]
#[path = "../tests/k8s/manifests.rs"]
mod k8s_manifests;
