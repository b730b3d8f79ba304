//! Properties of the rules core over random games and random text: make/unmake restores everything, the
//! incremental key equals the recomputed one (and the one `key_after` predicts), FEN round-trips, and no text makes
//! a parser panic.

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use std::cell::Cell;
use xiangqi_core::attacks::between;
use xiangqi_core::{
    piece_reach, Bitboard, Color, Move, Piece, PieceKind, Position, Setup, Square, Validation, START_FEN,
};

const FENS: &[&str] = &[
    START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
];

/// Plays a random game from `fen`, choosing moves with `choices`, checking at every ply.
fn random_game(fen: &str, choices: &[u16]) {
    random_game_from(Position::from_fen(fen).unwrap(), Validation::Strict, choices);
}

/// [`random_game`] from `pos`, whose FENs read back with `validation`.
fn random_game_from(mut pos: Position, validation: Validation, choices: &[u16]) {
    let mut snapshots = vec![(pos.fen(), pos.key())];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[c as usize % moves.len()];
        assert!(pos.is_legal(m));
        for &any in &moves {
            let gives = pos.gives_check(any);
            let key_after = pos.key_after(any);
            pos.make_move(any);
            assert_eq!(gives, pos.in_check(), "gives_check({any})");
            assert_eq!(key_after, pos.key(), "key_after({any})");
            pos.unmake_move();
        }
        pos.make_move(m);
        assert_eq!(pos.key(), pos.compute_key(), "incremental key after {m}");
        check_attackers(&pos);
        // FEN round-trip: read(write(x)) describes the same position and writes the same text.
        let fen = pos.fen();
        let setup = Setup::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let again = Position::from_setup(&setup, validation).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(again.fen(), fen);
        assert_eq!(again.key(), pos.key());
        snapshots.push((fen, pos.key()));
    }
    // Unmake everything, checking each position on the way back.
    while let Some((fen, key)) = snapshots.pop() {
        assert_eq!(pos.fen(), fen);
        assert_eq!(pos.key(), key);
        pos.unmake_move();
    }
}

/// `attackers_to` and `checkers` against a brute force over every piece's reach (plus the flying general). The
/// reach is taken with `sq` occupied: attacking a point means capturing whatever stands there.
fn check_attackers(pos: &Position) {
    let occ = pos.occupancy();
    for sq in (0..90).map(|i| Square::from_index(i).unwrap()) {
        let with_sq = occ.with(sq);
        for by in Color::ALL {
            let mut expected = Bitboard::EMPTY;
            for from in pos.color_bb(by) {
                let p = pos.piece_at(from).unwrap();
                let flying = p.kind == PieceKind::King
                    && from.file() == sq.file()
                    && from != sq
                    && (between(from, sq) & pos.occupied()).is_empty();
                if piece_reach(p, from, &with_sq).capture.contains(sq) || flying {
                    expected = expected.with(from);
                }
            }
            assert_eq!(pos.attackers_to(sq, by, Bitboard::FULL, occ), expected, "attackers of {sq} by {by:?}");
            assert_eq!(pos.is_attacked(sq, by, Bitboard::FULL, occ), expected.any(), "{sq} attacked by {by:?}");
            if pos.piece_at(sq).is_some_and(|p| p.kind == PieceKind::King && p.color != by && by != pos.turn()) {
                assert_eq!(pos.checkers(), expected, "checkers");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn make_unmake_restores_position_and_key(
        start in 0..FENS.len(),
        choices in prop::collection::vec(any::<u16>(), 0..120),
    ) {
        random_game(FENS[start], &choices);
    }

    #[test]
    fn null_move_round_trip(start in 0..FENS.len(), choices in prop::collection::vec(any::<u16>(), 0..40)) {
        let mut pos = Position::from_fen(FENS[start]).unwrap();
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() { break; }
            pos.make_move(moves[c as usize % moves.len()]);
            if !pos.in_check() {
                let (fen, key) = (pos.fen(), pos.key());
                pos.make_null_move();
                prop_assert_eq!(pos.key(), pos.compute_key());
                pos.unmake_move();
                prop_assert_eq!(pos.fen(), fen);
                prop_assert_eq!(pos.key(), key);
            }
        }
    }
}

/// Lenient setups (pieces anywhere, any counts) that are accepted play by the same rules: every attacker of the king
/// is seen, so no legal move ever takes a king. About a quarter of the setups drawn are accepted; at least 30 of the
/// 300 must be, so that the rules are checked on some.
#[test]
fn lenient_setups_play_by_the_rules() {
    let config = ProptestConfig { cases: 300, source_file: Some(file!()), ..ProptestConfig::default() };
    let strategy = (
        (0..45usize, 45..90usize),
        prop::collection::vec((0..90usize, 0..Piece::NUM), 0..24),
        any::<bool>(),
        prop::collection::vec(any::<u16>(), 0..40),
    );
    let accepted = Cell::new(0usize);
    TestRunner::new(config)
        .run(&strategy, |(kings, pieces, black, choices)| {
            let mut setup = Setup::from_fen(START_FEN).unwrap();
            setup.board = [None; 90];
            setup.turn = if black { Color::Black } else { Color::Red };
            for (sq, i) in pieces {
                let kind = PieceKind::ALL[i % 7];
                if kind != PieceKind::King {
                    setup.board[sq] = Some(Piece::new(if i < 7 { Color::Red } else { Color::Black }, kind));
                }
            }
            setup.board[kings.0] = Some(Piece::new(Color::Red, PieceKind::King));
            setup.board[kings.1] = Some(Piece::new(Color::Black, PieceKind::King));
            if let Ok(pos) = Position::from_setup(&setup, Validation::Lenient) {
                accepted.set(accepted.get() + 1);
                for m in pos.legal_moves() {
                    prop_assert!(
                        pos.piece_at(m.to()).map_or(true, |p| p.kind != PieceKind::King),
                        "{} takes a king",
                        m
                    );
                }
                random_game_from(pos, Validation::Lenient, &choices);
            }
            Ok(())
        })
        .unwrap();
    eprintln!("lenient setups accepted: {} of 300", accepted.get());
    assert!(accepted.get() >= 30, "only {} of 300 lenient setups were accepted", accepted.get());
}

/// Random edits of valid FENs: the parser answers (Ok or Err) and never panics; whatever it accepts writes back
/// to a FEN that reads to the same position.
fn mutate(base: &str, edits: &[(u8, u8, u8)]) -> String {
    const ALPHABET: &[u8] = b"rnbakcpRNBAKCPHEhe0123456789/ wbr-+x\t";
    let mut bytes = base.as_bytes().to_vec();
    for &(op, at, ch) in edits {
        let i = if bytes.is_empty() { 0 } else { at as usize % (bytes.len() + 1) };
        let c = ALPHABET[ch as usize % ALPHABET.len()];
        match op % 4 {
            0 => bytes.insert(i, c),
            1 if i < bytes.len() => {
                bytes.remove(i);
            }
            2 if i < bytes.len() => bytes[i] = c,
            _ => bytes.truncate(i),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// What [`check_text`] found in a text: a setup, and positions (strict, lenient) whose facts it checked.
#[derive(Clone, Copy, Default)]
struct Read {
    setups: usize,
    positions: usize,
}

/// Reads `text` as a FEN and as a move, checking what is read; returns what was read.
fn check_text(text: &str) -> Read {
    let mut read = Read::default();
    if let Ok(setup) = Setup::from_fen(text) {
        read.setups += 1;
        // A parsed setup writes a FEN that parses to itself.
        let written = setup.to_string();
        assert_eq!(Setup::from_fen(&written).as_ref(), Ok(&setup), "{text:?}");
        for validation in [Validation::Strict, Validation::Lenient] {
            if let Ok(pos) = Position::from_setup(&setup, validation) {
                read.positions += 1;
                assert_eq!(pos.key(), pos.compute_key());
                let _ = pos.legal_moves();
            }
        }
    }
    let pos = Position::startpos();
    let _ = pos.parse_move(text);
    let _ = Move::parse(text);
    read
}

/// Random edits of the FENs: whatever is read is checked. Some edited texts still read (an edit of a counter, a
/// piece turned into another...): about one in thirty as a setup; at least 1,000 of the 60,000 must, as setups and as
/// positions, or nothing was checked.
#[test]
fn mutated_fens_never_panic() {
    let config = ProptestConfig { cases: 60_000, failure_persistence: None, ..ProptestConfig::default() };
    let strategy = (0..FENS.len(), prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 1..6));
    let total = Cell::new(Read::default());
    TestRunner::new(config)
        .run(&strategy, |(start, edits)| {
            let read = check_text(&mutate(FENS[start], &edits));
            let sum = total.get();
            total.set(Read { setups: sum.setups + read.setups, positions: sum.positions + read.positions });
            Ok(())
        })
        .unwrap();
    let Read { setups, positions } = total.get();
    eprintln!("mutated FENs read: {setups} setups, {positions} positions of 60000");
    assert!(setups >= 1_000 && positions >= 1_000, "{setups} setups and {positions} positions read of 60000");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any text at all: an answer, never a panic (almost none of it is a FEN; what is read is checked as above).
    #[test]
    fn arbitrary_text_never_panics(text in ".{0,120}") {
        check_text(&text);
    }
}

#[test]
fn fen_errors_name_the_field() {
    let cases = [
        ("", "empty"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w", "10 ranks"),
        ("rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "rank 9"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKXBNR w", "'X' is not a piece"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side-to-move"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ", "castling"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "halfmove"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 extra", "unexpected"),
    ];
    for (fen, needle) in cases {
        let msg = Position::from_fen(fen).unwrap_err().to_string();
        assert!(msg.contains(needle), "{fen:?} gave {msg:?}, expected it to mention {needle:?}");
    }
}

#[test]
fn impossible_positions_are_rejected_with_a_reason() {
    let cases = [
        ("3k5/9/9/9/9/9/9/9/9/9 w", "red has no king"),
        ("3k5/9/9/9/9/9/9/9/9/3KK4 w", "more than one king"),
        ("3k5/9/9/9/9/9/9/9/9/K8 w", "never reach"),
        ("3k5/9/9/9/9/9/9/9/P8/4K4 w", "never reach"),
        ("3k5/9/9/9/9/9/9/9/3A5/4K4 w", "never reach"),
        ("3k5/9/9/9/9/B8/9/9/9/4K4 w", "never reach"),
        ("3k5/9/9/9/9/RRR6/9/9/9/4K4 w", "3 pieces"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "face"),
        ("4k4/9/9/9/9/9/9/9/4R4/3K5 w", "black is not to move but is in check"),
    ];
    for (fen, needle) in cases {
        let msg = Position::from_fen(fen).unwrap_err().to_string();
        assert!(msg.contains(needle), "{fen:?} gave {msg:?}, expected it to mention {needle:?}");
    }
    // Lenient mode accepts odd placements and counts, but never a capturable king.
    let odd = Setup::from_fen("3k5/9/9/9/9/RRR6/9/9/9/K8 w").unwrap();
    assert!(Position::from_setup(&odd, Validation::Lenient).is_ok());
    let facing = Setup::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap();
    assert!(Position::from_setup(&facing, Validation::Lenient).is_err());
    // Nor a king, advisor or elephant across the river: from there it could take the other king, or (a king) be
    // taken by advisors and elephants, which no check test looks for.
    for (fen, piece) in [
        ("4k4/3A5/9/9/9/9/9/R8/9/3K5 w", "d8"),
        ("2B6/9/4k4/9/9/9/9/9/9/3K5 w", "c9"),
        ("3Kk4/9/9/9/9/9/9/9/9/9 w", "d9"),
        ("4k4/9/9/9/9/9/9/9/4a4/3K5 b", "e1"),
        ("4k4/9/3b5/9/1K7/9/9/9/9/9 b", "b5"),
    ] {
        let setup = Setup::from_fen(fen).unwrap();
        let msg = Position::from_setup(&setup, Validation::Lenient).unwrap_err().to_string();
        assert!(msg.contains(piece) && msg.contains("never reach"), "{fen:?} gave {msg:?}");
    }
    // Off its points but on its own side, an advisor or elephant is still a lenient placement.
    let own_side = Setup::from_fen("3k5/9/9/9/9/2A6/9/9/4B4/4K4 w").unwrap();
    assert!(Position::from_setup(&own_side, Validation::Lenient).is_ok());
}

#[test]
fn setup_counters_are_bounded() {
    let mut setup = Setup::from_fen(START_FEN).unwrap();
    setup.halfmoves = u32::MAX;
    let msg = Position::from_setup(&setup, Validation::Lenient).unwrap_err().to_string();
    assert!(msg.contains("halfmove clock"), "{msg}");
    setup.halfmoves = Setup::MAX_HALFMOVES;
    setup.fullmoves = Setup::MAX_FULLMOVES + 1;
    let msg = Position::from_setup(&setup, Validation::Strict).unwrap_err().to_string();
    assert!(msg.contains("fullmove number"), "{msg}");
    setup.fullmoves = Setup::MAX_FULLMOVES;
    let mut pos = Position::from_setup(&setup, Validation::Strict).unwrap();
    pos.play("h2e2").unwrap();
    assert_eq!(pos.halfmoves(), Setup::MAX_HALFMOVES + 1);
}

/// The FEN of a position reached from a setup at the counters' bounds reads back: the counters written stop at the
/// bounds (the clock counts on inside the position). Unbounded, `h2e2 h9g7` from such a setup would write
/// `10002 100001`, which the FEN reader refuses: `d` would show a FEN that `position fen` does not take.
#[test]
fn fens_of_positions_past_the_counters_bounds_read_back() {
    let start = format!("{} 10000 100000", &START_FEN[..START_FEN.len() - 4]);
    let mut pos = Position::from_fen(&start).unwrap();
    for m in ["h2e2", "h9g7", "e2h2", "g7h9"] {
        pos.play(m).unwrap();
        let fen = pos.fen();
        let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(back.fen(), fen);
        assert_eq!(back.key(), pos.key());
        assert!(fen.ends_with(" 10000 100000"), "{fen}");
    }
    assert_eq!(pos.halfmoves(), Setup::MAX_HALFMOVES + 4);
    // Below the bounds nothing changes.
    let mut pos = Position::from_fen(&format!("{} 9998 99999", &START_FEN[..START_FEN.len() - 4])).unwrap();
    pos.play("h2e2").unwrap();
    assert!(pos.fen().ends_with(" b - - 9999 99999"), "{}", pos.fen());
    pos.play("h9g7").unwrap();
    assert!(pos.fen().ends_with(" w - - 10000 100000"), "{}", pos.fen());
}

#[test]
fn move_errors_say_why() {
    let pos = Position::startpos();
    let cases = [
        ("h2", "malformed"),
        ("z2e2", "malformed"),
        ("e2e2", "same square"),
        ("e5e6", "no piece on e5"),
        ("h7e7", "not red's"),
        ("h2h8", "cannot move to h8"),
        ("h2h9", "Ok"),
        ("a0a4", "cannot move to a4"),
        ("e0e1", "Ok"),
    ];
    for (text, needle) in cases {
        let msg = match pos.parse_move(text) {
            Ok(_) => "Ok".to_string(),
            Err(e) => e.to_string(),
        };
        assert!(msg.contains(needle), "{text:?} gave {msg:?}, expected it to mention {needle:?}");
    }
    // Moving a pinned piece: the chariot on e1 shields the king from the chariot on e9.
    let pinned = Position::from_fen("3kr4/9/9/9/9/9/9/9/4R4/4K4 w").unwrap();
    let msg = pinned.parse_move("e1d1").unwrap_err().to_string();
    assert!(msg.contains("leaves the red king in check"), "{msg}");
    // ICCS is read too.
    assert_eq!(pos.parse_move("H2-E2"), pos.parse_move("h2e2"));
}
