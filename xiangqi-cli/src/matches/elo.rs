//! Elo arithmetic and the sequential probability ratio test (SPRT) of a match.
//!
//! # Elo
//!
//! The score `s` (a win 1, a draw ½) is turned into a logistic Elo difference `-400 log10(1/s - 1)`; a score of
//! 0.75 is +190.8 Elo. Its 95% error bar comes from the variance of the score: the results are taken as samples
//! (games for [`Trinomial`], colour-reversed game pairs for [`Pentanomial`]), the score's standard error is
//! `sqrt(var / n)`, and the error is half the Elo width of `s ± 1.96·se`, as cutechess and fastchess print it.
//!
//! # SPRT and the LLR formula
//!
//! [`Sprt`] tests H0: `elo = elo0` against H1: `elo = elo1`, with the bounds in **logistic** Elo (fastchess's
//! default model; fishtest's `LLR_logistic`): `s0 = L(elo0)`, `s1 = L(elo1)` with `L(e) = 1 / (1 + 10^(-e/400))`.
//! The log-likelihood ratio is the generalized SPRT in its normal approximation (fastchess's `getLLR`, the
//! approximation fishtest's exact GSPRT converges to):
//!
//! ```text
//! LLR = n · (s1 - s0) · (2·m - s0 - s1) / (2·v)
//! ```
//!
//! where `n` samples take the values `x_i` (a game: 0, ½, 1; a pair, in [`Pentanomial`]: 0, ¼, ½, ¾, 1),
//! `m` is their mean and `v` their variance (`Σ (x_i - m)² / n`). With `v = 0` (too few results to tell) the LLR is
//! 0. The match stops when `LLR <= ln(β / (1 - α))` (H0 accepted) or `LLR >= ln((1 - β) / α)` (H1 accepted): ±2.94 for
//! α = β = 0.05. A two-engine match uses the pentanomial form, which counts each opening's pair of games together
//! and so does not overstate the evidence when openings are unbalanced.

use std::fmt;

/// The z-value of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference of a score in (0, 1): `-400 log10(1/s - 1)` (±infinity at 0 and 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of an Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and variance (divided by `n`) of samples with values `values` seen `counts` times; `None` with no sample.
fn moments(values: &[f64], counts: &[u64]) -> Option<(f64, f64, f64)> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = values.iter().zip(counts).map(|(x, &c)| x * c as f64).sum::<f64>() / n;
    let var = values.iter().zip(counts).map(|(x, &c)| c as f64 * (x - mean).powi(2)).sum::<f64>() / n;
    Some((n, mean, var))
}

/// Elo of the mean and the half-width of its 95% interval in Elo.
fn elo_and_error(values: &[f64], counts: &[u64]) -> (f64, f64) {
    match moments(values, counts) {
        None => (0.0, f64::INFINITY),
        Some((n, mean, var)) => {
            let se = (var / n).sqrt();
            let lo = elo_from_score((mean - Z95 * se).max(0.0));
            let hi = elo_from_score((mean + Z95 * se).min(1.0));
            (elo_from_score(mean), (hi - lo) / 2.0)
        }
    }
}

/// The normal-approximation GSPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`), logistic Elo.
fn llr(values: &[f64], counts: &[u64], elo0: f64, elo1: f64) -> f64 {
    match moments(values, counts) {
        Some((n, mean, var)) if var > 0.0 => {
            let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
            n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
        }
        _ => 0.0,
    }
}

/// Wins, draws and losses of one side, game by game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Trinomial {
    const VALUES: [f64; 3] = [0.0, 0.5, 1.0];

    fn counts(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The score per game (0.5 with no game).
    pub fn score(&self) -> f64 {
        moments(&Self::VALUES, &self.counts()).map_or(0.5, |(_, m, _)| m)
    }

    /// The Elo difference and its 95% error, game by game.
    pub fn elo(&self) -> (f64, f64) {
        elo_and_error(&Self::VALUES, &self.counts())
    }

    /// The LLR of `elo1` against `elo0`, game by game.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        llr(&Self::VALUES, &self.counts(), elo0, elo1)
    }
}

/// Results of colour-reversed game pairs, counted by the pair's score: `counts[k]` pairs scored `k/2` points of 2
/// (LL, LD, LW or DD, DW, WW).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by score 0, ½, 1, 1½, 2.
    pub counts: [u64; 5],
}

impl Pentanomial {
    const VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    /// Counts one pair from the two game scores (each 0, 0.5 or 1).
    pub fn add(&mut self, first: f64, second: f64) {
        let k = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[k] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The Elo difference and its 95% error, pair by pair.
    pub fn elo(&self) -> (f64, f64) {
        elo_and_error(&Self::VALUES, &self.counts)
    }

    /// The LLR of `elo1` against `elo0`, pair by pair.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        llr(&Self::VALUES, &self.counts, elo0, elo1)
    }
}

/// What an SPRT says after the results so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtState {
    /// Neither bound crossed.
    Continue,
    /// The lower bound was crossed: H0 (`elo0`) accepted.
    AcceptH0,
    /// The upper bound was crossed: H1 (`elo1`) accepted.
    AcceptH1,
}

impl fmt::Display for SprtState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtState::Continue => "continue",
            SprtState::AcceptH0 => "H0",
            SprtState::AcceptH1 => "H1",
        })
    }
}

/// A sequential probability ratio test: `elo0=0 elo1=5 alpha=0.05 beta=0.05` (logistic Elo).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False negative rate (accepting H0 when H1 holds).
    pub beta: f64,
}

impl Sprt {
    /// Parses `key=value` words: `elo0`, `elo1` (required), `alpha`, `beta` (0.05 by default).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for w in words.iter().flat_map(|w| w.split_whitespace()) {
            let (k, v) = w.split_once('=').ok_or_else(|| format!("--sprt: expected key=value, found {w:?}"))?;
            let x: f64 = v.parse().map_err(|_| format!("--sprt {k}: {v:?} is not a number"))?;
            if !x.is_finite() {
                return Err(format!("--sprt {k}: {v:?} is not finite"));
            }
            match k {
                "elo0" => elo0 = Some(x),
                "elo1" => elo1 = Some(x),
                "alpha" => alpha = x,
                "beta" => beta = x,
                _ => return Err(format!("--sprt: unknown key {k:?} (elo0, elo1, alpha, beta)")),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err("--sprt needs elo0=... and elo1=...".to_owned());
        };
        if elo1 <= elo0 {
            return Err(format!("--sprt: elo1 ({elo1}) must be above elo0 ({elo0})"));
        }
        if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
            return Err("--sprt: alpha and beta must be between 0 and 0.5".to_owned());
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// The lower and upper LLR bounds: `ln(β/(1-α))` and `ln((1-β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The decision for a log-likelihood ratio.
    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.25), -190.848_501_887_865, 1e-9));
        assert!(close(score_from_elo(190.848_501_887_865), 0.75, 1e-12));
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn trinomial_elo_and_error() {
        // 60 wins, 80 draws, 40 losses: score 100/180; variance of the game score 0.191358...; values computed by
        // hand from cutechess's formula.
        let t = Trinomial { wins: 60, draws: 80, losses: 40 };
        assert_eq!(t.games(), 180);
        assert!(close(t.score(), 100.0 / 180.0, 1e-12));
        let (elo, err) = t.elo();
        assert!(close(elo, 38.764_005_203, 1e-6), "{elo}");
        assert!(close(err, 38.032_895_551, 1e-6), "{err}");
        let (elo, err) = Trinomial::default().elo();
        assert_eq!((elo, err), (0.0, f64::INFINITY));
    }

    #[test]
    fn llr_matches_the_normal_approximation() {
        // n (s1 - s0)(2m - s0 - s1) / (2 v) with s0 = 0.5, s1 = L(5) = 0.507195...
        let t = Trinomial { wins: 60, draws: 80, losses: 40 };
        assert!(close(t.llr(0.0, 5.0), 0.495_510_791_86, 1e-8), "{}", t.llr(0.0, 5.0));
        let t = Trinomial { wins: 40, draws: 80, losses: 60 };
        assert!(close(t.llr(0.0, 5.0), -0.564_128_514_38, 1e-8));
        // Only draws: no variance, no evidence.
        assert_eq!(Trinomial { wins: 0, draws: 10, losses: 0 }.llr(0.0, 5.0), 0.0);
        let p = Pentanomial { counts: [5, 20, 40, 25, 10] };
        assert!(close(p.llr(0.0, 5.0), 0.379_843_836_40, 1e-8), "{}", p.llr(0.0, 5.0));
        let (elo, err) = p.elo();
        assert!(close(elo, 26.106_692_605, 1e-6) && close(err, 34.826_425_304, 1e-6), "{elo} {err}");
    }

    #[test]
    fn pentanomial_counts_pairs() {
        let mut p = Pentanomial::default();
        p.add(1.0, 1.0);
        p.add(0.5, 1.0);
        p.add(0.0, 1.0);
        p.add(0.5, 0.5);
        p.add(0.0, 0.0);
        assert_eq!(p.counts, [1, 0, 2, 1, 1]);
        assert_eq!(p.pairs(), 5);
    }

    #[test]
    fn sprt_bounds_and_parsing() {
        let words: Vec<String> = ["elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"].map(String::from).to_vec();
        let s = Sprt::parse(&words).unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_438_979, 1e-8) && close(hi, 2.944_438_979, 1e-8));
        assert_eq!(s.state(3.0), SprtState::AcceptH1);
        assert_eq!(s.state(-3.0), SprtState::AcceptH0);
        assert_eq!(s.state(0.1), SprtState::Continue);
        // One quoted word works too, and alpha/beta default to 0.05.
        assert_eq!(Sprt::parse(&["elo0=0 elo1=5".to_owned()]).unwrap(), s);
        for bad in ["elo0=0", "elo0=5 elo1=0", "elo0=0 elo1=5 gamma=1", "elo0=x elo1=5", "elo0=0 elo1=5 alpha=0.7"] {
            assert!(Sprt::parse(&[bad.to_owned()]).is_err(), "{bad}");
        }
    }
}
