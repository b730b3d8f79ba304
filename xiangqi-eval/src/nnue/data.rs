//! The training data: the 50-byte record that `xiangqi datagen` writes and the trainer reads, its checks, the data
//! file, and the input features of a record. This is the one definition of the format; both sides use it.
//!
//! # Data file (`XQDATA01`, little-endian)
//! An 8-byte magic [`DATA_MAGIC`] (its last two characters are the format version), then records of
//! [`RECORD_BYTES`] bytes, nothing else:
//!
//! | bytes | what |
//! |---|---|
//! | 0..45 | the board as 90 nibbles: point `i = rank * 9 + file` in byte `i / 2`, the low nibble for even `i`; 0 empty, `1 + kind` a Red piece, `9 + kind` a Black one, kinds in [`PieceKind`] order (King, Advisor, Elephant, Horse, Chariot, Cannon, Soldier) |
//! | 45 | the side to move: 0 Red, 1 Black |
//! | 46 | the game's result for the side to move: 0 loss, 1 draw, 2 win |
//! | 47 | reserved, 0 |
//! | 48..50 | the search score for the side to move, `i16`, within `-SCORE_MAX..=SCORE_MAX` |
//!
//! A file that grows (a run in progress) may end with a partial record; readers ignore it.
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_eval::nnue::data::{InvalidRecord, Record, RECORD_BYTES};
//!
//! // The start position, Red to move, searched at +15, the game drawn.
//! let rec = Record::from_position(&Position::startpos(), 15, 1);
//! let bytes: [u8; RECORD_BYTES] = rec.encode();
//! assert_eq!(Record::decode(&bytes), Ok(rec));
//! assert_eq!(rec.fen(), Position::startpos().fen());
//! let mut bad = bytes;
//! bad[46] = 3; // no such result
//! assert_eq!(Record::decode(&bad), Err(InvalidRecord::Result(3)));
//! ```

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::features::{bucketed_feature, feature, king_view, output_bucket, KingView};
use xiangqi_core::{Color, Piece, PieceKind, Position, Setup, Square};

/// The 8 bytes at the start of a data file: the format and its version.
pub const DATA_MAGIC: &[u8; 8] = b"XQDATA01";
/// The size of one record in bytes.
pub const RECORD_BYTES: usize = 50;
/// The largest search score a record holds, in engine units (scores are clamped to `-SCORE_MAX..=SCORE_MAX`).
pub const SCORE_MAX: i16 = 10_000;
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
    /// The file is training data of another format version (`XQDATA` and two other characters).
    #[error("{path} holds training data of format version {found:?}, this reads version \"01\" (XQDATA01)")]
    Version {
        /// The file.
        path: PathBuf,
        /// The two characters after `XQDATA`.
        found: String,
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
/// to move's view. [`Record::encode`] and [`Record::decode`] are its 50 bytes (see the [module docs](self)).
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

/// The nibble of a piece: `1 + kind` for Red, `9 + kind` for Black.
#[inline]
fn code_of(p: Piece) -> u8 {
    let k = 1 + p.kind.index() as u8;
    match p.color {
        Color::Red => k,
        Color::Black => 8 + k,
    }
}

impl Record {
    /// The record of `pos` with the search score `score` (clamped) and the game result `result` (0 loss, 1 draw,
    /// 2 win), both for the side to move. Panics if `result > 2` (a caller's bug, not bad input).
    pub fn from_position(pos: &Position, score: i32, result: u8) -> Record {
        assert!(result <= 2, "result {result} is not 0, 1 or 2");
        let mut board = [0u8; 45];
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                let i = sq.index();
                board[i / 2] |= code_of(p) << (4 * (i % 2));
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

    /// The side to move.
    pub fn turn(&self) -> Color {
        if self.stm == 0 {
            Color::Red
        } else {
            Color::Black
        }
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
        for sq in Square::all() {
            let code = self.code(sq.index());
            let flipped = if code == 0 { 0 } else { code ^ 8 };
            let j = sq.flip_rank().index();
            board[j / 2] |= flipped << (4 * (j % 2));
        }
        Record { board, stm: self.stm ^ 1, ..*self }
    }

    /// The active features of the perspective `persp` (0 Red, 1 Black), in point order: the inputs of
    /// [`feature`], as the engine computes them.
    pub fn features(&self, persp: u8) -> Features {
        let view = if persp == 0 { Color::Red } else { Color::Black };
        let mut f = Features { idx: [0; MAX_PIECES], len: 0 };
        for (i, sq) in Square::all().enumerate() {
            let Some(piece) = self.piece(i) else { continue };
            if f.len < MAX_PIECES {
                f.idx[f.len] = feature(view, piece, sq) as u16;
                f.len += 1;
            }
        }
        f
    }

    /// The features of the side to move's perspective, then those of the other side's.
    pub fn both_features(&self) -> (Features, Features) {
        (self.features(self.stm), self.features(self.stm ^ 1))
    }

    /// The active features of the perspective `persp` (0 Red, 1 Black) for a network of `king_buckets` king
    /// buckets: [`Record::features`] for 1, else the inputs of [`bucketed_feature`] relative to that side's own
    /// king (a board without it reads as bucket 0, unmirrored), as the engine computes them.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// use xiangqi_eval::nnue::data::Record;
    /// use xiangqi_eval::nnue::INPUTS;
    ///
    /// let rec = Record::from_position(&Position::startpos(), 0, 1);
    /// assert_eq!(rec.features_for(0, 1), rec.features(0));
    /// // The kings stand on e0 and e9: bucket 1 for both sides, so every input is 1260 further.
    /// let shifted: Vec<u16> = rec.features(1).as_slice().iter().map(|&f| f + INPUTS as u16).collect();
    /// assert_eq!(rec.features_for(1, 6).as_slice(), &shifted[..]);
    /// ```
    pub fn features_for(&self, persp: u8, king_buckets: usize) -> Features {
        if king_buckets == 1 {
            return self.features(persp);
        }
        let view = if persp == 0 { Color::Red } else { Color::Black };
        let own_king = Piece::new(view, PieceKind::King);
        let kv = Square::all()
            .find(|sq| self.piece(sq.index()) == Some(own_king))
            .map_or(KingView { bucket: 0, mirror: false }, |sq| king_view(view, sq));
        let mut f = Features { idx: [0; MAX_PIECES], len: 0 };
        for (i, sq) in Square::all().enumerate() {
            let Some(piece) = self.piece(i) else { continue };
            if f.len < MAX_PIECES {
                f.idx[f.len] = bucketed_feature(view, piece, sq, kv) as u16;
                f.len += 1;
            }
        }
        f
    }

    /// [`Record::features_for`] of the side to move's perspective, then of the other side's.
    pub fn both_features_for(&self, king_buckets: usize) -> (Features, Features) {
        (self.features_for(self.stm, king_buckets), self.features_for(self.stm ^ 1, king_buckets))
    }

    /// The output bucket of the record for a network of `buckets` output buckets: [`output_bucket`] of its
    /// chariots, horses, cannons, advisors and elephants, as the engine picks it.
    pub fn output_bucket(&self, buckets: usize) -> usize {
        let counted = (0..90)
            .filter_map(|i| self.piece(i))
            .filter(|p| !matches!(p.kind, PieceKind::King | PieceKind::Soldier))
            .count();
        output_bucket(counted as u32, buckets)
    }

    /// A 64-bit key of the position (the board and the side to move; not the score or the result): equal
    /// positions have equal keys, for finding duplicates (FNV-1a over the 46 bytes, then a final mix).
    pub fn position_key(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in self.board.iter().chain(std::iter::once(&self.stm)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // The finaliser of splitmix64 spreads FNV's weak high bits.
        h ^= h >> 30;
        h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^= h >> 27;
        h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^ (h >> 31)
    }

    /// The board and the side to move as a [`Setup`] (no move counters are stored: they read 0 and 1). A record
    /// holds any board; [`Position::from_setup`] says whether it is a legal position.
    pub fn setup(&self) -> Setup {
        Setup { board: std::array::from_fn(|i| self.piece(i)), turn: self.turn(), halfmoves: 0, fullmoves: 1 }
    }

    /// The position as FEN (no move counters are stored: they read `0 1`), written by xiangqi-core's [`Setup`].
    pub fn fen(&self) -> String {
        self.setup().to_string()
    }

    /// The result as a fraction for the side to move: 0 loss, 0.5 draw, 1 win.
    pub fn result01(&self) -> f32 {
        f32::from(self.result) / 2.0
    }
}

/// The active features of one perspective: at most [`MAX_PIECES`] input indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    idx: [u16; MAX_PIECES],
    len: usize,
}

impl Features {
    /// The indices, each below [`INPUTS`](super::INPUTS).
    pub fn as_slice(&self) -> &[u16] {
        &self.idx[..self.len]
    }
}

/// Reads the records of a data file, at most `max` of them (all with `None`), checking the magic (its format and
/// version) and every record.
/// A trailing partial record (a file being written) is ignored.
pub fn read_records(path: &Path, max: Option<usize>) -> Result<Vec<Record>, DataError> {
    let io = |source| DataError::Io { path: path.to_owned(), source };
    let file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut magic = [0u8; 8];
    match reader.read_exact(&mut magic) {
        Ok(()) if &magic == DATA_MAGIC => {}
        Ok(()) if magic[..6] == DATA_MAGIC[..6] => {
            let found = String::from_utf8_lossy(&magic[6..]).into_owned();
            return Err(DataError::Version { path: path.to_owned(), found });
        }
        Ok(()) => return Err(DataError::Magic { path: path.to_owned() }),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            return Err(DataError::Magic { path: path.to_owned() })
        }
        Err(e) => return Err(io(e)),
    }
    let count = usize::try_from(record_count(len)).unwrap_or(usize::MAX);
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

/// The number of whole records in a data file of `len` bytes (the magic included).
pub const fn record_count(len: u64) -> u64 {
    len.saturating_sub(DATA_MAGIC.len() as u64) / RECORD_BYTES as u64
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

    /// The layout as `xiangqi datagen` wrote it by raw offsets before the record had a type: the oracle that the
    /// typed record writes the same bytes, so that existing data files stay readable.
    fn raw_offsets_layout(pos: &Position, score: i32, result: u8) -> [u8; 50] {
        let mut r = [0u8; 50];
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                let k = p.kind as u8 + 1;
                let nibble = match p.color {
                    Color::Red => k,
                    Color::Black => 8 + k,
                };
                let i = sq.index();
                r[i / 2] |= nibble << (4 * (i % 2));
            }
        }
        r[45] = pos.turn() as u8;
        let s = score.clamp(-10_000, 10_000) as i16;
        r[48..50].copy_from_slice(&s.to_le_bytes());
        r[46] = result;
        r
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

        /// Along random games: the typed record's bytes are the raw-offset layout's, byte for byte, they decode to
        /// the same record, and the record gives back the position.
        #[test]
        fn bytes_are_the_raw_offset_layout(choices in prop::collection::vec(any::<u16>(), 1..120), score in any::<i32>(), result in 0u8..3) {
            let mut pos = Position::startpos();
            let mut checked = 0;
            for c in choices {
                let rec = Record::from_position(&pos, score, result);
                let bytes = rec.encode();
                prop_assert_eq!(bytes, raw_offsets_layout(&pos, score, result), "{}", pos.fen());
                prop_assert_eq!(Record::decode(&bytes), Ok(rec));
                let back = Position::from_setup(&rec.setup(), xiangqi_core::Validation::Strict).unwrap();
                prop_assert_eq!(back.setup().board, pos.setup().board);
                prop_assert_eq!(back.turn(), pos.turn());
                checked += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[usize::from(c) % moves.len()]);
            }
            prop_assert!(checked >= 1);
        }
    }

    #[test]
    fn start_position_bytes() {
        // The start position, Red to move, a draw, scored -37: written out by hand from the layout.
        let expected =
            "4523214305000000006000006070707070700000000000000000000f0f0f0f0f0e00000e00000000d0bc9abadc000100dbff";
        let bytes = Record::from_position(&Position::startpos(), -37, 1).encode();
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, expected);
        assert_eq!(bytes, raw_offsets_layout(&Position::startpos(), -37, 1));
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
        assert_eq!(rec.turn(), Color::Black);
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
        let dir = std::env::temp_dir().join(format!("xiangqi-eval-data-{}", std::process::id()));
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
        assert_eq!(record_count(8 + 5 * 50 + 7), 5);
        assert_eq!(read_records(&path, None).unwrap(), recs);
        assert_eq!(read_records(&path, Some(2)).unwrap(), recs[..2]);
        std::fs::write(&path, b"XQNNUE\0\0").unwrap();
        assert!(matches!(read_records(&path, None), Err(DataError::Magic { .. })));
        std::fs::write(&path, b"XQDATA02").unwrap();
        let err = read_records(&path, None).unwrap_err();
        assert!(matches!(&err, DataError::Version { found, .. } if found == "02"), "{err}");
        assert!(err.to_string().contains("version \"02\""), "{err}");
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
