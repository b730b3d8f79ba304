//! Writes a training data file of random-playout positions scored by the handcrafted evaluator, for trying the
//! trainer without `xiangqi datagen`: `cargo run -p xiangqi-train --release --example playouts -- OUT.bin COUNT [SEED]`.
//! (The result byte is read from the score: a win above +150, a loss below -150, else a draw; real data comes from
//! self-play games.)

use std::process::ExitCode;

use xiangqi_train::data::{playout_records, write_records};

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
    let recs = playout_records(count, 120, seed);
    if let Err(e) = write_records(std::path::Path::new(out), &recs) {
        eprintln!("playouts: cannot write {out}: {e}");
        return ExitCode::FAILURE;
    }
    eprintln!("wrote {} positions to {out}", recs.len());
    ExitCode::SUCCESS
}
