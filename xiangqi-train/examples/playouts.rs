//! Writes a training data file of random-playout positions scored by the handcrafted evaluator, for trying the
//! trainer without `xiangqi datagen`: `cargo run -p xiangqi-train --release --example playouts -- OUT.bin COUNT [SEED]`.
//! (The result byte is read from the score: a win above +150, a loss below -150, else a draw; real data comes from
//! self-play games.)

use std::process::ExitCode;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use xiangqi_core::Position;
use xiangqi_eval::Handcrafted;
use xiangqi_train::data::{write_records, Record};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(out), Some(Ok(count))) = (args.first(), args.get(1).map(|c| c.parse::<usize>())) else {
        eprintln!("usage: playouts OUT.bin COUNT [SEED]");
        return ExitCode::FAILURE;
    };
    let seed = match args.get(2).map(|s| s.parse::<u64>()) {
        None => 1,
        Some(Ok(s)) => s,
        Some(Err(e)) => {
            eprintln!("playouts: bad seed: {e}");
            return ExitCode::FAILURE;
        }
    };
    let eval = Handcrafted::default();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut recs = Vec::with_capacity(count);
    while recs.len() < count {
        let mut pos = Position::startpos();
        for ply in 0..120 {
            let moves = xiangqi_movegen::legal_moves(&pos);
            if moves.is_empty() || recs.len() >= count {
                break;
            }
            pos.make_move(moves[rng.random_range(0..moves.len())]);
            if ply >= 4 && !pos.in_check() {
                let score = eval.evaluate(&pos);
                let result = if score > 150 {
                    2
                } else if score < -150 {
                    0
                } else {
                    1
                };
                recs.push(Record::from_position(&pos, score, result));
            }
        }
    }
    if let Err(e) = write_records(std::path::Path::new(out), &recs) {
        eprintln!("playouts: cannot write {out}: {e}");
        return ExitCode::FAILURE;
    }
    eprintln!("wrote {} positions to {out}", recs.len());
    ExitCode::SUCCESS
}
