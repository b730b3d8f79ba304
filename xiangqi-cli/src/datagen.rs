//! `xiangqi datagen`: training data for the neural evaluation, from the engine's games against itself.
//!
//! Each worker thread plays its own games, one after the other: a built-in opening (see
//! [`crate::matches::openings`]), then a few random plies (seeded), then the engine plays both sides at a fixed node
//! count per move, on the worker's own single-threaded search, with the default evaluator (the built-in network)
//! unless `--handcrafted` or `--nnue FILE` names another. Every position the engine searched becomes a record unless
//! it is in check, its best move is a capture, or its score is a mate score.
//! When the game ends (by the rules of [`xiangqi_core::Game`], or as a draw at the ply cap) its records get the
//! result and are appended to the file in one write, so a stopped run loses only the games in flight.
//!
//! The file format is defined once, in [`xiangqi_eval::nnue::data`], and the trainer reads it with the same
//! definition: the magic [`DATA_MAGIC`] (`XQDATA01`), then [`RECORD_BYTES`]-byte records, each a [`Record`] (the
//! board, the side to move, the result and the search score for the side to move, clamped to `-10000..=10000`).

use crate::args;
use crate::CmdResult;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use xiangqi_core::{Color, Game};
use xiangqi_eval::nnue::data::{record_count, Record, DATA_MAGIC, RECORD_BYTES};
use xiangqi_eval::EvalChoice;
use xiangqi_search::{Limits, SearchEngine, VariantConfig, MATE_BOUND};

/// The arguments of `xiangqi datagen`.
#[derive(clap::Args)]
pub struct DatagenArgs {
    /// The data file: created with its header when missing, appended to (resumed) when it exists.
    #[arg(long)]
    out: PathBuf,
    /// Stop when the file holds this many records.
    #[arg(long, default_value_t = 1_000_000, value_parser = args::at_least::<u64>(1), allow_hyphen_values = true)]
    positions: u64,
    /// Nodes per move of the searches.
    #[arg(long, default_value_t = 4000, value_parser = args::range::<u64>(1, 100_000_000), allow_hyphen_values = true)]
    nodes: u64,
    /// Worker threads, each playing its own games with a single-threaded search.
    #[arg(long, default_value_t = 1, value_parser = args::range::<u64>(1, 256), allow_hyphen_values = true)]
    threads: u64,
    /// Seed of the random plies (a resumed run should be given another seed, or it replays the same games).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies played after the opening, before the engine takes over.
    #[arg(long, default_value_t = 4, value_parser = args::range::<u32>(0, 40), allow_hyphen_values = true)]
    random_plies: u32,
    /// A game not over after this many plies is adjudicated a draw.
    #[arg(long, default_value_t = 300, value_parser = args::range::<u32>(10, 2000), allow_hyphen_values = true)]
    max_plies: u32,
    /// Transposition table size per worker in MB.
    #[arg(long, default_value_t = 4, value_parser = args::range::<u64>(1, 4096), allow_hyphen_values = true)]
    hash: u64,
    /// No progress line on standard error.
    #[arg(long)]
    quiet: bool,
    /// The evaluator of the self-play searches (`--nnue FILE` for a second generation of data from a network's
    /// own games).
    #[command(flatten)]
    eval: crate::evalopt::EvalOpts,
    /// A shard of a run (`--shard I --shards N`, see [`crate::shard`]): `--out` is then the shards' directory,
    /// `--positions` the whole run's, `--seed` the run's, and `--threads` must be 1.
    #[command(flatten)]
    shard: crate::shard::ShardOpts,
}

/// The bytes of a game's records, each with the game's result for its side to move (`winner` is `None` for a
/// draw).
fn finish_records(records: Vec<Record>, winner: Option<Color>) -> Vec<u8> {
    let mut out = Vec::with_capacity(records.len() * RECORD_BYTES);
    for mut rec in records {
        rec.result = match winner {
            None => 1,
            Some(c) if c == rec.turn() => 2,
            Some(_) => 0,
        };
        out.extend_from_slice(&rec.encode());
    }
    out
}

/// Opens (or creates) the data file for appending, after checking its magic and cutting a trailing partial record;
/// returns the file and its record count.
pub fn open_data(path: &Path) -> Result<(File, u64), String> {
    let name = path.display();
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("cannot open {name}: {e}"))?;
    let len = file.metadata().map_err(|e| format!("{name}: {e}"))?.len();
    if len == 0 {
        file.write_all(DATA_MAGIC).map_err(|e| format!("{name}: {e}"))?;
    } else {
        let mut magic = [0u8; 8];
        if len < 8 || file.read_exact(&mut magic).is_err() || &magic != DATA_MAGIC {
            return Err(format!("{name} is not a datagen file (no XQDATA01 header); refusing to append"));
        }
        let whole = 8 + record_count(len) * RECORD_BYTES as u64;
        if whole != len {
            eprintln!("{name}: cutting a partial record of {} bytes at the end", len - whole);
            file.set_len(whole).map_err(|e| format!("{name}: {e}"))?;
        }
    }
    let end = file.seek(SeekFrom::End(0)).map_err(|e| format!("{name}: {e}"))?;
    Ok((file, record_count(end)))
}

/// One worker's settings.
#[derive(Clone)]
struct Work {
    variant: VariantConfig,
    eval: EvalChoice,
    nodes: u64,
    random_plies: u32,
    max_plies: u32,
    hash: usize,
}

/// Plays one game and returns its records with the results filled in (nothing when the random plies end the game).
fn play_game(work: &Work, engine: &mut SearchEngine<EvalChoice>, rng: &mut StdRng) -> Vec<u8> {
    let openings = crate::matches::openings::builtin();
    let mut game: Game = openings[rng.random_range(0..openings.len())].game();
    for _ in 0..work.random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.is_over() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        game.push(m).expect("a legal move of a game that goes on");
    }
    engine.new_game();
    let limits = Limits { nodes: Some(work.nodes), iterative: true, ..Limits::default() };
    let mut records: Vec<Record> = Vec::new();
    while !game.is_over() && game.plies() < work.max_plies as usize {
        let pos = game.position();
        // Each move is searched as a first search orders it (the table is kept): the games are reproducible.
        engine.forget_ordering();
        let r = engine.search(pos, &limits);
        let Some(best) = r.best_move else { break };
        let quiet = pos.piece_at(best.to()).is_none();
        if !pos.in_check() && quiet && r.score.abs() < MATE_BOUND {
            records.push(Record::from_position(pos, r.score, 1)); // the result is set when the game ends
        }
        if game.push(best).is_err() {
            break;
        }
    }
    finish_records(records, game.result().and_then(|g| g.winner))
}

/// `xiangqi datagen`.
pub fn run(a: &DatagenArgs) -> CmdResult {
    match a.shard.shard()? {
        Some(shard) => run_shard(a, shard),
        None => generate(a, &a.out, &a.out, a.positions, a.seed),
    }
}

/// `xiangqi datagen --shard I --shards N`: this shard's part of the run's positions, from the shard's own seed, one
/// search thread, into a temporary file renamed when complete, then the manifest.
fn run_shard(a: &DatagenArgs, shard: crate::shard::Shard) -> CmdResult {
    use crate::shard;
    if a.threads != 1 {
        return Err("--shard needs --threads 1 (one game at a time gives the same bytes every run)".into());
    }
    a.eval.choice()?;
    let dir = &a.out;
    shard::make_dir(dir)?;
    let tmp = shard::temp_path(dir, shard, "datagen");
    let _ = std::fs::remove_file(&tmp);
    let part = shard.part(a.positions);
    let seed = shard::shard_seed(a.seed, shard.index);
    let name = dir.join(shard.data_name("datagen"));
    if let Err(e) = generate(a, &tmp, &name, part.end - part.start, seed) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    let records = record_count(std::fs::metadata(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?.len());
    let m = shard::Manifest {
        format: shard::FORMAT.to_owned(),
        kind: "datagen".to_owned(),
        shard: shard.index,
        shards: shard.count,
        run_seed: a.seed,
        shard_seed: seed,
        file: String::new(),
        bytes: 0,
        sha256: String::new(),
        records: Some(records),
        results: None,
    };
    let m = shard::finish(dir, &tmp, m)?;
    println!("{}", serde_json::to_string(&m).map_err(|e| e.to_string())?);
    Ok(())
}

/// Plays games into the data file `out` until it holds `target` records, the workers' games seeded from `seed`;
/// messages name the file `shown` (a shard's final name, not its temporary one).
fn generate(a: &DatagenArgs, out: &Path, shown: &Path, target: u64, seed: u64) -> CmdResult {
    let variant: VariantConfig = xiangqi_cli::uci::DEFAULT_VARIANT.parse().map_err(|e| format!("{e}"))?;
    // The network first: a missing one is an error before any file is touched.
    let eval = a.eval.choice()?;
    let (mut file, start_count) = open_data(out)?;
    if start_count >= target {
        eprintln!("{} already holds {start_count} records (target {target})", shown.display());
        return Ok(());
    }
    let work = Work {
        variant,
        eval,
        nodes: a.nodes,
        random_plies: a.random_plies,
        max_plies: a.max_plies,
        hash: a.hash as usize,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(4 * a.threads as usize);
    let mut handles = Vec::new();
    for t in 0..a.threads {
        let (work, stop, tx) = (work.clone(), stop.clone(), tx.clone());
        // Each worker's stream of games depends on the seed and its index only.
        let mut rng =
            StdRng::seed_from_u64(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ (t + 1).wrapping_mul(0x9E37_79B9));
        // Each worker's own engine: one search thread, its own table.
        let mut engine = SearchEngine::new(work.eval.clone())?;
        engine.set_variant(work.variant);
        engine.set_hash(work.hash)?;
        handles.push(std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let data = play_game(&work, &mut engine, &mut rng);
                if tx.send(data).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let started = Instant::now();
    let mut last = Instant::now();
    let (mut count, mut games) = (start_count, 0u64);
    let name = shown.display().to_string();
    let mut failure = None;
    while let Ok(data) = rx.recv() {
        let n = (data.len() / RECORD_BYTES) as u64;
        let take = n.min(target - count) as usize;
        if let Err(e) = file.write_all(&data[..take * RECORD_BYTES]) {
            failure = Some(format!("{name}: {e}"));
            break;
        }
        count += take as u64;
        games += 1;
        if !a.quiet && (last.elapsed() >= Duration::from_secs(10) || count >= target) {
            last = Instant::now();
            let secs = started.elapsed().as_secs_f64();
            let rate = (count - start_count) as f64 / secs.max(1e-9);
            eprintln!("datagen: {count}/{target} positions, {games} games, {rate:.0} positions/s, {:.0} s", secs);
        }
        if count >= target {
            break;
        }
    }
    stop.store(true, Ordering::Relaxed);
    drop(rx);
    for h in handles {
        let _ = h.join();
    }
    file.sync_all().map_err(|e| format!("{name}: {e}"))?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "datagen: done, {count} positions in {name} ({} new in {secs:.1} s, {:.0} positions/s)",
        count - start_count,
        (count - start_count) as f64 / secs.max(1e-9)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::{Position, Validation};
    use xiangqi_eval::nnue::data::read_records;

    fn tiny(out: &Path, positions: u64, seed: u64) -> DatagenArgs {
        DatagenArgs {
            out: out.to_owned(),
            positions,
            nodes: 300,
            threads: 2,
            seed,
            random_plies: 4,
            max_plies: 300,
            hash: 1,
            quiet: true,
            eval: crate::evalopt::EvalOpts::default(),
            shard: Default::default(),
        }
    }

    /// Reads a data file back with the trainer's reader, checking every record: a legal position not in check,
    /// the reserved byte 0, and the bytes the record encodes to.
    fn check_file(path: &Path) -> Vec<(Record, Position)> {
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(&bytes[..8], DATA_MAGIC);
        assert_eq!((bytes.len() - 8) % RECORD_BYTES, 0, "whole records only");
        let records = read_records(path, None).unwrap_or_else(|e| panic!("bad record: {e}"));
        assert_eq!(records.len() as u64, record_count(bytes.len() as u64));
        records
            .into_iter()
            .zip(bytes[8..].chunks(RECORD_BYTES))
            .map(|(rec, raw)| {
                let pos = Position::from_setup(&rec.setup(), Validation::Strict)
                    .unwrap_or_else(|e| panic!("record {}: {e}", rec.fen()));
                assert!(!pos.in_check(), "a position in check was kept: {}", pos.fen());
                assert_eq!(raw[47], 0);
                assert_eq!(&rec.encode()[..], raw);
                (rec, pos)
            })
            .collect()
    }

    #[test]
    fn records_get_the_result_of_their_side_to_move() {
        let red = Record::from_position(&Position::startpos(), 5, 1);
        let black = Record::from_position(&Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1").unwrap(), -5, 1);
        for (winner, results) in [(None, [1, 1]), (Some(Color::Red), [2, 0]), (Some(Color::Black), [0, 2])] {
            let bytes = finish_records(vec![red, black], winner);
            assert_eq!(bytes.len(), 2 * RECORD_BYTES);
            assert_eq!([bytes[46], bytes[RECORD_BYTES + 46]], results, "winner {winner:?}");
            assert_eq!(bytes[..46], red.encode()[..46]);
        }
    }

    #[test]
    fn tiny_run_then_resume() {
        let dir = std::env::temp_dir().join(format!("xiangqi-datagen-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.bin");
        let _ = std::fs::remove_file(&path);
        run(&tiny(&path, 40, 7)).unwrap();
        let first = check_file(&path);
        assert_eq!(first.len(), 40);
        // Both sides to move and more than one result occur in real games.
        assert!(
            first.iter().any(|(_, p)| p.turn() == Color::Red) && first.iter().any(|(_, p)| p.turn() == Color::Black)
        );
        // A torn record at the end (a killed run) is cut, and the run resumes up to the new target.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&[1, 2, 3]).unwrap();
        drop(f);
        run(&tiny(&path, 70, 8)).unwrap();
        let second = check_file(&path);
        assert_eq!(second.len(), 70);
        for (a, b) in first.iter().zip(&second) {
            assert_eq!(a, b, "resuming keeps what was there");
        }
        // A file of another kind is refused, not appended to.
        let other = dir.join("other.bin");
        std::fs::write(&other, b"not a datagen file at all").unwrap();
        assert!(open_data(&other).is_err());
        // A second generation: the searches evaluate with a network (here a random one, written to a file).
        let net = dir.join("net.nnue");
        std::fs::write(&net, xiangqi_eval::nnue::Network::random(16, 3).to_bytes()).unwrap();
        let gen2 = dir.join("gen2.bin");
        let mut args = tiny(&gen2, 30, 9);
        args.eval.nnue = Some(net);
        run(&args).unwrap();
        assert_eq!(check_file(&gen2).len(), 30);
        // A missing network is an error before any file is made.
        let missing = dir.join("missing.bin");
        args.out = missing.clone();
        args.eval.nnue = Some(dir.join("no-such-net.nnue"));
        assert!(run(&args).is_err());
        assert!(!missing.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
