//! The learning interface: the move index (`move_to_index`, `index_to_move`, `mirror_index`), `encode` into numpy
//! piece planes, and `Boards`, a batch of games that plays one move on each and answers with masks and outcomes in
//! one call. The GIL is released while the batches are computed.

use crate::board::{value_error, Board, Move};
use crate::index::fill_mask;
use crate::index::MoveIndex;
use crate::planes::{self, encode_pieces, Pieces, PLANES};
use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rayon::prelude::*;
use xiangqi_core::rules::JudgeOptions;
use xiangqi_core::{Color, Game, Position, Validation};

/// The index of `move` (a `Move` or UCI text) in the move index; with `flip`, that of the move with its ranks
/// mirrored (the side-to-move view of a Black move). `ValueError` for a from-to pair no piece can make.
#[pyfunction]
#[pyo3(signature = (r#move, *, flip = false))]
pub fn move_to_index(r#move: &Bound<'_, PyAny>, flip: bool) -> PyResult<usize> {
    let m = if let Ok(m) = r#move.cast::<Move>() {
        m.get().inner
    } else if let Ok(s) = r#move.cast::<PyString>() {
        xiangqi_core::Move::parse(&s.to_cow()?).map_err(value_error)?
    } else {
        return Err(PyTypeError::new_err("a move is a xiangqi.Move or a str"));
    };
    MoveIndex::get()
        .index_for(m, flip)
        .ok_or_else(|| PyValueError::new_err(format!("no piece ever moves {m}: it has no index")))
}

/// The move of index `index` (`flip`: the move with its ranks mirrored, the inverse of
/// `move_to_index(m, flip=True)`).
#[pyfunction]
#[pyo3(signature = (index, *, flip = false))]
pub fn index_to_move(index: usize, flip: bool) -> PyResult<Move> {
    let m = MoveIndex::get().get_move(index).ok_or_else(|| {
        PyIndexError::new_err(format!("move index {index} out of range 0-{}", MoveIndex::get().len() - 1))
    })?;
    Ok(Move { inner: if flip { m.flip_ranks() } else { m } })
}

/// For each index, the index of the colour-flipped move, as a numpy int64 array.
#[pyfunction]
pub fn mirror_indices(py: Python<'_>) -> Bound<'_, PyArray1<i64>> {
    let index = MoveIndex::get();
    let v: Vec<i64> = (0..index.len()).map(|i| index.mirror(i) as i64).collect();
    v.into_pyarray(py)
}

/// Counts the leaf nodes of the legal move tree of `board`'s position to `depth` plies (perft), without the
/// GIL, on `threads` threads (1: the sequential count).
#[pyfunction]
#[pyo3(signature = (board, depth, *, threads = 1))]
pub fn perft(py: Python<'_>, board: PyRef<'_, Board>, depth: u32, threads: usize) -> PyResult<u64> {
    if depth > 8 {
        return Err(PyValueError::new_err("depth: at most 8"));
    }
    let pos = board.pos().clone();
    drop(board);
    Ok(py.detach(|| {
        if threads > 1 {
            xiangqi_movegen::perft_parallel(&pos, depth, threads)
        } else {
            xiangqi_movegen::perft(&pos, depth)
        }
    }))
}

/// The pieces of each board of a `Board` or a sequence of `Board`, read under the GIL (no position is copied).
fn pieces_of(boards: &Bound<'_, PyAny>) -> PyResult<Vec<Pieces>> {
    if let Ok(b) = boards.cast::<Board>() {
        return Ok(vec![Pieces::of(b.borrow().pos())]);
    }
    let mut out = Vec::with_capacity(boards.len().unwrap_or(0));
    for item in boards.try_iter()? {
        let item = item?;
        let b =
            item.cast::<Board>().map_err(|_| PyTypeError::new_err("encode takes Board objects or a Boards batch"))?;
        out.push(Pieces::of(b.borrow().pos()));
    }
    Ok(out)
}

/// Encodes many positions at once into a `uint8` array `[B, 15, 10, 9]`: planes 0-6 the first side's king,
/// advisors, elephants, horses, chariots, cannons, soldiers; 7-13 the other side's; 14 ones when Red is to move.
/// Rank 0 (Red's back rank) is row 0. The first side is Red, or with `relative` the side to move, whose board is
/// then flipped so that it plays up the board. `boards`: a `Boards` batch, a `Board`, or a sequence of `Board`.
/// `out`: a C-contiguous `uint8` array of that shape to write into (and return) instead of a new one, which spares
/// the allocation and its page faults in a training loop.
#[pyfunction]
#[pyo3(signature = (boards, *, relative = false, out = None))]
pub fn encode<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    relative: bool,
    out: Option<Bound<'py, PyArray4<u8>>>,
) -> PyResult<Bound<'py, PyArray4<u8>>> {
    if let Ok(b) = boards.cast::<Boards>() {
        let b = b.borrow();
        return encode_with(py, &b.games, |g| Pieces::of(g.position()), relative, out);
    }
    let pieces = pieces_of(boards)?;
    encode_with(py, &pieces, |p| *p, relative, out)
}

/// `encode` of `items`, each giving the pieces of a position: into `out` (checked and cleared) or a new array,
/// without the GIL.
fn encode_with<'py, T: Sync>(
    py: Python<'py>,
    items: &[T],
    pieces: impl Fn(&T) -> Pieces + Sync,
    relative: bool,
    out: Option<Bound<'py, PyArray4<u8>>>,
) -> PyResult<Bound<'py, PyArray4<u8>>> {
    let shape = [items.len(), PLANES, 10, 9];
    let (array, reused) = match out {
        Some(a) => {
            if a.shape() != shape {
                return Err(PyValueError::new_err(format!("out has shape {:?}, not {shape:?}", a.shape())));
            }
            (a, true)
        }
        None => (PyArray4::<u8>::zeros(py, shape, false), false),
    };
    {
        let mut view = array.try_readwrite().map_err(|e| PyValueError::new_err(format!("out: {e}")))?;
        let flat = view.as_slice_mut().map_err(|_| PyValueError::new_err("out is not C-contiguous"))?;
        py.detach(|| {
            if reused {
                flat.fill(0);
            }
            // Threads only where they pay: a call for a few boards stays on this one.
            if items.len() >= 4096 {
                flat.par_chunks_exact_mut(planes::SIZE)
                    .zip(items.par_iter())
                    .for_each(|(chunk, item)| encode_pieces(&pieces(item), relative, chunk));
            } else {
                for (chunk, item) in flat.chunks_exact_mut(planes::SIZE).zip(items) {
                    encode_pieces(&pieces(item), relative, chunk);
                }
            }
        });
    }
    Ok(array)
}

/// Game results in the outcome arrays of `Boards`.
const ONGOING: i8 = 0;
const RED_WINS: i8 = 1;
const BLACK_WINS: i8 = -1;
const DRAW: i8 = 2;

fn outcome_code(game: &Game) -> i8 {
    match game.result() {
        None => ONGOING,
        Some(r) => match r.winner {
            Some(Color::Red) => RED_WINS,
            Some(Color::Black) => BLACK_WINS,
            None => DRAW,
        },
    }
}

/// What `Boards.step` returns: the legal masks and the outcome codes.
type Step<'py> = (Bound<'py, PyArray2<bool>>, Bound<'py, PyArray1<i8>>);

/// A batch of games for self-play and reinforcement learning: `step(actions)` plays one move (a move index) on
/// each board and returns the new legal masks and outcomes in one call, without the GIL.
///
/// Outcome codes: 0 the game goes on, 1 Red won, -1 Black won, 2 a draw (`Boards.terminations()` names the rules).
#[pyclass(module = "xiangqi")]
pub struct Boards {
    games: Vec<Game>,
    start: Position,
    relative: bool,
}

impl Boards {
    fn masks(&self) -> Array2<bool> {
        let n = MoveIndex::get().len();
        let mut out = Array2::<bool>::from_elem((self.games.len(), n), false);
        let flat = out.as_slice_mut().expect("a new array is contiguous");
        let relative = self.relative;
        flat.par_chunks_exact_mut(n)
            .zip(self.games.par_iter())
            .with_min_len(64)
            .for_each(|(mask, g)| fill_mask(g.position(), relative, mask));
        out
    }

    fn outcomes(&self) -> Array1<i8> {
        self.games.iter().map(outcome_code).collect()
    }

    /// Plays `actions[i]` on board `i` (-1: none); an illegal action is an error naming the first such board (the
    /// other boards have moved).
    fn play(&mut self, actions: &[i64]) -> Result<(), String> {
        let index = MoveIndex::get();
        let relative = self.relative;
        let errors: Vec<String> = self
            .games
            .par_iter_mut()
            .zip(actions.par_iter())
            .enumerate()
            .with_min_len(64)
            .filter_map(|(i, (game, &a))| {
                if a < 0 {
                    return None;
                }
                let flip = relative && game.position().turn() == Color::Black;
                let m = match usize::try_from(a).ok().and_then(|a| index.get_move(a)) {
                    Some(m) => m,
                    None => return Some(format!("board {i}: move index {a} out of range 0-{}", index.len() - 1)),
                };
                let m = if flip { m.flip_ranks() } else { m };
                game.push(m).err().map(|e| format!("board {i}: {e}"))
            })
            .collect();
        match errors.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

#[pymethods]
impl Boards {
    /// `n` games from `fen` (the start position by default), or one game per FEN of `fens`. `relative`: actions
    /// and masks number Black's moves by their colour flip (as `encode(..., relative=True)`).
    #[new]
    #[pyo3(signature = (n = None, *, fen = None, fens = None, relative = false))]
    fn new(n: Option<usize>, fen: Option<&str>, fens: Option<Vec<String>>, relative: bool) -> PyResult<Boards> {
        let start = Position::from_fen(fen.unwrap_or(xiangqi_core::START_FEN)).map_err(value_error)?;
        let games = match (n, fens) {
            (Some(_), Some(_)) => return Err(PyValueError::new_err("give n or fens, not both")),
            (None, Some(fens)) => fens
                .iter()
                .map(|f| {
                    Position::from_fen_with(f, Validation::Strict)
                        .map(|p| Game::with_options(&p, JudgeOptions::default()))
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(value_error)?,
            (n, None) => vec![Game::with_options(&start, JudgeOptions::default()); n.unwrap_or(1)],
        };
        Ok(Boards { games, start, relative })
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// A copy of board `i` as a `Board`.
    fn __getitem__(&self, i: isize) -> PyResult<Board> {
        let n = self.games.len() as isize;
        let j = if i < 0 { i + n } else { i };
        if !(0..n).contains(&j) {
            return Err(PyIndexError::new_err(format!("board {i} out of range for {n} boards")));
        }
        Ok(Board { game: self.games[j as usize].clone() })
    }

    /// The FEN of each board.
    fn fens(&self) -> Vec<String> {
        self.games.iter().map(|g| g.position().fen()).collect()
    }

    /// Plays one move on each board: `actions` an int array of move indices (-1: leave that board alone). Returns
    /// `(masks, outcomes)`: a bool array `[B, MOVE_COUNT]` of the legal moves after the moves and an int8 array
    /// `[B]` of outcomes. An illegal action (or a move in a finished game) raises `ValueError` naming the board;
    /// the other boards have moved.
    fn step<'py>(&mut self, py: Python<'py>, actions: PyReadonlyArray1<'py, i64>) -> PyResult<Step<'py>> {
        let actions = actions.as_slice()?.to_vec();
        if actions.len() != self.games.len() {
            return Err(PyValueError::new_err(format!("{} actions for {} boards", actions.len(), self.games.len())));
        }
        let (played, masks, outcomes) = py.detach(|| {
            let played = self.play(&actions);
            (played, self.masks(), self.outcomes())
        });
        played.map_err(PyValueError::new_err)?;
        Ok((masks.into_pyarray(py), outcomes.into_pyarray(py)))
    }

    /// The legal moves of each board as a bool array `[B, MOVE_COUNT]`.
    fn legal_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        py.detach(|| self.masks()).into_pyarray(py)
    }

    /// The outcome code of each board (0 on, 1 Red won, -1 Black won, 2 draw).
    fn outcomes_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.outcomes().into_pyarray(py)
    }

    /// The rule that ended each game (`None` while it goes on).
    fn terminations(&self) -> Vec<Option<&'static str>> {
        self.games.iter().map(|g| g.result().map(|r| r.reason.as_str())).collect()
    }

    /// Sets the given boards (all by default) back to the start position.
    #[pyo3(signature = (indices = None))]
    fn reset(&mut self, indices: Option<Vec<usize>>) -> PyResult<()> {
        let fresh = Game::with_options(&self.start, JudgeOptions::default());
        match indices {
            None => self.games.iter_mut().for_each(|g| *g = fresh.clone()),
            Some(ix) => {
                for i in ix {
                    let n = self.games.len();
                    *self
                        .games
                        .get_mut(i)
                        .ok_or_else(|| PyIndexError::new_err(format!("board {i} out of range for {n} boards")))? =
                        fresh.clone();
                }
            }
        }
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!("<Boards of {} games>", self.games.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mask_has_exactly_the_legal_moves_in_both_views() {
        let index = MoveIndex::get();
        let pos = Position::from_fen("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b").unwrap();
        for relative in [false, true] {
            let mut mask = vec![false; index.len()];
            fill_mask(&pos, relative, &mut mask);
            let set: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
            let mut want: Vec<usize> =
                pos.legal_moves().iter().map(|&m| index.index_for(m, relative).unwrap()).collect();
            want.sort_unstable();
            assert_eq!(set, want);
            assert_eq!(set.len(), pos.legal_moves().len());
        }
    }

    #[test]
    fn a_batch_plays_one_move_per_board_and_names_the_board_of_an_illegal_one() {
        let index = MoveIndex::get();
        let start = Position::startpos();
        let mut b = Boards { games: vec![Game::new(&start); 3], start, relative: false };
        let h2e2 = index.index(xiangqi_core::Move::parse("h2e2").unwrap()).unwrap() as i64;
        b.play(&[h2e2, -1, h2e2]).unwrap();
        assert_eq!(b.games[0].plies(), 1);
        assert_eq!(b.games[1].plies(), 0);
        let e = b.play(&[-1, -1, h2e2]).unwrap_err();
        assert!(e.starts_with("board 2: "), "{e}");
        assert_eq!(b.outcomes().to_vec(), vec![ONGOING; 3]);
    }
}
