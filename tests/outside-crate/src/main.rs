//! Plays a move with the playing engine and each evaluator, depending on the library crates by path: the check that
//! the engine is usable without the command-line tool. Exits with an error if a move is missing or illegal. Then
//! measures a match from its counts with `xiangqi-match` (Elo, the SPRT's state, a typed error), starting no engine,
//! and exits with an error if a figure is not the one expected.
//!
//! `cargo run --manifest-path tests/outside-crate/Cargo.toml [-- NETWORK.nnue]`: the handcrafted evaluator, the
//! built-in network, and the network of the file when one is given.

use xiangqi_core::{Game, Position};
use xiangqi_eval::EvalChoice;
use xiangqi_match::elo::format_elo;
use xiangqi_match::{Pentanomial, Sprt, SprtError, SprtState, Trinomial};
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
    measure_a_match()
}

/// Elo and the SPRT of a 200-game match, from its counts game by game and by colour-reversed pair, as a program
/// using `xiangqi-match` computes them (the match against ElephantEye in `book/src/experiments/strength.md`, its `nobestmove` claims counted as
/// its losses).
fn measure_a_match() -> Result<(), Box<dyn std::error::Error>> {
    let games = Trinomial { wins: 159, draws: 10, losses: 31 };
    let pairs = Pentanomial { counts: [5, 1, 20, 9, 65] };
    let (elo, error) = games.elo();
    let (pair_elo, pair_error) = pairs.elo();
    if 2 * pairs.pairs() != games.games() {
        return Err(format!("{} pairs of {} games", pairs.pairs(), games.games()).into());
    }
    // A narrow SPRT window has not decided after these 100 pairs; a wide one far below the measured Elo has.
    let narrow = Sprt::parse(&["elo0=0 elo1=10".to_owned()])?;
    let wide = Sprt::parse(&["elo0=100".to_owned(), "elo1=150".to_owned()])?;
    let (narrow_llr, wide_llr) = (pairs.llr(narrow.elo0, narrow.elo1), pairs.llr(wide.elo0, wide.elo1));
    for (what, got, expected) in [
        ("Elo, game by game", format_elo(elo, error), "+263.4 ± 61.3"),
        ("Elo, pair by pair", format_elo(pair_elo, pair_error), "+263.4 ± 66.5"),
        ("the LLR of [0, 10]", format!("{narrow_llr:.3}"), "2.445"),
        ("the LLR of [100, 150]", format!("{wide_llr:.3}"), "6.667"),
    ] {
        if got != expected {
            return Err(format!("{what}: expected {expected}, got {got}").into());
        }
    }
    if (narrow.state(narrow_llr), wide.state(wide_llr)) != (SprtState::Continue, SprtState::AcceptH1) {
        return Err("expected the SPRT of [0, 10] to go on and that of [100, 150] to accept H1".into());
    }
    match Sprt::parse(&["elo0=5 elo1=0".to_owned()]) {
        Err(SprtError::NotAbove { elo0, elo1 }) if (elo0, elo1) == (5.0, 0.0) => {}
        other => return Err(format!("elo1 below elo0 is refused as NotAbove, not {other:?}").into()),
    }
    println!(
        "W {} D {} L {}: Elo {}; pairs {:?}: Elo {}; SPRT [0, 10] LLR {narrow_llr:.2}, continue; [100, 150] LLR \
         {wide_llr:.2}, H1",
        games.wins,
        games.draws,
        games.losses,
        format_elo(elo, error),
        pairs.counts,
        format_elo(pair_elo, pair_error)
    );
    Ok(())
}
