//! `divide` at depth 2 as insta snapshots: a regression signature of the generator, move by move.
//! A changed snapshot is a decision: review it against the perft totals before accepting it. Each total is also
//! asserted against the published count of `shared/data/perft.txt` (the copy in `tests/data/perft.txt`, as the
//! perft tests read it), and the moves against the legal move list, so a snapshot accepted blindly still fails.

use xiangqi_core::{Position, START_FEN};
use xiangqi_movegen::{divide, legal_moves};

/// The published count of `fen` at depth 2 (the snapshots' depth) in the perft data file, or at the smallest depth
/// above it that the file gives for the position: (depth, count).
fn published(fen: &str) -> (u32, u64) {
    include_str!("data/perft.txt")
        .lines()
        .filter_map(|l| {
            let parts: Vec<&str> = l.split(';').map(str::trim).collect();
            (parts.len() == 3 && parts[0] == fen).then(|| (parts[1].parse().unwrap(), parts[2].parse().unwrap()))
        })
        .filter(|&(depth, _): &(u32, u64)| depth >= 2)
        .min()
        .unwrap_or_else(|| panic!("no row of depth 2 or more for {fen} in tests/data/perft.txt"))
}

fn divide_text(fen: &str) -> String {
    let pos = Position::from_fen(fen).unwrap();
    let rows = divide(&pos, 2, 1);
    let total: u64 = rows.iter().map(|&(_, n)| n).sum();
    // The total of the published depth (2, or the smallest the file has for this position).
    let (depth, count) = published(fen);
    let at_depth: u64 = if depth == 2 { total } else { divide(&pos, depth, 2).iter().map(|&(_, n)| n).sum() };
    assert_eq!(at_depth, count, "the divide total of {fen} at depth {depth} against the published count");
    let mut moves: Vec<String> = rows.iter().map(|(m, _)| m.to_string()).collect();
    let mut legal: Vec<String> = legal_moves(&pos).iter().map(|m| m.to_string()).collect();
    moves.sort();
    legal.sort();
    assert_eq!(moves, legal, "one row per legal move of {fen}");
    let mut s = format!("fen {fen}\ntotal {total}\n");
    for (m, n) in rows {
        s.push_str(&format!("{m}: {n}\n"));
    }
    s
}

#[test]
fn divide_start_position() {
    insta::assert_snapshot!(divide_text(START_FEN));
}

#[test]
fn divide_middlegame_p2() {
    insta::assert_snapshot!(divide_text("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"));
}

#[test]
fn divide_crossed_horses_p3() {
    insta::assert_snapshot!(divide_text("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1"));
}

#[test]
fn divide_busy_middlegame() {
    insta::assert_snapshot!(divide_text(
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1"
    ));
}
