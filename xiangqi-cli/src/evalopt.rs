//! The evaluator flags shared by `xiangqi search`, `bench` and `eval`: `--nnue FILE` or `--handcrafted`.

use std::path::PathBuf;
use xiangqi_eval::EvalChoice;

/// Which evaluator a command uses.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct EvalOpts {
    /// Evaluate with this NNUE network file (see `xiangqi datagen` and the trainer) instead of the default.
    #[arg(long, value_name = "FILE", conflicts_with = "handcrafted")]
    pub nnue: Option<PathBuf>,
    /// Evaluate with the handcrafted evaluator.
    #[arg(long)]
    pub handcrafted: bool,
}

impl EvalOpts {
    /// The evaluator asked for; an error naming the file when the network cannot be loaded.
    pub fn choice(&self) -> Result<EvalChoice, String> {
        match &self.nnue {
            Some(path) => EvalChoice::load(path).map_err(|e| e.to_string()),
            None if self.handcrafted => Ok(EvalChoice::Handcrafted),
            None => Ok(EvalChoice::engine_default()),
        }
    }
}
