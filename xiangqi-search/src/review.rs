//! A whole game's review, what `xiangqi analyze` does: the engine searches every position of a line (the start, and
//! after each move), and each move's loss is what the mover's score drops from the engine's best in the position
//! before the move to the engine's evaluation after it (0 when the move played is the engine's choice). Scores are
//! in the evaluator's units and capped at ±[`CAP`], a mate counting as [`CAP`]. The marks, after PGN's custom: `?!`
//! inaccuracy from [`INACCURACY`], `?` mistake from [`MISTAKE`], `??` blunder from [`BLUNDER`].
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
}
