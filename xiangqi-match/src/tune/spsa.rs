//! SPSA as fishtest runs it: the gain sequences from `c_end` and `r_end`, the perturbation of each iteration, and
//! the update of theta from the result of a game pair.
//!
//! For `N` planned iterations and iteration `k` (from 0): `c_k = c / (k + 1)^gamma` and
//! `a_k = a / (A + k + 1)^alpha`, with `alpha = 0.602`, `gamma = 0.101` and `A = N / 10` (fishtest's defaults), and
//! `c`, `a` chosen so that the last iteration has `c_{N-1} = c_end` and `a_{N-1} / c_end^2 = r_end`. Each parameter
//! gets a random sign `delta` (±1, from the run's seed and `k`), the engine "plus" plays with
//! `theta + c_k delta`, "minus" with `theta - c_k delta` (rounded, clamped to the range), and after a pair of games
//! scoring `result` (plus's wins minus its losses) theta moves by `a_k / c_k * result * delta` (fishtest's
//! `R_k c_k result delta` with `R_k = a_k / c_k^2`), clamped to the range. Source: Spall, "Implementation of the
//! simultaneous perturbation algorithm for stochastic optimization" (1998); fishtest's `spsa_handler.py`.

/// The exponent of `a_k`.
pub const ALPHA: f64 = 0.602;
/// The exponent of `c_k`.
pub const GAMMA: f64 = 0.101;
/// fishtest's `A` as a share of the planned iterations.
pub const A_RATIO: f64 = 0.1;

/// One tuned parameter's schedule: its range and the constants `c` and `a` of its gain sequences.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Schedule {
    /// The smallest value.
    pub min: f64,
    /// The largest value.
    pub max: f64,
    /// `c`: `c_k = c / (k + 1)^gamma`.
    pub c: f64,
    /// `a`: `a_k = a / (A + k + 1)^alpha`.
    pub a: f64,
    /// `A`.
    pub big_a: f64,
}

impl Schedule {
    /// The schedule of a parameter ranging over `min..=max` with step `c_end` and learning rate `r_end` at the
    /// last of `iterations`.
    pub fn new(min: f64, max: f64, c_end: f64, r_end: f64, iterations: u64) -> Schedule {
        let n = iterations.max(1) as f64;
        let big_a = A_RATIO * n;
        let c = c_end * n.powf(GAMMA);
        let a_end = r_end * c_end * c_end;
        let a = a_end * (big_a + n).powf(ALPHA);
        Schedule { min, max, c, a, big_a }
    }

    /// `c_k` of iteration `k` (from 0).
    pub fn c_k(&self, k: u64) -> f64 {
        self.c / ((k + 1) as f64).powf(GAMMA)
    }

    /// `a_k` of iteration `k` (from 0).
    pub fn a_k(&self, k: u64) -> f64 {
        self.a / (self.big_a + (k + 1) as f64).powf(ALPHA)
    }

    /// The value an engine plays with: `theta + sign * c_k * delta`, rounded and clamped to the range.
    pub fn engine_value(&self, theta: f64, k: u64, delta: i8, sign: f64) -> i64 {
        (theta + sign * self.c_k(k) * f64::from(delta)).clamp(self.min, self.max).round() as i64
    }

    /// Theta after iteration `k` whose pair scored `result` for the plus engine (wins minus losses).
    pub fn update(&self, theta: f64, k: u64, delta: i8, result: f64) -> f64 {
        (theta + self.a_k(k) / self.c_k(k) * result * f64::from(delta)).clamp(self.min, self.max)
    }
}

/// The signs (±1) of `n` parameters at iteration `k` of the run seeded `seed`: a pure function of the three, so a
/// run resumed from its state file perturbs exactly as an uninterrupted one.
pub fn deltas(seed: u64, k: u64, n: usize) -> Vec<i8> {
    let mut state = seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            if splitmix(state) & 1 == 1 {
                1
            } else {
                -1
            }
        })
        .collect()
}

/// SplitMix64's output function.
fn splitmix(x: u64) -> u64 {
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_iteration_has_c_end_and_r_end() {
        let s = Schedule::new(0.0, 1000.0, 20.0, 0.002, 1000);
        let last = 999;
        assert!((s.c_k(last) - 20.0).abs() < 1e-9, "{}", s.c_k(last));
        assert!((s.a_k(last) / (20.0 * 20.0) - 0.002).abs() < 1e-12, "{}", s.a_k(last));
        // Both sequences shrink as the run goes on, c_k slower than a_k.
        assert!(s.c_k(0) > s.c_k(500) && s.c_k(500) > s.c_k(last));
        assert!(s.a_k(0) > s.a_k(500) && s.a_k(500) > s.a_k(last));
        assert!((s.c_k(0) - 20.0 * 1000f64.powf(GAMMA)).abs() < 1e-9);
        assert!((s.a_k(0) - 0.002 * 400.0 * (1100f64 / 101.0).powf(ALPHA)).abs() < 1e-9);
    }

    #[test]
    fn theta_moves_towards_the_side_that_won() {
        let s = Schedule::new(0.0, 1000.0, 20.0, 0.002, 100);
        let step = s.a_k(0) / s.c_k(0);
        // Plus (theta + c delta) won both games: theta moves along delta.
        assert!((s.update(500.0, 0, 1, 2.0) - (500.0 + 2.0 * step)).abs() < 1e-9);
        assert!((s.update(500.0, 0, -1, 2.0) - (500.0 - 2.0 * step)).abs() < 1e-9);
        // Minus won: against delta; a drawn pair leaves theta.
        assert!(s.update(500.0, 0, 1, -1.0) < 500.0);
        assert_eq!(s.update(500.0, 0, 1, 0.0), 500.0);
        // Clamped to the range.
        assert_eq!(s.update(999.9, 0, 1, 2.0), 1000.0);
        assert_eq!(s.engine_value(999.0, 0, 1, 1.0), 1000);
        assert_eq!(s.engine_value(500.0, 0, 1, -1.0), (500.0 - s.c_k(0)).round() as i64);
    }

    #[test]
    fn deltas_are_signs_reproducible_and_vary() {
        let a = deltas(7, 3, 64);
        assert_eq!(a, deltas(7, 3, 64));
        assert!(a.iter().all(|&d| d == 1 || d == -1));
        assert!(a.contains(&1) && a.contains(&-1));
        assert_ne!(a, deltas(7, 4, 64));
        assert_ne!(a, deltas(8, 3, 64));
    }
}
