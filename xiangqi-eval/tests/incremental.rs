//! The accumulator's material, piece-square sums and phase equal the from-scratch values after every move, after
//! every unmake and around null moves, over seeded random games.

mod common;

use common::{play_random_game, GAMES};
use xiangqi_core::Position;
use xiangqi_eval::{Accumulator, Handcrafted, Weights};

fn check(eval: &Handcrafted, acc: &Accumulator, pos: &Position) {
    assert_eq!(*acc.state(), eval.psq(pos), "incremental terms differ from scratch in {}", pos.fen());
    assert_eq!(eval.evaluate_with(pos, acc), eval.evaluate(pos), "{}", pos.fen());
}

fn run_games(eval: &Handcrafted) -> usize {
    let mut checked = 0usize;
    for seed in 0..GAMES {
        let mut acc = Accumulator::new(eval, &Position::startpos());
        play_random_game(seed, |pos, next, rng| {
            check(eval, &acc, pos);
            checked += 1;
            // A side line: two random moves deep, then back.
            let moves = pos.legal_moves();
            if !moves.is_empty() {
                let m = moves[rng.below(moves.len())];
                acc.make(eval, pos, m);
                pos.make_move(m);
                check(eval, &acc, pos);
                let replies = pos.legal_moves();
                if !replies.is_empty() {
                    let r = replies[rng.below(replies.len())];
                    acc.make(eval, pos, r);
                    pos.make_move(r);
                    check(eval, &acc, pos);
                    acc.unmake();
                    pos.unmake_move();
                }
                check(eval, &acc, pos);
                acc.unmake();
                pos.unmake_move();
                check(eval, &acc, pos);
            }
            // A null move changes nothing but the side to move.
            if !pos.in_check() {
                acc.make_null();
                pos.make_null_move();
                check(eval, &acc, pos);
                acc.unmake();
                pos.unmake_move();
            }
            match next {
                Some(m) => acc.make(eval, pos, m), // the game plays it right after
                None => {
                    // The end of the game: take every move back, checking each position on the way.
                    let plies = pos.ply();
                    assert_eq!(acc.depth(), plies);
                    for _ in 0..plies {
                        acc.unmake();
                        pos.unmake_move();
                        check(eval, &acc, pos);
                    }
                    assert_eq!(*pos, Position::startpos());
                }
            }
        });
    }
    checked
}

#[test]
fn incremental_terms_equal_scratch_terms() {
    let checked = run_games(&Handcrafted::default());
    assert!(checked >= 10_000, "only {checked} positions");
}

#[test]
fn incremental_terms_follow_other_weights() {
    // Asymmetric, unusual weights: the accumulator must use the evaluator's own tables.
    let mut w = Weights::DEFAULT;
    let mut i = 0;
    w.visit_mut(|name, v| {
        if name == "pst" || name == "material" || name == "phase_weight" {
            *v += (i * 37 % 23) - 11;
            i += 1;
        }
    });
    let eval = Handcrafted::new(w);
    assert_ne!(eval.psq(&Position::startpos()), Handcrafted::default().psq(&Position::startpos()));
    run_games(&eval);
}

#[test]
fn accumulator_knows_its_evaluator() {
    let pos = Position::startpos();
    let default = Handcrafted::default();
    let mut w = Weights::DEFAULT;
    w.material[4].mg += 1;
    let other = Handcrafted::new(w);
    let acc = Accumulator::new(&default, &pos);
    assert!(acc.belongs_to(&default));
    assert!(!acc.belongs_to(&other));
}

#[test]
#[should_panic(expected = "moves stacked")]
fn a_full_stack_is_a_clear_panic() {
    let eval = Handcrafted::default();
    let mut acc = Accumulator::new(&eval, &Position::startpos());
    for _ in 0..Accumulator::CAPACITY {
        acc.make_null();
    }
}

#[test]
fn unmake_at_the_root_is_harmless() {
    let eval = Handcrafted::default();
    let pos = Position::startpos();
    let mut acc = Accumulator::new(&eval, &pos);
    acc.unmake();
    assert_eq!(acc.depth(), 0);
    check(&eval, &acc, &pos);
}
