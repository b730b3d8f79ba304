//! `xiangqi game`: replays a game and says whether it is over, who won and by which rule, as a referee would.
//!
//! The moves are replayed one by one with [`xiangqi_core::Game`]; an illegal move is an error naming its ply and
//! the reason. When the rules end the game (mate, stalemate, a judged repetition, the 60-move rule, insufficient
//! material) replaying stops there, and the output says how many moves were left unplayed.

use crate::CmdResult;
use serde_json::json;
use std::io::Write;
use xiangqi_core::rules::{JudgeOptions, Reason, Violation};
use xiangqi_core::{Color, Game, GameResult};

/// Arguments of `xiangqi game`.
#[derive(clap::Args)]
pub struct GameArgs {
    /// Start position (default: the start position).
    #[arg(long, default_value = xiangqi_core::START_FEN)]
    pub fen: String,
    /// The moves played, in UCI notation, separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Print one JSON object: `result` (red, black, draw or ongoing), `reason`, `plies` and more.
    #[arg(long)]
    pub json: bool,
    /// Do not adjudicate a draw for insufficient material.
    #[arg(long)]
    pub no_material_draw: bool,
}

/// What the replay found.
struct Outcome {
    game: Game,
    /// Moves given after the end of the game, not replayed.
    unplayed: usize,
}

fn replay(args: &GameArgs) -> Result<Outcome, Box<dyn std::error::Error>> {
    let start = crate::parse_fen(&args.fen)?;
    let mut game = Game::with_options(&start, JudgeOptions { material_draw: !args.no_material_draw });
    let moves: Vec<&str> = args.moves.split_whitespace().collect();
    for (i, text) in moves.iter().enumerate() {
        if game.is_over() {
            return Ok(Outcome { game, unplayed: moves.len() - i });
        }
        game.play(text).map_err(|e| e.to_string())?;
    }
    Ok(Outcome { game, unplayed: 0 })
}

fn result_word(result: Option<GameResult>) -> &'static str {
    match result {
        None => "ongoing",
        Some(r) => match r.winner {
            Some(Color::Red) => "red",
            Some(Color::Black) => "black",
            None => "draw",
        },
    }
}

/// One sentence saying what decided the game.
fn detail(result: Option<GameResult>) -> String {
    let Some(r) = result else { return "the game goes on".to_string() };
    let loser = r.winner.map(|w| !w);
    let cycle = r.ruling.cycle;
    let cycle_text = cycle
        .map(|c| format!(" (a cycle of {} plies; the position occurred {} times)", c.plies, c.occurrences))
        .unwrap_or_default();
    match (r.reason, loser) {
        (Reason::Checkmate, Some(l)) => format!("{l} is checkmated"),
        (Reason::Stalemate, Some(l)) => format!("{l} has no legal move (stalemate loses)"),
        (Reason::PerpetualCheck, Some(l)) => format!("{l} checked perpetually{cycle_text}"),
        (Reason::PerpetualChase, Some(l)) => {
            let squares = cycle
                .map(|c| c.chased[l.index()].into_iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" "))
                .unwrap_or_default();
            format!("{l} chased perpetually the piece on {squares}{cycle_text}")
        }
        (Reason::Repetition, _) => {
            let both = |v: Violation| cycle.is_some_and(|c| c.violations.iter().all(|&x| x == v));
            let why = if both(Violation::PerpetualCheck) {
                "both sides checked perpetually"
            } else if both(Violation::PerpetualChase) {
                "both sides chased perpetually"
            } else {
                "neither side violated the rules"
            };
            format!("repetition: {why}{cycle_text}")
        }
        (Reason::MoveLimit, _) => "120 plies without a capture (the 60-move rule)".to_string(),
        (Reason::InsufficientMaterial, _) => "neither side has the material to mate".to_string(),
        (reason, _) => reason.to_string(),
    }
}

/// Runs the command.
pub fn run(args: &GameArgs) -> CmdResult {
    let Outcome { game, unplayed } = replay(args)?;
    let result = game.result();
    let plies = game.plies();
    let fen = game.position().fen();
    let limit = game.move_limit();
    let mut out = std::io::stdout().lock();
    if args.json {
        let obj = json!({
            "result": result_word(result),
            "reason": result.map(|r| r.reason.as_str()),
            "plies": plies,
            "unplayed": unplayed,
            "detail": detail(result),
            "fen": fen,
            "move_limit_plies": limit.plies(),
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    match result {
        Some(r) => writeln!(out, "result {} ({r})", result_word(result))?,
        None => writeln!(out, "result ongoing")?,
    }
    if let Some(r) = result {
        writeln!(out, "reason {}", r.reason)?;
    }
    writeln!(out, "detail {}", detail(result))?;
    writeln!(out, "plies {plies}")?;
    if unplayed > 0 {
        writeln!(out, "stopped the game ended at ply {plies}; the {unplayed} moves after it were not replayed")?;
    }
    writeln!(out, "move-limit {} of 120 counted plies", limit.plies())?;
    writeln!(out, "fen {fen}")?;
    Ok(())
}
