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

/// The `--params FILE` flag of `xiangqi uci`, `search` and `bench`: tuned search parameters.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ParamOpts {
    /// Search with the tuned parameters of this file (`name = value` lines, as `xiangqi tune --out` writes).
    #[arg(long = "params", value_name = "FILE")]
    pub params: Option<PathBuf>,
}

impl ParamOpts {
    /// The parameters: the compiled defaults changed by the file; an error naming the file and the line.
    pub fn params(&self) -> Result<xiangqi_search::Params, String> {
        let defaults = xiangqi_search::Params::default();
        match &self.params {
            Some(path) => defaults.load(path).map_err(|e| format!("--params: {e}")),
            None => Ok(defaults),
        }
    }
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
