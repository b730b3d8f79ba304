//! `xiangqi datagen`: training data for the neural evaluation, from the engine's games against itself; a front end
//! over [`xiangqi_match::selfplay`] (the generator and the data file it appends to) and, with `--shard`, over
//! [`xiangqi_match::shard`].

use crate::args;
use crate::CmdResult;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use xiangqi_match::selfplay::{self, Event, SelfPlay};

/// The arguments of `xiangqi datagen`.
#[derive(clap::Args)]
pub struct DatagenArgs {
    /// The data file: created with its header when missing, appended to (resumed) when it exists.
    #[arg(long)]
    out: PathBuf,
    /// Stop when the file holds this many records.
    #[arg(long, default_value_t = 1_000_000, value_parser = args::at_least::<u64>(1), allow_hyphen_values = true)]
    positions: u64,
    /// Nodes per move of the searches.
    #[arg(long, default_value_t = 4000, value_parser = args::range::<u64>(1, 100_000_000), allow_hyphen_values = true)]
    nodes: u64,
    /// Worker threads, each playing its own games with a single-threaded search.
    #[arg(long, default_value_t = 1, value_parser = args::range::<u64>(1, 256), allow_hyphen_values = true)]
    threads: u64,
    /// Seed of the random plies (a resumed run should be given another seed, or it replays the same games).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies played after the opening, before the engine takes over.
    #[arg(long, default_value_t = 4, value_parser = args::range::<u32>(0, 40), allow_hyphen_values = true)]
    random_plies: u32,
    /// A game not over after this many plies is adjudicated a draw.
    #[arg(long, default_value_t = 300, value_parser = args::range::<u32>(10, 2000), allow_hyphen_values = true)]
    max_plies: u32,
    /// Transposition table size per worker in MB.
    // (The range of the engine's `Hash` option.)
    #[arg(long, default_value_t = 4, value_parser = args::range::<u64>(xiangqi_search::options::HASH.spin().1 as u64, xiangqi_search::options::HASH.spin().2 as u64), allow_hyphen_values = true)]
    hash: u64,
    /// No progress line on standard error.
    #[arg(long)]
    quiet: bool,
    /// The evaluator of the self-play searches (`--nnue FILE` for a second generation of data from a network's
    /// own games).
    #[command(flatten)]
    eval: crate::evalopt::EvalOpts,
    /// A shard of a run (`--shard I --shards N`, see `xiangqi merge`): `--out` is then the shards' directory,
    /// `--positions` the whole run's, `--seed` the run's, and `--threads` must be 1.
    #[command(flatten)]
    shard: args::ShardOpts,
}

/// `xiangqi datagen`.
pub fn run(a: &DatagenArgs) -> CmdResult {
    let shard = a.shard.shard()?;
    // The network first: a missing one is an error before any file is touched.
    let settings = SelfPlay {
        nodes: a.nodes,
        threads: a.threads,
        random_plies: a.random_plies,
        max_plies: a.max_plies,
        hash_mb: a.hash as usize,
        ..SelfPlay::new(a.eval.choice()?)
    };
    let (shown, target) = match shard {
        Some(shard) => (a.out.join(shard.data_name("datagen")), shard.part(a.positions)),
        None => (a.out.clone(), 0..a.positions),
    };
    let target = target.end - target.start;
    let mut report = reporter(a.quiet, &shown, target);
    let (g, manifest) = match shard {
        Some(shard) => {
            let (g, m) = selfplay::generate_shard(&settings, &a.out, shard, a.positions, a.seed, &mut report)?;
            (g, Some(m))
        }
        None => (selfplay::generate(&settings, &a.out, a.positions, a.seed, &mut report)?, None),
    };
    if g.start < target {
        let new = g.count - g.start;
        eprintln!(
            "datagen: done, {} positions in {} ({new} new in {:.1} s, {:.0} positions/s)",
            g.count,
            shown.display(),
            g.seconds,
            new as f64 / g.seconds.max(1e-9)
        );
    }
    if let Some(m) = manifest {
        println!("{}", serde_json::to_string(&m).map_err(|e| e.to_string())?);
    }
    Ok(())
}

/// The messages of a run into `shown` (a shard's final name, not its temporary one) of `target` records: a cut
/// record, a file already full, and a progress line every ten seconds unless `quiet`.
fn reporter(quiet: bool, shown: &Path, target: u64) -> impl FnMut(Event) {
    let name = shown.display().to_string();
    let mut last = Instant::now();
    move |event| match event {
        Event::Cut(bytes) => eprintln!("{name}: cutting a partial record of {bytes} bytes at the end"),
        Event::Full(count) => eprintln!("{name} already holds {count} records (target {target})"),
        Event::Game { count, new, games, seconds } => {
            if !quiet && (last.elapsed() >= Duration::from_secs(10) || count >= target) {
                last = Instant::now();
                let rate = new as f64 / seconds.max(1e-9);
                eprintln!("datagen: {count}/{target} positions, {games} games, {rate:.0} positions/s, {seconds:.0} s");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_network_is_an_error_before_any_file_is_made() {
        let dir = std::env::temp_dir().join(format!("xiangqi-datagen-cli-test-{}", std::process::id()));
        let missing = dir.join("missing.bin");
        let args = DatagenArgs {
            out: missing.clone(),
            positions: 10,
            nodes: 100,
            threads: 1,
            seed: 1,
            random_plies: 4,
            max_plies: 300,
            hash: 1,
            quiet: true,
            eval: crate::evalopt::EvalOpts { nnue: Some(dir.join("no-such-net.nnue")), handcrafted: false },
            shard: Default::default(),
        };
        assert!(run(&args).unwrap_err().to_string().contains("no-such-net.nnue"));
        assert!(!missing.exists());
    }
}
