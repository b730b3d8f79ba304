//! `xiangqi-train`: trains the NNUE network from `xiangqi datagen` records and writes the quantized `.nnue` file and
//! the loss curve.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use xiangqi_train::chart::draw_loss;
use xiangqi_train::data::{dedup, fit_scale, read_records, Dedup};
use xiangqi_train::net::{training_hash, SCALE};
use xiangqi_train::train::{train, Event, FirstLayer, LrSchedule, Options};

// candle allocates each intermediate tensor anew; glibc's malloc maps and unmaps every large one, and the page
// faults took three quarters of the training time. mimalloc keeps and reuses them.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The `--first-layer` choices.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Layer {
    /// Sums of W1's rows in plain loops (a custom operation).
    Sparse,
    /// candle's index_select and index_add.
    Gather,
    /// A dense 0/1 input matrix times W1.
    Dense,
}

/// The `--lr-schedule` choices.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Schedule {
    /// Multiplied by --lr-drop every --lr-step epochs.
    Step,
    /// Cosine decay to --lr-end times --lr, batch by batch.
    Cosine,
}

/// The `--dedup` choices.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum DedupMode {
    /// Keep every record.
    Off,
    /// Keep the first record of each position (board and side to move).
    First,
    /// Keep one record of each position with the mean score and the rounded mean result.
    Mean,
}

/// Trains the perspective network (1260 inputs, or 6 x 1260 king-relative ones; SCReLU hidden layer per side; one
/// output, or one per output bucket) on the CPU.
#[derive(Debug, Parser)]
#[command(name = "xiangqi-train", version)]
struct Args {
    /// Data files written by `xiangqi datagen` (read in order, up to --max-positions in all).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// The network file to write (written to a temporary name, then renamed, when training is done): the network
    /// of the epoch with the lowest validation loss.
    #[arg(long, required_unless_present = "fit_scale")]
    out: Option<PathBuf>,
    /// Only fit the scale K of sigmoid(score / K) to the game results of the data, print it and exit.
    #[arg(long)]
    fit_scale: bool,
    /// The scale K of the target's sigmoid(score / K), and the network's output scale (engine units per unit).
    #[arg(long, default_value_t = SCALE)]
    scale: i32,
    /// Duplicate positions (same board and side to move): off, first (keep the first), mean (average the targets).
    #[arg(long, value_enum, default_value_t = DedupMode::Off)]
    dedup: DedupMode,
    /// The loss curve to draw (SVG), redrawn after every epoch.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// The starting learning rate (AdamW).
    #[arg(long, default_value_t = 0.001)]
    lr: f64,
    /// The learning-rate schedule: step (drops) or cosine (decay to --lr-end).
    #[arg(long, value_enum, default_value_t = Schedule::Step)]
    lr_schedule: Schedule,
    /// Cosine schedule: the final learning rate as a fraction of --lr.
    #[arg(long, default_value_t = 0.05)]
    lr_end: f64,
    /// Stop after this many epochs without a new validation minimum (0: run every epoch).
    #[arg(long, default_value_t = 0)]
    patience: usize,
    /// King buckets: 1 (plain inputs) or 6 (king-relative inputs, mirrored).
    #[arg(long, default_value_t = 1)]
    king_buckets: usize,
    /// Output buckets by material (1 to 16).
    #[arg(long, default_value_t = 1)]
    output_buckets: usize,
    /// Drop the learning rate every this many epochs (0: never).
    #[arg(long, default_value_t = 4)]
    lr_step: usize,
    /// The factor of each learning-rate drop.
    #[arg(long, default_value_t = 0.3)]
    lr_drop: f64,
    /// The weight of the game result in the target; the rest is the win probability of the search score.
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Hidden neurons per perspective.
    #[arg(long, default_value_t = 256)]
    hidden: usize,
    /// The seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads of the tensor library.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Read at most this many positions.
    #[arg(long)]
    max_positions: Option<usize>,
    /// The fraction of positions held out for the validation loss: the last records (the last games written).
    #[arg(long, default_value_t = 0.02)]
    validation: f64,
    /// Print the running loss every this many batches (0: only per epoch).
    #[arg(long, default_value_t = 20)]
    report_every: usize,
    /// How the first layer is computed: sparse (fastest), gather (candle's index_select and index_add) or dense
    /// (a 0/1 input matrix times W1); all give the same network.
    #[arg(long, value_enum, default_value_t = Layer::Sparse)]
    first_layer: Layer,
}

fn run(args: Args) -> Result<(), String> {
    if args.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    // candle's CPU kernels size their thread pools from this variable (read on every call).
    std::env::set_var("RAYON_NUM_THREADS", args.threads.to_string());

    let mut records = Vec::new();
    let mut files = Vec::new();
    for path in &args.data {
        let budget = args.max_positions.map(|m| m.saturating_sub(records.len()));
        if budget == Some(0) {
            break;
        }
        let size = std::fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?.len();
        let recs = read_records(path, budget).map_err(|e| e.to_string())?;
        eprintln!("{}: {} positions", path.display(), recs.len());
        files.push((path.display().to_string(), size));
        records.extend(recs);
    }
    let (records, removed) = dedup(
        records,
        match args.dedup {
            DedupMode::Off => Dedup::Keep,
            DedupMode::First => Dedup::First,
            DedupMode::Mean => Dedup::Mean,
        },
    );
    if !matches!(args.dedup, DedupMode::Off) {
        eprintln!("duplicates removed: {removed} ({} positions left)", records.len());
    }
    if args.fit_scale {
        let fit = fit_scale(&records).ok_or("no positions to fit the scale to")?;
        println!(
            "fitted scale {:.1} (log-loss {:.6}; at {SCALE}: {:.6}); least squares {:.1}; {} positions",
            fit.scale, fit.log_loss, fit.log_loss_at_default, fit.squares_scale, fit.positions
        );
        return Ok(());
    }
    let out = args.out.clone().ok_or("--out is required")?;
    let command: Vec<String> = std::env::args().collect();
    let hash = training_hash(&command, &files);
    let opts = Options {
        hidden: args.hidden,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        schedule: match args.lr_schedule {
            Schedule::Step => LrSchedule::Step,
            Schedule::Cosine => LrSchedule::Cosine,
        },
        lr_step: args.lr_step,
        lr_drop: args.lr_drop,
        lr_end: args.lr_end,
        patience: args.patience,
        king_buckets: args.king_buckets,
        output_buckets: args.output_buckets,
        scale: args.scale,
        lambda: args.lambda,
        seed: args.seed,
        validation: args.validation,
        report_every: args.report_every,
        first_layer: match args.first_layer {
            Layer::Sparse => FirstLayer::Sparse,
            Layer::Gather => FirstLayer::Gather,
            Layer::Dense => FirstLayer::Dense,
        },
    };
    eprintln!(
        "{} positions; king buckets {}, hidden {}, output buckets {}, batch {}, {} epochs (patience {}), lr {} ({}), \
         lambda {}, scale {}, seed {}, {} thread(s)",
        records.len(),
        opts.king_buckets,
        opts.hidden,
        opts.output_buckets,
        opts.batch,
        opts.epochs,
        opts.patience,
        opts.lr,
        match opts.schedule {
            LrSchedule::Step => format!("x{} every {} epochs", opts.lr_drop, opts.lr_step),
            LrSchedule::Cosine => format!("cosine to x{}", opts.lr_end),
        },
        opts.lambda,
        opts.scale,
        opts.seed,
        args.threads
    );
    let title = format!(
        "xiangqi-train: {} positions (last {}% held out), hidden {}, batch {}, lr {}, lambda {}",
        records.len(),
        opts.validation * 100.0,
        opts.hidden,
        opts.batch,
        opts.lr,
        opts.lambda
    );
    let mut curve = Vec::new();
    let mut checkpoint = out.clone().into_os_string();
    checkpoint.push(".checkpoint");
    let checkpoint = PathBuf::from(checkpoint);
    let mut failure = None;
    let outcome = train(records, &opts, |ev| match ev {
        Event::Progress { epoch, batch, batches, loss, positions_per_second } => {
            eprintln!("epoch {epoch} batch {batch}/{batches} loss {loss:.6} {positions_per_second:.0} pos/s");
        }
        Event::Epoch { epoch, train_loss, validation_loss, lr, best, positions_per_second, net, curve: so_far } => {
            eprintln!(
                "epoch {epoch} done: train loss {train_loss:.6}, validation loss {validation_loss:.6}{}, lr {lr:.2e}, \
                 {positions_per_second:.0} pos/s",
                if *best { " (best)" } else { "" }
            );
            curve.push((*epoch, *train_loss, *validation_loss));
            // The checkpoint is the best network so far: what the run writes if it ends now.
            match net.quantize() {
                Ok(_) if !*best => {}
                Ok(q) => {
                    if let Err(e) = q.with_hash(hash).save(&checkpoint) {
                        failure = Some(format!("cannot write {}: {e}", checkpoint.display()));
                    }
                }
                Err(e) => failure = Some(format!("cannot write {}: {e}", checkpoint.display())),
            }
            if let Some(svg) = &args.svg {
                if let Err(e) = draw_loss(svg, &title, so_far) {
                    failure = Some(e);
                }
            }
        }
    })
    .map_err(|e| e.to_string())?;
    if let Some(f) = failure {
        return Err(f);
    }
    let (n_train, n_val) = outcome.split;
    eprintln!("{n_train} training positions, {n_val} validation positions");
    if let Some(svg) = &args.svg {
        draw_loss(svg, &title, &outcome.curve)?;
        eprintln!("loss curve: {}", svg.display());
    }
    let q = outcome.net.quantize().map_err(|e| format!("cannot write {}: {e}", out.display()))?.with_hash(hash);
    q.save(&out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let _ = std::fs::remove_file(&checkpoint);
    eprintln!(
        "wrote {} ({}, scale {}, training hash {:016x}): the network of epoch {} of {} run, validation loss {:.6} -> \
         {:.6} (last epoch {:.6})",
        out.display(),
        q.architecture(),
        q.scale(),
        hash,
        outcome.best_epoch,
        outcome.epochs_run,
        outcome.initial_validation_loss,
        outcome.best_validation_loss,
        curve.last().map_or(f64::NAN, |c| c.2)
    );
    Ok(())
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xiangqi-train: {e}");
            ExitCode::FAILURE
        }
    }
}
