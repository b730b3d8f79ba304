//! `xiangqi tree`: placeholder until the tree-drawing issue lands (it errors out, it does not pretend).

use crate::CmdResult;

/// Arguments of `xiangqi tree`.
#[derive(clap::Args)]
pub struct TreeArgs {
    /// Position (default: the start position).
    #[arg(long, default_value = xiangqi_core::START_FEN)]
    pub fen: String,
}

/// Runs the command.
pub fn run(_args: &TreeArgs) -> CmdResult {
    Err("tree is not implemented yet".into())
}
