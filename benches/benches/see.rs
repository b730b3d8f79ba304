//! Static exchange evaluation speed: `Position::see_ge(m, 0)` on every legal move and on every capture of a fixed set
//! of positions (the start position and the positions of `xiangqi-movegen/tests/data/perft.txt`).
//! `cargo bench -p xiangqi-benches --bench see`; the figure is the `thrpt` in elements (calls) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use xiangqi_benches::eval_positions;
use xiangqi_core::Move;

fn bench_see(c: &mut Criterion) {
    let positions = eval_positions();
    let all: Vec<Vec<Move>> = positions.iter().map(|p| p.legal_moves()).collect();
    let captures: Vec<Vec<Move>> = positions
        .iter()
        .zip(&all)
        .map(|(p, ms)| ms.iter().copied().filter(|m| p.piece_at(m.to()).is_some()).collect())
        .collect();
    let mut g = c.benchmark_group("see");
    for (name, moves) in [("see_ge_all_moves", &all), ("see_ge_captures", &captures)] {
        g.throughput(Throughput::Elements(moves.iter().map(Vec::len).sum::<usize>() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                positions
                    .iter()
                    .zip(moves)
                    .map(|(p, ms)| ms.iter().filter(|&&m| p.see_ge(black_box(m), 0)).count())
                    .sum::<usize>()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_see);
criterion_main!(benches);
