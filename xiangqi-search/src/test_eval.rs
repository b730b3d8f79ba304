//! An evaluator for the crate's unit tests (the search never names the real ones, which live in `xiangqi-eval`).

use crate::{Evaluator, Score};
use xiangqi_core::{PieceKind, Position};

/// Material, in evaluation units (a soldier is 100), for the side to move.
pub(crate) struct Material;

impl Evaluator<Position> for Material {
    fn evaluate(&mut self, pos: &Position) -> Score {
        let mut score = 0;
        for sq in pos.occupied() {
            let Some(p) = pos.piece_at(sq) else { continue };
            let value = match p.kind {
                PieceKind::King => 0,
                PieceKind::Chariot => 950,
                PieceKind::Cannon => 450,
                PieceKind::Horse => 420,
                PieceKind::Advisor | PieceKind::Elephant => 120,
                PieceKind::Soldier => 100,
            };
            score += if p.color == pos.turn() { value } else { -value };
        }
        score
    }
}

/// [`Material`] plus a small fixed bonus for each piece on each point (from -30 to 30, a hash of the two): scores
/// that are not multiples of a soldier, so that margins and windows of every width make a difference.
pub(crate) struct Textured;

impl Evaluator<Position> for Textured {
    fn evaluate(&mut self, pos: &Position) -> Score {
        let mut score = Material.evaluate(pos);
        for sq in pos.occupied() {
            let Some(p) = pos.piece_at(sq) else { continue };
            let h = (sq.index() as u32 * 7 + p.kind as u32 * 13 + 3).wrapping_mul(0x9E37_79B9) >> 26;
            let bonus = h as Score - 30; // 0..=63 shifted to -30..=33
            score += if p.color == pos.turn() { bonus } else { -bonus };
        }
        score
    }
}
