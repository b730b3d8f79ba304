//! The 60-move counter through make/unmake, the search-facing rule judge, the chase definition on single positions,
//! and the `Game` record's API.

use xiangqi_core::chase::chased;
use xiangqi_core::rules::{
    judge, judge_with_limit, judge_with_options, JudgeOptions, Judgement, MoveLimit, Reason, Verdict,
};
use xiangqi_core::{Bitboard, Color, Game, PlayError, Position, Square};

/// Black has only a king and an elephant, so it can never give check; Red gives 12 checks in the first 23 plies.
const CHAIN_FEN: &str = "2bk5/9/9/9/9/9/9/9/9/R3K2NR w - - 99 1";
const CHAIN: &str = "i0i9 d9d8 i9i8 d8d7 i8i7 c9e7 a0a7 d7d8 a7a8 d8d9 a8d8 d9e9 d8d9 e9e8 d9e9 e8d8 e9e8 d8d9 e8e9 \
                     d9d8 e9d9 d8e8 d9d8 e8e9 h0g2";

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn squares(bb: Bitboard) -> Vec<String> {
    bb.into_iter().map(|s| s.to_string()).collect()
}

#[test]
fn chain_facts_every_red_move_checks_and_nothing_is_captured() {
    let mut pos = Position::from_fen(CHAIN_FEN).unwrap();
    for (i, m) in CHAIN.split_whitespace().enumerate().take(23) {
        let red = pos.turn() == Color::Red;
        let mv = pos.parse_move(m).unwrap();
        assert!(pos.piece_at(mv.to()).is_none(), "ply {}: {m} captures", i + 1);
        pos.make_move(mv);
        assert_eq!(pos.in_check(), red, "ply {}: {m}", i + 1);
    }
}

#[test]
fn move_limit_counts_through_the_game_and_undo() {
    let mut game = Game::from_fen(CHAIN_FEN).unwrap();
    let mut counted = vec![game.move_limit()];
    for m in CHAIN.split_whitespace() {
        game.play(m).unwrap();
        counted.push(game.move_limit());
    }
    let plies: Vec<u32> = counted.iter().map(|c| c.plies()).collect();
    // 10 checks and 10 replies count (99 -> 119); the 11th and 12th checks and their replies do not; the last,
    // quiet move counts and reaches 120.
    let mut expected: Vec<u32> = (99..=119).collect();
    expected.extend([119, 119, 119, 119, 120]);
    assert_eq!(plies, expected);
    assert_eq!(counted[25].real_plies(), 99 + 25);
    assert_eq!(counted[24].checks(Color::Red), 14, "12 checks plus 2 uncounted replies");
    assert_eq!(game.result().map(|r| r.reason), Some(Reason::MoveLimit));
    // Undo walks the counter back exactly.
    for ply in (0..25).rev() {
        game.undo().unwrap();
        assert_eq!(game.move_limit(), counted[ply], "after undoing to ply {ply}");
        assert!(game.result().is_none());
    }
    assert!(game.undo().is_none());
}

#[test]
fn move_limit_recomputed_from_position_history_matches_and_restores() {
    let mut game = Game::from_fen(CHAIN_FEN).unwrap();
    for m in CHAIN.split_whitespace() {
        game.play(m).unwrap();
        let mut pos = game.position().clone();
        let (fen, key, ply) = (pos.fen(), pos.key(), pos.ply());
        assert_eq!(MoveLimit::of_position(&mut pos), game.move_limit(), "after {m}");
        assert_eq!((pos.fen(), pos.key(), pos.ply()), (fen, key, ply), "of_position restores the position");
    }
}

#[test]
fn move_limit_survives_make_unmake_on_position() {
    let mut pos = Position::from_fen(CHAIN_FEN).unwrap();
    for m in CHAIN.split_whitespace().take(22) {
        pos.play(m).unwrap();
    }
    let before = MoveLimit::of_position(&mut pos);
    assert_eq!(before.plies(), 119);
    let probes = pos.legal_moves();
    for m in probes {
        pos.make_move(m);
        pos.unmake_move();
        assert_eq!(MoveLimit::of_position(&mut pos), before);
    }
    pos.make_null_move();
    pos.unmake_move();
    assert_eq!(MoveLimit::of_position(&mut pos), before);
}

#[test]
fn move_limit_edge_cases() {
    let red = Color::Red;
    let black = Color::Black;
    // Eleven red checks, each answered: the 11th check and its reply are free.
    let mut c = MoveLimit::new(0);
    for _ in 0..11 {
        c = c.after_move(red, false, true, false);
        c = c.after_move(black, false, false, true);
    }
    assert_eq!((c.plies(), c.real_plies()), (20, 22));
    // A reply that is itself a check (Black's first, counted by Black's rule) still does not count when it answers
    // an uncounted red check: Pikafish then charges it to Red's excess.
    let c2 = c.after_move(red, false, true, false).after_move(black, false, true, true);
    assert_eq!(c2.plies(), 20);
    assert_eq!(c2.checks(black), 1);
    // A quiet move not answering a check counts.
    assert_eq!(c.after_move(red, false, false, false).plies(), 21);
    // The FEN clock is the start.
    let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 37 1").unwrap();
    assert_eq!(MoveLimit::of_position(&mut pos), MoveLimit::new(37));
    pos.play("a0a1").unwrap();
    assert_eq!(MoveLimit::of_position(&mut pos).plies(), 38);
    assert!(!MoveLimit::new(119).reached() && MoveLimit::new(120).reached());
}

#[test]
fn judge_uses_the_recomputed_counter_not_the_raw_clock() {
    // After 21 plies of the chain the raw clock is 120 but the counted plies are 119: no draw yet.
    let mut pos = Position::from_fen(CHAIN_FEN).unwrap();
    for m in CHAIN.split_whitespace().take(21) {
        pos.play(m).unwrap();
    }
    assert_eq!(pos.halfmoves(), 120);
    assert_eq!(judge(&mut pos, 3), None);
    assert_eq!(judge_with_limit(&mut pos, 3, MoveLimit::new(119), JudgeOptions::default()), None);
    // With a counter at the limit the same node is a draw.
    match judge_with_limit(&mut pos, 3, MoveLimit::new(120), JudgeOptions::default()) {
        Some(Judgement::Decided(r)) => assert_eq!((r.verdict, r.reason), (Verdict::Draw, Reason::MoveLimit)),
        other => panic!("{other:?}"),
    }
    // A plain clock at 120 without checks is a draw for the judge.
    let mut quiet = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80").unwrap();
    quiet.play("a0a1").unwrap();
    match judge(&mut quiet, 1) {
        Some(Judgement::Decided(r)) => assert_eq!((r.verdict, r.reason), (Verdict::Draw, Reason::MoveLimit)),
        other => panic!("{other:?}"),
    }
}

/// The red chariot checks on ranks 9 and 8; the black king steps between d9 and d8.
fn perpetual_check(plies: usize) -> Position {
    let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
    for m in "a0a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9 a8a9".split(' ').take(plies) {
        pos.play(m).unwrap();
    }
    pos
}

#[test]
fn search_judges_a_clean_first_recurrence_after_the_root() {
    // After 6 plies the position of ply 2 recurs; the move into it repeats the move into ply 2 and nothing inside
    // the cycle occurred twice: a clean cycle. Red, to move, checked perpetually.
    let mut pos = perpetual_check(6);
    assert_eq!(pos.turn(), Color::Red);
    match judge(&mut pos, 5) {
        Some(Judgement::Decided(r)) => {
            assert_eq!((r.verdict, r.reason), (Verdict::Loss, Reason::PerpetualCheck));
            assert_eq!(r.cycle.map(|c| (c.plies, c.occurrences)), Some((4, 2)));
        }
        other => panic!("{other:?}"),
    }
    // The earlier occurrence is the root itself (or before it): a first recurrence is not judged.
    assert_eq!(judge(&mut pos, 4), None);
    assert_eq!(judge(&mut pos, 0), None);
}

#[test]
fn search_leans_on_an_unclean_first_recurrence() {
    // After 5 plies the position of ply 1 recurs, but the move into it (a8a9) differs from the move into ply 1
    // (a0a9): Pikafish does not decide; the side to move (Black, facing perpetual check) can count on a draw.
    let mut pos = perpetual_check(5);
    assert_eq!(judge(&mut pos, 5), Some(Judgement::Leaning(Verdict::Win)));
    // At the third occurrence the verdict is final, whatever the distance to the root.
    let mut pos = perpetual_check(9);
    match judge(&mut pos, 0) {
        Some(Judgement::Decided(r)) => assert_eq!((r.verdict, r.reason), (Verdict::Win, Reason::PerpetualCheck)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn search_does_not_look_across_a_null_move() {
    let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K1R2 w").unwrap();
    for m in ["g0g1", "d9d8", "g1g0", "d8d9"] {
        pos.play(m).unwrap();
    }
    assert!(matches!(judge(&mut pos, 5), Some(Judgement::Decided(r)) if r.reason == Reason::Repetition));
    pos.make_null_move();
    pos.make_null_move();
    assert_eq!(pos.key(), pos.key_before(6).unwrap());
    assert_eq!(judge(&mut pos, 7), None, "the repetition lies before a null move");
}

#[test]
fn judge_adjudicates_material_unless_disabled() {
    let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/3K5 w").unwrap();
    match judge(&mut pos, 2) {
        Some(Judgement::Decided(r)) => assert_eq!((r.verdict, r.reason), (Verdict::Draw, Reason::InsufficientMaterial)),
        other => panic!("{other:?}"),
    }
    assert_eq!(judge_with_options(&mut pos, 2, JudgeOptions { material_draw: false }), None);
    let game = Game::with_options(&pos, JudgeOptions { material_draw: false });
    assert!(game.result().is_none());
}

#[test]
fn chase_definition_on_single_positions() {
    let chased_by_red = |fen: &str| {
        let mut pos = Position::from_fen(fen).unwrap();
        let fen_before = pos.fen();
        let c = squares(chased(&mut pos, Color::Red));
        assert_eq!(pos.fen(), fen_before, "chased() restores the position");
        c
    };
    // A soldier that has not crossed the river may be attacked; one that has crossed may not.
    assert!(chased_by_red("4k4/9/9/4p4/9/9/9/4R4/9/3K5 w").is_empty());
    assert_eq!(chased_by_red("4k4/9/9/9/9/4p4/9/4R4/9/3K5 w"), ["e4"]);
    // Soldiers and kings do not chase.
    assert!(chased_by_red("4k4/9/4n4/4P4/9/9/9/9/9/3K5 w").is_empty());
    assert!(chased_by_red("4k4/9/9/9/9/9/9/9/4n4/4K4 w").is_empty());
    // An advisor attacking a horse chases it even though a chariot protects it; a chariot attacking it does not.
    assert_eq!(chased_by_red("4k4/9/9/9/4r4/9/9/9/4n4/3A1K3 w"), ["e1"]);
    assert!(chased_by_red("4k4/9/9/9/4r4/9/9/9/R3n4/5K3 w").is_empty());
    // Chariot on chariot: an offer to exchange, unless the attacked chariot is pinned.
    assert!(chased_by_red("4k4/9/R3r4/9/9/9/9/9/9/3K5 w").is_empty());
    assert_eq!(chased_by_red("4k4/9/R3r4/9/9/9/9/4R4/9/3K5 w"), ["e7"]);
    // A pinned chariot chases nothing off its line; unpinned, it chases the cannon.
    assert!(chased_by_red("4k4/3r5/9/9/9/9/c2R5/9/9/3K5 w").is_empty());
    assert_eq!(chased_by_red("4k4/9/9/9/9/9/c2R5/9/9/3K5 w"), ["a3"]);
    // The side need not be the one to move.
    let mut pos = Position::from_fen("4k4/9/9/9/9/9/c2R5/9/9/3K5 b").unwrap();
    assert_eq!(chased(&mut pos, Color::Red).into_iter().collect::<Vec<_>>(), [sq("a3")]);
}

#[test]
fn game_api_errors_and_undo() {
    let mut game = Game::startpos();
    assert!(game.play("h2e2").is_ok());
    match game.play("e2e9") {
        Err(PlayError::Illegal { ply, .. }) => assert_eq!(ply, 2),
        other => panic!("{other:?}"),
    }
    match game.play("zz") {
        Err(e @ PlayError::Illegal { .. }) => assert!(e.to_string().starts_with("ply 2: malformed move")),
        other => panic!("{other:?}"),
    }
    // After the end, moves are refused; undo reopens the game.
    let mut mate = Game::from_fen("4k4/8R/9/9/9/9/9/9/R8/3K5 w").unwrap();
    mate.play("a1a9").unwrap();
    assert!(mate.is_over());
    assert!(matches!(mate.play("e9e8"), Err(PlayError::GameOver { ply: 2, .. })));
    assert_eq!(mate.undo().map(|m| m.to_string()), Some("a1a9".to_string()));
    assert!(!mate.is_over());
    assert_eq!(mate.plies(), 0);
    assert_eq!(mate.start().fen(), mate.position().fen());
}

#[test]
fn verdict_table_of_a_cycle() {
    use xiangqi_core::rules::{Cycle, Violation};
    use Violation::{None as Idle, PerpetualChase as Chase, PerpetualCheck as Check};
    let cycle = |red, black| Cycle {
        plies: 4,
        occurrences: 3,
        violations: [red, black],
        chased: [Bitboard::EMPTY, Bitboard::EMPTY],
    };
    let red = Color::Red;
    let black = Color::Black;
    assert_eq!(cycle(Check, Check).loser(), None);
    assert_eq!(cycle(Check, Chase).loser(), Some(red), "the checker loses against a chaser");
    assert_eq!(cycle(Chase, Check).loser(), Some(black));
    assert_eq!(cycle(Check, Idle).loser(), Some(red));
    assert_eq!(cycle(Chase, Chase).loser(), None, "mutual chase is a draw");
    assert_eq!(cycle(Idle, Chase).loser(), Some(black));
    assert_eq!(cycle(Idle, Idle).loser(), None);
    assert_eq!(cycle(Chase, Chase).ruling(red), (Verdict::Draw, Reason::Repetition));
    assert_eq!(cycle(Idle, Chase).ruling(red), (Verdict::Win, Reason::PerpetualChase));
    assert_eq!(cycle(Idle, Chase).ruling(black), (Verdict::Loss, Reason::PerpetualChase));
    assert_eq!(cycle(Check, Chase).ruling(black), (Verdict::Win, Reason::PerpetualCheck));
}
