//! `xiangqi game`: placeholder until the game-end issue lands (it errors out, it does not pretend).

use crate::CmdResult;

/// Arguments of `xiangqi game`.
#[derive(clap::Args)]
pub struct GameArgs {
    /// Start position (default: the start position).
    #[arg(long, default_value = xiangqi_core::START_FEN)]
    pub fen: String,
    /// The moves played, in UCI notation, separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(_args: &GameArgs) -> CmdResult {
    Err("game is not implemented yet".into())
}
