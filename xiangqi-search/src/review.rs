//! A whole game's review, what `xiangqi analyze` does: the engine searches every position of a line (the start, and
//! after each move), and each move's loss is what the mover's score drops from the engine's best in the position
//! before the move to the engine's evaluation after it (0 when the move played is the engine's choice). Scores are
//! in the evaluator's units and capped at ±[`CAP`], a mate counting as [`CAP`]. The marks, after PGN's custom: `?!`
//! inaccuracy from [`INACCURACY`], `?` mistake from [`MISTAKE`], `??` blunder from [`BLUNDER`]. [`annotate`] writes
//! the evaluations into a game record as PGN comments and marks, [`summary`] counts each side's marks.
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_eval::EvalChoice;
//! use xiangqi_search::Limits;
//! use xiangqi_search::review::{evaluate, losses, mark, BLUNDER};
//!
//! // Red's chariot can take the undefended black chariot; a king move instead lets Black take Red's.
//! let start = Position::from_fen("4k4/9/1r7/9/1R7/9/9/9/9/3K5 w").unwrap();
//! let moves = ["d0d1".parse().unwrap(), "b7b5".parse().unwrap()];
//! let evals = evaluate(&start, &moves, &Limits::depth(4), 1, EvalChoice::Handcrafted, None, &mut |_, _| {}).unwrap();
//! assert_eq!(evals.len(), 3);
//! assert_eq!(evals[0].best, Some("b5b7".parse().unwrap()));
//! let loss = losses(&moves, &evals);
//! assert!(loss[0] >= BLUNDER);
//! assert_eq!(mark(loss[0]), Some("??"));
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use xiangqi_core::evaluation::EvalSource;
use xiangqi_core::record::{GameRecord, Notation};
use xiangqi_core::{Color, Move, Position};

use crate::{EngineError, Limits, Score, SearchEngine, Signals, MATE, MATE_BOUND};

/// A move losing at least this much (evaluator units) is an inaccuracy, `?!`.
pub const INACCURACY: i32 = 50;
/// A move losing at least this much is a mistake, `?`.
pub const MISTAKE: i32 = 100;
/// A move losing at least this much is a blunder, `??`.
pub const BLUNDER: i32 = 300;
/// Scores are capped at this for losses and charts; a mate counts as this much.
pub const CAP: i32 = 1000;

/// The engine's view of one position of the game.
#[derive(Clone, Debug)]
pub struct PositionEval {
    /// The score for the side to move, as the search returned it.
    pub score: Score,
    /// The score from Red's view, capped at ±[`CAP`].
    pub red: i32,
    /// The engine's best move (none when the side to move has no move).
    pub best: Option<Move>,
    /// The engine's line from the position.
    pub pv: Vec<Move>,
    /// The depth reached.
    pub depth: u32,
}

/// A score for the side to move, capped at ±[`CAP`].
pub fn capped(score: Score) -> i32 {
    if score.abs() >= MATE_BOUND {
        CAP * score.signum()
    } else {
        score.clamp(-CAP, CAP)
    }
}

/// The mark for a loss, if it reaches a threshold.
pub fn mark(loss: i32) -> Option<&'static str> {
    match loss {
        l if l >= BLUNDER => Some("??"),
        l if l >= MISTAKE => Some("?"),
        l if l >= INACCURACY => Some("?!"),
        _ => None,
    }
}

/// The loss of each move of `moves`: the mover's best score before it minus its score after it (capped), 0 for the
/// engine's own choice. `evals` has one entry per position (one more than `moves`).
pub fn losses(moves: &[Move], evals: &[PositionEval]) -> Vec<i32> {
    moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            if evals[i].best == Some(mv) {
                return 0;
            }
            let best = capped(evals[i].score);
            let after = -capped(evals[i + 1].score);
            (best - after).max(0)
        })
        .collect()
}

/// Stops a running [`evaluate`] from another thread: the position being searched and every later one.
#[derive(Debug, Default)]
pub struct ReviewStop {
    stopped: AtomicBool,
    current: Mutex<Option<Arc<Signals>>>,
}

impl ReviewStop {
    /// Stops the review as soon as possible.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
        if let Some(signals) = &*self.current.lock().unwrap_or_else(std::sync::PoisonError::into_inner) {
            signals.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Whether [`ReviewStop::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }
}

/// Searches every position of the line `moves` from `start` (the start, and after each move) within `limits`, with
/// a table of `hash_mb` megabytes kept from one position to the next, evaluating with what `source` builds, calling
/// `progress(done, total)` after each.
/// With `stop`, a [`ReviewStop::stop`] ends it early: the evaluations so far are returned (fewer than the positions).
///
/// The moves must be legal (a game record's main line, a line the rules replayed).
///
/// # Errors
/// When the engine cannot be set up (the table's memory, the search thread).
pub fn evaluate<S>(
    start: &Position,
    moves: &[Move],
    limits: &Limits,
    hash_mb: usize,
    source: S,
    stop: Option<&ReviewStop>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<PositionEval>, EngineError>
where
    S: EvalSource<Position, Move> + Sync,
    S::Eval: Send,
{
    let mut engine = SearchEngine::new(source)?;
    engine.set_hash(hash_mb)?;
    // The engine deepens iteratively, to a depth too.
    let mut limits = Limits { iterative: true, ..limits.clone() };
    let mut pos = start.clone();
    let total = moves.len() + 1;
    let mut evals = Vec::with_capacity(total);
    for i in 0..total {
        if let Some(stop) = stop {
            let signals = Arc::new(Signals::default());
            *stop.current.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(signals.clone());
            limits.signals = Some(signals);
            if stop.is_stopped() {
                break;
            }
        }
        let e = if pos.has_legal_move() {
            // The table is kept from one position to the next; the ordering's memory is not (each position is
            // searched as a first search orders it).
            engine.forget_ordering();
            let r = engine.search(&pos, &limits);
            PositionEval { score: r.score, red: 0, best: r.best_move, pv: r.pv, depth: r.depth }
        } else {
            // Mated or stalemated: in xiangqi both lose.
            PositionEval { score: -MATE, red: 0, best: None, pv: Vec::new(), depth: 0 }
        };
        if stop.is_some_and(ReviewStop::is_stopped) {
            break;
        }
        let red = if pos.turn() == Color::Red { capped(e.score) } else { -capped(e.score) };
        evals.push(PositionEval { red, ..e });
        progress(i + 1, total);
        if let Some(&mv) = moves.get(i) {
            pos.make_move(mv);
        }
    }
    Ok(evals)
}

/// A score from Red's view as text: `+35`, or `#3` / `#-3` for a mate in 3 moves for Red / for Black.
fn red_text(score: Score, turn: Color) -> String {
    let red = if turn == Color::Red { score } else { -score };
    match crate::mate_moves(red) {
        Some(moves) => format!("#{moves}"),
        None => format!("{red:+}"),
    }
}

/// A line of moves from `pos` in `notation` (stopping at a move that is not legal there).
fn line_text(pos: &Position, line: &[Move], notation: Notation, max: usize) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for &m in line.iter().take(max) {
        if !pos.is_legal(m) {
            break;
        }
        out.push(pos.move_text(m, notation));
        pos.make_move(m);
    }
    out.join(" ")
}

/// The game `record` with the engine's comments and marks added to its main line, from `evals` (one per position
/// of the main line, as [`evaluate`] gives them): after each move its score from Red's view and depth, the engine's
/// best move and line when it differs, the loss and the mark; the tag `Annotator` set to `annotator`.
pub fn annotate(record: &GameRecord, evals: &[PositionEval], notation: Notation, annotator: &str) -> GameRecord {
    let mut out = record.clone();
    out.set_tag("Annotator", annotator);
    let losses = losses(&record.main_line(), evals);
    let mut pos = record.start.clone();
    for (i, rm) in out.moves.iter_mut().enumerate() {
        let (before, after) = (&evals[i], &evals[i + 1]);
        let turn_after = !pos.turn();
        let mut text = if after.best.is_none() {
            let mut next = pos.clone();
            next.make_move(rm.mv);
            (if next.in_check() { "checkmate" } else { "stalemate: no legal move" }).to_string()
        } else {
            format!("{} d{}", red_text(after.score, turn_after), after.depth)
        };
        match before.best {
            Some(best) if best == rm.mv => text.push_str(", the engine's choice"),
            Some(best) => {
                text.push_str(&format!(
                    "; best {} {}: {}",
                    pos.move_text(best, notation),
                    red_text(before.score, pos.turn()),
                    line_text(&pos, &before.pv, notation, 8)
                ));
            }
            None => {}
        }
        if losses[i] > 0 {
            text.push_str(&format!("; loss {}", losses[i]));
        }
        rm.comments.push(text);
        if let Some(m) = mark(losses[i]) {
            rm.mark = Some(m.to_string());
        }
        pos.make_move(rm.mv);
    }
    if let Some(last) = evals.last() {
        if !last.pv.is_empty() {
            let line = line_text(&pos, &last.pv, notation, 8);
            if let Some(rm) = out.moves.last_mut() {
                rm.comments.push(format!("the engine goes on: {line}"));
            }
        }
    }
    out
}

/// How many moves of each side of `record`'s main line got each mark, and the side's average loss, one line a side.
pub fn summary(record: &GameRecord, evals: &[PositionEval]) -> String {
    let losses = losses(&record.main_line(), evals);
    let mut pos = record.start.clone();
    let mut rows = [(0usize, 0i64, [0usize; 3]); 2];
    for (rm, &loss) in record.moves.iter().zip(&losses) {
        let side = pos.turn().index();
        rows[side].0 += 1;
        rows[side].1 += i64::from(loss);
        match mark(loss) {
            Some("?!") => rows[side].2[0] += 1,
            Some("?") => rows[side].2[1] += 1,
            Some(_) => rows[side].2[2] += 1,
            None => {}
        }
        pos.make_move(rm.mv);
    }
    let mut out = String::new();
    for (color, (moves, total, marks)) in [Color::Red, Color::Black].into_iter().zip(rows) {
        let avg = if moves > 0 { total as f64 / moves as f64 } else { 0.0 };
        out.push_str(&format!(
            "{color}: {moves} moves, {} inaccuracies (?!), {} mistakes (?), {} blunders (??), average loss {avg:.1}\n",
            marks[0], marks[1], marks[2]
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_eval::Material;

    #[test]
    fn marks_by_threshold() {
        assert_eq!(
            [0, 49, 50, 99, 100, 299, 300, 2000].map(mark),
            [None, None, Some("?!"), Some("?!"), Some("?"), Some("?"), Some("??"), Some("??")]
        );
        assert_eq!(capped(MATE - 3), CAP);
        assert_eq!(capped(-MATE + 4), -CAP);
        assert_eq!(capped(-1500), -CAP);
    }

    #[test]
    fn a_stopped_review_ends_early() {
        let stop = ReviewStop::default();
        stop.stop();
        let pos = Position::startpos();
        let moves = ["h2e2".parse().unwrap()];
        let evals =
            evaluate(&pos, &moves, &Limits::depth(3), 1, |_: &Position| Material, Some(&stop), &mut |_, _| {}).unwrap();
        assert!(evals.is_empty());
    }

    #[test]
    fn scores_are_written_from_reds_view() {
        assert_eq!(red_text(MATE - 3, Color::Black), "#-2");
        assert_eq!(red_text(-40, Color::Black), "+40");
    }

    #[test]
    fn a_move_that_hangs_a_chariot_is_a_blunder_in_the_annotated_game() {
        // Red's chariot on b5 can take the undefended black chariot on b7; instead Red plays a quiet king move
        // and Black takes Red's chariot instead: the loss is a chariot.
        let pos = Position::from_fen("4k4/9/1r7/9/1R7/9/9/9/9/3K5 w").unwrap();
        let mut record = GameRecord::new(pos.clone());
        for m in ["d0d1", "b7b5"] {
            record.moves.push(xiangqi_core::record::RecordMove::new(m.parse().unwrap()));
        }
        let evals =
            evaluate(&pos, &record.main_line(), &Limits::depth(4), 1, |_: &Position| Material, None, &mut |_, _| {})
                .unwrap();
        assert_eq!(evals[0].best, Some("b5b7".parse().unwrap()));
        let annotated = annotate(&record, &evals, Notation::Iccs, "test");
        assert_eq!(annotated.moves[0].mark.as_deref(), Some("??"));
        assert!(annotated.moves[0].comments[0].contains("best B5-B7"), "{:?}", annotated.moves[0].comments);
        assert!(summary(&record, &evals).starts_with("red: 1 moves, 0 inaccuracies (?!), 0 mistakes (?), 1 blunders"));
    }
}
