//! The repetition cases of Fairy-Stockfish's test suite (`test.py`, `test_is_optional_game_end`, the block "Xiangqi
//! chasing rules", which cites the AXF rules, github.com/fairy-stockfish/Fairy-Stockfish), restated as data: a FEN,
//! the moves (converted to this workspace's ranks 0-9) and the result for the side to move once the moves are played.
//! Each case's comment is the suite's own name for it (the D numbers are diagrams of the AXF rule book).
//!
//! `Win` / `Loss` / `Draw` is the result for the side to move after the last move; `Decided` means the suite only
//! asks that the game be over.

use xiangqi_core::{Color, Game};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    Win,
    Loss,
    Draw,
    Decided,
}
use Want::*;

const CASES: &[(&str, &str, &str, Want)] = &[
    // Direct chase by cannon
    (
        "Direct chase by cannon",
        "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
        "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2",
        Win,
    ),
    // Chase with chasing side to move
    (
        "Chase with chasing side to move",
        "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
        "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7",
        Loss,
    ),
    // Discovered chase by cannon (including pawn capture)
    (
        "Discovered chase by cannon (including pawn capture)",
        "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w - - 0 1",
        "a4a5 a6b6 a5b5 b6a6 b5a5 a6b6 a5b5 b6a6 b5a5",
        Win,
    ),
    // Chase by soldier (draw)
    (
        "Chase by soldier (draw)",
        "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1",
        "a4a5 a6b6 a5b5 b6a6 b5a5 a6b6 a5b5 b6a6 b5a5",
        Draw,
    ),
    // Discovered and anti-discovered chase by cannon
    (
        "Discovered and anti-discovered chase by cannon",
        "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1",
        "f4d4 f5d5 d4f4 d5f5 f4d4 f5d5 d4f4 d5f5",
        Loss,
    ),
    // Mutual chase (draw)
    (
        "Mutual chase (draw)",
        "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1",
        "f6h6 h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6 h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6",
        Draw,
    ),
    // Perpetual check vs. intermittent checks
    (
        "Perpetual check vs. intermittent checks",
        "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1",
        "d6e6 e4d4 e6d6 d4e4 d6e6 e4d4 e6d6 d4e4",
        Win,
    ),
    // Perpetual check by soldier
    (
        "Perpetual check by soldier",
        "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1",
        "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1 e2f2",
        Win,
    ),
    // Perpetual check by soldier
    (
        "Perpetual check by soldier",
        "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1",
        "d6e6 e7g5 e6d6 g5e7 d6e6 e7g5 e6d6 g5e7",
        Win,
    ),
    // Perpetual check by soldier
    (
        "Perpetual check by soldier",
        "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1",
        "d1d3 b1b3 d3d1 b3b1 d1d3 b1b3 d3d1 b3b1",
        Win,
    ),
    // Perpetual check by soldier
    (
        "Perpetual check by soldier",
        "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1",
        "f4d4 f5d5 d4f4 d5f5 f4d4 f5d5 d4f4 d5f5",
        Loss,
    ),
    // Perpetual check by soldier
    (
        "Perpetual check by soldier",
        "4k4/9/4b4/2c2nR2/9/9/9/9/9/3K5 w - - 0 1",
        "g6g5 f6g8 g5g6 g8f6 g6g5 f6g8 g5g6 g8f6",
        Win,
    ),
    // Perpetual check by soldier
    (
        "Perpetual check by soldier",
        "3P5/3k5/3nn4/9/9/9/9/9/9/5K3 w - - 0 1",
        "d9e9 d8e8 e9d9 e8d8 d9e9 d8e8 e9d9 e8d8",
        Win,
    ),
    // Perpetual check by soldier
    (
        "Perpetual check by soldier",
        "4ck3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w - - 0 1",
        "e4e3 c4c3 e3e4 c3c4 e4e3 c4c3 e3e4 c3c4",
        Win,
    ),
    // Perpetual check by soldier
    (
        "Perpetual check by soldier",
        "4k4/9/9/c1c6/9/r8/9/9/C8/3K5 w - - 0 1",
        "a1c1 a4c4 c1a1 c4a4 a1c1 a4c4 c1a1 c4a4",
        Win,
    ),
    // Mutual perpetual check
    (
        "Mutual perpetual check",
        "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
        "e3d3 d6e6 d3e3 e6d6 e3d3 d6e6 d3e3 e6d6",
        Draw,
    ),
    // Mutual perpetual check
    (
        "Mutual perpetual check",
        "3k5/6c2/9/7P1/6c2/6P2/9/9/9/5K3 w - - 0 1",
        "h6g6 g5h5 g6h6 h5g5 h6g6 g5h5 g6h6 h5g5",
        Draw,
    ),
    // Mutual perpetual check
    (
        "Mutual perpetual check",
        "4ck3/9/9/9/9/2r1R1N2/6N2/9/4A4/3AK4 w - - 0 1",
        "e4e3 c4c3 e3e4 c3c4 e4e3 c4c3 e3e4 c3c4",
        Draw,
    ),
    // Mutual perpetual check
    (
        "Mutual perpetual check",
        "5k3/9/9/c8/9/P1P6/9/2C6/9/3K5 w - - 0 1",
        "c2a2 a6c6 a2c2 c6a6 c2a2 a6c6 a2c2 c6a6",
        Draw,
    ),
    // Mutual perpetual check
    (
        "Mutual perpetual check",
        "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
        "b1a1 a7b7 a1c1 c7d7 c1b1 b7a7 b1d1 d7c7 d1a1 a7b7 a1c1 c7d7 c1b1 b7a7 b1d1 d7c7 d1a1",
        Draw,
    ),
    // D106: Chariot chases cannon, but attack actually does not change (draw)
    (
        "D106: Chariot chases cannon, but attack actually does not change (draw)",
        "3k2b2/4P4/4b4/9/8p/6Bc1/6P1P/3AB4/4pp3/1p1K3R1 w - - 0 1",
        "h0h1 h4h3 h1h0 h3h4 h0h1 h4h3 h1h0 h3h4",
        Draw,
    ),
    // D39: Chased chariot pinned by horse + mutual chase (controversial if pinned chariot chases)
    (
        "D39: Chased chariot pinned by horse + mutual chase (controversial if pinned chariot chases)",
        "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1",
        "b6b8 f9e8 b8b9 e8f9 b9b8 f9e8 b8b9 e8f9 b9b8",
        Win,
    ),
    // D39: Chased chariot pinned by horse + mutual chase (controversial if pinned chariot chases)
    (
        "D39: Chased chariot pinned by horse + mutual chase (controversial if pinned chariot chases)",
        "5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1",
        "e1f0 h3h1 f0e1 h1h3 e1f0 h3h1 f0e1 h1h3",
        Win,
    ),
    // Creating pins to undermine root
    (
        "Creating pins to undermine root",
        "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1",
        "e3g4 e1f1 g4e3 f1e1 e3g4 e1f1 g4e3 f1e1",
        Loss,
    ),
    // Discovered check capture threat by rook
    (
        "Discovered check capture threat by rook",
        "5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w - - 0 1",
        "b4c2 b0c0 c2b4 c0b0 b4c2 b0c0 c2b4 c0b0",
        Win,
    ),
    // Creating a pin to undermine root + discovered check threat by horse
    (
        "Creating a pin to undermine root + discovered check threat by horse",
        "5k3/9/9/9/9/4c4/3n5/3NBA3/4A4/4K4 w - - 0 1",
        "e0d0 e4d4 d0e0 d4e4 e0d0 e4d4 d0e0 d4e4",
        Win,
    ),
    // Creating a pin to undermine root + discovered check threat by rook
    (
        "Creating a pin to undermine root + discovered check threat by rook",
        "5k3/9/9/9/9/4c4/3r5/3NB4/4A4/4K4 w - - 0 1",
        "e0d0 e4d4 d0e0 d4e4 e0d0 e4d4 d0e0 d4e4",
        Win,
    ),
    // X-Ray protected discovered check
    (
        "X-Ray protected discovered check",
        "5k3/9/9/9/9/9/9/9/9/3NK1cr1 w - - 0 1",
        "d0c2 h0h2 c2d0 h2h0 d0c2 h0h2 c2d0 h2h0",
        Win,
    ),
    // No overprotection by king
    (
        "No overprotection by king",
        "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
        "d0c2 d3c3 c2d0 c3d3 d0c2 d3c3 c2d0 c3d3",
        Draw,
    ),
    // Overprotection by king
    ("Overprotection by king", "3k5/9/9/9/9/9/3r5/9/9/3NK4 w - - 0 1", "d0c2 d3c3 c2d0 c3d3 d0c2 d3c3 c2d0 c3d3", Win),
    // Mutual pins by flying generals
    (
        "Mutual pins by flying generals",
        "4k4/9/9/9/4n4/9/5C3/9/4N4/4K4 w - - 0 1",
        "e1g0 e9f9 g0e1 f9e9 e1g0 e9f9 g0e1 f9e9",
        Decided,
    ),
    // Fake protection by cannon
    (
        "Fake protection by cannon",
        "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1",
        "b4c4 b3c3 c4b4 c3b3 b4c4 b3c3 c4b4 c3b3",
        Win,
    ),
];

/// The winner (`None`: a draw) once `moves` are played from `fen`, with the rule. The suite asks after the last
/// move; a referee ends the game at the first third occurrence, which may come earlier in a long list: then the
/// result it gave stands.
fn outcome(fen: &str, moves: &str) -> Result<(Option<Color>, String), String> {
    let mut game = Game::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    for m in moves.split_whitespace() {
        if game.result().is_some() {
            break;
        }
        game.play(m).map_err(|e| e.to_string())?;
    }
    let r = game.result().ok_or("the game goes on")?;
    Ok((r.winner, r.to_string()))
}

#[test]
fn fairy_stockfish_repetition_cases() {
    let mut failures = Vec::new();
    for &(name, fen, moves, want) in CASES {
        // The side to move after the last move of the list.
        let first = if fen.split_whitespace().nth(1) == Some("b") { Color::Black } else { Color::Red };
        let last = if moves.split_whitespace().count() % 2 == 0 { first } else { !first };
        let got = outcome(fen, moves);
        let ok = match (&got, want) {
            (Ok((winner, _)), Win) => *winner == Some(last),
            (Ok((winner, _)), Loss) => *winner == Some(!last),
            (Ok((winner, _)), Draw) => winner.is_none(),
            (Ok(_), Decided) => true,
            (Err(_), _) => false,
        };
        if !ok {
            failures.push(format!("{name} {fen} {moves}: want {want:?}, got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases disagree:\n{}", failures.len(), CASES.len(), failures.join("\n"));
    assert_eq!(CASES.len(), 32);
}
