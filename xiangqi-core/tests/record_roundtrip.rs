//! Round trips of game records: random legal games written in each notation and read back give the same moves;
//! every legal move of the positions they pass through reads back from its own text; the PGN and XQF readers
//! never panic on random bytes or mutated records.
#![cfg(feature = "records")]

use proptest::prelude::*;
use xiangqi_core::record::{
    decode, encode, read_pgn, read_xqf, write_pgn, GameRecord, Notation, ReadOptions, RecordMove, TextEncoding,
};
use xiangqi_core::{Move, Position};

/// A small deterministic generator (xorshift64*), so that every run plays the same games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random legal game from the start position: up to `max` plies, ending early when the side to move has no move.
/// Captures are preferred one time in three so that games reach sparse endgames with doubled pieces.
fn random_game(rng: &mut Rng, max: usize) -> GameRecord {
    let mut pos = Position::startpos();
    let mut game = GameRecord::new(pos.clone());
    for _ in 0..max {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let captures: Vec<Move> = moves.iter().copied().filter(|m| pos.piece_at(m.to()).is_some()).collect();
        let m = if !captures.is_empty() && rng.below(3) == 0 {
            captures[rng.below(captures.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        pos.make_move(m);
        game.moves.push(RecordMove::new(m));
    }
    game.result = Some("*".to_string());
    game
}

#[test]
fn thousands_of_random_games_round_trip_in_every_notation() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let games: Vec<GameRecord> = (0..2000).map(|_| random_game(&mut rng, 160)).collect();
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    assert!(plies > 100_000, "{plies} plies");
    for notation in Notation::ALL {
        // In batches of 100 games per file: the reader also splits files into games.
        for batch in games.chunks(100) {
            let text = write_pgn(batch, notation);
            let file = read_pgn(text.as_bytes(), &ReadOptions::default());
            assert_eq!(file.games.len(), batch.len(), "{notation}");
            for (k, (read, game)) in file.games.iter().zip(batch).enumerate() {
                let read = read.as_ref().unwrap_or_else(|e| panic!("{notation}, game {k}: {e}"));
                assert_eq!(read.main_line(), game.main_line(), "{notation}, game {k}");
                if !game.moves.is_empty() {
                    assert_eq!(read.notation, Some(notation));
                }
            }
        }
    }
}

#[test]
fn every_legal_move_reads_back_from_its_text_in_every_notation() {
    let mut rng = Rng(42);
    let mut checked = 0usize;
    for _ in 0..100 {
        let game = random_game(&mut rng, 160);
        let mut pos = game.start.clone();
        for rm in &game.moves {
            for m in pos.legal_moves() {
                for notation in Notation::ALL {
                    let text = pos.move_text(m, notation);
                    assert_eq!(Notation::detect(&text), Some(notation), "{text}");
                    let read = pos.read_move(&text).unwrap_or_else(|e| panic!("{}: {text}: {e}", pos.fen()));
                    assert_eq!(read, (m, notation), "{}: {text}", pos.fen());
                }
                // Black's digits half-width too.
                assert_eq!(pos.read_move(&pos.chinese(m, false)).map(|r| r.0), Ok(m));
                checked += 1;
            }
            pos.make_move(rm.mv);
        }
    }
    assert!(checked > 50_000, "{checked} moves");
}

#[test]
fn chinese_text_read_and_written_again_is_the_same_text() {
    let mut rng = Rng(7);
    for _ in 0..200 {
        let game = random_game(&mut rng, 120);
        let text = write_pgn(std::slice::from_ref(&game), Notation::Chinese);
        let read = read_pgn(text.as_bytes(), &ReadOptions::default());
        let read = read.games[0].as_ref().unwrap();
        assert_eq!(write_pgn(std::slice::from_ref(read), Notation::Chinese), text);
        // The text each move was read from is the text written for it.
        let mut pos = read.start.clone();
        for rm in &read.moves {
            assert_eq!(rm.text, pos.move_text(rm.mv, Notation::Chinese));
            pos.make_move(rm.mv);
        }
    }
}

#[test]
fn gbk_files_round_trip() {
    let mut rng = Rng(11);
    let games: Vec<GameRecord> = (0..20).map(|_| random_game(&mut rng, 80)).collect();
    let text = write_pgn(&games, Notation::Chinese);
    let bytes = encode(&text, TextEncoding::Gbk).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err(), "GBK bytes are not UTF-8");
    let decoded = decode(&bytes);
    assert_eq!(decoded.encoding, TextEncoding::Gbk);
    assert_eq!(decoded.text, text);
    let file = read_pgn(&bytes, &ReadOptions::default());
    assert_eq!(file.encoding, TextEncoding::Gbk);
    assert_eq!(file.games.len(), games.len());
    for (read, game) in file.games.iter().zip(&games) {
        assert_eq!(read.as_ref().unwrap().main_line(), game.main_line());
    }
    // UTF-8 with a byte-order mark, and UTF-16.
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(text.as_bytes());
    assert_eq!(read_pgn(&bom, &ReadOptions::default()).games.len(), games.len());
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(|u| u.to_le_bytes()));
    let file = read_pgn(&utf16, &ReadOptions::default());
    assert_eq!(file.encoding, TextEncoding::Utf16Le);
    assert!(file.games.iter().all(|g| g.is_ok()));
}

const SAMPLE: &str =
    "[Event \"sample\"]\n[Result \"1-0\"]\n\n1. 炮二平五 {中炮} 马８进７ 2. 马二进三 (2. 兵七进一 卒７进１) \
                      车９平８ ; 横车\n3. 车一平二 马２进３ 1-0\n\n[FEN \"3k5/9/9/9/9/9/9/9/R8/4K4 w\"]\n1. R9+7 *\n";

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_pgn_reader_never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = read_pgn(&bytes, &ReadOptions::default());
    }

    #[test]
    fn the_pgn_reader_never_panics_on_mutated_records(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3u8), 1..12),
        gbk in any::<bool>(),
    ) {
        let mut bytes = if gbk { encode(SAMPLE, TextEncoding::Gbk).unwrap() } else { SAMPLE.as_bytes().to_vec() };
        for (at, byte, kind) in edits {
            let i = at.index(bytes.len().max(1));
            match kind {
                0 if i < bytes.len() => bytes[i] = byte,
                1 => bytes.insert(i.min(bytes.len()), b"{}()[];\"*$.-0123456789abcdefghiCRHEAKP+ \n"[byte as usize % 40]),
                _ if i < bytes.len() => { bytes.remove(i); }
                _ => {}
            }
        }
        let file = read_pgn(&bytes, &ReadOptions::default());
        for game in file.games.iter().flatten() {
            // Whatever was read replays legally.
            let mut pos = game.start.clone();
            for m in &game.moves {
                prop_assert!(pos.is_legal(m.mv));
                pos.make_move(m.mv);
            }
        }
    }

    #[test]
    fn the_xqf_reader_never_panics(
        version in prop::sample::select(vec![10u8, 11, 12, 16, 18]),
        head in proptest::collection::vec(any::<u8>(), 1024),
        tree in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        let mut bytes = head;
        bytes[0] = b'X';
        bytes[1] = b'Q';
        bytes[2] = version;
        bytes.extend(tree);
        let _ = read_xqf(&bytes);
    }
}
