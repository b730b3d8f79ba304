//! [`TaperedScore`]: a middlegame and an endgame value, tapered by the game phase at the end of an evaluation.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A pair of values, one for the middlegame and one for the endgame, as in Stockfish's `S(mg, eg)`.
///
/// Every weight of the evaluation is a `TaperedScore`; the evaluation sums them and blends the sum once with the game phase
/// ([`TaperedScore::taper`]).
///
/// ```
/// use xiangqi_eval::TaperedScore;
/// let s = TaperedScore::new(100, 40) + TaperedScore::new(20, 20) * 2;
/// assert_eq!(s, TaperedScore::new(140, 80));
/// assert_eq!(s.taper(1, 2), 110); // halfway between middlegame and endgame
/// assert_eq!((-s).taper(1, 2), -110); // symmetric: rounding is toward zero
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TaperedScore {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

impl TaperedScore {
    /// Zero in both phases.
    pub const ZERO: TaperedScore = TaperedScore { mg: 0, eg: 0 };

    /// The score `mg` in the middlegame and `eg` in the endgame.
    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> TaperedScore {
        TaperedScore { mg, eg }
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
    pub const fn scale(self, num: i32, den: i32) -> TaperedScore {
        TaperedScore { mg: self.mg * num / den, eg: self.eg * num / den }
    }
}

impl Add for TaperedScore {
    type Output = TaperedScore;
    #[inline(always)]
    fn add(self, rhs: TaperedScore) -> TaperedScore {
        TaperedScore { mg: self.mg + rhs.mg, eg: self.eg + rhs.eg }
    }
}

impl Sub for TaperedScore {
    type Output = TaperedScore;
    #[inline(always)]
    fn sub(self, rhs: TaperedScore) -> TaperedScore {
        TaperedScore { mg: self.mg - rhs.mg, eg: self.eg - rhs.eg }
    }
}

impl Neg for TaperedScore {
    type Output = TaperedScore;
    #[inline(always)]
    fn neg(self) -> TaperedScore {
        TaperedScore { mg: -self.mg, eg: -self.eg }
    }
}

impl AddAssign for TaperedScore {
    #[inline(always)]
    fn add_assign(&mut self, rhs: TaperedScore) {
        *self = *self + rhs;
    }
}

impl SubAssign for TaperedScore {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: TaperedScore) {
        *self = *self - rhs;
    }
}

impl Mul<i32> for TaperedScore {
    type Output = TaperedScore;
    #[inline(always)]
    fn mul(self, n: i32) -> TaperedScore {
        TaperedScore { mg: self.mg * n, eg: self.eg * n }
    }
}

impl std::iter::Sum for TaperedScore {
    fn sum<I: Iterator<Item = TaperedScore>>(iter: I) -> TaperedScore {
        iter.fold(TaperedScore::ZERO, |a, b| a + b)
    }
}

/// A [`TaperedScore`] packed in one `i64`, as Stockfish packs its pair in one `int`: the endgame part times 2^32 plus the
/// middlegame part. Sums and products of packed scores are the packed sums and products, so the evaluation adds one
/// register instead of two and unpacks once at the end.
///
/// Exact as long as no middlegame part overflows `i32` along the way (where [`TaperedScore`] arithmetic would panic in a
/// debug build): the low 32 bits of the `i64` are then the middlegame part, and the rest, less the low part's
/// sign, the endgame part. An overflowing middlegame part would carry into the endgame part.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Packed(i64);

impl Packed {
    /// Zero in both phases.
    pub(crate) const ZERO: Packed = Packed(0);

    /// `s` packed.
    #[inline(always)]
    pub(crate) const fn new(s: TaperedScore) -> Packed {
        Packed(((s.eg as i64) << 32).wrapping_add(s.mg as i64))
    }

    /// The two parts again.
    #[inline(always)]
    pub(crate) const fn unpack(self) -> TaperedScore {
        let mg = self.0 as i32;
        TaperedScore { mg, eg: (self.0.wrapping_sub(mg as i64) >> 32) as i32 }
    }
}

impl From<TaperedScore> for Packed {
    #[inline(always)]
    fn from(s: TaperedScore) -> Packed {
        Packed::new(s)
    }
}

impl Add for Packed {
    type Output = Packed;
    #[inline(always)]
    fn add(self, rhs: Packed) -> Packed {
        Packed(self.0.wrapping_add(rhs.0))
    }
}

impl Sub for Packed {
    type Output = Packed;
    #[inline(always)]
    fn sub(self, rhs: Packed) -> Packed {
        Packed(self.0.wrapping_sub(rhs.0))
    }
}

impl AddAssign for Packed {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Packed) {
        *self = *self + rhs;
    }
}

impl SubAssign for Packed {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Packed) {
        *self = *self - rhs;
    }
}

impl Mul<i32> for Packed {
    type Output = Packed;
    #[inline(always)]
    fn mul(self, n: i32) -> Packed {
        Packed(self.0.wrapping_mul(n as i64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_arithmetic_is_score_arithmetic() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Any value packs and unpacks.
        let edges = [0, 1, -1, 1000, -1000, i32::MAX, i32::MIN, i32::MAX - 5, i32::MIN + 5];
        for &mg in &edges {
            for &eg in &edges {
                assert_eq!(Packed::new(TaperedScore::new(mg, eg)).unpack(), TaperedScore::new(mg, eg));
            }
        }
        // Arithmetic whose middlegame parts stay within i32: the endgame parts may wrap.
        let mut values: Vec<i32> = vec![0, 1, -1, 1 << 20, -(1 << 20)];
        values.extend((0..300).map(|_| (next() as i32) >> (11 + next() % 20)));
        for &mg in &values {
            for &eg in values.iter().step_by(5) {
                let a = TaperedScore::new(mg, eg.wrapping_mul(1 << (next() % 12)));
                let b = TaperedScore::new(eg, mg ^ 0x5A5A);
                let n = (next() as i32) >> (22 + next() % 10);
                let (pa, pb) = (Packed::new(a), Packed::new(b));
                assert_eq!(pa.unpack(), a);
                assert_eq!((pa + pb).unpack(), TaperedScore::new(a.mg + b.mg, a.eg.wrapping_add(b.eg)));
                assert_eq!((pa - pb).unpack(), TaperedScore::new(a.mg - b.mg, a.eg.wrapping_sub(b.eg)));
                assert_eq!((pa * n).unpack(), TaperedScore::new(a.mg * n, a.eg.wrapping_mul(n)));
                let mut acc = Packed::ZERO;
                acc += pa;
                acc -= pb;
                acc += pa * n;
                let expected = TaperedScore::new(
                    a.mg - b.mg + a.mg * n,
                    a.eg.wrapping_sub(b.eg).wrapping_add(a.eg.wrapping_mul(n)),
                );
                assert_eq!(acc.unpack(), expected);
            }
        }
    }
}
