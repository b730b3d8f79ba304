//! The network in floats (what the trainer learns), its quantization into the engine's [`Network`] (whose file,
//! `.nnue`, is defined once in [`xiangqi_eval::nnue`]: the trainer writes it with [`Network::save`]), a reference
//! integer forward pass that follows the engine's inference arithmetic, and the training hash of the header.

use xiangqi_eval::nnue::{Architecture, LoadError, Network, DEFAULT_SCALE, INPUTS, QA, QB};

use xiangqi_eval::nnue::data::{Features, Record};

/// The default number of engine units per unit of network output (also the divisor of the score in the training
/// target): the scale the trainer writes in the header unless told another (`--scale`, [`FloatNet::scale`]).
pub const SCALE: i32 = DEFAULT_SCALE;
/// The bound of every weight and bias, kept by clipping after each training step, so that the quantized weights
/// fit the integer arithmetic (`|W2q| <= 127`, [`xiangqi_eval::nnue::MAX_OUTPUT_WEIGHT`]).
pub const WEIGHT_CLIP: f32 = 1.98;

/// The float network: `acc_p = b1 + sum W1[f]` per perspective over the features of its king bucket,
/// `out = sum a(acc_stm) W2[b][..H] + sum a(acc_other) W2[b][H..] + b2[b]` with `a(x) = clamp(x, 0, 1)^2` and `b`
/// the position's output bucket.
#[derive(Debug, Clone, PartialEq)]
pub struct FloatNet {
    /// The hidden size H.
    pub hidden: usize,
    /// King buckets: 1 (plain inputs) or [`xiangqi_eval::nnue::KING_BUCKETS`].
    pub king_buckets: usize,
    /// Output buckets by material.
    pub output_buckets: usize,
    /// Engine units per unit of output: the evaluation is `forward * scale`, and the header's `SCALE`.
    pub scale: i32,
    /// `W1[feature][j]`, feature-major (bucket-major first), `king_buckets * INPUTS * hidden` values.
    pub w1: Vec<f32>,
    /// `b1[j]`, `hidden` values.
    pub b1: Vec<f32>,
    /// `W2`, a row of `2 * hidden` per output bucket, each the side to move's half first.
    pub w2: Vec<f32>,
    /// The output bias of each output bucket.
    pub b2: Vec<f32>,
}

/// Squared clipped ReLU on floats.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNet {
    /// A network of zeros of the architecture `arch`, with the output scale `scale`.
    ///
    /// ```
    /// use xiangqi_eval::nnue::Architecture;
    /// use xiangqi_train::net::FloatNet;
    /// let net = FloatNet::zeros(Architecture { king_buckets: 6, hidden: 16, output_buckets: 8 }, 400);
    /// assert_eq!((net.w1.len(), net.w2.len(), net.b2.len()), (6 * 1260 * 16, 8 * 32, 8));
    /// ```
    pub fn zeros(arch: Architecture, scale: i32) -> FloatNet {
        let h = arch.hidden;
        FloatNet {
            hidden: h,
            king_buckets: arch.king_buckets,
            output_buckets: arch.output_buckets,
            scale,
            w1: vec![0.0; arch.king_buckets * INPUTS * h],
            b1: vec![0.0; h],
            w2: vec![0.0; arch.output_buckets * 2 * h],
            b2: vec![0.0; arch.output_buckets],
        }
    }

    /// The architecture.
    pub fn architecture(&self) -> Architecture {
        Architecture { king_buckets: self.king_buckets, hidden: self.hidden, output_buckets: self.output_buckets }
    }

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
        let (stm, other) = rec.both_features_for(self.king_buckets);
        let (a, b) = (self.accumulate(&stm), self.accumulate(&other));
        let h = self.hidden;
        let bucket = rec.output_bucket(self.output_buckets);
        let w2 = &self.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        let s: f32 = a.iter().zip(&w2[..h]).map(|(x, w)| screlu(*x) * w).sum::<f32>()
            + b.iter().zip(&w2[h..]).map(|(x, w)| screlu(*x) * w).sum::<f32>();
        s + self.b2[bucket]
    }

    /// The evaluation in engine units: `forward * scale`.
    pub fn evaluate(&self, rec: &Record) -> f32 {
        self.forward(rec) * self.scale as f32
    }

    /// The quantized network, the engine's [`Network`] (training hash 0: see [`Network::with_hash`]): weights
    /// clipped to [`WEIGHT_CLIP`], then `W1q = round(W1 * QA)`, `b1q = round(b1 * QA)`, `W2q = round(W2 * QB)`,
    /// `b2q = round(b2 * QA * QB)`, and the scale in the header. An error when the network is not one the engine
    /// reads (a hidden size that is not a multiple of 16 up to 1024, another bucket count, or weights that do not
    /// fit it).
    pub fn quantize(&self) -> Result<Network, LoadError> {
        let q = |x: f32, s: i32| (x.clamp(-WEIGHT_CLIP, WEIGHT_CLIP) * s as f32).round() as i16;
        Network::from_arch_parts(
            self.architecture(),
            self.scale,
            0,
            self.w1.iter().map(|&x| q(x, QA)).collect(),
            self.b1.iter().map(|&x| q(x, QA)).collect(),
            self.w2.iter().map(|&x| q(x, QB)).collect(),
            self.b2.iter().map(|&b| (b * (QA * QB) as f32).round() as i32).collect(),
        )
    }
}

/// The reference integer evaluation of `net` for the side to move of `rec`, in engine units, written plainly from
/// the arithmetic the engine's inference follows (a check of it, not a copy): accumulators `b1q + sum W1q[f]` over
/// the features of the network's king buckets, per perspective `sum clamp(acc, 0, QA)^2 * W2q` (the output
/// bucket's row, the side to move's half first), the two added, then `(sum / QA + b2q) * SCALE / (QA * QB)` with
/// integer division rounding toward zero. The engine also clamps the result to `-EVAL_MAX..=EVAL_MAX`; this does
/// not.
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
    let (stm, other) = rec.both_features_for(net.king_buckets());
    let bucket = rec.output_bucket(net.output_buckets());
    let w2 = &net.w2()[bucket * 2 * h..(bucket + 1) * 2 * h];
    let sum = half(accumulate(&stm), &w2[..h]) + half(accumulate(&other), &w2[h..]);
    let qa = i64::from(QA);
    let v = (sum / qa + i64::from(net.b2()[bucket])) * i64::from(net.scale()) / (qa * i64::from(QB));
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
    use xiangqi_eval::nnue::{NnueStack, KING_BUCKETS};
    use xiangqi_eval::Evaluate;

    /// The architectures tested: plain, output buckets, king buckets, both.
    const ARCHS: [(usize, usize); 4] = [(1, 1), (1, 8), (KING_BUCKETS, 1), (KING_BUCKETS, 8)];

    /// A random plain float network whose accumulators land around the activation's range.
    fn random_net(rng: &mut StdRng, hidden: usize) -> FloatNet {
        random_arch_net(rng, Architecture::plain(hidden))
    }

    /// A random float network of `arch`.
    fn random_arch_net(rng: &mut StdRng, arch: Architecture) -> FloatNet {
        let mut net = FloatNet::zeros(arch, SCALE);
        let mut u = |a: f32| rng.random_range(-a..a);
        net.w1.iter_mut().for_each(|w| *w = u(0.12));
        net.b1.iter_mut().for_each(|w| *w = u(0.3));
        net.w2.iter_mut().for_each(|w| *w = u(1.0));
        net.b2.iter_mut().for_each(|w| *w = u(0.5));
        net
    }

    /// A random board of a king in each palace and `pieces` other pieces (any other kinds, any points).
    fn random_record(rng: &mut StdRng, pieces: usize) -> Record {
        let mut board = [0u8; 45];
        let put = |board: &mut [u8; 45], i: usize, code: u8| {
            let free = (board[i / 2] >> (4 * (i % 2))) & 0xF == 0;
            if free {
                board[i / 2] |= code << (4 * (i % 2));
            }
            free
        };
        put(&mut board, rng.random_range(0..3) * 9 + rng.random_range(3..6), 1);
        put(&mut board, rng.random_range(7..10) * 9 + rng.random_range(3..6), 9);
        let mut placed = 0;
        while placed < pieces {
            let i = rng.random_range(0..90);
            let code = if rng.random_range(0..2) == 0 { 1 } else { 9 } + rng.random_range(1..7u8);
            placed += usize::from(put(&mut board, i, code));
        }
        Record { board, stm: rng.random_range(0..2), result: 1, score: 0 }
    }

    /// The float network whose weights are exactly the quantized ones.
    fn dequantize(q: &Network) -> FloatNet {
        let (qa, qb) = (QA as f32, QB as f32);
        FloatNet {
            w1: q.w1().iter().map(|&w| f32::from(w) / qa).collect(),
            b1: q.b1().iter().map(|&w| f32::from(w) / qa).collect(),
            w2: q.w2().iter().map(|&w| f32::from(w) / qb).collect(),
            b2: q.b2().iter().map(|&b| b as f32 / (qa * qb)).collect(),
            ..FloatNet::zeros(q.architecture(), q.scale())
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

    /// For every architecture on a small random network: the trainer's float forward and the engine's quantized
    /// inference (from scratch and incrementally, along random games with king moves) agree within the rounding
    /// of the weights, and the reference integer evaluation is the engine's exactly.
    #[test]
    fn float_forward_matches_quantized_inference_for_every_architecture() {
        let mut rng = StdRng::seed_from_u64(17);
        for (kb, ob) in ARCHS {
            let net = random_arch_net(&mut rng, Architecture { king_buckets: kb, hidden: 32, output_buckets: ob });
            let q = net.quantize().unwrap();
            assert_eq!(Network::from_bytes(&q.to_bytes()).unwrap(), q);
            let exact = dequantize(&q);
            let (mut sum_err, mut sum_abs, mut worst_arith, mut buckets) = (0.0f32, 0.0f32, 0.0f32, [false; 8]);
            for game in 0..6 {
                let mut pos = Position::startpos();
                let mut stack = NnueStack::new(&q, &pos);
                for ply in 0..80 {
                    let rec = Record::from_position(&pos, 0, 1);
                    let engine = stack.evaluate(&q, &pos);
                    assert_eq!(engine, q.evaluate(&pos), "{kb}x{ob}: {}", pos.fen());
                    assert_eq!(engine, reference_eval(&q, &rec), "{kb}x{ob}: {}", pos.fen());
                    worst_arith = worst_arith.max((exact.evaluate(&rec) - engine as f32).abs());
                    sum_err += (net.evaluate(&rec) - engine as f32).abs();
                    sum_abs += net.evaluate(&rec).abs();
                    buckets[rec.output_bucket(8)] = true;
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // Prefer captures (so that material and the output bucket change) and king moves.
                    let pick = moves
                        .iter()
                        .copied()
                        .filter(|m| {
                            pos.piece_at(m.to()).is_some()
                                || (ply + game) % 3 == 0
                                    && pos.piece_at(m.from()).is_some_and(|p| p.kind == xiangqi_core::PieceKind::King)
                        })
                        .collect::<Vec<_>>();
                    let from = if pick.is_empty() { &moves[..] } else { &pick[..] };
                    let m = from[rng.random_range(0..from.len())];
                    stack.make(&pos, m);
                    pos.make_move(m);
                }
            }
            assert!(worst_arith < 1.5, "{kb}x{ob}: integer arithmetic off by {worst_arith}");
            assert!(sum_err < 0.04 * sum_abs, "{kb}x{ob}: quantization error {sum_err} against {sum_abs}");
            assert!(buckets.iter().filter(|&&b| b).count() >= 4, "{kb}x{ob}: output buckets met {buckets:?}");
        }
    }

    #[test]
    fn colour_flipped_twin_evaluates_the_same() {
        let mut rng = StdRng::seed_from_u64(11);
        for (kb, ob) in ARCHS {
            let arch = Architecture { king_buckets: kb, hidden: 32, output_buckets: ob };
            let q = random_arch_net(&mut rng, arch).quantize().unwrap();
            for _ in 0..50 {
                let rec = random_record(&mut rng, 20);
                assert_eq!(reference_eval(&q, &rec), reference_eval(&q, &rec.flip_colors()), "{arch}");
            }
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
        assert_eq!(u64::from_le_bytes(bytes[44..52].try_into().unwrap()), hash);
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
