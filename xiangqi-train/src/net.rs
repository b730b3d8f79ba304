//! The network in floats (what the trainer learns), its quantization into the engine's [`Network`] (whose file,
//! `.nnue`, is defined once in [`xiangqi_eval::nnue`]: the trainer writes it with [`Network::save`]), a reference
//! integer forward pass that follows the engine's inference arithmetic, and the training hash of the header.

use xiangqi_eval::nnue::{LoadError, Network, DEFAULT_SCALE, QA, QB};

use crate::data::{Features, Record};

/// Engine units per unit of network output (also the divisor of the score in the training target): the scale the
/// trainer writes in the header.
pub const SCALE: i32 = DEFAULT_SCALE;
/// The bound of every weight and bias, kept by clipping after each training step, so that the quantized weights
/// fit the integer arithmetic (`|W2q| <= 127`, [`xiangqi_eval::nnue::MAX_OUTPUT_WEIGHT`]).
pub const WEIGHT_CLIP: f32 = 1.98;

/// The float network: `acc_p = b1 + sum W1[f]` per perspective, `out = sum a(acc_stm) W2[..H] + sum a(acc_other)
/// W2[H..] + b2` with `a(x) = clamp(x, 0, 1)^2`.
#[derive(Debug, Clone, PartialEq)]
pub struct FloatNet {
    /// The hidden size H.
    pub hidden: usize,
    /// `W1[feature][j]`, feature-major, `INPUTS * hidden` values.
    pub w1: Vec<f32>,
    /// `b1[j]`, `hidden` values.
    pub b1: Vec<f32>,
    /// `W2`, the side to move's half first, `2 * hidden` values.
    pub w2: Vec<f32>,
    /// The output bias.
    pub b2: f32,
}

/// Squared clipped ReLU on floats.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNet {
    fn accumulate(&self, f: &Features) -> Vec<f32> {
        let h = self.hidden;
        let mut acc = self.b1.clone();
        for &i in f.as_slice() {
            let row = &self.w1[usize::from(i) * h..(usize::from(i) + 1) * h];
            acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
        acc
    }

    /// The raw output (before the sigmoid) for the side to move of `rec`.
    pub fn forward(&self, rec: &Record) -> f32 {
        let (stm, other) = rec.both_features();
        let (a, b) = (self.accumulate(&stm), self.accumulate(&other));
        let h = self.hidden;
        let s: f32 = a.iter().zip(&self.w2[..h]).map(|(x, w)| screlu(*x) * w).sum::<f32>()
            + b.iter().zip(&self.w2[h..]).map(|(x, w)| screlu(*x) * w).sum::<f32>();
        s + self.b2
    }

    /// The evaluation in engine units: `forward * SCALE`.
    pub fn evaluate(&self, rec: &Record) -> f32 {
        self.forward(rec) * SCALE as f32
    }

    /// The quantized network, the engine's [`Network`] (training hash 0: see [`Network::with_hash`]): weights
    /// clipped to [`WEIGHT_CLIP`], then `W1q = round(W1 * QA)`, `b1q = round(b1 * QA)`, `W2q = round(W2 * QB)`,
    /// `b2q = round(b2 * QA * QB)`. An error when the network is not one the engine reads (a hidden size that is
    /// not a multiple of 16 up to 1024, or weights that do not fit it).
    pub fn quantize(&self) -> Result<Network, LoadError> {
        let q = |x: f32, s: i32| (x.clamp(-WEIGHT_CLIP, WEIGHT_CLIP) * s as f32).round() as i16;
        Network::from_parts(
            SCALE,
            0,
            self.w1.iter().map(|&x| q(x, QA)).collect(),
            self.b1.iter().map(|&x| q(x, QA)).collect(),
            self.w2.iter().map(|&x| q(x, QB)).collect(),
            (self.b2 * (QA * QB) as f32).round() as i32,
        )
    }
}

/// The reference integer evaluation of `net` for the side to move of `rec`, in engine units, written plainly from
/// the arithmetic the engine's inference follows (a check of it, not a copy): accumulators `b1q + sum W1q[f]`, per
/// perspective `sum clamp(acc, 0, QA)^2 * W2q` (the side to move's half of `W2q` first), the two added, then
/// `(sum / QA + b2q) * SCALE / (QA * QB)` with integer division rounding toward zero. The engine also clamps the
/// result to `-EVAL_MAX..=EVAL_MAX`; this does not.
pub fn reference_eval(net: &Network, rec: &Record) -> i32 {
    let h = net.hidden();
    let accumulate = |f: &Features| -> Vec<i32> {
        let mut acc: Vec<i32> = net.b1().iter().map(|&b| i32::from(b)).collect();
        for &i in f.as_slice() {
            let row = &net.w1()[usize::from(i) * h..(usize::from(i) + 1) * h];
            acc.iter_mut().zip(row).for_each(|(a, &w)| *a += i32::from(w));
        }
        acc
    };
    let half = |acc: Vec<i32>, w2: &[i16]| -> i64 {
        acc.iter()
            .zip(w2)
            .map(|(&a, &w)| {
                let c = i64::from(a.clamp(0, QA));
                c * c * i64::from(w)
            })
            .sum()
    };
    let (stm, other) = rec.both_features();
    let sum = half(accumulate(&stm), &net.w2()[..h]) + half(accumulate(&other), &net.w2()[h..]);
    let qa = i64::from(QA);
    let v = (sum / qa + i64::from(net.b2())) * i64::from(net.scale()) / (qa * i64::from(QB));
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// FNV-1a 64 over `bytes`, continuing from `hash` (start with [`FNV_OFFSET`]).
pub fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The FNV-1a 64 offset basis.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// The training hash of a header: FNV-1a 64 over each command-line argument followed by a 0 byte, then each data
/// file's name, a 0 byte, its size in decimal and a 0 byte.
pub fn training_hash<S: AsRef<str>>(args: &[S], files: &[(String, u64)]) -> u64 {
    let mut h = FNV_OFFSET;
    for a in args {
        h = fnv1a(h, a.as_ref().as_bytes());
        h = fnv1a(h, &[0]);
    }
    for (name, size) in files {
        h = fnv1a(h, name.as_bytes());
        h = fnv1a(h, &[0]);
        h = fnv1a(h, size.to_string().as_bytes());
        h = fnv1a(h, &[0]);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    use xiangqi_core::Position;
    use xiangqi_eval::nnue::INPUTS;
    use xiangqi_eval::Evaluate;

    /// A random float network whose accumulators land around the activation's range.
    fn random_net(rng: &mut StdRng, hidden: usize) -> FloatNet {
        let mut u = |a: f32| rng.random_range(-a..a);
        FloatNet {
            hidden,
            w1: (0..INPUTS * hidden).map(|_| u(0.12)).collect(),
            b1: (0..hidden).map(|_| u(0.3)).collect(),
            w2: (0..2 * hidden).map(|_| u(1.0)).collect(),
            b2: u(0.5),
        }
    }

    /// A random board of `pieces` pieces (any kinds, any points).
    fn random_record(rng: &mut StdRng, pieces: usize) -> Record {
        let mut board = [0u8; 45];
        let mut placed = 0;
        while placed < pieces {
            let i = rng.random_range(0..90);
            if (board[i / 2] >> (4 * (i % 2))) & 0xF == 0 {
                let code = if rng.random_range(0..2) == 0 { 1 } else { 9 } + rng.random_range(0..7u8);
                board[i / 2] |= code << (4 * (i % 2));
                placed += 1;
            }
        }
        Record { board, stm: rng.random_range(0..2), result: 1, score: 0 }
    }

    /// The float network whose weights are exactly the quantized ones.
    fn dequantize(q: &Network) -> FloatNet {
        let (qa, qb) = (QA as f32, QB as f32);
        FloatNet {
            hidden: q.hidden(),
            w1: q.w1().iter().map(|&w| f32::from(w) / qa).collect(),
            b1: q.b1().iter().map(|&w| f32::from(w) / qa).collect(),
            w2: q.w2().iter().map(|&w| f32::from(w) / qb).collect(),
            b2: q.b2() as f32 / (qa * qb),
        }
    }

    #[test]
    fn quantized_eval_tracks_float_eval() {
        let mut rng = StdRng::seed_from_u64(7);
        for hidden in [16, 64, 256] {
            let net = random_net(&mut rng, hidden);
            let q = net.quantize().unwrap();
            let exact = dequantize(&q);
            let (mut worst_arith, mut sum_err, mut sum_abs) = (0.0f32, 0.0f32, 0.0f32);
            for n in 0..200 {
                let rec = random_record(&mut rng, 2 + n % 31);
                let i = reference_eval(&q, &rec) as f32;
                // The integer arithmetic (activation and divisions) on the quantized weights: off by at most 1 unit
                // of rounding toward zero, plus float noise.
                worst_arith = worst_arith.max((exact.evaluate(&rec) - i).abs());
                // The rounding of the weights themselves (W2 in steps of 1/64): a few per cent of the evaluations.
                sum_err += (net.evaluate(&rec) - i).abs();
                sum_abs += net.evaluate(&rec).abs();
            }
            assert!(worst_arith < 1.5, "hidden {hidden}: integer arithmetic off by {worst_arith}");
            assert!(sum_abs / 200.0 > 50.0, "hidden {hidden}: evaluations too small to test: {sum_abs}");
            assert!(sum_err < 0.03 * sum_abs, "hidden {hidden}: quantization error {sum_err} against {sum_abs}");
        }
    }

    #[test]
    fn colour_flipped_twin_evaluates_the_same() {
        let mut rng = StdRng::seed_from_u64(11);
        let q = random_net(&mut rng, 32).quantize().unwrap();
        for _ in 0..50 {
            let rec = random_record(&mut rng, 20);
            assert_eq!(reference_eval(&q, &rec), reference_eval(&q, &rec.flip_colors()));
        }
    }

    /// The reference evaluation of a record is the engine's evaluation of its position, exactly, along random games
    /// (the engine clamps to its bound, which these evaluations stay within).
    #[test]
    fn reference_eval_is_the_engine_eval() {
        let mut rng = StdRng::seed_from_u64(5);
        let q = random_net(&mut rng, 64).quantize().unwrap();
        let mut checked = 0;
        for _ in 0..6 {
            let mut pos = Position::startpos();
            for _ in 0..60 {
                let rec = Record::from_position(&pos, 0, 1);
                let reference = reference_eval(&q, &rec);
                assert!(reference.abs() < xiangqi_eval::EVAL_MAX, "{reference} in {}", pos.fen());
                assert_eq!(q.evaluate(&pos), reference, "{}", pos.fen());
                checked += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 100, "{checked} positions");
    }

    #[test]
    fn quantize_writes_a_file_the_engine_reads() {
        let mut rng = StdRng::seed_from_u64(3);
        let hash = training_hash(&["xiangqi-train", "--data", "d.bin"], &[("d.bin".to_owned(), 58)]);
        let q = random_net(&mut rng, 16).quantize().unwrap().with_hash(hash);
        assert_eq!(q.hash(), hash);
        assert_eq!(q.scale(), 400);
        let bytes = q.to_bytes();
        assert_eq!(u64::from_le_bytes(bytes[36..44].try_into().unwrap()), hash);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), q);
        // A size the engine cannot run is refused when quantized, not written.
        let odd = random_net(&mut rng, 8).quantize();
        assert!(matches!(odd, Err(LoadError::Architecture { hidden: 8, .. })), "{odd:?}");
        // The clip keeps the output weights within the engine's bound.
        let mut big = random_net(&mut rng, 16);
        big.w2.iter_mut().for_each(|w| *w *= 10.0);
        assert!(big.quantize().unwrap().w2().iter().all(|w| w.abs() <= 127));
    }

    #[test]
    fn fnv1a_known_values() {
        // The published FNV-1a 64 test vectors.
        assert_eq!(fnv1a(FNV_OFFSET, b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(FNV_OFFSET, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(FNV_OFFSET, b"foobar"), 0x8594_4171_f739_67e8);
        let a = training_hash(&["x", "--lr", "0.001"], &[("d".to_owned(), 10)]);
        let b = training_hash(&["x", "--lr", "0.002"], &[("d".to_owned(), 10)]);
        let c = training_hash(&["x", "--lr", "0.001"], &[("d".to_owned(), 11)]);
        assert!(a != b && a != c && b != c);
    }
}
