//! Plays a move with the playing engine and each evaluator, depending on the library crates by path: the check that
//! the engine is usable without the command-line tool. Exits with an error if a move is missing or illegal.
//!
//! `cargo run --manifest-path tests/outside-crate/Cargo.toml [-- NETWORK.nnue]`: the handcrafted evaluator, the
//! built-in network, and the network of the file when one is given.

use xiangqi_core::{Game, Position};
use xiangqi_eval::EvalChoice;
use xiangqi_search::{Limits, SearchEngine};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut evaluators = vec![EvalChoice::Handcrafted, EvalChoice::engine_default()];
    if let Some(path) = std::env::args().nth(1) {
        evaluators.push(EvalChoice::load(path.as_ref())?);
    }
    let mut game = Game::startpos();
    for eval in evaluators {
        let mut engine = SearchEngine::new(|p: &Position| eval.for_search(p))?;
        let pos = game.position().clone();
        let r = engine.search(&pos, &Limits::nodes(5_000));
        let m = r.best_move.ok_or("no move")?;
        if !pos.is_legal(m) {
            return Err(format!("{} played the illegal move {m}", eval.describe()).into());
        }
        game.push(m)?;
        println!("{}: {m} (depth {}, score {}, {} nodes)", eval.describe(), r.depth, r.score, r.stats.nodes());
    }
    println!("every evaluator played a legal move: {}", game.position().fen());
    Ok(())
}
