//! Move generation and perft speed. `cargo bench -p xiangqi-benches --bench movegen`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;
use xiangqi_core::{Position, START_FEN};
use xiangqi_movegen::{legal_moves, perft, perft_parallel};

const POSITIONS: &[&str] = &[
    START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
];

fn bench_perft(c: &mut Criterion) {
    let pos = Position::startpos();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.throughput(Throughput::Elements(3_290_240));
    g.bench_function("startpos_depth4_1thread", |b| b.iter(|| perft(black_box(&pos), 4)));
    g.throughput(Throughput::Elements(133_312_995));
    g.bench_function("startpos_depth5_1thread", |b| b.iter(|| perft(black_box(&pos), 5)));
    g.bench_function("startpos_depth5_2threads", |b| b.iter(|| perft_parallel(black_box(&pos), 5, 2)));
    g.finish();
}

fn bench_generation(c: &mut Criterion) {
    let positions: Vec<Position> = POSITIONS.iter().map(|f| Position::from_fen(f).unwrap()).collect();
    let mut g = c.benchmark_group("movegen");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("legal_moves", |b| {
        b.iter(|| positions.iter().map(|p| legal_moves(black_box(p)).len()).sum::<usize>())
    });
    g.bench_function("make_unmake_all", |b| {
        b.iter_batched_ref(
            || positions.clone(),
            |ps| {
                for p in ps.iter_mut() {
                    for m in legal_moves(p) {
                        p.make_move(m);
                        p.unmake_move();
                    }
                }
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench_perft, bench_generation);
criterion_main!(benches);
