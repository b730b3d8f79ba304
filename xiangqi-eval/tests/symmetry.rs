//! The evaluation is symmetric under colour flip and left-right mirror, term by term, over the positions of seeded
//! random games.

mod common;

use common::{play_random_game, GAMES};
use xiangqi_core::{Color, Position, Setup, Validation};
use xiangqi_eval::{Handcrafted, TaperedScore, Term, Trace};

fn rebuild(setup: &Setup) -> Position {
    Position::from_setup(setup, Validation::Strict).expect("a flipped or mirrored legal position is legal")
}

#[test]
fn eval_is_symmetric_under_colour_flip_and_mirror() {
    let eval = Handcrafted::default();
    let mut positions = 0usize;
    // How often each term is not zero: the symmetry checks must cover every term, not just zeros.
    let mut fired = [0usize; Term::NUM];
    for seed in 0..GAMES {
        play_random_game(seed, |pos, _, _| {
            positions += 1;
            let setup = pos.setup();
            let flipped = rebuild(&setup.flip_colors());
            let mirrored = rebuild(&setup.mirror_files());
            let both = rebuild(&setup.flip_colors().mirror_files());

            let v = eval.evaluate(pos);
            assert_eq!(eval.evaluate(&flipped), v, "colour flip changes the score of {}", pos.fen());
            assert_eq!(eval.evaluate(&mirrored), v, "mirror changes the score of {}", pos.fen());
            assert_eq!(eval.evaluate(&both), v, "flip + mirror changes the score of {}", pos.fen());

            // Term by term: Red's terms in the flipped position are Black's here, and mirroring changes nothing.
            let t = eval.trace(pos);
            let tf = eval.trace(&flipped);
            let tm = eval.trace(&mirrored);
            for term in Term::ALL {
                for c in Color::ALL {
                    assert_eq!(tf.get(term, !c), t.get(term, c), "{term:?} of {c} under flip in {}", pos.fen());
                    assert_eq!(tm.get(term, c), t.get(term, c), "{term:?} of {c} under mirror in {}", pos.fen());
                }
                if t.get(term, Color::Red) != TaperedScore::ZERO || t.get(term, Color::Black) != TaperedScore::ZERO {
                    fired[term.index()] += 1;
                }
            }
            assert_eq!(t.total, v);
            assert_eq!(tf.phase, t.phase);
            check_total_from_terms(&t);
        });
    }
    assert!(positions >= 10_000, "only {positions} positions");
    for term in Term::ALL {
        assert!(fired[term.index()] >= 20, "{term:?} was non-zero in only {} positions", fired[term.index()]);
    }
}

/// The total is the tapered sum of the terms, for the side to move.
fn check_total_from_terms(t: &Trace) {
    let red_view = t.sum().taper(t.phase, t.phase_max);
    let expected = if t.turn == Color::Red { red_view } else { -red_view };
    assert_eq!(t.total, expected);
    // Each term tapered on its own adds up to the total up to one unit of rounding per term.
    let by_term: i32 = Term::ALL.iter().map(|&term| t.value(term)).sum();
    assert!((by_term - red_view).abs() <= Term::NUM as i32);
}
