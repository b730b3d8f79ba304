//! How long each engine may think: a time control ([`TimeControl`]), what a match gives both engines and what a
//! game's record names, and the text of a clock ([`TimeControl::parse_clock`], [`ClockError`]).

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

/// The form of a clock's text, as [`TimeControl::parse_clock`] takes it.
pub const CLOCK_FORM: &str = "[moves/]seconds[+increment], e.g. 40/60+0.5 or 10+0.1";

/// Why a text is not a clock ([`TimeControl::parse_clock`]); each message starts with the text and ends with the
/// form expected ([`CLOCK_FORM`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// The moves before `/` are not a whole number from 1 up (to 4294967295).
    #[error("{text:?}: the moves per period {moves:?} are not a whole number from 1 up; expected {CLOCK_FORM}")]
    Moves {
        /// The whole text.
        text: String,
        /// The moves as given.
        moves: String,
    },
    /// The time or the increment is not a number of seconds from 0 up that a duration holds (finite, below about
    /// 1.8e19).
    #[error("{text:?}: the {part} {value:?} is not a number of seconds; expected {CLOCK_FORM}")]
    Seconds {
        /// The whole text.
        text: String,
        /// `time` or `increment`.
        part: &'static str,
        /// The part as given.
        value: String,
    },
    /// The time is 0: no move could be made in it.
    #[error("{text:?}: the time must be above 0; expected {CLOCK_FORM}")]
    NoTime {
        /// The whole text.
        text: String,
    },
}

impl TimeControl {
    /// Parses `[moves/]seconds[+increment]`, e.g. `40/60+0.5`, `10+0.1`, `30`: the time above 0, the increment 0
    /// or more.
    ///
    /// ```
    /// use std::time::Duration;
    /// use xiangqi_match::{ClockError, TimeControl};
    ///
    /// let tc = TimeControl::parse_clock("40/60+0.5").unwrap();
    /// let (base, inc) = (Duration::from_secs(60), Duration::from_millis(500));
    /// assert_eq!(tc, TimeControl::Clock { moves: Some(40), base, inc });
    /// assert_eq!(TimeControl::parse_clock("0+1"), Err(ClockError::NoTime { text: "0+1".to_owned() }));
    /// assert!(matches!(TimeControl::parse_clock("1e30"), Err(ClockError::Seconds { part: "time", .. })));
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
            t.parse::<f64>().ok().and_then(|s| Duration::try_from_secs_f64(s).ok()).ok_or_else(bad)
        };
        let (base, inc) = (secs("time", base)?, secs("increment", inc)?);
        if base.is_zero() {
            return Err(ClockError::NoTime { text: text.to_owned() });
        }
        Ok(TimeControl::Clock { moves, base, inc })
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
        let seconds = |t: &str, part, value: &str| ClockError::Seconds { text: text(t), part, value: text(value) };
        let moves = |t: &str, m: &str| ClockError::Moves { text: text(t), moves: text(m) };
        for (bad, error) in [
            ("", seconds("", "time", "")),
            ("x", seconds("x", "time", "x")),
            ("-5", seconds("-5", "time", "-5")),
            ("10+x", seconds("10+x", "increment", "x")),
            ("10+inf", seconds("10+inf", "increment", "inf")),
            ("40/", seconds("40/", "time", "")),
            ("/10", moves("/10", "")),
            ("0/10", moves("0/10", "0")),
            ("0", ClockError::NoTime { text: text("0") }),
        ] {
            assert_eq!(TimeControl::parse_clock(bad), Err(error), "{bad}");
        }
        assert_eq!(
            TimeControl::parse_clock("10+x").unwrap_err().to_string(),
            "\"10+x\": the increment \"x\" is not a number of seconds; expected [moves/]seconds[+increment], e.g. \
             40/60+0.5 or 10+0.1"
        );
    }
}
