//! WXF notation (`C2.5`, `H8+7`, `R+.3`), the Asian Xiangqi Federation's system adopted by the WXF: for display.
//!
//! A move is the piece letter (K A E H R C P), the file it stands on (1-9 from the mover's right), the direction
//! (`+` forward, `-` backward, `.` sideways) and either the destination file (sideways moves, and the diagonal movers
//! A, E and H) or the number of ranks moved (straight moves of K, R, C and P). Two pieces of a kind on one file are
//! told apart by `+` (front) and `-` (rear) in place of the file; three to five soldiers on one file follow the WXF
//! rules (`P+`, `P3`, `P-`, `++`, `--`), and tandem soldiers on two files put the file digit in place of the letter.

use crate::position::Position;
use crate::types::{Color, PieceKind, Square};
use crate::Move;

fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Soldier => 'P',
    }
}

/// File number 1-9 from `color`'s right.
fn file_number(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => 9 - sq.file() as u8,
        Color::Black => sq.file() as u8 + 1,
    }
}

/// Ranks from `color`'s side: larger is further forward.
fn forwardness(color: Color, sq: Square) -> i32 {
    match color {
        Color::Red => sq.rank() as i32,
        Color::Black => 9 - sq.rank() as i32,
    }
}

/// Which of several pieces of a kind on one file moves, as the notations count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tandem {
    /// 0 for the front piece (the one furthest forward for its side).
    pub index: u8,
    /// How many pieces of the kind stand on the file (2-5).
    pub count: u8,
    /// Whether another file holds two or more of the mover's soldiers too (then the file number is written).
    pub two_files: bool,
    /// With `two_files`: the soldier's place (0 first) among all the soldiers on files holding two or more,
    /// counted file by file from the mover's right, front to rear on each file (the numbering of the 2011 Chinese
    /// rules, `一兵` to `五兵`).
    pub ordinal: u8,
}

/// A move taken apart the way WXF and Chinese notation write it: the piece, how it is told apart from its
/// fellows, the direction and the destination file or distance. Both notations render this one description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Description {
    /// The mover's side.
    pub color: Color,
    /// The mover's kind.
    pub kind: PieceKind,
    /// The file (1-9 from the mover's right) the piece stands on.
    pub file: u8,
    /// Set when two or more pieces of the kind stand on the file (never for king, advisors and elephants).
    pub tandem: Option<Tandem>,
    /// `+` forward, `-` backward, `.` sideways.
    pub dir: char,
    /// The destination file (sideways moves, and the diagonal movers) or the number of ranks moved.
    pub amount: u8,
}

impl Position {
    /// The notation's view of the move `m` (legal here), or `None` when its origin is empty.
    pub(crate) fn describe(&self, m: Move) -> Option<Description> {
        let piece = self.piece_at(m.from())?;
        let (color, kind) = (piece.color, piece.kind);
        let (from, to) = (m.from(), m.to());
        let mut tandem = None;
        if !matches!(kind, PieceKind::King | PieceKind::Advisor | PieceKind::Elephant) {
            let mut same_file: Vec<Square> =
                self.pieces(color, kind).into_iter().filter(|s| s.file() == from.file()).collect();
            if same_file.len() >= 2 {
                // Front first.
                same_file.sort_by_key(|&s| std::cmp::Reverse(forwardness(color, s)));
                let index = same_file.iter().position(|&s| s == from).unwrap_or(0) as u8;
                let two_files = kind == PieceKind::Soldier && {
                    let soldiers = self.pieces(color, kind);
                    (0..9u8).filter(|&f| soldiers.into_iter().filter(|s| s.file() as u8 == f).count() >= 2).count() >= 2
                };
                let mut ordinal = 0;
                if two_files {
                    let soldiers = self.pieces(color, kind);
                    let mut doubled: Vec<Square> = soldiers
                        .into_iter()
                        .filter(|s| soldiers.into_iter().filter(|t| t.file() == s.file()).count() >= 2)
                        .collect();
                    doubled.sort_by_key(|&s| (file_number(color, s), std::cmp::Reverse(forwardness(color, s))));
                    ordinal = doubled.iter().position(|&s| s == from).unwrap_or(0) as u8;
                }
                tandem = Some(Tandem { index, count: same_file.len() as u8, two_files, ordinal });
            }
        }
        let df = forwardness(color, to) - forwardness(color, from);
        let diagonal = matches!(kind, PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse);
        let (dir, amount) = if df == 0 {
            ('.', file_number(color, to))
        } else if diagonal {
            (if df > 0 { '+' } else { '-' }, file_number(color, to))
        } else {
            (if df > 0 { '+' } else { '-' }, df.unsigned_abs() as u8)
        };
        Some(Description { color, kind, file: file_number(color, from), tandem, dir, amount })
    }

    /// The move `m` (legal here) in WXF notation.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// let pos = Position::startpos();
    /// assert_eq!(pos.wxf(pos.parse_move("h2e2").unwrap()), "C2.5");
    /// assert_eq!(pos.wxf(pos.parse_move("h0g2").unwrap()), "H2+3");
    /// assert_eq!(pos.wxf(pos.parse_move("i0i1").unwrap()), "R1+1");
    /// assert_eq!(pos.wxf(pos.parse_move("c3c4").unwrap()), "P7+1");
    /// ```
    pub fn wxf(&self, m: Move) -> String {
        match self.describe(m) {
            Some(d) => d.wxf(),
            None => m.to_string(),
        }
    }
}

impl Description {
    /// The WXF text.
    pub(crate) fn wxf(&self) -> String {
        let mut head = String::new();
        let digit = char::from(b'0' + self.file);
        match self.tandem {
            None => {
                head.push(letter(self.kind));
                head.push(digit);
            }
            Some(Tandem { index, count: n, two_files, .. }) => {
                let mark = match (n, index) {
                    (_, 0) => "+",
                    (n, i) if i == n - 1 => "-",
                    (3, 1) | (5, 2) => "mid",
                    (_, 1) => "+",
                    _ => "-",
                };
                if two_files {
                    head.push(digit);
                    head.push(match mark {
                        "+" => '+',
                        "-" => '-',
                        _ => digit,
                    });
                } else if n >= 4 && (index == 0 || index == n - 1) {
                    head.push_str(if index == 0 { "++" } else { "--" });
                } else {
                    head.push(letter(self.kind));
                    match mark {
                        "mid" => head.push(digit),
                        m => head.push_str(m),
                    }
                }
            }
        }
        format!("{head}{}{}", self.dir, self.amount)
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    fn wxf(fen: &str, m: &str) -> String {
        let pos = Position::from_fen(fen).unwrap();
        pos.wxf(pos.parse_move(m).unwrap())
    }

    #[test]
    fn opening_moves_for_both_sides() {
        let start = crate::START_FEN;
        assert_eq!(wxf(start, "b2e2"), "C8.5");
        assert_eq!(wxf(start, "c0e2"), "E7+5");
        assert_eq!(wxf(start, "f0e1"), "A4+5");
        assert_eq!(wxf(start, "e0e1"), "K5+1");
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        // Black counts files from its own right (file a is Black's 1).
        assert_eq!(wxf(black, "h9g7"), "H8+7");
        assert_eq!(wxf(black, "b7e7"), "C2.5");
        assert_eq!(wxf(black, "a9a8"), "R1+1");
        assert_eq!(wxf(black, "g6g5"), "P7+1");
    }

    #[test]
    fn tandem_pieces() {
        // Two red chariots on file e (Red's 5): front and rear.
        let fen = "3k5/9/9/9/9/9/4R4/9/4R4/5K3 w";
        assert_eq!(wxf(fen, "e3e5"), "R++2");
        assert_eq!(wxf(fen, "e1a1"), "R-.9");
        // Three red soldiers on one file: front, middle (by file digit), rear.
        let fen = "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w";
        assert_eq!(wxf(fen, "e7d7"), "P+.6");
        assert_eq!(wxf(fen, "e6d6"), "P5.6");
        assert_eq!(wxf(fen, "e5d5"), "P-.6");
        // Tandem soldiers on two files: the file digit replaces the letter.
        let fen = "3k5/9/2P1P4/2P1P4/9/9/9/9/9/5K3 w";
        assert_eq!(wxf(fen, "e7d7"), "5+.6");
        assert_eq!(wxf(fen, "c6b6"), "7-.8");
    }
}
