//! What the algorithms are generic over: a game ([`GameTree`], with the optional [`FastPaths`]) and an evaluator
//! ([`Evaluator`], which lives in `xiangqi-core` so that `xiangqi-eval` implements it without knowing the search),
//! and the score scale.

use smallvec::SmallVec;
use std::fmt::{Debug, Display};
pub use xiangqi_core::evaluation::Evaluator;
pub use xiangqi_movegen::GenType;

/// A score in centipawn-like units from the point of view of the side to move (negamax forms) or of the first
/// player (the two-sided forms).
pub type Score = i32;

/// Larger than any score: the initial window is `[-INFINITY, INFINITY]`.
pub const INFINITY: Score = 32_000;
/// The score of mating now. A mate `n` plies from the root scores `MATE - n`, so shorter mates score higher.
pub const MATE: Score = 30_000;
/// The deepest ply a search reaches (main search plus quiescence).
pub const MAX_PLY: usize = 128;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;

/// The score of a side that is mated (or, in xiangqi, stalemated) `ply` plies from the root.
#[inline(always)]
pub const fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

/// The moves to mate of a mate score (negative when the side to move is mated), as UCI writes `mate N`; `None`
/// for a score that is no mate.
///
/// ```
/// use xiangqi_search::{mate_moves, MATE};
/// assert_eq!((mate_moves(MATE - 1), mate_moves(MATE - 4), mate_moves(-MATE + 2), mate_moves(35)), (Some(1), Some(2), Some(-1), None));
/// ```
pub const fn mate_moves(score: Score) -> Option<Score> {
    if score.abs() < MATE_BOUND {
        return None;
    }
    let moves = (MATE - score.abs() + 1) / 2;
    Some(if score > 0 { moves } else { -moves })
}

/// A list of moves on the stack.
pub type MoveBuf<M> = SmallVec<[M; 128]>;

/// What the game's rules say about a node (repetition, perpetual check or chase, move limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Nothing: search on.
    Continue,
    /// The rules decide: this is the node's score for the side to move.
    Decided(Score),
    /// The side to move can count on at least a draw (the opponent is repeating in violation): search on with
    /// alpha raised to just below the draw score.
    AtLeastDraw,
    /// The side to move can get at most a draw (it is repeating in violation): search on with beta lowered to just
    /// above the draw score.
    AtMostDraw,
}

/// A two-player, zero-sum game the search can walk: moves, make/unmake, the null move, check, a hash, move ordering
/// keys and the result of a position without moves. This is all a new game must implement; the speed hooks are in
/// [`FastPaths`], whose defaults a game takes by writing `impl SimpleGame for MyGame {}`.
///
/// `xiangqi_core::Position` implements both (see the `xiangqi` module); the synthetic tree of [`crate::synthetic`],
/// on which tests know exactly which leaves each algorithm must visit, implements only this one.
pub trait GameTree {
    /// A move.
    type Move: Copy + Eq + Debug + Display + Send + Sync + 'static;

    /// Number of distinct values [`GameTree::move_key`] returns (size of history tables).
    const MOVE_KEYS: usize;

    /// A dense index for `m`, below [`GameTree::MOVE_KEYS`].
    fn move_key(m: Self::Move) -> usize;

    /// `m` packed in 16 bits, never 0 (for the transposition table).
    fn encode_move(m: Self::Move) -> u16;

    /// The last move made, if any (for countermoves).
    fn last_move(&self) -> Option<Self::Move> {
        None
    }

    /// What the rules say about the current position, `ply` plies from the root. The default says nothing.
    fn rules(&mut self, _ply: usize) -> Rule {
        Rule::Continue
    }

    /// Appends the legal moves (only captures with `captures_only`) to `out`.
    fn generate(&self, captures_only: bool, out: &mut MoveBuf<Self::Move>);

    /// Plays `m`.
    fn make(&mut self, m: Self::Move);

    /// Takes back the last move or null move.
    fn unmake(&mut self);

    /// Passes the turn.
    fn make_null(&mut self);

    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;

    /// Whether a null move is sound enough here (the zugzwang guard, `isNullMoveAllowed` of the spec).
    fn null_move_allowed(&self) -> bool;

    /// A hash of the position.
    fn hash(&self) -> u64;

    /// Whether the side to move is the first player: the MAX side of the two-sided forms.
    fn first_player_to_move(&self) -> bool;

    /// The score, for the side to move, of a position where it has no legal move `ply` plies from the root. In
    /// xiangqi that is a loss (mate or stalemate): [`mated_in`].
    fn no_moves_score(&self, ply: usize) -> Score;

    /// An ordering key for captures: 0 for a quiet move; positive for a capture that does not lose material
    /// (larger for more valuable victims and cheaper attackers, MVV-LVA); negative for a capture that likely loses
    /// material (a cheaper victim on a defended point), so it is tried after the quiet moves.
    fn capture_key(&self, m: Self::Move) -> i32;

    /// Whether `m` captures nothing (cheaper than [`GameTree::capture_key`], which may look at defenders).
    #[inline(always)]
    fn is_quiet(&self, m: Self::Move) -> bool {
        self.capture_key(m) == 0
    }
}

/// The speed hooks of a [`GameTree`]: lazy legality, table moves tested without generating, captures tested only when
/// tried, check and hash known before a move is made. Every method has a default that is correct for any game (and
/// only slower); `xiangqi_core::Position` overrides them all. A game without fast paths of its own implements
/// [`SimpleGame`] and gets these defaults.
pub trait FastPaths: GameTree {
    /// What [`FastPaths::generate_lazy`] and [`FastPaths::is_legal_generated`] share about the current position (a
    /// king-safety analysis in xiangqi; nothing, `()`, for a [`SimpleGame`]).
    type Legality;

    /// The analysis of the current position for [`FastPaths::generate_lazy`] and [`FastPaths::is_legal_generated`].
    fn legality(&self) -> Self::Legality;

    /// Appends the moves of [`GameTree::generate`] of `kind` to `out` ([`GenType::All`]: all of them, in the same
    /// order; captures (moves [`GameTree::is_quiet`] says are not quiet) or quiet moves: those of them, in their
    /// relative order in `All`), with, among them, candidates that may be illegal: [`FastPaths::is_legal_generated`]
    /// tells them apart when the search comes to them, so moves never tried are never tested. `legality` is
    /// [`FastPaths::legality`] of this position. The default generates the legal moves and keeps those of `kind`.
    #[inline]
    fn generate_lazy(&self, _legality: &Self::Legality, kind: GenType, out: &mut MoveBuf<Self::Move>) {
        match kind {
            GenType::All => self.generate(false, out),
            GenType::Captures | GenType::Quiets => {
                let mut all = MoveBuf::new();
                self.generate(false, &mut all);
                let want_quiet = kind == GenType::Quiets;
                out.extend(all.into_iter().filter(|&m| self.is_quiet(m) == want_quiet));
            }
        }
    }

    /// Whether `m`, from [`FastPaths::generate_lazy`] that returned `legality`, is legal. The default (for the
    /// default `generate_lazy`, which gives legal moves only) says yes.
    #[inline(always)]
    fn is_legal_generated(&self, _legality: &Self::Legality, _m: Self::Move) -> bool {
        true
    }

    /// The legal move that [`GameTree::encode_move`] packed as `code`, if there is one here (a move from the
    /// transposition table, which may come from another position). The default finds none, so a search
    /// generates moves before trying any.
    #[inline(always)]
    fn decode_legal(&self, _code: u16) -> Option<Self::Move> {
        None
    }

    /// [`FastPaths::decode_legal`] with `legality`, the [`FastPaths::legality`] of this position, at hand (which may
    /// make the test cheaper).
    #[inline(always)]
    fn decode_with(&self, _legality: &Self::Legality, code: u16) -> Option<Self::Move> {
        self.decode_legal(code)
    }

    /// Appends captures that may still leave the own king attacked, for a caller that tests each one it tries with
    /// [`FastPaths::is_legal_capture`] (quiescence, which tries few of them). The default is the legal captures.
    #[inline(always)]
    fn generate_captures_unchecked(&self, out: &mut MoveBuf<Self::Move>) {
        self.generate(true, out);
    }

    /// Whether a capture from [`FastPaths::generate_captures_unchecked`] is legal. The default says yes.
    #[inline(always)]
    fn is_legal_capture(&self, _m: Self::Move) -> bool {
        true
    }

    /// Whether the legal move `m` would check the opponent, known without making it (so that pruning can skip
    /// the move untouched). The default answers "maybe" (`true`), which only keeps such pruning from happening.
    #[inline(always)]
    fn gives_check(&self, _m: Self::Move) -> bool {
        true
    }

    /// Whether the static exchange `m` starts on its destination gains at least `threshold` for the side to move
    /// (see `xiangqi_core::Position::see_ge`), for SEE pruning. The default answers "yes" (`true`), which only keeps
    /// such pruning from happening: a game without an exchange evaluation is searched as before.
    #[inline(always)]
    fn see_ge(&self, _m: Self::Move, _threshold: Score) -> bool {
        true
    }

    /// The hash the position will have after `m`, if the game can tell without making it (the search then starts
    /// loading the child's table entry before making the move). `None` by default.
    #[inline(always)]
    fn hash_after(&self, _m: Self::Move) -> Option<u64> {
        None
    }

    /// Number of distinct values [`FastPaths::piece_to_key`] returns (size of the continuation and capture
    /// history tables). 1 by default: every move shares one key, so those histories learn nothing.
    const PIECE_TO_KEYS: usize = 1;

    /// A dense index, below [`FastPaths::PIECE_TO_KEYS`], of the piece `m` moves and its destination, before `m`
    /// is made (the continuation and capture histories are indexed by it, as Stockfish's are). 0 by default.
    #[inline(always)]
    fn piece_to_key(&self, _m: Self::Move) -> usize {
        0
    }

    /// What `m` captures, as an index below [`FastPaths::VICTIM_KINDS`] (0 for nothing), before `m` is made (the
    /// capture history's third index). 0 by default.
    #[inline(always)]
    fn victim_kind(&self, _m: Self::Move) -> usize {
        0
    }

    /// Number of distinct values [`FastPaths::victim_kind`] returns.
    const VICTIM_KINDS: usize = 1;

    /// Keys of what the correction history groups positions by: the soldiers' structure and the material, each a
    /// hash (equal for positions alike in that respect). `[0, 0]` by default: every position in one group.
    #[inline(always)]
    fn structure_keys(&self) -> [u64; 2] {
        [0, 0]
    }
}

/// A [`GameTree`] that takes every default of [`FastPaths`]: `impl SimpleGame for MyGame {}` is all a game without
/// speed hooks writes to be searched.
pub trait SimpleGame: GameTree {}

impl<G: SimpleGame> FastPaths for G {
    type Legality = ();

    #[inline(always)]
    fn legality(&self) {}
}
