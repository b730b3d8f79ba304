//! Chases: which enemy pieces a side threatens in a way the Asian (AXF/WXF) repetition rules forbid to repeat.
//!
//! A *chase* is an attack that threatens to win material: a legal capture of an enemy piece that the enemy cannot
//! answer with a legal recapture, or an attack on a stronger piece whatever its protection. [`attacks`] lists a
//! side's capture threats in a position, each marked chase or not, and [`chased`] the pieces it chases; the
//! repetition judge in [`crate::rules`] compares the threats before and after each move of a cycle (only a new
//! attack chases) and intersects the newly chased pieces to find a perpetual chase. The definition is the one of
//! Pikafish's `Position::chased()`, restated here:
//!
//! - **Attackers**: every piece except the king and the soldiers (AXF rules 28 and 29: kings and soldiers may chase
//!   perpetually).
//! - **Victims**: every enemy piece except the king (attacking it is a check, not a chase) and soldiers that have
//!   not crossed the river (an unpromoted soldier may be attacked perpetually).
//! - **Legality**: the capture must be legal for the attacker (a pinned piece chases only what it can really take).
//! - **Stronger victims, protected or not**: a horse or cannon attacking a chariot (AXF rules 15 and 27), and an
//!   advisor or elephant attacking a chariot, horse or cannon, are chases even when the victim is protected.
//! - **Other victims**: the attack is a chase when the victim is unprotected, that is when, after the capture, the
//!   victim's side has no *legal* recapture. A protector that is pinned, or a king that would step into an attack,
//!   does not protect ("fake root").
//! - **Same kind** (chariot on chariot, horse on horse, cannon on cannon): an unprotected victim is chased only when
//!   it cannot legally capture the attacker back (it is pinned, or, for horses, its leg is blocked). Otherwise the
//!   attack is an offer to exchange (AXF rule 24).

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::{piece_reach, Position};
use crate::types::{Color, PieceKind, Square};

/// Enemy pieces that may be chased by `by`: all but the king and the soldiers still on their own side of the river.
fn chaseable(pos: &Position, by: Color) -> Bitboard {
    let them = !by;
    let soldiers = pos.pieces(them, PieceKind::Soldier);
    // A soldier of `them` has crossed the river when it stands on `by`'s half.
    let own_half = if by == Color::Red { Bitboard::RED_HALF } else { Bitboard::BLACK_HALF };
    (pos.color_bb(them) & !pos.pieces(them, PieceKind::King) & !soldiers) | (soldiers & own_half)
}

/// Whether `m` would be legal for `side`, whether or not `side` is to move. Uses a null move to hand `side` the turn
/// when needed, so `pos` is borrowed mutably but left as it was.
fn legal_for(pos: &mut Position, side: Color, m: Move) -> bool {
    if pos.turn() == side {
        return pos.is_legal(m);
    }
    pos.make_null_move();
    let legal = pos.is_legal(m);
    pos.unmake_move();
    legal
}

/// One capture threat of a side: a legal capture by a piece that may chase (not the king, not a soldier) of an enemy
/// piece that may be chased (not the king, not a soldier on its own side of the river).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attack {
    /// Where the attacker stands.
    pub from: Square,
    /// Where the attacked piece stands.
    pub to: Square,
    /// Whether the attack is a chase (see the [module documentation](self)): an attack on a stronger piece, or on
    /// an unprotected one that is not an offer to exchange.
    pub chase: bool,
    /// A chase only because the victim's protectors cannot legally recapture (a pinned protector, a king that
    /// would step into an attack: a "fake root"). Pins change from move to move, so such a chase is new whenever
    /// the protection was real before the move, even if the attack itself was there.
    pub fake_root: bool,
}

/// The enemy pieces that `by` chases in this position, as the squares they stand on. See the [module
/// documentation](self) for the definition. `by` need not be the side to move: the position is temporarily handed to
/// `by` with a null move and restored before returning.
///
/// ```
/// use xiangqi_core::{chase::chased, Color, Position};
/// // A red chariot on d4 attacks an unprotected black horse on d7: a chase.
/// let mut pos = Position::from_fen("4k4/9/9/3n5/9/9/3R5/9/9/5K3 b").unwrap();
/// let c = chased(&mut pos, Color::Red);
/// assert!(c.contains("d6".parse().unwrap()));
/// // Black's horse attacks nothing.
/// assert!(chased(&mut pos, Color::Black).is_empty());
/// ```
pub fn chased(pos: &mut Position, by: Color) -> Bitboard {
    attacks(pos, by).iter().filter(|a| a.chase).fold(Bitboard::EMPTY, |acc, a| acc.with(a.to))
}

/// Every capture threat of `by` that the chase rules look at ([`Attack`]), chases or not. The repetition judge
/// compares them before and after each move: only a new attack (or a protection newly made fake by a pin) chases.
/// `by` need not be the side to move (see [`chased`]).
pub fn attacks(pos: &mut Position, by: Color) -> Vec<Attack> {
    if pos.turn() != by {
        pos.make_null_move();
        let c = attacks_to_move(pos);
        pos.unmake_move();
        c
    } else {
        attacks_to_move(pos)
    }
}

/// [`attacks`] for the side to move.
fn attacks_to_move(pos: &mut Position) -> Vec<Attack> {
    let us = pos.turn();
    let them = !us;
    let victims = chaseable(pos, us);
    let attackers = pos.color_bb(us) & !pos.pieces(us, PieceKind::King) & !pos.pieces(us, PieceKind::Soldier);
    let mut out = Vec::new();
    for from in attackers {
        let Some(attacker) = pos.piece_at(from) else { continue };
        let targets = piece_reach(attacker, from, pos.occupancy()).capture & victims;
        for to in targets {
            let Some(victim) = pos.piece_at(to) else { continue };
            let m = Move::new(from, to);
            if !pos.is_legal(m) {
                continue;
            }
            let stronger = match attacker.kind {
                PieceKind::Horse | PieceKind::Cannon => victim.kind == PieceKind::Chariot,
                PieceKind::Advisor | PieceKind::Elephant => {
                    matches!(victim.kind, PieceKind::Chariot | PieceKind::Horse | PieceKind::Cannon)
                }
                _ => false,
            };
            let (chase, fake_root) = if stronger {
                (true, false)
            } else {
                match protection_after_capture(pos, m, them) {
                    Protection::Real => (false, false),
                    // The victim can take the attacker back: an offer to exchange, not a chase.
                    _ if attacker.kind == victim.kind && legal_for(pos, them, Move::new(to, from)) => (false, false),
                    Protection::Fake => (true, true),
                    Protection::None => (true, false),
                }
            };
            out.push(Attack { from, to, chase, fake_root });
        }
    }
    out
}

/// How a captured piece's point is protected.
enum Protection {
    /// A legal recapture.
    Real,
    /// Pieces aim at the point, but none can legally recapture.
    Fake,
    /// Nothing aims at the point.
    None,
}

/// Whether, after the side to move plays the capture `m`, `defender` can legally recapture on its destination.
fn protection_after_capture(pos: &mut Position, m: Move, defender: Color) -> Protection {
    let to = m.to();
    pos.make_move(m);
    let recapturers = pos.attackers_to(to, defender, Bitboard::FULL, pos.occupancy());
    let protection = if recapturers.is_empty() {
        Protection::None
    } else if Iterator::any(&mut recapturers.into_iter(), |s| pos.is_legal(Move::new(s, to))) {
        Protection::Real
    } else {
        Protection::Fake
    };
    pos.unmake_move();
    protection
}
