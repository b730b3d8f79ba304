//! [`Position`]: the board, make/unmake with an incremental zobrist key, check detection and legality.

use crate::attacks::{
    advisor_attacks, between, cannon_attacks, elephant_attacks, horse_attackers, horse_attackers_by_leg, horse_attacks,
    horse_sources, king_attacks, lines, rook_attacks, soldier_attackers, soldier_attacks, Occupancy,
};
use crate::bitboard::Bitboard;
use crate::fen::{FenError, Setup, START_FEN};
use crate::moves::{Move, MoveSyntaxError};
use crate::types::{Color, Piece, PieceKind, Square};
use crate::zobrist;
use std::fmt;

/// What is impossible about a [`Setup`]: the second stage of FEN reading.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no king.
    #[error("{0} has no king")]
    MissingKing(Color),
    /// A side has more than one king.
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    /// A piece stands on a point it can never reach (a king or advisor outside the palace, an elephant off its
    /// seven points, a soldier behind its start).
    #[error("{piece} on {square} stands on a point it can never reach")]
    UnreachableSquare {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// More pieces of one kind than a side starts with.
    #[error("{color} has {count} pieces of kind {kind:?}, at most {max} are possible")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// The kind.
        kind: PieceKind,
        /// How many there are.
        count: u32,
        /// How many a side starts with.
        max: u32,
    },
    /// The two kings face each other on an open file (flying general).
    #[error("the kings face each other on an open file")]
    KingsFacing,
    /// The side that is not to move is in check: its king could be captured.
    #[error("{0} is not to move but is in check")]
    OpponentInCheck(Color),
    /// A counter beyond what a setup may carry ([`Setup::MAX_HALFMOVES`], [`Setup::MAX_FULLMOVES`]).
    #[error("the {field} is {value}, at most {max} is possible")]
    Counter {
        /// Which counter.
        field: &'static str,
        /// Its value.
        value: u32,
        /// The largest value accepted.
        max: u32,
    },
}

/// Any error from reading a FEN into a [`Position`]: a syntax error or an impossible position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The text is not a FEN.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The FEN describes an impossible position.
    #[error("impossible position: {0}")]
    Position(#[from] PositionError),
}

/// How strictly [`Position::from_setup`] checks a setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Validation {
    /// Reject every impossible position.
    #[default]
    Strict,
    /// Accept pieces on points they cannot reach and more pieces than a side starts with, for studies and
    /// puzzles. One king per side, kings not facing and the opponent not in check are still required: without
    /// them the rules themselves have no meaning (a king could be captured). So is the river for the pieces it
    /// confines: a king, an advisor or an elephant across it could take or be taken by the other side's king,
    /// advisors and elephants, which no rule foresees.
    Lenient,
}

/// A move string that is not a legal move in this position, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move at all.
    #[error(transparent)]
    Syntax(#[from] MoveSyntaxError),
    /// No piece stands on the origin.
    #[error("illegal move {0}: no piece on {from}", from = .0.from())]
    EmptyOrigin(Move),
    /// The piece on the origin belongs to the side not to move.
    #[error("illegal move {0}: the piece on {from} is not {1}'s", from = .0.from())]
    WrongSide(Move, Color),
    /// The piece cannot go there (blocked, wrong shape, own piece on the target...).
    #[error("illegal move {0}: a {1:?} on {from} cannot move to {to}", from = .0.from(), to = .0.to())]
    CannotReach(Move, PieceKind),
    /// The move would leave or put the own king in check (including facing kings).
    #[error("illegal move {0}: it leaves the {1} king in check")]
    KingInCheck(Move, Color),
}

/// Where a side's king stands, what checks it, and which moves need the full legality test.
///
/// A move that is not a king move, does not start from a `blockers` point and does not land on a `screen_points`
/// point is legal whenever `checkers` is empty. That is exact: it is how [`Position::is_legal`] and the move
/// generator of `xiangqi-movegen` stay fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KingSafety {
    /// The king's square.
    pub king: Square,
    /// Enemy pieces giving check.
    pub checkers: Bitboard,
    /// Pieces whose leaving their point can expose the king: the single piece between the king and an enemy
    /// chariot or the enemy king, both pieces between the king and an enemy cannon, and occupied horse legs of enemy
    /// horses that aim at the king.
    pub blockers: Bitboard,
    /// Empty points between the king and an enemy cannon with nothing in between: a piece moving there becomes the
    /// cannon's screen.
    pub screen_points: Bitboard,
}

#[derive(Clone, Copy, Debug)]
struct State {
    mv: Option<Move>,
    captured: Option<Piece>,
    key: u64,
    halfmoves: u32,
}

/// A xiangqi position: pieces, side to move, counters, the incremental zobrist key and the history needed to unmake
/// moves and to find repetitions.
///
/// ```
/// use xiangqi_core::{Position, Move};
/// let mut pos = Position::startpos();
/// let key = pos.key();
/// let m = pos.parse_move("h2e2").unwrap();
/// pos.make_move(m);
/// assert_eq!(pos.key(), pos.compute_key());
/// pos.unmake_move();
/// assert_eq!(pos.key(), key);
/// assert!(pos.parse_move("h2h8").is_err()); // the cannon cannot jump without capturing
/// ```
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 90],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
    occ: Occupancy,
    kings: [Square; 2],
    turn: Color,
    key: u64,
    halfmoves: u32,
    start_fullmoves: u32,
    history: Vec<State>,
}

/// Destinations of a piece before the own-piece and legality filters: where it may go if the point is empty, and
/// where it may capture if an enemy stands there. They differ only for the cannon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    /// Points it may move to when empty.
    pub quiet: Bitboard,
    /// Points it may capture on when an enemy piece stands there.
    pub capture: Bitboard,
}

/// The reach of `piece` on `sq` with the given occupancy.
#[inline(always)]
pub fn piece_reach(piece: Piece, sq: Square, occ: &Occupancy) -> Reach {
    let a = match piece.kind {
        PieceKind::King => king_attacks(sq),
        PieceKind::Advisor => advisor_attacks(sq),
        PieceKind::Elephant => elephant_attacks(sq, occ.bitboard()),
        PieceKind::Horse => horse_attacks(sq, occ.bitboard()),
        PieceKind::Chariot => rook_attacks(sq, occ),
        PieceKind::Cannon => return Reach { quiet: rook_attacks(sq, occ), capture: cannon_attacks(sq, occ) },
        PieceKind::Soldier => soldier_attacks(piece.color, sq),
    };
    Reach { quiet: a, capture: a }
}

impl Position {
    /// The start position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start position is valid")
    }

    /// Reads a FEN and checks the position strictly.
    ///
    /// ```
    /// use xiangqi_core::{Position, Error, PositionError};
    /// let err = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
    /// assert_eq!(err, Error::Position(PositionError::KingsFacing));
    /// assert!(Position::from_fen("rnbakabnr/9 w").is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, Error> {
        Position::from_fen_with(fen, Validation::Strict)
    }

    /// Parses a FEN and checks the position as `validation` asks: [`Validation::Lenient`] loads the setups of
    /// rule books and studies (a soldier on a point it could never reach, extra pieces).
    ///
    /// ```
    /// use xiangqi_core::{Position, Validation};
    /// // A red soldier on its own back rank, as a rule book's diagram may have it.
    /// let fen = "4k4/9/9/9/9/9/9/9/9/3KP4 w";
    /// assert!(Position::from_fen(fen).is_err());
    /// assert!(Position::from_fen_with(fen, Validation::Lenient).is_ok());
    /// ```
    pub fn from_fen_with(fen: &str, validation: Validation) -> Result<Position, Error> {
        Ok(Position::from_setup(&Setup::from_fen(fen)?, validation)?)
    }

    /// Builds a position from a setup, checking it as `validation` asks.
    pub fn from_setup(setup: &Setup, validation: Validation) -> Result<Position, PositionError> {
        let mut kings = [None, None];
        let mut counts = [[0u32; 7]; 2];
        for sq in Square::all() {
            let Some(p) = setup.board[sq.index()] else { continue };
            counts[p.color.index()][p.kind.index()] += 1;
            if p.kind == PieceKind::King {
                if kings[p.color.index()].is_some() {
                    return Err(PositionError::TooManyKings(p.color));
                }
                kings[p.color.index()] = Some(sq);
            }
            if !can_stand(p, sq) && (validation == Validation::Strict || trespasses(p, sq)) {
                return Err(PositionError::UnreachableSquare { piece: p, square: sq });
            }
        }
        for (field, value, max) in [
            ("halfmove clock", setup.halfmoves, Setup::MAX_HALFMOVES),
            ("fullmove number", setup.fullmoves, Setup::MAX_FULLMOVES),
        ] {
            if value > max {
                return Err(PositionError::Counter { field, value, max });
            }
        }
        let red_king = kings[0].ok_or(PositionError::MissingKing(Color::Red))?;
        let black_king = kings[1].ok_or(PositionError::MissingKing(Color::Black))?;
        if validation == Validation::Strict {
            for color in Color::ALL {
                for kind in PieceKind::ALL {
                    let count = counts[color.index()][kind.index()];
                    if count > kind.max_count() {
                        return Err(PositionError::TooManyPieces { color, kind, count, max: kind.max_count() });
                    }
                }
            }
        }
        let mut pos = Position {
            board: [None; 90],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 7],
            occ: Occupancy::EMPTY,
            kings: [red_king, black_king],
            turn: setup.turn,
            key: 0,
            halfmoves: setup.halfmoves,
            start_fullmoves: setup.fullmoves,
            history: Vec::with_capacity(256),
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                pos.put(p, sq);
            }
        }
        pos.key = pos.compute_key();
        if red_king.file() == black_king.file() && (between(red_king, black_king) & pos.occupied()).is_empty() {
            return Err(PositionError::KingsFacing);
        }
        // The side to move must not be able to capture the other king.
        if pos.attackers_to_king(pos.turn, Bitboard::FULL, &pos.occ).any() {
            return Err(PositionError::OpponentInCheck(!pos.turn));
        }
        Ok(pos)
    }

    /// The position as a [`Setup`] (for writing a FEN, flipping, mirroring). Its counters stop at
    /// [`Setup::MAX_HALFMOVES`] and [`Setup::MAX_FULLMOVES`], so that the FEN of every position reached reads back,
    /// even after moves from a setup at the bounds: a halfmove clock past the bound means what the bound means to
    /// every rule (the 60-move rule ends a game at 120), and the move number is only a label.
    ///
    /// ```
    /// use xiangqi_core::{Position, Setup};
    /// let mut pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 10000 100000")
    ///     .unwrap();
    /// pos.play("h9g7").unwrap();
    /// assert_eq!(pos.halfmoves(), 10_001);
    /// assert_eq!((pos.setup().halfmoves, pos.setup().fullmoves), (Setup::MAX_HALFMOVES, Setup::MAX_FULLMOVES));
    /// assert!(Position::from_fen(&pos.fen()).is_ok());
    /// ```
    pub fn setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            halfmoves: self.halfmoves.min(Setup::MAX_HALFMOVES),
            fullmoves: self.fullmoves().min(Setup::MAX_FULLMOVES),
        }
    }

    /// The FEN of the position.
    pub fn fen(&self) -> String {
        self.setup().to_string()
    }

    #[inline(always)]
    fn put(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = Some(p);
        self.by_color[p.color.index()].toggle(sq);
        self.by_kind[p.kind.index()].toggle(sq);
        self.occ.toggle(sq);
    }

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All pieces of `kind`, both colours.
    #[inline(always)]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// All occupied points.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occ.bitboard()
    }

    /// The occupancy in the two layouts the line attacks need.
    #[inline(always)]
    pub fn occupancy(&self) -> &Occupancy {
        &self.occ
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// The zobrist key, kept incrementally.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key [`Position::key`] will have after `m` (pseudo-legal for the side to move), without making it: a
    /// search uses it to start loading the table entry of the child before the move is made.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// let mut pos = Position::startpos();
    /// let m = pos.parse_move("h2e2").unwrap();
    /// let after = pos.key_after(m);
    /// pos.make_move(m);
    /// assert_eq!(pos.key(), after);
    /// ```
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else { return self.key };
        let mut key = self.key ^ zobrist::SIDE ^ zobrist::piece_square(piece, from) ^ zobrist::piece_square(piece, to);
        if let Some(c) = self.board[to.index()] {
            key ^= zobrist::piece_square(c, to);
        }
        key
    }

    /// The halfmove clock: the setup's clock plus the plies made since, reset by each capture (null moves count
    /// as plies).
    #[inline(always)]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number for the FEN: starts at the setup's and grows after each Black move.
    pub fn fullmoves(&self) -> u32 {
        let start_black = self.turn_at_start() == Color::Black;
        self.start_fullmoves + (self.history.len() as u32 + start_black as u32) / 2
    }

    fn turn_at_start(&self) -> Color {
        if self.history.len() % 2 == 0 {
            self.turn
        } else {
            !self.turn
        }
    }

    /// Plies made since the position was set up (moves and null moves).
    #[inline(always)]
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The moves made since the position was set up, oldest first (`None` for a null move).
    pub fn moves_played(&self) -> impl DoubleEndedIterator<Item = Option<Move>> + '_ {
        self.history.iter().map(|s| s.mv)
    }

    /// The key of the position `n` plies ago (`n = 0` is the current key), if the history goes back that far.
    #[inline]
    pub fn key_before(&self, n: usize) -> Option<u64> {
        if n == 0 {
            Some(self.key)
        } else {
            self.history.len().checked_sub(n).map(|i| self.history[i].key)
        }
    }

    /// The piece the last move captured, if any.
    pub fn last_captured(&self) -> Option<Piece> {
        self.history.last().and_then(|s| s.captured)
    }

    /// The key computed from scratch (always equal to [`Position::key`]).
    pub fn compute_key(&self) -> u64 {
        let mut k = if self.turn == Color::Black { zobrist::SIDE } else { 0 };
        for sq in self.occupied() {
            if let Some(p) = self.board[sq.index()] {
                k ^= zobrist::piece_square(p, sq);
            }
        }
        k
    }

    /// Plays `m`, which must be legal (or at least pseudo-legal: a piece of the side to move on its origin). Check
    /// with [`Position::is_legal`] or parse with [`Position::parse_move`] first when the move comes from outside.
    ///
    /// # Panics
    /// When the origin is empty (a broken contract, like an out-of-bounds index).
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from.index()].expect("make_move: no piece on the origin");
        let captured = self.board[to.index()];
        let key = self.key_after(m);
        self.history.push(State { mv: Some(m), captured, key: self.key, halfmoves: self.halfmoves });
        let us = piece.color.index();
        let moved = Bitboard::from_square(from) | Bitboard::from_square(to);
        if let Some(c) = captured {
            self.by_color[c.color.index()].toggle(to);
            self.by_kind[c.kind.index()].toggle(to);
            self.occ.toggle(from);
            self.halfmoves = 0;
        } else {
            self.occ.toggle(from);
            self.occ.toggle(to);
            self.halfmoves += 1;
        }
        self.by_color[us] ^= moved;
        self.by_kind[piece.kind.index()] ^= moved;
        self.board[to.index()] = Some(piece);
        self.board[from.index()] = None;
        if piece.kind == PieceKind::King {
            self.kings[us] = to;
        }
        self.key = key;
        self.turn = !self.turn;
    }

    /// Takes back the last move made with [`Position::make_move`] or [`Position::make_null_move`]. Does nothing
    /// when no move was made.
    #[inline]
    pub fn unmake_move(&mut self) {
        let Some(st) = self.history.pop() else { return };
        self.turn = !self.turn;
        self.key = st.key;
        self.halfmoves = st.halfmoves;
        let Some(m) = st.mv else { return };
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[to.index()] else { return };
        let moved = Bitboard::from_square(from) | Bitboard::from_square(to);
        let us = piece.color.index();
        self.by_color[us] ^= moved;
        self.by_kind[piece.kind.index()] ^= moved;
        self.board[from.index()] = Some(piece);
        self.board[to.index()] = st.captured;
        if let Some(c) = st.captured {
            self.by_color[c.color.index()].toggle(to);
            self.by_kind[c.kind.index()].toggle(to);
            self.occ.toggle(from);
        } else {
            self.occ.toggle(from);
            self.occ.toggle(to);
        }
        if piece.kind == PieceKind::King {
            self.kings[us] = from;
        }
    }

    /// Passes the move to the other side (for null-move pruning). Undo with [`Position::unmake_move`]. The side to
    /// move must not be in check.
    #[inline]
    pub fn make_null_move(&mut self) {
        self.history.push(State { mv: None, captured: None, key: self.key, halfmoves: self.halfmoves });
        self.key ^= zobrist::SIDE;
        self.halfmoves += 1;
        self.turn = !self.turn;
    }

    /// Pieces of `by` (restricted to `mask`) that attack `sq`, with occupancy `occ`. Kings attack along an open
    /// file too (the flying-general rule), so a king facing `sq` counts.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, mask: Bitboard, occ: &Occupancy) -> Bitboard {
        let them = self.by_color[by.index()] & mask;
        let k = &self.by_kind;
        let mut out =
            (king_attacks(sq) & k[PieceKind::King.index()]) | (advisor_attacks(sq) & k[PieceKind::Advisor.index()]);
        let elephants = k[PieceKind::Elephant.index()] & them;
        if elephants.any() {
            out |= elephant_attacks(sq, occ.bitboard()) & elephants;
        }
        (out & them) | self.king_attackers_at(sq, by, mask, occ)
    }

    /// Whether any piece of `by` (restricted to `mask`) attacks `sq` with occupancy `occ`: the same answer as
    /// `attackers_to(..).any()`, cheaper because it stops at the first kind of attacker found.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, mask: Bitboard, occ: &Occupancy) -> bool {
        let them = self.by_color[by.index()] & mask;
        let k = &self.by_kind;
        let steps = (soldier_attackers(by, sq) & k[PieceKind::Soldier.index()])
            | (king_attacks(sq) & k[PieceKind::King.index()])
            | (advisor_attacks(sq) & k[PieceKind::Advisor.index()]);
        if (steps & them).any() {
            return true;
        }
        let horses = k[PieceKind::Horse.index()] & them;
        if (horses & horse_sources(sq)).any() && (horse_attackers(sq, occ.bitboard()) & horses).any() {
            return true;
        }
        let on_lines = lines(sq);
        let chariots =
            (k[PieceKind::Chariot.index()] | (k[PieceKind::King.index()] & Bitboard::file(sq.file()))) & them;
        if (chariots & on_lines).any() && (rook_attacks(sq, occ) & chariots).any() {
            return true;
        }
        let cannons = k[PieceKind::Cannon.index()] & them;
        if (cannons & on_lines).any() && (cannon_attacks(sq, occ) & cannons).any() {
            return true;
        }
        let elephants = k[PieceKind::Elephant.index()] & them;
        elephants.any() && (elephant_attacks(sq, occ.bitboard()) & elephants).any()
    }

    /// Whether the legal move `m` checks the opponent: directly, by the moved piece, or by discovery (a line or a
    /// horse leg it opens, a cannon screen it adds or removes). Without making the move.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// let pos = Position::startpos();
    /// assert!(!pos.gives_check("h2e2".parse().unwrap()));
    /// // The horse on d3 shields the black king on d9 from the chariot on d0: moving it away checks.
    /// let pos = Position::from_fen("3k5/9/9/9/9/9/3N5/9/9/3RK4 w").unwrap();
    /// assert!(pos.gives_check("d3e5".parse().unwrap()));
    /// assert!(!pos.gives_check("e0e1".parse().unwrap()));
    /// ```
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.turn;
        let ksq = self.kings[(!us).index()];
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else { return false };
        // Most moves can check neither way, which is seen without computing any attack: the moved piece checks
        // only from where its kind could attack the king, and a discovered check needs `from` on the king's lines
        // or on a leg of a horse attacking it (a diagonal neighbour of the king), or `to` on the lines (a new
        // cannon screen).
        let on_lines = lines(ksq);
        let may_direct = match piece.kind {
            PieceKind::Chariot | PieceKind::Cannon => on_lines.contains(to),
            PieceKind::Horse => horse_sources(ksq).contains(to),
            PieceKind::Soldier => soldier_attackers(us, ksq).contains(to),
            // A king never checks directly: a legal move never leaves the kings facing.
            PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => false,
        };
        let leg = from.file().index().abs_diff(ksq.file().index()) == 1
            && from.rank().index().abs_diff(ksq.rank().index()) == 1;
        if !may_direct && !leg && !on_lines.contains(from) && !on_lines.contains(to) {
            return false;
        }
        let occ = self.occ.without(from).with(to);
        let direct = may_direct && piece_reach(piece, to, &occ).capture.contains(ksq);
        direct || self.king_attackers_at(ksq, us, !Bitboard::from_square(from), &occ).any()
    }

    /// Pieces of `them` (restricted to `mask`) that attack the king of the other side, with occupancy `occ`.
    /// Kings, advisors and elephants never cross the river (not even in a lenient setup: see
    /// [`Validation::Lenient`]), so only chariots, cannons, horses, soldiers and the facing king are looked at.
    #[inline(always)]
    fn attackers_to_king(&self, them: Color, mask: Bitboard, occ: &Occupancy) -> Bitboard {
        let ksq = self.kings[(!them).index()];
        self.king_attackers_at(ksq, them, mask, occ)
    }

    /// Chariots, cannons, horses, soldiers and (along the file: the flying general) the king of `them` that attack
    /// `ksq`, restricted to `mask`, with occupancy `occ`. Most positions have no checker at all, so each kind of
    /// attacker is first looked for where it could stand (on the lines of `ksq`, a horse's distance away) before
    /// its attacks are computed.
    #[inline(always)]
    pub(crate) fn king_attackers_at(&self, ksq: Square, them: Color, mask: Bitboard, occ: &Occupancy) -> Bitboard {
        let t = self.by_color[them.index()] & mask;
        let k = &self.by_kind;
        let mut out = soldier_attackers(them, ksq) & k[PieceKind::Soldier.index()];
        let chariots = (k[PieceKind::Chariot.index()] | (k[PieceKind::King.index()] & Bitboard::file(ksq.file()))) & t;
        let cannons = k[PieceKind::Cannon.index()] & t;
        let on_lines = lines(ksq);
        if (chariots & on_lines).any() {
            out |= rook_attacks(ksq, occ) & chariots;
        }
        if (cannons & on_lines).any() {
            out |= cannon_attacks(ksq, occ) & cannons;
        }
        let horses = k[PieceKind::Horse.index()] & t;
        if (horses & horse_sources(ksq)).any() {
            out |= horse_attackers(ksq, occ.bitboard()) & horses;
        }
        out & t
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_to_king(!self.turn, Bitboard::FULL, &self.occ)
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// Checkers, blockers and screen points of the side to move's king: see [`KingSafety`].
    #[inline]
    pub fn king_safety(&self) -> KingSafety {
        let us = self.turn;
        let them = !us;
        let ksq = self.kings[us.index()];
        let occ = self.occupied();
        let theirs = self.by_color[them.index()];
        let k = &self.by_kind;
        let mut checkers = Bitboard::EMPTY;
        let mut blockers = Bitboard::EMPTY;
        let mut screen_points = Bitboard::EMPTY;
        let line_pieces = lines(ksq)
            & theirs
            & (k[PieceKind::Chariot.index()]
                | k[PieceKind::Cannon.index()]
                | (k[PieceKind::King.index()] & Bitboard::file(ksq.file())));
        for s in line_pieces {
            let gap = between(ksq, s);
            let inside = gap & occ;
            let n = inside.count();
            if k[PieceKind::Cannon.index()].contains(s) {
                match n {
                    0 => screen_points |= gap,
                    1 => checkers = checkers.with(s),
                    2 => blockers |= inside,
                    _ => {}
                }
            } else {
                match n {
                    0 => checkers = checkers.with(s),
                    1 => blockers |= inside,
                    _ => {}
                }
            }
        }
        let horses = theirs & k[PieceKind::Horse.index()];
        if horses.any() {
            for (leg, sources) in horse_attackers_by_leg(ksq) {
                let h = sources & horses;
                if h.any() {
                    if occ.contains(leg) {
                        blockers = blockers.with(leg);
                    } else {
                        checkers |= h;
                    }
                }
            }
        }
        checkers |= soldier_attackers(them, ksq) & theirs & k[PieceKind::Soldier.index()];
        KingSafety { king: ksq, checkers, blockers, screen_points }
    }

    /// When the side to move is in check, what a move other than the king's can answer it with: the points it must
    /// reach (capturing the checker, or stepping between it and the king, onto the leg of a checking horse or
    /// between a checking cannon and the king) and the origins whose pieces answer by leaving (a checking cannon's
    /// screen). A necessary condition only: a move passing it still needs the full legality test. Not in check,
    /// or in double check (where one move can block two lines), it filters nothing.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// // The red king on e0 is checked by the black chariot on i0, along the bottom rank.
    /// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/R3K3r w").unwrap();
    /// let (to, from) = pos.evasion_filter(&pos.king_safety());
    /// assert!(to.contains("i0".parse().unwrap()) && from.is_empty());
    /// ```
    #[inline]
    pub fn evasion_filter(&self, ks: &KingSafety) -> (Bitboard, Bitboard) {
        if ks.checkers.count() != 1 {
            return (Bitboard::FULL, Bitboard::EMPTY);
        }
        let c = ks.checkers.into_iter().next().expect("one checker");
        let gap = between(ks.king, c);
        match self.board[c.index()].map(|p| p.kind) {
            Some(PieceKind::Cannon) => (gap | ks.checkers, gap & self.occupied()),
            Some(PieceKind::Horse) => {
                let leg = horse_attackers_by_leg(ks.king)
                    .find(|(_, sources)| sources.contains(c))
                    .map_or(Bitboard::EMPTY, |(leg, _)| Bitboard::from_square(leg));
                (leg | ks.checkers, Bitboard::EMPTY)
            }
            _ => (gap | ks.checkers, Bitboard::EMPTY),
        }
    }

    /// Whether the pseudo-legal move `from -> to` of the side to move leaves its king safe, given `ks` from
    /// [`Position::king_safety`]. Exact for any pseudo-legal move.
    #[inline(always)]
    pub fn is_safe_with(&self, ks: &KingSafety, from: Square, to: Square) -> bool {
        if ks.checkers.is_empty() && from != ks.king && !ks.blockers.contains(from) && !ks.screen_points.contains(to) {
            return true;
        }
        self.leaves_king_safe(from, to)
    }

    /// The full test: after `from -> to`, is the mover's king attacked?
    #[inline]
    fn leaves_king_safe(&self, from: Square, to: Square) -> bool {
        let us = self.turn;
        let ksq = if from == self.kings[us.index()] { to } else { self.kings[us.index()] };
        let occ = self.occ.without(from).with(to);
        self.king_attackers_at(ksq, !us, !Bitboard::from_square(to), &occ).is_empty()
    }

    /// Whether the pseudo-legal move `m` (as a pseudo-legal generator gives it) leaves the mover's king safe: the
    /// full king-safety test without the pseudo-legality check of [`Position::is_legal`].
    #[inline]
    pub fn is_legal_pseudo(&self, m: Move) -> bool {
        self.leaves_king_safe(m.from(), m.to())
    }

    /// Whether `m` is pseudo-legal: a piece of the side to move that can reach the destination, which is empty or
    /// holds an enemy piece. Says nothing of the king's safety.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        self.pseudo_legal_error(m).is_none()
    }

    fn pseudo_legal_error(&self, m: Move) -> Option<MoveError> {
        let Some(piece) = self.board[m.from().index()] else { return Some(MoveError::EmptyOrigin(m)) };
        if piece.color != self.turn {
            return Some(MoveError::WrongSide(m, self.turn));
        }
        let reach = piece_reach(piece, m.from(), &self.occ);
        let ok = match self.board[m.to().index()] {
            None => reach.quiet.contains(m.to()),
            Some(t) => t.color != piece.color && reach.capture.contains(m.to()),
        };
        if ok {
            None
        } else {
            Some(MoveError::CannotReach(m, piece.kind))
        }
    }

    /// Whether `m` is legal: pseudo-legal and not leaving the own king attacked (kings facing included).
    ///
    /// ```
    /// use xiangqi_core::{Move, Position};
    /// let pos = Position::startpos();
    /// assert!(pos.is_legal("b0c2".parse().unwrap()));
    /// assert!(!pos.is_legal("b0b2".parse().unwrap()));
    /// ```
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.leaves_king_safe(m.from(), m.to())
    }

    /// Checks that `m` is legal, saying why not.
    pub fn check_move(&self, m: Move) -> Result<Move, MoveError> {
        if let Some(e) = self.pseudo_legal_error(m) {
            return Err(e);
        }
        if !self.leaves_king_safe(m.from(), m.to()) {
            return Err(MoveError::KingInCheck(m, self.turn));
        }
        Ok(m)
    }

    /// Parses a move in UCI (`h2e2`) or ICCS (`H2-E2`) form and checks that it is legal here. Nothing is played.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.check_move(Move::parse(text)?)
    }

    /// Parses and plays a move, or returns why it is not legal (the position is then unchanged).
    pub fn play(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.parse_move(text)?;
        self.make_move(m);
        Ok(m)
    }

    /// Calls `f` with every legal move of the side to move, in a simple order (by origin square); `f` returns
    /// `false` to stop early. The fast, staged generator lives in `xiangqi-movegen`; this one serves the rules
    /// (mate and stalemate detection, move parsing) with the same tables and the same legality test.
    pub fn for_each_legal_move(&self, mut f: impl FnMut(Move) -> bool) {
        let us = self.turn;
        let ks = self.king_safety();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[(!us).index()];
        let empty = !self.occupied();
        for from in ours {
            let Some(piece) = self.board[from.index()] else { continue };
            let reach = piece_reach(piece, from, &self.occ);
            for to in (reach.quiet & empty) | (reach.capture & theirs) {
                if self.is_safe_with(&ks, from, to) && !f(Move::new(from, to)) {
                    return;
                }
            }
        }
    }

    /// Whether the side to move has at least one legal move. In xiangqi a side without one has lost, in check
    /// (checkmate) or not (stalemate).
    pub fn has_legal_move(&self) -> bool {
        let mut any = false;
        self.for_each_legal_move(|_| {
            any = true;
            false
        });
        any
    }

    /// All legal moves, collected into a `Vec` (convenient, not fast: use `xiangqi-movegen` in hot loops).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.for_each_legal_move(|m| {
            v.push(m);
            true
        });
        v
    }
}

/// Whether `p` could ever stand on `sq` in a game from the start position.
pub fn can_stand(p: Piece, sq: Square) -> bool {
    let (f, r) = (sq.file() as u8, sq.rank() as u8);
    // Ranks seen from the piece's own side.
    let rel = if p.color == Color::Red { r } else { 9 - r };
    match p.kind {
        PieceKind::King => sq.in_palace(p.color),
        PieceKind::Advisor => sq.in_palace(p.color) && (f + rel) % 2 == 1,
        PieceKind::Elephant => matches!((f, rel), (2 | 6, 0) | (0 | 4 | 8, 2) | (2 | 6, 4)),
        PieceKind::Soldier => rel >= 5 || (rel >= 3 && f % 2 == 0),
        _ => true,
    }
}

/// Whether `p` on `sq` is a king, an advisor or an elephant across the river, which the rules never let these
/// pieces cross. Even a lenient setup rejects it: the check tests never look at kings, advisors and elephants as
/// attackers (the flying general aside), which is right only while each side's stay on their own half.
fn trespasses(p: Piece, sq: Square) -> bool {
    matches!(p.kind, PieceKind::King | PieceKind::Advisor | PieceKind::Elephant) && sq.rank().half() != p.color
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl PartialEq for Position {
    /// Two positions are equal when pieces, side to move and the halfmove clock agree (the move number and the
    /// history are not compared).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board && self.turn == other.turn && self.halfmoves == other.halfmoves
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl fmt::Display for Position {
    /// The board as text, rank 9 on top, with file letters and rank digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9 {
                let c = self.board[rank * 9 + file].map_or('.', |p| p.char());
                write!(f, " {c}")?;
            }
            writeln!(f)?;
            if rank == 5 {
                writeln!(f, "   ~~~~~~~~~~~~~~~~~")?;
            }
        }
        writeln!(f, "   a b c d e f g h i")?;
        write!(f, "{} to move", self.turn)
    }
}

impl std::str::FromStr for Position {
    type Err = Error;
    fn from_str(s: &str) -> Result<Position, Error> {
        Position::from_fen(s)
    }
}
