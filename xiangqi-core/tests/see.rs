//! Static exchange evaluation against brute force: for every legal move (captures and quiet moves) of the perft
//! positions and of positions along seeded random games, [`Position::see`] equals the exchange played out with the
//! legal move generator (each side capturing on the point with its least valuable legal capturer, free to stop), and
//! [`Position::see_ge`] agrees with it at thresholds around it. Hand-written positions check cannon screens, horse
//! legs, elephant eyes, soldiers, the king's recapture and the flying general.

use xiangqi_core::{see_value, Move, Position, Square};

/// The perft positions (distinct FENs of `xiangqi-movegen/tests/data/perft.txt`).
fn perft_fens() -> Vec<String> {
    let mut fens: Vec<String> = include_str!("../../xiangqi-movegen/tests/data/perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect();
    fens.dedup();
    fens.sort();
    fens.dedup();
    fens
}

/// The legal captures on `to` of the side to move.
fn captures_on(pos: &Position, to: Square) -> Vec<Move> {
    pos.legal_moves().into_iter().filter(|m| m.to() == to && pos.piece_at(to).is_some()).collect()
}

/// What the side to move gains from the exchange on `to` (at least 0: it may stop), capturing with its least
/// valuable legal capturer (the lowest square among pieces of equal value).
fn exchange_lva(pos: &mut Position, to: Square) -> i32 {
    let victim = pos.piece_at(to).map_or(0, |p| see_value(p.kind));
    let Some(m) =
        captures_on(pos, to).into_iter().min_by_key(|m| (see_value(pos.piece_at(m.from()).unwrap().kind), m.from()))
    else {
        return 0;
    };
    pos.make_move(m);
    let v = victim - exchange_lva(pos, to);
    pos.unmake_move();
    v.max(0)
}

/// What the side to move gains from the exchange on `to` when each side may capture with any legal capturer
/// (full minimax of the captures on the point, with stand pat).
fn exchange_minimax(pos: &mut Position, to: Square) -> i32 {
    let victim = pos.piece_at(to).map_or(0, |p| see_value(p.kind));
    let mut best = 0;
    for m in captures_on(pos, to) {
        pos.make_move(m);
        best = best.max(victim - exchange_minimax(pos, to));
        pos.unmake_move();
    }
    best
}

/// The value of `m` by brute force: its gain less what the opponent then gains on the point.
fn reference(pos: &mut Position, m: Move, exchange: fn(&mut Position, Square) -> i32) -> i32 {
    let victim = pos.piece_at(m.to()).map_or(0, |p| see_value(p.kind));
    pos.make_move(m);
    let v = victim - exchange(pos, m.to());
    pos.unmake_move();
    v
}

/// Checks every legal move of `pos`; returns how many moves were checked and how many of them the full minimax
/// values differently.
fn check_position(pos: &mut Position) -> (usize, usize) {
    let mut differ = 0;
    let moves = pos.legal_moves();
    for &m in &moves {
        let want = reference(pos, m, exchange_lva);
        assert_eq!(pos.see(m), want, "see of {m} in {}", pos.fen());
        for t in [want - 1, want, want + 1, 0, 1, -1, -100, 100, -500, 500] {
            assert_eq!(pos.see_ge(m, t), want >= t, "see_ge({m}, {t}) in {} (see {want})", pos.fen());
        }
        if reference(pos, m, exchange_minimax) != want {
            differ += 1;
        }
    }
    (moves.len(), differ)
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn see_equals_the_exchange_played_out_in_perft_positions_and_random_games() {
    let fens = perft_fens();
    assert!(fens.len() >= 5, "{} perft positions", fens.len());
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut checked, mut differ, mut captures) = (0usize, 0usize, 0usize);
    for fen in &fens {
        let start = Position::from_fen(fen).unwrap();
        let (n, d) = check_position(&mut start.clone());
        checked += n;
        differ += d;
        for _game in 0..20 {
            let mut pos = start.clone();
            for _ply in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                captures += moves.iter().filter(|m| pos.piece_at(m.to()).is_some()).count();
                let (n, d) = check_position(&mut pos);
                checked += n;
                differ += d;
                // Captures half of the time, so that the games reach positions with few pieces too.
                let caps: Vec<Move> = moves.iter().copied().filter(|m| pos.piece_at(m.to()).is_some()).collect();
                let r = rng.next() as usize;
                let m =
                    if !caps.is_empty() && r % 2 == 0 { caps[r / 2 % caps.len()] } else { moves[r / 2 % moves.len()] };
                pos.make_move(m);
            }
        }
    }
    println!("{checked} moves checked ({captures} captures); full minimax differs from the least valuable attacker on {differ}");
    assert!(checked > 50_000 && captures > 5_000, "{checked} moves, {captures} captures");
    // The least valuable attacker is the best capture almost always; where it is not, the order of leaving changes
    // screens, legs or pins.
    assert!(differ * 100 < checked, "{differ} of {checked}");
}

fn see_of(fen: &str, mv: &str) -> i32 {
    let pos = Position::from_fen(fen).unwrap();
    let m = pos.parse_move(mv).unwrap();
    let v = pos.see(m);
    assert_eq!(v, reference(&mut pos.clone(), m, exchange_lva), "{fen} {mv}");
    assert!(pos.see_ge(m, v) && !pos.see_ge(m, v + 1), "{fen} {mv}");
    v
}

#[test]
fn a_cannon_gains_a_capture_when_its_second_screen_leaves() {
    // The red chariot on e2 is the cannon's second screen: once it takes the horse on e6, the cannon on e0 (screen:
    // the advisor on e1) recaptures after the black chariot.
    assert_eq!(see_of("4rk3/9/9/4n4/9/9/9/4R4/4A4/3KC4 w", "e2e6"), 420);
    // Without the cannon the chariot is lost for a horse.
    assert_eq!(see_of("4rk3/9/9/4n4/9/9/9/4R4/4A4/3K5 w", "e2e6"), 420 - 950);
}

#[test]
fn a_cannon_loses_its_capture_when_its_screen_leaves() {
    // The red chariot on e7 is the black cannon's only screen: taking the horse on e6 leaves the cannon none.
    assert_eq!(see_of("4ck3/9/4R4/4n4/9/9/9/9/9/3K5 w", "e7e6"), 420);
    // From the side the chariot leaves the screen (a black advisor on e8) in place and the cannon recaptures.
    assert_eq!(see_of("4ck3/4a4/9/R3n4/9/9/9/9/9/3K5 w", "a6e6"), 420 - 950);
    // A quiet move next to the black king: the king takes the chariot.
    assert_eq!(see_of("4c4/5k3/4R4/4n4/9/9/9/9/9/3K5 w", "e7e8"), -950);
}

#[test]
fn horse_legs_and_elephant_eyes_block() {
    // The horse on d7 defends e5 through its leg on d6...
    assert_eq!(see_of("5k3/9/3n5/9/4p4/9/9/9/4R4/3K5 w", "e1e5"), 100 - 950);
    // ...unless a piece stands on the leg.
    assert_eq!(see_of("5k3/9/3n5/3P5/4p4/9/9/9/4R4/3K5 w", "e1e5"), 100);
    // The elephant on g5 defends e7 through its eye on f6, unless the eye is occupied.
    assert_eq!(see_of("5k3/9/4n4/9/6b2/9/9/9/4R4/3K5 w", "e1e7"), 420 - 950);
    assert_eq!(see_of("5k3/9/4n4/5P3/6b2/9/9/9/4R4/3K5 w", "e1e7"), 420);
}

#[test]
fn soldiers_capture_sideways_only_across_the_river() {
    // The black soldier on e4 has crossed the river: it takes sideways on d4.
    assert_eq!(see_of("5k3/9/9/9/9/R2np4/9/9/9/3K5 w", "a4d4"), 420 - 950);
    // On e6 it has not: d6 is safe.
    assert_eq!(see_of("5k3/9/9/R2np4/9/9/9/9/9/3K5 w", "a6d6"), 420);
}

#[test]
fn the_flying_general_pins_the_piece_between_the_kings() {
    // The black advisor on e8 is all that stands between the kings: it may not recapture on d7.
    assert_eq!(see_of("4k4/4a4/3n5/9/9/9/9/9/3R5/4K4 w", "d1d7"), 420);
    // With the red king off the file it may.
    assert_eq!(see_of("4k4/4a4/3n5/9/9/9/9/9/3R5/5K3 w", "d1d7"), 420 - 950);
}
