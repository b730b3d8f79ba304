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
