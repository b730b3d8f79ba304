//! Replays a game from its moves (UCI coordinates such as `h2e2`, or ICCS such as `H2-E2`) and prints the final
//! position, and the result with the rule that decided it when the game is over.
//!
//! ```sh
//! cargo run -p xiangqi-core --example replay -- [--fen FEN] h2e2 h9g7 ...
//! ```

use std::error::Error;
use xiangqi_core::Game;

/// What the example prints, from its arguments.
fn run(args: &[String]) -> Result<String, Box<dyn Error>> {
    let mut game = Game::startpos();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--fen" {
            game = Game::from_fen(it.next().ok_or("--fen needs a value")?)?;
        } else {
            game.play(a)?;
        }
    }
    let mut out = format!("{}\nfen {}\nplies {}\n", game.position(), game.position().fen(), game.plies());
    match game.result() {
        Some(r) => out.push_str(&format!("result {r} ({})\n", r.reason.as_str())),
        None => out.push_str(&format!(
            "{} to move, {} legal moves\n",
            game.position().turn(),
            game.position().legal_moves().len()
        )),
    }
    Ok(out)
}

fn main() -> Result<(), Box<dyn Error>> {
    print!("{}", run(&std::env::args().skip(1).collect::<Vec<_>>())?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::run;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn replays_to_the_result_and_refuses_bad_moves() {
        let mut a = vec!["--fen".to_owned(), "4k4/8R/9/9/9/9/9/9/R8/3K5 w".to_owned(), "a1a9".to_owned()];
        let text = run(&a).unwrap();
        assert!(text.contains("(checkmate)"), "{text}");
        a.push("e9e8".to_owned()); // after the mate
        assert!(run(&a).is_err());
        let text = run(&args("h2e2 h9g7")).unwrap();
        assert!(text.contains("fen rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"), "{text}");
        assert!(run(&args("h2e2 h2e2")).is_err());
    }
}
