//! Seeded random games for the property tests.

use xiangqi_core::{Move, Position};

/// xorshift64*: a tiny, seeded, reproducible generator.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// How many games and how long each may run: together they give more than 10,000 positions.
pub const GAMES: u64 = 90;
pub const MAX_PLIES: usize = 150;

/// Plays a random legal game from the start position with `seed`, calling `visit` before each move with the position
/// and the move about to be played (and once more, with `None`, at the end). Stops when there is no legal move.
///
/// `visit` gets a generator of its own for side lines, so the game itself depends on `seed` alone: every test sees
/// the same games. It must leave the position as it found it.
pub fn play_random_game(seed: u64, mut visit: impl FnMut(&mut Position, Option<Move>, &mut Rng)) {
    let mut rng = Rng::new(seed);
    let mut side = Rng::new(seed ^ 0x5EED_5EED_5EED);
    let mut pos = Position::startpos();
    for _ in 0..MAX_PLIES {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        visit(&mut pos, Some(m), &mut side);
        pos.make_move(m);
    }
    visit(&mut pos, None, &mut side);
}
