//! # xiangqi-movegen: fast legal move generation, perft and divide
//!
//! Legal moves are generated straight from the attack tables of `xiangqi-core` into a stack-allocated
//! [`MoveList`]. Legality uses the position's [`KingSafety`]: only king moves, moves of a piece that shields the king
//! (from a chariot, the facing king, a cannon or through a horse leg) and moves that would become a cannon's screen
//! get the full test; every other move is legal as generated, which also lets [`count_legal`] count whole target sets
//! with one popcount (bulk counting in [`perft`]).
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_movegen::{captures, legal_moves, perft};
//!
//! let pos = Position::startpos();
//! assert_eq!(legal_moves(&pos).len(), 44);
//! assert_eq!(captures(&pos).len(), 2); // the two cannons can take the horses
//! assert_eq!(perft(&pos, 3), 79_666);
//! ```

use rayon::prelude::*;
use smallvec::SmallVec;
use xiangqi_core::attacks::{
    advisor_attacks, cannon_attacks, elephant_attacks, horse_attacks, king_attacks, rook_attacks, soldier_attacks,
};
use xiangqi_core::{piece_reach, Bitboard, KingSafety, Move, Piece, PieceKind, Position, Square};

/// A list of moves on the stack. 128 holds every move of any position seen in play; a larger list spills to
/// the heap rather than failing.
pub type MoveList = SmallVec<[Move; 128]>;

/// Which moves to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenType {
    /// Every legal move.
    All,
    /// Legal captures only (what quiescence search needs).
    Captures,
    /// Legal non-captures only.
    Quiets,
}

/// Receives generated moves: one origin and a set of destinations that are already known to be legal.
trait Sink {
    fn add(&mut self, from: Square, targets: Bitboard);
}

impl Sink for MoveList {
    #[inline(always)]
    fn add(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }
}

struct Counter(u64);

impl Sink for Counter {
    #[inline(always)]
    fn add(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
}

/// The generator: for each of our pieces, its destinations filtered by `CAPTURES`/`QUIETS`, then legality (unless
/// `LAZY`: then the moves that need the full test are emitted untested, in the same place). Returns the king-safety
/// analysis it used.
#[inline(always)]
fn generate_into<const CAPTURES: bool, const QUIETS: bool, const LAZY: bool, S: Sink>(
    pos: &Position,
    sink: &mut S,
) -> KingSafety {
    let ks = pos.king_safety();
    generate_with::<CAPTURES, QUIETS, LAZY, S>(pos, &ks, sink);
    ks
}

/// [`generate_into`] with the king-safety analysis `ks` of `pos` already made.
#[inline(always)]
fn generate_with<const CAPTURES: bool, const QUIETS: bool, const LAZY: bool, S: Sink>(
    pos: &Position,
    ks: &KingSafety,
    sink: &mut S,
) {
    let us = pos.turn();
    let occ = pos.occupancy();
    let empty = if QUIETS { !pos.occupied() } else { Bitboard::EMPTY };
    let theirs = if CAPTURES { pos.color_bb(!us) } else { Bitboard::EMPTY };
    let in_check = ks.checkers.any();
    // In check, a move other than the king's must reach one of `evade`, unless its piece is a checking cannon's
    // screen: other moves need no legality test at all.
    let (evade, screens) = if in_check { pos.evasion_filter(ks) } else { (Bitboard::FULL, Bitboard::EMPTY) };
    for kind in [
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Horse,
        PieceKind::Soldier,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::King,
    ] {
        let piece = Piece::new(us, kind);
        for from in pos.pieces(us, kind) {
            let reach = piece_reach(piece, from, occ);
            let mut targets = (reach.quiet & empty) | (reach.capture & theirs);
            if in_check && kind != PieceKind::King && !screens.contains(from) {
                targets &= evade;
            }
            if targets.is_empty() {
                continue;
            }
            let sure = if in_check || kind == PieceKind::King || ks.blockers.contains(from) {
                Bitboard::EMPTY
            } else {
                targets - ks.screen_points
            };
            sink.add(from, sure);
            if LAZY {
                sink.add(from, targets - sure);
                continue;
            }
            for to in targets - sure {
                if pos.is_safe_with(ks, from, to) {
                    sink.add(from, Bitboard::from_square(to));
                }
            }
        }
    }
}

/// Appends the legal moves of `kind` to `list`.
#[inline]
pub fn generate(pos: &Position, kind: GenType, list: &mut MoveList) {
    match kind {
        GenType::All => generate_into::<true, true, false, _>(pos, list),
        GenType::Captures => generate_into::<true, false, false, _>(pos, list),
        GenType::Quiets => generate_into::<false, true, false, _>(pos, list),
    };
}

/// Appends every move of the legal generator's candidates, in its order, leaving untested the few that need the
/// full king-safety test (king moves, moves of a piece shielding its king, moves onto a cannon's screen point and,
/// in check, the moves that may answer it). Returns the [`KingSafety`] with which
/// [`Position::is_safe_with`] tells the legal ones apart, so that a search tests only the moves it tries.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_movegen::{generate_lazy, legal_moves, MoveList};
/// let pos = Position::from_fen("4k4/4n4/2P6/9/9/9/9/9/4R4/3K5 b").unwrap();
/// let mut list = MoveList::new();
/// let ks = generate_lazy(&pos, &mut list);
/// let legal: Vec<_> = list.iter().filter(|m| pos.is_safe_with(&ks, m.from(), m.to())).copied().collect();
/// assert_eq!(legal, legal_moves(&pos).to_vec());
/// ```
#[inline]
pub fn generate_lazy(pos: &Position, list: &mut MoveList) -> KingSafety {
    generate_into::<true, true, true, _>(pos, list)
}

/// The moves of `kind` that [`generate_lazy`] would list, in its relative order, with `ks` the position's
/// [`Position::king_safety`] made beforehand. A staged move picker lists the captures first and the quiet moves
/// only when it comes to them, sharing one king-safety analysis:
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_movegen::{generate_lazy, generate_lazy_with, GenType, MoveList};
/// let pos = Position::startpos();
/// let ks = pos.king_safety();
/// let (mut caps, mut quiets, mut all) = (MoveList::new(), MoveList::new(), MoveList::new());
/// generate_lazy_with(&pos, &ks, GenType::Captures, &mut caps);
/// generate_lazy_with(&pos, &ks, GenType::Quiets, &mut quiets);
/// generate_lazy(&pos, &mut all);
/// assert_eq!((caps.len(), quiets.len()), (2, 42));
/// assert!(all.iter().all(|m| caps.contains(m) != quiets.contains(m)));
/// ```
#[inline]
pub fn generate_lazy_with(pos: &Position, ks: &KingSafety, kind: GenType, list: &mut MoveList) {
    match kind {
        GenType::All => generate_with::<true, true, true, _>(pos, ks, list),
        GenType::Captures => generate_with::<true, false, true, _>(pos, ks, list),
        GenType::Quiets => generate_with::<false, true, true, _>(pos, ks, list),
    }
}

/// Pseudo-legal captures: every capture a piece of the side to move can make, whether or not it leaves its own king
/// attacked. Cheaper than [`captures`] (no king-safety analysis); a caller that tries only a few of them tests each
/// with [`Position::is_legal_pseudo`] before making it, as quiescence search does.
///
/// ```
/// use xiangqi_core::Position;
/// // The black horse on e8 shields its king from the red chariot: its captures are pseudo-legal, not legal.
/// let pos = Position::from_fen("4k4/4n4/2P6/9/9/9/9/9/4R4/3K5 b").unwrap();
/// let pseudo = xiangqi_movegen::pseudo_captures(&pos);
/// assert_eq!(pseudo.len(), 1);
/// assert!(!pos.is_legal_pseudo(pseudo[0]));
/// assert!(xiangqi_movegen::captures(&pos).is_empty());
/// ```
#[inline]
pub fn pseudo_captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_pseudo_captures(pos, &mut list);
    list
}

/// Appends the pseudo-legal captures (see [`pseudo_captures`]) to `list`.
#[inline]
pub fn generate_pseudo_captures(pos: &Position, list: &mut MoveList) {
    let us = pos.turn();
    let occ = pos.occupancy();
    let theirs = pos.color_bb(!us);
    // Capture sets only, kind by kind (a piece's full reach would also compute its quiet moves).
    for from in pos.pieces(us, PieceKind::Chariot) {
        list.add(from, rook_attacks(from, occ) & theirs);
    }
    for from in pos.pieces(us, PieceKind::Cannon) {
        list.add(from, cannon_attacks(from, occ) & theirs);
    }
    for from in pos.pieces(us, PieceKind::Horse) {
        list.add(from, horse_attacks(from, occ.bitboard()) & theirs);
    }
    for from in pos.pieces(us, PieceKind::Soldier) {
        list.add(from, soldier_attacks(us, from) & theirs);
    }
    for from in pos.pieces(us, PieceKind::Advisor) {
        list.add(from, advisor_attacks(from) & theirs);
    }
    for from in pos.pieces(us, PieceKind::Elephant) {
        list.add(from, elephant_attacks(from, occ.bitboard()) & theirs);
    }
    let king = pos.king(us);
    list.add(king, king_attacks(king) & theirs);
}

/// All legal moves.
#[inline]
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_into::<true, true, false, _>(pos, &mut list);
    list
}

/// Legal captures.
#[inline]
pub fn captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_into::<true, false, false, _>(pos, &mut list);
    list
}

/// Legal non-captures.
#[inline]
pub fn quiets(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_into::<false, true, false, _>(pos, &mut list);
    list
}

/// The legal replies to a check: the same set as [`legal_moves`], named for callers that know the side to move
/// is in check (every move then gets the full king-safety test). Empty when the side to move is mated.
///
/// ```
/// use xiangqi_core::Position;
/// // Red's chariot checks along the file: Black must move the king out of the file.
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
/// assert!(pos.in_check());
/// let ev: Vec<String> = xiangqi_movegen::evasions(&pos).iter().map(|m| m.to_string()).collect();
/// assert_eq!(ev, ["e9f9"]);
/// ```
#[inline]
pub fn evasions(pos: &Position) -> MoveList {
    legal_moves(pos)
}

/// The number of legal moves, counted without listing them.
#[inline]
pub fn count_legal(pos: &Position) -> u64 {
    let mut c = Counter(0);
    generate_into::<true, true, false, _>(pos, &mut c);
    c.0
}

/// Counts the leaves of the legal move tree `depth` plies deep, with bulk counting at the last ply.
///
/// ```
/// use xiangqi_core::Position;
/// assert_eq!(xiangqi_movegen::perft(&Position::startpos(), 2), 1920);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut p = pos.clone();
    perft_with(&mut p, depth, true)
}

/// Perft on a position the caller lends (it is restored). `bulk` counts the last ply by counting moves instead of
/// making them.
pub fn perft_with(pos: &mut Position, depth: u32, bulk: bool) -> u64 {
    match depth {
        0 => 1,
        1 if bulk => count_legal(pos),
        _ => {
            let mut nodes = 0;
            for m in legal_moves(pos) {
                pos.make_move(m);
                nodes += perft_with(pos, depth - 1, bulk);
                pos.unmake_move();
            }
            nodes
        }
    }
}

/// The perft count below each legal move, sorted by the move's UCI text (what `divide` prints). Depth 0 is read
/// as depth 1 (each legal move counts one), as Stockfish's `go perft 0` does.
///
/// ```
/// use xiangqi_core::Position;
/// let d = xiangqi_movegen::divide(&Position::startpos(), 1, 1);
/// assert_eq!(d.len(), 44);
/// assert!(d.iter().all(|&(_, n)| n == 1));
/// ```
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    divide_with(pos, depth, threads, true, |_, _| {})
}

/// [`divide`] with the choice of bulk counting and a progress callback, called with (root moves done, root moves
/// in all) after each root move.
pub fn divide_with(
    pos: &Position,
    depth: u32,
    threads: usize,
    bulk: bool,
    progress: impl Fn(usize, usize) + Sync,
) -> Vec<(Move, u64)> {
    let moves = legal_moves(pos);
    let depth = depth.max(1);
    let total = moves.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let tick = || progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1, total);
    let mut out: Vec<(Move, u64)> = if threads <= 1 {
        let mut p = pos.clone();
        moves
            .iter()
            .map(|&m| {
                p.make_move(m);
                let n = perft_with(&mut p, depth - 1, bulk);
                p.unmake_move();
                tick();
                (m, n)
            })
            .collect()
    } else {
        with_pool(threads, || {
            moves
                .par_iter()
                .map(|&m| {
                    let mut p = pos.clone();
                    p.make_move(m);
                    let n = perft_parallel_inner(&mut p, depth - 1, bulk);
                    tick();
                    (m, n)
                })
                .collect()
        })
    };
    out.sort_by_key(|(m, _)| m.to_string());
    out
}

/// Perft on `threads` threads (rayon). The tree is split two plies deep so both cores stay busy to the end.
///
/// ```
/// use xiangqi_core::Position;
/// assert_eq!(xiangqi_movegen::perft_parallel(&Position::startpos(), 3, 2), 79_666);
/// ```
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth < 3 {
        return perft(pos, depth);
    }
    with_pool(threads, || {
        let mut p = pos.clone();
        perft_parallel_inner(&mut p, depth, true)
    })
}

/// Splits the first two plies into rayon tasks, then runs the sequential perft below.
fn perft_parallel_inner(pos: &mut Position, depth: u32, bulk: bool) -> u64 {
    if depth < 4 {
        return perft_with(pos, depth, bulk);
    }
    let moves = legal_moves(pos);
    moves
        .par_iter()
        .map(|&m| {
            let mut p = pos.clone();
            p.make_move(m);
            let replies = legal_moves(&p);
            replies
                .par_iter()
                .map(|&r| {
                    let mut q = p.clone();
                    q.make_move(r);
                    perft_with(&mut q, depth - 2, bulk)
                })
                .sum::<u64>()
        })
        .sum()
}

fn with_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(f),
        // Could not start threads: run on the calling thread's global pool instead.
        Err(_) => f(),
    }
}
