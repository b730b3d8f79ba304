//! The network file (`.nnue`): its one definition. [`Network`] is what a file holds; [`Network::from_bytes`] and
//! [`Network::load`] read it with every check, [`Network::to_bytes`] and [`Network::save`] write it, and
//! [`Network::from_parts`] builds one from quantized weights (what the trainer writes) with the same checks, so that
//! whatever is written can be read. The layout is in the [module docs](super).

use super::features::INPUTS;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::path::{Path, PathBuf};

/// The file's first 8 bytes.
pub const MAGIC: [u8; 8] = *b"XQNNUE\0\0";
/// The format version this engine reads and writes.
pub const VERSION: u32 = 1;
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
/// The header's length in bytes.
pub const HEADER_LEN: usize = 8 + 4 + 3 * 4 + 3 * 4 + 8;
/// The largest output weight in absolute value (the trainer clips weights to 1.98, times `QB` is 127): it keeps
/// `clamp(acc, 0, QA) * W2` within `i16`, which the vectorized output layer relies on.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

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
    #[error("network format version {found}, this engine reads version {VERSION}")]
    Version {
        /// The file's version.
        found: u32,
    },
    /// Another architecture.
    #[error(
        "network architecture {inputs}x{hidden}x{outputs}, this engine reads {INPUTS} inputs, one output and a \
         hidden size that is a multiple of {CHUNK} from {CHUNK} to {MAX_HIDDEN}"
    )]
    Architecture {
        /// Inputs in the file.
        inputs: u32,
        /// Hidden size in the file.
        hidden: u32,
        /// Outputs in the file.
        outputs: u32,
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
    /// Weights given to [`Network::from_parts`] whose count does not fit the hidden size (the length of `b1`).
    #[error("network weights {what}: {found} values, a hidden size of {hidden} needs {expected}")]
    Shape {
        /// Which weights: `W1` or `W2`.
        what: &'static str,
        /// How many were given.
        found: usize,
        /// How many the hidden size needs.
        expected: usize,
        /// The hidden size.
        hidden: usize,
    },
}

/// A quantized network: what a `.nnue` file holds, ready for inference.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub(super) hidden: usize,
    pub(super) scale: i32,
    pub(super) hash: u64,
    /// `INPUTS` rows of `hidden` weights.
    pub(super) w1: Box<[i16]>,
    pub(super) b1: Box<[i16]>,
    /// `2 * hidden`: the side to move's half first.
    pub(super) w2: Box<[i16]>,
    pub(super) b2: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &self.hidden)
            .field("scale", &self.scale)
            .field("hash", &format_args!("{:016x}", self.hash))
            .finish_non_exhaustive()
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// The architecture check: [`INPUTS`] inputs, [`OUTPUTS`] output, a hidden size that is a multiple of [`CHUNK`] up
/// to [`MAX_HIDDEN`]. Returns the hidden size.
fn check_architecture(inputs: u32, hidden: u32, outputs: u32) -> Result<usize, LoadError> {
    let h = hidden as usize;
    if inputs as usize != INPUTS || outputs as usize != OUTPUTS || h == 0 || h > MAX_HIDDEN || h % CHUNK != 0 {
        return Err(LoadError::Architecture { inputs, hidden, outputs });
    }
    Ok(h)
}

/// The quantization check: [`QA`], [`QB`] and a scale within `1..=MAX_SCALE`.
fn check_quantization(qa: u32, qb: u32, scale: u32) -> Result<(), LoadError> {
    if qa != QA as u32 || qb != QB as u32 || !(1..=MAX_SCALE as u32).contains(&scale) {
        return Err(LoadError::Quantization { qa, qb, scale });
    }
    Ok(())
}

impl Network {
    /// The file length for a hidden size.
    pub const fn file_len(hidden: usize) -> usize {
        HEADER_LEN + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
    }

    /// Whether `hidden` is a hidden size a file may have: a multiple of [`CHUNK`] from [`CHUNK`] to [`MAX_HIDDEN`].
    ///
    /// ```
    /// use xiangqi_eval::nnue::Network;
    /// assert!(Network::hidden_size_ok(256));
    /// assert!(!Network::hidden_size_ok(100) && !Network::hidden_size_ok(0) && !Network::hidden_size_ok(2048));
    /// ```
    pub fn hidden_size_ok(hidden: usize) -> bool {
        u32::try_from(hidden).is_ok_and(|h| check_architecture(INPUTS as u32, h, OUTPUTS as u32).is_ok())
    }

    /// A network from its quantized weights, with the checks a file gets: the hidden size is the length of `b1`,
    /// `w1` holds [`INPUTS`] rows of it (feature-major), `w2` twice it (the side to move's half first), and every
    /// output weight is within [`MAX_OUTPUT_WEIGHT`]; `scale` is within `1..=MAX_SCALE`; `hash` is the training hash
    /// of the header (0 when unknown).
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
        let hidden = u32::try_from(b1.len()).unwrap_or(u32::MAX);
        let h = check_architecture(INPUTS as u32, hidden, OUTPUTS as u32)?;
        check_quantization(QA as u32, QB as u32, u32::try_from(scale).unwrap_or(0))?;
        for (what, found, expected) in [("W1", w1.len(), INPUTS * h), ("W2", w2.len(), 2 * h)] {
            if found != expected {
                return Err(LoadError::Shape { what, found, expected, hidden: h });
            }
        }
        if let Some((index, &value)) = w2.iter().enumerate().find(|(_, w)| w.abs() > MAX_OUTPUT_WEIGHT) {
            return Err(LoadError::OutputWeight { index, value });
        }
        Ok(Network { hidden: h, scale, hash, w1: w1.into(), b1: b1.into(), w2: w2.into(), b2 })
    }

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<Network, LoadError> {
        let bytes = std::fs::read(path).map_err(|source| match source.kind() {
            std::io::ErrorKind::NotFound => LoadError::Missing(path.to_owned()),
            _ => LoadError::Io { path: path.to_owned(), source },
        })?;
        Network::from_bytes(&bytes)
    }

    /// Parses the bytes of a network file: the magic, the version, the architecture, the quantization, the length
    /// the header implies, and the weights as [`Network::from_parts`] checks them.
    pub fn from_bytes(b: &[u8]) -> Result<Network, LoadError> {
        let head = &b[..b.len().min(8)];
        if head != &MAGIC[..head.len()] {
            return Err(LoadError::BadMagic { found: head.to_vec() });
        }
        if b.len() < HEADER_LEN {
            return Err(LoadError::Truncated { found: b.len(), expected: HEADER_LEN });
        }
        let version = u32_at(b, 8);
        if version != VERSION {
            return Err(LoadError::Version { found: version });
        }
        let h = check_architecture(u32_at(b, 12), u32_at(b, 16), u32_at(b, 20))?;
        let scale = u32_at(b, 32);
        check_quantization(u32_at(b, 24), u32_at(b, 28), scale)?;
        let hash = u64::from_le_bytes(b[36..44].try_into().expect("8 bytes"));
        let expected = Network::file_len(h);
        if b.len() < expected {
            return Err(LoadError::Truncated { found: b.len(), expected });
        }
        if b.len() > expected {
            return Err(LoadError::TooLong { found: b.len(), expected });
        }
        let mut at = HEADER_LEN;
        let mut take = |n: usize| -> Vec<i16> {
            let v = b[at..at + 2 * n].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
            at += 2 * n;
            v
        };
        let (w1, b1, w2) = (take(INPUTS * h), take(h), take(2 * h));
        let b2 = i32::from_le_bytes(b[expected - 4..expected].try_into().expect("4 bytes"));
        Network::from_parts(scale as i32, hash, w1, b1, w2, b2)
    }

    /// The bytes of the network's file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Network::file_len(self.hidden));
        out.extend_from_slice(&MAGIC);
        for v in [VERSION, INPUTS as u32, self.hidden as u32, OUTPUTS as u32, QA as u32, QB as u32, self.scale as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.hash.to_le_bytes());
        for w in self.w1.iter().chain(self.b1.iter()).chain(self.w2.iter()) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
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

    /// A seeded random network of `hidden` neurons (a multiple of [`CHUNK`] up to [`MAX_HIDDEN`]), with weights in
    /// the ranges a trained one has: for tests, examples and speed measurements, not for play.
    ///
    /// # Panics
    /// When `hidden` is not such a size.
    pub fn random(hidden: usize, seed: u64) -> Network {
        assert!(Network::hidden_size_ok(hidden), "hidden size {hidden}");
        let mut rng = StdRng::seed_from_u64(seed);
        let mut fill = |n: usize, r: i32| -> Box<[i16]> { (0..n).map(|_| rng.random_range(-r..=r) as i16).collect() };
        let w1 = fill(INPUTS * hidden, 60);
        let b1 = fill(hidden, 120);
        let w2 = fill(2 * hidden, i32::from(MAX_OUTPUT_WEIGHT));
        let b2 = rng.random_range(-(QA * QB)..=QA * QB);
        Network { hidden, scale: DEFAULT_SCALE, hash: seed, w1, b1, w2, b2 }
    }

    /// The hidden size `H`.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The scale from the network's output to evaluation units.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The training hash of the header (0 when unknown).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// `W1q`: [`INPUTS`] rows of `H` weights, feature-major.
    pub fn w1(&self) -> &[i16] {
        &self.w1
    }

    /// `b1q`: `H` biases of the hidden layer.
    pub fn b1(&self) -> &[i16] {
        &self.b1
    }

    /// `W2q`: `2H` output weights, the side to move's half first.
    pub fn w2(&self) -> &[i16] {
        &self.w2
    }

    /// `b2q`: the output bias.
    pub fn b2(&self) -> i32 {
        self.b2
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
        assert_eq!(Network::file_len(256), 44 + 2 * (1260 * 256 + 256 + 512) + 4);
        assert_eq!(&bytes[..8], b"XQNNUE\0\0");
        let header: Vec<u32> = bytes[8..36].chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(header, [1, 1260, 16, 1, 255, 64, 400]);
        assert_eq!(u64::from_le_bytes(bytes[36..44].try_into().unwrap()), 0x0123_4567_89ab_cdef);
        // W1q of feature 1, weight 0 sits right after feature 0's 16 weights; b1q, W2q and b2q follow W1q.
        assert_eq!(i16::from_le_bytes([bytes[44 + 32], bytes[45 + 32]]), net.w1()[16]);
        let b1_at = 44 + 2 * 1260 * 16;
        assert_eq!(i16::from_le_bytes([bytes[b1_at], bytes[b1_at + 1]]), net.b1()[0]);
        let w2_at = b1_at + 2 * 16;
        assert_eq!(i16::from_le_bytes([bytes[w2_at], bytes[w2_at + 1]]), net.w2()[0]);
        assert_eq!(i32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap()), net.b2());
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
