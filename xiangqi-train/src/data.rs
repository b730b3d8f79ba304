//! The training records of `xiangqi datagen`: the 50-byte record, the file, and the features of a record.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use xiangqi_core::{Color, Piece, PieceKind, Position, Setup, Square};

/// The 8 bytes at the start of a data file.
pub const DATA_MAGIC: &[u8; 8] = b"XQDATA01";
/// The size of one record in bytes.
pub const RECORD_BYTES: usize = 50;
/// The largest search score a record holds, in engine units (scores are clamped to `-SCORE_MAX..=SCORE_MAX`).
pub const SCORE_MAX: i16 = 10_000;
/// The number of input features: colour relative to the perspective (2) x kind (7) x point (90).
pub const INPUTS: usize = 2 * 7 * 90;
/// The most pieces a board holds, so the most active features of one perspective.
pub const MAX_PIECES: usize = 32;

/// A record that cannot be read, or a data file that cannot be opened or read.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file cannot be opened or read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file does not start with [`DATA_MAGIC`].
    #[error("{path} is not a training data file (it does not start with XQDATA01)")]
    Magic {
        /// The file.
        path: PathBuf,
    },
    /// One record breaks the format.
    #[error("{path}: record {index}: {reason}")]
    Record {
        /// The file.
        path: PathBuf,
        /// The record's index in the file, from 0.
        index: u64,
        /// What is wrong.
        reason: InvalidRecord,
    },
}

/// What is wrong with one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InvalidRecord {
    /// A board nibble is 8, which codes no piece.
    #[error("point {0} holds the piece code 8, which codes no piece")]
    PieceCode(usize),
    /// More than 32 pieces.
    #[error("the board holds {0} pieces, more than 32")]
    TooManyPieces(usize),
    /// The side to move is neither 0 nor 1.
    #[error("side to move {0} is neither 0 (Red) nor 1 (Black)")]
    Side(u8),
    /// The result is not 0, 1 or 2.
    #[error("game result {0} is not 0 (loss), 1 (draw) or 2 (win)")]
    Result(u8),
    /// The score lies outside `-10000..=10000`.
    #[error("score {0} lies outside -10000..=10000")]
    Score(i16),
}

/// One training position: the board, the side to move, the game's result and the search score, both from the side
/// to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Record {
    /// 90 nibbles, point `i` in byte `i / 2` (low nibble for even `i`): 0 empty, `1 + k` a Red piece of kind `k`,
    /// `9 + k` a Black piece of kind `k`.
    pub board: [u8; 45],
    /// 0 Red, 1 Black.
    pub stm: u8,
    /// 0 loss, 1 draw, 2 win, for the side to move.
    pub result: u8,
    /// The search score for the side to move in engine units, within `-SCORE_MAX..=SCORE_MAX`.
    pub score: i16,
}

impl Record {
    /// The record of `pos` with the search score `score` (clamped) and the game result `result` (0 loss, 1 draw,
    /// 2 win), both for the side to move. Panics if `result > 2` (a caller's bug, not bad input).
    pub fn from_position(pos: &Position, score: i32, result: u8) -> Record {
        assert!(result <= 2, "result {result} is not 0, 1 or 2");
        let mut board = [0u8; 45];
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                let code = match p.color {
                    Color::Red => 1 + p.kind.index() as u8,
                    Color::Black => 9 + p.kind.index() as u8,
                };
                let i = sq.index();
                board[i / 2] |= code << (4 * (i % 2));
            }
        }
        let limit = i32::from(SCORE_MAX);
        Record { board, stm: pos.turn().index() as u8, result, score: score.clamp(-limit, limit) as i16 }
    }

    /// The piece code (nibble) of point `i` (0..90).
    #[inline]
    pub fn code(&self, i: usize) -> u8 {
        (self.board[i / 2] >> (4 * (i % 2))) & 0xF
    }

    /// The piece on point `i` (0..90), if any. Code 8 reads as empty (a decoded record never holds it).
    pub fn piece(&self, i: usize) -> Option<Piece> {
        let code = self.code(i);
        let (color, k) = match code {
            1..=7 => (Color::Red, code - 1),
            9..=15 => (Color::Black, code - 9),
            _ => return None,
        };
        Some(Piece::new(color, PieceKind::from_index(usize::from(k))?))
    }

    /// Decodes a record, checking every field.
    pub fn decode(bytes: &[u8; RECORD_BYTES]) -> Result<Record, InvalidRecord> {
        let mut board = [0u8; 45];
        board.copy_from_slice(&bytes[..45]);
        let rec =
            Record { board, stm: bytes[45], result: bytes[46], score: i16::from_le_bytes([bytes[48], bytes[49]]) };
        let mut pieces = 0;
        for i in 0..90 {
            match rec.code(i) {
                0 => {}
                8 => return Err(InvalidRecord::PieceCode(i)),
                _ => pieces += 1,
            }
        }
        if pieces > MAX_PIECES {
            return Err(InvalidRecord::TooManyPieces(pieces));
        }
        if rec.stm > 1 {
            return Err(InvalidRecord::Side(rec.stm));
        }
        if rec.result > 2 {
            return Err(InvalidRecord::Result(rec.result));
        }
        if !(-SCORE_MAX..=SCORE_MAX).contains(&rec.score) {
            return Err(InvalidRecord::Score(rec.score));
        }
        Ok(rec)
    }

    /// The 50 bytes of the record (byte 47, reserved, is 0).
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        out[..45].copy_from_slice(&self.board);
        out[45] = self.stm;
        out[46] = self.result;
        out[48..50].copy_from_slice(&self.score.to_le_bytes());
        out
    }

    /// The colour-flipped twin: ranks mirrored, colours swapped, the other side to move; score and result are
    /// unchanged, since they belong to the side to move.
    pub fn flip_colors(&self) -> Record {
        let mut board = [0u8; 45];
        for i in 0..90 {
            let code = self.code(i);
            let flipped = if code == 0 { 0 } else { code ^ 8 };
            let j = flip_rank(i);
            board[j / 2] |= flipped << (4 * (j % 2));
        }
        Record { board, stm: self.stm ^ 1, ..*self }
    }

    /// The active features of the perspective `persp` (0 Red, 1 Black), in point order.
    pub fn features(&self, persp: u8) -> Features {
        let mut f = Features { idx: [0; MAX_PIECES], len: 0 };
        for i in 0..90 {
            let code = self.code(i);
            if code == 0 || code == 8 {
                continue;
            }
            let color = code >> 3; // 0 Red, 1 Black
            let kind = usize::from(code & 7) - 1;
            if f.len < MAX_PIECES {
                f.idx[f.len] = feature_index(color == persp, kind, i, persp) as u16;
                f.len += 1;
            }
        }
        f
    }

    /// The features of the side to move's perspective, then those of the other side's.
    pub fn both_features(&self) -> (Features, Features) {
        (self.features(self.stm), self.features(self.stm ^ 1))
    }

    /// The position as FEN (no move counters are stored: they read `0 1`), written by xiangqi-core's [`Setup`].
    pub fn fen(&self) -> String {
        let setup = Setup {
            board: std::array::from_fn(|i| self.piece(i)),
            turn: if self.stm == 0 { Color::Red } else { Color::Black },
            halfmoves: 0,
            fullmoves: 1,
        };
        setup.to_string()
    }

    /// The result as a fraction for the side to move: 0 loss, 0.5 draw, 1 win.
    pub fn result01(&self) -> f32 {
        f32::from(self.result) / 2.0
    }
}

/// The point `i` seen from the other side: rank mirrored, file kept.
#[inline]
pub const fn flip_rank(i: usize) -> usize {
    (9 - i / 9) * 9 + i % 9
}

/// The input index of a piece of kind `kind` (0..7) on point `point` for the perspective `persp` (0 Red, 1 Black),
/// the piece being the perspective's own when `own`: `((own ? 0 : 1) * 7 + kind) * 90 + point'`, where `point'`
/// is `point` for Red and the rank-mirrored point for Black.
#[inline]
pub const fn feature_index(own: bool, kind: usize, point: usize, persp: u8) -> usize {
    let s = if persp == 0 { point } else { flip_rank(point) };
    ((if own { 0 } else { 1 }) * 7 + kind) * 90 + s
}

/// The active features of one perspective: at most [`MAX_PIECES`] input indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    idx: [u16; MAX_PIECES],
    len: usize,
}

impl Features {
    /// The indices, each below [`INPUTS`].
    pub fn as_slice(&self) -> &[u16] {
        &self.idx[..self.len]
    }
}

/// Reads the records of a data file, at most `max` of them (all with `None`). A trailing partial record (a file
/// being written) is ignored.
pub fn read_records(path: &Path, max: Option<usize>) -> Result<Vec<Record>, DataError> {
    let io = |source| DataError::Io { path: path.to_owned(), source };
    let file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut magic = [0u8; 8];
    match reader.read_exact(&mut magic) {
        Ok(()) if &magic == DATA_MAGIC => {}
        Ok(()) => return Err(DataError::Magic { path: path.to_owned() }),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            return Err(DataError::Magic { path: path.to_owned() })
        }
        Err(e) => return Err(io(e)),
    }
    let count = usize::try_from(len.saturating_sub(8) / RECORD_BYTES as u64).unwrap_or(usize::MAX);
    let count = max.map_or(count, |m| m.min(count));
    let mut out = Vec::with_capacity(count);
    let mut buf = [0u8; RECORD_BYTES];
    for index in 0..count {
        reader.read_exact(&mut buf).map_err(io)?;
        let rec = Record::decode(&buf).map_err(|reason| DataError::Record {
            path: path.to_owned(),
            index: index as u64,
            reason,
        })?;
        out.push(rec);
    }
    Ok(out)
}

/// Writes a data file: the magic, then the records.
pub fn write_records(path: &Path, records: &[Record]) -> std::io::Result<()> {
    let mut w = BufWriter::new(File::create(path)?);
    w.write_all(DATA_MAGIC)?;
    for r in records {
        w.write_all(&r.encode())?;
    }
    w.flush()
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target of a record: `lambda * result01 + (1 - lambda) * sigmoid(score / scale)`.
pub fn target(rec: &Record, lambda: f32, scale: f32) -> f32 {
    lambda * rec.result01() + (1.0 - lambda) * sigmoid(f32::from(rec.score) / scale)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn arb_record() -> impl Strategy<Value = Record> {
        (
            proptest::collection::vec(prop_oneof![3 => Just(0u8), 1 => 1u8..=7, 1 => 9u8..=15], 90),
            0u8..2,
            0u8..3,
            -SCORE_MAX..=SCORE_MAX,
        )
            .prop_filter_map("at most 32 pieces", |(codes, stm, result, score)| {
                if codes.iter().filter(|&&c| c != 0).count() > MAX_PIECES {
                    return None;
                }
                let mut board = [0u8; 45];
                for (i, c) in codes.iter().enumerate() {
                    board[i / 2] |= c << (4 * (i % 2));
                }
                Some(Record { board, stm, result, score })
            })
    }

    proptest! {
        #[test]
        fn encode_decode_round_trip(rec in arb_record()) {
            prop_assert_eq!(Record::decode(&rec.encode()), Ok(rec));
        }

        #[test]
        fn flipped_twin_swaps_perspectives(rec in arb_record()) {
            let twin = rec.flip_colors();
            prop_assert_eq!(twin.flip_colors(), rec);
            let sorted = |f: Features| { let mut v = f.as_slice().to_vec(); v.sort_unstable(); v };
            // Red's view of the record is Black's view of the twin, and the other way round.
            prop_assert_eq!(sorted(rec.features(0)), sorted(twin.features(1)));
            prop_assert_eq!(sorted(rec.features(1)), sorted(twin.features(0)));
            let (a, b) = rec.both_features();
            let (ta, tb) = twin.both_features();
            prop_assert_eq!(sorted(a), sorted(ta));
            prop_assert_eq!(sorted(b), sorted(tb));
        }
    }

    #[test]
    fn startpos_features() {
        let rec = Record::from_position(&Position::startpos(), 12, 1);
        let (stm, other) = rec.both_features();
        assert_eq!(stm.as_slice().len(), 32);
        // Red to move: Red's king on e0 (point 4) is an own king (kind 0) at point 4.
        assert!(stm.as_slice().contains(&4));
        // Black's view: its own king on e9 (point 85) is seen on rank 0: point 4 again.
        assert!(other.as_slice().contains(&4));
        // Red's view of Black's king: an enemy king (7 * 90) on point 85.
        assert!(stm.as_slice().contains(&(7 * 90 + 85)));
        assert_eq!(stm.as_slice().iter().filter(|&&f| usize::from(f) < 7 * 90).count(), 16);
        // The start position is symmetric, so the two views hold the same features.
        let sorted = |f: Features| {
            let mut v = f.as_slice().to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(stm), sorted(other));
    }

    #[test]
    fn from_position_matches_the_board() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1").unwrap();
        let rec = Record::from_position(&pos, -20_000, 0);
        assert_eq!(rec.score, -SCORE_MAX);
        assert_eq!(rec.stm, 1);
        assert_eq!(rec.code(0), 1 + PieceKind::Chariot.index() as u8);
        assert_eq!(rec.code(4), 1);
        assert_eq!(rec.code(84), 9);
        assert_eq!(rec.piece(84), Some(Piece::new(Color::Black, PieceKind::King)));
        assert_eq!((0..90).filter(|&i| rec.code(i) != 0).count(), 3);
        assert_eq!(rec.fen(), "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1");
        let start = Record::from_position(&Position::startpos(), 0, 1);
        assert_eq!(Position::from_fen(&start.fen()).unwrap().fen(), Position::startpos().fen());
    }

    #[test]
    fn decode_rejects_bad_fields() {
        let good = Record::from_position(&Position::startpos(), 0, 1).encode();
        let mut b = good;
        b[45] = 2;
        assert_eq!(Record::decode(&b), Err(InvalidRecord::Side(2)));
        let mut b = good;
        b[46] = 3;
        assert_eq!(Record::decode(&b), Err(InvalidRecord::Result(3)));
        let mut b = good;
        b[48..50].copy_from_slice(&10_001i16.to_le_bytes());
        assert_eq!(Record::decode(&b), Err(InvalidRecord::Score(10_001)));
        let mut b = good;
        b[44] = 0x80; // point 89, the high nibble of byte 44
        assert_eq!(Record::decode(&b), Err(InvalidRecord::PieceCode(89)));
        let mut b = good;
        b[..45].fill(0x11);
        assert_eq!(Record::decode(&b), Err(InvalidRecord::TooManyPieces(90)));
    }

    #[test]
    fn file_round_trip_and_errors() {
        let dir = std::env::temp_dir().join(format!("xiangqi-train-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.bin");
        let recs: Vec<Record> =
            (0..5).map(|i| Record::from_position(&Position::startpos(), i * 100, (i % 3) as u8)).collect();
        write_records(&path, &recs).unwrap();
        // A partial record at the end (a file still being written) is ignored.
        let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&[0u8; 7]).unwrap();
        drop(f);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 8 + 5 * 50 + 7);
        assert_eq!(read_records(&path, None).unwrap(), recs);
        assert_eq!(read_records(&path, Some(2)).unwrap(), recs[..2]);
        std::fs::write(&path, b"XQNNUE\0\0").unwrap();
        assert!(matches!(read_records(&path, None), Err(DataError::Magic { .. })));
        let mut bad = DATA_MAGIC.to_vec();
        let mut r = recs[0].encode();
        r[46] = 7;
        bad.extend_from_slice(&recs[0].encode());
        bad.extend_from_slice(&r);
        std::fs::write(&path, &bad).unwrap();
        let err = read_records(&path, None).unwrap_err();
        assert!(matches!(err, DataError::Record { index: 1, reason: InvalidRecord::Result(7), .. }), "{err}");
        assert!(matches!(read_records(&dir.join("none.bin"), None), Err(DataError::Io { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
