//! Plays a move with the playing engine and each evaluator, depending on the library crates by path: the check that
//! the engine is usable without the command-line tool. Exits with an error if a move is missing or illegal.
//!
//! `cargo run --manifest-path tests/outside-crate/Cargo.toml [-- NETWORK.nnue]`: without a network file, a random
//! network stands in for the neural evaluator.

use std::sync::Arc;
use xiangqi_core::{Game, Position};
use xiangqi_eval::nnue::Network;
use xiangqi_eval::EvalChoice;
use xiangqi_search::{Limits, SearchEngine};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let network = match std::env::args().nth(1) {
        Some(path) => EvalChoice::load(path.as_ref())?,
        None => EvalChoice::Nnue(Arc::new(Network::random(64, 1))),
    };
    let mut game = Game::startpos();
    for eval in [EvalChoice::Handcrafted, network] {
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
    println!("both evaluators played a legal move: {}", game.position().fen());
    Ok(())
}
