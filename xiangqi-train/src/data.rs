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

/// What [`dedup`] does with positions that occur more than once (the same board and side to move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dedup {
    /// Keep every record.
    #[default]
    Keep,
    /// Keep the first record of each position.
    First,
    /// Keep one record of each position, at the first one's place, with the mean score (rounded) and the mean
    /// result rounded to a loss, draw or win (a mean within 0.5..=1.5 of 0..2 is a draw).
    Mean,
}

/// Removes duplicate positions as `mode` says, keeping the records' order (so that the held-out last records stay
/// the last games); returns the records and how many were removed. Positions are grouped by
/// [`Record::position_key`], then by their exact board and side to move, so a key collision merges nothing. The
/// memory beyond the records is 16 bytes a record.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_train::data::{dedup, Dedup, Record};
///
/// let start = Position::startpos();
/// let recs = vec![Record::from_position(&start, 10, 2), Record::from_position(&start, 30, 1)];
/// assert_eq!(dedup(recs.clone(), Dedup::Keep), (recs.clone(), 0));
/// assert_eq!(dedup(recs.clone(), Dedup::First), (vec![recs[0]], 1));
/// let (mean, removed) = dedup(recs, Dedup::Mean);
/// assert_eq!((mean[0].score, mean[0].result, removed), (20, 1, 1)); // results 2 and 1: mean 1.5, a draw
/// ```
pub fn dedup(records: Vec<Record>, mode: Dedup) -> (Vec<Record>, usize) {
    if mode == Dedup::Keep || records.len() < 2 {
        return (records, 0);
    }
    let mut keys: Vec<(u64, u32)> = records.iter().enumerate().map(|(i, r)| (r.position_key(), i as u32)).collect();
    keys.sort_unstable();
    let mut keep = vec![true; records.len()];
    let mut merged = records.clone();
    let same = |a: &Record, b: &Record| a.board == b.board && a.stm == b.stm;
    let mut start = 0;
    while start < keys.len() {
        let mut end = start + 1;
        while end < keys.len() && keys[end].0 == keys[start].0 {
            end += 1;
        }
        // Within one key (by index order), each record joins the first earlier record of the same position.
        let group = &keys[start..end];
        for (j, &(_, idx)) in group.iter().enumerate() {
            let rec = &records[idx as usize];
            if let Some(&(_, first)) =
                group[..j].iter().find(|&&(_, f)| keep[f as usize] && same(&records[f as usize], rec))
            {
                keep[idx as usize] = false;
                if mode == Dedup::Mean {
                    let members: Vec<&Record> = group
                        .iter()
                        .map(|&(_, k)| &records[k as usize])
                        .filter(|r| same(r, &records[first as usize]))
                        .collect();
                    let n = members.len() as i64;
                    let score: i64 = members.iter().map(|r| i64::from(r.score)).sum();
                    let result: i64 = members.iter().map(|r| i64::from(r.result)).sum();
                    let m = &mut merged[first as usize];
                    m.score = ((score as f64 / n as f64).round() as i64) as i16;
                    m.result = if 2 * result > 3 * n {
                        2
                    } else if 2 * result < n {
                        0
                    } else {
                        1
                    };
                }
            }
        }
        start = end;
    }
    let removed = keep.iter().filter(|&&k| !k).count();
    let out = merged.into_iter().zip(keep).filter_map(|(r, k)| k.then_some(r)).collect();
    (out, removed)
}

/// The scale `K` of `sigmoid(score / K)` fitted to the game results of the records, by [`fit_scale`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScaleFit {
    /// `K` minimising the mean log-loss (cross-entropy) of `sigmoid(score / K)` against the result (0, 0.5, 1).
    pub scale: f64,
    /// That mean log-loss.
    pub log_loss: f64,
    /// The mean log-loss at the trainer's default scale, 400, for comparison.
    pub log_loss_at_default: f64,
    /// `K` minimising the mean squared error instead (least squares).
    pub squares_scale: f64,
    /// The records fitted.
    pub positions: usize,
}

/// Fits `K` in `sigmoid(score / K)` to the results of `records` (a win 1, a draw 0.5, a loss 0, for the side to
/// move), by a golden-section search over `1 / K` in `1/10000..=1/10`: the log-loss is convex in `1 / K` (a
/// logistic regression of the result on the score with one weight and no bias), so the search finds its minimum.
/// The least-squares fit is searched the same way. The records are first counted into a table of (score, result),
/// so each step of the search costs 60,003 terms however many records there are.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_train::data::{fit_scale, Record};
///
/// // Results drawn from sigmoid(score / 250): the fit finds about 250.
/// let pos = Position::startpos();
/// let mut recs = Vec::new();
/// for score in (-1000..=1000).step_by(5) {
///     let p = 1.0 / (1.0 + (-(score as f64) / 250.0).exp());
///     for k in 0..20 {
///         let result = if (k as f64 + 0.5) / 20.0 < p { 2 } else { 0 };
///         recs.push(Record::from_position(&pos, score, result));
///     }
/// }
/// let fit = fit_scale(&recs).unwrap();
/// assert!((fit.scale - 250.0).abs() < 10.0, "{fit:?}");
/// assert!(fit.log_loss < fit.log_loss_at_default);
/// ```
pub fn fit_scale(records: &[Record]) -> Option<ScaleFit> {
    if records.is_empty() {
        return None;
    }
    let max = i32::from(SCORE_MAX);
    let mut counts = vec![[0u64; 3]; (2 * max + 1) as usize];
    for r in records {
        counts[(i32::from(r.score) + max) as usize][usize::from(r.result.min(2))] += 1;
    }
    let n = records.len() as f64;
    let cells: Vec<(f64, [f64; 3])> = counts
        .iter()
        .enumerate()
        .filter(|(_, c)| c.iter().any(|&x| x > 0))
        .map(|(i, c)| ((i as i32 - max) as f64, c.map(|x| x as f64)))
        .collect();
    let loss = |t: f64, squares: bool| -> f64 {
        let mut sum = 0.0;
        for &(score, c) in &cells {
            let p = (1.0 / (1.0 + (-score * t).exp())).clamp(1e-12, 1.0 - 1e-12);
            for (k, y) in [0.0, 0.5, 1.0].into_iter().enumerate() {
                if c[k] > 0.0 {
                    let l = if squares { (p - y) * (p - y) } else { -(y * p.ln() + (1.0 - y) * (1.0 - p).ln()) };
                    sum += c[k] * l;
                }
            }
        }
        sum / n
    };
    let search = |squares: bool| -> f64 {
        let (mut a, mut b) = (1.0 / 10_000.0, 1.0 / 10.0);
        let g = (5f64.sqrt() - 1.0) / 2.0;
        let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
        let (mut fc, mut fd) = (loss(c, squares), loss(d, squares));
        for _ in 0..80 {
            if fc < fd {
                (b, d, fd) = (d, c, fc);
                c = b - g * (b - a);
                fc = loss(c, squares);
            } else {
                (a, c, fc) = (c, d, fd);
                d = a + g * (b - a);
                fd = loss(d, squares);
            }
        }
        (a + b) / 2.0
    };
    let t = search(false);
    Some(ScaleFit {
        scale: 1.0 / t,
        log_loss: loss(t, false),
        log_loss_at_default: loss(1.0 / f64::from(crate::net::SCALE), false),
        squares_scale: 1.0 / search(true),
        positions: records.len(),
    })
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

    /// Duplicates are found whatever their order, the first place is kept, and different positions are not merged.
    #[test]
    fn dedup_counts_and_merges() {
        let recs = playout_records(400, 12, 8);
        let mut doubled: Vec<Record> = recs.iter().chain(recs.iter().rev()).copied().collect();
        doubled[0].score = 100;
        let (first, removed) = dedup(doubled.clone(), Dedup::First);
        let distinct: std::collections::HashSet<_> = recs.iter().map(|r| (r.board, r.stm)).collect();
        assert_eq!(first.len(), distinct.len());
        assert_eq!(removed, 800 - distinct.len());
        assert_eq!(first[0], doubled[0]);
        let (mean, removed_mean) = dedup(doubled.clone(), Dedup::Mean);
        assert_eq!(removed_mean, removed);
        let copies = doubled.iter().filter(|r| r.board == doubled[0].board && r.stm == doubled[0].stm).count() as i64;
        let total: i64 = doubled
            .iter()
            .filter(|r| r.board == doubled[0].board && r.stm == doubled[0].stm)
            .map(|r| i64::from(r.score))
            .sum();
        assert_eq!(i64::from(mean[0].score), (total as f64 / copies as f64).round() as i64);
        // Order kept: the survivors are in the order of their first occurrence.
        let order: Vec<_> = first.iter().map(|r| (r.board, r.stm)).collect();
        let mut seen = std::collections::HashSet::new();
        let expected: Vec<_> = doubled.iter().map(|r| (r.board, r.stm)).filter(|k| seen.insert(*k)).collect();
        assert_eq!(order, expected);
    }

    #[test]
    fn fit_scale_finds_the_generating_scale() {
        let pos = Position::startpos();
        for k in [150.0f64, 600.0] {
            let mut recs = Vec::new();
            let mut rng = StdRng::seed_from_u64(1);
            for _ in 0..40_000 {
                let score = rng.random_range(-1500..=1500);
                let p = 1.0 / (1.0 + (-f64::from(score) / k).exp());
                let result = if rng.random_range(0.0..1.0) < p { 2 } else { 0 };
                recs.push(Record::from_position(&pos, score, result));
            }
            let fit = fit_scale(&recs).unwrap();
            assert!((fit.scale / k - 1.0).abs() < 0.08, "{k}: {fit:?}");
            assert!((fit.squares_scale / k - 1.0).abs() < 0.1, "{k}: {fit:?}");
        }
        assert!(fit_scale(&[]).is_none());
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
