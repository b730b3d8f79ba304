//! Criterion benchmarks for the xiangqi workspace live in `benches/`.
