//! Aspiration windows.

use crate::config::VariantConfig;
use crate::game::{Score, INFINITY, MATE_BOUND};
use crate::registry::{Counter, Forms, Group, Param, Params, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "aspiration",
    aliases: &[],
    summary: "aspiration windows",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: None,
    in_engine: true,
    counters: &[FAILS],
    params: &[Aspiration::WINDOW, Aspiration::MIN_DEPTH, Aspiration::GIVE_UP],
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
    pub const WINDOW: Param =
        Param::new(ID, 0, "AspWindow", 40, 1..=500, 4.0, "Aspiration: the first window's half-width.");
    /// The first iteration searched in a window.
    pub const MIN_DEPTH: Param =
        Param::new(ID, 1, "AspMinDepth", 4, 1..=32, 0.5, "Aspiration: the first depth in a window.");
    /// The width past which the window opens fully.
    pub const GIVE_UP: Param =
        Param::new(ID, 2, "AspGiveUp", 1000, 50..=10000, 50.0, "Aspiration: the width past which the window opens.");

    /// The first window of the iteration at `depth` after one that scored `previous`, `None` for the full window
    /// (the technique off, too shallow, no previous score or a mate score); its half-width is the returned
    /// `delta`.
    #[inline]
    pub fn window(
        config: &VariantConfig,
        p: &Params,
        depth: i32,
        previous: Option<Score>,
    ) -> Option<(Score, Score, Score)> {
        if !config.has(ID) || depth < p.get(Self::MIN_DEPTH) {
            return None;
        }
        let prev = previous.filter(|p| p.abs() < MATE_BOUND)?;
        let w = p.get(Self::WINDOW);
        Some(((prev - w).max(-INFINITY), (prev + w).min(INFINITY), w))
    }

    /// After a search of `[alpha, beta]` that returned `score`: `false` when the score is inside the window (the
    /// iteration is done), else `true` with the window widened on the side that failed and `delta` (the width)
    /// doubled; past `p`'s [`Aspiration::GIVE_UP`] the window opens fully.
    #[inline]
    pub fn widen(p: &Params, score: Score, alpha: &mut Score, beta: &mut Score, delta: &mut Score) -> bool {
        if score <= *alpha && *alpha > -INFINITY {
            *alpha = (score - *delta).max(-INFINITY);
        } else if score >= *beta && *beta < INFINITY {
            *beta = (score + *delta).min(INFINITY);
        } else {
            return false;
        }
        *delta *= 2;
        if *delta > p.get(Self::GIVE_UP) {
            *alpha = -INFINITY;
            *beta = INFINITY;
        }
        true
    }
}
