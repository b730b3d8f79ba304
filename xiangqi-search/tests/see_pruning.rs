//! SEE pruning keeps checking sacrifices: a move that gives check is searched whatever its static exchange loses, so
//! the engine with `see` finds a mate that begins with a sacrifice as early as the engine without it.

use xiangqi_core::Position;
use xiangqi_eval::ChosenEval;
use xiangqi_search::techniques::see_pruning;
use xiangqi_search::{Limits, SearchResult, VariantConfig, MATE};

/// The first game of `xiangqi-core/tests/data/records/hbsxcjp-cchess/01.XQF` after 1. 马四进三 炮４退９: Red mates
/// in 3 by 2. 马三进五 炮４平５ 3. 车三平四 士５进６ 4. 马五进三, and 3. 车三平四 is a chariot given for an advisor,
/// a static exchange far beyond SEE pruning's margins, but a check.
const CHARIOT_SACRIFICE: &str = "3c1a3/4ak2r/6R2/8p/9/6N2/9/B7B/4K4/9 w - - 0 2";

fn search(variant: &str, depth: u32) -> SearchResult<xiangqi_core::Move> {
    let pos = Position::from_fen(CHARIOT_SACRIFICE).unwrap();
    let variant: VariantConfig = variant.parse().unwrap();
    let eval = ChosenEval::new(&pos);
    variant.run(pos, eval, &Limits { depth: Some(depth), iterative: true, ..Limits::default() })
}

#[test]
fn see_pruning_keeps_a_checking_sacrifice_that_mates() {
    for variant in ["engine", "engine+see"] {
        let r = search(variant, 8);
        // Mate in 3: five plies.
        assert_eq!(r.score, MATE - 5, "{variant}: score {} at depth 8", r.score);
        let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
        assert_eq!(pv.len(), 5, "{variant}: {pv:?}");
        // Red's moves: the horse to the centre, then the chariot given with check. Black's replies are any of the
        // defences that last as long, so the evaluator picks among them.
        assert_eq!([pv[0].as_str(), pv[2].as_str()], ["g4e5", "g7f7"], "{variant}: {pv:?}");
        // The line is legal and ends in mate.
        let mut pos = Position::from_fen(CHARIOT_SACRIFICE).unwrap();
        for m in &pv {
            pos.play(m).unwrap_or_else(|e| panic!("{variant}: {m} in {pv:?}: {e}"));
        }
        assert!(pos.in_check() && pos.legal_moves().is_empty(), "{variant}: {pv:?} does not end in mate");
    }
    // The rule was at work in that search: it skipped other moves.
    let r = search("engine+see", 8);
    let skipped = r.stats.get(see_pruning::CAPTURE_PRUNES) + r.stats.get(see_pruning::QUIET_PRUNES);
    assert!(skipped > 0, "SEE pruning skipped nothing");
}
