//! The bench: the engine ([`SearchEngine`]) searches a fixed set of positions to a fixed depth, each with a cleared table. The total
//! node count is the search's signature (`xiangqi bench`, and a snapshot in the tests), so that every change to the
//! search or the evaluation shows up as a reviewed change; the time gives nodes per second.

use crate::config::VariantConfig;
use crate::game::Evaluator;
use crate::limits::Limits;
use crate::registry::Params;
use crate::{EngineError, SearchEngine};
use std::time::{Duration, Instant};
use xiangqi_core::Position;

/// The bench positions: the start position, the perft positions of the reference data and a few endgames.
pub const BENCH_FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 0 1",
    "2bak4/4a4/4b4/p3R4/2p6/9/P1P6/4B4/4A4/2BAK4 w - - 0 1",
];

/// The default bench depth.
pub const BENCH_DEPTH: u32 = 9;

/// What a bench run measured.
#[derive(Debug, Clone)]
pub struct BenchResult {
    /// Nodes per position.
    pub nodes: Vec<u64>,
    /// Best move per position.
    pub best: Vec<String>,
    /// All nodes: the signature.
    pub total: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// Runs the bench: each of [`BENCH_FENS`] searched by `variant` to `depth` (iterative deepening) with a cleared
/// `hash_mb` table and `threads` threads, evaluating with what `make_eval` builds.
///
/// ```
/// use xiangqi_core::{evaluation::Evaluator, Position};
/// use xiangqi_search::bench::{bench, BENCH_FENS};
///
/// struct Zero;
/// impl Evaluator for Zero {
///     fn evaluate(&mut self, _: &Position) -> i32 { 0 }
/// }
/// let r = bench(&"engine".parse().unwrap(), 3, 1, 1, |_: &Position| Zero).unwrap();
/// assert_eq!(r.nodes.len(), BENCH_FENS.len());
/// assert_eq!(r.total, r.nodes.iter().sum::<u64>());
/// ```
///
/// # Errors
/// When the table or the threads cannot be had.
pub fn bench<E: Evaluator + Send>(
    variant: &VariantConfig,
    depth: u32,
    hash_mb: usize,
    threads: usize,
    make_eval: impl Fn(&Position) -> E + Sync,
) -> Result<BenchResult, EngineError> {
    bench_with_params(variant, &Params::default(), depth, hash_mb, threads, make_eval)
}

/// [`bench`](fn@bench) with the tunable numbers `params` ([`crate::params`]) instead of the compiled defaults.
///
/// # Errors
/// When the table or the threads cannot be had.
pub fn bench_with_params<E: Evaluator + Send>(
    variant: &VariantConfig,
    params: &Params,
    depth: u32,
    hash_mb: usize,
    threads: usize,
    make_eval: impl Fn(&Position) -> E + Sync,
) -> Result<BenchResult, EngineError> {
    let mut engine = SearchEngine::new(make_eval)?;
    engine.set_variant(*variant);
    engine.set_params(*params);
    engine.set_hash(hash_mb)?;
    engine.set_threads(threads)?;
    // Faulted in before the clock starts: bench measures the search, not the operating system.
    engine.table().prefault();
    let start = Instant::now();
    let mut nodes = Vec::new();
    let mut best = Vec::new();
    for fen in BENCH_FENS {
        let pos = Position::from_fen(fen).expect("bench positions are valid");
        engine.new_game();
        let limits = Limits { depth: Some(depth), iterative: true, ..Limits::default() };
        let r = engine.search(&pos, &limits);
        nodes.push(r.stats.nodes());
        best.push(r.best_move.map_or("(none)".to_owned(), |m| m.to_string()));
    }
    Ok(BenchResult { total: nodes.iter().sum(), nodes, best, elapsed: start.elapsed() })
}
