//! A search of a variant to a fixed depth as a fresh engine runs it, the one definition that `xiangqi search
//! --depth`, `xiangqi compare` and the page's `compare` share, so that they count the same nodes: one fixed-depth
//! pass, except that the engine's variant deepens iteratively even to a fixed depth (each iteration fills the table
//! and the ordering memory for the next), on a cleared table and ordering memory.
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_eval::EvalChoice;
//! use xiangqi_search::{fixed_depth, SearchEngine, VariantConfig};
//!
//! let pos = Position::startpos();
//! let mut engine = SearchEngine::new(EvalChoice::Handcrafted).unwrap();
//! let (plain, full): (VariantConfig, VariantConfig) = ("alphabeta".parse().unwrap(), "engine".parse().unwrap());
//! assert!(!fixed_depth::limits(&plain, 3).iterative && fixed_depth::limits(&full, 3).iterative);
//! let first = fixed_depth::search(&mut engine, &full, &pos, 3);
//! let again = fixed_depth::search(&mut engine, &full, &pos, 3);
//! assert_eq!((first.stats.nodes(), first.best_move), (again.stats.nodes(), again.best_move));
//! ```

use crate::{EvalSource, Limits, SearchEngine, SearchResult, VariantConfig};
use xiangqi_core::{Move, Position};

/// The limits of a search of `spec` to `depth`: one pass, iterative for the engine's variant.
pub fn limits(spec: &VariantConfig, depth: u32) -> Limits {
    Limits { depth: Some(depth), iterative: spec.is_engine(), ..Limits::default() }
}

/// Searches `pos` with `spec` to `depth` ([`limits`]) on `engine`, as a fresh engine would: the variant set, the
/// table and the ordering memory cleared first.
pub fn search<S>(engine: &mut SearchEngine<S>, spec: &VariantConfig, pos: &Position, depth: u32) -> SearchResult<Move>
where
    S: EvalSource<Position, Move> + Sync,
    S::Eval: Send,
{
    engine.set_variant(*spec);
    engine.new_game();
    engine.search(pos, &limits(spec, depth))
}
