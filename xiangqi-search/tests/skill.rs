//! The engine's levels (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`) and `Variety`: below full strength the
//! choice varies with the seed, the same seed gives the same moves, level 10 is the engine node for node, and bad
//! values are refused without harm.

use std::collections::BTreeSet;
use xiangqi_core::{Move, Position};
use xiangqi_eval::EvalChoice;
use xiangqi_search::{skill, Limits, SearchEngine, SearchResult};

fn engine() -> SearchEngine<EvalChoice> {
    SearchEngine::new(EvalChoice::Handcrafted).unwrap()
}

/// Sets the option `name` to `value` (checked as `setoption` checks it).
fn set(engine: &mut SearchEngine<EvalChoice>, name: &str, value: &str) -> Result<(), String> {
    let decl = engine.option(name).ok_or_else(|| format!("no option {name}"))?;
    engine.set_option(&decl, &decl.parse(name, Some(value))?).map(|_| ())
}

/// Positions of the opening and the middle game.
fn positions() -> Vec<Position> {
    let mut out = vec![Position::startpos()];
    for line in ["h2e2 h9g7", "h2e2 h9g7 h0g2 i9h9", "c3c4 b9c7 b0c2 h9g7 h2e2", "b2e2 b9c7 b0c2 a9b9 a0b0 c6c5"] {
        let mut pos = Position::startpos();
        for m in line.split(' ') {
            pos.play(m).unwrap();
        }
        out.push(pos);
    }
    out.push(Position::from_fen("r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 3").unwrap());
    out
}

fn search(engine: &mut SearchEngine<EvalChoice>, pos: &Position, nodes: u64) -> SearchResult<Move> {
    engine.new_game();
    engine.search(pos, &Limits::nodes(nodes))
}

#[test]
fn level_10_is_the_engine_node_for_node() {
    let (mut plain, mut ten) = (engine(), engine());
    set(&mut ten, "Skill Level", "10").unwrap();
    set(&mut ten, "Seed", "12345").unwrap();
    set(&mut ten, "Variety", "0").unwrap();
    for pos in positions() {
        let (a, b) = (search(&mut plain, &pos, 30_000), search(&mut ten, &pos, 30_000));
        assert_eq!((a.best_move, a.score, a.stats.nodes()), (b.best_move, b.score, b.stats.nodes()), "{pos}");
        assert_eq!(a.lines.len(), 1);
    }
}

#[test]
fn limit_strength_varies_the_choice_with_the_seed() {
    let mut weak = engine();
    set(&mut weak, "UCI_LimitStrength", "true").unwrap();
    set(&mut weak, "UCI_Elo", &skill::MIN_ELO.to_string()).unwrap();
    assert_eq!(weak.skill().level, 1);
    let mut varied = 0;
    for pos in positions() {
        let mut moves = BTreeSet::new();
        for seed in 1..=24 {
            set(&mut weak, "Seed", &seed.to_string()).unwrap();
            let r = search(&mut weak, &pos, 1_000_000);
            let m = r.best_move.unwrap();
            assert!(pos.is_legal(m), "{pos}: {m}");
            // The chosen move is one of the lines searched, and the level's cap holds the search (it completes
            // its first iteration, and never goes near the million asked for).
            assert!(r.lines.iter().any(|l| l.pv.first() == Some(&m)));
            assert!(r.lines.len() > 1);
            assert!(r.stats.nodes() < 5_000, "{}", r.stats.nodes());
            moves.insert(m.to_string());
        }
        varied += usize::from(moves.len() > 1);
    }
    assert!(varied >= 4, "the weakest level chose one move in most positions ({varied} varied)");
}

#[test]
fn a_seed_gives_the_same_moves_again() {
    let mut a = engine();
    let mut b = engine();
    for e in [&mut a, &mut b] {
        set(e, "Skill Level", "4").unwrap();
        set(e, "Seed", "99").unwrap();
    }
    for pos in positions() {
        let (ra, rb) = (search(&mut a, &pos, 100_000), search(&mut b, &pos, 100_000));
        assert_eq!((ra.best_move, ra.stats.nodes()), (rb.best_move, rb.stats.nodes()), "{pos}");
    }
}

#[test]
fn variety_varies_the_first_plies_only() {
    let mut plain = engine();
    let mut varied = engine();
    set(&mut varied, "Variety", "4").unwrap();
    let start = Position::startpos();
    let mut moves = BTreeSet::new();
    for seed in 1..=16 {
        set(&mut varied, "Seed", &seed.to_string()).unwrap();
        let r = search(&mut varied, &start, 20_000);
        let best = r.lines[0].score;
        let chosen = r.lines.iter().find(|l| l.pv.first() == r.best_move.as_ref()).unwrap();
        assert!(best - chosen.score <= skill::VARIETY_MARGIN);
        moves.insert(r.best_move.unwrap().to_string());
    }
    assert!(moves.len() > 1, "{moves:?}");
    // Past the first plies: the engine itself.
    let late = positions().pop().unwrap();
    assert!(skill::GamePly::game_ply(&late) >= 4);
    let (a, b) = (search(&mut plain, &late, 20_000), search(&mut varied, &late, 20_000));
    assert_eq!((a.best_move, a.stats.nodes()), (b.best_move, b.stats.nodes()));
}

#[test]
fn bad_values_are_refused_and_the_engine_plays_on() {
    let mut e = engine();
    for (name, value) in [
        ("Skill Level", "0"),
        ("Skill Level", "11"),
        ("Skill Level", "five"),
        ("UCI_Elo", "0"),
        ("UCI_Elo", "99999"),
        ("UCI_LimitStrength", "yes"),
        ("Variety", "-1"),
        ("Seed", "-3"),
    ] {
        let e2 = set(&mut e, name, value).unwrap_err();
        assert!(e2.starts_with(&format!("option {name}")), "{e2}");
    }
    assert_eq!(e.skill().level, 10);
    assert_eq!(e.settings().variety, 0);
    let pos = Position::startpos();
    assert!(pos.is_legal(search(&mut e, &pos, 5_000).best_move.unwrap()));
}
