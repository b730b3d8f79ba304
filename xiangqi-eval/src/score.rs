//! [`Score`]: a middlegame and an endgame value, tapered by the game phase at the end of an evaluation.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A pair of values, one for the middlegame and one for the endgame, as in Stockfish's `S(mg, eg)`.
///
/// Every weight of the evaluation is a `Score`; the evaluation sums them and blends the sum once with the game phase
/// ([`Score::taper`]).
///
/// ```
/// use xiangqi_eval::Score;
/// let s = Score::new(100, 40) + Score::new(20, 20) * 2;
/// assert_eq!(s, Score::new(140, 80));
/// assert_eq!(s.taper(1, 2), 110); // halfway between middlegame and endgame
/// assert_eq!((-s).taper(1, 2), -110); // symmetric: rounding is toward zero
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

impl Score {
    /// Zero in both phases.
    pub const ZERO: Score = Score { mg: 0, eg: 0 };

    /// The score `mg` in the middlegame and `eg` in the endgame.
    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> Score {
        Score { mg, eg }
    }

    /// The blend `(mg * phase + eg * (max - phase)) / max`: `phase == max` is the full middlegame, `phase == 0` the
    /// bare endgame. Division rounds toward zero, so `(-s).taper(p, m) == -s.taper(p, m)`: colour symmetry survives
    /// the rounding. `max` must be positive.
    #[inline(always)]
    pub const fn taper(self, phase: i32, max: i32) -> i32 {
        (self.mg * phase + self.eg * (max - phase)) / max
    }

    /// Both parts multiplied by `num / den`, each rounded toward zero (so scaling commutes with negation). `den` must
    /// be positive.
    #[inline(always)]
    pub const fn scale(self, num: i32, den: i32) -> Score {
        Score { mg: self.mg * num / den, eg: self.eg * num / den }
    }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, rhs: Score) -> Score {
        Score { mg: self.mg + rhs.mg, eg: self.eg + rhs.eg }
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, rhs: Score) -> Score {
        Score { mg: self.mg - rhs.mg, eg: self.eg - rhs.eg }
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score { mg: -self.mg, eg: -self.eg }
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Score) {
        *self = *self + rhs;
    }
}

impl SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Score) {
        *self = *self - rhs;
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn mul(self, n: i32) -> Score {
        Score { mg: self.mg * n, eg: self.eg * n }
    }
}

impl std::iter::Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::ZERO, |a, b| a + b)
    }
}
