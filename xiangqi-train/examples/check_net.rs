//! Compares a network file's integer evaluations, and the handcrafted evaluator's, with the search scores and results
//! of a data file:
//! `cargo run -p xiangqi-train --release --example check_net -- NET.nnue DATA.bin [COUNT]` (the last COUNT records,
//! 20,000 by default).

use std::path::Path;
use std::process::ExitCode;

use xiangqi_core::Position;
use xiangqi_eval::nnue::Network;
use xiangqi_eval::Handcrafted;
use xiangqi_train::data::{read_records, Record};
use xiangqi_train::net::reference_eval;

fn run(args: &[String]) -> Result<(), String> {
    let [net, data, rest @ ..] = args else {
        return Err("usage: check_net NET.nnue DATA.bin [COUNT]".into());
    };
    let count: usize = match rest.first() {
        Some(c) => c.parse().map_err(|e| format!("bad COUNT {c}: {e}"))?,
        None => 20_000,
    };
    let net = Network::load(Path::new(net)).map_err(|e| format!("{net}: {e}"))?;
    let recs = read_records(Path::new(data), None).map_err(|e| e.to_string())?;
    let recs = &recs[recs.len().saturating_sub(count)..];
    if recs.is_empty() {
        return Err(format!("{data} holds no records"));
    }
    let hand = Handcrafted::default();
    let report = |name: &str, eval: &dyn Fn(&Record) -> Result<i32, String>| -> Result<(), String> {
        let (mut abs, mut sx, mut sy, mut sxx, mut syy, mut sxy) = (0.0f64, 0.0, 0.0, 0.0, 0.0, 0.0);
        let (mut agree, mut decided) = (0usize, 0usize);
        for r in recs {
            let (x, y) = (f64::from(eval(r)?), f64::from(r.score));
            abs += (x - y).abs();
            (sx, sy, sxx, syy, sxy) = (sx + x, sy + y, sxx + x * x, syy + y * y, sxy + x * y);
            if r.result != 1 {
                decided += 1;
                agree += usize::from((x > 0.0) == (r.result == 2));
            }
        }
        let n = recs.len() as f64;
        let var = |s: f64, ss: f64| (ss / n - (s / n).powi(2)).sqrt();
        let cov = sxy / n - sx / n * sy / n;
        let corr = cov / (var(sx, sxx) * var(sy, syy));
        // The eval's scale against the search score's: the least-squares slope of the eval on the score.
        let slope = cov / var(sy, syy).powi(2);
        println!(
            "{name}: mean |eval - search score| {:.1}, correlation {corr:.3}, slope {slope:.2}; the sign of the eval \
             is the game's result in {:.1}% of {decided} positions of decided games",
            abs / n,
            100.0 * agree as f64 / decided.max(1) as f64,
        );
        Ok(())
    };
    println!("{} positions; network hidden {}, training hash {:016x}", recs.len(), net.hidden(), net.hash());
    report("network", &|r| Ok(reference_eval(&net, r)))?;
    report("handcrafted", &|r| {
        let pos = Position::from_fen(&r.fen()).map_err(|e| format!("record {}: {e}", r.fen()))?;
        Ok(hand.evaluate(&pos))
    })?;
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("check_net: {e}");
            ExitCode::FAILURE
        }
    }
}
