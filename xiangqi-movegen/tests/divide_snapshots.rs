//! `divide` at depth 2 as insta snapshots: a regression signature of the generator, move by move.
//! A changed snapshot is a decision: review it against the perft totals before accepting it.

use xiangqi_core::{Position, START_FEN};
use xiangqi_movegen::divide;

fn divide_text(fen: &str) -> String {
    let pos = Position::from_fen(fen).unwrap();
    let rows = divide(&pos, 2, 1);
    let total: u64 = rows.iter().map(|&(_, n)| n).sum();
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
