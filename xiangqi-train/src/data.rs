//! The training records of `xiangqi datagen`, defined once in [`xiangqi_eval::nnue::data`] (the 50-byte record, its
//! checks, the data file and a record's features) and re-exported here, and the training target.

pub use xiangqi_eval::nnue::data::{
    read_records, record_count, write_records, DataError, Features, InvalidRecord, Record, DATA_MAGIC, MAX_PIECES,
    RECORD_BYTES, SCORE_MAX,
};
pub use xiangqi_eval::nnue::INPUTS;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use xiangqi_core::Position;
use xiangqi_eval::Handcrafted;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target of a record: `lambda * result01 + (1 - lambda) * sigmoid(score / scale)`.
pub fn target(rec: &Record, lambda: f32, scale: f32) -> f32 {
    lambda * rec.result01() + (1.0 - lambda) * sigmoid(f32::from(rec.score) / scale)
}

/// `count` records of random legal playouts from the start position (seeded by `seed`), scored by the handcrafted
/// evaluator, for trying the trainer without `xiangqi datagen` and for tests: each playout goes up to `plies` plies,
/// and every position after the fourth ply that is not in check is kept. The playouts rarely end, so the result is
/// read from the score: a win above +150, a loss below -150, else a draw (real data comes from self-play games).
pub fn playout_records(count: usize, plies: usize, seed: u64) -> Vec<Record> {
    let eval = Handcrafted::default();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::startpos();
        for ply in 0..plies {
            let moves = xiangqi_movegen::legal_moves(&pos);
            if moves.is_empty() || out.len() >= count {
                break;
            }
            pos.make_move(moves[rng.random_range(0..moves.len())]);
            if ply >= 4 && !pos.in_check() {
                let score = eval.evaluate(&pos);
                let result = match score {
                    s if s > 150 => 2,
                    s if s < -150 => 0,
                    _ => 1,
                };
                out.push(Record::from_position(&pos, score, result));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::Position;

    #[test]
    fn target_blends_result_and_score() {
        let win = Record::from_position(&Position::startpos(), 400, 2);
        assert_eq!(target(&win, 1.0, 400.0), 1.0);
        assert!((target(&win, 0.0, 400.0) - sigmoid(1.0)).abs() < 1e-6);
        assert!((target(&win, 0.5, 400.0) - (0.5 + 0.5 * sigmoid(1.0))).abs() < 1e-6);
        assert_eq!(sigmoid(0.0), 0.5);
    }

    #[test]
    fn playouts_are_legal_and_seeded() {
        let recs = playout_records(300, 40, 3);
        assert_eq!(recs.len(), 300);
        assert_eq!(recs, playout_records(300, 40, 3));
        assert_ne!(recs, playout_records(300, 40, 4));
        for r in &recs {
            let pos = Position::from_setup(&r.setup(), xiangqi_core::Validation::Strict).unwrap();
            assert!(!pos.in_check());
            assert_eq!(i32::from(r.score), Handcrafted::default().evaluate(&pos));
            assert_eq!(r.result, 1 + u8::from(r.score > 150) - u8::from(r.score < -150));
        }
        assert!(recs.iter().any(|r| r.result != 1), "all draws");
    }
}
