//! Evaluation speed: evaluations per second on a fixed set of positions (the start position and every position of
//! `xiangqi-movegen/tests/data/perft.txt`, the reference perft file). `cargo bench -p xiangqi-benches --bench eval`;
//! the figure is the `thrpt` in elements (evaluations) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use xiangqi_benches::{eval_positions, handcrafted_children};
use xiangqi_eval::{Accumulator, Handcrafted};

fn bench_eval(c: &mut Criterion) {
    let eval = Handcrafted::default();
    let positions = eval_positions();
    let accs: Vec<Accumulator> = positions.iter().map(|p| Accumulator::new(&eval, p)).collect();
    let mut g = c.benchmark_group("eval");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("from_scratch", |b| {
        b.iter(|| positions.iter().map(|p| eval.evaluate(black_box(p))).fold(0i32, i32::wrapping_add))
    });
    g.bench_function("incremental", |b| {
        b.iter(|| {
            positions.iter().zip(&accs).map(|(p, a)| eval.evaluate_with(black_box(p), a)).fold(0i32, i32::wrapping_add)
        })
    });
    g.finish();
}

/// What a search does at each child: make the move (position and accumulator), evaluate, unmake.
fn bench_make_eval_unmake(c: &mut Criterion) {
    let eval = Handcrafted::default();
    let mut positions = eval_positions();
    let moves: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
    let total: usize = moves.iter().map(Vec::len).sum();
    let mut accs: Vec<Accumulator> = positions.iter().map(|p| Accumulator::new(&eval, p)).collect();
    let mut g = c.benchmark_group("eval_children");
    g.throughput(Throughput::Elements(total as u64));
    g.bench_function("make_evaluate_unmake", |b| {
        b.iter(|| handcrafted_children(&eval, &mut positions, &mut accs, &moves))
    });
    g.finish();
}

criterion_group!(benches, bench_eval, bench_make_eval_unmake);
criterion_main!(benches);
