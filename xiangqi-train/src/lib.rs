//! Trains the NNUE evaluation of the xiangqi engine from the records of `xiangqi datagen` and writes the quantized
//! network file the engine loads.
//!
//! Without features this crate holds what needs no machine-learning library: the 50-byte training record and its
//! file ([`data`]), the input features, the float network, its quantization and the `.nnue` file with a reference
//! integer forward pass that follows the engine's arithmetic ([`net`]), and the loss chart ([`chart`]). The feature
//! `train` adds the trainer on candle ([`train`]) and the `xiangqi-train` command; it is off by default, so the
//! workspace's build and tests never compile candle (`cargo test -p xiangqi-train --features train --release` runs
//! the training smoke test).
//!
//! # Formats
//! - **Data file**: `XQDATA01`, then 50-byte records: the board as 90 nibbles (point `i = rank * 9 + file` in byte
//!   `i / 2`, low nibble for even `i`; 0 empty, `1 + kind` Red, `9 + kind` Black, kinds King, Advisor, Elephant,
//!   Horse, Chariot, Cannon, Soldier), the side to move (0 Red, 1 Black), the result for the side to move (0 loss,
//!   1 draw, 2 win), a reserved 0, and the search score for the side to move (i16 LE, within -10000..=10000).
//! - **Features** of perspective `p`: a piece of colour `c`, kind `k` on point `s` is input `((c == p ? 0 : 1) * 7
//!   + k) * 90 + s'`, `s' = s` for Red and the rank-mirrored point for Black: 1260 inputs.
//! - **Network**: `acc_p = b1 + sum W1[f]` for both perspectives, `out = sum a(acc_stm) W2[..H] + sum a(acc_other)
//!   W2[H..] + b2`, `a(x) = clamp(x, 0, 1)^2`; the evaluation is `out * SCALE` engine units. The target blends the
//!   result and the score: `lambda * result / 2 + (1 - lambda) * sigmoid(score / SCALE)`, against
//!   `sigmoid(out)`; weights are clipped to [-1.98, 1.98].
//! - **Network file**: `XQNNUE\0\0`, u32 version 1, inputs 1260, hidden H, outputs 1, QA 255, QB 64, SCALE 400,
//!   u64 training hash ([`net::training_hash`]), then i16 `W1q[1260][H]`, i16 `b1q[H]`, i16 `W2q[2H]`, i32 `b2q`,
//!   all little-endian, nothing after; `W1q = round(W1 * QA)`, `W2q = round(W2 * QB)`, `b2q = round(b2 * QA * QB)`.
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_train::data::Record;
//! use xiangqi_train::net::{FloatNet, QuantNet, file_len};
//!
//! // A record of the start position, Red to move, searched at +15, the game drawn.
//! let rec = Record::from_position(&Position::startpos(), 15, 1);
//! assert_eq!(Record::decode(&rec.encode()), Ok(rec));
//!
//! // A tiny network that scores one own chariot on a0 at +0.5 (200 engine units) and nothing else.
//! let hidden = 4;
//! let mut net = FloatNet { hidden, w1: vec![0.0; 1260 * hidden], b1: vec![0.0; hidden], w2: vec![0.0; 8], b2: 0.0 };
//! net.w1[4 * 90 * hidden] = 1.0; // input 360: own chariot on point 0, hidden unit 0
//! net.w2[0] = 0.5;
//! let bytes = net.quantize().to_bytes();
//! assert_eq!(bytes.len(), file_len(hidden));
//! let q = QuantNet::parse(&bytes).unwrap();
//! assert_eq!(q.evaluate(&rec), 200); // Red to move owns the chariot on a0
//! assert_eq!(net.evaluate(&rec), 200.0);
//! ```

pub mod chart;
pub mod data;
pub mod net;
#[cfg(feature = "train")]
pub mod train;
