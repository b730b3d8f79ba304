//! `xiangqi-train`: trains the NNUE network from `xiangqi datagen` records and writes the quantized `.nnue` file and
//! the loss curve.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use xiangqi_train::chart::draw_loss;
use xiangqi_train::data::read_records;
use xiangqi_train::net::training_hash;
use xiangqi_train::train::{train, Event, FirstLayer, Options};

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

/// Trains the perspective network (1260 inputs, SCReLU hidden layer per side, one output) on the CPU.
#[derive(Debug, Parser)]
#[command(name = "xiangqi-train", version)]
struct Args {
    /// Data files written by `xiangqi datagen` (read in order, up to --max-positions in all).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// The network file to write (written to a temporary name, then renamed, when training is done).
    #[arg(long)]
    out: PathBuf,
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
    let command: Vec<String> = std::env::args().collect();
    let hash = training_hash(&command, &files);
    let opts = Options {
        hidden: args.hidden,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lr_step: args.lr_step,
        lr_drop: args.lr_drop,
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
        "{} positions; hidden {}, batch {}, {} epochs, lr {} (x{} every {} epochs), lambda {}, seed {}, {} thread(s)",
        records.len(),
        opts.hidden,
        opts.batch,
        opts.epochs,
        opts.lr,
        opts.lr_drop,
        opts.lr_step,
        opts.lambda,
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
    let mut checkpoint = args.out.clone().into_os_string();
    checkpoint.push(".checkpoint");
    let checkpoint = PathBuf::from(checkpoint);
    let mut failure = None;
    let outcome = train(records, &opts, |ev| match ev {
        Event::Progress { epoch, batch, batches, loss, positions_per_second } => {
            eprintln!("epoch {epoch} batch {batch}/{batches} loss {loss:.6} {positions_per_second:.0} pos/s");
        }
        Event::Epoch { epoch, train_loss, validation_loss, lr, positions_per_second, net, curve: so_far } => {
            eprintln!(
                "epoch {epoch} done: train loss {train_loss:.6}, validation loss {validation_loss:.6}, lr {lr:.2e}, \
                 {positions_per_second:.0} pos/s"
            );
            curve.push((*epoch, *train_loss, *validation_loss));
            match net.quantize() {
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
    let q = outcome.net.quantize().map_err(|e| format!("cannot write {}: {e}", args.out.display()))?.with_hash(hash);
    q.save(&args.out).map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    let _ = std::fs::remove_file(&checkpoint);
    eprintln!(
        "wrote {} (hidden {}, training hash {:016x}); validation loss {:.6} -> {:.6}",
        args.out.display(),
        q.hidden(),
        hash,
        outcome.initial_validation_loss,
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
