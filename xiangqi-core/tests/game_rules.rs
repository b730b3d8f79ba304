//! The game-end rules, case by case: each case is a FEN, a move list and the expected result, modelled on the
//! AXF/WXF rule book's rulings and diagrams (rule numbers as in the Asian rules translation published by the WXF).
//!
//! Every case is replayed with [`Game`]: the FEN must be legal, every move must be legal, the game must not end
//! before the last move, and it must end exactly as expected after it (or go on, for the `ongoing` cases). For
//! repetitions the violation of each side is checked too. A cycle written `[a b c d]x2` is played twice.

use xiangqi_core::rules::{Reason, Violation};
use xiangqi_core::{Color, Game, START_FEN};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Ongoing,
    Win(Color, Reason),
    Draw(Reason),
}

use Expect::*;
use Violation::{None as Idle, PerpetualChase as Chase, PerpetualCheck as Check};
const RED: Color = Color::Red;
const BLACK: Color = Color::Black;

struct Case {
    name: &'static str,
    /// The ruling the case illustrates.
    rule: &'static str,
    fen: &'static str,
    moves: &'static str,
    expect: Expect,
    /// For repetitions: what Red and Black did in the cycle.
    violations: Option<[Violation; 2]>,
}

const fn case(name: &'static str, rule: &'static str, fen: &'static str, moves: &'static str, expect: Expect) -> Case {
    Case { name, rule, fen, moves, expect, violations: None }
}

const fn rep(
    name: &'static str,
    rule: &'static str,
    fen: &'static str,
    moves: &'static str,
    expect: Expect,
    red: Violation,
    black: Violation,
) -> Case {
    Case { name, rule, fen, moves, expect, violations: Some([red, black]) }
}

/// Expands `[a b c d]x2` into the moves repeated.
fn expand(moves: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut group: Option<Vec<String>> = None;
    for tok in moves.split_whitespace() {
        match &mut group {
            None if tok.starts_with('[') => {
                let t = tok.trim_start_matches('[');
                if let Some((m, times)) = t.split_once("]x") {
                    out.extend(std::iter::repeat(m.to_string()).take(times.parse().unwrap()));
                } else {
                    group = Some(vec![t.to_string()]);
                }
            }
            None => out.push(tok.to_string()),
            Some(g) => {
                if let Some((m, times)) = tok.split_once("]x") {
                    g.push(m.to_string());
                    let n: usize = times.parse().unwrap();
                    for _ in 0..n {
                        out.extend(g.iter().cloned());
                    }
                    group = None;
                } else {
                    g.push(tok.to_string());
                }
            }
        }
    }
    assert!(group.is_none(), "unclosed [ in {moves}");
    out
}

const CASES: &[Case] = &[
    // ---- No legal move: the side to move loses (checkmate or stalemate). ----
    case("two chariots mate", "mate", "4k4/8R/9/9/9/9/9/9/R8/3K5 w", "a1a9", Win(RED, Reason::Checkmate)),
    case("black chariots mate red", "mate", "3k5/r8/9/9/9/9/9/9/8r/4K4 b", "a8a0", Win(BLACK, Reason::Checkmate)),
    case("mated in the start position", "mate", "R2k5/7R1/9/9/9/9/9/9/9/4K4 b", "", Win(RED, Reason::Checkmate)),
    case("bare king stalemated", "stalemate loses", "3k5/9/R8/9/9/9/9/9/9/4K4 w", "a7a8", Win(RED, Reason::Stalemate)),
    case(
        "pinned horse, king boxed in by the flying general: stalemate",
        "stalemate loses",
        "3k5/3n5/9/9/9/9/9/9/3R5/4K4 b",
        "",
        Win(RED, Reason::Stalemate),
    ),
    case(
        "mate on the 120th ply still wins",
        "60-move rule: a side with no legal move loses",
        "4k4/8R/9/9/9/9/9/9/R8/3K5 w - - 119 60",
        "a1a9",
        Win(RED, Reason::Checkmate),
    ),
    // ---- The 60-move rule. ----
    case(
        "120th ply without capture",
        "60-move rule",
        "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80",
        "a0a1",
        Draw(Reason::MoveLimit),
    ),
    case(
        "two plies to the limit",
        "60-move rule",
        "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 118 80",
        "a0a1 d9d8",
        Draw(Reason::MoveLimit),
    ),
    case("a capture resets the count", "60-move rule", "3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 119 80", "a0a1", Ongoing),
    case(
        "checks beyond the tenth do not count",
        "60-move rule, Pikafish's check10: the 11th and 12th red checks and their replies are not counted",
        "2bk5/9/9/9/9/9/9/9/9/R3K2NR w - - 99 1",
        "i0i9 d9d8 i9i8 d8d7 i8i7 c9e7 a0a7 d7d8 a7a8 d8d9 a8d8 d9e9 d8d9 e9e8 d9e9 e8d8 e9e8 d8d9 e8e9 d9d8 e9d9 \
         d8e8 d9d8 e8e9 h0g2",
        Draw(Reason::MoveLimit),
    ),
    // ---- Perpetual check (AXF rules 6, 7, 8). ----
    rep(
        "red chariot checks perpetually",
        "AXF 6: perpetual check loses",
        "3k5/9/9/9/9/9/9/9/9/R3K4 w",
        "a0a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9 a8a9",
        Win(BLACK, Reason::PerpetualCheck),
        Check,
        Idle,
    ),
    rep(
        "black chariot checks perpetually",
        "AXF 6: perpetual check loses",
        "4k3r/9/9/9/9/9/9/9/9/5K3 b",
        "i9i0 f0f1 i0i1 f1f0 i1i0 f0f1 i0i1 f1f0 i1i0",
        Win(RED, Reason::PerpetualCheck),
        Idle,
        Check,
    ),
    rep(
        "both sides check: rook and cannon discoveries on two files",
        "AXF 7: both sides checking is a draw",
        "9/4k4/9/3r5/3c5/3R5/9/9/9/3KC4 w",
        "[d4e4 d5e5 e4d4 e5d5]x2",
        Draw(Reason::Repetition),
        Check,
        Check,
    ),
    rep(
        "both sides check: cannons interpose with check",
        "AXF 7: both sides checking is a draw",
        "9/3k1c3/3r5/9/5C3/3R5/9/9/9/5K3 w",
        "[f5d5 d7f7 d5f5 f7d7]x2",
        Draw(Reason::Repetition),
        Check,
        Check,
    ),
    rep(
        "one check, one idle",
        "AXF: alternating a check and an idle move is allowed",
        "3k5/9/R8/9/9/9/9/9/9/4K4 w",
        "[a7a9 d9d8 a9a7 d8d9]x2",
        Draw(Reason::Repetition),
        Idle,
        Idle,
    ),
    rep(
        "perpetual check against perpetual chase",
        "AXF: if one side checks perpetually and the other chases perpetually, the checker loses",
        "3knc3/R3ac3/9/9/9/9/9/9/9/4K4 w",
        "[a8a9 d9d8 a9a8 d8d9]x2",
        Win(BLACK, Reason::PerpetualCheck),
        Check,
        Chase,
    ),
    rep(
        "two checks, one check back",
        "AXF 8: the side checking perpetually loses",
        "9/4k4/2c6/4C4/4R4/9/9/4K4/9/8r w",
        "[e6c6 c7e7 c6e6 e7c7]x2",
        Win(BLACK, Reason::PerpetualCheck),
        Check,
        Idle,
    ),
    // ---- Perpetual chase. ----
    rep(
        "chariot chases an unprotected cannon",
        "AXF 18: a rook cannot perpetually chase an unprotected cannon",
        "4k4/9/1c7/9/9/9/2R6/9/9/3K5 w",
        "[c3b3 b7c7 b3c3 c7b7]x2",
        Win(BLACK, Reason::PerpetualChase),
        Chase,
        Idle,
    ),
    rep(
        "black chariot chases an unprotected cannon",
        "AXF 18 (colours swapped)",
        "3k5/9/9/2r6/9/9/9/1C7/9/4K4 b",
        "[c6b6 b2c2 b6c6 c2b2]x2",
        Win(RED, Reason::PerpetualChase),
        Idle,
        Chase,
    ),
    rep(
        "the attacked cannon does not escape",
        "AXF appendix, example of non-perpetual chase: an attack that stands all along is not a chase",
        "4k4/9/1c7/9/9/9/1R7/9/9/3K5 w",
        "[b3b4 b7b8 b4b3 b8b7]x2",
        Draw(Reason::Repetition),
        Idle,
        Idle,
    ),
    rep(
        "chariot chases a protected cannon",
        "AXF: chasing a protected piece (other than a chariot by a horse or cannon) is allowed",
        "4k4/9/1c4r2/9/9/9/2R6/9/9/3K5 w",
        "[c3b3 b7c7 b3c3 c7b7]x2",
        Draw(Reason::Repetition),
        Idle,
        Idle,
    ),
    rep(
        "horse chases a protected chariot",
        "AXF 15/27, 93: a horse may not perpetually chase a chariot even if it is protected",
        "4k4/9/9/r7r/9/N8/9/9/9/3K5 w",
        "[a4c5 a6b6 c5a4 b6a6]x2",
        Win(BLACK, Reason::PerpetualChase),
        Chase,
        Idle,
    ),
    rep(
        "cannon chases a protected chariot",
        "AXF 15: cannons may not perpetually chase a chariot even if it is protected",
        "4k4/9/1r5r1/9/1PP6/9/2C6/9/9/3K5 w",
        "[c3b3 b7c7 b3c3 c7b7]x2",
        Win(BLACK, Reason::PerpetualChase),
        Chase,
        Idle,
    ),
    rep(
        "the protector is pinned: a fake root",
        "a protector that cannot legally recapture does not protect",
        "4k4/1c2r4/9/9/9/9/2R6/4R4/9/3K5 w",
        "[c3b3 b8c8 b3c3 c8b8]x2",
        Win(BLACK, Reason::PerpetualChase),
        Chase,
        Idle,
    ),
    rep(
        "the same chase with a free protector",
        "chasing a protected piece is allowed",
        "4k4/1c2r4/9/9/9/9/2R6/9/9/3K5 w",
        "[c3b3 b8c8 b3c3 c8b8]x2",
        Draw(Reason::Repetition),
        Idle,
        Idle,
    ),
    rep(
        "a soldier may chase",
        "AXF 29: a soldier can perpetually chase",
        "4k4/9/2c6/1P7/9/9/9/9/9/3K5 w",
        "[b6c6 c7b7 c6b6 b7c7]x2",
        Draw(Reason::Repetition),
        Idle,
        Idle,
    ),
    rep(
        "the king may chase",
        "AXF 28: the king can perpetually chase",
        "5k3/9/9/9/9/9/9/4c4/3K5/8R w",
        "[d1e1 e2d2 e1d1 d2e2]x2",
        Draw(Reason::Repetition),
        Idle,
        Idle,
    ),
    rep(
        "chariot chases a soldier that crossed the river",
        "a crossed soldier may not be chased perpetually",
        "4k4/2R6/9/9/9/1p7/9/9/9/3K5 w",
        "[c8b8 b4c4 b8c8 c4b4]x2",
        Win(BLACK, Reason::PerpetualChase),
        Chase,
        Idle,
    ),
    rep(
        "cannon renews its attack on an unprotected soldier that has not crossed",
        "an attack on a soldier that has not crossed the river is not a chase",
        "5k3/9/9/4p4/9/6n2/2N6/4C4/9/3K5 w",
        "[c3e4 g4e5 e4c3 e5g4]x2",
        Draw(Reason::Repetition),
        Idle,
        Idle,
    ),
    rep(
        "the same cycle against a horse is a chase",
        "a cannon may not perpetually chase an unprotected horse (screens taken away and put back)",
        "5k3/9/9/4n4/9/6n2/2N6/4C4/9/3K5 w",
        "[c3e4 g4e5 e4c3 e5g4]x2",
        Win(BLACK, Reason::PerpetualChase),
        Chase,
        Idle,
    ),
    rep(
        "two pieces take turns chasing one cannon",
        "a chase by different pieces of the same victim is a perpetual chase",
        "4k4/9/1c7/9/9/9/3N5/2R6/9/3K5 w",
        "[d3c5 b7c7 c5d3 c7b7]x2",
        Win(BLACK, Reason::PerpetualChase),
        Chase,
        Idle,
    ),
    rep(
        "one chariot chases two pieces in turn",
        "AXF 32: one piece chasing two or more pieces is a draw",
        "4k4/9/2c6/3n5/9/9/2R6/9/9/3K5 w",
        "[c3d3 e9e8 d3c3 e8e9]x2",
        Draw(Reason::Repetition),
        Idle,
        Idle,
    ),
    rep(
        "chariot attacks a free chariot",
        "AXF 24, 40: chariot on chariot that can take back is an offer to exchange",
        "4k4/9/1r7/9/9/9/2R6/9/9/3K5 w",
        "[c3b3 b7c7 b3c3 c7b7]x2",
        Draw(Reason::Repetition),
        Idle,
        Idle,
    ),
    rep(
        "chariot chases a pinned chariot",
        "AXF 24, 27: a chariot that cannot take back may not be chased perpetually",
        "4k4/9/4r4/R8/9/9/9/4R4/9/3K5 w",
        "[a6a7 e7e6 a7a6 e6e7]x2",
        Win(BLACK, Reason::PerpetualChase),
        Chase,
        Idle,
    ),
    rep(
        "the same chariots, not pinned",
        "AXF 24: offer to exchange",
        "4k4/9/4r4/R8/9/9/9/9/9/3K5 w",
        "[a6a7 e7e6 a7a6 e6e7]x2",
        Draw(Reason::Repetition),
        Idle,
        Idle,
    ),
    rep(
        "one check, one idle against a perpetual chase",
        "AXF 18, diagrams 37-38: the chaser loses, the side mixing a check in does not violate",
        "9/5k3/1c7/9/9/5c3/9/3RNK3/9/9 w",
        "[d2d7 b7b2 d7d2 b2b7]x2",
        Win(BLACK, Reason::PerpetualChase),
        Chase,
        Idle,
    ),
    // ---- Insufficient material (Pikafish's table). ----
    case(
        "kings, advisors and elephants only",
        "insufficient material",
        "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w",
        "",
        Draw(Reason::InsufficientMaterial),
    ),
    case(
        "the king takes the last attacker",
        "insufficient material",
        "4k4/9/9/9/9/9/9/9/3r5/3K5 w",
        "d0d1",
        Draw(Reason::InsufficientMaterial),
    ),
    case(
        "lone cannon against two advisors, no mate in one",
        "insufficient material",
        "3aka3/9/9/9/9/9/9/9/9/3K1C3 w",
        "",
        Draw(Reason::InsufficientMaterial),
    ),
    // ---- Games that go on. ----
    case("an opening", "none", START_FEN, "h2e2 h9g7 b0c2 b9c7", Ongoing),
    case(
        "a position seen twice is not yet judged",
        "repetition is judged at the third occurrence",
        "3k5/9/9/9/9/9/9/9/9/R3K4 w",
        "a0a9 d9d8 a9a8 d8d9 a8a9 d9d8",
        Ongoing,
    ),
];

#[test]
fn rule_cases() {
    let mut failures = Vec::new();
    for case in CASES {
        if let Err(e) = run_case(case) {
            failures.push(format!("{} [{}]: {e}", case.name, case.rule));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), CASES.len(), failures.join("\n"));
    assert!(CASES.len() >= 40, "only {} cases", CASES.len());
}

fn run_case(case: &Case) -> Result<(), String> {
    let mut game = Game::from_fen(case.fen).map_err(|e| format!("bad FEN: {e}"))?;
    let moves = expand(case.moves);
    for (i, m) in moves.iter().enumerate() {
        if let Some(r) = game.result() {
            return Err(format!("game ended before ply {} ({m}): {r}", i + 1));
        }
        game.play(m).map_err(|e| format!("{e}"))?;
    }
    let result = game.result();
    let got = match result {
        None => Ongoing,
        Some(r) => match r.winner {
            Some(w) => Win(w, r.reason),
            None => Draw(r.reason),
        },
    };
    if got != case.expect {
        return Err(format!("expected {:?}, got {:?} ({:?})", case.expect, got, result.map(|r| r.ruling)));
    }
    if let Some(want) = case.violations {
        let cycle = result.and_then(|r| r.ruling.cycle).ok_or("no repetition cycle in the result")?;
        if cycle.violations != want {
            return Err(format!("violations {:?}, expected {want:?}", cycle.violations));
        }
        if cycle.occurrences != 3 {
            return Err(format!("judged at occurrence {}, expected the third", cycle.occurrences));
        }
    }
    Ok(())
}

#[test]
fn expand_repeats_groups() {
    assert_eq!(expand("a0a1 [b c d e]x2 f"), ["a0a1", "b", "c", "d", "e", "b", "c", "d", "e", "f"]);
    assert_eq!(expand("[x]x3"), ["x", "x", "x"]);
}
