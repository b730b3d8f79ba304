//! Game records: `read_games` reads PGN (Chinese, WXF, ICCS or UCI notation; UTF-8, GBK or UTF-16) and XQF into
//! `GameRecord` objects with tags and moves; `write_pgn` writes them back in a chosen notation.

use crate::board::{notation, value_error, Board, Move};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::PathBuf;
use xiangqi_core::record::{self, GameRecord as CoreRecord, ReadOptions};
use xiangqi_core::rules::JudgeOptions;
use xiangqi_core::Game;

/// One game of a record file: tags, start position, moves (with the text read and comments) and result.
#[pyclass(module = "xiangqi")]
#[derive(Clone)]
pub struct GameRecord {
    pub(crate) inner: CoreRecord,
}

#[pymethods]
impl GameRecord {
    /// A record of the moves played on `board` (`Board.move_stack`, from the position it was set up in), with
    /// `tags` (name, value pairs); without a board, an empty game from the start position.
    #[new]
    #[pyo3(signature = (board = None, tags = None))]
    fn new(board: Option<PyRef<'_, Board>>, tags: Option<Vec<(String, String)>>) -> GameRecord {
        let mut inner = match &board {
            Some(b) => {
                let mut r = CoreRecord::new(b.game.start().clone());
                r.moves = b.game.moves().iter().map(|&m| record::RecordMove::new(m)).collect();
                if let Some(outcome) = b.game.result() {
                    r.result = Some(
                        match outcome.winner {
                            Some(xiangqi_core::Color::Red) => "1-0",
                            Some(xiangqi_core::Color::Black) => "0-1",
                            None => "1/2-1/2",
                        }
                        .to_owned(),
                    );
                }
                r
            }
            None => CoreRecord::new(xiangqi_core::Position::startpos()),
        };
        for (k, v) in tags.unwrap_or_default() {
            inner.set_tag(&k, &v);
        }
        if inner.start.fen() != xiangqi_core::START_FEN {
            let fen = inner.start.fen();
            inner.set_tag("FEN", &fen);
        }
        GameRecord { inner }
    }

    /// The tags (`[Name "value"]`) as a dict, in file order.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.inner.tags {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The value of a tag (any case), or `None`.
    fn tag(&self, name: &str) -> Option<String> {
        self.inner.tag(name).map(str::to_owned)
    }

    /// The FEN of the start position.
    #[getter]
    fn fen(&self) -> String {
        self.inner.start.fen()
    }

    /// The main line's moves.
    #[getter]
    fn moves(&self) -> Vec<Move> {
        self.inner.moves.iter().map(|m| Move { inner: m.mv }).collect()
    }

    /// The main line's moves as the file wrote them (empty strings for XQF's).
    #[getter]
    fn move_texts(&self) -> Vec<String> {
        self.inner.moves.iter().map(|m| m.text.clone()).collect()
    }

    /// The comments after each move of the main line.
    #[getter]
    fn comments(&self) -> Vec<Vec<String>> {
        self.inner.moves.iter().map(|m| m.comments.clone()).collect()
    }

    /// The result written in the record (`1-0`, `0-1`, `1/2-1/2`, `*`), or `None`.
    #[getter]
    fn result(&self) -> Option<String> {
        self.inner.result.clone()
    }

    /// The notation of the first move as read (`Chinese`, `WXF`, `ICCS`, `UCI`), `None` for XQF.
    #[getter]
    fn notation(&self) -> Option<&'static str> {
        self.inner.notation.map(|n| n.name())
    }

    /// A board at the start position.
    fn start_board(&self) -> Board {
        Board { game: Game::with_options(&self.inner.start, JudgeOptions::default()) }
    }

    /// The main line replayed with the rules' referee: a board at the end (or where the rules ended the game; the
    /// moves recorded after that are not played). `ValueError` names the ply of an illegal move.
    fn board(&self) -> PyResult<Board> {
        let replay = self.inner.judge(JudgeOptions::default()).map_err(value_error)?;
        Ok(Board { game: replay.game })
    }

    fn __len__(&self) -> usize {
        self.inner.moves.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<GameRecord {} moves, result {:?}>",
            self.inner.moves.len(),
            self.inner.result.as_deref().unwrap_or("*")
        )
    }
}

/// Reads every game of a record file: `source` is a path (`str` or `os.PathLike`) or the file's `bytes`; PGN in
/// any notation and encoding, or XQF, recognised by content. A file that is no record, or a game that cannot be
/// read, raises `ValueError` with the reason (the game, line and move text where reading stopped).
#[pyfunction]
pub fn read_games(source: &Bound<'_, PyAny>) -> PyResult<Vec<GameRecord>> {
    let bytes: Vec<u8> = if let Ok(b) = source.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else {
        let path: PathBuf = source.extract().map_err(|_| PyValueError::new_err("source is a path or bytes"))?;
        std::fs::read(&path).map_err(|e| PyValueError::new_err(format!("cannot read {}: {e}", path.display())))?
    };
    let file = record::read_record(&bytes, &ReadOptions::default()).map_err(value_error)?;
    file.games.into_iter().map(|g| g.map(|inner| GameRecord { inner }).map_err(value_error)).collect()
}

/// Writes games as PGN text in `notation`: `"chinese"` (default), `"wxf"`, `"iccs"` or `"uci"`.
#[pyfunction]
#[pyo3(signature = (games, notation = "chinese"))]
pub fn write_pgn(games: Vec<PyRef<'_, GameRecord>>, notation: &str) -> PyResult<String> {
    let n = self::notation(notation)?;
    let games: Vec<CoreRecord> = games.iter().map(|g| g.inner.clone()).collect();
    Ok(record::write_pgn(&games, n))
}
