//! Training data for the neural evaluation from the engine's games against itself: the self-play generator and the
//! data file it appends to, what `xiangqi datagen` runs.
//!
//! Each worker thread plays its own games, one after the other: a built-in opening ([`crate::openings::builtin`]),
//! then a few random plies (seeded), then the engine plays both sides at a fixed node count per move, on the
//! worker's own single-threaded search, with the evaluator of [`SelfPlay::eval`]. Every position the engine searched
//! becomes a record unless it is in check, its best move is a capture, or its score is a mate score. When the game
//! ends (by the rules of [`xiangqi_core::Game`], or as a draw at the ply cap) its records get the result and are
//! appended to the file in one write, so a stopped run loses only the games in flight.
//!
//! The file format is defined once, in [`xiangqi_eval::nnue::data`], and the trainer reads it with the same
//! definition: the magic [`DATA_MAGIC`] (`XQDATA01`), then [`RECORD_BYTES`]-byte records, each a [`Record`] (the
//! board, the side to move, the result and the search score for the side to move, clamped to `-10000..=10000`).
//! [`open_data`] opens such a file to append to it (resume), after checking its magic and cutting a torn record at
//! its end; [`generate`] plays games into it until it holds a target number of records; [`generate_shard`] is one
//! shard of a distributed run ([`crate::shard`]).
//!
//! ```
//! use xiangqi_eval::nnue::data::read_records;
//! use xiangqi_eval::EvalChoice;
//! use xiangqi_match::selfplay::{generate, SelfPlay};
//!
//! let path = std::env::temp_dir().join(format!("xiangqi-selfplay-doc-{}.bin", std::process::id()));
//! let settings = SelfPlay { nodes: 200, hash_mb: 1, ..SelfPlay::new(EvalChoice::Handcrafted) };
//! let done = generate(&settings, &path, 20, 7, &mut |_| {}).unwrap();
//! assert_eq!((done.start, done.count), (0, 20));
//! assert_eq!(read_records(&path, None).unwrap().len(), 20);
//! std::fs::remove_file(&path).unwrap();
//! ```

use crate::shard::{self, Manifest, Shard, ShardError};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;
use xiangqi_core::{Color, Game};
use xiangqi_eval::nnue::data::{record_count, Record, DATA_MAGIC, RECORD_BYTES};
use xiangqi_eval::EvalChoice;
use xiangqi_search::{Limits, SearchEngine, VariantConfig, ENGINE_VARIANT, MATE_BOUND};

/// Why self-play stopped with an error; the message names the file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SelfPlayError(pub String);

impl From<String> for SelfPlayError {
    fn from(message: String) -> SelfPlayError {
        SelfPlayError(message)
    }
}

impl From<ShardError> for SelfPlayError {
    fn from(e: ShardError) -> SelfPlayError {
        SelfPlayError(e.0)
    }
}

/// The settings of self-play: how each worker plays its games.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Nodes per move of the searches.
    pub nodes: u64,
    /// Worker threads, each playing its own games with a single-threaded search.
    pub threads: u64,
    /// Random plies played after the opening, before the engine takes over.
    pub random_plies: u32,
    /// A game not over after this many plies is adjudicated a draw.
    pub max_plies: u32,
    /// Transposition table size per worker in MB.
    pub hash_mb: usize,
    /// The evaluator of the searches.
    pub eval: EvalChoice,
    /// The search's variant (the playing engine's by default).
    pub variant: VariantConfig,
}

impl SelfPlay {
    /// The defaults of `xiangqi datagen` (4,000 nodes a move, one thread, 4 random plies, a draw at 300 plies, a
    /// 4 MB table, the engine's variant) with the evaluator `eval`.
    pub fn new(eval: EvalChoice) -> SelfPlay {
        SelfPlay {
            nodes: 4000,
            threads: 1,
            random_plies: 4,
            max_plies: 300,
            hash_mb: 4,
            eval,
            variant: ENGINE_VARIANT.parse().expect("the engine variant parses"),
        }
    }
}

/// What [`generate`] reports as it goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event {
    /// The file ended in a torn record of this many bytes (a run killed mid-write), cut before appending.
    Cut(u64),
    /// The file already holds this many records, the target or more: nothing to do.
    Full(u64),
    /// A game's records were appended: the file now holds `count` records after `games` games in `seconds`.
    Game {
        /// Records in the file.
        count: u64,
        /// Records appended by this run.
        new: u64,
        /// Games played in this run.
        games: u64,
        /// Seconds since the run started.
        seconds: f64,
    },
}

/// What [`generate`] did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Generated {
    /// Records in the file when it started.
    pub start: u64,
    /// Records in the file at the end.
    pub count: u64,
    /// Games played.
    pub games: u64,
    /// Seconds it took.
    pub seconds: f64,
}

/// The bytes of a game's records, each with the game's result for its side to move (`winner` is `None` for a
/// draw).
pub fn finish_records(records: Vec<Record>, winner: Option<Color>) -> Vec<u8> {
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

/// A data file opened for appending ([`open_data`]).
#[derive(Debug)]
pub struct DataFile {
    /// The file, positioned at its end.
    pub file: File,
    /// The whole records it holds.
    pub records: u64,
    /// The bytes of a torn record cut from its end (0 when it ended on a whole record).
    pub cut: u64,
}

/// Opens (or creates, with its header) the data file `path` for appending, after checking its magic and cutting a
/// trailing partial record.
///
/// # Errors
/// When the file cannot be opened or written, or is not a data file (no `XQDATA01` header): it is then not touched.
pub fn open_data(path: &Path) -> Result<DataFile, SelfPlayError> {
    let name = path.display();
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("cannot open {name}: {e}"))?;
    let len = file.metadata().map_err(|e| format!("{name}: {e}"))?.len();
    let mut cut = 0;
    if len == 0 {
        file.write_all(DATA_MAGIC).map_err(|e| format!("{name}: {e}"))?;
    } else {
        let mut magic = [0u8; 8];
        if len < 8 || file.read_exact(&mut magic).is_err() || &magic != DATA_MAGIC {
            return Err(format!("{name} is not a datagen file (no XQDATA01 header); refusing to append").into());
        }
        let whole = 8 + record_count(len) * RECORD_BYTES as u64;
        if whole != len {
            cut = len - whole;
            file.set_len(whole).map_err(|e| format!("{name}: {e}"))?;
        }
    }
    let end = file.seek(SeekFrom::End(0)).map_err(|e| format!("{name}: {e}"))?;
    Ok(DataFile { file, records: record_count(end), cut })
}

/// Plays one game and returns its records with the results filled in (nothing when the random plies end the game).
fn play_game(work: &SelfPlay, engine: &mut SearchEngine<EvalChoice>, rng: &mut StdRng) -> Vec<u8> {
    let openings = crate::openings::builtin();
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

/// Plays games into the data file `out` (created, or resumed: see [`open_data`]) until it holds `target` records,
/// the workers' games seeded from `seed` (with one thread, the same bytes for the same settings and seed), calling
/// `report` as it goes. Error messages name the file `out`.
///
/// # Errors
/// When the file cannot be opened or written, or an engine cannot be set up.
pub fn generate(
    settings: &SelfPlay,
    out: &Path,
    target: u64,
    seed: u64,
    report: &mut dyn FnMut(Event),
) -> Result<Generated, SelfPlayError> {
    let opened = open_data(out)?;
    let (mut file, start_count) = (opened.file, opened.records);
    if opened.cut > 0 {
        report(Event::Cut(opened.cut));
    }
    let started = Instant::now();
    if start_count >= target {
        report(Event::Full(start_count));
        return Ok(Generated { start: start_count, count: start_count, games: 0, seconds: 0.0 });
    }
    let threads = settings.threads.max(1);
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(4 * threads as usize);
    let mut handles = Vec::new();
    for t in 0..threads {
        let (work, stop, tx) = (settings.clone(), stop.clone(), tx.clone());
        // Each worker's stream of games depends on the seed and its index only.
        let mut rng =
            StdRng::seed_from_u64(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ (t + 1).wrapping_mul(0x9E37_79B9));
        // Each worker's own engine: one search thread, its own table.
        let mut engine = SearchEngine::new(work.eval.clone()).map_err(|e| e.to_string())?;
        engine.set_variant(work.variant);
        engine.set_hash(work.hash_mb).map_err(|e| e.to_string())?;
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
    let (mut count, mut games) = (start_count, 0u64);
    let name = out.display().to_string();
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
        report(Event::Game { count, new: count - start_count, games, seconds: started.elapsed().as_secs_f64() });
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
    Ok(Generated { start: start_count, count, games, seconds: started.elapsed().as_secs_f64() })
}

/// Shard `shard` of a self-play run of `positions` records seeded `run_seed`, into the directory `dir` (created if
/// missing): this shard's part of the positions, from the shard's own seed ([`shard::shard_seed`]), on one worker
/// thread, into a temporary file renamed when complete, then the manifest ([`shard::finish`]); returns what
/// [`generate`] did and the manifest.
/// `report` gets [`generate`]'s events.
///
/// # Errors
/// When `settings` has more than one thread (several workers interleave their games differently from run to run),
/// or as [`generate`].
pub fn generate_shard(
    settings: &SelfPlay,
    dir: &Path,
    shard: Shard,
    positions: u64,
    run_seed: u64,
    report: &mut dyn FnMut(Event),
) -> Result<(Generated, Manifest), SelfPlayError> {
    if settings.threads != 1 {
        return Err(SelfPlayError(
            "--shard needs --threads 1 (one game at a time gives the same bytes every run)".to_owned(),
        ));
    }
    shard::make_dir(dir)?;
    let tmp = shard::temp_path(dir, shard, "datagen");
    let _ = std::fs::remove_file(&tmp);
    let part = shard.part(positions);
    let seed = shard::shard_seed(run_seed, shard.index);
    let generated = match generate(settings, &tmp, part.end - part.start, seed, report) {
        Ok(g) => g,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            // The message names the shard's final file, not its temporary one.
            let name = dir.join(shard.data_name("datagen"));
            return Err(SelfPlayError(e.0.replace(&tmp.display().to_string(), &name.display().to_string())));
        }
    };
    let records = record_count(std::fs::metadata(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?.len());
    let m = Manifest::new("datagen", shard, run_seed, seed, Some(records), None);
    Ok((generated, shard::finish(dir, &tmp, m)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::{Position, Validation};
    use xiangqi_eval::nnue::data::read_records;

    /// Two workers at 300 nodes a move with the default evaluator.
    fn tiny() -> SelfPlay {
        SelfPlay { nodes: 300, threads: 2, hash_mb: 1, ..SelfPlay::new(EvalChoice::engine_default()) }
    }

    fn run(out: &Path, positions: u64, seed: u64, settings: &SelfPlay) -> Result<Generated, SelfPlayError> {
        generate(settings, out, positions, seed, &mut |_| {})
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
        run(&path, 40, 7, &tiny()).unwrap();
        let first = check_file(&path);
        assert_eq!(first.len(), 40);
        // Both sides to move and more than one result occur in real games.
        assert!(
            first.iter().any(|(_, p)| p.turn() == Color::Red) && first.iter().any(|(_, p)| p.turn() == Color::Black)
        );
        // A torn record at the end (a killed run) is cut, and the run resumes up to the new target.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        // (A torn record is reported, then cut.)
        f.write_all(&[1, 2, 3]).unwrap();
        drop(f);
        run(&path, 70, 8, &tiny()).unwrap();
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
        let settings = SelfPlay { eval: EvalChoice::load(&net).unwrap(), ..tiny() };
        run(&gen2, 30, 9, &settings).unwrap();
        assert_eq!(check_file(&gen2).len(), 30);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
