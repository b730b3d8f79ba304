//! Sanity checks that can fail: the evaluation agrees with what xiangqi players know.

use xiangqi_core::{Color, Position};
use xiangqi_eval::{Evaluate, Handcrafted, MaterialOnly, Term, Weights, EVAL_MAX};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn eval(fen: &str) -> i32 {
    Handcrafted::default().evaluate(&pos(fen))
}

const START_RED: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const START_BLACK: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";

#[test]
fn start_position_is_near_zero() {
    let (red, black) = (eval(START_RED), eval(START_BLACK));
    assert!(red.abs() <= 30, "{red}");
    assert_eq!(red, black, "the same position for either side to move");
    // Only the tempo separates the sides.
    let t = Handcrafted::default().trace(&pos(START_RED));
    for term in Term::ALL.into_iter().filter(|&t| t != Term::Tempo) {
        assert_eq!(t.net(term), Default::default(), "{term:?}");
    }
}

#[test]
fn a_chariot_up_is_clearly_ahead() {
    // Black's a9 chariot is gone.
    let red_to_move = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let black_to_move = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
    assert!(eval(red_to_move) > 700, "{}", eval(red_to_move));
    assert!(eval(black_to_move) < -700, "{}", eval(black_to_move));
    // Also in the endgame: chariot and king against a bare king.
    assert!(eval("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1") > 700);
    // A chariot is worth more than a horse or a cannon, which are worth more than a soldier.
    let chariot = eval("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    let horse = eval("3k5/9/9/9/9/9/9/9/9/N3K4 w - - 0 1");
    let cannon = eval("3k5/9/9/9/9/9/9/9/9/C3K4 w - - 0 1");
    let soldier = eval("3k5/9/9/9/9/9/P8/9/9/4K4 w - - 0 1");
    assert!(chariot > horse && chariot > cannon, "{chariot} {horse} {cannon}");
    assert!(horse > soldier && cannon > soldier, "{horse} {cannon} {soldier}");
}

#[test]
fn a_crossed_soldier_beats_an_uncrossed_one() {
    // Middlegame: Red's central soldier on e5 (across the river) against on e4 (not yet).
    let crossed = "rnbakabnr/9/1c5c1/p1p3p1p/4P4/9/P1P3P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let uncrossed = "rnbakabnr/9/1c5c1/p1p3p1p/9/4P4/P1P3P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert!(eval(crossed) > eval(uncrossed) + 30, "{} vs {}", eval(crossed), eval(uncrossed));
    // Endgame: king and soldier against a bare king.
    let crossed = "3k5/9/9/9/4P4/9/9/9/9/5K3 w - - 0 1";
    let uncrossed = "3k5/9/9/9/9/9/4P4/9/9/5K3 w - - 0 1";
    assert!(eval(crossed) > eval(uncrossed) + 30, "{} vs {}", eval(crossed), eval(uncrossed));
    // And the breakdown says why.
    let t = Handcrafted::default().trace(&pos(crossed));
    assert!(t.get(Term::Soldiers, Color::Red).eg > 0);
}

#[test]
fn soldiers_near_the_palace_count_more_with_support() {
    // Red's soldier on e6 with a chariot across the river supporting the attack, against the same without.
    let supported = Handcrafted::default().trace(&pos("3k5/9/9/4P4/R8/9/9/9/9/5K3 w - - 0 1"));
    let alone = Handcrafted::default().trace(&pos("3k5/9/9/4P4/9/9/9/9/9/R4K3 w - - 0 1"));
    assert!(
        supported.get(Term::Soldiers, Color::Red).mg > alone.get(Term::Soldiers, Color::Red).mg,
        "{:?} vs {:?}",
        supported.get(Term::Soldiers, Color::Red),
        alone.get(Term::Soldiers, Color::Red)
    );
    // Two soldiers side by side across the river are worth more than two apart.
    let w = Weights::DEFAULT;
    let side_by_side = Handcrafted::default().trace(&pos("3k5/9/9/9/3PP4/9/9/9/9/5K3 w - - 0 1"));
    let apart = Handcrafted::default().trace(&pos("3k5/9/9/9/2P1P4/9/9/9/9/5K3 w - - 0 1"));
    assert_eq!(
        side_by_side.get(Term::Soldiers, Color::Red) - apart.get(Term::Soldiers, Color::Red),
        w.soldier_connected
    );
}

#[test]
fn empty_headed_cannon_is_a_threat() {
    let w = Weights::DEFAULT;
    // Red's cannon on e2, nothing on the e-file up to Black's king, whose advisors keep it from stepping aside.
    let hollow =
        Handcrafted::default().trace(&pos("rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/1C2C4/9/RNBAKABNR b - - 0 1"));
    assert_eq!(hollow.get(Term::Cannons, Color::Red), w.cannon_hollow[2]);
    // With the central soldiers still there the file is screened twice: a lesser pressure.
    let screened =
        Handcrafted::default().trace(&pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1"));
    assert_eq!(screened.get(Term::Cannons, Color::Red), w.cannon_two_screens);
    // Without the f9 advisor the king can step aside: still a bonus, a smaller one.
    let escapable =
        Handcrafted::default().trace(&pos("rnbak1bnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/1C2C4/9/RNBAKABNR b - - 0 1"));
    assert_eq!(escapable.get(Term::Cannons, Color::Red), w.cannon_hollow_escapable);
    // Material is even in both; Black is clearly worse facing the empty-headed cannon.
    assert!(
        eval("rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/1C2C4/9/RNBAKABNR b - - 0 1")
            < eval("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1") - 100,
        "Black should suffer from the empty-headed cannon"
    );
}

#[test]
fn central_horse_under_a_cannon_is_punished() {
    let w = Weights::DEFAULT;
    // Red cannon e3, a Red soldier on e5 and Black's horse on its palace centre e8: two screens, one a central horse.
    let t = Handcrafted::default().trace(&pos("r1bakab1r/4n4/1c5c1/p1p3p1p/4P4/9/P1P1C1P1P/9/9/RNBAKABNR b - - 0 1"));
    assert_eq!(t.get(Term::Cannons, Color::Red), w.cannon_central_horse);
}

#[test]
fn a_trapped_horse_is_worse_than_a_free_one() {
    // Red's horse in the corner with both legs blocked (cannon a1, chariot b0), against the same horse on e5.
    let e = Handcrafted::default();
    let trapped = e.trace(&pos("3k5/9/9/9/9/9/9/9/C8/NR2K4 w - - 0 1"));
    let free = e.trace(&pos("3k5/9/9/9/4N4/9/9/9/C8/1R2K4 w - - 0 1"));
    assert_eq!(free.get(Term::Horses, Color::Red), Weights::DEFAULT.horse_mobility[8]);
    let (t, f) = (trapped.get(Term::Horses, Color::Red), free.get(Term::Horses, Color::Red));
    assert_eq!(t, Weights::DEFAULT.horse_mobility[0]);
    assert!(f.mg > t.mg + 40, "{f:?} vs {t:?}");
}

#[test]
fn chariots_like_open_files_and_mobility() {
    let e = Handcrafted::default();
    // Red chariot on the open b-file against the a-file behind its own soldier.
    let open = e.trace(&pos("3k5/9/9/9/9/9/P8/9/9/1R2K4 w - - 0 1"));
    let closed = e.trace(&pos("3k5/9/9/9/9/9/P8/9/9/R3K4 w - - 0 1"));
    assert!(open.get(Term::Chariots, Color::Red).mg > closed.get(Term::Chariots, Color::Red).mg);
    // Pinning a horse against the king (d8 between chariot d0 and king d9), against the horse off the file (c8),
    // where the chariot sees one more point (it gives check).
    let w = Weights::DEFAULT;
    let pin = e.trace(&pos("3k5/3n5/9/9/9/9/9/9/9/3R1K3 b - - 0 1"));
    let no_pin = e.trace(&pos("3k5/2n6/9/9/9/9/9/9/9/3R1K3 b - - 0 1"));
    assert_eq!(
        pin.get(Term::Chariots, Color::Red) - no_pin.get(Term::Chariots, Color::Red),
        w.chariot_pin - w.chariot_mobility
    );
}

#[test]
fn missing_defenders_hurt_only_under_attack() {
    let e = Handcrafted::default();
    // Black's two chariots across the river; Red has lost both advisors in one position and none in the other.
    let bare = e.trace(&pos("3k5/9/9/9/9/9/9/r7r/9/2B1K1B2 w - - 0 1"));
    let guarded = e.trace(&pos("3k5/9/9/9/9/9/9/r7r/9/2BAKAB2 w - - 0 1"));
    assert!(bare.get(Term::KingSafety, Color::Red).mg < guarded.get(Term::KingSafety, Color::Red).mg - 300);
    assert_eq!(guarded.get(Term::KingSafety, Color::Red), Default::default());
    // No attackers, no penalty.
    let quiet = e.trace(&pos("3k5/9/9/9/9/9/9/9/9/2B1K1B2 w - - 0 1"));
    assert_eq!(quiet.get(Term::KingSafety, Color::Red), Default::default());
}

#[test]
fn scores_stay_within_the_documented_range() {
    // Red's whole army against a bare king, for either side to move.
    let red = eval("4k4/9/9/9/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    let black = eval("4k4/9/9/9/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    assert!((3_001..=EVAL_MAX).contains(&red), "{red}");
    assert!((-EVAL_MAX..-3_000).contains(&black), "{black}");
}

#[test]
fn weights_round_trip_and_drive_the_evaluation() {
    let w = Weights::DEFAULT;
    let v = w.to_vec();
    assert_eq!(v.len(), Weights::num_params());
    let mut back = Weights::DEFAULT;
    back.chariot_pin.mg += 7;
    back.set_from_slice(&v).unwrap();
    assert_eq!(back, w);
    let err = back.set_from_slice(&v[1..]).unwrap_err();
    assert_eq!((err.expected, err.got), (v.len(), v.len() - 1));
    assert_eq!(back, w, "a failed set changes nothing");

    // Raising the chariot's base value raises the score of a chariot-up endgame by as much.
    let p = pos("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    let mut stronger = Weights::DEFAULT;
    stronger.material[4] += xiangqi_eval::TaperedScore::new(100, 100);
    let (a, b) = (Handcrafted::default().evaluate(&p), Handcrafted::new(stronger).evaluate(&p));
    assert_eq!(b - a, 100);
}

#[test]
fn material_only_is_the_simple_count() {
    assert_eq!(MaterialOnly.evaluate(&pos(START_RED)), 0);
    let p = pos("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    assert_eq!(MaterialOnly.evaluate(&p), -Weights::DEFAULT.material[4].mg);
}
