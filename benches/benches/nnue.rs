//! The neural evaluation's speed against the handcrafted evaluator's, in evaluations per second, on the positions of
//! the `eval` bench: from scratch (both accumulators built for the position alone), and incrementally as a search
//! meets its children (make the move, evaluate, unmake), for hidden sizes 128, 256 and 512 (seeded random networks:
//! the speed does not depend on the weights). `cargo bench -p xiangqi-benches --bench nnue`; the figure is the
//! `thrpt` in elements (evaluations) per second.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use xiangqi_benches::{eval_positions, handcrafted_children};
use xiangqi_eval::nnue::{Network, NnueStack};
use xiangqi_eval::{Accumulator, Evaluate, Handcrafted};

const SIZES: [usize; 3] = [128, 256, 512];

fn from_scratch(c: &mut Criterion) {
    let positions = eval_positions();
    let mut g = c.benchmark_group("eval_from_scratch");
    g.throughput(Throughput::Elements(positions.len() as u64));
    let hand = Handcrafted::default();
    g.bench_function("handcrafted", |b| {
        b.iter(|| positions.iter().map(|p| hand.evaluate(black_box(p))).fold(0i32, i32::wrapping_add))
    });
    for h in SIZES {
        let net = Network::random(h, 1);
        g.bench_with_input(BenchmarkId::new("nnue", h), &net, |b, net| {
            b.iter(|| positions.iter().map(|p| net.evaluate(black_box(p))).fold(0i32, i32::wrapping_add))
        });
    }
    g.finish();
}

fn make_evaluate_unmake(c: &mut Criterion) {
    let mut positions = eval_positions();
    let moves: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
    let total: usize = moves.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group("eval_children");
    g.throughput(Throughput::Elements(total as u64));
    let hand = Handcrafted::default();
    let mut accs: Vec<Accumulator> = positions.iter().map(|p| Accumulator::new(&hand, p)).collect();
    g.bench_function("handcrafted", |b| b.iter(|| handcrafted_children(&hand, &mut positions, &mut accs, &moves)));
    for h in SIZES {
        let net = Network::random(h, 1);
        let mut stacks: Vec<NnueStack> = positions.iter().map(|p| NnueStack::new(&net, p)).collect();
        g.bench_function(BenchmarkId::new("nnue", h), |b| {
            b.iter(|| {
                let mut sum = 0i32;
                for ((pos, stack), ms) in positions.iter_mut().zip(stacks.iter_mut()).zip(&moves) {
                    for &m in ms {
                        stack.make(pos, m);
                        pos.make_move(m);
                        sum = sum.wrapping_add(stack.evaluate(&net, black_box(pos)));
                        pos.unmake_move();
                        stack.unmake();
                    }
                }
                sum
            })
        });
    }
    g.finish();
}

criterion_group!(benches, from_scratch, make_evaluate_unmake);
criterion_main!(benches);
