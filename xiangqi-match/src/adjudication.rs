//! Adjudication by score, and its settings as `key=value` words (`movecount=8 score=600`), each value checked
//! against its range.
//!
//! ```
//! use xiangqi_match::{AdjudicationError, DrawAdjudication, ResignAdjudication};
//!
//! let words = |w: &str| w.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
//! let resign = ResignAdjudication::parse(&words("movecount=3 score=600")).unwrap();
//! assert_eq!(resign, ResignAdjudication { movecount: 3, score: 600 });
//! let draw = DrawAdjudication::parse(&words("movenumber=40 movecount=8 score=10")).unwrap();
//! assert_eq!((draw.movenumber, draw.movecount, draw.score), (40, 8, 10));
//! let e = ResignAdjudication::parse(&words("movecount=0 score=600")).unwrap_err();
//! assert_eq!(e, AdjudicationError::OutOfRange { key: "movecount", value: 0, range: (1, 1000) });
//! assert_eq!(e.to_string(), "movecount=0: must be from 1 to 1000");
//! ```

/// Resign adjudication: a side whose own score is `score` centipawns or worse for `movecount` of its moves in a
/// row loses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResignAdjudication {
    /// Consecutive moves.
    pub movecount: u32,
    /// Centipawns.
    pub score: i32,
}

/// Draw adjudication: from full move `movenumber` on, when both sides' scores stay within `score` centipawns of
/// zero for `movecount` moves each in a row, the game is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// First full move at which it applies.
    pub movenumber: u32,
    /// Consecutive moves of each side.
    pub movecount: u32,
    /// Centipawns.
    pub score: i32,
}

/// The range of an adjudication's `movecount` (consecutive moves).
pub const MOVECOUNT: (i64, i64) = (1, 1000);
/// The range of an adjudication's `score`, in centipawns: up to ten times the mate score (a threshold beyond the
/// mate score behaves as the mate score).
pub const SCORE: (i64, i64) = (0, 1_000_000);
/// The range of draw adjudication's `movenumber` (the full move from which it applies).
pub const MOVENUMBER: (i64, i64) = (0, 10_000);

/// Why words are not an adjudication's settings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdjudicationError {
    /// A word without `=`.
    #[error("expected key=value, found {0:?}")]
    NotKeyValue(String),
    /// A key the adjudication does not have.
    #[error("unknown key {key:?} ({keys})")]
    UnknownKey {
        /// The key as given.
        key: String,
        /// The keys it has, separated by commas.
        keys: String,
    },
    /// A value that is not a whole number from 0 up.
    #[error("{key}: {value:?} is not a number")]
    NotANumber {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
    },
    /// A key not given.
    #[error("{0}=... is missing")]
    Missing(&'static str),
    /// A value out of its range ([`MOVECOUNT`], [`SCORE`], [`MOVENUMBER`]).
    #[error("{key}={value}: must be from {} to {}", range.0, range.1)]
    OutOfRange {
        /// The key.
        key: &'static str,
        /// The value given.
        value: i64,
        /// Its inclusive range.
        range: (i64, i64),
    },
}

/// The values of `keys`, each checked against its range, from `key=value` words (a word may hold several,
/// separated by spaces).
fn values<const N: usize>(
    words: &[String],
    keys: [(&'static str, (i64, i64)); N],
) -> Result<[i64; N], AdjudicationError> {
    let mut values = [None; N];
    for w in words.iter().flat_map(|w| w.split_whitespace()) {
        let (k, v) = w.split_once('=').ok_or_else(|| AdjudicationError::NotKeyValue(w.to_owned()))?;
        let i = keys.iter().position(|&(x, _)| x == k).ok_or_else(|| AdjudicationError::UnknownKey {
            key: k.to_owned(),
            keys: keys.map(|(x, _)| x).join(", "),
        })?;
        let bad = || AdjudicationError::NotANumber { key: k.to_owned(), value: v.to_owned() };
        values[i] = Some(v.parse::<i64>().ok().filter(|&n| n >= 0).ok_or_else(bad)?);
    }
    let mut out = [0; N];
    for (i, (key, range)) in keys.into_iter().enumerate() {
        let value = values[i].ok_or(AdjudicationError::Missing(key))?;
        if !(range.0..=range.1).contains(&value) {
            return Err(AdjudicationError::OutOfRange { key, value, range });
        }
        out[i] = value;
    }
    Ok(out)
}

impl ResignAdjudication {
    /// Reads `movecount=N score=CP` (N in [`MOVECOUNT`], CP in [`SCORE`]).
    pub fn parse(words: &[String]) -> Result<ResignAdjudication, AdjudicationError> {
        let [movecount, score] = values(words, [("movecount", MOVECOUNT), ("score", SCORE)])?;
        Ok(ResignAdjudication { movecount: movecount as u32, score: score as i32 })
    }
}

impl DrawAdjudication {
    /// Reads `movenumber=M movecount=N score=CP` (M in [`MOVENUMBER`], N in [`MOVECOUNT`], CP in [`SCORE`]).
    pub fn parse(words: &[String]) -> Result<DrawAdjudication, AdjudicationError> {
        let keys = [("movenumber", MOVENUMBER), ("movecount", MOVECOUNT), ("score", SCORE)];
        let [movenumber, movecount, score] = values(words, keys)?;
        Ok(DrawAdjudication { movenumber: movenumber as u32, movecount: movecount as u32, score: score as i32 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        vec![text.to_owned()]
    }

    #[test]
    fn words_are_read_and_checked() {
        assert_eq!(
            ResignAdjudication::parse(&words("score=600 movecount=3")),
            Ok(ResignAdjudication { movecount: 3, score: 600 })
        );
        let resign = |w: &str| ResignAdjudication::parse(&words(w)).unwrap_err().to_string();
        assert_eq!(resign("movecount=3"), "score=... is missing");
        assert_eq!(resign("moves=3"), "unknown key \"moves\" (movecount, score)");
        assert_eq!(resign("movecount"), "expected key=value, found \"movecount\"");
        assert_eq!(resign("movecount=3 score=-1"), "score: \"-1\" is not a number");
        assert_eq!(resign("movecount=4294967296 score=1"), "movecount=4294967296: must be from 1 to 1000");
        let draw = |w: &str| DrawAdjudication::parse(&words(w)).unwrap_err().to_string();
        assert_eq!(draw("movenumber=10001 movecount=8 score=10"), "movenumber=10001: must be from 0 to 10000");
        assert_eq!(draw("movenumber=40 movecount=8 score=1000001"), "score=1000001: must be from 0 to 1000000");
        let most = DrawAdjudication::parse(&words("movenumber=10000 movecount=1 score=1000000"));
        assert_eq!(most, Ok(DrawAdjudication { movenumber: 10_000, movecount: 1, score: 1_000_000 }));
    }
}
