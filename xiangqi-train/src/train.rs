//! The trainer (feature `train`): the perspective network on candle (plain or king-bucketed inputs, one or several
//! output buckets), AdamW, the blended target, weight clipping, a learning-rate schedule (step drops, or cosine
//! decay to a final fraction as the bullet trainer's `CosineDecayLR` does), a held-out validation loss, and early
//! stopping: the network of the epoch with the lowest validation loss is the one returned, and `patience` epochs
//! without a new minimum end the run.
//!
//! The first layer is sparse: a position has at most 32 active inputs of 1260 per perspective, so each accumulator
//! is the sum of the rows of `W1` its inputs select, and the gradient of `W1` adds each accumulator's gradient to
//! those rows. [`SparseAffine`], a candle custom operation, does both in place, in plain loops; both perspectives of
//! a batch go through it at once. Two other ways compute the same with candle's own operations, for comparison
//! ([`FirstLayer`]): a gather (`index_select` of the rows, then `index_add` per position), which materialises a row
//! per active input and its gradient, and a dense 0/1 input matrix times `W1`.

use std::sync::Arc;
use std::time::Instant;

use candle_core::{CpuStorage, DType, Device, Layout, Shape, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use crate::chart::LossPoint;
use crate::data::{target, Record};
use crate::net::{FloatNet, SCALE, WEIGHT_CLIP};
use xiangqi_eval::nnue::Architecture;

/// The training settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Hidden size H per perspective.
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// The starting learning rate.
    pub lr: f64,
    /// How the learning rate changes over the run.
    pub schedule: LrSchedule,
    /// [`LrSchedule::Step`]: the learning rate is multiplied by `lr_drop` after every `lr_step` epochs (0: never).
    pub lr_step: usize,
    /// [`LrSchedule::Step`]: the factor of each drop.
    pub lr_drop: f64,
    /// [`LrSchedule::Cosine`]: the final learning rate as a fraction of `lr`.
    pub lr_end: f64,
    /// Stop after this many epochs without a new minimum of the validation loss (0: run every epoch). Either way
    /// the network returned is the one of the epoch with the lowest validation loss.
    pub patience: usize,
    /// King buckets: 1 (plain inputs) or [`xiangqi_eval::nnue::KING_BUCKETS`].
    pub king_buckets: usize,
    /// Output buckets by material (1 to [`xiangqi_eval::nnue::MAX_OUTPUT_BUCKETS`]).
    pub output_buckets: usize,
    /// The scale `K` of the target's `sigmoid(score / K)`, and the network's output scale in engine units
    /// (written in the file's header); [`crate::data::fit_scale`] fits it to the data.
    pub scale: i32,
    /// The weight of the game result in the target (the rest is the search score's win probability).
    pub lambda: f32,
    /// The seed of the initial weights and the shuffles.
    pub seed: u64,
    /// The fraction of positions held out for the validation loss: the last records of the data, that is the last
    /// games written.
    pub validation: f64,
    /// Report the running training loss every this many batches (0: only at the end of each epoch).
    pub report_every: usize,
    /// How the first layer is computed (all give the same result; [`FirstLayer::Sparse`] is the fastest).
    pub first_layer: FirstLayer,
}

/// How the learning rate changes over a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LrSchedule {
    /// Multiplied by `lr_drop` after every `lr_step` epochs.
    #[default]
    Step,
    /// Cosine decay from `lr` to `lr * lr_end` over all the batches of all the epochs, batch by batch:
    /// `end + (lr - end) * (1 + cos(pi * t)) / 2` at the fraction `t` of the run done.
    Cosine,
}

/// The learning rate of batch `batch` (from 0) of epoch `epoch` (from 1), with `batches` batches an epoch.
///
/// ```
/// use xiangqi_train::train::{lr_at, LrSchedule, Options};
///
/// let step = Options { lr: 0.01, lr_step: 2, lr_drop: 0.5, epochs: 4, ..Options::default() };
/// assert_eq!([1, 2, 3, 4].map(|e| lr_at(&step, e, 0, 10)), [0.01, 0.01, 0.005, 0.005]);
/// let cosine = Options { schedule: LrSchedule::Cosine, lr_end: 0.1, ..step };
/// assert!((lr_at(&cosine, 1, 0, 10) - 0.01).abs() < 1e-12);
/// assert!((lr_at(&cosine, 3, 0, 10) - 0.0055).abs() < 1e-12); // half way: the mean of 0.01 and 0.001
/// assert!((lr_at(&cosine, 4, 9, 10) - 0.001).abs() < 2e-5); // the last batch: nearly the end rate
/// ```
pub fn lr_at(opts: &Options, epoch: usize, batch: usize, batches: usize) -> f64 {
    match opts.schedule {
        LrSchedule::Step => {
            let drops = epoch.saturating_sub(1).checked_div(opts.lr_step).unwrap_or(0) as i32;
            opts.lr * opts.lr_drop.powi(drops)
        }
        LrSchedule::Cosine => {
            let total = (opts.epochs * batches).max(1) as f64;
            let t = ((epoch.saturating_sub(1) * batches + batch) as f64 / total).min(1.0);
            let end = opts.lr * opts.lr_end;
            end + (opts.lr - end) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos())
        }
    }
}

/// How the trainer computes the first layer (the accumulators) and its gradient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FirstLayer {
    /// [`SparseAffine`]: sums of the selected rows of `W1`, the gradient added back to those rows.
    #[default]
    Sparse,
    /// candle's `index_select` of a row per active input, then `index_add` into the accumulators.
    Gather,
    /// A dense 0/1 input matrix `[2n, 1260]` times `W1`.
    Dense,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hidden: 256,
            epochs: 10,
            batch: 16384,
            lr: 0.001,
            schedule: LrSchedule::Step,
            lr_step: 4,
            lr_drop: 0.3,
            lr_end: 0.05,
            patience: 0,
            king_buckets: 1,
            output_buckets: 1,
            scale: SCALE,
            lambda: 0.5,
            seed: 1,
            validation: 0.02,
            report_every: 50,
            first_layer: FirstLayer::Sparse,
        }
    }
}

/// What the trainer reports while it runs.
#[derive(Debug, Clone)]
pub enum Event {
    /// Every `report_every` batches: the running mean training loss and the speed.
    Progress {
        /// Epoch, from 1.
        epoch: usize,
        /// Batches done in this epoch.
        batch: usize,
        /// Batches per epoch.
        batches: usize,
        /// Mean loss over the batches since the previous report.
        loss: f64,
        /// Training positions per second over the same batches.
        positions_per_second: f64,
    },
    /// The end of an epoch.
    Epoch {
        /// Epoch, from 1.
        epoch: usize,
        /// Mean training loss over the epoch.
        train_loss: f64,
        /// The loss on the held-out positions after the epoch.
        validation_loss: f64,
        /// The learning rate at the epoch's last batch.
        lr: f64,
        /// Whether this epoch's validation loss is the lowest so far (its network is the one a run returns if no
        /// later epoch beats it).
        best: bool,
        /// Training positions per second over the epoch.
        positions_per_second: f64,
        /// The network after the epoch.
        net: Box<FloatNet>,
        /// The loss curve so far.
        curve: Vec<LossPoint>,
    },
}

/// What a run produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The trained float network: the one of the epoch with the lowest validation loss.
    pub net: FloatNet,
    /// That epoch (from 1).
    pub best_epoch: usize,
    /// Its validation loss.
    pub best_validation_loss: f64,
    /// The epochs run (fewer than asked when early stopping ended the run).
    pub epochs_run: usize,
    /// The loss curve: a point per report and per epoch end.
    pub curve: Vec<LossPoint>,
    /// The validation loss of the untrained network.
    pub initial_validation_loss: f64,
    /// Training and validation positions.
    pub split: (usize, usize),
    /// The held-out positions.
    pub validation: Vec<Record>,
}

/// An error of the trainer.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// Fewer positions than needed for a batch and a validation set.
    #[error("too few positions: {0} (need at least 2 and a batch of at least 1)")]
    TooFewPositions(usize),
    /// A bad option.
    #[error("{0}")]
    Option(String),
    /// The tensor library failed.
    #[error("tensor error: {0}")]
    Candle(#[from] candle_core::Error),
}

struct Model {
    w1: Var,
    b1: Var,
    /// `[output buckets, 2H]`.
    w2: Var,
    /// `[output buckets]`.
    b2: Var,
    arch: Architecture,
    scale: i32,
}

/// What a batch's tensors depend on besides its records.
#[derive(Debug, Clone, Copy)]
struct Spec {
    lambda: f32,
    scale: i32,
    king_buckets: usize,
    output_buckets: usize,
}

/// A batch of positions: the active inputs of both perspectives, the side to move's accumulators first (rows
/// `0..n`), then the other side's (rows `n..2n`).
struct Batch {
    /// The active inputs, row after row.
    inputs: Arc<Vec<u16>>,
    /// Row `r`'s inputs are `inputs[starts[r]..starts[r + 1]]`.
    starts: Arc<Vec<u32>>,
    /// Gather: the active inputs as a tensor.
    idx: Option<Tensor>,
    /// Gather: the accumulator row of each input.
    rows: Option<Tensor>,
    /// Dense: the 0/1 input matrix `[2n, INPUTS]`.
    dense: Option<Tensor>,
    /// `[n, 1]` targets.
    target: Tensor,
    /// `[n, output buckets]`: 1 in each position's output bucket, 0 elsewhere (with several buckets).
    bucket_mask: Option<Tensor>,
    n: usize,
}

fn make_batch(recs: &[Record], spec: Spec, layer: FirstLayer, dev: &Device) -> candle_core::Result<Batch> {
    let inputs_count = spec.king_buckets * xiangqi_eval::nnue::INPUTS;
    let ob = spec.output_buckets;
    let n = recs.len();
    let mut inputs = Vec::with_capacity(n * 64);
    let mut starts = Vec::with_capacity(2 * n + 1);
    starts.push(0u32);
    let mut targets = Vec::with_capacity(n);
    let mut others = Vec::with_capacity(n);
    for rec in recs {
        let (stm, other) = rec.both_features_for(spec.king_buckets);
        inputs.extend_from_slice(stm.as_slice());
        starts.push(inputs.len() as u32);
        others.push(other);
        targets.push(target(rec, spec.lambda, spec.scale as f32));
    }
    let bucket_mask = if ob > 1 {
        let mut m = vec![0f32; n * ob];
        for (i, rec) in recs.iter().enumerate() {
            m[i * ob + rec.output_bucket(ob)] = 1.0;
        }
        Some(Tensor::from_vec(m, (n, ob), dev)?)
    } else {
        None
    };
    for other in &others {
        inputs.extend_from_slice(other.as_slice());
        starts.push(inputs.len() as u32);
    }
    let row_of = || (0..2 * n).flat_map(|r| (starts[r]..starts[r + 1]).map(move |_| r as u32));
    let (mut idx, mut rows, mut dense) = (None, None, None);
    match layer {
        FirstLayer::Sparse => {}
        FirstLayer::Gather => {
            let len = inputs.len();
            idx = Some(Tensor::from_vec(inputs.iter().map(|&f| u32::from(f)).collect::<Vec<u32>>(), len, dev)?);
            rows = Some(Tensor::from_vec(row_of().collect::<Vec<u32>>(), len, dev)?);
        }
        FirstLayer::Dense => {
            let mut m = vec![0f32; 2 * n * inputs_count];
            for (&f, r) in inputs.iter().zip(row_of()) {
                m[r as usize * inputs_count + usize::from(f)] = 1.0;
            }
            dense = Some(Tensor::from_vec(m, (2 * n, inputs_count), dev)?);
        }
    }
    Ok(Batch {
        inputs: Arc::new(inputs),
        starts: Arc::new(starts),
        idx,
        rows,
        dense,
        target: Tensor::from_vec(targets, (n, 1), dev)?,
        bucket_mask,
        n,
    })
}

/// The first layer as a candle custom operation on `W1` (`[INPUTS, H]`): row `r` of the result (`[rows, H]`) is
/// the sum of the rows of `W1` that `inputs[starts[r]..starts[r + 1]]` select. Its gradient with respect to `W1`
/// adds row `r` of the incoming gradient to each of those rows. Neither pass materialises a row per input.
#[derive(Debug, Clone)]
pub struct SparseAffine {
    inputs: Arc<Vec<u16>>,
    starts: Arc<Vec<u32>>,
}

impl SparseAffine {
    /// The operation for the given rows of active inputs (`starts` has one entry per row plus one).
    pub fn new(inputs: Arc<Vec<u16>>, starts: Arc<Vec<u32>>) -> SparseAffine {
        SparseAffine { inputs, starts }
    }

    fn rows(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    fn row_inputs(&self, r: usize) -> &[u16] {
        &self.inputs[self.starts[r] as usize..self.starts[r + 1] as usize]
    }
}

impl candle_core::CustomOp1 for SparseAffine {
    fn name(&self) -> &'static str {
        "sparse-affine"
    }

    fn cpu_fwd(&self, storage: &CpuStorage, layout: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let (inputs, h) = layout.shape().dims2()?;
        let w = match (storage, layout.contiguous_offsets()) {
            (CpuStorage::F32(w), Some((a, b))) => &w[a..b],
            _ => candle_core::bail!("sparse-affine: W1 must be a contiguous f32 matrix"),
        };
        if let Some(&bad) = self.inputs.iter().find(|&&f| usize::from(f) >= inputs) {
            candle_core::bail!("sparse-affine: input {bad} outside 0..{inputs}");
        }
        let mut out = vec![0f32; self.rows() * h];
        for (r, acc) in out.chunks_exact_mut(h).enumerate() {
            for &f in self.row_inputs(r) {
                let row = &w[usize::from(f) * h..(usize::from(f) + 1) * h];
                acc.iter_mut().zip(row).for_each(|(a, x)| *a += x);
            }
        }
        Ok((CpuStorage::F32(out), Shape::from((self.rows(), h))))
    }

    fn bwd(&self, arg: &Tensor, _res: &Tensor, grad_res: &Tensor) -> candle_core::Result<Option<Tensor>> {
        let (inputs, h) = arg.dims2()?;
        let g: Vec<f32> = grad_res.contiguous()?.flatten_all()?.to_vec1()?;
        let mut gw = vec![0f32; inputs * h];
        for (r, gr) in g.chunks_exact(h).enumerate() {
            for &f in self.row_inputs(r) {
                let row = &mut gw[usize::from(f) * h..(usize::from(f) + 1) * h];
                row.iter_mut().zip(gr).for_each(|(a, x)| *a += x);
            }
        }
        Ok(Some(Tensor::from_vec(gw, (inputs, h), arg.device())?))
    }
}

impl Model {
    fn new(arch: Architecture, scale: i32, rng: &mut StdRng, dev: &Device) -> candle_core::Result<Model> {
        // Uniform initialisations: W1 so that a position's ~30 active inputs give accumulators of a few tenths,
        // W2 by the fan-in of the output.
        let mut uniform =
            |count: usize, bound: f32| -> Vec<f32> { (0..count).map(|_| rng.random_range(-bound..bound)).collect() };
        let (hidden, ob) = (arch.hidden, arch.output_buckets);
        let w1 = uniform(arch.inputs() * hidden, 0.1);
        let w2 = uniform(ob * 2 * hidden, 1.0 / (2.0 * hidden as f32).sqrt());
        Ok(Model {
            w1: Var::from_tensor(&Tensor::from_vec(w1, (arch.inputs(), hidden), dev)?)?,
            b1: Var::from_tensor(&Tensor::full(0.1f32, hidden, dev)?)?,
            w2: Var::from_tensor(&Tensor::from_vec(w2, (ob, 2 * hidden), dev)?)?,
            b2: Var::from_tensor(&Tensor::zeros(ob, DType::F32, dev)?)?,
            arch,
            scale,
        })
    }

    fn spec(&self, lambda: f32) -> Spec {
        Spec {
            lambda,
            scale: self.scale,
            king_buckets: self.arch.king_buckets,
            output_buckets: self.arch.output_buckets,
        }
    }

    fn vars(&self) -> Vec<Var> {
        vec![self.w1.clone(), self.b1.clone(), self.w2.clone(), self.b2.clone()]
    }

    /// The raw outputs `[n, 1]`.
    fn forward(&self, b: &Batch) -> candle_core::Result<Tensor> {
        let n = b.n;
        let w1 = self.w1.as_tensor();
        let acc = match (&b.dense, &b.idx, &b.rows) {
            (Some(x), _, _) => x.matmul(w1)?,
            (None, Some(idx), Some(rows)) => {
                let picked = w1.index_select(idx, 0)?;
                Tensor::zeros((2 * n, self.arch.hidden), DType::F32, w1.device())?.index_add(rows, &picked, 0)?
            }
            _ => w1.apply_op1(SparseAffine::new(b.inputs.clone(), b.starts.clone()))?,
        };
        let acc = acc.broadcast_add(self.b1.as_tensor())?;
        let a = acc.clamp(0f32, 1f32)?.sqr()?;
        // [2n, H] -> [n, 2H]: the side to move's activations, then the other side's.
        let a = Tensor::cat(&[a.narrow(0, 0, n)?, a.narrow(0, n, n)?], 1)?;
        // [n, 2H] x [2H, OB] + b2: every bucket's output; the mask keeps each position's own bucket.
        let out = a.matmul(&self.w2.as_tensor().t()?)?.broadcast_add(self.b2.as_tensor())?;
        match &b.bucket_mask {
            None => Ok(out),
            Some(mask) => out.mul(mask)?.sum_keepdim(1),
        }
    }

    fn loss(&self, b: &Batch) -> candle_core::Result<Tensor> {
        let pred = candle_nn::ops::sigmoid(&self.forward(b)?)?;
        pred.sub(&b.target)?.sqr()?.mean_all()
    }

    fn clip(&self) -> candle_core::Result<()> {
        for v in self.vars() {
            v.set(&v.as_tensor().clamp(-WEIGHT_CLIP, WEIGHT_CLIP)?)?;
        }
        Ok(())
    }

    fn to_float(&self) -> candle_core::Result<FloatNet> {
        Ok(FloatNet {
            w1: self.w1.as_tensor().flatten_all()?.to_vec1()?,
            b1: self.b1.as_tensor().to_vec1()?,
            w2: self.w2.as_tensor().flatten_all()?.to_vec1()?,
            b2: self.b2.as_tensor().to_vec1()?,
            hidden: self.arch.hidden,
            king_buckets: self.arch.king_buckets,
            output_buckets: self.arch.output_buckets,
            scale: self.scale,
        })
    }
}

/// The mean loss of `model` over `recs`, in batches of `batch`.
fn mean_loss(model: &Model, recs: &[Record], batch: usize, lambda: f32, dev: &Device) -> candle_core::Result<f64> {
    let mut sum = 0.0;
    for chunk in recs.chunks(batch) {
        let b = make_batch(chunk, model.spec(lambda), FirstLayer::Sparse, dev)?;
        sum += f64::from(model.loss(&b)?.to_scalar::<f32>()?) * chunk.len() as f64;
    }
    Ok(sum / recs.len().max(1) as f64)
}

/// Trains a network on `records` (which it shuffles), calling `report` with progress.
pub fn train(mut records: Vec<Record>, opts: &Options, mut report: impl FnMut(&Event)) -> Result<Outcome, TrainError> {
    // Only a network the engine can read is worth training.
    if !xiangqi_eval::nnue::Network::hidden_size_ok(opts.hidden) {
        let (chunk, max) = (xiangqi_eval::nnue::CHUNK, xiangqi_eval::nnue::MAX_HIDDEN);
        return Err(TrainError::Option(format!(
            "hidden size {} is not a multiple of {chunk} from {chunk} to {max} (the sizes the engine reads)",
            opts.hidden
        )));
    }
    if opts.batch == 0 || opts.epochs == 0 {
        return Err(TrainError::Option("batch size and epochs must be positive".into()));
    }
    if !(0.0..=1.0).contains(&opts.lambda) {
        return Err(TrainError::Option(format!("lambda {} is not within 0..=1", opts.lambda)));
    }
    let arch =
        Architecture { king_buckets: opts.king_buckets, hidden: opts.hidden, output_buckets: opts.output_buckets };
    if let Err(e) = arch.check() {
        return Err(TrainError::Option(format!("architecture {arch}: {e}")));
    }
    if !(1..=xiangqi_eval::nnue::MAX_SCALE).contains(&opts.scale) {
        return Err(TrainError::Option(format!(
            "scale {} is not within 1..={}",
            opts.scale,
            xiangqi_eval::nnue::MAX_SCALE
        )));
    }
    if opts.schedule == LrSchedule::Cosine && !(0.0..=1.0).contains(&opts.lr_end) {
        return Err(TrainError::Option(format!("final learning-rate fraction {} is not within 0..=1", opts.lr_end)));
    }
    if !(0.0..1.0).contains(&opts.validation) {
        return Err(TrainError::Option(format!("validation fraction {} is not within 0..1", opts.validation)));
    }
    if records.len() < 2 {
        return Err(TrainError::TooFewPositions(records.len()));
    }
    let dev = Device::Cpu;
    let mut rng = StdRng::seed_from_u64(opts.seed);
    let model = Model::new(arch, opts.scale, &mut rng, &dev)?;
    // The held-out positions are the last records, not a random sample: a data file grows by whole games, so they
    // are the positions of the last games, and no position of the same game is in the training set (positions of
    // one game share its result, which a network can learn game by game).
    let held = ((records.len() as f64 * opts.validation).round() as usize).clamp(1, records.len() - 1);
    let validation = records.split_off(records.len() - held);
    let train_set = &mut records;

    let params = ParamsAdamW { lr: opts.lr, weight_decay: 0.0, ..ParamsAdamW::default() };
    let mut opt = AdamW::new(model.vars(), params)?;
    let initial_validation_loss = mean_loss(&model, &validation, opts.batch, opts.lambda, &dev)?;
    // The untrained network's loss starts both curves.
    let mut curve =
        vec![LossPoint { epoch: 0.0, train: initial_validation_loss, validation: Some(initial_validation_loss) }];
    let batches = train_set.len().div_ceil(opts.batch);
    let mut best: Option<(usize, f64, FloatNet)> = None;
    let mut epochs_run = 0;
    for epoch in 1..=opts.epochs {
        train_set.shuffle(&mut rng);
        let start = Instant::now();
        let (mut window_loss, mut window_n, mut window_start) = (0.0, 0usize, Instant::now());
        let mut epoch_loss = 0.0;
        let mut lr = opts.lr;
        for (i, chunk) in train_set.chunks(opts.batch).enumerate() {
            let next = lr_at(opts, epoch, i, batches);
            if next != lr || i == 0 {
                lr = next;
                opt.set_learning_rate(lr);
            }
            let b = make_batch(chunk, model.spec(opts.lambda), opts.first_layer, &dev)?;
            let loss = model.loss(&b)?;
            opt.backward_step(&loss)?;
            model.clip()?;
            let l = f64::from(loss.to_scalar::<f32>()?);
            epoch_loss += l * chunk.len() as f64;
            window_loss += l * chunk.len() as f64;
            window_n += chunk.len();
            if opts.report_every > 0 && (i + 1) % opts.report_every == 0 && i + 1 < batches {
                let mean = window_loss / window_n as f64;
                report(&Event::Progress {
                    epoch,
                    batch: i + 1,
                    batches,
                    loss: mean,
                    positions_per_second: window_n as f64 / window_start.elapsed().as_secs_f64(),
                });
                curve.push(LossPoint {
                    epoch: (epoch - 1) as f64 + (i + 1) as f64 / batches as f64,
                    train: mean,
                    validation: None,
                });
                (window_loss, window_n, window_start) = (0.0, 0, Instant::now());
            }
        }
        epochs_run = epoch;
        let rate = train_set.len() as f64 / start.elapsed().as_secs_f64();
        let validation_loss = mean_loss(&model, &validation, opts.batch, opts.lambda, &dev)?;
        let train_loss = epoch_loss / train_set.len() as f64;
        let last = if window_n > 0 { window_loss / window_n as f64 } else { train_loss };
        curve.push(LossPoint { epoch: epoch as f64, train: last, validation: Some(validation_loss) });
        let net = Box::new(model.to_float()?);
        let is_best = best.as_ref().is_none_or(|(_, v, _)| validation_loss < *v);
        if is_best {
            best = Some((epoch, validation_loss, (*net).clone()));
        }
        let curve = curve.clone();
        report(&Event::Epoch {
            epoch,
            train_loss,
            validation_loss,
            lr,
            best: is_best,
            positions_per_second: rate,
            net,
            curve,
        });
        let best_epoch = best.as_ref().map_or(epoch, |b| b.0);
        if opts.patience > 0 && epoch - best_epoch >= opts.patience {
            break;
        }
    }
    let split = (train_set.len(), validation.len());
    let (best_epoch, best_validation_loss, net) = best.expect("at least one epoch ran");
    Ok(Outcome { net, best_epoch, best_validation_loss, epochs_run, curve, initial_validation_loss, split, validation })
}

/// The mean loss of a float network over records, computed without candle (for checks).
pub fn float_loss(net: &FloatNet, recs: &[Record], lambda: f32) -> f64 {
    let sum: f64 = recs
        .iter()
        .map(|r| {
            let d = crate::data::sigmoid(net.forward(r)) - target(r, lambda, net.scale as f32);
            f64::from(d * d)
        })
        .sum();
    sum / recs.len().max(1) as f64
}
