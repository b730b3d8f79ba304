//! `xiangqi datagen`: training data for the neural evaluation, from the engine's games against itself.
//!
//! Each worker thread plays its own games, one after the other: a built-in opening (see
//! [`crate::matches::openings`]), then a few random plies (seeded), then the default engine (handcrafted evaluation)
//! plays both sides at a fixed node count per move, on the worker's own single-threaded search. Every position the
//! engine searched becomes a record unless it is in check, its best move is a capture, or its score is a mate score.
//! When the game ends (by the rules of [`xiangqi_core::Game`], or as a draw at the ply cap) its records get the
//! result and are appended to the file in one write, so a stopped run loses only the games in flight.
//!
//! The file format (the trainer reads exactly this; `xiangqi_eval::nnue` documents the network side):
//! an 8-byte magic `XQDATA01`, then records of [`RECORD_SIZE`] bytes: the board as 90 nibbles (square `i` in byte
//! `i / 2`, the low nibble for even `i`; 0 empty, `1 + kind` for Red, `9 + kind` for Black, kinds in
//! [`PieceKind`](xiangqi_core::PieceKind) order), the side to move (0 Red, 1 Black), the result for the side to move (0 loss, 1 draw, 2 win),
//! a zero byte, and the search score for the side to move as an `i16` little-endian, clamped to
//! `-10000..=10000`.

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
use xiangqi_core::{Color, Game, Piece, Position, Square};
#[cfg(test)]
use xiangqi_core::{PieceKind, Setup, Validation};
use xiangqi_eval::EvalChoice;
use xiangqi_search::{Limits, SearchEngine, VariantSpec, MATE_BOUND};

/// The file's magic: the first 8 bytes.
pub const MAGIC: &[u8; 8] = b"XQDATA01";
/// The size of one record in bytes.
pub const RECORD_SIZE: usize = 50;
/// Scores are clamped to this magnitude.
pub const SCORE_CLAMP: i32 = 10_000;

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
}

/// The nibble of a piece.
fn nibble(p: Piece) -> u8 {
    let k = p.kind as u8 + 1;
    match p.color {
        Color::Red => k,
        Color::Black => 8 + k,
    }
}

#[cfg(test)]
/// The piece of a nibble, `None` for empty; an error for the unused codes 8.
fn piece_of(n: u8) -> Result<Option<Piece>, String> {
    let color = if n & 8 == 0 { Color::Red } else { Color::Black };
    match n & 7 {
        0 if n == 0 => Ok(None),
        0 => Err(format!("nibble {n} is no piece")),
        k => Ok(Some(Piece::new(color, PieceKind::from_index(usize::from(k - 1)).expect("kinds 0..7")))),
    }
}

/// The record of `pos` with `score` for the side to move; the result (byte 46) is filled in when the game ends.
pub fn encode(pos: &Position, score: i32) -> [u8; RECORD_SIZE] {
    let mut r = [0u8; RECORD_SIZE];
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            let i = sq.index();
            r[i / 2] |= nibble(p) << (4 * (i % 2));
        }
    }
    r[45] = pos.turn() as u8;
    let s = score.clamp(-SCORE_CLAMP, SCORE_CLAMP) as i16;
    r[48..50].copy_from_slice(&s.to_le_bytes());
    r
}

/// What a record holds.
#[cfg(test)]
#[derive(Debug, Clone)]
pub struct DecodedRecord {
    /// The position (without history).
    pub pos: Position,
    /// The result for the side to move: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// The search score for the side to move.
    pub score: i16,
}

#[cfg(test)]
/// Reads a record back, checking that it holds a legal position and a known result.
pub fn decode(r: &[u8]) -> Result<DecodedRecord, String> {
    if r.len() != RECORD_SIZE {
        return Err(format!("a record has {RECORD_SIZE} bytes, not {}", r.len()));
    }
    let mut board = [None; 90];
    for (i, slot) in board.iter_mut().enumerate() {
        *slot = piece_of((r[i / 2] >> (4 * (i % 2))) & 15)?;
    }
    let turn = match r[45] {
        0 => Color::Red,
        1 => Color::Black,
        t => return Err(format!("side to move {t}")),
    };
    if r[46] > 2 {
        return Err(format!("result {}", r[46]));
    }
    let setup = Setup { board, turn, halfmoves: 0, fullmoves: 1 };
    let pos = Position::from_setup(&setup, Validation::Strict).map_err(|e| e.to_string())?;
    Ok(DecodedRecord { pos, result: r[46], score: i16::from_le_bytes([r[48], r[49]]) })
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
        file.write_all(MAGIC).map_err(|e| format!("{name}: {e}"))?;
    } else {
        let mut magic = [0u8; 8];
        if len < 8 || file.read_exact(&mut magic).is_err() || &magic != MAGIC {
            return Err(format!("{name} is not a datagen file (no XQDATA01 header); refusing to append"));
        }
        let records = (len - 8) / RECORD_SIZE as u64;
        let whole = 8 + records * RECORD_SIZE as u64;
        if whole != len {
            eprintln!("{name}: cutting a partial record of {} bytes at the end", len - whole);
            file.set_len(whole).map_err(|e| format!("{name}: {e}"))?;
        }
    }
    let end = file.seek(SeekFrom::End(0)).map_err(|e| format!("{name}: {e}"))?;
    Ok((file, (end - 8) / RECORD_SIZE as u64))
}

/// One worker's settings.
#[derive(Clone)]
struct Work {
    spec: VariantSpec,
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
    let mut records: Vec<[u8; RECORD_SIZE]> = Vec::new();
    while !game.is_over() && game.plies() < work.max_plies as usize {
        let pos = game.position();
        // Each move is searched as a first search orders it (the table is kept): the games are reproducible.
        engine.forget_ordering();
        let r = engine.search(pos, &limits);
        let Some(best) = r.best_move else { break };
        let quiet = pos.piece_at(best.to()).is_none();
        if !pos.in_check() && quiet && r.score.abs() < MATE_BOUND {
            records.push(encode(pos, r.score));
        }
        if game.push(best).is_err() {
            break;
        }
    }
    let winner = game.result().and_then(|g| g.winner);
    let mut out = Vec::with_capacity(records.len() * RECORD_SIZE);
    for mut r in records {
        let stm = if r[45] == 0 { Color::Red } else { Color::Black };
        r[46] = match winner {
            None => 1,
            Some(c) if c == stm => 2,
            Some(_) => 0,
        };
        out.extend_from_slice(&r);
    }
    out
}

/// `xiangqi datagen`.
pub fn run(a: &DatagenArgs) -> CmdResult {
    let spec: VariantSpec = xiangqi_cli::uci::DEFAULT_VARIANT.parse().map_err(|e| format!("{e}"))?;
    // The network first: a missing one is an error before any file is touched.
    let eval = a.eval.choice()?;
    let (mut file, start_count) = open_data(&a.out)?;
    let target = a.positions;
    if start_count >= target {
        eprintln!("{} already holds {start_count} records (target {target})", a.out.display());
        return Ok(());
    }
    let work = Work {
        spec,
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
            StdRng::seed_from_u64(a.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ (t + 1).wrapping_mul(0x9E37_79B9));
        // Each worker's own engine: one search thread, its own table.
        let mut engine = SearchEngine::new(work.eval.clone())?;
        engine.set_variant(work.spec);
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
    let name = a.out.display().to_string();
    let mut failure = None;
    while let Ok(data) = rx.recv() {
        let n = (data.len() / RECORD_SIZE) as u64;
        let take = n.min(target - count) as usize;
        if let Err(e) = file.write_all(&data[..take * RECORD_SIZE]) {
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
        }
    }

    fn check_file(path: &Path) -> Vec<DecodedRecord> {
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!((bytes.len() - 8) % RECORD_SIZE, 0, "whole records only");
        bytes[8..]
            .chunks(RECORD_SIZE)
            .map(|r| {
                let d = decode(r).unwrap_or_else(|e| panic!("bad record: {e}"));
                assert!(!d.pos.in_check(), "a position in check was kept: {}", d.pos.fen());
                assert!(d.result <= 2);
                assert_eq!(r[47], 0);
                assert!(i32::from(d.score).abs() <= SCORE_CLAMP);
                // The record is the position it decodes to.
                assert_eq!(&encode(&d.pos, i32::from(d.score))[..46], &r[..46]);
                d
            })
            .collect()
    }

    #[test]
    fn encode_decode_round_trip() {
        let pos = Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1").unwrap();
        let r = encode(&pos, -12345);
        let d = decode(&r).unwrap();
        assert_eq!(d.pos.fen(), pos.fen());
        assert_eq!(d.score, -10000);
        let mut bad = r;
        bad[45] = 2;
        assert!(decode(&bad).is_err());
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
        assert!(first.iter().any(|d| d.pos.turn() == Color::Red) && first.iter().any(|d| d.pos.turn() == Color::Black));
        // A torn record at the end (a killed run) is cut, and the run resumes up to the new target.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&[1, 2, 3]).unwrap();
        drop(f);
        run(&tiny(&path, 70, 8)).unwrap();
        let second = check_file(&path);
        assert_eq!(second.len(), 70);
        for (a, b) in first.iter().zip(&second) {
            assert_eq!(a.pos.fen(), b.pos.fen(), "resuming keeps what was there");
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
