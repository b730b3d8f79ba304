//! Evaluates a position: the handcrafted evaluator's breakdown by term and side, and a network's score.
//!
//! ```sh
//! cargo run --release -p xiangqi-eval --example evaluate -- [FEN] [--nnue FILE]
//! ```
//!
//! Without `--nnue` the network is a random one (hidden layer of 32): it shows the interface, not a judgement.

use std::error::Error;
use std::sync::Arc;
use xiangqi_core::Position;
use xiangqi_eval::nnue::Network;
use xiangqi_eval::{EvalChoice, Handcrafted};

/// What the example prints, from its arguments.
fn run(args: &[String]) -> Result<String, Box<dyn Error>> {
    let (mut fen, mut net) = (None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--nnue" => net = Some(Network::load(it.next().ok_or("--nnue needs a file")?.as_ref())?),
            _ if fen.is_none() => fen = Some(a.clone()),
            _ => return Err(format!("unexpected argument {a:?}").into()),
        }
    }
    let pos = match fen {
        Some(f) => Position::from_fen(&f)?,
        None => Position::startpos(),
    };
    let mut out = Handcrafted::default().trace(&pos).table(&pos.fen());
    let nnue = EvalChoice::Nnue(Arc::new(net.unwrap_or_else(|| Network::random(32, 1))));
    out.push_str(&format!("{}: {:+} for the side to move\n", nnue.describe(), nnue.evaluate(&pos)));
    Ok(out)
}

fn main() -> Result<(), Box<dyn Error>> {
    print!("{}", run(&std::env::args().skip(1).collect::<Vec<_>>())?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::run;

    #[test]
    fn prints_the_breakdown_and_a_network_score() {
        let fen = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let text = run(&[fen.to_owned()]).unwrap();
        let total = xiangqi_eval::Handcrafted::default().evaluate(&xiangqi_core::Position::from_fen(fen).unwrap());
        assert!(text.contains(&format!("Evaluation: {total:+} for")), "{text}");
        assert!(text.lines().last().unwrap().starts_with("nnue (hidden 32"), "{text}");
        assert!(run(&["--nnue".to_owned(), "no/such/file".to_owned()]).is_err());
    }
}
