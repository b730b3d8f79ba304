//! The optimised evaluator against a plain reference: the evaluation as first written (one loop per piece, a
//! 128-bit popcount per count, the attack tables of `xiangqi_core`), kept here as the definition. Every term of
//! both sides, the phase and the total must agree exactly, through `evaluate`, `evaluate_with` (an accumulator
//! kept along the games), `evaluate_lazy` and `trace`, for the default weights and for perturbed ones, over the
//! positions of seeded random games and over lenient random setups (pieces anywhere, any number of them).

mod common;

use common::{play_random_game, Rng, GAMES};
use xiangqi_core::attacks::{
    advisor_attacks, between, elephant_attacks, horse_attacks, king_attacks, rook_attacks, soldier_attacks,
};
use xiangqi_core::{Bitboard, Color, File, Piece, PieceKind, Position, Rank, Setup, Square, Validation};
use xiangqi_eval::{Accumulator, Handcrafted, TaperedScore, Term, Weights, DEFAULT_LAZY_MARGIN, EVAL_MAX};

const fn rect(files: (usize, usize), ranks: (usize, usize)) -> Bitboard {
    let mut b = 0u128;
    let mut r = ranks.0;
    while r <= ranks.1 {
        let mut f = files.0;
        while f <= files.1 {
            b |= 1u128 << (r * 9 + f);
            f += 1;
        }
        r += 1;
    }
    Bitboard::new(b)
}

const ENEMY_HALF: [Bitboard; 2] = [Bitboard::BLACK_HALF, Bitboard::RED_HALF];
const SOLDIER_ATTACK_ZONE: [Bitboard; 2] = [rect((0, 8), (5, 8)), rect((0, 8), (1, 4))];
const PALACE_ZONE: [Bitboard; 2] = [rect((2, 6), (6, 8)), rect((2, 6), (1, 3))];
const HORSE_POOR: Bitboard = Bitboard::new(
    rect((0, 8), (0, 0)).bits()
        | rect((0, 8), (9, 9)).bits()
        | rect((0, 0), (0, 9)).bits()
        | rect((8, 8), (0, 9)).bits()
        | rect((4, 4), (1, 1)).bits()
        | rect((4, 4), (8, 8)).bits(),
);
const FILE_I: Bitboard = Bitboard::file(File::I);
const PALACE_CENTRE: [Square; 2] = [Square::new(File::E, Rank::R1), Square::new(File::E, Rank::R8)];
const BACK_RANK: [Rank; 2] = [Rank::R0, Rank::R9];

fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::Red => sq.rank() as usize,
        Color::Black => 9 - sq.rank() as usize,
    }
}

/// The reference evaluation: `[term][color]` scores, the tapered phase, the total for the side to move, and the
/// same total from material and piece-square bonuses alone (what lazy evaluation looks at).
fn reference(w: &Weights, pos: &Position) -> ([[TaperedScore; 2]; Term::NUM], i32, i32, i32) {
    let phase_max: i32 = PieceKind::ALL.iter().map(|k| 2 * w.phase_weight[k.index()] * k.max_count() as i32).sum();
    let (phase_max, attack_max) = (phase_max.max(1), w.attack_max.max(1));
    let mut terms = [[TaperedScore::ZERO; 2]; Term::NUM];
    let mut add = |term: Term, color: Color, s: TaperedScore| terms[term.index()][color.index()] += s;

    // Material, piece-square bonuses, phase.
    let mut raw_phase = 0;
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            let pieces = pos.pieces(color, kind);
            add(Term::Material, color, w.material[kind.index()] * pieces.count() as i32);
            raw_phase += w.phase_weight[kind.index()] * pieces.count() as i32;
            for sq in pieces {
                let half_file = (sq.file() as usize).min(8 - sq.file() as usize);
                add(Term::Pst, color, w.pst[kind.index()][relative_rank(color, sq)][half_file]);
            }
        }
    }
    add(Term::Tempo, pos.turn(), w.tempo);

    // Attack pressure.
    let mut units = [0i32; 2];
    let mut strength = [0i32; 2];
    for color in Color::ALL {
        let c = color.index();
        for kind in PieceKind::ALL {
            let k = kind.index();
            units[c] += w.attack_unit[k] * (pos.pieces(color, kind) & ENEMY_HALF[c]).count() as i32;
            strength[c] += w.attack_material[k] * pos.pieces(color, kind).count() as i32;
        }
    }
    let surplus = strength[0] - strength[1];
    if surplus > 0 {
        units[0] += w.attack_surplus * surplus;
    } else {
        units[1] -= w.attack_surplus * surplus;
    }
    let pressure = [units[0].clamp(0, attack_max), units[1].clamp(0, attack_max)];

    for us in Color::ALL {
        let them = !us;
        let (u, t) = (us.index(), them.index());
        let occ = pos.occupancy();
        let all = occ.bitboard();
        let own = pos.color_bb(us);
        let enemy_king = pos.king(them);
        let soldiers = pos.pieces(us, PieceKind::Soldier);

        if soldiers.any() {
            let crossed = soldiers & ENEMY_HALF[u];
            let attacking = (soldiers & SOLDIER_ATTACK_ZONE[u]).count() as i32;
            let near = (soldiers & PALACE_ZONE[u]).count() as i32;
            let pairs = (crossed & Bitboard::new(crossed.bits() >> 1) & !FILE_I).count() as i32;
            let s = w.soldier_crossed * crossed.count() as i32
                + (w.soldier_attacking * attacking + w.soldier_near_palace * near).scale(pressure[u], attack_max)
                + w.soldier_connected * pairs;
            add(Term::Soldiers, us, s);
        }

        let horses = pos.pieces(us, PieceKind::Horse);
        if horses.any() {
            let mut guards = king_attacks(pos.king(them));
            for sq in pos.pieces(them, PieceKind::Soldier) {
                guards |= soldier_attacks(them, sq);
            }
            for sq in pos.pieces(them, PieceKind::Advisor) {
                guards |= advisor_attacks(sq);
            }
            for sq in pos.pieces(them, PieceKind::Elephant) {
                guards |= elephant_attacks(sq, all);
            }
            let poor = own | HORSE_POOR | guards;
            for sq in horses {
                let n = (horse_attacks(sq, all) - poor).count() as usize;
                add(Term::Horses, us, w.horse_mobility[n.min(w.horse_mobility.len() - 1)]);
            }
        }

        let king_file = Bitboard::file(enemy_king.file());
        for sq in pos.pieces(us, PieceKind::Cannon) {
            let screens = between(sq, enemy_king) & all;
            if king_file.contains(sq) {
                match screens.count() {
                    0 => {
                        let sideways = king_attacks(enemy_king) & Bitboard::rank(enemy_king.rank()) & !all;
                        let s = if sideways.is_empty() {
                            w.cannon_hollow[relative_rank(us, sq)]
                        } else {
                            w.cannon_hollow_escapable
                        };
                        add(Term::Cannons, us, s);
                    }
                    2 => {
                        let centre = PALACE_CENTRE[t];
                        let central_horse = screens.contains(centre)
                            && pos.piece_at(centre) == Some(Piece::new(them, PieceKind::Horse));
                        add(
                            Term::Cannons,
                            us,
                            if central_horse { w.cannon_central_horse } else { w.cannon_two_screens },
                        );
                    }
                    _ => {}
                }
            } else if sq.rank() == enemy_king.rank() && enemy_king.rank() == BACK_RANK[t] && screens.is_empty() {
                add(Term::Cannons, us, w.cannon_bottom);
            }
        }

        let all_soldiers = pos.kind_bb(PieceKind::Soldier);
        let pinnable = pos.pieces(them, PieceKind::Horse) | pos.pieces(them, PieceKind::Cannon);
        for sq in pos.pieces(us, PieceKind::Chariot) {
            add(Term::Chariots, us, w.chariot_mobility * (rook_attacks(sq, occ) - own).count() as i32);
            let file = Bitboard::file(sq.file());
            if (file & all_soldiers).is_empty() {
                add(Term::Chariots, us, w.chariot_open_file);
            } else if (file & soldiers).is_empty() {
                add(Term::Chariots, us, w.chariot_half_open_file);
            }
            let between_king = between(sq, enemy_king) & all;
            if (between_king & pinnable).any() && !between_king.more_than_one() {
                add(Term::Chariots, us, w.chariot_pin);
            }
        }

        if pressure[t] > 0 {
            let advisors = pos.pieces(us, PieceKind::Advisor).count() as i32;
            let elephants = pos.pieces(us, PieceKind::Elephant).count() as i32;
            let (full_advisors, full_elephants) = (2, 2);
            let mut penalty = w.advisor_missing * (full_advisors - advisors).max(0)
                + w.elephant_missing * (full_elephants - elephants).max(0);
            if advisors < full_advisors && pos.pieces(them, PieceKind::Chariot).more_than_one() {
                penalty += w.advisor_leak_double_chariot;
            }
            add(Term::KingSafety, us, -penalty.scale(pressure[t], attack_max));
        }
    }

    let m = raw_phase.clamp(0, phase_max);
    let phase = (2 * phase_max - m) * m / phase_max;
    let for_side_to_move = |net: TaperedScore| {
        let red_view = net.taper(phase, phase_max).clamp(-EVAL_MAX, EVAL_MAX);
        if pos.turn() == Color::Red {
            red_view
        } else {
            -red_view
        }
    };
    let net: TaperedScore = terms.iter().map(|t| t[0] - t[1]).sum();
    let base: TaperedScore =
        [Term::Material, Term::Pst].iter().map(|t| terms[t.index()][0] - terms[t.index()][1]).sum();
    (terms, phase, for_side_to_move(net), for_side_to_move(base))
}

/// The default weights with every number moved a little, some to zero (which the evaluator skips).
fn perturbed(seed: u64) -> Weights {
    let mut rng = Rng::new(seed);
    let mut w = Weights::DEFAULT;
    w.visit_mut(|name, x| {
        *x = match name {
            "attack_max" => 1 + rng.below(12) as i32,
            "attack_unit" | "attack_material" | "phase_weight" | "attack_surplus" => {
                if rng.below(4) == 0 {
                    0
                } else {
                    rng.below(4) as i32 - (rng.below(8) == 0) as i32
                }
            }
            _ if rng.below(8) == 0 => 0,
            _ => *x + rng.below(61) as i32 - 30,
        };
    });
    w
}

fn check(eval: &Handcrafted, acc: Option<&Accumulator>, pos: &Position, fired: &mut [usize; Term::NUM]) {
    let (terms, phase, total, base) = reference(eval.weights(), pos);
    let trace = eval.trace(pos);
    for term in Term::ALL {
        for color in Color::ALL {
            assert_eq!(trace.get(term, color), terms[term.index()][color.index()], "{term:?} {color} {}", pos.fen());
        }
        if terms[term.index()] != [TaperedScore::ZERO; 2] {
            fired[term.index()] += 1;
        }
    }
    assert_eq!((trace.phase, trace.total), (phase, total), "{}", pos.fen());
    assert_eq!(eval.evaluate(pos), total, "{}", pos.fen());
    let fresh;
    let acc = match acc {
        Some(acc) => acc,
        None => {
            fresh = Accumulator::new(eval, pos);
            &fresh
        }
    };
    assert_eq!(eval.evaluate_with(pos, acc), total, "{}", pos.fen());
    // Lazy: a bound when material and piece-square bonuses are a margin outside the window, else the full value.
    let margin = DEFAULT_LAZY_MARGIN;
    for (alpha, beta) in
        [(total - 1, total + 1), (base - 500, base + 500), (base + 650, base + 800), (base - 900, base - 710)]
    {
        let expected = if base + margin <= alpha {
            base + margin
        } else if base - margin >= beta {
            base - margin
        } else {
            total
        };
        assert_eq!(eval.evaluate_lazy(pos, acc, alpha, beta), expected, "({alpha}, {beta}) {}", pos.fen());
    }
}

#[test]
fn optimised_evaluation_equals_the_reference() {
    let evals = [Handcrafted::default(), Handcrafted::new(perturbed(1)), Handcrafted::new(perturbed(2))];
    let mut fired = [0usize; Term::NUM];
    let mut positions = 0;
    for seed in 0..GAMES {
        let mut accs: Vec<Accumulator> = evals.iter().map(|e| Accumulator::new(e, &Position::startpos())).collect();
        play_random_game(seed, |pos, next, _| {
            positions += 1;
            for (eval, acc) in evals.iter().zip(&accs) {
                check(eval, Some(acc), pos, &mut fired);
            }
            if let Some(m) = next {
                for (eval, acc) in evals.iter().zip(accs.iter_mut()) {
                    acc.make(eval, pos, m);
                }
            }
        });
    }
    assert!(positions >= 10_000, "only {positions} positions");
    for term in Term::ALL {
        assert!(fired[term.index()] >= 100, "{term:?} was non-zero in only {} positions", fired[term.index()]);
    }
}

#[test]
fn optimised_evaluation_equals_the_reference_on_lenient_setups() {
    let evals = [Handcrafted::default(), Handcrafted::new(perturbed(3))];
    let mut fired = [0usize; Term::NUM];
    let mut rng = Rng::new(77);
    let mut positions = 0;
    while positions < 5_000 {
        let mut board = [None; 90];
        let density = 2 + rng.below(40);
        for point in board.iter_mut() {
            if rng.below(100) < density {
                *point = Some(Piece::new(Color::ALL[rng.below(2)], PieceKind::ALL[1 + rng.below(6)]));
            }
        }
        // Kings mostly in their palaces, sometimes anywhere.
        for color in Color::ALL {
            let palace = [3, 4, 5, 12, 13, 14, 21, 22, 23][rng.below(9)];
            let sq = match (rng.below(3), color) {
                (0, _) => rng.below(90),
                (_, Color::Red) => palace,
                (_, Color::Black) => 89 - palace,
            };
            board[sq] = Some(Piece::new(color, PieceKind::King));
        }
        let setup = Setup { board, turn: Color::ALL[rng.below(2)], halfmoves: 0, fullmoves: 1 };
        let Ok(pos) = Position::from_setup(&setup, Validation::Lenient) else { continue };
        positions += 1;
        for eval in &evals {
            check(eval, None, &pos, &mut fired);
        }
    }
    for term in Term::ALL {
        assert!(fired[term.index()] >= 100, "{term:?} was non-zero in only {} positions", fired[term.index()]);
    }
}
