//! `xiangqi match`: plays engines against each other and measures the difference in strength; a front end over the
//! `xiangqi-match` crate (flags in, a summary out).
//!
//! ```text
//! xiangqi match --engine cmd=target/release/xiangqi name=base \
//!               --engine cmd=target/release/xiangqi name=no-lmr option.Variant=engine+no-lmr \
//!               --nodes 20000 --games 200 --concurrency 2 --pgn games.pgn \
//!               --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05
//! ```
//!
//! Every engine is a command line speaking UCI (ranks 0-9, as Pikafish) or UCCI (`proto=ucci`, as ElephantEye).
//! Before any game each engine is started once (handshake, options, `isready`), so a missing binary or an option
//! the engine does not declare is an error before the match starts. Each worker (`--concurrency`) owns its own
//! engine processes, one game at a time; a process that crashes, times out or disconnects loses that game and is
//! restarted for the next. Every move is checked with `xiangqi_core::Game`, which also ends the game by the rules
//! (mate, stalemate, repetition with perpetual check or chase, the 60-move rule, insufficient material); resign and
//! draw adjudication by score are optional. The schedule, the openings, Elo and the SPRT are in `xiangqi-match`.
//!
//! The reasons a game ends by, as the summary counts them ([`xiangqi_match::Termination`]): the rules'
//! `checkmate`, `stalemate`, `perpetual-check`, `perpetual-chase`, `repetition`, `move-limit`,
//! `insufficient-material`; an engine's fault: `illegal-move`, `no-move` (`bestmove (none)` while the rules say the
//! game goes on), `crash`, `timeout`, `disconnect`; `draw-claim` (UCCI `nobestmove` in a position with legal moves:
//! ElephantEye answers so when its own rules judge the position drawn; a draw, or with `--nobestmove forfeit` the
//! claiming engine's loss); `resign` (UCCI `bestmove ... resign`); `adjudication-resign`, `adjudication-draw`.

use crate::{CmdResult, UsageError};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use xiangqi_match::clock::{seconds, MAX_SECONDS};
use xiangqi_match::report::{status_line, summary_json, summary_text};
use xiangqi_match::shard::{self, Shard};
use xiangqi_match::{DrawAdjudication, EngineConfig, EngineProcess, MatchSettings, NoBestMove};
use xiangqi_match::{ResignAdjudication, TimeControl};

/// The opening sets, where `datagen` finds the built-in one (`xiangqi_match::openings`).
pub(crate) use xiangqi_match::openings;

/// The arguments of `xiangqi match`: the flags, and the words of each `--engine` kept apart (clap's derive flattens
/// repeated multi-value flags, so they are read from the matches' occurrences).
#[derive(Debug)]
pub struct MatchArgs {
    flags: Box<MatchFlags>,
    engines: Vec<Vec<String>>,
}

impl clap::FromArgMatches for MatchArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<MatchArgs, clap::Error> {
        let flags = Box::new(MatchFlags::from_arg_matches(m)?);
        let engines = m
            .get_occurrences::<String>("engine")
            .map(|o| o.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(MatchArgs { flags, engines })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = MatchArgs::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for MatchArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        MatchFlags::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        MatchFlags::augment_args_for_update(cmd)
    }
}

/// The flags of `xiangqi match`.
#[derive(Args, Debug)]
struct MatchFlags {
    /// An engine, as key=value words: cmd=COMMAND (quoted if it has arguments), name=NAME, proto=uci|ucci,
    /// option.NAME=VALUE, arg=ARGUMENT, dir=WORKING_DIRECTORY. Give two or more.
    #[arg(long = "engine", id = "engine", value_name = "KEY=VALUE", num_args = 1.., required = true)]
    engine: Vec<String>,
    /// Keys given to every engine, before its own (which override them).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    each: Vec<String>,
    /// A clock: [moves/]seconds[+increment], e.g. 40/60+0.5 or 10+0.1 (seconds from 0.001 to 604800, one week;
    /// the increment may be 0).
    #[arg(long, value_name = "TC")]
    tc: Option<String>,
    /// A fixed time per move, in seconds (0.001 to 604800, one week).
    #[arg(long, value_name = "SECONDS")]
    st: Option<f64>,
    /// A fixed node count per move.
    #[arg(long, value_parser = crate::args::at_least::<u64>(1), allow_hyphen_values = true)]
    nodes: Option<u64>,
    /// A fixed depth per move.
    #[arg(long, value_parser = crate::args::depth::<u32>(1), allow_hyphen_values = true)]
    depth: Option<u32>,
    /// Milliseconds an engine may overstep its clock or move time before it loses on time (at most 604800000, one
    /// week).
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
    /// Seconds to wait for an answer no clock bounds (start, isready, fixed-node or fixed-depth moves; 0.001 to
    /// 604800, one week).
    #[arg(long, default_value_t = 30.0)]
    timeout: f64,
    /// Opening file: one `FEN [moves m1 m2 ...]` (or `startpos [moves ...]`) a line; default: the built-in set.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Games to play (default: each opening with both colours for every pairing; 20000 with --sprt).
    #[arg(long)]
    games: Option<usize>,
    /// Quiet moves (no capture, no check) played after the opening of each round, chosen by the round's number
    /// (at most 20): engines at a fixed node count or depth are deterministic, and without them each opening
    /// with each colour is one game played again and again. Each round (each opening with both colours) gets an
    /// opening of its own, the set's openings in turn. 0 plays the openings as they are.
    #[arg(long, default_value_t = 0, value_parser = crate::args::range::<usize>(0, 20), allow_hyphen_values = true)]
    random_plies: usize,
    /// Games played at the same time, each with its own engine processes.
    #[arg(long, default_value_t = 1, value_parser = crate::args::range::<usize>(1, 256), allow_hyphen_values = true)]
    concurrency: usize,
    /// Stop when an SPRT decides: elo0=ELO elo1=ELO [alpha=0.05] [beta=0.05] (logistic Elo; two engines).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// Resign adjudication: movecount=N score=CP: a side whose score is -CP or worse for N moves in a row loses
    /// (N from 1 to 1000, CP from 0 to 1000000).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    resign: Option<Vec<String>>,
    /// Draw adjudication: movenumber=M movecount=N score=CP: after full move M, both scores within CP of 0 for N
    /// moves each (M from 0 to 10000, N from 1 to 1000, CP from 0 to 1000000).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    draw: Option<Vec<String>>,
    /// Write every game here, in PGN form, as games finish.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// The Event header of the games.
    #[arg(long, default_value = "xiangqi match")]
    event: String,
    /// What an engine's `nobestmove` (UCCI) in a position with legal moves counts as: its claim that its own rules
    /// draw the position, taken as a draw, or as its loss (forfeit).
    #[arg(long, value_name = "draw|forfeit", default_value_t = NoBestMove::Draw)]
    nobestmove: NoBestMove,
    /// End with one JSON summary object on standard output.
    #[arg(long)]
    json: bool,
    /// A shard of the match (`--shard I --shards N`, see `xiangqi merge`): its part of the game pairs of --games,
    /// the games of the whole match with the same indices, written with a manifest into the directory of --out.
    #[command(flatten)]
    shard: crate::args::ShardOpts,
    /// The shards' directory (with --shard).
    #[arg(long, value_name = "DIR", requires = "shard")]
    out: Option<PathBuf>,
}

/// Parses `--tc`; an error names the flag.
pub(crate) fn parse_clock(text: &str) -> Result<TimeControl, String> {
    TimeControl::parse_clock(text).map_err(|e| format!("--tc {e}"))
}

/// A time flag in seconds ([`seconds`]); an error names the flag.
fn flag_seconds(flag: &str, secs: f64) -> Result<Duration, String> {
    seconds(secs).map_err(|e| format!("{flag} {e}"))
}

/// Checks the arguments and turns them into match settings with `openings` (no engine started yet). An error names
/// the flag that cannot be used.
pub fn settings(all: &MatchArgs, openings: Vec<openings::Opening>) -> Result<MatchSettings, String> {
    let args = &all.flags;
    let mut engines = Vec::new();
    for (i, words) in all.engines.iter().enumerate() {
        let all: Vec<String> = args.each.iter().chain(words).cloned().collect();
        engines.push(EngineConfig::parse(&all).map_err(|e| format!("--engine {}: {e}", i + 1))?);
    }
    if engines.len() < 2 {
        return Err("a match needs two or more --engine".to_owned());
    }
    for (i, e) in engines.iter().enumerate() {
        if engines[..i].iter().any(|o| o.name == e.name) {
            return Err(format!("two engines are named {:?}: give one a name=...", e.name));
        }
    }
    let limits = [args.tc.is_some(), args.st.is_some(), args.nodes.is_some(), args.depth.is_some()];
    let tc = match (limits.iter().filter(|&&x| x).count(), &**args) {
        (1, MatchFlags { tc: Some(tc), .. }) => parse_clock(tc)?,
        (1, MatchFlags { st: Some(st), .. }) => TimeControl::MoveTime(flag_seconds("--st", *st)?),
        (1, MatchFlags { nodes: Some(n), .. }) => TimeControl::Nodes(*n),
        (1, MatchFlags { depth: Some(d), .. }) => TimeControl::Depth(*d),
        _ => return Err("give exactly one of --tc, --st, --nodes, --depth".to_owned()),
    };
    let sprt = args.sprt.as_deref().map(crate::args::parse_sprt).transpose()?;
    if sprt.is_some() && engines.len() != 2 {
        return Err("--sprt needs exactly two engines".to_owned());
    }
    let pairings = engines.len() * (engines.len() - 1) / 2;
    let games = args.games.unwrap_or(if sprt.is_some() { 20_000 } else { 2 * openings.len() * pairings });
    if games == 0 {
        return Err("--games must be positive".to_owned());
    }
    // Each round its own opening: the set's in turn, each followed by quiet moves chosen by the round.
    let openings = if args.random_plies > 0 {
        let rounds = games.div_ceil(2 * pairings);
        (0..rounds).map(|round| openings::for_pair(&openings, round, args.random_plies)).collect()
    } else {
        openings
    };
    let timeout = flag_seconds("--timeout", args.timeout)?;
    if args.timemargin > MAX_SECONDS as u64 * 1000 {
        return Err(format!(
            "--timemargin {}: must be at most {} milliseconds (one week)",
            args.timemargin,
            MAX_SECONDS * 1000.0
        ));
    }
    let resign =
        args.resign.as_deref().map(ResignAdjudication::parse).transpose().map_err(|e| format!("--resign: {e}"))?;
    let draw = args.draw.as_deref().map(DrawAdjudication::parse).transpose().map_err(|e| format!("--draw: {e}"))?;
    Ok(MatchSettings {
        engines,
        tc,
        openings,
        games,
        concurrency: args.concurrency,
        resign,
        draw,
        sprt,
        margin: Duration::from_millis(args.timemargin),
        timeout,
        event: args.event.clone(),
        nobestmove: args.nobestmove,
    })
}

/// Runs `xiangqi match`.
pub fn run(all: &MatchArgs) -> CmdResult {
    // A file of --openings that cannot be read is a run-time error; a flag that cannot be used, a usage error.
    let openings = openings::read_or_builtin(all.flags.openings.as_deref())?;
    let settings = settings(all, openings).map_err(UsageError::new)?;
    let args = &all.flags;
    let shard = args.shard.shard().map_err(UsageError::new)?;
    if shard.is_some() {
        if settings.sprt.is_some() {
            return Err(UsageError::new(
                "--sprt is decided over the merged shards (xiangqi merge --sprt), not in one".to_owned(),
            )
            .into());
        }
        if args.pgn.is_some() {
            return Err(UsageError::new(
                "a shard writes its games into --out DIR; --pgn is for a whole match".to_owned(),
            )
            .into());
        }
        if settings.games % 2 != 0 {
            return Err(UsageError::new(
                "--games must be even with --shard (shards are made of game pairs)".to_owned(),
            )
            .into());
        }
        if args.out.is_none() {
            return Err(UsageError::new("--shard needs --out DIR".to_owned()).into());
        }
    }
    // Start every engine once: a missing binary, a failed handshake or an unknown option stops here.
    for e in &settings.engines {
        let p = EngineProcess::start(e, settings.timeout).map_err(|err| format!("engine {:?}: {err}", e.name))?;
        p.quit();
    }
    if let (Some(shard), Some(dir)) = (shard, &args.out) {
        return run_shard(&settings, shard, dir);
    }
    let mut pgn = match &args.pgn {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("--pgn {}: {e}", path.display()))?,
        )),
        None => None,
    };
    // On a terminal the progress line is redrawn after each game; into a file (a long run in the background) a
    // line is written after every tenth game, so the file shows the run's state without growing a line a game.
    let tty = std::io::stderr().is_terminal();
    let start = Instant::now();
    let mut write_error = None;
    let summary = xiangqi_match::run(&settings, |record, s| {
        if let Some(w) = pgn.as_mut() {
            if let Err(e) = w.write_all(record.pgn(&settings.event).as_bytes()).and_then(|_| w.flush()) {
                write_error.get_or_insert(e);
            }
        }
        let done = s.first.games();
        if tty {
            eprint!("\r\x1b[K[{}/{}] {}", done, settings.games, status_line(s, &settings));
        } else if done % 10 == 0 {
            eprintln!("[{}/{}] {}", done, settings.games, status_line(s, &settings));
        }
    });
    if tty {
        eprintln!();
    }
    if let Some(e) = write_error {
        return Err(format!("--pgn: {e}").into());
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", summary_json(&summary, &settings))?;
        return Ok(());
    }
    write!(out, "{}", summary_text(&summary, &settings, start.elapsed().as_secs()))?;
    Ok(())
}

/// `xiangqi match --shard I --shards N --out DIR`: the shard's games and manifest ([`shard::play_match`]), the
/// manifest printed.
fn run_shard(settings: &MatchSettings, shard: Shard, dir: &std::path::Path) -> CmdResult {
    let m = shard::play_match(settings, shard, dir)?;
    println!("{}", serde_json::to_string(&m).map_err(|e| e.to_string())?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::FromArgMatches;

    /// The settings of two engines (never started) and the flags `extra`.
    fn parse(extra: &str) -> Result<MatchSettings, String> {
        let cmd = MatchArgs::augment_args(clap::Command::new("match"));
        let words = ["match", "--engine", "cmd=x", "name=a", "--engine", "cmd=x", "name=b"];
        let m =
            cmd.try_get_matches_from(words.into_iter().chain(extra.split_whitespace())).map_err(|e| e.to_string())?;
        let args = MatchArgs::from_arg_matches(&m).map_err(|e| e.to_string())?;
        settings(&args, openings::read_or_builtin(args.flags.openings.as_deref()).map_err(|e| e.to_string())?)
    }

    fn error(extra: &str) -> String {
        parse(extra).expect_err(extra)
    }

    #[test]
    fn time_flags_out_of_range_are_refused() {
        for (flags, message) in [
            ("--tc 1e20", "the time 100000000000000000000: must be from 0.001 to 604800 seconds"),
            ("--tc 10+1e20", "the increment 100000000000000000000: must be from 0.001"),
            ("--tc 40/1e19+1", "the time"),
            ("--tc 1e-9", "the time 0.000000001: must be from 0.001"),
            ("--tc 10+0.0001", "the increment 0.0001: must be from 0.001"),
            ("--tc 10+nan", "the increment NaN"),
            ("--tc 10+-1", "the increment -1"),
            ("--tc 604800.001", "the time"),
            ("--st 1e20", "--st 100000000000000000000: must be from 0.001 to 604800 seconds"),
            ("--st 1e19", "--st 10000000000000000000: must be"),
            ("--st 1e-7", "--st 0.0000001: must be"),
            ("--st 0", "--st 0: must be"),
            ("--st inf", "--st inf: must be"),
            ("--depth 1 --timeout 1e20", "--timeout 100000000000000000000: must be"),
            ("--depth 1 --timeout 1e19", "--timeout 10000000000000000000: must be"),
            ("--depth 1 --timeout 0.0005", "--timeout 0.0005: must be"),
            ("--depth 1 --timemargin 18446744073709551615", "--timemargin 18446744073709551615: must be at most"),
            ("--depth 0", "invalid value '0' for --depth: depth must be at least 1"),
            ("--depth 121", "invalid value '121' for --depth: depth must be at most 120"),
            ("--nodes 0", "invalid value '0' for --nodes: nodes must be at least 1"),
            (
                "--tc abc",
                "--tc \"abc\": the time \"abc\" is not a number of seconds; expected [moves/]seconds[+increment]",
            ),
            ("--tc 0/60", "--tc \"0/60\": the moves per period \"0\" are not a whole number from 1 up"),
        ] {
            let e = error(flags);
            assert!(e.contains(message), "{flags}: {e}");
        }
    }

    #[test]
    fn time_flags_in_range_are_kept() {
        let tc = |flags: &str| parse(flags).unwrap().tc;
        assert_eq!(tc("--st 0.001"), TimeControl::MoveTime(Duration::from_millis(1)));
        assert_eq!(tc("--st 604800"), TimeControl::MoveTime(Duration::from_secs(604_800)));
        let clock =
            TimeControl::Clock { moves: Some(40), base: Duration::from_secs(60), inc: Duration::from_millis(500) };
        assert_eq!(tc("--tc 40/60+0.5"), clock);
        let clock = TimeControl::Clock { moves: None, base: Duration::from_millis(1), inc: Duration::ZERO };
        assert_eq!(tc("--tc 0.001+0"), clock);
        let s = parse("--depth 3 --timeout 604800 --timemargin 604800000").unwrap();
        assert_eq!((s.timeout, s.margin), (Duration::from_secs(604_800), Duration::from_secs(604_800)));
    }

    #[test]
    fn adjudication_values_out_of_range_are_refused() {
        for (flags, message) in [
            ("--resign movecount=4294967296 score=100000", "--resign: movecount=4294967296: must be from 1 to 1000"),
            ("--resign movecount=0 score=100", "--resign: movecount=0: must be from 1 to 1000"),
            ("--resign movecount=1 score=4294967296", "--resign: score=4294967296: must be from 0 to 1000000"),
            ("--resign movecount=3", "--resign: score=... is missing"),
            ("--draw movenumber=0 movecount=2147483648 score=100000", "--draw: movecount=2147483648: must be from 1"),
            ("--draw movenumber=10001 movecount=8 score=10", "--draw: movenumber=10001: must be from 0 to 10000"),
            ("--draw movenumber=40 movecount=8 score=1000001", "--draw: score=1000001: must be from 0 to 1000000"),
        ] {
            let e = error(&format!("--nodes 100 {flags}"));
            assert!(e.contains(message), "{flags}: {e}");
        }
        let s = parse("--nodes 100 --resign movecount=1000 score=0 --draw movenumber=10000 movecount=1 score=1000000");
        let s = s.unwrap();
        assert_eq!(s.resign, Some(ResignAdjudication { movecount: 1000, score: 0 }));
        assert_eq!(s.draw, Some(DrawAdjudication { movenumber: 10_000, movecount: 1, score: 1_000_000 }));
    }

    #[test]
    fn the_errors_of_the_library_name_the_flag() {
        for (flags, message) in [
            ("--sprt elo0=5 elo1=0", "--sprt: elo1 (0) must be above elo0 (5)"),
            ("--sprt elo0=0", "--sprt: elo1=... is missing: an SPRT needs elo0=... and elo1=..."),
            ("--sprt elo0=0 elo1=x", "--sprt: elo1: \"x\" is not a number"),
            ("--sprt elo0=0 elo1=5 gamma=1", "--sprt: unknown key \"gamma\" (elo0, elo1, alpha, beta)"),
            ("--sprt elo0=0 elo1=5 beta=0.5", "--sprt: beta (0.5): alpha and beta must be between 0 and 0.5"),
            ("--openings /nonexistent/openings.txt", "opening file /nonexistent/openings.txt: "),
        ] {
            let e = error(&format!("--nodes 100 {flags}"));
            assert!(e.starts_with(message), "{flags}: {e}");
        }
        let e = parse_error_of_engine("cmd=x proto=xboard");
        assert_eq!(e, "--engine 1: unknown protocol \"xboard\" (uci or ucci)");
    }

    /// The error of a match whose first engine is `words`.
    fn parse_error_of_engine(words: &str) -> String {
        let cmd = MatchArgs::augment_args(clap::Command::new("match"));
        let args = ["match", "--engine"].into_iter().chain(words.split_whitespace());
        let args = args.chain(["--engine", "cmd=x", "name=b", "--nodes", "100"]);
        let args = MatchArgs::from_arg_matches(&cmd.try_get_matches_from(args).unwrap()).unwrap();
        settings(&args, openings::builtin()).unwrap_err()
    }

    #[test]
    fn random_plies_give_each_round_an_opening_of_its_own() {
        let set = openings::builtin();
        let s = parse("--nodes 100 --games 60 --random-plies 2").unwrap();
        assert_eq!(s.openings.len(), 30);
        for (round, o) in s.openings.iter().enumerate() {
            let base = &set[round % set.len()];
            assert_eq!(o.fen, base.fen);
            assert_eq!(o.moves.len(), base.moves.len() + 2, "round {round}");
            assert_eq!(o.moves[..base.moves.len()], base.moves[..]);
        }
        let distinct: std::collections::BTreeSet<&Vec<String>> = s.openings.iter().map(|o| &o.moves).collect();
        assert!(distinct.len() > set.len(), "{} distinct openings", distinct.len());
        assert_eq!(parse("--nodes 100 --games 60").unwrap().openings, set);
        assert!(error("--nodes 100 --random-plies 21").contains("random plies must be at most 20"));
    }

    #[test]
    fn nobestmove_is_a_draw_unless_forfeit_is_asked() {
        assert_eq!(parse("--nodes 100").unwrap().nobestmove, NoBestMove::Draw);
        assert_eq!(parse("--nodes 100 --nobestmove forfeit").unwrap().nobestmove, NoBestMove::Forfeit);
        assert_eq!(parse("--nodes 100 --nobestmove draw").unwrap().nobestmove, NoBestMove::Draw);
        assert!(error("--nodes 100 --nobestmove resign").contains("expected draw or forfeit"));
    }
}
