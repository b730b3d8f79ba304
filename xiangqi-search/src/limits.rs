//! When a search stops and what it may do: [`Limits`], the [`Signals`] shared with whoever controls it, and the
//! time a move gets from a [`Clock`].

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The deepest search a caller may ask for, which every front end checks a depth against (UCI's and UCCI's
/// `go depth`, `xiangqi search --depth`, `bench`, the page's and Python's searches). The searcher's stack holds
/// [`crate::MAX_PLY`] plies, and the check and singular extensions and quiescence reach below the nominal depth, so
/// an iteration to 120 leaves them 8 plies; no search of a real position gets near either (a search not limited by
/// depth deepens to `MAX_PLY - 1` only where the rules decide every line within a few plies).
pub const MAX_DEPTH: u32 = 120;

/// Signals shared between a search and whoever controls it (the UCI loop, other threads).
#[derive(Debug, Default)]
pub struct Signals {
    /// Raised to stop the search as soon as possible.
    pub stop: AtomicBool,
    /// While raised, time limits are ignored (pondering); lowering it is `ponderhit`.
    pub ponder: AtomicBool,
    /// Nodes searched by all threads, updated every few thousand nodes.
    pub nodes: AtomicU64,
}

/// When to stop. With only `depth` set (and no signals) the search is one fixed-depth pass (reproducible,
/// comparable with theory); otherwise it deepens iteratively and returns the last completed iteration.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Depth in plies (the maximum depth when deepening).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (main search plus quiescence, all threads).
    pub nodes: Option<u64>,
    /// Stop after this much time, even in the middle of an iteration.
    pub movetime: Option<Duration>,
    /// Start no new iteration after this much time (time management's optimum).
    pub soft_time: Option<Duration>,
    /// Stop, ponder and node-count signals.
    pub signals: Option<Arc<Signals>>,
    /// Deepen iteratively even with only a depth limit (the engine always does).
    pub iterative: bool,
    /// How many principal variations to search at the root (UCI's `MultiPV`); 0 and 1 both search one. Only
    /// the engine's additions search more than one.
    pub multipv: usize,
    /// Search only these moves at the root, packed by the game ([`crate::GameTree::encode_move`]); `None` searches every
    /// move (UCI's `go searchmoves`, or every move but UCCI's `banmoves`). Codes of no legal move are ignored;
    /// when none is legal the result is that of a position without moves.
    pub root_moves: Option<Vec<u16>>,
    /// Stop deepening once an iteration finds a mate in at most this many moves, for either side (UCI's
    /// `go mate`).
    pub mate: Option<u32>,
    /// When the clock started, for `movetime`, `soft_time` and the reported time: a UCI engine passes the moment
    /// `go` arrived, so that starting threads and building evaluators is paid from the same budget. `None` starts
    /// the clock when the search starts.
    pub start: Option<Instant>,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// A search of `time`, deepening iteratively and stopping in the middle of an iteration when the time is up.
    pub fn movetime(time: Duration) -> Limits {
        Limits { movetime: Some(time), iterative: true, ..Limits::default() }
    }

    /// A search of about `nodes` nodes, deepening iteratively.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), iterative: true, ..Limits::default() }
    }

    /// A search playing on `clock` (time management, [`Clock::allocate`]): no new iteration after the optimum time,
    /// a stop in the middle of one at the maximum, `overhead` kept back for the moves' way to the opponent.
    ///
    /// ```
    /// use std::time::Duration;
    /// use xiangqi_search::{Clock, Limits};
    /// let clock = Clock { time: Duration::from_secs(60), increment: Duration::from_secs(1), moves_to_go: None };
    /// let limits = Limits::clock(&clock, Duration::from_millis(10));
    /// assert!(limits.soft_time.unwrap() < limits.movetime.unwrap());
    /// assert!(limits.movetime.unwrap() < Duration::from_secs(48));
    /// ```
    pub fn clock(clock: &Clock, overhead: Duration) -> Limits {
        let (soft, hard) = clock.allocate(overhead);
        Limits { soft_time: Some(soft), movetime: Some(hard), iterative: true, ..Limits::default() }
    }

    pub(crate) fn iterative(&self) -> bool {
        self.iterative
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self.soft_time.is_some()
            || self.signals.is_some()
            || self.mate.is_some()
            || self.depth.is_none()
    }
}

/// The clock of the side to move: what time management divides.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub time: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves to the next time control (`None`: sudden death, planned as 30 moves).
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// The optimum (soft) and maximum (hard) time of this move. The hard limit never exceeds 80% of the time left
    /// less `overhead`, so a search that stops in time never loses on time; the optimum is an even share of the time
    /// left plus the increments to come (at most 50 moves ahead), and the maximum four times that. Both are at
    /// least a millisecond.
    pub fn allocate(&self, overhead: Duration) -> (Duration, Duration) {
        let time = self.time.as_millis() as u64;
        let inc = self.increment.as_millis() as u64;
        let overhead = overhead.as_millis() as u64;
        let mtg = u64::from(self.moves_to_go.unwrap_or(30)).clamp(1, 50);
        let safe = (time.saturating_sub(overhead) as f64 * 0.8) as u64;
        let available = time.saturating_add(inc.saturating_mul(mtg - 1)).saturating_sub(overhead * (mtg + 1));
        let soft = (available / mtg).min(safe).max(1);
        let hard = soft.saturating_mul(4).min(safe).max(1);
        (Duration::from_millis(soft), Duration::from_millis(hard))
    }
}
