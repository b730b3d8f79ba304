//! Aspiration windows.

use crate::game::Score;

/// Each iteration from [`Aspiration::MIN_DEPTH`] on starts in the window `previous ± WINDOW`; a score that falls
/// outside it widens that side by the current width, which doubles each time, until the width passes
/// [`Aspiration::GIVE_UP`] and the window opens fully. Source: Stockfish.
#[derive(Debug, Clone, Copy, Default)]
pub struct Aspiration;

impl Aspiration {
    /// The first window's half-width.
    pub const WINDOW: Score = 40;
    /// The first iteration searched in a window.
    pub const MIN_DEPTH: i32 = 4;
    /// The width past which the window opens fully.
    pub const GIVE_UP: Score = 1000;
}
