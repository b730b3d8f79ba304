//! Criterion benchmarks for the xiangqi workspace live in `benches/`; this library holds what several of them share.

use std::hint::black_box;
use xiangqi_core::{Move, Position, Setup, Validation, START_FEN};
use xiangqi_eval::{Accumulator, Handcrafted};

/// The start position and the positions of `xiangqi-movegen/tests/data/perft.txt`.
pub const EVAL_POSITIONS: &[&str] = &[
    START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
];

/// [`EVAL_POSITIONS`] as positions.
pub fn eval_positions() -> Vec<Position> {
    EVAL_POSITIONS
        .iter()
        .map(|fen| {
            let setup = Setup::from_fen(fen).expect("a valid FEN");
            Position::from_setup(&setup, Validation::Lenient).expect("a possible position")
        })
        .collect()
}

/// What a search does with the handcrafted evaluator at each child: update the accumulator, make the move, evaluate,
/// take both back; for every move of every position. Returns the sum of the evaluations (so none is optimised away).
pub fn handcrafted_children(
    eval: &Handcrafted,
    positions: &mut [Position],
    accs: &mut [Accumulator],
    moves: &[Vec<Move>],
) -> i32 {
    let mut sum = 0i32;
    for ((pos, acc), ms) in positions.iter_mut().zip(accs.iter_mut()).zip(moves) {
        for &m in ms {
            acc.make(eval, pos, m);
            pos.make_move(m);
            sum = sum.wrapping_add(eval.evaluate_with(black_box(pos), acc));
            pos.unmake_move();
            acc.unmake();
        }
    }
    sum
}
