//! Static exchange evaluation (SEE): what the exchange of captures on one point gains, each side capturing with
//! its least valuable piece that may legally capture there and free to stop at any time.
//!
//! The xiangqi rules it follows: a cannon captures over exactly one screen, and its screens change as the pieces
//! of the exchange leave their points (a cannon may lose its screen, or gain one when a second screen leaves); a
//! chariot's line opens as pieces leave it (x-rays); a horse's leg and an elephant's eye block, and an elephant
//! stays on its side of the river; kings and advisors stay in the palace; a soldier moves sideways only once across
//! the river; and no capture may leave the capturer's king attacked, the kings facing on an open file (the flying
//! general) included. The attackers are computed again from the board at each capture, so every change of lines,
//! legs and eyes is seen.
//!
//! Source: the idea and the threshold form of [`Position::see_ge`] follow Stockfish's `Position::see_ge`
//! (`position.cpp`), with the xiangqi pieces as Pikafish has them; the code is this crate's own.

use crate::attacks::{
    advisor_attacks, cannon_attacks, elephant_attacks, horse_attackers, king_attacks, rook_attacks, soldier_attackers,
    Occupancy,
};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceKind, Square};

/// The values SEE counts pieces by, indexed by [`PieceKind::index`] (king, advisor, elephant, horse, chariot, cannon,
/// soldier). All differ, so that "the least valuable attacker" names one kind; the king's outweighs every other
/// piece together.
///
/// ```
/// use xiangqi_core::{see_value, PieceKind};
/// assert_eq!(see_value(PieceKind::Soldier), 100);
/// assert!(see_value(PieceKind::Chariot) > see_value(PieceKind::Cannon));
/// ```
pub const SEE_VALUES: [i32; PieceKind::NUM] = [20_000, 120, 125, 420, 950, 450, 100];

/// The SEE value of a piece kind: [`SEE_VALUES`].
#[inline(always)]
pub const fn see_value(kind: PieceKind) -> i32 {
    SEE_VALUES[kind.index()]
}

/// The kinds from the least to the most valuable: the order in which an exchange brings its attackers.
const BY_VALUE: [PieceKind; PieceKind::NUM] = [
    PieceKind::Soldier,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Chariot,
    PieceKind::King,
];

impl Position {
    /// Whether the exchange that `m` starts on its destination gains at least `threshold` for the side to move
    /// (in [`SEE_VALUES`] units): `m` is made, then the sides take turns capturing on that point, each with its least
    /// valuable piece that may legally capture there (the lowest square first among pieces of a kind), each free to
    /// stop instead. A quiet move gains nothing by itself, so `see_ge(m, 0)` says whether the moved piece is safe
    /// there in this sense. `m` must be a legal move of the side to move; `m` and the position are not checked.
    /// No allocation.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// // The red chariot takes a soldier defended by a horse: it loses a chariot for a soldier.
    /// let pos = Position::from_fen("3k5/9/9/3n5/9/4p4/9/9/4R4/5K3 w").unwrap();
    /// let m = pos.parse_move("e1e4").unwrap();
    /// assert!(pos.see_ge(m, -850) && !pos.see_ge(m, -849));
    /// assert_eq!(pos.see(m), 100 - 950);
    /// ```
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(mover) = self.piece_at(from) else { return threshold <= 0 };
        // The gain so far, from the point of view of the side that made the last capture, less the threshold.
        let mut swap = self.piece_at(to).map_or(0, |p| see_value(p.kind)) - threshold;
        if swap < 0 {
            return false;
        }
        swap = see_value(mover.kind) - swap;
        if swap <= 0 {
            return true;
        }
        let mut occ = self.occupancy().without(from).with(to);
        let mut stm = mover.color;
        // Whether the side to move of the position wins the exchange as it stands.
        let mut res = true;
        loop {
            stm = !stm;
            let Some((sq, kind)) = self.least_valuable_capture(to, stm, &occ) else { break };
            res = !res;
            swap = see_value(kind) - swap;
            if swap < i32::from(res) {
                break;
            }
            occ = occ.without(sq);
        }
        res
    }

    /// The value of the exchange `m` starts on its destination, for the side to move, in [`SEE_VALUES`] units: the
    /// exact value behind [`Position::see_ge`] (`see_ge(m, t) == (see(m) >= t)`), computed with the whole capture
    /// sequence. `m` must be a legal move of the side to move. No allocation.
    pub fn see(&self, m: Move) -> i32 {
        let (from, to) = (m.from(), m.to());
        let Some(mover) = self.piece_at(from) else { return 0 };
        // gain[d]: what the side making capture d has won so far, if the other side stops there. At most 32 pieces
        // take part, so 34 slots hold every capture.
        let mut gain = [0i32; 34];
        gain[0] = self.piece_at(to).map_or(0, |p| see_value(p.kind));
        let mut on_target = see_value(mover.kind);
        let mut occ = self.occupancy().without(from).with(to);
        let mut stm = mover.color;
        let mut d = 0;
        while d + 1 < gain.len() {
            stm = !stm;
            let Some((sq, kind)) = self.least_valuable_capture(to, stm, &occ) else { break };
            d += 1;
            gain[d] = on_target - gain[d - 1];
            on_target = see_value(kind);
            occ = occ.without(sq);
        }
        // Each side stops when capturing does not pay: fold the list back from the last capture.
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }

    /// The least valuable piece of `stm` that may legally capture on `to` with the occupancy `occ` (`to` occupied
    /// by the piece to capture, the pieces gone from the exchange removed), and its kind.
    #[inline]
    fn least_valuable_capture(&self, to: Square, stm: Color, occ: &Occupancy) -> Option<(Square, PieceKind)> {
        let present = occ.bitboard().without(to);
        let ours = self.color_bb(stm) & present;
        for kind in BY_VALUE {
            let of_kind = ours & self.kind_bb(kind);
            if of_kind.is_empty() {
                continue;
            }
            let reach = match kind {
                PieceKind::Soldier => soldier_attackers(stm, to),
                PieceKind::Advisor => advisor_attacks(to),
                PieceKind::Elephant => elephant_attacks(to, occ.bitboard()),
                PieceKind::Horse => horse_attackers(to, occ.bitboard()),
                PieceKind::Cannon => cannon_attacks(to, occ),
                PieceKind::Chariot => rook_attacks(to, occ),
                PieceKind::King => king_attacks(to),
            };
            for sq in of_kind & reach {
                if self.capture_keeps_king_safe(stm, sq, to, occ) {
                    return Some((sq, kind));
                }
            }
        }
        None
    }

    /// Whether `stm`'s piece on `from` may capture on `to` without leaving its king attacked, with the occupancy
    /// `occ` of the exchange.
    #[inline]
    fn capture_keeps_king_safe(&self, stm: Color, from: Square, to: Square, occ: &Occupancy) -> bool {
        let king = self.king(stm);
        let ksq = if from == king { to } else { king };
        let after = occ.without(from);
        let theirs = after.bitboard().without(to);
        self.king_attackers_at(ksq, !stm, theirs, &after).is_empty()
    }
}
