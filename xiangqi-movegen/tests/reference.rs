//! The fast generator against a slow, obviously correct one written from the rule book: every generated move is
//! legal and every legal move is generated, over random games from varied positions.

use proptest::prelude::*;
use std::collections::BTreeSet;
use xiangqi_core::{Color, Move, Piece, PieceKind, Position, Square, START_FEN};
use xiangqi_movegen::{
    captures, count_legal, generate_lazy, generate_lazy_with, legal_moves, quiets, GenType, MoveList,
};

/// A plain array board: the reference knows nothing of bitboards or tables.
#[derive(Clone)]
struct Board {
    cells: [Option<Piece>; 90],
    turn: Color,
}

fn idx(f: i32, r: i32) -> Option<usize> {
    ((0..9).contains(&f) && (0..10).contains(&r)).then_some((r * 9 + f) as usize)
}

fn in_own_palace(c: Color, f: i32, r: i32) -> bool {
    (3..=5).contains(&f) && if c == Color::Red { (0..=2).contains(&r) } else { (7..=9).contains(&r) }
}

fn on_own_side(c: Color, r: i32) -> bool {
    if c == Color::Red {
        r <= 4
    } else {
        r >= 5
    }
}

impl Board {
    fn from(pos: &Position) -> Board {
        let mut cells = [None; 90];
        for sq in Square::all() {
            cells[sq.index()] = pos.piece_at(sq);
        }
        Board { cells, turn: pos.turn() }
    }

    fn at(&self, f: i32, r: i32) -> Option<Piece> {
        idx(f, r).and_then(|i| self.cells[i])
    }

    /// Squares the piece on (f, r) attacks or may move to, ignoring what stands on the target (cannons: quiet
    /// moves only onto empty points, captures only over one screen).
    fn targets(&self, f: i32, r: i32) -> Vec<(i32, i32)> {
        let p = self.at(f, r).unwrap();
        let mut out = Vec::new();
        let mut step = |df: i32, dr: i32, cond: bool| {
            if cond && idx(f + df, r + dr).is_some() {
                out.push((f + df, r + dr));
            }
        };
        match p.kind {
            PieceKind::King => {
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    step(df, dr, in_own_palace(p.color, f + df, r + dr));
                }
            }
            PieceKind::Advisor => {
                for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    step(df, dr, in_own_palace(p.color, f + df, r + dr));
                }
            }
            PieceKind::Elephant => {
                for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let eye_empty = idx(f + df, r + dr).is_some() && self.at(f + df, r + dr).is_none();
                    step(2 * df, 2 * dr, eye_empty && on_own_side(p.color, r + 2 * dr));
                }
            }
            PieceKind::Horse => {
                for (df, dr) in [(1i32, 2i32), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)] {
                    let (lf, lr) = if df.abs() == 2 { (f + df / 2, r) } else { (f, r + dr / 2) };
                    step(df, dr, self.at(lf, lr).is_none());
                }
            }
            PieceKind::Soldier => {
                let fwd = if p.color == Color::Red { 1 } else { -1 };
                step(0, fwd, true);
                let crossed = !on_own_side(p.color, r);
                step(1, 0, crossed);
                step(-1, 0, crossed);
            }
            PieceKind::Chariot | PieceKind::Cannon => {
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let (mut x, mut y) = (f + df, r + dr);
                    let mut screens = 0;
                    while idx(x, y).is_some() {
                        let occupied = self.at(x, y).is_some();
                        if p.kind == PieceKind::Chariot {
                            out.push((x, y));
                            if occupied {
                                break;
                            }
                        } else if screens == 0 && !occupied {
                            out.push((x, y));
                        } else if screens == 1 && occupied {
                            out.push((x, y));
                            break;
                        }
                        if occupied {
                            screens += 1;
                        }
                        x += df;
                        y += dr;
                    }
                }
            }
        }
        out
    }

    fn king_of(&self, c: Color) -> (i32, i32) {
        let i = (0..90).find(|&i| self.cells[i] == Some(Piece::new(c, PieceKind::King))).unwrap() as i32;
        (i % 9, i / 9)
    }

    /// Whether `c`'s king can be captured, or faces the other king on an open file.
    fn king_exposed(&self, c: Color) -> bool {
        let (kf, kr) = self.king_of(c);
        let (ef, er) = self.king_of(!c);
        if kf == ef {
            let (lo, hi) = (kr.min(er), kr.max(er));
            if (lo + 1..hi).all(|y| self.at(kf, y).is_none()) {
                return true;
            }
        }
        (0..90).any(|i| {
            let (f, r) = (i % 9, i / 9);
            matches!(self.at(f, r), Some(p) if p.color != c) && self.targets(f, r).contains(&(kf, kr))
        })
    }

    fn legal_moves(&self) -> BTreeSet<Move> {
        let mut out = BTreeSet::new();
        for i in 0..90 {
            let (f, r) = (i % 9, i / 9);
            let Some(p) = self.at(f, r) else { continue };
            if p.color != self.turn {
                continue;
            }
            for (x, y) in self.targets(f, r) {
                let j = idx(x, y).unwrap();
                if matches!(self.cells[j], Some(q) if q.color == p.color) {
                    continue;
                }
                let mut after = self.clone();
                after.cells[j] = after.cells[i as usize].take();
                if !after.king_exposed(p.color) {
                    let from = Square::from_index(i as usize).unwrap();
                    out.insert(Move::new(from, Square::from_index(j).unwrap()));
                }
            }
        }
        out
    }
}

const FENS: &[&str] = &[
    START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    // Cannon screens and facing kings around the palace.
    "3k5/4a4/4c4/9/9/9/9/4C4/4A4/5K3 w - - 0 1",
    "4k4/9/4c4/9/9/9/9/9/4N4/3K5 b - - 0 1",
];

fn check(pos: &Position) {
    let expected = Board::from(pos).legal_moves();
    let fast: BTreeSet<Move> = legal_moves(pos).into_iter().collect();
    assert_eq!(fast.len(), legal_moves(pos).len(), "duplicate moves in {}", pos.fen());
    assert_eq!(fast, expected, "legal moves differ in {}", pos.fen());
    let core: BTreeSet<Move> = pos.legal_moves().into_iter().collect();
    assert_eq!(core, expected, "core's generator differs in {}", pos.fen());
    assert_eq!(count_legal(pos) as usize, expected.len());
    let caps: BTreeSet<Move> = captures(pos).into_iter().collect();
    let quiet: BTreeSet<Move> = quiets(pos).into_iter().collect();
    assert!(caps.iter().all(|m| pos.piece_at(m.to()).is_some()));
    assert!(quiet.iter().all(|m| pos.piece_at(m.to()).is_none()));
    assert_eq!(caps.union(&quiet).copied().collect::<BTreeSet<_>>(), expected);
    // The lazy generator, filtered by the king-safety test it hands back, gives the legal moves in the same order.
    let mut lazy = MoveList::new();
    let ks = generate_lazy(pos, &mut lazy);
    let filtered: Vec<Move> = lazy.iter().copied().filter(|m| pos.is_safe_with(&ks, m.from(), m.to())).collect();
    assert_eq!(filtered, legal_moves(pos).to_vec(), "lazy generation differs in {}", pos.fen());
    // By kind, it lists the captures, then the quiet moves, each in the relative order of the whole list.
    for (kind, capture) in [(GenType::Captures, true), (GenType::Quiets, false)] {
        let mut part = MoveList::new();
        generate_lazy_with(pos, &ks, kind, &mut part);
        let expected: Vec<Move> = lazy.iter().copied().filter(|m| pos.piece_at(m.to()).is_some() == capture).collect();
        assert_eq!(part.to_vec(), expected, "{kind:?} differ in {}", pos.fen());
    }
    // is_legal agrees with the reference on every move of a piece of the side to move.
    for from in pos.color_bb(pos.turn()) {
        for to in Square::all().filter(|&t| t != from) {
            let m = Move::new(from, to);
            assert_eq!(pos.is_legal(m), expected.contains(&m), "is_legal({m}) in {}", pos.fen());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn generator_matches_reference_over_random_games(
        start in 0..FENS.len(),
        choices in prop::collection::vec(any::<u16>(), 0..150),
    ) {
        let mut pos = Position::from_fen(FENS[start]).unwrap();
        check(&pos);
        for c in choices {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then so games reach sparse endgames.
            let caps = captures(&pos);
            let m = if c % 3 == 0 && !caps.is_empty() { caps[c as usize % caps.len()] } else { moves[c as usize % moves.len()] };
            pos.make_move(m);
            check(&pos);
        }
    }
}
