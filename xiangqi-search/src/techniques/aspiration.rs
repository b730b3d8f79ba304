//! Aspiration windows.

use crate::config::VariantConfig;
use crate::game::{Score, INFINITY, MATE_BOUND};
use crate::registry::{Counter, Group, Reach, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "aspiration",
    aliases: &[],
    summary: "aspiration windows",
    group: Group::Addition,
    reach: Reach::Negamax,
    needs: None,
    in_engine: true,
    counters: &[FAILS],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(11);

/// Aspiration windows that failed and were widened.
pub const FAILS: Counter = Counter::new(ID, 0, "aspiration_fails", "aspiration windows that failed and were widened");

/// Each iteration from [`Aspiration::MIN_DEPTH`] on starts in the window `previous ± WINDOW`; a score that falls
/// outside it widens that side by the current width, which doubles each time, until the width passes
/// [`Aspiration::GIVE_UP`] and the window opens fully. Hook: the root, once per iteration (`searcher.rs`, with the
/// negamax node only). Source: Stockfish.
#[derive(Debug, Clone, Copy, Default)]
pub struct Aspiration;

impl Aspiration {
    /// The first window's half-width.
    pub const WINDOW: Score = 40;
    /// The first iteration searched in a window.
    pub const MIN_DEPTH: i32 = 4;
    /// The width past which the window opens fully.
    pub const GIVE_UP: Score = 1000;

    /// The first window of the iteration at `depth` after one that scored `previous`, `None` for the full window
    /// (the technique off, too shallow, no previous score or a mate score).
    #[inline]
    pub fn window(config: &VariantConfig, depth: i32, previous: Option<Score>) -> Option<(Score, Score)> {
        if !config.has(ID) || depth < Self::MIN_DEPTH {
            return None;
        }
        let prev = previous.filter(|p| p.abs() < MATE_BOUND)?;
        Some(((prev - Self::WINDOW).max(-INFINITY), (prev + Self::WINDOW).min(INFINITY)))
    }

    /// After a search of `[alpha, beta]` that returned `score`: `false` when the score is inside the window (the
    /// iteration is done), else `true` with the window widened on the side that failed and `delta` (the width)
    /// doubled.
    #[inline]
    pub fn widen(score: Score, alpha: &mut Score, beta: &mut Score, delta: &mut Score) -> bool {
        if score <= *alpha && *alpha > -INFINITY {
            *alpha = (score - *delta).max(-INFINITY);
        } else if score >= *beta && *beta < INFINITY {
            *beta = (score + *delta).min(INFINITY);
        } else {
            return false;
        }
        *delta *= 2;
        if *delta > Self::GIVE_UP {
            *alpha = -INFINITY;
            *beta = INFINITY;
        }
        true
    }
}
