//! `xiangqi eval`: placeholder until the evaluation issue lands (it errors out, it does not pretend).

use crate::CmdResult;

/// Arguments of `xiangqi eval`.
#[derive(clap::Args)]
pub struct EvalArgs {
    /// Position (default: the start position).
    #[arg(long, default_value = xiangqi_core::START_FEN)]
    pub fen: String,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(_args: &EvalArgs) -> CmdResult {
    Err("eval is not implemented yet".into())
}
