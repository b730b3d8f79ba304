//! The network in floats (what the trainer learns), its quantized form, the `.nnue` file, and a reference
//! integer forward pass that follows the engine's inference arithmetic.

use std::path::Path;

use crate::data::{Features, Record, INPUTS};

/// The 8 bytes at the start of a network file.
pub const NET_MAGIC: &[u8; 8] = b"XQNNUE\0\0";
/// The network file format version this crate writes and reads.
pub const NET_VERSION: u32 = 1;
/// The output count.
pub const OUTPUTS: u32 = 1;
/// The quantization of the accumulator: `W1q = round(W1 * QA)`, the clipped activation's 1.0 is `QA`.
pub const QA: i32 = 255;
/// The quantization of the output weights: `W2q = round(W2 * QB)`.
pub const QB: i32 = 64;
/// Engine units per unit of network output (also the divisor of the score in the training target).
pub const SCALE: i32 = 400;
/// The bound of every weight and bias, kept by clipping after each training step, so that the quantized weights
/// fit the integer arithmetic (`|W2q| <= 127`).
pub const WEIGHT_CLIP: f32 = 1.98;
/// The length of the file header in bytes.
pub const HEADER_BYTES: usize = 8 + 7 * 4 + 8;
/// The largest hidden size a file may declare (far above any useful one; bounds the allocation).
pub const MAX_HIDDEN: usize = 4096;

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

    /// The quantized network (weights rounded to the nearest integer step, clipped to [`WEIGHT_CLIP`] first).
    pub fn quantize(&self) -> QuantNet {
        let q = |x: f32, s: i32| (x.clamp(-WEIGHT_CLIP, WEIGHT_CLIP) * s as f32).round() as i16;
        QuantNet {
            hidden: self.hidden,
            qa: QA,
            qb: QB,
            scale: SCALE,
            hash: 0,
            w1: self.w1.iter().map(|&x| q(x, QA)).collect(),
            b1: self.b1.iter().map(|&x| q(x, QA)).collect(),
            w2: self.w2.iter().map(|&x| q(x, QB)).collect(),
            b2: (self.b2 * (QA * QB) as f32).round() as i32,
        }
    }
}

/// A quantized network, as stored in a `.nnue` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuantNet {
    /// The hidden size H.
    pub hidden: usize,
    /// QA of the header.
    pub qa: i32,
    /// QB of the header.
    pub qb: i32,
    /// SCALE of the header.
    pub scale: i32,
    /// The training hash of the header (0 if unknown).
    pub hash: u64,
    /// `W1q`, feature-major, `INPUTS * hidden` values.
    pub w1: Vec<i16>,
    /// `b1q`, `hidden` values.
    pub b1: Vec<i16>,
    /// `W2q`, the side to move's half first, `2 * hidden` values.
    pub w2: Vec<i16>,
    /// `b2q`.
    pub b2: i32,
}

/// A network file that cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    /// The file is shorter than the header.
    #[error("the network file is truncated: {0} bytes, shorter than the {HEADER_BYTES}-byte header")]
    Truncated(usize),
    /// Wrong magic.
    #[error("not a network file (it does not start with XQNNUE)")]
    Magic,
    /// Another format version.
    #[error("network format version {0}, expected {NET_VERSION}")]
    Version(u32),
    /// Another input count.
    #[error("the network has {0} inputs, expected {INPUTS}")]
    Inputs(u32),
    /// Another output count.
    #[error("the network has {0} outputs, expected {OUTPUTS}")]
    Outputs(u32),
    /// A hidden size of 0 or above [`MAX_HIDDEN`].
    #[error("the network's hidden size {0} is not within 1..={MAX_HIDDEN}")]
    Hidden(u32),
    /// A quantization constant of 0.
    #[error("the network's quantization constants QA {0}, QB {1}, SCALE {2} must all be positive")]
    Quantization(u32, u32, u32),
    /// The length disagrees with the header.
    #[error("the network file has {got} bytes, its header (hidden size {hidden}) says {expected}")]
    Length {
        /// The file's length.
        got: usize,
        /// The length the header implies.
        expected: usize,
        /// The header's hidden size.
        hidden: usize,
    },
}

/// The length in bytes of a network file with hidden size `hidden`.
pub const fn file_len(hidden: usize) -> usize {
    HEADER_BYTES + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

impl QuantNet {
    /// The file bytes: the header, then `W1q`, `b1q`, `W2q` (i16 LE) and `b2q` (i32 LE).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len(self.hidden));
        out.extend_from_slice(NET_MAGIC);
        for v in
            [NET_VERSION, INPUTS as u32, self.hidden as u32, OUTPUTS, self.qa as u32, self.qb as u32, self.scale as u32]
        {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.hash.to_le_bytes());
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// Reads a network file's bytes, checking magic, version, input and output counts, hidden size and length.
    pub fn parse(bytes: &[u8]) -> Result<QuantNet, NetError> {
        if bytes.len() < HEADER_BYTES {
            return Err(if bytes.len() >= 8 && &bytes[..8] != NET_MAGIC {
                NetError::Magic
            } else {
                NetError::Truncated(bytes.len())
            });
        }
        if &bytes[..8] != NET_MAGIC {
            return Err(NetError::Magic);
        }
        let u32_at = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let (version, inputs, hidden, outputs) = (u32_at(8), u32_at(12), u32_at(16), u32_at(20));
        let (qa, qb, scale) = (u32_at(24), u32_at(28), u32_at(32));
        if version != NET_VERSION {
            return Err(NetError::Version(version));
        }
        if inputs as usize != INPUTS {
            return Err(NetError::Inputs(inputs));
        }
        if outputs != OUTPUTS {
            return Err(NetError::Outputs(outputs));
        }
        if hidden == 0 || hidden as usize > MAX_HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        let positive = |v: u32| (1..=i32::MAX as u32).contains(&v);
        if !(positive(qa) && positive(qb) && positive(scale)) {
            return Err(NetError::Quantization(qa, qb, scale));
        }
        let h = hidden as usize;
        let expected = file_len(h);
        if bytes.len() != expected {
            return Err(NetError::Length { got: bytes.len(), expected, hidden: h });
        }
        let mut hash = [0u8; 8];
        hash.copy_from_slice(&bytes[36..44]);
        let mut i16s = bytes[HEADER_BYTES..expected - 4].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let w1: Vec<i16> = i16s.by_ref().take(INPUTS * h).collect();
        let b1: Vec<i16> = i16s.by_ref().take(h).collect();
        let w2: Vec<i16> = i16s.take(2 * h).collect();
        let t = &bytes[expected - 4..];
        Ok(QuantNet {
            hidden: h,
            qa: qa as i32,
            qb: qb as i32,
            scale: scale as i32,
            hash: u64::from_le_bytes(hash),
            w1,
            b1,
            w2,
            b2: i32::from_le_bytes([t[0], t[1], t[2], t[3]]),
        })
    }

    /// Writes the network file to a temporary name beside `path`, then renames it, so that a reader watching `path`
    /// never sees a partial file.
    pub fn write_atomic(&self, path: &Path) -> std::io::Result<()> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        std::fs::write(&tmp, self.to_bytes())?;
        std::fs::rename(&tmp, path)
    }

    fn accumulate(&self, f: &Features) -> Vec<i32> {
        let h = self.hidden;
        let mut acc: Vec<i32> = self.b1.iter().map(|&b| i32::from(b)).collect();
        for &i in f.as_slice() {
            let row = &self.w1[usize::from(i) * h..(usize::from(i) + 1) * h];
            acc.iter_mut().zip(row).for_each(|(a, &w)| *a += i32::from(w));
        }
        acc
    }

    /// The integer evaluation in engine units, the engine's arithmetic: per perspective `sum clamp(acc, 0, QA)^2 *
    /// W2q`, the two added, then `(sum / QA + b2q) * SCALE / (QA * QB)` (integer division, rounding toward zero).
    pub fn evaluate(&self, rec: &Record) -> i32 {
        let (stm, other) = rec.both_features();
        let h = self.hidden;
        let half = |acc: Vec<i32>, w2: &[i16]| -> i64 {
            acc.iter()
                .zip(w2)
                .map(|(&a, &w)| {
                    let c = i64::from(a.clamp(0, self.qa));
                    c * c * i64::from(w)
                })
                .sum()
        };
        let sum = half(self.accumulate(&stm), &self.w2[..h]) + half(self.accumulate(&other), &self.w2[h..]);
        let qa = i64::from(self.qa);
        let v = (sum / qa + i64::from(self.b2)) * i64::from(self.scale) / (qa * i64::from(self.qb));
        v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
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
    fn dequantize(q: &QuantNet) -> FloatNet {
        let (qa, qb) = (q.qa as f32, q.qb as f32);
        FloatNet {
            hidden: q.hidden,
            w1: q.w1.iter().map(|&w| f32::from(w) / qa).collect(),
            b1: q.b1.iter().map(|&w| f32::from(w) / qa).collect(),
            w2: q.w2.iter().map(|&w| f32::from(w) / qb).collect(),
            b2: q.b2 as f32 / (qa * qb),
        }
    }

    #[test]
    fn quantized_eval_tracks_float_eval() {
        let mut rng = StdRng::seed_from_u64(7);
        for hidden in [16, 64, 256] {
            let net = random_net(&mut rng, hidden);
            let q = net.quantize();
            let exact = dequantize(&q);
            let (mut worst_arith, mut sum_err, mut sum_abs) = (0.0f32, 0.0f32, 0.0f32);
            for n in 0..200 {
                let rec = random_record(&mut rng, 2 + n % 31);
                let i = q.evaluate(&rec) as f32;
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
        let q = random_net(&mut rng, 32).quantize();
        for _ in 0..50 {
            let rec = random_record(&mut rng, 20);
            assert_eq!(q.evaluate(&rec), q.evaluate(&rec.flip_colors()));
        }
    }

    #[test]
    fn file_round_trip_and_header() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut q = random_net(&mut rng, 8).quantize();
        q.hash = training_hash(&["xiangqi-train", "--data", "d.bin"], &[("d.bin".to_owned(), 58)]);
        let bytes = q.to_bytes();
        assert_eq!(bytes.len(), file_len(8));
        assert_eq!(file_len(256), 44 + 2 * (1260 * 256 + 256 + 512) + 4);
        assert_eq!(&bytes[..8], b"XQNNUE\0\0");
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 1);
        assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), 1260);
        assert_eq!(u32::from_le_bytes(bytes[16..20].try_into().unwrap()), 8);
        assert_eq!(u32::from_le_bytes(bytes[20..24].try_into().unwrap()), 1);
        assert_eq!(u32::from_le_bytes(bytes[24..28].try_into().unwrap()), 255);
        assert_eq!(u32::from_le_bytes(bytes[28..32].try_into().unwrap()), 64);
        assert_eq!(u32::from_le_bytes(bytes[32..36].try_into().unwrap()), 400);
        assert_eq!(u64::from_le_bytes(bytes[36..44].try_into().unwrap()), q.hash);
        // W1q of feature 1, weight 0 sits right after feature 0's 8 weights.
        assert_eq!(i16::from_le_bytes([bytes[44 + 16], bytes[45 + 16]]), q.w1[8]);
        assert_eq!(i32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap()), q.b2);
        assert_eq!(QuantNet::parse(&bytes), Ok(q.clone()));

        assert_eq!(
            QuantNet::parse(&bytes[..bytes.len() - 1]),
            Err(NetError::Length { got: bytes.len() - 1, expected: bytes.len(), hidden: 8 })
        );
        assert_eq!(QuantNet::parse(&bytes[..20]), Err(NetError::Truncated(20)));
        let mut b = bytes.clone();
        b[0] = b'Y';
        assert_eq!(QuantNet::parse(&b), Err(NetError::Magic));
        let mut b = bytes.clone();
        b[8] = 2;
        assert_eq!(QuantNet::parse(&b), Err(NetError::Version(2)));
        let mut b = bytes.clone();
        b[12] = 0;
        assert!(matches!(QuantNet::parse(&b), Err(NetError::Inputs(_))));
        let mut b = bytes.clone();
        b[20] = 2;
        assert_eq!(QuantNet::parse(&b), Err(NetError::Outputs(2)));
        let mut b = bytes;
        b.push(0);
        assert!(matches!(QuantNet::parse(&b), Err(NetError::Length { .. })));
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
