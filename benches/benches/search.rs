//! Search speed per preset at a fixed depth, with the default evaluator.
//! `cargo bench -p xiangqi-benches --bench search`.

use criterion::{criterion_group, criterion_main, Criterion};
use xiangqi_core::Position;
use xiangqi_eval::ChosenEval;
use xiangqi_search::{Limits, VariantConfig};

const MIDDLEGAME: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

fn bench_presets(c: &mut Criterion) {
    let positions = [Position::startpos(), Position::from_fen(MIDDLEGAME).unwrap()];
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    for (variant, depth) in [
        ("minimax", 3),
        ("alphabeta", 4),
        ("negamax-ab", 4),
        ("negamax-ab-hard", 4),
        ("pvs", 4),
        ("nmp", 5),
        ("qs", 4),
        ("pvs+nmp+qs", 4),
        ("pvs+nmp+qs+order", 5),
    ] {
        let spec: VariantConfig = variant.parse().unwrap();
        g.bench_function(format!("{variant}/depth{depth}"), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| spec.run(p.clone(), ChosenEval::new(p), &Limits::depth(depth)).stats.nodes())
                    .sum::<u64>()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_presets);
criterion_main!(benches);
