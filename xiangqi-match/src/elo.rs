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
//! The log-likelihood ratio is the generalized SPRT's, computed exactly as fastchess's `getLLR_logistic` and
//! fishtest's `LLR_logistic` do (Van den Bergh's multinomial maximum likelihood). The counts of the trinomial or
//! pentanomial are first **regularized** as both do: an empty cell counts [`REGULARIZE`] (0.001) samples, a filled
//! one its count. With `n` the sum of these counts, `p̂_i` the share of cell `i` and `x_i` its value (a game: 0, ½,
//! 1; a pair, in [`Pentanomial`]: 0, ¼, ½, ¾, 1),
//!
//! ```text
//! LLR = n · Σ p̂_i · ln(p1_i / p0_i),   pj_i = p̂_i / (1 + θ_j (x_i - s_j)),   Σ p̂_i (x_i - s_j) / (1 + θ_j (x_i - s_j)) = 0
//! ```
//!
//! that is, `p0` and `p1` are the distributions closest to the results (in likelihood) whose means are `s0` and
//! `s1`, each `θ_j` found by bisection. On ordinary data this is close to the normal approximation
//! `n · (s1 - s0) · (2·m - s0 - s1) / (2·v)` (`m`, `v` the mean and variance of the results; fishtest's `LLR_alt2`);
//! unlike it, it stays modest on a handful of results and is defined when all results are the same: 200 pairs won
//! twice give +5.67 for `elo0=0 elo1=10`, one such pair +0.03. With no sample at all the LLR is 0. The match stops when
//! `LLR <= ln(β / (1 - α))` (H0 accepted) or `LLR >= ln((1 - β) / α)` (H1 accepted): ±2.94 for α = β = 0.05. A
//! two-engine match uses the pentanomial form, which counts each opening's pair of games together
//! and so does not overstate the evidence when openings are unbalanced.

use std::fmt;

/// The count an empty trinomial or pentanomial cell is given before the LLR is computed (fastchess's `regularize`).
pub const REGULARIZE: f64 = 1e-3;

/// The largest `elo0` or `elo1` an SPRT takes (a score of 0.9968): beyond it the hypotheses say nothing a match
/// could tell apart.
pub const MAX_SPRT_ELO: f64 = 1000.0;

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

/// Sample count, mean and variance (divided by `n`) of samples with values `values` seen `counts` times (a count
/// may be fractional, as a regularized one is); `None` with no sample.
fn moments(values: &[f64], counts: &[f64]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return None;
    }
    let mean = values.iter().zip(counts).map(|(x, c)| x * c).sum::<f64>() / n;
    let var = values.iter().zip(counts).map(|(x, c)| c * (x - mean).powi(2)).sum::<f64>() / n;
    Some((n, mean, var))
}

/// The counts as numbers.
fn as_f64(counts: &[u64]) -> Vec<f64> {
    counts.iter().map(|&c| c as f64).collect()
}

/// Elo of the mean and the half-width of its 95% interval in Elo: `(0, infinity)` with no sample, `(±infinity,
/// NaN)` at a mean of 0 or 1 (an infinite Elo has no interval), an infinite half-width when the interval reaches a
/// score of 0 or 1.
fn elo_and_error(values: &[f64], counts: &[u64]) -> (f64, f64) {
    match moments(values, &as_f64(counts)) {
        None => (0.0, f64::INFINITY),
        Some((_, mean, _)) if mean <= 0.0 || mean >= 1.0 => (elo_from_score(mean), f64::NAN),
        Some((n, mean, var)) => {
            let se = (var / n).sqrt();
            let lo = elo_from_score((mean - Z95 * se).max(0.0));
            let hi = elo_from_score((mean + Z95 * se).min(1.0));
            (elo_from_score(mean), (hi - lo) / 2.0)
        }
    }
}

/// The distribution closest in likelihood to the empirical `p` (every share above 0) over `values` (ascending) whose
/// mean is `s` (strictly between the first and the last value): `p_i / (1 + θ (x_i - s))`, with `θ` the root of
/// `Σ p_i (x_i - s) / (1 + θ (x_i - s))`, which falls from +∞ to -∞ on the interval where every denominator is
/// positive.
fn closest_with_mean(values: &[f64], p: &[f64], s: f64) -> Vec<f64> {
    let f = |t: f64| values.iter().zip(p).map(|(x, p)| p * (x - s) / (1.0 + t * (x - s))).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / (values[values.len() - 1] - s), -1.0 / (values[0] - s));
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    values.iter().zip(p).map(|(x, p)| p / (1.0 + t * (x - s))).collect()
}

/// The GSPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`), logistic Elo, over the counts with every
/// empty cell regularized to [`REGULARIZE`] (see the module documentation); 0 with no sample.
fn llr(values: &[f64], counts: &[u64], elo0: f64, elo1: f64) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let counts: Vec<f64> = counts.iter().map(|&c| if c == 0 { REGULARIZE } else { c as f64 }).collect();
    let n: f64 = counts.iter().sum();
    let p: Vec<f64> = counts.iter().map(|c| c / n).collect();
    let p0 = closest_with_mean(values, &p, score_from_elo(elo0));
    let p1 = closest_with_mean(values, &p, score_from_elo(elo1));
    n * p.iter().zip(p0.iter().zip(&p1)).map(|(p, (p0, p1))| p * (p1.ln() - p0.ln())).sum::<f64>()
}

/// An Elo difference and its 95% error as the match prints them: `+38.8 ± 38.0` (one decimal, never `-0.0`); an
/// infinite Elo (every game or pair won, or every one lost) as `+inf` or `-inf` with no error bar; an interval that
/// reaches a score of 0 or 1 as `± inf`.
pub fn format_elo(elo: f64, err: f64) -> String {
    if elo.is_nan() {
        return "n/a".to_owned();
    }
    if elo.is_infinite() {
        return if elo > 0.0 { "+inf" } else { "-inf" }.to_owned();
    }
    // Round first, so that a small negative value prints as +0.0 rather than -0.0.
    let tenths = |x: f64| {
        let r = (x * 10.0).round() / 10.0;
        if r == 0.0 {
            0.0
        } else {
            r
        }
    };
    let elo = tenths(elo);
    if err.is_nan() {
        format!("{elo:+.1}")
    } else if err.is_infinite() {
        format!("{elo:+.1} ± inf")
    } else {
        format!("{elo:+.1} ± {:.1}", tenths(err))
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
        moments(&Self::VALUES, &as_f64(&self.counts())).map_or(0.5, |(_, m, _)| m)
    }

    /// The Elo difference and its 95% error, game by game: `(0, infinity)` with no game, `(±infinity, NaN)` when
    /// every game was won or every one lost.
    pub fn elo(&self) -> (f64, f64) {
        elo_and_error(&Self::VALUES, &self.counts())
    }

    /// The LLR of `elo1` against `elo0`, game by game (regularized, see the module documentation).
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

    /// The Elo difference and its 95% error, pair by pair: `(0, infinity)` with no pair, `(±infinity, NaN)` when
    /// every pair scored 2 or every one 0.
    pub fn elo(&self) -> (f64, f64) {
        elo_and_error(&Self::VALUES, &self.counts)
    }

    /// The LLR of `elo1` against `elo0`, pair by pair (regularized, see the module documentation).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        llr(&Self::VALUES, &self.counts, elo0, elo1)
    }

    /// The 95% interval of the score per game, pair by pair (the interval the Elo error bar is drawn from); NaN at
    /// both ends with no pair.
    pub fn score_interval(&self) -> (f64, f64) {
        match moments(&Self::VALUES, &as_f64(&self.counts)) {
            Some((n, mean, var)) => {
                let half = Z95 * (var / n).sqrt();
                (mean - half, mean + half)
            }
            None => (f64::NAN, f64::NAN),
        }
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

/// Why `key=value` words are not an SPRT ([`Sprt::parse`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// A word without `=`.
    #[error("expected key=value, found {0:?}")]
    NotKeyValue(String),
    /// A value that is not a number.
    #[error("{key}: {value:?} is not a number")]
    NotANumber {
        /// The key.
        key: String,
        /// Its value, as given.
        value: String,
    },
    /// A value that is infinite or NaN.
    #[error("{key}: {value:?} is not finite")]
    NotFinite {
        /// The key.
        key: String,
        /// Its value, as given.
        value: String,
    },
    /// A key other than `elo0`, `elo1`, `alpha` and `beta`.
    #[error("unknown key {0:?} (elo0, elo1, alpha, beta)")]
    UnknownKey(String),
    /// `elo0` or `elo1` not given.
    #[error("{0}=... is missing: an SPRT needs elo0=... and elo1=...")]
    Missing(&'static str),
    /// `elo0` or `elo1` beyond ±[`MAX_SPRT_ELO`].
    #[error("{key} ({value}): elo0 and elo1 must be from -{MAX_SPRT_ELO} to {MAX_SPRT_ELO}")]
    EloOutOfRange {
        /// `elo0` or `elo1`.
        key: &'static str,
        /// Its value.
        value: f64,
    },
    /// `elo1` not above `elo0`: the hypotheses must differ, H1 the stronger.
    #[error("elo1 ({elo1}) must be above elo0 ({elo0})")]
    NotAbove {
        /// Elo under H0.
        elo0: f64,
        /// Elo under H1.
        elo1: f64,
    },
    /// `alpha` or `beta` not strictly between 0 and 0.5.
    #[error("{key} ({value}): alpha and beta must be between 0 and 0.5")]
    RateOutOfRange {
        /// `alpha` or `beta`.
        key: &'static str,
        /// Its value.
        value: f64,
    },
}

impl Sprt {
    /// Parses `key=value` words (a word may hold several, separated by spaces): `elo0`, `elo1` (required, from
    /// -[`MAX_SPRT_ELO`] to [`MAX_SPRT_ELO`], `elo1` above `elo0`), `alpha`, `beta` (0.05 by default, strictly
    /// between 0 and 0.5).
    ///
    /// ```
    /// use xiangqi_match::{Sprt, SprtError};
    ///
    /// let sprt = Sprt::parse(&["elo0=0 elo1=5".to_owned(), "alpha=0.1".to_owned()]).unwrap();
    /// assert_eq!(sprt, Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.1, beta: 0.05 });
    /// assert_eq!(Sprt::parse(&["elo0=0".to_owned()]), Err(SprtError::Missing("elo1")));
    /// ```
    pub fn parse(words: &[String]) -> Result<Sprt, SprtError> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for w in words.iter().flat_map(|w| w.split_whitespace()) {
            let (k, v) = w.split_once('=').ok_or_else(|| SprtError::NotKeyValue(w.to_owned()))?;
            let x: f64 = v.parse().map_err(|_| SprtError::NotANumber { key: k.to_owned(), value: v.to_owned() })?;
            if !x.is_finite() {
                return Err(SprtError::NotFinite { key: k.to_owned(), value: v.to_owned() });
            }
            match k {
                "elo0" => elo0 = Some(x),
                "elo1" => elo1 = Some(x),
                "alpha" => alpha = x,
                "beta" => beta = x,
                _ => return Err(SprtError::UnknownKey(k.to_owned())),
            }
        }
        let elo0 = elo0.ok_or(SprtError::Missing("elo0"))?;
        let elo1 = elo1.ok_or(SprtError::Missing("elo1"))?;
        for (key, value) in [("elo0", elo0), ("elo1", elo1)] {
            if value.abs() > MAX_SPRT_ELO {
                return Err(SprtError::EloOutOfRange { key, value });
            }
        }
        if elo1 <= elo0 {
            return Err(SprtError::NotAbove { elo0, elo1 });
        }
        for (key, value) in [("alpha", alpha), ("beta", beta)] {
            if !(0.0 < value && value < 0.5) {
                return Err(SprtError::RateOutOfRange { key, value });
            }
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
        // 60 wins, 80 draws, 40 losses: score 100/180; variance of the game score 0.135802...; values computed by
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

    /// The normal approximation `n (s1 - s0)(2m - s0 - s1) / (2v)` of the plain counts, the formula used before.
    fn normal_llr(values: &[f64], counts: &[u64], elo0: f64, elo1: f64) -> f64 {
        let (n, m, v) = moments(values, &as_f64(counts)).unwrap();
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v)
    }

    #[test]
    fn llr_is_the_exact_gsprt_and_near_the_normal_approximation_on_ordinary_data() {
        // Values from an independent implementation of the formula in the module documentation (fishtest's
        // LLR_logistic without its regularization, which changes nothing when every cell is filled).
        let t = Trinomial { wins: 60, draws: 80, losses: 40 };
        assert!(close(t.llr(0.0, 5.0), 0.485_058_443_835, 1e-8), "{}", t.llr(0.0, 5.0));
        let t = Trinomial { wins: 40, draws: 80, losses: 60 };
        assert!(close(t.llr(0.0, 5.0), -0.550_962_094_162, 1e-8), "{}", t.llr(0.0, 5.0));
        let p = Pentanomial { counts: [5, 20, 40, 25, 10] };
        assert!(close(p.llr(0.0, 5.0), 0.374_955_227_713, 1e-8), "{}", p.llr(0.0, 5.0));
        // Within 2.5% of the normal approximation used before (0.495511, -0.564129, 0.379844).
        for (values, counts) in [
            (&Trinomial::VALUES[..], &[40u64, 80, 60][..]),
            (&Trinomial::VALUES[..], &[60, 80, 40][..]),
            (&Pentanomial::VALUES[..], &[5, 20, 40, 25, 10][..]),
        ] {
            let (exact, normal) = (llr(values, counts, 0.0, 5.0), normal_llr(values, counts, 0.0, 5.0));
            assert!((exact - normal).abs() < 0.025 * normal.abs(), "{counts:?}: {exact} {normal}");
        }
        assert!(close(normal_llr(&Pentanomial::VALUES, &[5, 20, 40, 25, 10], 0.0, 5.0), 0.379_843_836_40, 1e-8));
        // No game: no evidence.
        assert_eq!(Trinomial::default().llr(0.0, 5.0), 0.0);
        assert_eq!(Pentanomial::default().llr(0.0, 5.0), 0.0);
        let (elo, err) = p.elo();
        assert!(close(elo, 26.106_692_605, 1e-6) && close(err, 34.826_425_304, 1e-6), "{elo} {err}");
    }

    #[test]
    fn llr_of_results_that_are_all_the_same_is_regularized() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        // 200 pairs won twice: fishtest's LLR is +5.67 too.
        let llr = Pentanomial { counts: [0, 0, 0, 0, 200] }.llr(0.0, 10.0);
        assert!(close(llr, 5.673_687_916_75, 1e-6), "{llr}");
        assert_eq!(sprt.state(llr), SprtState::AcceptH1);
        let llr = Pentanomial { counts: [200, 0, 0, 0, 0] }.llr(0.0, 10.0);
        assert!(close(llr, -5.839_352_674_98, 1e-6), "{llr}");
        assert_eq!(sprt.state(llr), SprtState::AcceptH0);
        // Only drawn pairs (1-1) at elo0 = 0: evidence for H0.
        let llr = Pentanomial { counts: [0, 0, 200, 0, 0] }.llr(0.0, 10.0);
        assert!(close(llr, -5.830_128_717_70, 1e-6), "{llr}");
        assert_eq!(sprt.state(llr), SprtState::AcceptH0);
        // One pair decides nothing, however it went.
        let llr = Pentanomial { counts: [0, 0, 0, 0, 1] }.llr(0.0, 10.0);
        assert!(close(llr, 0.028_423_811_54, 1e-8), "{llr}");
        let llr = Pentanomial { counts: [0, 1, 0, 0, 0] }.llr(0.0, 150.0);
        assert!(close(llr, -0.523_141_326_86, 1e-8), "{llr}");
        assert_eq!(sprt.state(llr), SprtState::Continue);
        // Game by game as well.
        let t = Trinomial { wins: 0, draws: 10, losses: 0 };
        assert!(close(t.llr(0.0, 5.0), -0.139_681_997_23, 1e-8), "{}", t.llr(0.0, 5.0));
        let wins = Trinomial { wins: 50, draws: 0, losses: 0 }.llr(0.0, 10.0);
        let losses = Trinomial { wins: 0, draws: 0, losses: 50 }.llr(0.0, 10.0);
        assert!(close(wins, 1.418_407_173_01, 1e-8) && close(losses, -1.459_824_190_93, 1e-8), "{wins} {losses}");
    }

    #[test]
    fn elo_at_a_total_score_is_infinite_with_no_error_bar() {
        let (elo, err) = Pentanomial { counts: [0, 0, 0, 0, 7] }.elo();
        assert_eq!(elo, f64::INFINITY);
        assert!(err.is_nan());
        let (elo, err) = Trinomial { wins: 0, draws: 0, losses: 3 }.elo();
        assert_eq!(elo, f64::NEG_INFINITY);
        assert!(err.is_nan());
        assert_eq!(format_elo(f64::INFINITY, f64::NAN), "+inf");
        assert_eq!(format_elo(f64::NEG_INFINITY, f64::NAN), "-inf");
        // 9 wins, 1 loss: the upper end of the interval is a score of 1.
        let (elo, err) = Trinomial { wins: 9, draws: 0, losses: 1 }.elo();
        assert!(close(elo, 381.697_003_776, 1e-6) && err == f64::INFINITY, "{elo} {err}");
        assert_eq!(format_elo(elo, err), "+381.7 ± inf");
    }

    #[test]
    fn format_elo_rounds_and_never_prints_minus_zero() {
        assert_eq!(format_elo(38.764_005_203, 38.032_895_551), "+38.8 ± 38.0");
        assert_eq!(format_elo(-26.106, 34.826), "-26.1 ± 34.8");
        assert_eq!(format_elo(-0.0, 0.0), "+0.0 ± 0.0");
        assert_eq!(format_elo(-0.04, 12.0), "+0.0 ± 12.0");
        assert_eq!(format_elo(0.0, f64::INFINITY), "+0.0 ± inf");
        // Pairs all 1-1: Elo 0 with no spread.
        let (elo, err) = Pentanomial { counts: [0, 0, 4, 0, 0] }.elo();
        assert_eq!(format_elo(elo, err), "+0.0 ± 0.0");
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
        // Pair scores 0, ½, ½, ¾, 1 (per game): mean 0.55, variance 0.11, so 0.55 ± 1.96 · sqrt(0.11 / 5).
        let (lo, hi) = p.score_interval();
        let half = Z95 * (0.11f64 / 5.0).sqrt();
        assert!(close(lo, 0.55 - half, 1e-12) && close(hi, 0.55 + half, 1e-12), "{lo} {hi}");
        assert!(Pentanomial::default().score_interval().0.is_nan());
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
        let key = |k: &str, v: &str| (k.to_owned(), v.to_owned());
        for (bad, error) in [
            ("elo0=0", SprtError::Missing("elo1")),
            ("elo1=5", SprtError::Missing("elo0")),
            ("elo0=5 elo1=0", SprtError::NotAbove { elo0: 5.0, elo1: 0.0 }),
            ("elo0=0 elo1=5 gamma=1", SprtError::UnknownKey("gamma".to_owned())),
            ("elo0=x elo1=5", {
                let (key, value) = key("elo0", "x");
                SprtError::NotANumber { key, value }
            }),
            ("elo0=0 elo1=inf", {
                let (key, value) = key("elo1", "inf");
                SprtError::NotFinite { key, value }
            }),
            ("elo0=0 elo1", SprtError::NotKeyValue("elo1".to_owned())),
            ("elo0=0 elo1=5 alpha=0.7", SprtError::RateOutOfRange { key: "alpha", value: 0.7 }),
            ("elo0=0 elo1=5 beta=0", SprtError::RateOutOfRange { key: "beta", value: 0.0 }),
            ("elo0=0 elo1=1e6", SprtError::EloOutOfRange { key: "elo1", value: 1e6 }),
        ] {
            assert_eq!(Sprt::parse(&[bad.to_owned()]), Err(error), "{bad}");
        }
        // The messages name the key and the value, and no flag of a program.
        let e = Sprt::parse(&["elo0=0 elo1=1e6".to_owned()]).unwrap_err().to_string();
        assert_eq!(e, "elo1 (1000000): elo0 and elo1 must be from -1000 to 1000");
        let e = Sprt::parse(&["elo0=x".to_owned()]).unwrap_err().to_string();
        assert_eq!(e, "elo0: \"x\" is not a number");
        assert_eq!(SprtError::Missing("elo1").to_string(), "elo1=... is missing: an SPRT needs elo0=... and elo1=...");
    }
}
