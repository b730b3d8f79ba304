//! # xiangqi-py: the xiangqi workspace from Python
//!
//! The extension module `xiangqi._xiangqi` of the Python package `xiangqi` (built with maturin; the package's
//! Python files are in `python/xiangqi`): a python-chess-like `Board` judged by the rules of `xiangqi-core`
//! (perpetual check and chase, the 60-move rule), game records (PGN in any notation and encoding, XQF), the
//! engine of `xiangqi-search` with every variant of the course's algorithms and its search trees, and batches
//! for learning: a fixed move index, legal-move masks and piece planes as numpy arrays, and `Boards`, many games
//! stepped in one call. Searches and batch calls release the GIL.
//!
//! The logic behind the batches is plain Rust, usable and tested without Python: [`index::MoveIndex`] (the move
//! index), [`planes`] (the piece planes) and [`svg`] (the board picture).
//!
//! ```
//! use _xiangqi::index::MoveIndex;
//! use _xiangqi::planes::{encode_into, SIZE};
//! use xiangqi_core::{Move, Position};
//!
//! let index = MoveIndex::get();
//! assert_eq!(index.len(), 2086);
//! let m = Move::parse("h2e2").unwrap();
//! let i = index.index(m).unwrap();
//! assert_eq!(index.get_move(index.mirror(i)), Some(Move::parse("h7e7").unwrap()));
//!
//! let mut planes = vec![0u8; SIZE];
//! encode_into(&Position::startpos(), false, &mut planes);
//! assert_eq!(planes.iter().filter(|&&b| b == 1).count(), 32 + 90); // the pieces, and "Red to move"
//! ```

mod board;
mod engine;
pub mod index;
mod learn;
pub mod planes;
mod records;
pub mod svg;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _xiangqi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::Board>()?;
    m.add_class::<board::Move>()?;
    m.add_class::<board::Outcome>()?;
    m.add_class::<board::LegalMoves>()?;
    m.add_class::<board::MoveIter>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::SearchResult>()?;
    m.add_class::<engine::Trace>()?;
    m.add_class::<engine::TraceNode>()?;
    m.add_class::<engine::TraceStep>()?;
    m.add_class::<learn::Boards>()?;
    m.add_class::<records::GameRecord>()?;
    m.add_function(wrap_pyfunction!(learn::move_to_index, m)?)?;
    m.add_function(wrap_pyfunction!(learn::index_to_move, m)?)?;
    m.add_function(wrap_pyfunction!(learn::mirror_indices, m)?)?;
    m.add_function(wrap_pyfunction!(learn::encode, m)?)?;
    m.add_function(wrap_pyfunction!(learn::perft, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_games, m)?)?;
    m.add_function(wrap_pyfunction!(records::write_pgn, m)?)?;
    m.add("MOVE_COUNT", index::MoveIndex::get().len())?;
    m.add("PLANES", planes::PLANES)?;
    m.add("START_FEN", xiangqi_core::START_FEN)?;
    Ok(())
}
