//! Equality where theory says equality: the exact variants return the same root score on xiangqi positions, and
//! alpha-beta never visits more nodes than minimax.

use xiangqi_core::{Color, PieceKind, Position, START_FEN};
use xiangqi_search::policy::null_move;
use xiangqi_search::techniques::table;
use xiangqi_search::{Evaluator, Limits, Score, VariantConfig};

/// A small test evaluator (the search never names the real one): material plus a bonus for advanced pieces, so
/// that scores are varied and ties are rare.
struct TestEval;

impl Evaluator<Position> for TestEval {
    fn evaluate(&mut self, pos: &Position) -> Score {
        let mut score = 0;
        for sq in pos.occupied() {
            let Some(p) = pos.piece_at(sq) else { continue };
            let value = match p.kind {
                PieceKind::King => 0,
                PieceKind::Chariot => 900,
                PieceKind::Cannon => 450,
                PieceKind::Horse => 400,
                PieceKind::Advisor | PieceKind::Elephant => 200,
                PieceKind::Soldier => 100,
            };
            let advance = if p.color == Color::Red { sq.rank() as i32 } else { 9 - sq.rank() as i32 };
            let centre = 4 - (sq.file() as i32 - 4).abs();
            let v = value + advance * 3 + centre * 2;
            score += if p.color == pos.turn() { v } else { -v };
        }
        score
    }
}

fn positions() -> Vec<Position> {
    let mut fens: Vec<String> = include_str!("../../xiangqi-movegen/tests/data/perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap().trim().to_owned())
        .collect();
    fens.dedup();
    let mut out: Vec<Position> = fens.iter().map(|f| Position::from_fen(f).unwrap()).collect();
    // Positions from a fixed, deterministic walk from the start position.
    let mut pos = Position::from_fen(START_FEN).unwrap();
    let mut s = 0x9E37_79B9u64;
    for ply in 0..60 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        pos.make_move(moves[(s % moves.len() as u64) as usize]);
        if ply % 8 == 7 {
            out.push(Position::from_fen(&pos.fen()).unwrap());
        }
    }
    out
}

const EXACT: &[&str] = &["minimax", "alphabeta", "negamax", "negamax-ab", "negamax-ab-hard", "pvs"];

fn search(variant: &str, pos: &Position, depth: u32) -> xiangqi_search::SearchResult<xiangqi_core::Move> {
    let spec: VariantConfig = variant.parse().unwrap();
    spec.run(pos.clone(), TestEval, &Limits::depth(depth))
}

#[test]
fn exact_variants_agree_at_depth_3_on_20_positions() {
    let positions = positions();
    assert!(positions.len() >= 20, "only {} positions", positions.len());
    let (mut minimax_nodes, mut ab_nodes) = (0u64, 0u64);
    for pos in &positions {
        let reference = search("minimax", pos, 3);
        for &v in &EXACT[1..] {
            let r = search(v, pos, 3);
            assert_eq!(r.score, reference.score, "{v} vs minimax on {}", pos.fen());
        }
        let ab = search("alphabeta", pos, 3);
        assert!(ab.stats.main_nodes <= reference.stats.main_nodes, "{}", pos.fen());
        assert_eq!(search("negamax", pos, 3).stats.main_nodes, reference.stats.main_nodes);
        minimax_nodes += reference.stats.main_nodes;
        ab_nodes += ab.stats.main_nodes;
    }
    // From depth 3 on, alpha-beta visits far fewer nodes, even in generation order.
    assert!(ab_nodes * 4 < minimax_nodes, "alpha-beta {ab_nodes} vs minimax {minimax_nodes}");
}

#[test]
fn exact_variants_agree_at_depth_4_on_sparse_positions() {
    let sparse: Vec<Position> = positions().into_iter().filter(|p| p.occupied().count() <= 12).collect();
    assert!(sparse.len() >= 5);
    for pos in &sparse {
        let reference = search("minimax", pos, 4);
        for &v in &EXACT[1..] {
            assert_eq!(search(v, pos, 4).score, reference.score, "{v} on {}", pos.fen());
        }
    }
}

#[test]
fn quiescence_variants_agree_with_each_other() {
    // Quiescence changes the value (the horizon is searched further), so it differs from the plain variants; but
    // PVS and fail-hard windows are still exact on top of it.
    for pos in positions().iter().take(12) {
        let qs = search("qs", pos, 3);
        for v in ["pvs+qs", "negamax-ab-hard+qs", "alphabeta+qs", "qs+order", "pvs+qs+order"] {
            assert_eq!(search(v, pos, 3).score, qs.score, "{v} on {}", pos.fen());
        }
    }
}

/// Quiescence by SEE (`qsee`) and quiescence pruning (`qsprune`) both skip captures; with both on, the static
/// exchange decides and the ordering-key test is not applied. So adding `qsprune` to a search with `qsee` visits
/// the same nodes, while `qsprune` alone changes the search (else the first half would prove nothing).
#[test]
fn with_quiescence_by_see_on_quiescence_pruning_changes_nothing() {
    let mut qsprune_acts = false;
    for pos in positions().iter().take(12) {
        for (with_both, see_only) in
            [("engine+qsprune", "engine"), ("negamax-ab+qs+order+qsee+qsprune", "negamax-ab+qs+order+qsee")]
        {
            let (a, b) = (search(with_both, pos, 4), search(see_only, pos, 4));
            assert_eq!(a.stats.nodes(), b.stats.nodes(), "{with_both} on {}", pos.fen());
            assert_eq!(a.score, b.score, "{with_both} on {}", pos.fen());
        }
        let (pruned, plain) = (search("negamax-ab+qs+order+qsprune", pos, 4), search("negamax-ab+qs+order", pos, 4));
        qsprune_acts |= pruned.stats.quiescence_nodes != plain.stats.quiescence_nodes;
    }
    assert!(qsprune_acts, "quiescence pruning skipped nothing on any position");
}

#[test]
fn null_move_may_differ_but_stays_sane() {
    // Null-move pruning assumes passing is never better than the best move (no zugzwang); where that fails the
    // score differs from alpha-beta. It must still be a legal best move, and it never searches more nodes here
    // than plain alpha-beta at depth 5 summed over the positions (at depth 4 the null move, which needs
    // R + 1 = 4 plies left below the root, never fires).
    let (mut nmp_nodes, mut ab_nodes) = (0, 0);
    for pos in positions().iter().take(10) {
        assert_eq!(search("nmp", pos, 4).stats.get(null_move::TRIES), 0);
        let nmp = search("nmp+order", pos, 5);
        let ab = search("alphabeta+order", pos, 5);
        assert!(pos.is_legal(nmp.best_move.unwrap()));
        nmp_nodes += nmp.stats.main_nodes;
        ab_nodes += ab.stats.main_nodes;
        assert!(nmp.stats.get(null_move::CUTOFFS) <= nmp.stats.get(null_move::TRIES));
    }
    assert!(nmp_nodes < ab_nodes, "nmp {nmp_nodes} vs alphabeta {ab_nodes}");
}

#[test]
fn ordering_keeps_the_score_and_saves_nodes() {
    let (mut plain, mut ordered) = (0, 0);
    for pos in positions().iter().take(10) {
        // With quiescence, as ordering assumes: a capture of a defended piece by a dearer one is tried late,
        // which only pays when the recapture is searched.
        let a = search("pvs+qs", pos, 4);
        let b = search("pvs+qs+order", pos, 4);
        assert_eq!(a.score, b.score, "{}", pos.fen());
        plain += a.stats.main_nodes;
        ordered += b.stats.main_nodes;
    }
    assert!(ordered < plain, "ordered {ordered} vs generation order {plain}");
}

#[test]
fn mate_scores_carry_the_distance() {
    // Red mates in one: the chariot checks on the d-file, d8 is covered by it and e9 by the facing king.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
    let r = search("alphabeta", &pos, 3);
    assert_eq!(r.score, xiangqi_search::MATE - 1);
    assert_eq!(r.best_move.unwrap().to_string(), "a0d0");
    // Black to move is mated: no legal move scores as a loss now (stalemate loses too).
    let mut after = pos.clone();
    after.play("a0d0").unwrap();
    assert!(!after.has_legal_move());
    assert_eq!(search("negamax-ab", &after, 2).score, -xiangqi_search::MATE);
}

/// A variant parsed from text runs on one composition of dynamic policies (or, for the presets that play, on the
/// fixed composition): it must visit exactly the nodes, and find the score and line, of the composition of fixed
/// policies it names.
#[test]
fn dynamic_compositions_visit_the_nodes_of_the_fixed_ones() {
    use std::sync::Arc;
    use xiangqi_search::*;
    fn fixed<V: Variant>(pos: &Position, depth: u32) -> SearchResult<xiangqi_core::Move> {
        let mut s = Searcher::<Position, TestEval, V>::new(pos.clone(), TestEval)
            .with_tt(Arc::new(TranspositionTable::new(16)));
        s.search(&Limits::depth(depth))
    }
    type Hard = NegamaxAbHardForm;
    type Soft = NegamaxAbSoftForm;
    type N3 = NullMove<3>;
    type Pv = PrincipalVariation;
    type Run = fn(&Position, u32) -> SearchResult<xiangqi_core::Move>;
    let cases: Vec<(&str, Run)> = vec![
        ("minimax", fixed::<Minimax>),
        ("alphabeta", fixed::<AlphaBeta>),
        ("alphabeta+qs+order", fixed::<Compose<AlphaBetaForm, Quiescence, NoNull, FullWindow, Ordered>>),
        ("negamax", fixed::<Negamax>),
        ("negamax+qs", fixed::<Compose<NegamaxForm, Quiescence>>),
        ("negamax-ab", fixed::<NegamaxAb>),
        ("negamax-ab-hard", fixed::<NegamaxAbHard>),
        ("negamax-ab-hard+pvs+nmp+order", fixed::<Compose<Hard, StaticLeaf, N3, Pv, Ordered>>),
        ("pvs", fixed::<Pvs>),
        ("nmp", fixed::<Nmp>),
        ("qs", fixed::<Qs>),
        ("pvs+nmp+qs", fixed::<PvsNmpQs>),
        ("pvs+qs+order", fixed::<Compose<Soft, Quiescence, NoNull, Pv, Ordered>>),
        ("nmp+order", fixed::<Compose<Soft, StaticLeaf, N3, FullWindow, Ordered>>),
        ("engine+no-pvs", fixed::<Compose<Soft, Quiescence, VerifiedNullMove, FullWindow, Ordered, SwitchedAdditions>>),
        (
            "engine+no-order",
            fixed::<Compose<Soft, Quiescence, VerifiedNullMove, Pv, GenerationOrder, SwitchedAdditions>>,
        ),
        ("engine+no-qs+no-nmp", fixed::<Compose<Soft, StaticLeaf, NoNull, Pv, Ordered, SwitchedAdditions>>),
    ];
    for pos in positions().iter().take(6) {
        for (name, run) in &cases {
            let spec: VariantConfig = name.parse().unwrap();
            let depth =
                if name.starts_with("minimax") || name.starts_with("negamax+") || *name == "negamax" { 2 } else { 3 };
            let dynamic = spec.run(pos.clone(), TestEval, &Limits::depth(depth));
            let fixed = run(pos, depth);
            assert_eq!(
                (dynamic.stats.main_nodes, dynamic.stats.quiescence_nodes, dynamic.score, &dynamic.pv),
                (fixed.stats.main_nodes, fixed.stats.quiescence_nodes, fixed.score, &fixed.pv),
                "{name} on {}",
                pos.fen()
            );
        }
    }
}

/// The transposition table added to a textbook search keeps its score at a fixed depth and saves nodes.
#[test]
fn a_table_added_to_a_textbook_search_keeps_the_score_and_saves_nodes() {
    for (plain, with_tt) in [
        ("pvs", "pvs+tt"),
        ("negamax-ab", "negamax-ab+tt"),
        ("pvs+qs+order", "pvs+qs+order+tt"),
        ("alphabeta", "alphabeta+tt"),
        ("alphabeta-hard+order", "alphabeta-hard+order+tt"),
        ("minimax", "minimax+tt"),
    ] {
        let (mut plain_nodes, mut tt_nodes) = (0, 0);
        for pos in positions().iter().take(12) {
            let a = plain.parse::<VariantConfig>().unwrap().run(pos.clone(), TestEval, &Limits::depth(4));
            let b = with_tt.parse::<VariantConfig>().unwrap().run(pos.clone(), TestEval, &Limits::depth(4));
            assert_eq!(a.score, b.score, "{with_tt} on {}", pos.fen());
            plain_nodes += a.stats.nodes();
            tt_nodes += b.stats.nodes();
            assert!(b.stats.get(table::HITS) > 0 || b.stats.nodes() < 200, "{with_tt} on {}", pos.fen());
        }
        assert!(tt_nodes < plain_nodes, "{with_tt}: {tt_nodes} nodes, {plain}: {plain_nodes}");
    }
}

/// The variants that exercise each technique of the registry ([`TECHNIQUES`]): every addition joined to negamax-ab
/// alone (with what it needs, transitively), the engine with it (the engine itself when it is one of the engine's,
/// else `engine+NAME`), and the engine without it when it is one of the engine's; every part of the spec taken out
/// of the engine. A technique added to the registry is in this list without editing the test.
fn technique_variants() -> Vec<String> {
    use xiangqi_search::registry::Group;
    use xiangqi_search::techniques::{find, TECHNIQUES};
    fn needs(name: &str, out: &mut Vec<&'static str>) {
        let t = find(name).unwrap_or_else(|| panic!("{name}: not in the registry"));
        if let Some(n) = t.needs {
            needs(n, out);
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    let mut variants = vec!["engine".to_owned()];
    for t in TECHNIQUES {
        match t.group {
            Group::Spec => {
                if t.in_engine {
                    variants.push(format!("engine+no-{}", t.name));
                }
            }
            Group::Addition => {
                let mut parts = vec!["negamax-ab"];
                needs(t.name, &mut parts);
                parts.push(t.name);
                variants.push(parts.join("+"));
                variants.push(if t.in_engine { format!("engine+no-{}", t.name) } else { format!("engine+{}", t.name) });
            }
        }
    }
    variants
}

#[test]
fn the_technique_variants_cover_the_registry() {
    let variants = technique_variants();
    for t in xiangqi_search::techniques::TECHNIQUES {
        let named = variants.iter().filter(|v| v.split('+').any(|p| p == t.name || p == format!("no-{}", t.name)));
        assert!(named.count() >= 1, "{} is in no variant: {variants:?}", t.name);
    }
    // Singular, IIR, improving, the history scale and time management among them (once listed by hand, and missing).
    for name in ["singular", "iir", "improving", "hscale", "tm"] {
        assert!(variants.iter().any(|v| v.ends_with(&format!("+{name}"))), "{name}: {variants:?}");
    }
}

/// Every technique of the registry joins negamax-ab (with what it needs) and leaves the engine alone, and each such
/// variant searches the start position and a tactical one to a legal move.
#[test]
fn every_technique_can_be_added_alone_and_taken_away_alone() {
    let tactical = Position::from_fen("4k4/9/9/9/5r3/9/9/9/9/3K1R3 w").unwrap();
    let variants = technique_variants();
    for pos in [Position::startpos(), tactical] {
        for v in &variants {
            let spec: VariantConfig = v.parse().unwrap_or_else(|e| panic!("{v}: {e}"));
            let r = spec.run(pos.clone(), TestEval, &Limits::depth(4));
            let best = r.best_move.unwrap_or_else(|| panic!("{v}: no move"));
            assert!(pos.is_legal(best), "{v}");
        }
    }
}

/// Red mates in one: the chariot checks on the d-file, d8 is covered by it and e9 by the facing king.
const MATE_IN_1: &str = "3k5/9/9/9/9/9/9/9/9/R3K4 w";

/// The first game of `xiangqi-core/tests/data/records/hbsxcjp-cchess/01.XQF` after 1. 马四进三 炮４退９: Red mates in
/// 3 (five plies) by 2. 马三进五 炮４平５ 3. 车三平四 士５进６ 4. 马五进三, giving a chariot for an advisor on the way.
const MATE_IN_3: &str = "3c1a3/4ak2r/6R2/8p/9/6N2/9/B7B/4K4/9 w - - 0 2";

/// Every technique alone and in the engine keeps a mate in 1 and a mate in 3 (the exact distance) and plays a move
/// that is legal and starts the mate, by a line that ends in mate. The variants alone search with this file's
/// evaluator to depth 7 (room for the reductions); the engine's with the built-in network to depth 9 (the engine
/// finds the mate in 3 at depth 8, as `see_pruning.rs` shows; without its table, `engine+no-tt`, at depth 9).
#[test]
fn every_technique_keeps_a_mate_in_1_and_a_mate_in_3() {
    use xiangqi_eval::ChosenEval;
    let mut failures = Vec::new();
    for (fen, plies) in [(MATE_IN_1, 1), (MATE_IN_3, 5)] {
        let pos = Position::from_fen(fen).unwrap();
        for v in technique_variants() {
            let spec: VariantConfig = v.parse().unwrap();
            let engine = v.starts_with("engine");
            let limits = Limits { depth: Some(if engine { 9 } else { 7 }), iterative: true, ..Limits::default() };
            let r = if engine {
                spec.run(pos.clone(), ChosenEval::new(&pos), &limits)
            } else {
                spec.run(pos.clone(), TestEval, &limits)
            };
            let best = r.best_move.unwrap_or_else(|| panic!("{v}: no move"));
            assert!(pos.is_legal(best), "{v} on {fen}");
            // The line given is the mate: legal, and ends with the side to move mated.
            let mut after = pos.clone();
            for m in &r.pv {
                assert!(after.is_legal(*m), "{v} on {fen}: {:?}", r.pv);
                after.make_move(*m);
            }
            let mates = r.pv.first() == Some(&best) && r.pv.len() as i32 == plies && !after.has_legal_move();
            if r.score != xiangqi_search::MATE - plies || !mates {
                let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
                failures.push(format!("{v} on {fen}: score {}, pv {pv:?}", r.score));
            }
        }
    }
    assert!(failures.is_empty(), "mates lost:\n{}", failures.join("\n"));
}

/// A pool's threads serve search after search: the main search runs on the same thread each time, and a search
/// on a kept pool visits the nodes of a search on new threads (one thread: reproducible counts).
#[test]
fn a_search_pool_keeps_its_threads_and_its_node_counts() {
    use std::sync::{Arc, Mutex};
    use xiangqi_search::{search_smp, RunSetup, SearchPool, TranspositionTable};
    let spec: VariantConfig = "engine".parse().unwrap();
    let pool = SearchPool::new(1).unwrap();
    let threads = Mutex::new(Vec::new());
    for pos in positions().iter().take(3) {
        let fresh =
            search_smp(&spec, pos, |_| TestEval, &Limits::depth(5), Arc::new(TranspositionTable::new(1)), 1, |_| {});
        let setup = RunSetup { tt: Some(Arc::new(TranspositionTable::new(1))), ..RunSetup::default() };
        let kept = pool.search_in(
            &spec,
            pos,
            |_| TestEval,
            &Limits::depth(5),
            &setup,
            |_| {
                threads.lock().unwrap().push(std::thread::current().id());
            },
        );
        assert_eq!((kept.stats.nodes(), kept.score, kept.pv), (fresh.stats.nodes(), fresh.score, fresh.pv));
    }
    let threads = threads.into_inner().unwrap();
    assert!(threads.len() >= 3 && threads.iter().all(|&t| t == threads[0]), "{threads:?}");
    assert_ne!(threads[0], std::thread::current().id());
}
