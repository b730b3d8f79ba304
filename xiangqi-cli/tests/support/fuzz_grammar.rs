//! Generators for the input fuzzer: command lines from a grammar of every command the engine knows (UCI and
//! UCCI), their mutations, random bytes, word salad, very long lines and bursts of `go`/`stop`/`position`; FENs
//! and move texts. Everything is drawn from a seeded [`TestRng`], so a seed gives the same inputs every time.

#![allow(dead_code)]

use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};
use xiangqi_core::{can_stand, Color, Move, Piece, PieceKind, Position, Setup, Square, START_FEN};
use xiangqi_uci::GO_WORDS;

/// The generator's random source.
pub type Rng = TestRng;

/// The random source of one numbered case under a seed: cases can be replayed one by one.
pub fn case_rng(seed: u64, case: u64) -> Rng {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..].copy_from_slice(&case.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1).to_le_bytes());
    TestRng::from_seed(RngAlgorithm::XorShift, &bytes)
}

/// One of `items`.
pub fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

/// An index drawn with the given weights.
pub fn weighted(rng: &mut Rng, weights: &[u32]) -> usize {
    let total: u32 = weights.iter().sum();
    let mut x = rng.random_range(0..total);
    for (i, &w) in weights.iter().enumerate() {
        if x < w {
            return i;
        }
        x -= w;
    }
    weights.len() - 1
}

/// True with probability `p`.
pub fn chance(rng: &mut Rng, p: f64) -> bool {
    rng.random_bool(p)
}

/// Positions to start from: the start, middlegames, endings, a mate, a stalemate-like corner, Black to move.
pub const CORPUS: &[&str] = &[
    START_FEN,
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 4",
    "3k5/9/9/9/9/9/9/9/4A4/3AKR3 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1",
    "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1",
    "4k4/4a4/4P4/9/9/9/9/9/9/3K5 b - - 0 1",
    "3ak4/4a4/4b4/9/9/9/9/9/4A4/2BAK1B2 w - - 119 80",
    "4kab2/4a4/4b4/2p1c4/9/2P6/9/4B4/4A4/2BAK4 w - - 9999 99999",
    "r3k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1",
    "5k3/3P5/9/9/9/9/9/9/9/3K5 w - - 0 1",
];

/// A random legal game of up to `plies` plies from `start`: the position reached and the moves.
pub fn random_game(rng: &mut Rng, start: &Position, plies: usize) -> (Position, Vec<Move>) {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = *pick(rng, &legal);
        pos.make_move(m);
        moves.push(m);
    }
    (pos, moves)
}

/// A position of the corpus, or one reached by random play from it.
pub fn random_position(rng: &mut Rng) -> Position {
    let start = Position::from_fen(pick::<&str>(rng, CORPUS)).expect("the corpus is valid");
    match weighted(rng, &[3, 5, 2]) {
        0 => start,
        1 => {
            let plies = rng.random_range(1..40);
            random_game(rng, &start, plies).0
        }
        _ => sparse_position(rng).unwrap_or(start),
    }
}

/// A random setup with both kings in their palaces and a few pieces where they can stand; often impossible
/// (kings facing, a side in check), which is what makes it a test of the second stage of FEN reading.
pub fn sparse_setup(rng: &mut Rng) -> Setup {
    let mut board = [None; 90];
    let squares: Vec<Square> = Square::all().collect();
    for color in Color::ALL {
        let palace: Vec<Square> = squares.iter().copied().filter(|s| s.in_palace(color)).collect();
        board[pick(rng, &palace).index()] = Some(Piece::new(color, PieceKind::King));
    }
    for _ in 0..rng.random_range(0..14) {
        let color = *pick(rng, &Color::ALL);
        let kind = *pick(rng, &PieceKind::ALL[1..]);
        let p = Piece::new(color, kind);
        let sq = *pick(rng, &squares);
        if board[sq.index()].is_none() && (can_stand(p, sq) || chance(rng, 0.1)) {
            board[sq.index()] = Some(p);
        }
    }
    let turn = *pick(rng, &Color::ALL);
    let halfmoves = *pick(rng, &[0, 0, 1, 7, 59, 119, 120, 121, 9_999, 10_000]);
    let fullmoves = *pick(rng, &[1, 1, 2, 40, 99_999, 100_000]);
    Setup { board, turn, halfmoves, fullmoves }
}

/// A possible sparse position, if the random setup is one.
pub fn sparse_position(rng: &mut Rng) -> Option<Position> {
    (0..20).find_map(|_| Position::from_setup(&sparse_setup(rng), Default::default()).ok())
}

/// Bytes worth inserting: separators, control bytes, bytes that are not UTF-8 (GBK lead bytes, continuation bytes),
/// signs and digits. Never `\n`: it ends a line.
const INTERESTING: &[u8] = &[
    b' ', b' ', b'\t', b'\r', 0x00, 0x0b, 0x0c, 0x1b, 0x7f, 0x80, 0xa1, 0xb0, 0xbf, 0xc0, 0xc3, 0xd6, 0xe4, 0xe9, 0xef,
    0xf0, 0xf8, 0xff, b'-', b'+', b'0', b'1', b'9', b'/', b'"', b'=',
];

/// Numbers worth trying: bounds, overflows, negatives.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "-0",
    "+3",
    "2",
    "5",
    "6",
    "60",
    "61",
    "120",
    "121",
    "128",
    "129",
    "256",
    "257",
    "1000",
    "5000",
    "5001",
    "32768",
    "32769",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "99999999999999999999999999",
    "1e3",
    "0x10",
    "3.5",
    "",
];

/// A word of [`VOCABULARY`] or one of `go`'s parameters.
fn word(rng: &mut Rng) -> &'static str {
    let i = rng.random_range(0..VOCABULARY.len() + GO_WORDS.len());
    VOCABULARY.get(i).copied().unwrap_or_else(|| GO_WORDS[i - VOCABULARY.len()])
}

/// Words of every command, parameter and option the engine knows, and some it does not (with `go`'s parameters,
/// [`xiangqi_uci::GO_WORDS`]).
const VOCABULARY: &[&str] = &[
    "uci",
    "ucci",
    "isready",
    "ucinewgame",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "bye",
    "d",
    "eval",
    "banmoves",
    "probe",
    "draw",
    "time",
    "increment",
    "opptime",
    "oppmovestogo",
    "oppincrement",
    "Hash",
    "Threads",
    "MultiPV",
    "Clear",
    "Move",
    "Overhead",
    "Ponder",
    "Variant",
    "usemillisec",
    "hashsize",
    "threads",
    "variant",
    "newgame",
    "true",
    "false",
    "on",
    "off",
    "engine",
    "minimax",
    "alphabeta",
    "h2e2",
    "h9g7",
    "H2-E2",
    "b0c2",
    "a0a1",
    "e0e1",
    "(none)",
    "w",
    "b",
    "-",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    "3k5/9/9/9/9/9/9/9/4A4/4K4",
    "info",
    "string",
    "bestmove",
    "register",
    "debug",
];

/// What the generator believes about the engine: the mode and the position, to draw moves that are legal there.
#[derive(Clone)]
pub struct Belief {
    /// Speaking UCCI.
    pub ucci: bool,
    /// The position the last generated `position` command set.
    pub pos: Position,
}

impl Default for Belief {
    fn default() -> Belief {
        Belief { ucci: false, pos: Position::startpos() }
    }
}

fn number(rng: &mut Rng, lo: u64, hi: u64) -> String {
    rng.random_range(lo..=hi).to_string()
}

/// Up to `n` moves legal in `pos`, as text (UCI, sometimes ICCS).
fn some_legal_moves(rng: &mut Rng, pos: &Position, n: usize) -> Vec<String> {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return vec!["h2e2".to_owned()];
    }
    let k = rng.random_range(1..=n);
    (0..k)
        .map(|_| {
            let m = *pick(rng, &legal);
            move_text(rng, m)
        })
        .collect()
}

/// A move as a GUI may write it: UCI coordinates, or now and then ICCS.
fn move_text(rng: &mut Rng, m: Move) -> String {
    match weighted(rng, &[12, 1, 1]) {
        0 => m.to_string(),
        1 => m.iccs(),
        _ => m.iccs().to_ascii_lowercase(),
    }
}

/// Any move between two points, legal or not.
fn random_move_text(rng: &mut Rng) -> String {
    let files = "abcdefghi".as_bytes();
    let ranks = "0123456789".as_bytes();
    let mut s = String::new();
    for _ in 0..2 {
        s.push(*pick(rng, files) as char);
        s.push(*pick(rng, ranks) as char);
    }
    s
}

/// A `position` command (its words after the command word), and the position it sets when it is valid.
fn position_args(rng: &mut Rng, b: &mut Belief) -> String {
    let (mut text, start) = match weighted(rng, &[4, 5, 1]) {
        0 => ("startpos".to_owned(), Position::startpos()),
        1 => {
            let pos = random_position(rng);
            (format!("fen {}", pos.fen()), pos)
        }
        _ => {
            let setup = sparse_setup(rng);
            let pos = Position::from_setup(&setup, Default::default()).ok();
            (format!("fen {setup}"), pos.unwrap_or_else(|| b.pos.clone()))
        }
    };
    let mut pos = start.clone();
    if chance(rng, 0.6) {
        let plies = rng.random_range(0..24);
        let (end, moves) = random_game(rng, &start, plies);
        text.push_str(" moves");
        for m in &moves {
            text.push(' ');
            text.push_str(&move_text(rng, *m));
        }
        pos = end;
        if chance(rng, 0.15) {
            text.push(' ');
            text.push_str(&random_move_text(rng));
        }
    }
    b.pos = pos;
    text
}

/// A UCI `go` command's words.
fn uci_go_args(rng: &mut Rng, b: &Belief) -> String {
    let mut parts: Vec<String> = Vec::new();
    let kind = weighted(rng, &[30, 10, 8, 12, 6, 6, 4, 8, 6, 10]);
    match kind {
        0 => parts.push(format!("depth {}", *pick(rng, &[1, 1, 2, 2, 3, 4]))),
        1 => parts.push(format!("nodes {}", number(rng, 1, 4000))),
        2 => parts.push(format!("movetime {}", number(rng, 0, 40))),
        3 => {
            parts.push(format!("wtime {}", number(rng, 0, 3000)));
            parts.push(format!("btime {}", number(rng, 0, 3000)));
            if chance(rng, 0.5) {
                parts.push(format!("winc {} binc {}", number(rng, 0, 100), number(rng, 0, 100)));
            }
            if chance(rng, 0.3) {
                parts.push(format!("movestogo {}", number(rng, 1, 40)));
            }
        }
        4 => {
            parts.push("infinite".to_owned());
            if chance(rng, 0.3) {
                parts.push(format!("depth {}", number(rng, 1, 3)));
            }
        }
        5 => {
            parts.push("ponder".to_owned());
            parts.push(if chance(rng, 0.5) { "depth 2".to_owned() } else { "wtime 500 btime 500".to_owned() });
        }
        6 => parts.push(format!("mate {}", number(rng, 1, 3))),
        7 => {
            let depth = match weighted(rng, &[40, 35, 20, 4, 1]) {
                4 if chance(rng, 0.3) => 5,
                4 => 4,
                d => d + 1,
            };
            parts.push(format!("perft {depth}"));
        }
        8 => {
            parts.push(format!("depth {}", number(rng, 1, 3)));
            parts.push(format!("searchmoves {}", some_legal_moves(rng, &b.pos, 3).join(" ")));
        }
        _ => {
            // A value out of range, missing or not a number.
            let name = *pick(rng, &["depth", "nodes", "mate", "perft", "wtime", "btime", "movetime", "movestogo"]);
            if chance(rng, 0.1) {
                parts.push(name.to_owned());
            } else {
                parts.push(format!("{name} {}", pick(rng, NUMBERS)));
            }
        }
    }
    if chance(rng, 0.1) {
        parts.push(pick(rng, &["infinite", "ponder", "bogus", "searchmoves", "depth"]).to_string());
    }
    if chance(rng, 0.2) {
        let i = rng.random_range(0..parts.len());
        let j = rng.random_range(0..parts.len());
        parts.swap(i, j);
    }
    parts.join(" ")
}

/// A UCI `setoption` command's words.
fn uci_setoption_args(rng: &mut Rng) -> String {
    let (name, values): (&str, &[&str]) = match rng.random_range(0..8) {
        0 => ("Hash", &["1", "2", "8", "16", "32", "0", "32769", "99999999999999999999", "-1", "lots"]),
        1 => ("Threads", &["1", "2", "3", "0", "257", "two"]),
        2 => ("MultiPV", &["1", "2", "3", "5", "0", "129"]),
        3 => ("Clear Hash", &[]),
        4 => ("Move Overhead", &["0", "10", "100", "5000", "5001", "-1"]),
        5 => ("Ponder", &["true", "false", "maybe"]),
        6 => (
            "Variant",
            &[
                "engine",
                "alphabeta",
                "alphabeta+pvs+qs",
                "engine+no-lmr",
                "engine+no-tt",
                "negamax",
                "minimax+pvs",
                "bogus",
                "engine+tt+no-tt",
                "pvs+qs+order",
            ],
        ),
        _ => ("Bogus Option", &["1"]),
    };
    let name = match weighted(rng, &[8, 1, 1]) {
        0 => name.to_owned(),
        1 => name.to_ascii_lowercase(),
        _ => name.to_ascii_uppercase(),
    };
    match (values.is_empty(), weighted(rng, &[10, 1, 1, 1])) {
        (_, 1) => format!("name {name} value"),
        (_, 2) => format!("name {name}"),
        (_, 3) => format!("{name} value 1"),
        (true, _) => format!("name {name}"),
        (false, _) => format!("name {name} value {}", pick(rng, values)),
    }
}

/// A UCI command line from the grammar.
pub fn uci_command(rng: &mut Rng, b: &mut Belief) -> String {
    let weights = [14, 20, 26, 9, 3, 12, 3, 4, 2, 2, 1, 1];
    match weighted(rng, &weights) {
        0 => "isready".to_owned(),
        1 => format!("position {}", position_args(rng, b)),
        2 => format!("go {}", uci_go_args(rng, b)).trim_end().to_owned(),
        3 => "stop".to_owned(),
        4 => "ponderhit".to_owned(),
        5 => format!("setoption {}", uci_setoption_args(rng)),
        6 => {
            b.pos = Position::startpos();
            "ucinewgame".to_owned()
        }
        7 => "d".to_owned(),
        8 => "eval".to_owned(),
        9 => "uci".to_owned(),
        10 => {
            b.ucci = true;
            "ucci".to_owned()
        }
        _ => {
            if chance(rng, 0.3) {
                "quit".to_owned()
            } else {
                "isready".to_owned()
            }
        }
    }
}

/// A UCCI `go` command's words.
fn ucci_go_args(rng: &mut Rng) -> String {
    let mut s = String::new();
    match weighted(rng, &[6, 2, 1]) {
        0 => {}
        1 => s.push_str("ponder "),
        _ => s.push_str("draw "),
    }
    match weighted(rng, &[30, 4, 10, 16, 3, 10]) {
        0 => s.push_str(&format!("depth {}", *pick(rng, &[1, 1, 2, 2, 3, 4]))),
        1 => s.push_str("depth infinite"),
        2 => s.push_str(&format!("nodes {}", number(rng, 1, 4000))),
        3 => {
            s.push_str(&format!("time {}", number(rng, 0, 2000)));
            match weighted(rng, &[2, 1, 1]) {
                0 => {}
                1 => s.push_str(&format!(" movestogo {}", number(rng, 1, 40))),
                _ => s.push_str(&format!(" increment {}", number(rng, 0, 50))),
            }
            if chance(rng, 0.5) {
                s.push_str(&format!(" opptime {}", number(rng, 0, 2000)));
                match weighted(rng, &[2, 1, 1]) {
                    0 => {}
                    1 => s.push_str(&format!(" oppmovestogo {}", number(rng, 1, 40))),
                    _ => s.push_str(&format!(" oppincrement {}", number(rng, 0, 50))),
                }
            }
        }
        4 => {}
        _ => {
            let name = *pick(rng, &["depth", "nodes", "time", "time 100 movestogo", "time 100 increment"]);
            s.push_str(&format!("{name} {}", pick(rng, NUMBERS)));
        }
    }
    s.trim_end().to_owned()
}

/// A UCCI command line from the grammar.
pub fn ucci_command(rng: &mut Rng, b: &mut Belief) -> String {
    let weights = [14, 18, 24, 8, 3, 12, 6, 4, 4, 2, 2, 1];
    match weighted(rng, &weights) {
        0 => "isready".to_owned(),
        1 => format!("position {}", position_args(rng, b)),
        2 => format!("go {}", ucci_go_args(rng)).trim_end().to_owned(),
        3 => "stop".to_owned(),
        4 => pick(rng, &["ponderhit", "ponderhit draw"]).to_string(),
        5 => {
            let (name, values): (&str, &[&str]) = match rng.random_range(0..8) {
                0 => ("usemillisec", &["true", "false", "on", "off", "maybe"]),
                1 => ("hashsize", &["1", "4", "16", "0", "32769", "x"]),
                2 => ("threads", &["1", "2", "0", "257"]),
                3 => ("variant", &["engine", "alphabeta+qs", "bogus"]),
                4 => ("newgame", &[""]),
                5 => ("ponder", &["true", "false"]),
                6 => (
                    *pick(rng, &["batch", "debug", "usebook", "bookfiles", "promotion", "idle", "style", "drawmoves"]),
                    &["on", "off", "C:\\book.obk", "normal", "60"],
                ),
                _ => ("nosuchoption", &["3"]),
            };
            format!("setoption {name} {}", pick(rng, values)).trim_end().to_owned()
        }
        6 => {
            let moves = if chance(rng, 0.8) { some_legal_moves(rng, &b.pos, 4) } else { vec![random_move_text(rng)] };
            format!("banmoves {}", moves.join(" "))
        }
        7 => {
            let mut copy = b.clone();
            format!("probe {}", position_args(rng, &mut copy))
        }
        8 => "d".to_owned(),
        9 => "eval".to_owned(),
        10 => "ucci".to_owned(),
        _ => pick(rng, &["quit", "bye", "isready", "isready"]).to_string(),
    }
}

/// A command line from the grammar of the mode the generator believes the engine is in.
pub fn command(rng: &mut Rng, b: &mut Belief) -> String {
    if b.ucci {
        ucci_command(rng, b)
    } else {
        uci_command(rng, b)
    }
}

fn random_byte(rng: &mut Rng) -> u8 {
    if chance(rng, 0.5) {
        *pick(rng, INTERESTING)
    } else {
        match rng.random_range(0..=255u8) {
            b'\n' => b' ',
            x => x,
        }
    }
}

/// The spans of the words in `line` (separated by ASCII spaces).
fn word_spans(line: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, &c) in line.iter().chain(std::iter::once(&b' ')).enumerate() {
        match (c == b' ', start) {
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    spans
}

/// `line` changed by one to four random edits: bit flips, byte changes, insertions, deletions, truncation, word
/// swaps, duplications and replacements, case changes.
pub fn mutate(rng: &mut Rng, line: &[u8]) -> Vec<u8> {
    let mut v = line.to_vec();
    for _ in 0..rng.random_range(1..=4) {
        let len = v.len();
        match rng.random_range(0..11) {
            0 if len > 0 => {
                let i = rng.random_range(0..len);
                v[i] ^= 1 << rng.random_range(0..8);
                if v[i] == b'\n' {
                    v[i] = b' ';
                }
            }
            1 if len > 0 => {
                let i = rng.random_range(0..len);
                v[i] = random_byte(rng);
            }
            2 => {
                let i = rng.random_range(0..=len);
                let b = random_byte(rng);
                v.insert(i, b);
            }
            3 if len > 0 => {
                let i = rng.random_range(0..len);
                let j = (i + rng.random_range(1..4)).min(len);
                v.drain(i..j);
            }
            4 => v.truncate(rng.random_range(0..=len)),
            5..=7 => {
                let spans = word_spans(&v);
                if spans.len() < 2 && rng.random_range(0..3) != 0 {
                    continue;
                }
                let words: Vec<Vec<u8>> = spans.iter().map(|&(a, b)| v[a..b].to_vec()).collect();
                let mut words = words;
                if words.is_empty() {
                    words.push(Vec::new());
                }
                let i = rng.random_range(0..words.len());
                let j = rng.random_range(0..words.len());
                match rng.random_range(0..3) {
                    0 => words.swap(i, j),
                    1 => {
                        let w = words[i].clone();
                        words.insert(j, w);
                    }
                    _ => {
                        words[i] = if chance(rng, 0.5) {
                            word(rng).as_bytes().to_vec()
                        } else {
                            pick(rng, NUMBERS).as_bytes().to_vec()
                        }
                    }
                }
                v = words.join(&b' ');
            }
            8 => {
                let i = rng.random_range(0..=len);
                let word = format!(" {} ", word(rng));
                v.splice(i..i, word.bytes());
            }
            9 => {
                let i = rng.random_range(0..=len);
                let number = format!(" {}", pick(rng, NUMBERS));
                v.splice(i..i, number.bytes());
            }
            _ if len > 0 => {
                let i = rng.random_range(0..len);
                let j = (i + rng.random_range(1..8)).min(len);
                let upper = chance(rng, 0.5);
                for c in &mut v[i..j] {
                    *c = if upper { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() };
                }
            }
            _ => {}
        }
    }
    v
}

/// Up to `max` random bytes, never `\n`.
pub fn random_bytes(rng: &mut Rng, max: usize) -> Vec<u8> {
    let n = rng.random_range(0..=max);
    (0..n).map(|_| random_byte(rng)).collect()
}

/// Known words in a random order, with random separators.
pub fn word_salad(rng: &mut Rng) -> Vec<u8> {
    let mut v = Vec::new();
    for k in 0..rng.random_range(1..=12) {
        if k > 0 {
            let separators: [&[u8]; 5] = [b" ", b" ", b"  ", b"\t", b" \r "];
            v.extend_from_slice(pick::<&[u8]>(rng, &separators));
        }
        let w = if chance(rng, 0.8) { word(rng) } else { pick(rng, NUMBERS) };
        v.extend_from_slice(w.as_bytes());
    }
    v
}

/// GBK bytes (中文, 棋谱) where a GUI on a Chinese system would put them: a name, a path, a value.
pub fn gbk_line(rng: &mut Rng, b: &mut Belief) -> Vec<u8> {
    let words: [&[u8]; 4] = [&[0xd6, 0xd0, 0xce, 0xc4], &[0xc6, 0xe5, 0xc6, 0xd7], &[0xb0], &[0xe9]];
    let gbk = pick::<&[u8]>(rng, &words);
    let mut v = if chance(rng, 0.5) {
        let option = if b.ucci { "setoption bookfiles C:\\" } else { "setoption name Variant value " };
        option.as_bytes().to_vec()
    } else {
        command(rng, b).into_bytes()
    };
    let spans = word_spans(&v);
    let at = match spans.len() {
        0 => v.len(),
        n => {
            let (s, e) = spans[rng.random_range(0..n)];
            if chance(rng, 0.5) {
                s
            } else {
                e
            }
        }
    };
    v.splice(at..at, gbk.iter().copied());
    v
}

/// A line of at least 100 KB: random bytes, a legal game of thousands of moves, long move lists, a long option
/// value, a long FEN, a long number, spaces before a command.
pub fn long_line(rng: &mut Rng, b: &mut Belief) -> Vec<u8> {
    const LEN: usize = 100 * 1024;
    let mut v = Vec::with_capacity(LEN + 64);
    let fill = |v: &mut Vec<u8>, unit: &[u8]| {
        while v.len() < LEN {
            v.extend_from_slice(unit);
        }
    };
    match rng.random_range(0..9) {
        0 => {
            while v.len() < LEN {
                v.push(random_byte(rng));
            }
        }
        1 => {
            // Thousands of moves that go round in a circle, after a random opening.
            let plies = rng.random_range(0..6);
            let (pos, opening) = random_game(rng, &Position::startpos(), plies);
            v.extend_from_slice(b"position startpos moves");
            for m in &opening {
                v.extend_from_slice(format!(" {m}").as_bytes());
            }
            let cycle = if opening.len() % 2 == 0 { " a0a1 a9a8 a1a0 a8a9" } else { " a9a8 a0a1 a8a9 a1a0" };
            let mut end = pos.clone();
            let ok = cycle.split_whitespace().all(|m| end.play(m).is_ok());
            fill(&mut v, if ok { cycle.as_bytes() } else { b" h2e2" });
            b.pos = if ok { pos } else { Position::startpos() };
        }
        2 => {
            v.extend_from_slice(if b.ucci { b"banmoves" } else { b"go depth 1 searchmoves" });
            fill(&mut v, b" h2e2 b0c2 a0a1 i3i4");
        }
        3 => {
            v.extend_from_slice(b"setoption name Variant value ");
            fill(&mut v, b"engine+");
        }
        4 => {
            v.extend_from_slice(b"position fen ");
            fill(&mut v, b"rnbakabnr/");
        }
        5 => {
            let heads: [&[u8]; 4] = [b"go depth ", b"go nodes ", b"go wtime -", b"setoption name Hash value "];
            v.extend_from_slice(pick::<&[u8]>(rng, &heads));
            fill(&mut v, b"9");
        }
        6 => {
            fill(&mut v, b" \t ");
            v.extend_from_slice(b"isready");
        }
        7 => {
            v.extend_from_slice(b"setoption name ");
            fill(&mut v, b"Clear Hash ");
            v.extend_from_slice(b"value 1");
        }
        _ => {
            fill(&mut v, b"frobnicate ");
        }
    }
    v
}

/// A burst of `position`, `go`, `stop`, `isready` and `ponderhit`, as a hurried GUI sends them.
pub fn burst(rng: &mut Rng, b: &mut Belief) -> Vec<Vec<u8>> {
    let mut lines = Vec::new();
    for _ in 0..rng.random_range(3..=8) {
        let line = match weighted(rng, &[5, 6, 5, 3, 2, 1]) {
            0 => format!("position {}", position_args(rng, b)),
            1 => {
                let go =
                    *pick(rng, &["go infinite", "go depth 2", "go ponder depth 3", "go movetime 20", "go nodes 500"]);
                if b.ucci {
                    go.replace("movetime", "time").replace("go infinite", "go")
                } else {
                    go.to_owned()
                }
            }
            2 => "stop".to_owned(),
            3 => "isready".to_owned(),
            4 => "ponderhit".to_owned(),
            _ => "d".to_owned(),
        };
        lines.push(line.into_bytes());
    }
    lines
}

/// The input lines of one session: commands, mutated commands, random bytes, word salad, GBK text, long lines and
/// bursts, from the UCI grammar or, after a `ucci` (a quarter of the sessions start with one), the UCCI grammar.
pub fn session(rng: &mut Rng, max_lines: usize) -> Vec<Vec<u8>> {
    let mut b = Belief::default();
    let mut lines = Vec::new();
    if chance(rng, 0.25) {
        b.ucci = true;
        lines.push(b"ucci".to_vec());
    }
    let want = rng.random_range(1..=max_lines);
    while lines.len() < want {
        match weighted(rng, &[400, 300, 50, 60, 20, 3, 120]) {
            0 => lines.push(command(rng, &mut b).into_bytes()),
            1 => {
                let line = command(rng, &mut b);
                lines.push(mutate(rng, line.as_bytes()));
            }
            2 => lines.push(random_bytes(rng, 120)),
            3 => lines.push(word_salad(rng)),
            4 => lines.push(gbk_line(rng, &mut b)),
            5 => lines.push(long_line(rng, &mut b)),
            _ => lines.extend(burst(rng, &mut b)),
        }
    }
    lines
}

/// A FEN to read: valid (the corpus, random play, sparse setups that may be impossible), mutated, field-level
/// oddities, random text from the FEN alphabet, random bytes, and now and then 100 KB of it.
pub fn fen_text(rng: &mut Rng) -> String {
    let valid = |rng: &mut Rng| -> String {
        match weighted(rng, &[3, 2]) {
            0 => random_position(rng).fen(),
            _ => sparse_setup(rng).to_string(),
        }
    };
    match weighted(rng, &[25, 35, 10, 10, 8, 5, 1]) {
        0 => valid(rng),
        1 => {
            let fen = valid(rng);
            String::from_utf8_lossy(&mutate(rng, fen.as_bytes())).into_owned()
        }
        2 => {
            let fen = valid(rng);
            let board = fen.split(' ').next().unwrap_or_default().to_owned();
            let tail = *pick(
                rng,
                &[
                    "",
                    "w",
                    "r",
                    "B",
                    "x",
                    "w -",
                    "w - -",
                    "w - - 0",
                    "w - - 10000 100000",
                    "w - - 10001 1",
                    "b - - 0 0",
                    "w - - 4294967295 1",
                    "w - - 4294967296 1",
                    "w - - -1 1",
                    "w - - 0 1 extra",
                    "w KQkq - 0 1",
                    "w - e3 0 1",
                    "w - - +5 +5",
                    "w\t-\t-\t0\t1",
                ],
            );
            format!("{board} {tail}")
        }
        3 => {
            let alphabet = "rnbakcpRNBAKCPHEhe0123456789/ wb-".as_bytes();
            let n = rng.random_range(0..100);
            (0..n).map(|_| *pick(rng, alphabet) as char).collect()
        }
        4 => String::from_utf8_lossy(&random_bytes(rng, 100)).into_owned(),
        5 => {
            // Rank by rank, with odd pieces and counts in one rank.
            let mut ranks: Vec<String> =
                Position::startpos().fen().split(' ').next().unwrap().split('/').map(str::to_owned).collect();
            let i = rng.random_range(0..ranks.len());
            ranks[i] =
                pick(rng, &["9a", "0", "45", "x8", "k8", "K8", "111111111", "1111111111", "é8", "", "99"]).to_string();
            ranks.join("/") + " w - - 0 1"
        }
        _ => {
            let unit = *pick(rng, &["rnbakabnr/", "9", "/", "1", " w", "p"]);
            unit.repeat(100 * 1024 / unit.len() + 1)
        }
    }
}

/// A move text to read in `pos`: legal moves (UCI, ICCS, odd case, surrounding space), any two points, mutated
/// moves, random text from the move alphabet, random bytes, wide and combining characters, long strings.
pub fn move_text_input(rng: &mut Rng, pos: &Position) -> String {
    let legal = pos.legal_moves();
    let some_legal = |rng: &mut Rng| legal.get(rng.random_range(0..legal.len().max(1))).copied();
    match weighted(rng, &[25, 8, 5, 20, 15, 10, 5, 5, 1]) {
        0 => some_legal(rng).map_or_else(|| random_move_text(rng), |m| m.to_string()),
        1 => some_legal(rng).map_or_else(|| random_move_text(rng), |m| m.iccs()),
        2 => match some_legal(rng) {
            Some(m) => {
                let (before, after) = (*pick(rng, &["", " ", "\t"]), *pick(rng, &["", " ", "\r", " \t"]));
                format!("{before}{m}{after}")
            }
            None => random_move_text(rng),
        },
        3 => random_move_text(rng),
        4 => {
            let m = some_legal(rng).map_or_else(|| random_move_text(rng), |m| m.to_string());
            String::from_utf8_lossy(&mutate(rng, m.as_bytes())).into_owned()
        }
        5 => {
            let alphabet = "abcdefghijABCDEFGHIJ0123456789-+ ".as_bytes();
            let n = rng.random_range(0..8);
            (0..n).map(|_| *pick(rng, alphabet) as char).collect()
        }
        6 => String::from_utf8_lossy(&random_bytes(rng, 12)).into_owned(),
        7 => pick(
            rng,
            &["ｈ２ｅ２", "h2e2\u{0301}", "é2e2", "h２e2", "h2\u{2212}e2", "H2—E2", "h2-e2-", "h2--e2", "ĥ2e2"],
        )
        .to_string(),
        _ => "h2e2".repeat(rng.random_range(1..30_000)),
    }
}
