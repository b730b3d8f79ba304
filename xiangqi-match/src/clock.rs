//! How long each engine may think: a time control ([`TimeControl`]), what a match gives both engines and what a
//! game's record names, the text of a clock ([`TimeControl::parse_clock`], [`ClockError`]), and the range of every
//! time a match takes ([`seconds`]: a clock's time and increment, a time per move, a timeout).

use std::time::Duration;

/// How long each engine may think.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: `moves` moves in `base` (then `base` again; `None`: the whole game), plus `inc` a move.
    Clock {
        /// Moves per period, `None` for one period.
        moves: Option<u32>,
        /// Time per period.
        base: Duration,
        /// Increment per move.
        inc: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed node count per move.
    Nodes(u64),
    /// A fixed depth per move.
    Depth(u32),
}

/// The shortest time a match takes, in seconds: 1 ms, the resolution of the `go` command.
pub const MIN_SECONDS: f64 = 0.001;
/// The longest time a match takes, in seconds: one week.
pub const MAX_SECONDS: f64 = 604_800.0;

/// A time out of the range a match takes ([`seconds`]).
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error("{0}: must be from {MIN_SECONDS} to {MAX_SECONDS} seconds (one week)")]
pub struct SecondsError(pub f64);

/// A time in seconds as a duration, refused unless it is from [`MIN_SECONDS`] to [`MAX_SECONDS`] (not a number
/// is refused too).
///
/// ```
/// use std::time::Duration;
/// use xiangqi_match::clock::seconds;
///
/// assert_eq!(seconds(0.5), Ok(Duration::from_millis(500)));
/// assert_eq!(seconds(1e20).unwrap_err().to_string(), "100000000000000000000: must be from 0.001 to 604800 seconds (one week)");
/// assert!(seconds(f64::NAN).is_err());
/// ```
pub fn seconds(secs: f64) -> Result<Duration, SecondsError> {
    if (MIN_SECONDS..=MAX_SECONDS).contains(&secs) {
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(SecondsError(secs))
    }
}

/// The form of a clock's text, as [`TimeControl::parse_clock`] takes it.
pub const CLOCK_FORM: &str = "[moves/]seconds[+increment], e.g. 40/60+0.5 or 10+0.1";

/// Why a text is not a clock ([`TimeControl::parse_clock`]); each message starts with the text and ends with the
/// form expected ([`CLOCK_FORM`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClockError {
    /// The moves before `/` are not a whole number from 1 up (to 4294967295).
    #[error("{text:?}: the moves per period {moves:?} are not a whole number from 1 up; expected {CLOCK_FORM}")]
    Moves {
        /// The whole text.
        text: String,
        /// The moves as given.
        moves: String,
    },
    /// The time or the increment is not a number.
    #[error("{text:?}: the {part} {value:?} is not a number of seconds; expected {CLOCK_FORM}")]
    Seconds {
        /// The whole text.
        text: String,
        /// `time` or `increment`.
        part: &'static str,
        /// The part as given.
        value: String,
    },
    /// The time, or an increment other than 0, is out of the range a match takes ([`seconds`]).
    #[error("{text:?}: the {part} {source}")]
    Range {
        /// The whole text.
        text: String,
        /// `time` or `increment`.
        part: &'static str,
        /// The value and its range.
        source: SecondsError,
    },
}

impl TimeControl {
    /// Parses `[moves/]seconds[+increment]`, e.g. `40/60+0.5`, `10+0.1`, `30`: the time from [`MIN_SECONDS`] to
    /// [`MAX_SECONDS`], the increment 0 or in the same range.
    ///
    /// ```
    /// use std::time::Duration;
    /// use xiangqi_match::{ClockError, TimeControl};
    ///
    /// let tc = TimeControl::parse_clock("40/60+0.5").unwrap();
    /// let (base, inc) = (Duration::from_secs(60), Duration::from_millis(500));
    /// assert_eq!(tc, TimeControl::Clock { moves: Some(40), base, inc });
    /// assert!(matches!(TimeControl::parse_clock("0+1"), Err(ClockError::Range { part: "time", .. })));
    /// assert!(matches!(TimeControl::parse_clock("10+1e30"), Err(ClockError::Range { part: "increment", .. })));
    /// assert!(matches!(TimeControl::parse_clock("ten"), Err(ClockError::Seconds { part: "time", .. })));
    /// ```
    pub fn parse_clock(text: &str) -> Result<TimeControl, ClockError> {
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => {
                let bad = || ClockError::Moves { text: text.to_owned(), moves: m.to_owned() };
                (Some(m.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(bad)?), r)
            }
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let secs = |part: &'static str, t: &str| {
            let bad = || ClockError::Seconds { text: text.to_owned(), part, value: t.to_owned() };
            match t.trim().parse::<f64>().map_err(|_| bad())? {
                0.0 if part == "increment" => Ok(Duration::ZERO),
                s => seconds(s).map_err(|source| ClockError::Range { text: text.to_owned(), part, source }),
            }
        };
        Ok(TimeControl::Clock { moves, base: secs("time", base)?, inc: secs("increment", inc)? })
    }
}

impl TimeControl {
    /// The time control in words, for people: `40 moves in 60 s, +0.5 s a move`, `0.1 s a move`, `2000 nodes a
    /// move`, `depth 6 a move`.
    pub fn describe(&self) -> String {
        match self {
            TimeControl::Clock { moves, base, inc } => {
                let mut s = match moves {
                    Some(m) => format!("{m} moves in {} s", base.as_secs_f64()),
                    None => format!("{} s for the game", base.as_secs_f64()),
                };
                if !inc.is_zero() {
                    s.push_str(&format!(", +{} s a move", inc.as_secs_f64()));
                }
                s
            }
            TimeControl::MoveTime(t) => format!("{} s a move", t.as_secs_f64()),
            TimeControl::Nodes(n) => format!("{n} nodes a move"),
            TimeControl::Depth(d) => format!("depth {d} a move"),
        }
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControl::Clock { moves, base, inc } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}+{}", base.as_secs_f64(), inc.as_secs_f64())
            }
            TimeControl::MoveTime(t) => write!(f, "st={}", t.as_secs_f64()),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_parse_and_print() {
        let tc = TimeControl::parse_clock("40/10+0.1").unwrap();
        assert_eq!(
            tc,
            TimeControl::Clock { moves: Some(40), base: Duration::from_secs(10), inc: Duration::from_millis(100) }
        );
        assert_eq!(tc.to_string(), "40/10+0.1");
        let text = |t: &str| t.to_owned();
        let not_seconds = |t: &str, part, value: &str| ClockError::Seconds { text: text(t), part, value: text(value) };
        let moves = |t: &str, m: &str| ClockError::Moves { text: text(t), moves: text(m) };
        for (bad, error) in [
            ("", not_seconds("", "time", "")),
            ("x", not_seconds("x", "time", "x")),
            ("10+x", not_seconds("10+x", "increment", "x")),
            ("40/", not_seconds("40/", "time", "")),
            ("/10", moves("/10", "")),
            ("0/10", moves("0/10", "0")),
        ] {
            assert_eq!(TimeControl::parse_clock(bad), Err(error), "{bad}");
        }
        assert_eq!(
            TimeControl::parse_clock("10+x").unwrap_err().to_string(),
            "\"10+x\": the increment \"x\" is not a number of seconds; expected [moves/]seconds[+increment], e.g. \
             40/60+0.5 or 10+0.1"
        );
        // Out of range: below 1 ms, above one week, not a number; an increment of 0 is none.
        for (bad, part, value) in [
            ("0", "time", "0"),
            ("-5", "time", "-5"),
            ("1e-9", "time", "0.000000001"),
            ("604800.001", "time", "604800.001"),
            ("10+inf", "increment", "inf"),
            ("10+nan", "increment", "NaN"),
            ("10+0.0001", "increment", "0.0001"),
        ] {
            let e = TimeControl::parse_clock(bad).unwrap_err();
            let want = format!("{bad:?}: the {part} {value}: must be from 0.001 to 604800 seconds (one week)");
            assert_eq!(e.to_string(), want);
        }
        let zero = TimeControl::Clock { moves: None, base: Duration::from_millis(1), inc: Duration::ZERO };
        assert_eq!(TimeControl::parse_clock("0.001+0"), Ok(zero));
    }
}
