//! The neural evaluation's speed against the handcrafted evaluator's, in evaluations per second, on the positions of
//! the `eval` bench: from scratch (both accumulators built for the position alone), and incrementally as a search
//! meets its children (make the move, evaluate, unmake), for hidden sizes 128, 256 and 512 (seeded random networks:
//! the speed does not depend on the weights). `cargo bench -p xiangqi-benches --bench nnue`; the figure is the
//! `thrpt` in elements (evaluations) per second.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use xiangqi_core::{Position, Setup, Validation, START_FEN};
use xiangqi_eval::nnue::{Network, NnueStack};
use xiangqi_eval::{Accumulator, Evaluate, Handcrafted};

const POSITIONS: &[&str] = &[
    START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
];

fn positions() -> Vec<Position> {
    POSITIONS
        .iter()
        .map(|fen| Position::from_setup(&Setup::from_fen(fen).unwrap(), Validation::Lenient).unwrap())
        .collect()
}

const SIZES: [usize; 3] = [128, 256, 512];

fn from_scratch(c: &mut Criterion) {
    let positions = positions();
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
    let mut positions = positions();
    let moves: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
    let total: usize = moves.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group("eval_children");
    g.throughput(Throughput::Elements(total as u64));
    let hand = Handcrafted::default();
    let mut accs: Vec<Accumulator> = positions.iter().map(|p| Accumulator::new(&hand, p)).collect();
    g.bench_function("handcrafted", |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for ((pos, acc), ms) in positions.iter_mut().zip(accs.iter_mut()).zip(&moves) {
                for &m in ms {
                    acc.make(&hand, pos, m);
                    pos.make_move(m);
                    sum = sum.wrapping_add(hand.evaluate_with(black_box(pos), acc));
                    pos.unmake_move();
                    acc.unmake();
                }
            }
            sum
        })
    });
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
