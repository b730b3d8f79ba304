//! Trains the NNUE evaluation of the xiangqi engine from the records of `xiangqi datagen` and writes the quantized
//! network file the engine loads.
//!
//! Without features this crate holds what needs no machine-learning library: the float network, its quantization
//! into the engine's network and a reference integer forward pass that follows the engine's arithmetic ([`net`]),
//! the training target ([`data`]) and the loss chart ([`chart`]). The feature `train` adds the trainer on candle
//! ([`train`]) and the `xiangqi-train` command; it is off by default, so the workspace's build and tests never
//! compile candle (`cargo test -p xiangqi-train --features train` runs the training tests).
//!
//! # Formats
//! Both files are defined once, in [`xiangqi_eval::nnue`], and this crate uses those definitions:
//! - **Data file** (`XQDATA01`, 50-byte records written by `xiangqi datagen`): [`xiangqi_eval::nnue::data`], with
//!   [`data::Record`] and [`data::read_records`] re-exported in [`data`].
//! - **Features** of a record: [`data::Record::features`], the inputs of [`xiangqi_eval::nnue::feature`], 1260 of them.
//! - **Network**: `acc_p = b1 + sum W1[f]` for both perspectives, `out = sum a(acc_stm) W2[b][..H] +
//!   sum a(acc_other) W2[b][H..] + b2[b]`, `a(x) = clamp(x, 0, 1)^2`; the evaluation is `out * SCALE` engine
//!   units. With king buckets the features are read relative to each side's own king
//!   ([`xiangqi_eval::nnue::bucketed_feature`]); `b` is the output bucket by material (0 with one bucket). The
//!   target blends the result and the score: `lambda * result / 2 + (1 - lambda) * sigmoid(score / SCALE)`,
//!   against `sigmoid(out)`; weights are clipped to [-1.98, 1.98]. `SCALE` is 400 unless fitted to the data
//!   ([`data::fit_scale`]).
//! - **Network file** (`.nnue`): [`xiangqi_eval::nnue::Network`]; [`net::FloatNet::quantize`] makes one
//!   (`W1q = round(W1 * QA)`, `W2q = round(W2 * QB)`, `b2q = round(b2 * QA * QB)`), [`Network::save`] writes it
//!   with the training hash ([`net::training_hash`]) in its header, and the engine loads it with [`Network::load`].
//!
//! [`Network::save`]: xiangqi_eval::nnue::Network::save
//! [`Network::load`]: xiangqi_eval::nnue::Network::load
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_eval::nnue::{Architecture, Network};
//! use xiangqi_eval::Evaluate;
//! use xiangqi_train::data::Record;
//! use xiangqi_train::net::{reference_eval, FloatNet};
//!
//! // A record of the start position, Red to move, searched at +15, the game drawn.
//! let pos = Position::startpos();
//! let rec = Record::from_position(&pos, 15, 1);
//! assert_eq!(Record::decode(&rec.encode()), Ok(rec));
//!
//! // A tiny network that scores one own chariot on a0 at +0.5 (200 engine units) and nothing else.
//! let hidden = 16;
//! let mut net = FloatNet::zeros(Architecture::plain(hidden), 400);
//! net.w1[4 * 90 * hidden] = 1.0; // input 360: own chariot on point 0, hidden unit 0
//! net.w2[0] = 0.5;
//! let bytes = net.quantize().unwrap().to_bytes();
//! assert_eq!(bytes.len(), Network::file_len(hidden));
//! let engine = Network::from_bytes(&bytes).unwrap(); // what the engine reads
//! assert_eq!(reference_eval(&engine, &rec), 200); // Red to move owns the chariot on a0
//! assert_eq!(engine.evaluate(&pos), 200);
//! assert_eq!(net.evaluate(&rec), 200.0);
//! ```

pub mod chart;
pub mod data;
pub mod net;
#[cfg(feature = "train")]
pub mod train;
