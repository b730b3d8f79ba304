//! The training records of `xiangqi datagen`, defined once in [`xiangqi_eval::nnue::data`] (the 50-byte record, its
//! checks, the data file and a record's features) and re-exported here, and the training target.

pub use xiangqi_eval::nnue::data::{
    read_records, record_count, write_records, DataError, Features, InvalidRecord, Record, DATA_MAGIC, MAX_PIECES,
    RECORD_BYTES, SCORE_MAX,
};
pub use xiangqi_eval::nnue::INPUTS;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target of a record: `lambda * result01 + (1 - lambda) * sigmoid(score / scale)`.
pub fn target(rec: &Record, lambda: f32, scale: f32) -> f32 {
    lambda * rec.result01() + (1.0 - lambda) * sigmoid(f32::from(rec.score) / scale)
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
}
