//! `xiangqi.Board`, `xiangqi.Move`, `xiangqi.Outcome` and the lazy `legal_moves` view: the rules through
//! [`xiangqi_core::Game`], with python-chess names.

use crate::index::MoveIndex;
use crate::svg::board_svg;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};
use xiangqi_core::record::Notation;
use xiangqi_core::rules::{JudgeOptions, Reason};
use xiangqi_core::{Color, Game, GameResult, Move as CoreMove, Position, Square, Validation};

/// A `ValueError` with the rules' message.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A move: a from-square and a to-square (0-89, `rank * 9 + file`, a0 = 0), written in UCI as `h2e2`.
#[pyclass(module = "xiangqi", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) inner: CoreMove,
}

#[pymethods]
impl Move {
    /// A move from `from_square` to `to_square` (0-89).
    #[new]
    fn new(from_square: usize, to_square: usize) -> PyResult<Move> {
        match (Square::from_index(from_square), Square::from_index(to_square)) {
            (Some(a), Some(b)) if a != b => Ok(Move { inner: CoreMove::new(a, b) }),
            _ => Err(PyValueError::new_err(format!(
                "no move from square {from_square} to {to_square}: squares are 0-89 and differ"
            ))),
        }
    }

    /// Reads a move in UCI (`h2e2`) or ICCS (`H2-E2`) coordinates, without a position.
    #[staticmethod]
    fn from_uci(text: &str) -> PyResult<Move> {
        CoreMove::parse(text).map(|inner| Move { inner }).map_err(value_error)
    }

    /// The square the piece leaves (0-89).
    #[getter(from_square)]
    fn origin(&self) -> usize {
        self.inner.from().index()
    }

    /// The square the piece goes to (0-89).
    #[getter(to_square)]
    fn destination(&self) -> usize {
        self.inner.to().index()
    }

    /// The move in UCI coordinates, ranks 0-9: `h2e2`.
    fn uci(&self) -> String {
        self.inner.to_string()
    }

    /// The move in ICCS coordinates: `H2-E2`.
    fn iccs(&self) -> String {
        self.inner.iccs()
    }

    /// The same move seen from the other side: the ranks mirrored (`h2e2` -> `h7e7`).
    fn flip(&self) -> Move {
        Move { inner: self.inner.flip_ranks() }
    }

    fn __str__(&self) -> String {
        self.uci()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.inner)
    }
}

/// How a game ended: the winner (`True` for Red, `False` for Black, `None` for a draw) and the rule.
#[pyclass(module = "xiangqi", frozen, get_all)]
#[derive(Clone)]
pub struct Outcome {
    /// `True` if Red won, `False` if Black won, `None` for a draw.
    winner: Option<bool>,
    /// The rule, as the CLI names it: `checkmate`, `stalemate`, `perpetual-check`, `perpetual-chase`,
    /// `repetition`, `move-limit` or `insufficient-material`.
    termination: String,
    /// For a perpetual chase: the squares (names) of the pieces the loser chased; empty otherwise.
    chased: Vec<String>,
    /// For a repetition: the plies of the cycle; `None` otherwise.
    cycle_plies: Option<usize>,
}

impl Outcome {
    pub(crate) fn from_result(r: &GameResult) -> Outcome {
        let chased = match (r.reason, r.winner, r.ruling.cycle) {
            (Reason::PerpetualChase, Some(w), Some(c)) => {
                c.chased[(!w).index()].into_iter().map(|s| s.to_string()).collect()
            }
            _ => Vec::new(),
        };
        Outcome {
            winner: r.winner.map(|c| c == Color::Red),
            termination: r.reason.as_str().to_owned(),
            chased,
            cycle_plies: r.ruling.cycle.map(|c| c.plies),
        }
    }
}

#[pymethods]
impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    fn result(&self) -> &'static str {
        match self.winner {
            Some(true) => "1-0",
            Some(false) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn __repr__(&self) -> String {
        let winner = match self.winner {
            Some(true) => "RED",
            Some(false) => "BLACK",
            None => "None",
        };
        let chased = if self.chased.is_empty() { String::new() } else { format!(", chased={:?}", self.chased) };
        format!("Outcome(termination='{}', winner={winner}{chased})", self.termination)
    }
}

/// A position with the moves that led to it, judged by the rules after every move (python-chess's `Board`).
#[pyclass(module = "xiangqi")]
#[derive(Clone)]
pub struct Board {
    pub(crate) game: Game,
}

impl Board {
    /// The current position.
    pub(crate) fn pos(&self) -> &Position {
        self.game.position()
    }

    /// Reads a move given as a `Move` or as text in any notation, legal here.
    fn read(&self, mv: &Bound<'_, PyAny>) -> PyResult<CoreMove> {
        if let Ok(m) = mv.cast::<Move>() {
            let m = m.get().inner;
            return self.pos().check_move(m).map_err(value_error);
        }
        if let Ok(s) = mv.cast::<PyString>() {
            return self.read_text(&s.to_cow()?);
        }
        Err(PyTypeError::new_err("a move is a xiangqi.Move or a str"))
    }

    /// Refuses a move once the rules ended the game, with their verdict.
    fn check_not_over(&self) -> PyResult<()> {
        match self.game.result() {
            Some(result) => Err(PyValueError::new_err(format!("the game is already over ({result})"))),
            None => Ok(()),
        }
    }

    fn read_text(&self, text: &str) -> PyResult<CoreMove> {
        self.pos().read_move(text).map(|(m, _)| m).map_err(value_error)
    }

    fn play(&mut self, m: CoreMove) -> PyResult<()> {
        self.game.push(m).map_err(value_error)
    }
}

/// Parses a notation's name.
pub(crate) fn notation(name: &str) -> PyResult<Notation> {
    name.parse::<Notation>().map_err(PyValueError::new_err)
}

#[pymethods]
impl Board {
    /// A board from a FEN (the start position by default). `lenient` accepts the setups of rule books and studies
    /// the strict check refuses (a soldier on a point it can never reach, extra pieces).
    #[new]
    #[pyo3(signature = (fen = None, *, lenient = false))]
    fn new(fen: Option<&str>, lenient: bool) -> PyResult<Board> {
        let validation = if lenient { Validation::Lenient } else { Validation::Strict };
        let pos = Position::from_fen_with(fen.unwrap_or(xiangqi_core::START_FEN), validation).map_err(value_error)?;
        Ok(Board { game: Game::with_options(&pos, JudgeOptions::default()) })
    }

    /// The FEN of the current position.
    fn fen(&self) -> String {
        self.pos().fen()
    }

    /// The side to move: `True` for Red (`xiangqi.RED`), `False` for Black.
    #[getter]
    fn turn(&self) -> bool {
        self.pos().turn() == Color::Red
    }

    /// The legal moves, computed when asked (`len`, `in`, iteration).
    #[getter]
    fn legal_moves(slf: Py<Board>) -> LegalMoves {
        LegalMoves { board: slf }
    }

    /// The moves played since the board was set up, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        self.game.moves().iter().map(|&inner| Move { inner }).collect()
    }

    /// The number of plies played since the board was set up.
    #[getter]
    fn ply(&self) -> usize {
        self.game.plies()
    }

    /// Plays a move: a `Move`, or its text in any notation the rules read (`"h2e2"`, `"H2-E2"`, `"C2.5"`,
    /// `"炮二平五"`). Raises `ValueError` with the rules' reason when it is not legal or the game is over.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.check_not_over()?;
        let m = self.read(r#move)?;
        self.play(m)
    }

    /// Plays a move in UCI (or ICCS) coordinates and returns it.
    fn push_uci(&mut self, uci: &str) -> PyResult<Move> {
        self.check_not_over()?;
        let m = self.pos().parse_move(uci).map_err(value_error)?;
        self.play(m)?;
        Ok(Move { inner: m })
    }

    /// Plays a move written in any notation (Chinese, WXF, ICCS, UCI) and returns it.
    fn push_san(&mut self, text: &str) -> PyResult<Move> {
        self.check_not_over()?;
        let m = self.read_text(text)?;
        self.play(m)?;
        Ok(Move { inner: m })
    }

    /// Reads a move written in any notation (Chinese, WXF, ICCS, UCI), legal here, without playing it.
    fn parse_san(&self, text: &str) -> PyResult<Move> {
        self.read_text(text).map(|inner| Move { inner })
    }

    /// A legal move written in a notation: `"chinese"` (default), `"wxf"`, `"iccs"` or `"uci"`.
    #[pyo3(signature = (r#move, notation = "chinese"))]
    fn san(&self, r#move: &Bound<'_, PyAny>, notation: &str) -> PyResult<String> {
        let n = self::notation(notation)?;
        let m = self.read(r#move)?;
        Ok(self.pos().move_text(m, n))
    }

    /// Takes back the last move and returns it (`IndexError` when none was played).
    fn pop(&mut self) -> PyResult<Move> {
        self.game
            .undo()
            .map(|inner| Move { inner })
            .ok_or_else(|| PyIndexError::new_err("pop from an empty move stack"))
    }

    /// The last move played (`IndexError` when none was).
    fn peek(&self) -> PyResult<Move> {
        self.game.moves().last().map(|&inner| Move { inner }).ok_or_else(|| PyIndexError::new_err("no move played"))
    }

    /// Whether `move` (a `Move` or text) is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> bool {
        self.read(r#move).is_ok()
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos().in_check()
    }

    /// Whether the rules ended the game.
    fn is_game_over(&self) -> bool {
        self.game.is_over()
    }

    /// The rules' verdict (mate, stalemate, perpetual check or chase with the chased pieces, repetition, the
    /// 60-move rule, insufficient material), or `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome> {
        self.game.result().as_ref().map(Outcome::from_result)
    }

    /// The piece on a square (a name such as `"e0"` or an index 0-89) as its FEN letter, or `None`.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<char>> {
        let sq = square_arg(square)?;
        Ok(self.pos().piece_at(sq).map(|p| p.char()))
    }

    /// A copy (moves and verdicts included).
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// The position's zobrist key (the engine's transposition-table key), a 64-bit unsigned int.
    fn zobrist_hash(&self) -> u64 {
        self.pos().key()
    }

    /// The legal moves as a numpy bool array over the move index (`xiangqi.MOVE_COUNT` entries); `relative`
    /// numbers Black's moves by their colour flip, as `encode(..., relative=True)` shows the board.
    #[pyo3(signature = (*, relative = false))]
    fn legal_mask<'py>(&self, py: Python<'py>, relative: bool) -> Bound<'py, PyArray1<bool>> {
        let index = MoveIndex::get();
        let array = PyArray1::<bool>::zeros(py, index.len(), false);
        {
            let mut view = array.readwrite();
            let mask = view.as_slice_mut().expect("a new array is contiguous");
            crate::index::fill_mask(self.pos(), relative, mask);
        }
        array
    }

    /// The board as an SVG picture, as the page draws it.
    #[pyo3(signature = (*, size = 400, flipped = false))]
    fn svg(&self, size: u32, flipped: bool) -> String {
        board_svg(self.pos(), self.game.moves().last().copied(), flipped, size)
    }

    fn _repr_svg_(&self) -> String {
        self.svg(400, false)
    }

    /// The board as text, rank 9 on top.
    fn __str__(&self) -> String {
        self.pos().to_string()
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.pos().fen())
    }
}

/// The legal moves of a board, computed when asked: `len()`, `in`, iteration (python-chess's
/// `LegalMoveGenerator`).
#[pyclass(module = "xiangqi", frozen)]
pub struct LegalMoves {
    board: Py<Board>,
}

#[pymethods]
impl LegalMoves {
    fn __len__(&self, py: Python<'_>) -> usize {
        xiangqi_movegen::count_legal(self.board.borrow(py).pos()) as usize
    }

    fn __contains__(&self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> bool {
        self.board.borrow(py).read(mv).is_ok()
    }

    fn __iter__(&self, py: Python<'_>) -> MoveIter {
        let moves = self.board.borrow(py).pos().legal_moves();
        MoveIter { moves: moves.into_iter().map(|inner| Move { inner }).collect::<Vec<_>>().into_iter() }
    }

    fn __bool__(&self, py: Python<'_>) -> bool {
        self.board.borrow(py).pos().has_legal_move()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let moves: Vec<String> = self.board.borrow(py).pos().legal_moves().iter().map(|m| m.to_string()).collect();
        format!("<LegalMoves ({})>", moves.join(", "))
    }
}

/// An iterator over moves.
#[pyclass(module = "xiangqi")]
pub struct MoveIter {
    moves: std::vec::IntoIter<Move>,
}

#[pymethods]
impl MoveIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<Move> {
        self.moves.next()
    }
}

/// A square given as a name (`"e0"`) or an index (0-89).
pub(crate) fn square_arg(square: &Bound<'_, PyAny>) -> PyResult<Square> {
    if let Ok(s) = square.cast::<PyString>() {
        return s.to_cow()?.parse::<Square>().map_err(|e| PyValueError::new_err(e.0));
    }
    if square.cast::<PyInt>().is_ok() {
        let i: i64 = square.extract()?;
        return usize::try_from(i)
            .ok()
            .and_then(Square::from_index)
            .ok_or_else(|| PyValueError::new_err(format!("no square {i}: squares are 0-89")));
    }
    Err(PyTypeError::new_err("a square is a name such as 'e0' or an index 0-89"))
}
