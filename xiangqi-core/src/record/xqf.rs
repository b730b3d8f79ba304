//! XQF, XQStudio's binary game format (the most common download format of xiangqi collections).
//!
//! The layout, as documented by the format's open-source readers (XQStudio's `XQFRW.pas`, Python's `cchess`):
//! a 1024-byte header, then the move tree.
//!
//! - Header: `XQ` (2 bytes), the version (1 byte), thirteen key bytes (at 3: mask, a 4-byte product id, four
//!   "or" bytes, the key sum and the three keys `XY`, `XYf`, `XYt`), the 32 pieces' points (at 16: Red's chariot,
//!   horse, elephant, advisor, king, advisor, elephant, horse, chariot, two cannons, five soldiers, then Black's;
//!   a point is `file * 10 + rank`, files from Red's left and ranks from Red's side, above 89 for a captured
//!   piece), the result (at 51: 0 unknown, 1 Red wins, 2 Black wins, 3 and 4 drawn) and length-prefixed GBK
//!   strings: title at 80, event at 208, date at 272, site at 288, Red at 304, Black at 320, time control at 336,
//!   commentator at 464, author at 480.
//! - Move tree, from offset 1024, depth first: each node is 4 bytes (from + 24, to + 32, flags, reserved) and a
//!   comment. Up to version 10 every node is followed by a 4-byte comment length; a flag nibble `0xF0` says that the
//!   node has a next move and `0x0F` that it has an alternative (a sibling), read after its whole subtree. From
//!   version 11 the flags are bits (`0x80` next, `0x40` sibling, `0x20` comment) and a comment length is present
//!   only with `0x20`. The first node is the root: its comment is the game's.
//! - Scrambling, from version 11: each key `k` becomes `((((k*k*3+9)*3+8)*2+1)*3+8) * k'` (the previous key, for
//!   `XY` itself) modulo 256; the pieces' points are shifted by `XY` and, from version 12, also permuted (the
//!   piece at index `i` is stored at `(XY + i + 1) mod 32`); every byte of the move tree is shifted by one byte of
//!   the string `[(C) Copyright Mr. Dong Shiwei.]` masked by the four key bytes `(key & mask) | or`; a node's
//!   from and to are further shifted by `XYf` and `XYt`, and a comment's length by `(sum * 256 + XY) mod 32000 +
//!   767`.
//!
//! The side to move first is the side of the first move's piece (Red without moves).

use super::encoding::decode_gbk;
use super::{GameRecord, RecordMove};
use crate::fen::Setup;
use crate::position::{Position, Validation};
use crate::types::{Color, Piece, PieceKind, Square};
use crate::Move;

/// Why an XQF file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum XqfError {
    /// The file does not start with `XQ` or is shorter than its 1024-byte header.
    #[error("not an XQF file: {0}")]
    NotXqf(&'static str),
    /// A version this reader does not know.
    #[error("XQF version {version} (0x{version:02X}) is not supported: this reader knows versions 1 to 18")]
    UnsupportedVersion {
        /// The version byte.
        version: u8,
    },
    /// The pieces do not make a position the rules accept.
    #[error("the XQF setup is not a valid position: {0}")]
    BadSetup(String),
    /// A move of the main line or a variation is not legal, or points outside the board.
    #[error("XQF move {index} ({from} to {to}): {reason}")]
    BadMove {
        /// The node's number in the file (1 for the first move).
        index: usize,
        /// The origin point as stored (`file * 10 + rank` when valid).
        from: u8,
        /// The destination point as stored.
        to: u8,
        /// What is wrong with it.
        reason: String,
    },
    /// The move tree ends in the middle of a node or a comment.
    #[error("the XQF move tree is cut short at node {0}")]
    Truncated(usize),
}

const KINDS: [PieceKind; 16] = [
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Elephant,
    PieceKind::Advisor,
    PieceKind::King,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Cannon,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
];

const COPYRIGHT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The decryption keys of a scrambled file.
struct Keys {
    xy: u8,
    xyf: u8,
    xyt: u8,
    comment: u32,
    stream: [u8; 32],
}

fn square_key(k: u8, factor: u8) -> u8 {
    let k = u32::from(k);
    let v = ((((k * k * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8).wrapping_mul(u32::from(factor));
    (v & 0xFF) as u8
}

impl Keys {
    fn new(h: &[u8]) -> Keys {
        let (mask, or) = (h[3], [h[8], h[9], h[10], h[11]]);
        let (sum, kxy, kxyf, kxyt) = (h[12], h[13], h[14], h[15]);
        let xy = square_key(kxy, kxy);
        let xyf = square_key(kxyf, xy);
        let xyt = square_key(kxyt, xyf);
        let comment = (u32::from(sum) * 256 + u32::from(kxy)) % 32000 + 767;
        let bytes = [(sum & mask) | or[0], (kxy & mask) | or[1], (kxyf & mask) | or[2], (kxyt & mask) | or[3]];
        let mut stream = *COPYRIGHT;
        for (i, b) in stream.iter_mut().enumerate() {
            *b &= bytes[i % 4];
        }
        Keys { xy, xyf, xyt, comment, stream }
    }
}

/// Reads a length-prefixed GBK string of the header.
fn header_string(h: &[u8], at: usize, max: usize) -> String {
    let len = usize::from(h[at]).min(max);
    decode_gbk(&h[at + 1..at + 1 + len]).trim_end_matches('\0').trim().to_string()
}

/// A cursor over the move tree.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let s = self.data.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }

    fn u32(&mut self) -> Option<u32> {
        let b = self.take(4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// One node of the tree: the move's points, whether a next move and a sibling follow, and its comment.
struct Node {
    from: u8,
    to: u8,
    next: bool,
    sibling: bool,
    comment: Option<String>,
}

fn read_node(r: &mut Reader, keys: Option<&Keys>, index: usize) -> Result<Node, XqfError> {
    let b = r.take(4).ok_or(XqfError::Truncated(index))?;
    let (b0, b1, flags) = (b[0], b[1], b[2]);
    let (from, to, next, sibling, len) = match keys {
        None => {
            let len = r.u32().ok_or(XqfError::Truncated(index))?;
            (b0.wrapping_sub(0x18), b1.wrapping_sub(0x20), flags & 0xF0 != 0, flags & 0x0F != 0, len)
        }
        Some(k) => {
            let len =
                if flags & 0x20 != 0 { r.u32().ok_or(XqfError::Truncated(index))?.wrapping_sub(k.comment) } else { 0 };
            let from = b0.wrapping_sub(0x18).wrapping_sub(k.xyf);
            let to = b1.wrapping_sub(0x20).wrapping_sub(k.xyt);
            (from, to, flags & 0x80 != 0, flags & 0x40 != 0, len)
        }
    };
    let comment = if len > 0 {
        let bytes = r.take(len as usize).ok_or(XqfError::Truncated(index))?;
        Some(decode_gbk(bytes).trim_end_matches('\0').replace("\r\n", "\n").trim().to_string())
    } else {
        None
    };
    Ok(Node { from, to, next, sibling, comment })
}

fn point(p: u8) -> Option<Square> {
    if p > 89 {
        return None;
    }
    let (file, rank) = (p / 10, p % 10);
    if file > 8 {
        return None;
    }
    Square::from_index(usize::from(rank) * 9 + usize::from(file))
}

/// Reads an XQF file: its header as tags (`Game`, `Event`, `Date`, `Site`, `Red`, `Black`, `TimeControl`,
/// `Annotator`, `Author`, `Result`), the setup (a `FEN` tag when it is not the start position), the game's comment,
/// and the move tree (the first line as the main line, the others as variations).
///
/// Every move is checked against the rules; a move that is not legal is an error naming it.
pub fn read_xqf(bytes: &[u8]) -> Result<GameRecord, XqfError> {
    if bytes.len() < 1024 {
        return Err(XqfError::NotXqf("shorter than the 1024-byte header"));
    }
    if &bytes[..2] != b"XQ" {
        return Err(XqfError::NotXqf("it does not start with \"XQ\""));
    }
    let h = &bytes[..1024];
    let version = h[2];
    if version == 0 || version > 18 {
        return Err(XqfError::UnsupportedVersion { version });
    }
    let keys = (version > 10).then(|| Keys::new(h));
    // The pieces.
    let mut points = [0u8; 32];
    points.copy_from_slice(&h[16..48]);
    if let Some(k) = &keys {
        let mut unscrambled = [0u8; 32];
        for (i, &p) in points.iter().enumerate() {
            let at = if version >= 12 { (usize::from(k.xy) + i + 1) & 31 } else { i };
            unscrambled[at] = p;
        }
        points = unscrambled.map(|p| p.wrapping_sub(k.xy));
    }
    let mut setup = Setup { board: [None; 90], turn: Color::Red, halfmoves: 0, fullmoves: 1 };
    for (i, &p) in points.iter().enumerate() {
        let Some(sq) = point(p) else { continue };
        let color = if i < 16 { Color::Red } else { Color::Black };
        if setup.board[sq.index()].is_some() {
            return Err(XqfError::BadSetup(format!("two pieces on {sq}")));
        }
        setup.board[sq.index()] = Some(Piece::new(color, KINDS[i % 16]));
    }
    // The move tree, descrambled.
    let mut tree = bytes[1024..].to_vec();
    if let Some(k) = &keys {
        for (i, b) in tree.iter_mut().enumerate() {
            *b = b.wrapping_sub(k.stream[(1024 + i) % 32]);
        }
    }
    let mut r = Reader { data: &tree, at: 0 };
    let mut nodes = Vec::new();
    let root = if tree.is_empty() { None } else { Some(read_node(&mut r, keys.as_ref(), 0)?) };
    // Read the nodes in file order; the tree is rebuilt from the flags afterwards, without recursion.
    let mut pending = usize::from(root.as_ref().is_some_and(|n| n.next || keys.is_none()));
    while pending > 0 && r.at < tree.len() {
        pending -= 1;
        let node = read_node(&mut r, keys.as_ref(), nodes.len() + 1)?;
        pending += usize::from(node.next) + usize::from(node.sibling);
        nodes.push(node);
    }
    // The first move decides who starts.
    if let Some(first) = nodes.first() {
        if let Some(p) = point(first.from).and_then(|sq| setup.board[sq.index()]) {
            setup.turn = p.color;
        }
    }
    let start = Position::from_setup(&setup, Validation::Strict)
        .or_else(|e| Position::from_setup(&setup, Validation::Lenient).map_err(|_| e))
        .map_err(|e| XqfError::BadSetup(e.to_string()))?;
    let mut game = GameRecord::new(start.clone());
    let tag = |game: &mut GameRecord, name: &str, value: String| {
        if !value.is_empty() {
            game.tags.push((name.to_string(), value));
        }
    };
    tag(&mut game, "Game", header_string(h, 80, 63));
    tag(&mut game, "Event", header_string(h, 208, 63));
    tag(&mut game, "Date", header_string(h, 272, 15));
    tag(&mut game, "Site", header_string(h, 288, 15));
    tag(&mut game, "Red", header_string(h, 304, 15));
    tag(&mut game, "Black", header_string(h, 320, 15));
    tag(&mut game, "TimeControl", header_string(h, 336, 63));
    tag(&mut game, "Annotator", header_string(h, 464, 15));
    tag(&mut game, "Author", header_string(h, 480, 15));
    let result = match h[51] {
        1 => "1-0",
        2 => "0-1",
        3 | 4 => "1/2-1/2",
        _ => "*",
    };
    game.tags.push(("Result".to_string(), result.to_string()));
    game.result = Some(result.to_string());
    if start != Position::startpos() {
        game.tags.push(("FEN".to_string(), start.fen()));
    }
    if let Some(c) = root.and_then(|n| n.comment).filter(|c| !c.is_empty()) {
        game.intro.push(c);
    }
    game.moves = build_tree(&start, &nodes)?;
    Ok(game)
}

/// Rebuilds the lines from the nodes in file order: a node's next move follows it (its whole subtree), then its
/// sibling, an alternative to it.
fn build_tree(start: &Position, nodes: &[Node]) -> Result<Vec<RecordMove>, XqfError> {
    // Each line under construction: the moves, the position after them, and the position before the last move.
    struct Line {
        moves: Vec<RecordMove>,
        pos: Position,
        /// Where this line hangs: the parent line and the index of the move it is an alternative to.
        parent: Option<(usize, usize)>,
    }
    let mut lines = vec![Line { moves: Vec::new(), pos: start.clone(), parent: None }];
    // A stack of what the remaining nodes continue: (line, index of the move that a sibling replaces) for
    // siblings, and the line itself for next moves.
    enum Expect {
        Next(usize),
        Sibling(usize, usize),
    }
    let mut stack = vec![Expect::Next(0)];
    for (i, node) in nodes.iter().enumerate() {
        let index = i + 1;
        let line = match stack.pop() {
            Some(Expect::Next(l)) => l,
            Some(Expect::Sibling(l, at)) => {
                // A new line from the position before move `at` of line `l`.
                let mut pos = lines[l].pos.clone();
                for _ in at..lines[l].moves.len() {
                    pos.unmake_move();
                }
                lines.push(Line { moves: Vec::new(), pos, parent: Some((l, at)) });
                lines.len() - 1
            }
            None => break,
        };
        let bad = |reason: String| XqfError::BadMove { index, from: node.from, to: node.to, reason };
        let (Some(from), Some(to)) = (point(node.from), point(node.to)) else {
            return Err(bad("a point outside the board".into()));
        };
        if from == to {
            return Err(bad("origin and destination are the same point".into()));
        }
        let m = Move::new(from, to);
        let pos = &mut lines[line].pos;
        pos.check_move(m).map_err(|e| bad(e.to_string()))?;
        pos.make_move(m);
        let mut rm = RecordMove::new(m);
        rm.comment_from(node.comment.clone());
        let at = lines[line].moves.len();
        lines[line].moves.push(rm);
        // The sibling is read after the subtree: push it first.
        if node.sibling {
            stack.push(Expect::Sibling(line, at));
        }
        if node.next {
            stack.push(Expect::Next(line));
        }
    }
    // Hang every line on its parent, the latest first (children before parents: indices grow with depth).
    let mut built: Vec<Option<Vec<RecordMove>>> =
        lines.iter_mut().map(|l| Some(std::mem::take(&mut l.moves))).collect();
    for l in (1..lines.len()).rev() {
        let Some((parent, at)) = lines[l].parent else { continue };
        let moves = built[l].take().unwrap_or_default();
        if let Some(Some(p)) = built.get_mut(parent) {
            if let Some(m) = p.get_mut(at) {
                // Siblings were read in order; lines hung from the last first, so insert at the front.
                m.variations.insert(0, moves);
            }
        }
    }
    Ok(built[0].take().unwrap_or_default())
}

impl RecordMove {
    fn comment_from(&mut self, comment: Option<String>) {
        if let Some(c) = comment.map(|c| c.trim().to_string()).filter(|c| !c.is_empty()) {
            self.comments.push(c);
        }
    }
}
