//! The rules of the game's end: mate and stalemate, repetition under the Asian (AXF/WXF) rules, the 60-move rule
//! and insufficient material, usable by a referee (through [`crate::Game`]) and by a search (through [`judge`]).
//!
//! # What ends a game
//!
//! 1. **No legal move**: the side to move loses, in check (checkmate) or not (stalemate).
//! 2. **Repetition** (below): a draw, or a loss for the side that forces it by perpetual check or perpetual chase.
//! 3. **The 60-move rule**: after 120 plies without a capture, counted as [`MoveLimit`] says, the game is drawn,
//!    unless the side to move has no legal move (it still loses).
//! 4. **Insufficient material** (optional, on by default): Pikafish's table of positions where neither side can
//!    mate, see [`material_draw`].
//!
//! # Repetition
//!
//! A position (same pieces, same side to move, same zobrist key) that occurs again after an even number of plies,
//! with no capture in between, closes a *cycle*. A referee ([`crate::Game`]) judges it at its **third** occurrence,
//! over all the moves since the first one, as Pikafish does at the root. Each side's moves in the cycle are judged:
//!
//! - **Perpetual check**: every move of the side gives check (AXF rule 6, with one or several pieces).
//! - **Perpetual chase**: some enemy piece is *newly* chased by every move of the side. A move newly chases a
//!   piece when, after it, an attack of the side's on that piece is a chase (see [`crate::chase`]) and that
//!   attack is new: the moved piece's own, or one it uncovered, or one that met a real protection before the move
//!   and a fake one after it (the move pinned the protector: "fake root"). An attack that was already there is no
//!   new chase, even when the move cut a protector's line, and a chariot or cannon that slides along the line of its attack
//!   keeps the same attack. The chasers may differ from move to move (two pieces chasing one piece is a chase), the
//!   victim may not: chasing different pieces in turn is allowed (AXF rule 32; the intersection of the sets of
//!   newly chased pieces is empty). A victim is followed through the cycle as a piece, not as a square. A move that
//!   gives check is judged like any other: it keeps a chase going when it also newly attacks the victim (a
//!   discovered check that uncovers an attack on it), and breaks it when it does not.
//! - A side whose moves mix checks and other moves violates nothing unless every move also newly chases the same
//!   piece: "one check, one chase" (of different pieces, or with a check that attacks nothing) and "one check, one
//!   idle" are allowed (AXF rule 18, diagrams 37 and 38; rule 8 for the side answering checks with a check).
//!
//! The verdict, in this order:
//!
//! | Red                | Black              | Result                                  | Rulings                   |
//! |--------------------|--------------------|-----------------------------------------|---------------------------|
//! | perpetual check    | perpetual check    | draw                                    | AXF rule 7                |
//! | perpetual check    | anything else      | Red loses (even if Black chases)        | AXF rules 6, 8            |
//! | perpetual chase    | perpetual chase    | draw                                    | AXF rule 5, WXF mutual    |
//! | perpetual chase    | no violation       | Red loses                               | AXF rules 15-27           |
//! | no violation       | no violation       | draw                                    | AXF rule 5                |
//!
//! (and the same with colours swapped). When one side checks perpetually, the other side's chases are still
//! examined and reported in the [`Cycle`], but the checker loses whatever they are.
//!
//! What is a chase, and what is not (kings and soldiers may chase, unpromoted soldiers may be chased, a pinned
//! protector does not protect, horses and cannons may not chase a chariot even if protected, same-kind attacks are
//! offers to exchange), is documented in [`crate::chase`].
//!
//! ## Where the rulings leave room: Pikafish's "computer rule"
//!
//! The AXF rules have about forty rulings with many illustrated exceptions; no program implements all of them.
//! Where they leave room this module does what Pikafish does (its `Position::rule_judge`, `detect_chases` and
//! `chased`), restated, not copied:
//!
//! - Threats to mate are not chases (AXF rule 9 agrees: perpetual threat of mate is a draw); only direct capture
//!   threats count.
//! - "Newly chased by every move" stands for the rulings' "the chased piece tries to escape": as in Pikafish and
//!   Fairy-Stockfish, only a new attack chases, and a protection turned fake by a new pin counts as a new attack
//!   (the test suite `xiangqi-core/tests/engine_rule_suite.rs` holds Fairy-Stockfish's repetition cases).
//! - Advisors and elephants attacking a chariot, horse or cannon chase it even if it is protected.
//! - The cycle is the span from the first occurrence of the position to the current one (for a third occurrence,
//!   both loops); a repetition is only looked for since the last capture (and, in a search, the last null move).
//!
//! One deliberate difference from Pikafish, to follow the WXF rulings: Pikafish calls any cycle with a check in it a
//! draw unless one side checks perpetually. Here a side that mixes checks and other moves violates nothing unless
//! each of its moves, checks included, newly chases the same piece, and the other side can still lose by perpetual
//! chase (AXF rule 18, diagrams 37 and 38, where the chasing rook loses against "one check, one chase").
//!
//! ## In a search
//!
//! [`judge`] is Pikafish's `rule_judge`: at a node `ply` plies from the root it scans the key history (every
//! second ply, back to the last capture or null move) and, on a recurrence,
//!
//! - decides at the **first** recurrence when the earlier occurrence lies strictly after the root (`ply > cycle
//!   length`), and at the third occurrence otherwise;
//! - returns a draw at once; a win or loss at a first recurrence only when the cycle is clean (the position occurred
//!   only once before, the move into it repeats the one into the earlier occurrence, no position inside the cycle
//!   occurred twice, and the 60-move limit is not reached); otherwise it reports [`Judgement::Leaning`] and the
//!   search should bound its window around the draw score, as Pikafish does.
//!
//! The history is read through [`Position::key_before`] and, only when a cycle is found, recomputed by unmaking and
//! remaking its moves on the `&mut Position`: nothing is added to `make_move`.
//!
//! ```
//! use xiangqi_core::rules::{judge, Judgement, Reason, Verdict};
//! use xiangqi_core::{Color, Position};
//!
//! // Red's chariot checks along ranks 9 and 8 while Black's king steps between d9 and d8.
//! let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
//! for m in "a0a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9 a8a9 d9d8".split(' ') {
//!     pos.play(m).unwrap();
//! }
//! // The position after plies 2, 6 and 10 is the same: a third occurrence, judged even at the root.
//! match judge(&mut pos, 0) {
//!     Some(Judgement::Decided(r)) => {
//!         assert_eq!(r.reason, Reason::PerpetualCheck);
//!         assert_eq!(pos.turn(), Color::Red);
//!         assert_eq!(r.verdict, Verdict::Loss); // Red, to move, checked perpetually
//!     }
//!     other => panic!("{other:?}"),
//! }
//! ```

use crate::bitboard::Bitboard;
use crate::chase::attacks;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceKind, Square};
use std::fmt;

/// Plies without a capture after which the game is drawn (the 60-move rule).
pub const MOVE_LIMIT: u32 = 120;

/// Checks per side that count toward the move limit; later checks of that side, and the replies to them, do not.
pub const COUNTED_CHECKS: u32 = 10;

/// The 60-move counter: plies without a capture, where a side's checks beyond the tenth, and the moves that answer
/// them, do not count.
///
/// This is Pikafish's `rule60` with its `check10` counters. A capture resets everything. A move that gives a
/// side's eleventh or later check is not counted, nor is the opponent's reply to it; all other moves count one
/// ply. The game is drawn when [`MoveLimit::reached`] (120 counted plies), unless the side to move has no legal
/// move.
///
/// ```
/// use xiangqi_core::rules::MoveLimit;
/// use xiangqi_core::Color;
/// let mut c = MoveLimit::new(0);
/// for _ in 0..10 {
///     c = c.after_move(Color::Red, false, true, false); // a red check (counted: one of the first ten)
///     c = c.after_move(Color::Black, false, false, true); // Black's reply
/// }
/// assert_eq!(c.plies(), 20);
/// c = c.after_move(Color::Red, false, true, false); // the eleventh check: not counted
/// c = c.after_move(Color::Black, false, false, true); // nor is its reply
/// assert_eq!(c.plies(), 20);
/// assert_eq!(c.real_plies(), 22);
/// c = c.after_move(Color::Red, true, false, false); // a capture resets everything
/// assert_eq!(c, MoveLimit::new(0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MoveLimit {
    plies: u32,
    checks: [u32; 2],
}

impl MoveLimit {
    /// A counter at `plies` counted plies and no checks yet (the FEN's halfmove clock gives the start).
    pub const fn new(plies: u32) -> MoveLimit {
        MoveLimit { plies, checks: [0, 0] }
    }

    /// The counted plies (compare with [`MOVE_LIMIT`]).
    pub const fn plies(self) -> u32 {
        self.plies
    }

    /// The checks `color` gave since the last capture, counted or not (Pikafish's `check10`, which also grows by one
    /// for each reply to an uncounted check).
    pub const fn checks(self, color: Color) -> u32 {
        self.checks[color.index()]
    }

    /// All plies since the last capture (or the start), counted or not.
    pub const fn real_plies(self) -> u32 {
        self.plies + self.checks[0].saturating_sub(COUNTED_CHECKS) + self.checks[1].saturating_sub(COUNTED_CHECKS)
    }

    /// Whether the move limit is reached: 120 counted plies.
    pub const fn reached(self) -> bool {
        self.plies >= MOVE_LIMIT
    }

    /// The counter after a move of `mover`: whether it captured, whether it gives check, and whether `mover` was in
    /// check before it. A null move is a move that neither captures nor checks.
    pub fn after_move(self, mover: Color, capture: bool, gives_check: bool, mover_was_in_check: bool) -> MoveLimit {
        if capture {
            return MoveLimit::new(0);
        }
        let mut next = self;
        let (us, them) = (mover.index(), (!mover).index());
        let counted_check = if gives_check {
            next.checks[us] += 1;
            next.checks[us] <= COUNTED_CHECKS
        } else {
            true
        };
        if counted_check {
            if next.checks[them] > COUNTED_CHECKS && mover_was_in_check {
                // The reply to an uncounted check is not counted either.
                next.checks[them] += 1;
            } else {
                next.plies += 1;
            }
        }
        next
    }

    /// The counter of `pos`, recomputed from its history: back to the last capture (or to the start of the history,
    /// where the FEN's clock counts as plies with no checks), unmaking and remaking the moves to see which gave
    /// check. Costs O(plies since the capture); `pos` is restored.
    pub fn of_position(pos: &mut Position) -> MoveLimit {
        let halfmoves = pos.halfmoves() as usize;
        let k = halfmoves.min(pos.ply());
        let moves: Vec<Option<Move>> = pos.moves_played().rev().take(k).collect();
        // in_check[d]: whether the side to move is in check d plies ago.
        let mut in_check = Vec::with_capacity(k + 1);
        for _ in 0..k {
            in_check.push(pos.in_check());
            pos.unmake_move();
        }
        in_check.push(pos.in_check());
        let mut counter = MoveLimit::new((halfmoves - k) as u32);
        for d in (1..=k).rev() {
            let mover = pos.turn();
            counter = counter.after_move(mover, false, in_check[d - 1], in_check[d]);
            match moves[d - 1] {
                Some(m) => pos.make_move(m),
                None => pos.make_null_move(),
            }
        }
        counter
    }
}

/// A result seen from the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The side to move wins.
    Win,
    /// A draw.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Verdict {
    /// The same result seen from the other side.
    pub const fn flip(self) -> Verdict {
        match self {
            Verdict::Win => Verdict::Loss,
            Verdict::Draw => Verdict::Draw,
            Verdict::Loss => Verdict::Win,
        }
    }
}

/// The rule that ended a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move: it loses.
    Checkmate,
    /// The side to move is not in check and has no legal move: it loses.
    Stalemate,
    /// A repetition in which one side checked perpetually: it loses.
    PerpetualCheck,
    /// A repetition in which one side chased perpetually (and nobody checked perpetually): it loses.
    PerpetualChase,
    /// A repetition in which neither side violated the rules, or both did alike: a draw.
    Repetition,
    /// 120 counted plies without a capture: a draw.
    MoveLimit,
    /// Neither side can mate: a draw.
    InsufficientMaterial,
}

impl Reason {
    /// The reason in kebab case, as the CLI prints it: `checkmate`, `stalemate`, `perpetual-check`,
    /// `perpetual-chase`, `repetition`, `move-limit`, `insufficient-material`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::PerpetualChase => "perpetual-chase",
            Reason::Repetition => "repetition",
            Reason::MoveLimit => "move-limit",
            Reason::InsufficientMaterial => "insufficient-material",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What one side did over a repetition cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Violation {
    /// Nothing forbidden.
    #[default]
    None,
    /// Every move gave check.
    PerpetualCheck,
    /// Every move newly chased the same enemy piece (checks that also chased it included), and not every move gave
    /// check.
    PerpetualChase,
}

/// A repetition cycle and how each side played in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle {
    /// Plies from the earliest occurrence taken into account to the current position.
    pub plies: usize,
    /// How many times the position has now occurred (2 at a first recurrence, 3 at a third occurrence).
    pub occurrences: usize,
    /// What each side did, indexed by [`Color::index`].
    pub violations: [Violation; 2],
    /// For a side that chased perpetually, the squares (in the current position) of the enemy pieces it chased with
    /// every move; empty otherwise. Indexed by [`Color::index`] of the chasing side.
    pub chased: [Bitboard; 2],
}

impl Cycle {
    /// What `color` did in the cycle.
    pub fn violation(&self, color: Color) -> Violation {
        self.violations[color.index()]
    }

    /// The winner, if the cycle decides one: a perpetual checker loses unless both check perpetually; otherwise a
    /// perpetual chaser loses unless both chase.
    pub fn loser(&self) -> Option<Color> {
        use Violation::{PerpetualChase as Chase, PerpetualCheck as Check};
        match (self.violations[Color::Red.index()], self.violations[Color::Black.index()]) {
            (Check, Check) => None,
            (Check, _) => Some(Color::Red),
            (_, Check) => Some(Color::Black),
            (Chase, Chase) => None,
            (Chase, _) => Some(Color::Red),
            (_, Chase) => Some(Color::Black),
            _ => None,
        }
    }

    /// The result for `side_to_move` and the rule behind it.
    pub fn ruling(&self, side_to_move: Color) -> (Verdict, Reason) {
        match self.loser() {
            None => (Verdict::Draw, Reason::Repetition),
            Some(loser) => {
                let verdict = if loser == side_to_move { Verdict::Loss } else { Verdict::Win };
                let reason = if self.violation(loser) == Violation::PerpetualCheck {
                    Reason::PerpetualCheck
                } else {
                    Reason::PerpetualChase
                };
                (verdict, reason)
            }
        }
    }
}

/// A decision of the rules: the result for the side to move, the rule, and the repetition cycle when one decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ruling {
    /// The result for the side to move.
    pub verdict: Verdict,
    /// The rule that decided.
    pub reason: Reason,
    /// The cycle, for a repetition.
    pub cycle: Option<Cycle>,
}

/// What [`judge`] says about a search node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judgement {
    /// The rules decide the game here: score the node as the verdict says (a loss as "mated at this ply", a win
    /// as "mate at this ply", a draw as a draw).
    Decided(Ruling),
    /// A first recurrence after the root in which one side violates, not clean enough to decide (see the module
    /// documentation). [`Verdict::Win`]: the side to move can count on at least a draw (raise alpha to just below
    /// the draw score); [`Verdict::Loss`]: it can get at most a draw (lower beta to just above it). Search on.
    Leaning(Verdict),
}

/// Options of the rule judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JudgeOptions {
    /// Adjudicate a draw when neither side has the material to mate ([`material_draw`]). On by default, as in
    /// Pikafish.
    pub material_draw: bool,
}

impl Default for JudgeOptions {
    fn default() -> JudgeOptions {
        JudgeOptions { material_draw: true }
    }
}

/// The rule judge for a search node `ply` plies from the root, Pikafish's `rule_judge`: repetition (with
/// perpetual check and chase), the 60-move rule and insufficient material. Mate and stalemate are left to the
/// search (it finds no move), except at the move limit, where a side with no legal move loses.
///
/// Returns `None` when the rules say nothing and the search goes on. `pos` is borrowed mutably to unmake and
/// remake the moves of a cycle, and is restored. Cost: a scan of every second key back to the last capture or
/// null move; more only when a cycle is found, or when 120 plies have passed without a capture (the 60-move
/// counter is then recomputed from the history: use [`judge_with_limit`] if the search keeps a [`MoveLimit`]).
///
/// ```
/// use xiangqi_core::rules::{judge, Judgement, Reason, Verdict};
/// use xiangqi_core::Position;
/// let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K1R2 w").unwrap();
/// for m in ["g0g1", "d9d8", "g1g0", "d8d9"] {
///     pos.play(m).unwrap();
/// }
/// // A first recurrence 4 plies back: decided when it lies after the root (ply 5), not at the root (ply 0).
/// assert!(judge(&mut pos, 0).is_none());
/// match judge(&mut pos, 5) {
///     Some(Judgement::Decided(r)) => assert_eq!((r.verdict, r.reason), (Verdict::Draw, Reason::Repetition)),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn judge(pos: &mut Position, ply: usize) -> Option<Judgement> {
    judge_impl(pos, ply, None, JudgeOptions::default())
}

/// [`judge`] with the 60-move counter given (a search that keeps a [`MoveLimit`] per ply saves its recomputation)
/// and explicit options.
pub fn judge_with_limit(pos: &mut Position, ply: usize, limit: MoveLimit, options: JudgeOptions) -> Option<Judgement> {
    judge_impl(pos, ply, Some(limit), options)
}

/// [`judge`] with explicit options.
pub fn judge_with_options(pos: &mut Position, ply: usize, options: JudgeOptions) -> Option<Judgement> {
    judge_impl(pos, ply, None, options)
}

fn judge_impl(pos: &mut Position, ply: usize, limit: Option<MoveLimit>, options: JudgeOptions) -> Option<Judgement> {
    let halfmoves = pos.halfmoves() as usize;
    let window = halfmoves.min(pos.ply());
    let end = pos.moves_played().rev().take(window).position(|m| m.is_none()).unwrap_or(window);
    let mut limit_cache = limit;
    let mut move_limit = |pos: &mut Position| -> MoveLimit {
        *limit_cache.get_or_insert_with(|| {
            if halfmoves >= MOVE_LIMIT as usize {
                MoveLimit::of_position(pos)
            } else {
                // Fewer real plies than the limit: the counted plies are fewer still.
                MoveLimit::new(halfmoves as u32)
            }
        })
    };
    let mut leaning = None;
    if end >= 4 {
        let key = pos.key();
        let mut count = 0;
        let mut i = 4;
        while i <= end {
            if pos.key_before(i) == Some(key) {
                count += 1;
                if count == 2 || ply > i {
                    let cycle = analyse_cycle(pos, i, count + 1);
                    let (verdict, reason) = cycle.ruling(pos.turn());
                    let ruling = Ruling { verdict, reason, cycle: Some(cycle) };
                    if verdict == Verdict::Draw || count == 2 {
                        return Some(Judgement::Decided(ruling));
                    }
                    leaning = Some(verdict);
                    if occurrences(pos, key, window) <= 1 {
                        let clean = !move_limit(pos).reached()
                            && pos.key_before(1) == pos.key_before(i + 1)
                            && (2..i).all(|d| pos.key_before(d).is_some_and(|k| occurrences(pos, k, window) <= 1));
                        if clean {
                            return Some(Judgement::Decided(ruling));
                        }
                        break;
                    }
                }
            }
            i += 2;
        }
    }
    if halfmoves >= MOVE_LIMIT as usize && move_limit(pos).reached() {
        let ruling = if pos.has_legal_move() {
            Ruling { verdict: Verdict::Draw, reason: Reason::MoveLimit, cycle: None }
        } else {
            no_move_ruling(pos)
        };
        return Some(Judgement::Decided(ruling));
    }
    if options.material_draw {
        match material_draw(pos) {
            MaterialDraw::No => {}
            MaterialDraw::Certain => {
                let r = Ruling { verdict: Verdict::Draw, reason: Reason::InsufficientMaterial, cycle: None };
                return Some(Judgement::Decided(r));
            }
            MaterialDraw::UnlessMateNow => {
                if !pos.has_legal_move() {
                    return Some(Judgement::Decided(no_move_ruling(pos)));
                }
                if !can_end_game_now(pos) {
                    let r = Ruling { verdict: Verdict::Draw, reason: Reason::InsufficientMaterial, cycle: None };
                    return Some(Judgement::Decided(r));
                }
            }
        }
    }
    leaning.map(Judgement::Leaning)
}

/// The ruling when the side to move has no legal move: it loses, by checkmate or stalemate.
pub(crate) fn no_move_ruling(pos: &Position) -> Ruling {
    let reason = if pos.in_check() { Reason::Checkmate } else { Reason::Stalemate };
    Ruling { verdict: Verdict::Loss, reason, cycle: None }
}

/// Whether the side to move has a move after which the opponent has no legal move.
fn can_end_game_now(pos: &mut Position) -> bool {
    let moves = pos.legal_moves();
    moves.into_iter().any(|m| {
        pos.make_move(m);
        let ends = !pos.has_legal_move();
        pos.unmake_move();
        ends
    })
}

/// How often `key` occurs among the positions 1 to `window` plies ago.
fn occurrences(pos: &Position, key: u64, window: usize) -> usize {
    (1..=window).filter(|&d| pos.key_before(d) == Some(key)).count()
}

/// Judges the cycle formed by the last `plies` plies (the position `plies` plies ago equals the current one; no
/// capture or null move in between). Unmakes and remakes those moves; `pos` is restored.
fn analyse_cycle(pos: &mut Position, plies: usize, occurrences: usize) -> Cycle {
    let moves: Vec<Move> = pos.moves_played().rev().take(plies).map(|m| m.expect("no null move in a cycle")).collect();
    // Backward: in_check[d] tells whether the side to move d plies ago was in check, that is whether the move that
    // led there gave check.
    let mut in_check = Vec::with_capacity(plies + 1);
    for _ in 0..plies {
        in_check.push(pos.in_check());
        pos.unmake_move();
    }
    in_check.push(pos.in_check());
    let turn_at = |d: usize, now: Color| if d % 2 == 0 { now } else { !now };
    let start_turn = pos.turn(); // the side to move `plies` plies ago: the same as now, `plies` being even
    let mut all_checks = [true, true];
    for (d, &check) in in_check.iter().enumerate().take(plies) {
        let mover = !turn_at(d, start_turn);
        all_checks[mover.index()] &= check;
    }
    // A side that checks perpetually is judged by that; the chases of a side that does not are examined (they do
    // not change the verdict when the other side checks perpetually, but they are reported).
    let examine = [!all_checks[0], !all_checks[1]];
    // Forward: replay the moves, following each piece by the square it stood on at the start of the cycle.
    const NONE: u8 = u8::MAX;
    let mut origin = [NONE; 90];
    for sq in pos.occupied() {
        origin[sq.index()] = sq.index() as u8;
    }
    // A side's capture threats as (attacker, victim) pairs of pieces, each named by its point at the cycle's start,
    // with the victim's point now.
    let pairs = |pos: &mut Position, by: Color, origin: &[u8; 90]| -> Vec<(u8, u8, Square, bool, bool)> {
        attacks(pos, by)
            .into_iter()
            .map(|a| (origin[a.from.index()], origin[a.to.index()], a.to, a.chase, a.fake_root))
            .collect()
    };
    let mut candidates = [Bitboard::FULL, Bitboard::FULL];
    for d in (1..=plies).rev() {
        let m = moves[d - 1];
        let mover = pos.turn();
        let c = mover.index();
        // A move that gives check is judged as a chase too: it counts as one when it also newly chases the
        // victim (a discovered check that uncovers an attack, say), and breaks the chase when it does not.
        let analyse = examine[c] && candidates[c].any();
        let before = if analyse { pairs(pos, mover, &origin) } else { Vec::new() };
        pos.make_move(m);
        origin[m.to().index()] = origin[m.from().index()];
        origin[m.from().index()] = NONE;
        if analyse {
            let moved = origin[m.to().index()];
            let slider = pos.piece_at(m.to()).is_some_and(|p| matches!(p.kind, PieceKind::Chariot | PieceKind::Cannon));
            let on_line = |sq: Square| {
                (m.from().file() == m.to().file() && sq.file() == m.to().file())
                    || (m.from().rank() == m.to().rank() && sq.rank() == m.to().rank())
            };
            let mut new = Bitboard::EMPTY;
            for (from, to, victim, chase, fake_root) in pairs(pos, mover, &origin) {
                // Newly chased: an attack of the moved piece (a chariot or cannon that slides along the line of
                // its attack keeps the same attack), one the move uncovered, or one that met a real protection
                // before the move and a fake one after it (the move pinned the protector). An attack that was
                // there before is no new chase because the move cut a protector's line.
                let fresh = if from == moved {
                    !(slider && on_line(victim))
                } else {
                    match before.iter().find(|b| b.0 == from && b.1 == to) {
                        None => true,
                        Some(&(_, _, _, was_chase, _)) => fake_root && !was_chase,
                    }
                };
                if chase && fresh {
                    if let Some(sq) = Square::from_index(to as usize) {
                        new = new.with(sq);
                    }
                }
            }
            candidates[c] &= new;
        }
    }
    let mut violations = [Violation::None; 2];
    let mut chased_now = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        let c = color.index();
        if all_checks[c] {
            violations[c] = Violation::PerpetualCheck;
        } else if examine[c] && candidates[c].any() {
            violations[c] = Violation::PerpetualChase;
            chased_now[c] = pos
                .occupied()
                .into_iter()
                .filter(|sq| Square::from_index(origin[sq.index()] as usize).is_some_and(|o| candidates[c].contains(o)))
                .fold(Bitboard::EMPTY, |acc, s| acc.with(s));
        }
    }
    Cycle { plies, occurrences, violations, chased: chased_now }
}

/// Judges the repetition cycle closed by the last move, if the current position occurred `plies` plies ago. Only
/// the last `plies` moves are looked at: the caller finds the earlier occurrence (for example with
/// [`Position::key_before`]). Returns `None` when the position `plies` plies ago is not the same, `plies` is odd
/// or zero, or a null move lies in between. `pos` is restored.
pub fn cycle_of(pos: &mut Position, plies: usize) -> Option<Cycle> {
    if plies == 0 || plies % 2 == 1 || plies > pos.halfmoves() as usize || pos.key_before(plies) != Some(pos.key()) {
        return None;
    }
    if pos.moves_played().rev().take(plies).any(|m| m.is_none()) {
        return None;
    }
    let occurrences = 1 + (1..=plies).filter(|&d| pos.key_before(d) == Some(pos.key())).count();
    Some(analyse_cycle(pos, plies, occurrences))
}

/// Whether the material left lets neither side mate, by Pikafish's table (no soldiers on the board in every case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MaterialDraw {
    /// Mate is possible (or the table does not know).
    No,
    /// Neither side can ever mate.
    Certain,
    /// A draw, unless the side to move can end the game on this move (mate or stalemate in one), which the few
    /// positions of this kind allow.
    UnlessMateNow,
}

/// Pikafish's table of insufficient material. With no soldiers on the board:
///
/// - no chariot, horse or cannon at all: [`MaterialDraw::Certain`];
/// - a single cannon (and no chariot or horse), its side without advisors: against no advisor, certain; against
///   one advisor, certain if the cannon's side has no elephant, else unless mate now; against two advisors, unless
///   mate now if the cannon's side has no elephant;
/// - one cannon each (and no chariot or horse), no advisor on the board: certain without elephants, else unless
///   mate now;
/// - anything else: [`MaterialDraw::No`].
///
/// ```
/// use xiangqi_core::rules::{material_draw, MaterialDraw};
/// use xiangqi_core::Position;
/// let kings_and_advisors = Position::from_fen("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w").unwrap();
/// assert_eq!(material_draw(&kings_and_advisors), MaterialDraw::Certain);
/// let rook = Position::from_fen("3ak4/4a4/9/9/9/9/9/9/4A4/3AK3R w").unwrap();
/// assert_eq!(material_draw(&rook), MaterialDraw::No);
/// ```
pub fn material_draw(pos: &Position) -> MaterialDraw {
    use PieceKind::*;
    if pos.kind_bb(Soldier).any() {
        return MaterialDraw::No;
    }
    let count = |c: Color, k: PieceKind| pos.pieces(c, k).count();
    let strong = |c: Color| count(c, Chariot) + count(c, Horse);
    if strong(Color::Red) + strong(Color::Black) > 0 {
        return MaterialDraw::No;
    }
    let cannons = [count(Color::Red, Cannon), count(Color::Black, Cannon)];
    match cannons {
        [0, 0] => MaterialDraw::Certain,
        [1, 0] | [0, 1] => {
            let side = if cannons[0] == 1 { Color::Red } else { Color::Black };
            if count(side, Advisor) > 0 {
                return MaterialDraw::No;
            }
            let own_elephants = count(side, Elephant);
            match count(!side, Advisor) {
                0 => MaterialDraw::Certain,
                1 if own_elephants == 0 => MaterialDraw::Certain,
                1 => MaterialDraw::UnlessMateNow,
                _ if own_elephants == 0 => MaterialDraw::UnlessMateNow,
                _ => MaterialDraw::No,
            }
        }
        [1, 1] => {
            if pos.kind_bb(Advisor).any() {
                MaterialDraw::No
            } else if pos.kind_bb(Elephant).is_empty() {
                MaterialDraw::Certain
            } else {
                MaterialDraw::UnlessMateNow
            }
        }
        _ => MaterialDraw::No,
    }
}
