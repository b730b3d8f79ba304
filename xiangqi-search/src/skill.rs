//! Playing below full strength, and varying the opening at full strength: the engine's levels (`Skill Level`,
//! `UCI_LimitStrength`, `UCI_Elo`) and `Variety`.
//!
//! A level from 1 to 9 does two things to a search (level 10 is the engine, untouched):
//!
//! - it caps the search at a number of nodes ([`Level::nodes`]), so that a level is as strong on a busy machine as
//!   on an idle one, and plays at once whatever the clock allows;
//! - it searches several root lines ([`Level::lines`], as `MultiPV` does) and then chooses among them at random,
//!   a line `d` centipawns worse than the best being chosen with weight `exp(-d / T)`, where the temperature `T`
//!   ([`Level::temperature`]) falls as the level rises. A weak level often plays a move a little worse than the
//!   best and now and then a plain mistake; a strong one nearly always plays one of the best two.
//!
//! This is the idea of Stockfish's skill level (search several lines, then let chance pick among those near the
//! best, more freely the weaker the level), with a weighting of its own: Stockfish adds a random push to each
//! line's score and keeps the highest; here each line has a probability that falls off exponentially with its loss.
//!
//! At full strength `Variety` (a number of plies, 0 by default) does the same in the game's first plies only,
//! among lines at most [`VARIETY_MARGIN`] centipawns worse than the best, so that the same opening does not give
//! the same game every time; with `Variety` 0 the engine is exactly the engine (same move, same nodes).
//!
//! The choice is reproducible: it depends only on the game's seed and the position's key. The seed is `Seed`
//! when that option is set (mixed with the count of new games since it was set), so that a match measured with
//! a fixed seed plays the same games again; `Seed` 0 (the default) draws a new seed for every new game.
//!
//! Each level's strength was measured in games; [`LEVEL_ELO`] holds the result (book: `levels.md`, records under
//! `docs/levels/`).
//!
//! ```
//! use xiangqi_search::skill::{level, Skill, LEVELS};
//! assert_eq!(LEVELS.len(), 9);
//! assert!(level(1).unwrap().nodes < level(9).unwrap().nodes);
//! // Full strength without variety changes nothing.
//! assert!(!Skill::default().limits_search(0));
//! assert!(Skill { level: 5, ..Skill::default() }.limits_search(0));
//! ```

use crate::game::Score;
use crate::stats::{Line, SearchResult};
use xiangqi_core::Position;

/// One level below full strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// The level, 1 (weakest) to 9.
    pub level: u8,
    /// The most nodes a search at this level visits (the search stops at the cap or at its own limits,
    /// whichever comes first).
    pub nodes: u64,
    /// The root lines searched and chosen among.
    pub lines: usize,
    /// The temperature of the choice, in centipawns: a line `d` centipawns worse than the best is chosen with
    /// weight `exp(-d / temperature)`.
    pub temperature: i32,
}

/// The levels 1 to 9, weakest first (level 10 is the engine at full strength).
pub const LEVELS: [Level; 9] = [
    Level { level: 1, nodes: 50, lines: 8, temperature: 400 },
    Level { level: 2, nodes: 100, lines: 8, temperature: 260 },
    Level { level: 3, nodes: 200, lines: 7, temperature: 170 },
    Level { level: 4, nodes: 400, lines: 6, temperature: 110 },
    Level { level: 5, nodes: 800, lines: 5, temperature: 70 },
    Level { level: 6, nodes: 1_500, lines: 4, temperature: 45 },
    Level { level: 7, nodes: 3_000, lines: 4, temperature: 28 },
    Level { level: 8, nodes: 6_000, lines: 4, temperature: 16 },
    Level { level: 9, nodes: 12_000, lines: 4, temperature: 8 },
];

/// The full-strength level.
pub const FULL_STRENGTH: u8 = 10;

/// Each level's Elo relative to level 10 (index 0 is level 1, index 9 level 10, which is 0 by definition), as
/// measured in games at a fixed node count (see `docs/levels/README.md` for the command, commit, date and machine:
/// level 10 there searches [`LADDER_FULL_NODES`] nodes a move, and the Elo of a level is the sum of the
/// differences measured between neighbours up to level 10).
pub const LEVEL_ELO: [i32; 10] = [-2276, -2127, -2023, -1669, -1454, -1104, -816, -572, -334, 0];

/// The node count per move at which level 10 played in the measurement of [`LEVEL_ELO`].
pub const LADDER_FULL_NODES: u64 = 24_000;

/// The Elo that `UCI_Elo` gives level 10: a nominal anchor for the relative figures of [`LEVEL_ELO`] (they were
/// measured between the levels, not against rated players).
pub const NOMINAL_FULL_ELO: i32 = 2400;

/// The lowest `UCI_Elo` (level 1's).
pub const MIN_ELO: i32 = NOMINAL_FULL_ELO + LEVEL_ELO[0];

/// The highest `UCI_Elo` with `UCI_LimitStrength` (level 9's).
pub const MAX_ELO: i32 = NOMINAL_FULL_ELO + LEVEL_ELO[8];

/// How much worse than the best a line may be, in centipawns, to be chosen under `Variety`.
pub const VARIETY_MARGIN: Score = 25;

/// The temperature of `Variety`'s choice, in centipawns.
pub const VARIETY_TEMPERATURE: i32 = 10;

/// The lines `Variety` searches in the plies it applies to.
pub const VARIETY_LINES: usize = 4;

/// Level `n` (1 to 9), or `None` (10 is full strength; other numbers are no level).
pub fn level(n: u8) -> Option<Level> {
    LEVELS.iter().copied().find(|l| l.level == n)
}

/// The level `UCI_Elo` asks for: the strongest whose nominal Elo ([`NOMINAL_FULL_ELO`] + [`LEVEL_ELO`]) is not
/// above `elo` (level 1 below them all), never 10: `UCI_LimitStrength` always limits.
///
/// ```
/// use xiangqi_search::skill::{level_for_elo, MAX_ELO, MIN_ELO};
/// assert_eq!(level_for_elo(MIN_ELO), 1);
/// assert_eq!(level_for_elo(0), 1);
/// assert_eq!(level_for_elo(MAX_ELO), 9);
/// assert_eq!(level_for_elo(i32::MAX), 9);
/// ```
pub fn level_for_elo(elo: i32) -> u8 {
    (1..=9u8).rev().find(|&n| NOMINAL_FULL_ELO + LEVEL_ELO[usize::from(n) - 1] <= elo).unwrap_or(1)
}

/// The strength settings of an engine: level, `Variety` and the seed of its choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skill {
    /// 1 to 10 (10 = full strength): `Skill Level`, or the level of `UCI_Elo` under `UCI_LimitStrength`.
    pub level: u8,
    /// The plies from the game's start in which full strength varies its choice (0: never).
    pub variety: u32,
    /// The seed of this game's choices.
    pub game_seed: u64,
}

impl Default for Skill {
    /// Full strength, no variety.
    fn default() -> Skill {
        Skill { level: FULL_STRENGTH, variety: 0, game_seed: 0 }
    }
}

/// How a search is to be changed and its move chosen, for one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The node cap (`None`: the search's own limits).
    pub nodes: Option<u64>,
    /// The root lines to search at least.
    pub lines: usize,
    /// The temperature of the choice, in centipawns.
    pub temperature: i32,
    /// The most a chosen line may lose against the best (`None`: any line searched).
    pub margin: Option<Score>,
}

impl Skill {
    /// Whether a position `game_ply` plies into the game is searched and chosen differently from full strength.
    pub fn limits_search(&self, game_ply: usize) -> bool {
        self.level < FULL_STRENGTH || (game_ply as u64) < u64::from(self.variety)
    }

    /// How to search and choose `game_ply` plies into the game, `None` when the engine plays as itself.
    pub fn choice(&self, game_ply: usize) -> Option<Choice> {
        if let Some(l) = level(self.level) {
            Some(Choice { nodes: Some(l.nodes), lines: l.lines, temperature: l.temperature, margin: None })
        } else if self.limits_search(game_ply) {
            let margin = Some(VARIETY_MARGIN);
            Some(Choice { nodes: None, lines: VARIETY_LINES, temperature: VARIETY_TEMPERATURE, margin })
        } else {
            None
        }
    }
}

/// The seed of a game's choices: from `seed` (the `Seed` option) and the number of new games since it was set; a
/// seed of 0 draws a fresh one.
pub fn game_seed(seed: u64, games: u64) -> u64 {
    if seed == 0 {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(games);
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        h.write_u128(now);
        h.finish()
    } else {
        splitmix64(seed ^ splitmix64(games))
    }
}

/// One step of SplitMix64: a well-mixed 64-bit number from `x`.
const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The gap between two scores that counts, in centipawns: a mate is worth no more than this.
const MAX_GAP: i64 = 2_000;

/// The index of the line chosen among `lines` (best first) with `choice`, by the random number `seed`: line `i`
/// has weight `exp(-(best - score_i) / temperature)`, lines beyond the choice's margin none. `None` when there
/// is no line.
///
/// ```
/// use xiangqi_search::skill::{choose_line, Choice};
/// use xiangqi_search::Line;
/// let lines: Vec<Line<u8>> = [50, 45, -400].iter().map(|&score| Line { score, pv: vec![0] }).collect();
/// let choice = Choice { nodes: None, lines: 3, temperature: 20, margin: None };
/// let picks: Vec<usize> = (0..200).map(|s| choose_line(&lines, &choice, s).unwrap()).collect();
/// assert!(picks.contains(&0) && picks.contains(&1) && !picks.contains(&2));
/// let narrow = Choice { margin: Some(2), ..choice };
/// assert!((0..200).all(|s| choose_line(&lines, &narrow, s) == Some(0)));
/// ```
pub fn choose_line<M>(lines: &[Line<M>], choice: &Choice, seed: u64) -> Option<usize> {
    let best = i64::from(lines.first()?.score);
    let weights: Vec<f64> = lines
        .iter()
        .map(|l| {
            let gap = (best - i64::from(l.score)).clamp(0, MAX_GAP);
            let allowed = !l.pv.is_empty() && choice.margin.map_or(true, |m| gap <= i64::from(m));
            if allowed {
                (-(gap as f64) / f64::from(choice.temperature.max(1))).exp()
            } else {
                0.0
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return Some(0);
    }
    // 53 random bits as a number in [0, 1).
    let mut x = (splitmix64(seed) >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return Some(i);
        }
        x -= w;
    }
    weights.iter().rposition(|&w| w > 0.0)
}

/// `result` with the move chosen by `choice` for the position of key `key` in the game of seed `game_seed`: the
/// chosen line becomes the best move, its score and its principal variation (the lines stay as searched).
pub fn apply<M: Copy>(mut result: SearchResult<M>, choice: &Choice, game_seed: u64, key: u64) -> SearchResult<M> {
    if let Some(i) = choose_line(&result.lines, choice, splitmix64(game_seed ^ key)) {
        let line = &result.lines[i];
        if let Some(&m) = line.pv.first() {
            result.best_move = Some(m);
            result.score = line.score;
            result.pv = line.pv.clone();
        }
    }
    result
}

/// What the engine needs to know of a game for `Variety`: how many plies into the game a position is.
pub trait GamePly {
    /// The plies played since the game's start (counted from the move number of the setup).
    fn game_ply(&self) -> usize;
}

impl GamePly for Position {
    /// From the FEN's move number and the side to move: 0 at the start position.
    fn game_ply(&self) -> usize {
        let black = usize::from(self.turn() == xiangqi_core::Color::Black);
        (self.fullmoves().max(1) as usize - 1) * 2 + black
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger_and_elo_rises() {
        for w in LEVELS.windows(2) {
            assert_eq!(w[1].level, w[0].level + 1);
            assert!(w[0].nodes < w[1].nodes && w[0].temperature > w[1].temperature && w[0].lines >= w[1].lines);
        }
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]), "{LEVEL_ELO:?}");
        assert_eq!(LEVEL_ELO[9], 0);
        for n in 1..=9 {
            assert_eq!(level_for_elo(NOMINAL_FULL_ELO + LEVEL_ELO[n - 1]), n as u8);
        }
        assert_eq!(level(10), None);
        assert_eq!(level(0), None);
    }

    #[test]
    fn the_game_ply_counts_from_the_start() {
        let mut pos = Position::startpos();
        assert_eq!(pos.game_ply(), 0);
        pos.make_move(pos.parse_move("h2e2").unwrap());
        assert_eq!(pos.game_ply(), 1);
        pos.make_move(pos.parse_move("h9g7").unwrap());
        assert_eq!(pos.game_ply(), 2);
        let black =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 7").unwrap();
        assert_eq!(black.game_ply(), 13);
    }

    #[test]
    fn fixed_seeds_repeat_and_differ() {
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
        assert_ne!(game_seed(7, 3), game_seed(7, 4));
        assert_ne!(game_seed(7, 3), game_seed(8, 3));
    }
}
