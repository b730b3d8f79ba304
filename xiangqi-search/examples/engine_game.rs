//! Plays a whole game, the engine against itself (or against the engine with another evaluator), and prints the
//! moves, the result and the rule that decided it.
//!
//! ```sh
//! cargo run --release -p xiangqi-search --example engine_game -- [--nodes N | --ms N] [--red FILE.nnue] [--black FILE.nnue] [--fen FEN]
//! ```
//!
//! Each side is a [`SearchEngine`] that keeps its table from move to move; the game's record
//! ([`xiangqi_core::Game`]) judges every move: mate, stalemate, repetition with perpetual check and chase, the
//! 60-move rule, insufficient material.

use std::error::Error;
use std::time::Duration;
use xiangqi_core::{Color, Game, Position};
use xiangqi_eval::{ChosenEval, EvalChoice};
use xiangqi_search::{EngineError, Limits, SearchEngine};

/// What the example prints, from its arguments.
fn run(args: &[String]) -> Result<String, Box<dyn Error>> {
    let mut limits = Limits::nodes(20_000);
    let (mut red, mut black) = (EvalChoice::Handcrafted, EvalChoice::Handcrafted);
    let mut game = Game::startpos();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--nodes" => limits = Limits::nodes(value()?.parse()?),
            "--ms" => limits = Limits::movetime(Duration::from_millis(value()?.parse()?)),
            "--red" => red = EvalChoice::load(value()?.as_ref())?,
            "--black" => black = EvalChoice::load(value()?.as_ref())?,
            "--fen" => game = Game::from_fen(value()?)?,
            _ => return Err(format!("unexpected argument {a:?}").into()),
        }
    }

    let mut engines = [engine(red.clone())?, engine(black.clone())?];
    let mut moves = Vec::new();
    while game.result().is_none() {
        let side = game.position().turn();
        // The position carries the game's history, so the search applies the repetition rules too.
        let r = engines[side.index()].search(game.position(), &limits);
        let m = r.best_move.ok_or("the search found no move in a position with moves")?;
        game.push(m)?;
        moves.push(m.to_string());
    }
    let result = game.result().expect("the loop ends when the game does");
    let score = match result.winner {
        Some(Color::Red) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    Ok(format!(
        "red {}, black {}\nmoves {}\nplies {}\nresult {score} ({})\n",
        red.describe(),
        black.describe(),
        moves.join(" "),
        game.plies(),
        result.reason.as_str()
    ))
}

/// An engine that evaluates with `choice` (one function, so that both sides' engines have the same type).
fn engine(choice: EvalChoice) -> Result<SearchEngine<impl Fn(&Position) -> ChosenEval + Sync>, EngineError> {
    SearchEngine::new(move |p: &Position| choice.for_search(p))
}

fn main() -> Result<(), Box<dyn Error>> {
    print!("{}", run(&std::env::args().skip(1).collect::<Vec<_>>())?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::run;

    #[test]
    fn plays_a_game_to_its_end_and_names_the_rule() {
        let text = run(&["--nodes".to_owned(), "300".to_owned()]).unwrap();
        let moves = text.lines().find_map(|l| l.strip_prefix("moves ")).unwrap();
        // Replayed by the rules, the moves end the game with the printed result.
        let mut game = xiangqi_core::Game::startpos();
        for m in moves.split_whitespace() {
            game.play(m).unwrap();
        }
        let result = game.result().expect("the game is over");
        let line = text.lines().find(|l| l.starts_with("result ")).unwrap();
        assert!(line.ends_with(&format!("({})", result.reason.as_str())), "{text}");
    }
}
