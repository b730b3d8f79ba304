//! Searches a position with the playing engine for one second (or `--ms N`) and prints the principal variation.
//!
//! ```sh
//! cargo run --release -p xiangqi-search --example search_engine -- [FEN] [--ms N] [--threads T] [--nnue FILE]
//! ```

use std::error::Error;
use std::time::Duration;
use xiangqi_core::Position;
use xiangqi_eval::EvalChoice;
use xiangqi_search::{Limits, SearchEngine};

/// What the example prints, from its arguments.
fn run(args: &[String]) -> Result<String, Box<dyn Error>> {
    let (mut fen, mut ms, mut threads, mut eval) = (None, 1000, 1, EvalChoice::Handcrafted);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--ms" => ms = value()?.parse()?,
            "--threads" => threads = value()?.parse()?,
            "--nnue" => eval = EvalChoice::load(value()?.as_ref())?,
            _ if fen.is_none() => fen = Some(a.clone()),
            _ => return Err(format!("unexpected argument {a:?}").into()),
        }
    }
    let pos = match fen {
        Some(f) => Position::from_fen(&f)?,
        None => Position::startpos(),
    };

    // The whole engine: the `engine` variant, a 16 MB table, the threads, the evaluator built for each thread.
    let mut engine = SearchEngine::new(|p: &Position| eval.for_search(p))?;
    engine.set_threads(threads)?;
    let r = engine.search(&pos, &Limits::movetime(Duration::from_millis(ms)));

    let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
    let best = r.best_move.map_or("(none)".to_owned(), |m| m.to_string());
    Ok(format!(
        "evaluator {}\ndepth {} score {} nodes {} time {} ms\nbestmove {best}\npv {}\n",
        eval.describe(),
        r.depth,
        r.score,
        r.stats.nodes(),
        r.stats.elapsed.as_millis(),
        pv.join(" ")
    ))
}

fn main() -> Result<(), Box<dyn Error>> {
    print!("{}", run(&std::env::args().skip(1).collect::<Vec<_>>())?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::run;

    #[test]
    fn searches_for_the_given_time_and_prints_a_legal_line() {
        let text = run(&["--ms".to_owned(), "300".to_owned()]).unwrap();
        let pv = text.lines().find_map(|l| l.strip_prefix("pv ")).unwrap();
        let mut pos = xiangqi_core::Position::startpos();
        for m in pv.split_whitespace() {
            pos.play(m).unwrap();
        }
        assert!(!pv.is_empty(), "{text}");
        assert!(run(&["--nnue".to_owned(), "no/such/file".to_owned()]).is_err());
        assert!(run(&["not a fen".to_owned()]).is_err());
    }
}
