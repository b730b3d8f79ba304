//! Perft counts from `shared/data/perft.txt` (a copy lives in `tests/data/perft.txt`).

use xiangqi_core::Position;
use xiangqi_movegen::{perft, perft_with};

fn cases(max_depth: u32, min_depth: u32) -> Vec<(String, u32, u64)> {
    include_str!("data/perft.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split(';').map(str::trim).collect();
            (parts[0].to_owned(), parts[1].parse().unwrap(), parts[2].parse().unwrap())
        })
        .filter(|&(_, d, _)| d <= max_depth && d >= min_depth)
        .collect()
}

#[test]
fn perft_reference_counts_up_to_depth_4() {
    let cases = cases(4, 1);
    assert!(cases.len() >= 40, "the data file lost its rows");
    for (fen, depth, expected) in cases {
        let pos = Position::from_fen(&fen).unwrap();
        assert_eq!(perft(&pos, depth), expected, "{fen} depth {depth}");
    }
}

#[test]
fn perft_without_bulk_counting_agrees() {
    for (fen, depth, expected) in cases(3, 1) {
        let mut pos = Position::from_fen(&fen).unwrap();
        assert_eq!(perft_with(&mut pos, depth, false), expected, "{fen} depth {depth}");
    }
}

/// Depth 5: about 250 million leaves, a few seconds since tests build with opt-level 3.
#[test]
fn perft_reference_counts_depth_5() {
    let cases = cases(5, 5);
    assert!(cases.len() >= 11);
    for (fen, depth, expected) in cases {
        let pos = Position::from_fen(&fen).unwrap();
        assert_eq!(xiangqi_movegen::perft_parallel(&pos, depth, 2), expected, "{fen} depth {depth}");
    }
}

/// Depth 6 of the start position (5.4 billion leaves): `cargo test --release -p xiangqi-movegen -- --ignored`.
#[test]
#[ignore = "about 20 s on two threads in release; run with --ignored"]
fn perft_start_position_depth_6() {
    for (fen, depth, expected) in cases(6, 6) {
        let pos = Position::from_fen(&fen).unwrap();
        assert_eq!(xiangqi_movegen::perft_parallel(&pos, depth, 2), expected, "{fen} depth {depth}");
    }
}
