//! The network file (`.nnue`): its one definition. [`Network`] is what a file holds; [`Network::from_bytes`] and
//! [`Network::load`] read it with every check, [`Network::to_bytes`] and [`Network::save`] write it, and
//! [`Network::from_parts`] and [`Network::from_arch_parts`] build one from quantized weights (what the trainer
//! writes) with the same checks, so that whatever is written can be read. The layout is in the
//! [module docs](super).

use super::features::{INPUTS, KING_BUCKETS, MAX_OUTPUT_BUCKETS};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::path::{Path, PathBuf};

/// The file's first 8 bytes.
pub const MAGIC: [u8; 8] = *b"XQNNUE\0\0";
/// The format version this engine writes: version 2, whose header names the architecture (king buckets, hidden
/// size, output buckets). Version 1 files (one king bucket, one output bucket) are still read.
pub const VERSION: u32 = 2;
/// The first format version, read but no longer written: the plain 1260-input, one-output network.
pub const VERSION_1: u32 = 1;
/// The number of outputs.
pub const OUTPUTS: usize = 1;
/// The hidden layer's quantization: `W1q = round(W1 * QA)`, and the activation clips at `QA` (the float 1.0).
pub const QA: i32 = 255;
/// The output layer's quantization: `W2q = round(W2 * QB)`.
pub const QB: i32 = 64;
/// The default scale from the network's output to evaluation units (the trainer's).
pub const DEFAULT_SCALE: i32 = 400;
/// The largest scale a file may declare.
pub const MAX_SCALE: i32 = 10_000;
/// The default hidden size.
pub const DEFAULT_HIDDEN: usize = 256;
/// The largest hidden size read.
pub const MAX_HIDDEN: usize = 1024;
/// Hidden sizes are multiples of this (the width of the vectorized loops).
pub const CHUNK: usize = 16;
/// The header's length in bytes in the format written, [`VERSION`] 2.
pub const HEADER_LEN: usize = 8 + 4 + 5 * 4 + 3 * 4 + 8;
/// The header's length in bytes in [`VERSION_1`] files.
pub const HEADER_LEN_V1: usize = 8 + 4 + 3 * 4 + 3 * 4 + 8;
/// The largest output weight in absolute value (the trainer clips weights to 1.98, times `QB` is 127): it keeps
/// `clamp(acc, 0, QA) * W2` within `i16`, which the vectorized output layer relies on.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// What a network computes: its king buckets (1, the plain piece-on-point inputs, or [`KING_BUCKETS`], the
/// king-relative inputs of [`bucketed_feature`](super::bucketed_feature)), its hidden size per perspective, and its
/// output buckets (1 to [`MAX_OUTPUT_BUCKETS`], chosen by [`output_bucket`](super::output_bucket)).
///
/// ```
/// use xiangqi_eval::nnue::Architecture;
/// let plain = Architecture::plain(256);
/// assert_eq!(plain.inputs(), 1260);
/// let big = Architecture { king_buckets: 6, hidden: 512, output_buckets: 8 };
/// assert_eq!(big.inputs(), 7560);
/// assert!(big.check().is_ok() && Architecture { output_buckets: 0, ..big }.check().is_err());
/// assert_eq!(big.to_string(), "(1260x6)->512x2->1x8");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Architecture {
    /// 1 (piece-on-point inputs) or [`KING_BUCKETS`] (king-relative inputs, mirrored).
    pub king_buckets: usize,
    /// Hidden neurons per perspective: a multiple of [`CHUNK`] from [`CHUNK`] to [`MAX_HIDDEN`].
    pub hidden: usize,
    /// Output buckets by material, 1 to [`MAX_OUTPUT_BUCKETS`].
    pub output_buckets: usize,
}

impl Architecture {
    /// The first network's architecture: 1260 inputs, `hidden` neurons, one output.
    pub const fn plain(hidden: usize) -> Architecture {
        Architecture { king_buckets: 1, hidden, output_buckets: 1 }
    }

    /// The number of inputs: `king_buckets * 1260`.
    pub const fn inputs(&self) -> usize {
        self.king_buckets * INPUTS
    }

    /// Whether the engine runs this architecture; the error names what it cannot.
    pub fn check(&self) -> Result<(), LoadError> {
        let h = self.hidden;
        if h == 0 || h > MAX_HIDDEN || h % CHUNK != 0 {
            return Err(LoadError::Architecture { inputs: INPUTS as u32, hidden: h as u32, outputs: OUTPUTS as u32 });
        }
        if self.king_buckets != 1 && self.king_buckets != KING_BUCKETS {
            return Err(LoadError::KingBuckets { found: self.king_buckets as u32 });
        }
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&self.output_buckets) {
            return Err(LoadError::OutputBuckets { found: self.output_buckets as u32 });
        }
        Ok(())
    }

    /// The file length of a network of this architecture, in the format written ([`VERSION`] 2).
    pub const fn file_len(&self) -> usize {
        HEADER_LEN
            + 2 * (self.inputs() * self.hidden + self.hidden + self.output_buckets * 2 * self.hidden)
            + 4 * self.output_buckets
    }
}

impl std::fmt::Display for Architecture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.king_buckets == 1 {
            write!(f, "{INPUTS}")?;
        } else {
            write!(f, "({INPUTS}x{})", self.king_buckets)?;
        }
        write!(f, "->{}x2->{OUTPUTS}", self.hidden)?;
        if self.output_buckets > 1 {
            write!(f, "x{}", self.output_buckets)?;
        }
        Ok(())
    }
}

/// Why a network file could not be loaded, or weights do not make a network.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file does not exist.
    #[error("network file {0} not found")]
    Missing(PathBuf),
    /// The file could not be read.
    #[error("cannot read network file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is shorter than its header says.
    #[error("network file truncated: {found} bytes, the header asks for {expected}")]
    Truncated {
        /// The file's length.
        found: usize,
        /// The length its header implies.
        expected: usize,
    },
    /// The file is longer than its header says.
    #[error("network file too long: {found} bytes, the header asks for {expected}")]
    TooLong {
        /// The file's length.
        found: usize,
        /// The length its header implies.
        expected: usize,
    },
    /// The file does not start with the magic.
    #[error("not a network file: bad magic {found:?} (expected \"XQNNUE\\0\\0\")")]
    BadMagic {
        /// The first bytes of the file.
        found: Vec<u8>,
    },
    /// Another format version.
    #[error("network format version {found}, this engine reads versions {VERSION_1} and {VERSION}")]
    Version {
        /// The file's version.
        found: u32,
    },
    /// Another architecture: inputs per king bucket, hidden size or outputs.
    #[error(
        "network architecture {inputs}x{hidden}x{outputs}, this engine reads {INPUTS} inputs (per king bucket), one \
         output and a hidden size that is a multiple of {CHUNK} from {CHUNK} to {MAX_HIDDEN}"
    )]
    Architecture {
        /// Inputs (per king bucket) in the file.
        inputs: u32,
        /// Hidden size in the file.
        hidden: u32,
        /// Outputs in the file.
        outputs: u32,
    },
    /// A king-bucket count this engine has no layout for.
    #[error("network with {found} king buckets, this engine runs 1 (plain inputs) or {KING_BUCKETS} (king-relative)")]
    KingBuckets {
        /// The count in the file.
        found: u32,
    },
    /// An output-bucket count outside `1..=MAX_OUTPUT_BUCKETS`.
    #[error("network with {found} output buckets, this engine runs 1 to {MAX_OUTPUT_BUCKETS}")]
    OutputBuckets {
        /// The count in the file.
        found: u32,
    },
    /// Another quantization.
    #[error("network quantization QA={qa} QB={qb} scale {scale}, this engine reads QA={QA}, QB={QB} and a scale from 1 to 10000")]
    Quantization {
        /// `QA` in the file.
        qa: u32,
        /// `QB` in the file.
        qb: u32,
        /// `SCALE` in the file.
        scale: u32,
    },
    /// An output weight beyond [`MAX_OUTPUT_WEIGHT`].
    #[error("network output weight {index} is {value}, outside -{MAX_OUTPUT_WEIGHT}..={MAX_OUTPUT_WEIGHT}")]
    OutputWeight {
        /// Its index in `W2`.
        index: usize,
        /// Its value.
        value: i16,
    },
    /// Weights given to [`Network::from_parts`] whose count does not fit the architecture.
    #[error("network weights {what}: {found} values, a hidden size of {hidden} needs {expected}")]
    Shape {
        /// Which weights: `W1`, `W2` or `b2`.
        what: &'static str,
        /// How many were given.
        found: usize,
        /// How many the architecture needs.
        expected: usize,
        /// The hidden size.
        hidden: usize,
    },
}

/// A quantized network: what a `.nnue` file holds, ready for inference.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub(super) hidden: usize,
    /// 1 or [`KING_BUCKETS`].
    pub(super) king_buckets: usize,
    pub(super) output_buckets: usize,
    pub(super) scale: i32,
    pub(super) hash: u64,
    /// `king_buckets * INPUTS` rows of `hidden` weights.
    pub(super) w1: Box<[i16]>,
    pub(super) b1: Box<[i16]>,
    /// `output_buckets` rows of `2 * hidden`: the side to move's half first.
    pub(super) w2: Box<[i16]>,
    /// One bias per output bucket.
    pub(super) b2: Box<[i32]>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("architecture", &format_args!("{}", self.architecture()))
            .field("scale", &self.scale)
            .field("hash", &format_args!("{:016x}", self.hash))
            .finish_non_exhaustive()
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// The quantization check: [`QA`], [`QB`] and a scale within `1..=MAX_SCALE`.
fn check_quantization(qa: u32, qb: u32, scale: u32) -> Result<(), LoadError> {
    if qa != QA as u32 || qb != QB as u32 || !(1..=MAX_SCALE as u32).contains(&scale) {
        return Err(LoadError::Quantization { qa, qb, scale });
    }
    Ok(())
}

impl Network {
    /// The file length of a plain network (one king bucket, one output bucket) of `hidden` neurons, in the format
    /// written ([`VERSION`] 2); [`Architecture::file_len`] gives any architecture's.
    pub const fn file_len(hidden: usize) -> usize {
        Architecture::plain(hidden).file_len()
    }

    /// Whether `hidden` is a hidden size a file may have: a multiple of [`CHUNK`] from [`CHUNK`] to [`MAX_HIDDEN`].
    ///
    /// ```
    /// use xiangqi_eval::nnue::Network;
    /// assert!(Network::hidden_size_ok(256));
    /// assert!(!Network::hidden_size_ok(100) && !Network::hidden_size_ok(0) && !Network::hidden_size_ok(2048));
    /// ```
    pub fn hidden_size_ok(hidden: usize) -> bool {
        Architecture::plain(hidden).check().is_ok()
    }

    /// A plain network (one king bucket, one output bucket) from its quantized weights, with the checks a file
    /// gets: the hidden size is the length of `b1`, `w1` holds [`INPUTS`] rows of it (feature-major), `w2` twice it
    /// (the side to move's half first), and every output weight is within [`MAX_OUTPUT_WEIGHT`]; `scale` is within
    /// `1..=MAX_SCALE`; `hash` is the training hash of the header (0 when unknown).
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// use xiangqi_eval::nnue::{LoadError, Network, INPUTS};
    /// use xiangqi_eval::Evaluate;
    ///
    /// let net = Network::from_parts(400, 7, vec![0; INPUTS * 16], vec![0; 16], vec![0; 32], 64).unwrap();
    /// assert_eq!(net.evaluate(&Position::startpos()), 400 * 64 / (255 * 64)); // only the output bias
    /// assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    /// let bad = Network::from_parts(400, 7, vec![0; 10], vec![0; 16], vec![0; 32], 0);
    /// assert!(matches!(bad, Err(LoadError::Shape { what: "W1", .. })));
    /// ```
    pub fn from_parts(
        scale: i32,
        hash: u64,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: i32,
    ) -> Result<Network, LoadError> {
        let hidden = u32::try_from(b1.len()).unwrap_or(u32::MAX) as usize;
        Network::from_arch_parts(Architecture::plain(hidden), scale, hash, w1, b1, w2, vec![b2])
    }

    /// A network of any [`Architecture`] from its quantized weights, with the checks a file gets: `w1` holds
    /// `arch.inputs()` rows of `arch.hidden` weights (bucket-major, then feature-major), `b1` `arch.hidden`
    /// values, `w2` a row of `2 * arch.hidden` per output bucket (each the side to move's half first), `b2` one
    /// bias per output bucket.
    ///
    /// ```
    /// use xiangqi_eval::nnue::{Architecture, LoadError, Network};
    ///
    /// let arch = Architecture { king_buckets: 6, hidden: 16, output_buckets: 8 };
    /// let net = Network::from_arch_parts(arch, 400, 0, vec![0; 7560 * 16], vec![0; 16], vec![0; 8 * 32], vec![0; 8]);
    /// assert_eq!(net.unwrap().architecture(), arch);
    /// let bad = Network::from_arch_parts(arch, 400, 0, vec![0; 7560 * 16], vec![0; 16], vec![0; 32], vec![0; 8]);
    /// assert!(matches!(bad, Err(LoadError::Shape { what: "W2", .. })));
    /// ```
    pub fn from_arch_parts(
        arch: Architecture,
        scale: i32,
        hash: u64,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: Vec<i32>,
    ) -> Result<Network, LoadError> {
        arch.check()?;
        check_quantization(QA as u32, QB as u32, u32::try_from(scale).unwrap_or(0))?;
        let h = arch.hidden;
        if b1.len() != h {
            return Err(LoadError::Shape { what: "b1", found: b1.len(), expected: h, hidden: h });
        }
        let ob = arch.output_buckets;
        for (what, found, expected) in
            [("W1", w1.len(), arch.inputs() * h), ("W2", w2.len(), ob * 2 * h), ("b2", b2.len(), ob)]
        {
            if found != expected {
                return Err(LoadError::Shape { what, found, expected, hidden: h });
            }
        }
        if let Some((index, &value)) = w2.iter().enumerate().find(|(_, w)| w.abs() > MAX_OUTPUT_WEIGHT) {
            return Err(LoadError::OutputWeight { index, value });
        }
        Ok(Network {
            hidden: h,
            king_buckets: arch.king_buckets,
            output_buckets: ob,
            scale,
            hash,
            w1: w1.into(),
            b1: b1.into(),
            w2: w2.into(),
            b2: b2.into(),
        })
    }

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<Network, LoadError> {
        let bytes = std::fs::read(path).map_err(|source| match source.kind() {
            std::io::ErrorKind::NotFound => LoadError::Missing(path.to_owned()),
            _ => LoadError::Io { path: path.to_owned(), source },
        })?;
        Network::from_bytes(&bytes)
    }

    /// Parses the bytes of a network file of either version: the magic, the version, the architecture, the
    /// quantization, the length the header implies, and the weights as [`Network::from_arch_parts`] checks them.
    pub fn from_bytes(b: &[u8]) -> Result<Network, LoadError> {
        let head = &b[..b.len().min(8)];
        if head != &MAGIC[..head.len()] {
            return Err(LoadError::BadMagic { found: head.to_vec() });
        }
        if b.len() < 12 {
            return Err(LoadError::Truncated { found: b.len(), expected: HEADER_LEN_V1 });
        }
        let version = u32_at(b, 8);
        // The fields after the version: (inputs, king buckets, hidden, output buckets, outputs, QA, QB, SCALE).
        let (header_len, fields) = match version {
            VERSION_1 => {
                if b.len() < HEADER_LEN_V1 {
                    return Err(LoadError::Truncated { found: b.len(), expected: HEADER_LEN_V1 });
                }
                let f = |i: usize| u32_at(b, 12 + 4 * i);
                (HEADER_LEN_V1, [f(0), 1, f(1), 1, f(2), f(3), f(4), f(5)])
            }
            VERSION => {
                if b.len() < HEADER_LEN {
                    return Err(LoadError::Truncated { found: b.len(), expected: HEADER_LEN });
                }
                (HEADER_LEN, std::array::from_fn(|i| u32_at(b, 12 + 4 * i)))
            }
            found => return Err(LoadError::Version { found }),
        };
        let [inputs, king_buckets, hidden, output_buckets, outputs, qa, qb, scale] = fields;
        if inputs as usize != INPUTS || outputs as usize != OUTPUTS {
            return Err(LoadError::Architecture { inputs, hidden, outputs });
        }
        let arch = Architecture {
            king_buckets: king_buckets as usize,
            hidden: hidden as usize,
            output_buckets: output_buckets as usize,
        };
        arch.check()?;
        check_quantization(qa, qb, scale)?;
        let hash = u64::from_le_bytes(b[header_len - 8..header_len].try_into().expect("8 bytes"));
        let expected = arch.file_len() - HEADER_LEN + header_len;
        if b.len() < expected {
            return Err(LoadError::Truncated { found: b.len(), expected });
        }
        if b.len() > expected {
            return Err(LoadError::TooLong { found: b.len(), expected });
        }
        let mut at = header_len;
        let mut take = |n: usize| -> Vec<i16> {
            let v = b[at..at + 2 * n].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
            at += 2 * n;
            v
        };
        let h = arch.hidden;
        let (w1, b1, w2) = (take(arch.inputs() * h), take(h), take(arch.output_buckets * 2 * h));
        let b2 = b[expected - 4 * arch.output_buckets..expected]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        Network::from_arch_parts(arch, scale as i32, hash, w1, b1, w2, b2)
    }

    /// The bytes of the network's file, in the format written ([`VERSION`] 2): the magic, the version, the
    /// architecture (inputs per king bucket, king buckets, hidden size, output buckets, outputs), the quantization
    /// (`QA`, `QB`, `SCALE`), the training hash, then the weights.
    pub fn to_bytes(&self) -> Vec<u8> {
        let arch = self.architecture();
        let mut out = Vec::with_capacity(arch.file_len());
        out.extend_from_slice(&MAGIC);
        let header = [
            VERSION,
            INPUTS as u32,
            self.king_buckets as u32,
            self.hidden as u32,
            self.output_buckets as u32,
            OUTPUTS as u32,
            QA as u32,
            QB as u32,
            self.scale as u32,
        ];
        for v in header {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.hash.to_le_bytes());
        for w in self.w1.iter().chain(self.b1.iter()).chain(self.w2.iter()) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in self.b2.iter() {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The bytes of the network in the first format ([`VERSION_1`]), which holds plain networks only (one king
    /// bucket, one output bucket): `None` for any other architecture. For tools that feed older engines.
    pub fn to_bytes_v1(&self) -> Option<Vec<u8>> {
        if self.king_buckets != 1 || self.output_buckets != 1 {
            return None;
        }
        let mut out = Vec::with_capacity(HEADER_LEN_V1 + 2 * (INPUTS * self.hidden + 3 * self.hidden) + 4);
        out.extend_from_slice(&MAGIC);
        for v in [VERSION_1, INPUTS as u32, self.hidden as u32, OUTPUTS as u32, QA as u32, QB as u32, self.scale as u32]
        {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.hash.to_le_bytes());
        for w in self.w1.iter().chain(self.b1.iter()).chain(self.w2.iter()) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2[0].to_le_bytes());
        Some(out)
    }

    /// Writes the network's file to `path`: first to `path` with `.tmp` appended, then renamed, so that a reader
    /// watching `path` never sees a partial file.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        std::fs::write(&tmp, self.to_bytes())?;
        std::fs::rename(&tmp, path)
    }

    /// The same network with another training hash in its header.
    pub fn with_hash(self, hash: u64) -> Network {
        Network { hash, ..self }
    }

    /// A seeded random plain network of `hidden` neurons (a multiple of [`CHUNK`] up to [`MAX_HIDDEN`]), with
    /// weights in the ranges a trained one has: for tests, examples and speed measurements, not for play.
    ///
    /// # Panics
    /// When `hidden` is not such a size.
    pub fn random(hidden: usize, seed: u64) -> Network {
        Network::random_arch(Architecture::plain(hidden), seed)
    }

    /// A seeded random network of the architecture `arch`, as [`Network::random`].
    ///
    /// # Panics
    /// When the engine cannot run `arch` ([`Architecture::check`]).
    pub fn random_arch(arch: Architecture, seed: u64) -> Network {
        assert!(arch.check().is_ok(), "architecture {arch}");
        let mut rng = StdRng::seed_from_u64(seed);
        let mut fill = |n: usize, r: i32| -> Box<[i16]> { (0..n).map(|_| rng.random_range(-r..=r) as i16).collect() };
        let hidden = arch.hidden;
        let w1 = fill(arch.inputs() * hidden, 60);
        let b1 = fill(hidden, 120);
        let w2 = fill(arch.output_buckets * 2 * hidden, i32::from(MAX_OUTPUT_WEIGHT));
        let b2 = (0..arch.output_buckets).map(|_| rng.random_range(-(QA * QB)..=QA * QB)).collect();
        Network {
            hidden,
            king_buckets: arch.king_buckets,
            output_buckets: arch.output_buckets,
            scale: DEFAULT_SCALE,
            hash: seed,
            w1,
            b1,
            w2,
            b2,
        }
    }

    /// The architecture: king buckets, hidden size, output buckets.
    pub fn architecture(&self) -> Architecture {
        Architecture { king_buckets: self.king_buckets, hidden: self.hidden, output_buckets: self.output_buckets }
    }

    /// The hidden size `H`.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The number of king buckets: 1 (plain inputs) or [`KING_BUCKETS`].
    pub fn king_buckets(&self) -> usize {
        self.king_buckets
    }

    /// The number of output buckets.
    pub fn output_buckets(&self) -> usize {
        self.output_buckets
    }

    /// The scale from the network's output to evaluation units.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The training hash of the header (0 when unknown).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// `W1q`: `king_buckets * INPUTS` rows of `H` weights, bucket-major then feature-major.
    pub fn w1(&self) -> &[i16] {
        &self.w1
    }

    /// `b1q`: `H` biases of the hidden layer.
    pub fn b1(&self) -> &[i16] {
        &self.b1
    }

    /// `W2q`: a row of `2H` output weights per output bucket, each the side to move's half first.
    pub fn w2(&self) -> &[i16] {
        &self.w2
    }

    /// `b2q`: the output bias of each output bucket.
    pub fn b2(&self) -> &[i32] {
        &self.b2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        let net = Network::random(32, 5);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::file_len(32));
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    }

    #[test]
    fn header_fields_at_their_offsets() {
        let net = Network::random(16, 8).with_hash(0x0123_4567_89ab_cdef);
        let bytes = net.to_bytes();
        assert_eq!(Network::file_len(256), 52 + 2 * (1260 * 256 + 256 + 512) + 4);
        assert_eq!(&bytes[..8], b"XQNNUE\0\0");
        let header: Vec<u32> = bytes[8..44].chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(header, [2, 1260, 1, 16, 1, 1, 255, 64, 400]);
        assert_eq!(u64::from_le_bytes(bytes[44..52].try_into().unwrap()), 0x0123_4567_89ab_cdef);
        // W1q of feature 1, weight 0 sits right after feature 0's 16 weights; b1q, W2q and b2q follow W1q.
        assert_eq!(i16::from_le_bytes([bytes[52 + 32], bytes[53 + 32]]), net.w1()[16]);
        let b1_at = 52 + 2 * 1260 * 16;
        assert_eq!(i16::from_le_bytes([bytes[b1_at], bytes[b1_at + 1]]), net.b1()[0]);
        let w2_at = b1_at + 2 * 16;
        assert_eq!(i16::from_le_bytes([bytes[w2_at], bytes[w2_at + 1]]), net.w2()[0]);
        assert_eq!(i32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap()), net.b2()[0]);
    }

    /// The first format: its header fields at their offsets, and read back as the same network.
    #[test]
    fn version_1_files_are_read() {
        let net = Network::random(32, 6).with_hash(77);
        let v1 = net.to_bytes_v1().unwrap();
        assert_eq!(v1.len(), 44 + 2 * (1260 * 32 + 32 + 64) + 4);
        let header: Vec<u32> = v1[8..36].chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(header, [1, 1260, 32, 1, 255, 64, 400]);
        assert_eq!(i32::from_le_bytes(v1[v1.len() - 4..].try_into().unwrap()), net.b2()[0]);
        assert_eq!(Network::from_bytes(&v1).unwrap(), net);
        let bucketed = Architecture { king_buckets: KING_BUCKETS, hidden: 16, output_buckets: 1 };
        assert!(Network::random_arch(bucketed, 1).to_bytes_v1().is_none());
    }

    /// Every architecture: the header names it, the length is its own, and the bytes read back as the network.
    #[test]
    fn bucketed_round_trip() {
        for (kb, ob) in [(1, 8), (KING_BUCKETS, 1), (KING_BUCKETS, 8), (KING_BUCKETS, 3)] {
            let arch = Architecture { king_buckets: kb, hidden: 32, output_buckets: ob };
            let net = Network::random_arch(arch, 3);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), arch.file_len());
            assert_eq!(bytes.len(), 52 + 2 * (kb * 1260 * 32 + 32 + ob * 64) + 4 * ob);
            assert_eq!([u32_at(&bytes, 16), u32_at(&bytes, 20), u32_at(&bytes, 24)], [kb as u32, 32, ob as u32]);
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back, net);
            assert_eq!(back.architecture(), arch);
        }
    }

    #[test]
    fn from_parts_refuses_what_the_reader_refuses() {
        let parts = |h: usize| (vec![0i16; INPUTS * h], vec![0i16; h], vec![0i16; 2 * h]);
        let (w1, b1, w2) = parts(24);
        assert!(matches!(Network::from_parts(400, 0, w1, b1, w2, 0), Err(LoadError::Architecture { hidden: 24, .. })));
        let (w1, b1, w2) = parts(16);
        assert!(matches!(Network::from_parts(0, 0, w1, b1, w2, 0), Err(LoadError::Quantization { scale: 0, .. })));
        let (w1, b1, mut w2) = parts(16);
        w2[3] = -128;
        assert!(matches!(
            Network::from_parts(400, 0, w1, b1, w2, 0),
            Err(LoadError::OutputWeight { index: 3, value: -128 })
        ));
        let (w1, b1, _) = parts(16);
        assert!(matches!(
            Network::from_parts(400, 0, w1, b1, vec![0; 31], 0),
            Err(LoadError::Shape { what: "W2", found: 31, expected: 32, hidden: 16 })
        ));
        let (w1, b1, w2) = parts(16);
        assert!(Network::from_parts(MAX_SCALE, 0, w1, b1, w2, 0).is_ok());
    }

    #[test]
    fn save_writes_what_load_reads() {
        let dir = std::env::temp_dir().join(format!("xiangqi-eval-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("n.nnue");
        let net = Network::random(16, 2);
        net.save(&path).unwrap();
        assert_eq!(Network::load(&path).unwrap(), net);
        assert!(!dir.join("n.nnue.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
