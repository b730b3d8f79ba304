//! Move text in the four notations players keep their games in: Chinese (`炮二平五`, `马８进７`), WXF (`C2.5`),
//! ICCS (`H2-E2`) and UCI coordinates (`h2e2`), written and read against a position.
//!
//! Chinese and WXF describe a move relative to the mover: the piece, the file it stands on (1-9 from the mover's
//! right; Red writes Chinese numerals 一..九, Black digits 1..9, full-width １..９ in most files), the direction
//! (进 forward, 退 backward, 平 sideways) and the destination file (sideways moves and the diagonal movers: horse,
//! advisor, elephant) or the number of ranks moved. Two or more pieces of a kind on one file are told apart by
//! 前/后 (front, rear), 中 (the middle of three), 二/三/四 (the second to fourth of four or five soldiers); when two
//! files each hold two or more soldiers the file number replaces the piece's name (`前七进一`), and the 2011 rules'
//! numbering of all those soldiers, file by file from the mover's right and front to rear (`四兵进一`), is read too.
//!
//! Reading works by describing every legal move of the position and matching the text against those
//! descriptions, after folding the variants writers use: traditional characters (車 馬 帥 將 進 後), the pieces'
//! other names (俥 傌 砲 包 象/相 士/仕 兵/卒), 上/下 for 进/退, half- or full-width digits, Chinese numerals for
//! either side. A text that matches no legal move, or more than one, is an error.

use crate::position::Position;
use crate::types::{Color, PieceKind};
use crate::wxf::Description;
use crate::Move;
use std::fmt;

/// A notation for move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Chinese: `炮二平五 马８进７` (Red's numerals, Black's full-width digits).
    Chinese,
    /// WXF: `C2.5 H8+7`.
    Wxf,
    /// ICCS coordinates: `H2-E2 H9-G7`.
    Iccs,
    /// UCI coordinates with ranks 0-9: `h2e2 h9g7`.
    Uci,
}

impl Notation {
    /// Every notation.
    pub const ALL: [Notation; 4] = [Notation::Chinese, Notation::Wxf, Notation::Iccs, Notation::Uci];

    /// The name used on the command line and in the PGN `Format` tag (`Chinese`, `WXF`, `ICCS`, `UCI`).
    pub fn name(self) -> &'static str {
        match self {
            Notation::Chinese => "Chinese",
            Notation::Wxf => "WXF",
            Notation::Iccs => "ICCS",
            Notation::Uci => "UCI",
        }
    }

    /// Guesses the notation of one move's text from its shape, without a position: any non-ASCII character is
    /// Chinese, `A0-B1` ICCS, `a0b1` UCI, the rest WXF. `None` for an empty text.
    ///
    /// ```
    /// use xiangqi_core::record::Notation;
    /// assert_eq!(Notation::detect("炮二平五"), Some(Notation::Chinese));
    /// assert_eq!(Notation::detect("H2-E2"), Some(Notation::Iccs));
    /// assert_eq!(Notation::detect("h2e2"), Some(Notation::Uci));
    /// assert_eq!(Notation::detect("C2.5"), Some(Notation::Wxf));
    /// ```
    pub fn detect(text: &str) -> Option<Notation> {
        let t = text.trim();
        if t.is_empty() {
            return None;
        }
        if !t.is_ascii() {
            return Some(Notation::Chinese);
        }
        let b = t.as_bytes();
        let file = |c: u8| matches!(c.to_ascii_lowercase(), b'a'..=b'i');
        let rank = |c: u8| c.is_ascii_digit();
        if b.len() == 5 && file(b[0]) && rank(b[1]) && b[2] == b'-' && file(b[3]) && rank(b[4]) {
            return Some(Notation::Iccs);
        }
        if b.len() == 4 && file(b[0]) && rank(b[1]) && file(b[2]) && rank(b[3]) {
            return Some(Notation::Uci);
        }
        Some(Notation::Wxf)
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Notation {
    type Err = String;
    /// `chinese`, `wxf`, `iccs` or `uci`, in any case.
    fn from_str(s: &str) -> Result<Notation, String> {
        match s.to_ascii_lowercase().as_str() {
            "chinese" | "cn" | "zh" => Ok(Notation::Chinese),
            "wxf" => Ok(Notation::Wxf),
            "iccs" => Ok(Notation::Iccs),
            "uci" => Ok(Notation::Uci),
            _ => Err(format!("unknown notation {s:?}: expected chinese, wxf, iccs or uci")),
        }
    }
}

/// Why a move's text could not be read in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text is not a move in any notation.
    #[error("{text:?} is not a move in Chinese, WXF, ICCS or UCI notation")]
    Malformed {
        /// The text (cut to 32 characters).
        text: String,
    },
    /// The text reads as a move, but no legal move of the position fits it.
    #[error("{text:?} ({notation}) is no legal move here")]
    NoSuchMove {
        /// The text (cut to 32 characters).
        text: String,
        /// The notation it was read in.
        notation: Notation,
    },
    /// Several legal moves fit the text.
    #[error("{text:?} ({notation}) fits several legal moves: {candidates}")]
    Ambiguous {
        /// The text (cut to 32 characters).
        text: String,
        /// The notation it was read in.
        notation: Notation,
        /// The moves that fit, in UCI notation.
        candidates: String,
    },
}

fn clip(text: &str) -> String {
    text.chars().take(32).collect()
}

const RED_NAMES: [&str; 7] = ["帅", "仕", "相", "马", "车", "炮", "兵"];
const BLACK_NAMES: [&str; 7] = ["将", "士", "象", "马", "车", "炮", "卒"];
const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULLWIDTH: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

fn kind_index(kind: PieceKind) -> usize {
    match kind {
        PieceKind::King => 0,
        PieceKind::Advisor => 1,
        PieceKind::Elephant => 2,
        PieceKind::Horse => 3,
        PieceKind::Chariot => 4,
        PieceKind::Cannon => 5,
        PieceKind::Soldier => 6,
    }
}

/// The letter the matching keys use for a kind (WXF's letters).
fn key_letter(kind: PieceKind) -> char {
    ['K', 'A', 'E', 'H', 'R', 'C', 'P'][kind_index(kind)]
}

impl Description {
    /// A number in the mover's Chinese convention: Red's numerals, Black's digits (full-width or ASCII).
    fn chinese_number(&self, n: u8, fullwidth: bool) -> char {
        let i = (n.clamp(1, 9) - 1) as usize;
        match self.color {
            Color::Red => NUMERALS[i],
            Color::Black if fullwidth => FULLWIDTH[i],
            Color::Black => char::from(b'1' + i as u8),
        }
    }

    /// The tandem marker: 前, 中, 后, or the ordinal 二/三/四 among four or five soldiers.
    fn chinese_marker(&self, index: u8, count: u8) -> String {
        match (count, index) {
            (_, 0) => "前".to_string(),
            (n, i) if i == n - 1 => "后".to_string(),
            (3, 1) => "中".to_string(),
            (_, i) => self.chinese_number(i + 1, true).to_string(),
        }
    }

    /// The Chinese text of the move.
    pub(crate) fn chinese(&self, fullwidth: bool) -> String {
        let names = if self.color == Color::Red { &RED_NAMES } else { &BLACK_NAMES };
        let name = names[kind_index(self.kind)];
        let mut s = String::new();
        match self.tandem {
            None => {
                s.push_str(name);
                s.push(self.chinese_number(self.file, fullwidth));
            }
            Some(t) => {
                s.push_str(&self.chinese_marker(t.index, t.count));
                if t.two_files {
                    s.push(self.chinese_number(self.file, fullwidth));
                } else {
                    s.push_str(name);
                }
            }
        }
        s.push(match self.dir {
            '+' => '进',
            '-' => '退',
            _ => '平',
        });
        s.push(self.chinese_number(self.amount, fullwidth));
        s
    }

    /// The matching keys of the move's Chinese text: the canonical one first, then the other forms writers use.
    /// A key spells the piece with WXF's letters, numbers as ASCII digits, the markers as `f` (前), `m` (中),
    /// `b` (后) or an ordinal digit, and the direction as `+ - .`.
    fn chinese_keys(&self) -> Vec<String> {
        let letter = key_letter(self.kind);
        let tail = format!("{}{}", self.dir, self.amount);
        let mut keys = Vec::with_capacity(4);
        match self.tandem {
            None => {
                keys.push(format!("{letter}{}{tail}", self.file));
                // Advisors and elephants on one file are told apart by the direction; some writers use 前/后.
                if matches!(self.kind, PieceKind::Advisor | PieceKind::Elephant) {
                    keys.push(format!("f{letter}{tail}"));
                    keys.push(format!("b{letter}{tail}"));
                }
            }
            Some(t) => {
                let mut markers = vec![match (t.count, t.index) {
                    (_, 0) => 'f',
                    (n, i) if i == n - 1 => 'b',
                    (3, 1) => 'm',
                    (_, i) => char::from(b'1' + i),
                }];
                markers.push(char::from(b'1' + t.index));
                if t.count % 2 == 1 && t.index == t.count / 2 {
                    markers.push('m');
                }
                if t.two_files {
                    keys.push(format!("{}{letter}{tail}", t.ordinal + 1));
                }
                for marker in markers {
                    if t.two_files {
                        keys.push(format!("{marker}{}{tail}", self.file));
                        keys.push(format!("{marker}{letter}{}{tail}", self.file));
                    } else {
                        keys.push(format!("{marker}{letter}{tail}"));
                        keys.push(format!("{letter}{marker}{tail}"));
                    }
                }
            }
        }
        keys
    }

    /// The matching keys of the move's WXF text: the canonical one first, then `+R` for `R+`.
    fn wxf_keys(&self) -> Vec<String> {
        let canonical = self.wxf();
        let mut keys = vec![canonical.clone()];
        let b = canonical.as_bytes();
        if b.len() == 4 && b[0].is_ascii_alphabetic() && matches!(b[1], b'+' | b'-') {
            keys.push(format!("{}{}{}", b[1] as char, b[0] as char, &canonical[2..]));
        }
        keys
    }
}

/// Folds one character of Chinese move text into the matching key's alphabet, or `None` for a character no
/// notation uses. Whitespace folds to nothing.
fn fold_chinese(c: char) -> Option<Option<char>> {
    let letter = match c {
        '帅' | '帥' | '将' | '將' => 'K',
        '仕' | '士' => 'A',
        '相' | '象' => 'E',
        '马' | '馬' | '傌' => 'H',
        '车' | '車' | '俥' | '伡' => 'R',
        '炮' | '砲' | '包' => 'C',
        '兵' | '卒' => 'P',
        '进' | '進' | '上' => '+',
        '退' | '下' => '-',
        '平' => '.',
        '前' => 'f',
        '中' => 'm',
        '后' | '後' => 'b',
        '1'..='9' => c,
        '１'..='９' => char::from(b'1' + (c as u32 - '１' as u32) as u8),
        c if c.is_whitespace() => return Some(None),
        c => {
            let i = NUMERALS.iter().position(|&n| n == c)?;
            char::from(b'1' + i as u8)
        }
    };
    Some(Some(letter))
}

/// The matching key of a Chinese move text, or `None` when it holds a character no notation uses.
fn chinese_key(text: &str) -> Option<String> {
    let mut key = String::new();
    for c in text.chars() {
        if let Some(k) = fold_chinese(c)? {
            key.push(k);
        }
    }
    Some(key)
}

/// The matching key of a WXF move text: upper case, the letters' aliases folded (`N` horse, `B` elephant), `=`
/// for `.`.
fn wxf_key(text: &str) -> Option<String> {
    let mut key = String::new();
    for c in text.trim().chars() {
        key.push(match c.to_ascii_uppercase() {
            'N' => 'H',
            'B' => 'E',
            '=' => '.',
            c @ ('K' | 'A' | 'E' | 'H' | 'R' | 'C' | 'P' | '+' | '-' | '.' | '1'..='9') => c,
            _ => return None,
        });
    }
    Some(key)
}

impl Position {
    /// The move `m` (legal here) written in `notation`; Chinese writes Black's digits full-width.
    ///
    /// ```
    /// use xiangqi_core::{Position, record::Notation};
    /// let mut pos = Position::startpos();
    /// let m = pos.parse_move("h2e2").unwrap();
    /// assert_eq!(pos.move_text(m, Notation::Chinese), "炮二平五");
    /// assert_eq!(pos.move_text(m, Notation::Wxf), "C2.5");
    /// assert_eq!(pos.move_text(m, Notation::Iccs), "H2-E2");
    /// pos.make_move(m);
    /// assert_eq!(pos.move_text(pos.parse_move("h9g7").unwrap(), Notation::Chinese), "马８进７");
    /// ```
    pub fn move_text(&self, m: Move, notation: Notation) -> String {
        match notation {
            Notation::Uci => m.to_string(),
            Notation::Iccs => m.iccs(),
            Notation::Wxf => self.wxf(m),
            Notation::Chinese => self.chinese(m, true),
        }
    }

    /// The move `m` (legal here) in Chinese notation, Black's digits full-width (`马８进７`) or ASCII (`马8进7`).
    pub fn chinese(&self, m: Move, fullwidth: bool) -> String {
        match self.describe(m) {
            Some(d) => d.chinese(fullwidth),
            None => m.to_string(),
        }
    }

    /// Reads a move in any of the notations (detected from its shape, see [`Notation::detect`]) and checks that it
    /// is legal here. Returns the move and the notation it was read in.
    ///
    /// ```
    /// use xiangqi_core::{Position, record::Notation};
    /// let pos = Position::startpos();
    /// let m = pos.parse_move("h2e2").unwrap();
    /// for text in ["炮二平五", "炮二平五", "砲二平五", "C2.5", "c2=5", "H2-E2", "h2e2"] {
    ///     assert_eq!(pos.read_move(text).unwrap().0, m, "{text}");
    /// }
    /// assert!(pos.read_move("炮二进五").is_err());
    /// ```
    pub fn read_move(&self, text: &str) -> Result<(Move, Notation), NotationError> {
        let notation = Notation::detect(text).ok_or_else(|| NotationError::Malformed { text: clip(text) })?;
        self.read_move_in(text, notation).map(|m| (m, notation))
    }

    /// Reads a move written in `notation` and checks that it is legal here.
    pub fn read_move_in(&self, text: &str, notation: Notation) -> Result<Move, NotationError> {
        let malformed = || NotationError::Malformed { text: clip(text) };
        let no_move = || NotationError::NoSuchMove { text: clip(text), notation };
        match notation {
            Notation::Uci | Notation::Iccs => {
                let m = Move::parse(text).map_err(|_| malformed())?;
                self.check_move(m).map_err(|_| no_move())
            }
            Notation::Chinese | Notation::Wxf => {
                let key = if notation == Notation::Chinese { chinese_key(text) } else { wxf_key(text) };
                let key = key.filter(|k| (3..=6).contains(&k.len())).ok_or_else(malformed)?;
                // Moves whose canonical text fits first; then those another accepted form fits.
                let (mut canonical, mut other) = (Vec::new(), Vec::new());
                self.for_each_legal_move(|m| {
                    if let Some(d) = self.describe(m) {
                        let keys = if notation == Notation::Chinese { d.chinese_keys() } else { d.wxf_keys() };
                        if keys[0] == key {
                            canonical.push(m);
                        } else if keys[1..].contains(&key) {
                            other.push(m);
                        }
                    }
                    true
                });
                let found = if canonical.is_empty() { other } else { canonical };
                match found.as_slice() {
                    [] => Err(no_move()),
                    [m] => Ok(*m),
                    many => Err(NotationError::Ambiguous {
                        text: clip(text),
                        notation,
                        candidates: many.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "),
                    }),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(fen: &str, m: &str, notation: Notation) -> String {
        let pos = Position::from_fen(fen).unwrap();
        pos.move_text(pos.parse_move(m).unwrap(), notation)
    }

    fn read(fen: &str, text: &str) -> String {
        let pos = Position::from_fen(fen).unwrap();
        pos.read_move(text).map(|(m, _)| m.to_string()).unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn opening_moves_in_chinese() {
        let start = crate::START_FEN;
        assert_eq!(text(start, "h2e2", Notation::Chinese), "炮二平五");
        assert_eq!(text(start, "b0c2", Notation::Chinese), "马八进七");
        assert_eq!(text(start, "c0e2", Notation::Chinese), "相七进五");
        assert_eq!(text(start, "f0e1", Notation::Chinese), "仕四进五");
        assert_eq!(text(start, "i0i2", Notation::Chinese), "车一进二");
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        assert_eq!(text(black, "h9g7", Notation::Chinese), "马８进７");
        assert_eq!(text(black, "b7e7", Notation::Chinese), "炮２平５");
        assert_eq!(text(black, "g6g5", Notation::Chinese), "卒７进１");
        assert_eq!(text(black, "e9e8", Notation::Chinese), "将５进１");
        assert_eq!(read(black, "马8进7"), "h9g7");
        assert_eq!(read(black, "馬８進７"), "h9g7");
        assert_eq!(read(black, "包2平5"), "b7e7");
        assert_eq!(read(black, "將5進1"), "e9e8");
        assert_eq!(read(black, "将五进一"), "e9e8");
    }

    #[test]
    fn tandem_pieces_in_chinese() {
        // Two red chariots on file e (Red's 5).
        let fen = "3k5/9/9/9/9/9/4R4/9/4R4/5K3 w";
        assert_eq!(text(fen, "e3e5", Notation::Chinese), "前车进二");
        assert_eq!(text(fen, "e1a1", Notation::Chinese), "后车平九");
        assert_eq!(read(fen, "前車進二"), "e3e5");
        assert_eq!(read(fen, "车前进二"), "e3e5");
        // Three red soldiers on one file: front, middle, rear.
        let fen = "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w";
        assert_eq!(text(fen, "e7d7", Notation::Chinese), "前兵平六");
        assert_eq!(text(fen, "e6d6", Notation::Chinese), "中兵平六");
        assert_eq!(text(fen, "e5d5", Notation::Chinese), "后兵平六");
        assert_eq!(read(fen, "二兵平六"), "e6d6");
        // Four black soldiers on one file, the front one nearest Red: 前, ２, ３, 后 (or the ordinals 一..四).
        let fen = "3k5/9/9/9/9/4p4/4p4/4p4/4p4/5K3 b";
        assert_eq!(text(fen, "e1d1", Notation::Chinese), "前卒平４");
        assert_eq!(text(fen, "e2d2", Notation::Chinese), "２卒平４");
        assert_eq!(text(fen, "e3d3", Notation::Chinese), "３卒平４");
        assert_eq!(text(fen, "e4d4", Notation::Chinese), "后卒平４");
        assert_eq!(read(fen, "四卒平4"), "e4d4");
        assert_eq!(read(fen, "一卒平4"), "e1d1");
        // Soldiers doubled on two files: the file replaces the name.
        let fen = "3k5/9/2P1P4/2P1P4/9/9/9/9/9/5K3 w";
        assert_eq!(text(fen, "e7d7", Notation::Chinese), "前五平六");
        assert_eq!(text(fen, "c6b6", Notation::Chinese), "后七平八");
        assert_eq!(read(fen, "前兵五平六"), "e7d7");
    }

    #[test]
    fn bad_text_is_an_error_not_a_panic() {
        let start = crate::START_FEN;
        for bad in ["", "炮", "炮二平五五五五", "X2.5", "车二进一", "h2h2", "z9z9", "炮二平二", "前炮平五", "相三进四"]
        {
            let pos = Position::from_fen(start).unwrap();
            assert!(pos.read_move(bad).is_err(), "{bad}");
        }
        // The two horses may both go to file 7? No: only b0c2 reaches 马八进七; 马二进三 is h0g2.
        assert_eq!(read(start, "马二进三"), "h0g2");
        assert_eq!(read(start, "H2+3"), "h0g2");
        assert_eq!(read(start, "N2+3"), "h0g2");
    }
}
