//! `go` as UCI and Pikafish have it: [`Go`], parsed with every value checked against its range, and the clock's
//! share of this move ([`Go::time_limits`]); [`Go::limits`] turns it into the engine's [`Limits`].

use std::time::{Duration, Instant};
use xiangqi_core::{Color, Move, Position};
use xiangqi_search::{Clock, GameTree, GoMode, Limits};

/// The parameters of `go`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go {
    /// Red's clock.
    pub wtime: Option<u64>,
    /// Black's clock.
    pub btime: Option<u64>,
    /// Red's increment.
    pub winc: Option<u64>,
    /// Black's increment.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u64>,
    /// Time for this move.
    pub movetime: Option<u64>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search only these root moves (as written; checked against the position when the search starts).
    pub searchmoves: Vec<String>,
    /// Count the leaves of the move tree to this depth, move by move, instead of searching.
    pub perft: Option<u32>,
}

/// The deepest `go perft` the UCI loop runs: under a second at the start position on one thread (6 takes half a
/// minute).
pub const MAX_UCI_PERFT: u64 = 5;

/// The deepest `go depth` (UCI and UCCI): the search's limit, [`xiangqi_search::MAX_DEPTH`].
pub const MAX_GO_DEPTH: u64 = xiangqi_search::MAX_DEPTH as u64;

/// The longest mate `go mate` looks for, in moves.
pub const MAX_GO_MATE: u64 = 60;

/// The words `go` takes as parameter names: `searchmoves` takes the moves up to the next one.
pub const GO_WORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
    "perft",
];

/// `text`, from the input, as an error message shows it: at most `n` characters, `...` marking a cut (a 100 KB
/// line is not echoed back).
pub(crate) fn clip(text: &str, n: usize) -> String {
    match text.char_indices().nth(n) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_owned(),
    }
}

/// The value `v` of the `go` parameter `name`: a whole number from 0 up. A negative number says so (a time
/// included: a clock below zero is the GUI's error, and a search on it would be a guess).
pub(crate) fn go_number(name: &str, v: &str) -> Result<u64, String> {
    let shown = clip(v, 40);
    let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        Err(format!("go {name}: {shown:?} is not a number"))
    } else if v.starts_with('-') && digits.bytes().any(|b| b != b'0') {
        Err(format!("go {name}: {shown} is negative"))
    } else {
        digits.parse::<u64>().map_err(|_| format!("go {name}: {shown} is too large"))
    }
}

/// `n`, the value of the `go` parameter `name`, when it lies in `lo..=hi`; else an error naming the range.
pub(crate) fn go_range(name: &str, n: u64, lo: u64, hi: u64) -> Result<u64, String> {
    match (n < lo, n > hi) {
        (false, false) => Ok(n),
        _ if hi == u64::MAX => Err(format!("go {name} must be at least {lo}, not {n}")),
        _ => Err(format!("go {name} must be from {lo} to {hi}, not {n}")),
    }
}

impl Go {
    /// Parses the words after `go`. Every value is checked against its range (see the module's documentation);
    /// none is quietly changed.
    pub fn parse(words: &[&str]) -> Result<Go, String> {
        let mut go = Go::default();
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            let mut value = |name: &str| -> Result<u64, String> {
                i += 1;
                go_number(name, words.get(i).ok_or_else(|| format!("go {name} needs a value"))?)
            };
            match w {
                "wtime" => go.wtime = Some(value(w)?),
                "btime" => go.btime = Some(value(w)?),
                "winc" => go.winc = Some(value(w)?),
                "binc" => go.binc = Some(value(w)?),
                "movetime" => go.movetime = Some(value(w)?),
                "movestogo" => go.movestogo = Some(go_range(w, value(w)?, 1, u64::MAX)?),
                "depth" => go.depth = Some(go_range(w, value(w)?, 1, MAX_GO_DEPTH)? as u32),
                "nodes" => go.nodes = Some(go_range(w, value(w)?, 1, u64::MAX)?),
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "mate" => go.mate = Some(go_range(w, value(w)?, 1, MAX_GO_MATE)? as u32),
                "perft" => {
                    // It runs on the command thread: a count that takes minutes would leave the engine deaf.
                    let depth = value(w)?;
                    if depth > MAX_UCI_PERFT {
                        return Err(format!(
                            "go perft must be from 1 to {MAX_UCI_PERFT}, not {depth} (xiangqi perft --depth {depth} \
                             counts deeper)"
                        ));
                    }
                    go.perft = Some(go_range(w, depth, 1, MAX_UCI_PERFT)? as u32);
                }
                "searchmoves" => {
                    while let Some(m) = words.get(i + 1).filter(|m| !GO_WORDS.contains(m)) {
                        go.searchmoves.push((*m).to_owned());
                        i += 1;
                    }
                    if go.searchmoves.is_empty() {
                        return Err("go searchmoves needs at least one move".to_owned());
                    }
                }
                other => return Err(format!("unknown go parameter {:?}", clip(other, 40))),
            }
            i += 1;
        }
        Ok(go)
    }

    /// Soft (optimum) and hard (maximum) time for the side `us`, or `None` when the clock does not limit the
    /// search. The hard limit never exceeds 80% of the remaining time less the overhead, counted from the moment
    /// `go` arrives, so the engine does not lose on time as long as its threads have cores to run on (with more
    /// threads than cores, stopping them can take longer than a short clock: raise `Move Overhead`). The search
    /// threads are started once and kept from one `go` to the next.
    pub fn time_limits(&self, us: Color, overhead: Duration) -> (Option<Duration>, Option<Duration>) {
        let ms = Duration::from_millis;
        if let Some(t) = self.movetime {
            let hard = t.saturating_sub(overhead.as_millis() as u64).max(1);
            return (None, Some(ms(hard)));
        }
        let (time, inc) = match us {
            Color::Red => (self.wtime, self.winc.unwrap_or(0)),
            Color::Black => (self.btime, self.binc.unwrap_or(0)),
        };
        let Some(time) = time else { return (None, None) };
        let moves_to_go = self.movestogo.map(|n| n.min(u64::from(u32::MAX)) as u32);
        let clock = Clock { time: ms(time), increment: ms(inc), moves_to_go };
        let (soft, hard) = clock.allocate(overhead);
        (Some(soft), Some(hard))
    }
}

impl Go {
    /// The engine's limits for this `go` in `pos` searching only `root_moves` (all when `None`), with the clock
    /// started at `start` (when `go` arrived) and `overhead` kept back; and how the search ends (`infinite`,
    /// `ponder`).
    pub fn limits(
        &self,
        pos: &Position,
        root_moves: Option<&[Move]>,
        overhead: Duration,
        start: Instant,
    ) -> (Limits, GoMode) {
        let (soft, hard) = self.time_limits(pos.turn(), overhead);
        let limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: if self.infinite { None } else { hard },
            soft_time: if self.infinite { None } else { soft },
            signals: None,
            iterative: true,
            root_moves: root_moves.map(|r| r.iter().map(|&m| <Position as GameTree>::encode_move(m)).collect()),
            mate: self.mate,
            start: Some(start),
            // MultiPV is an engine option: the engine sets it.
            ..Limits::default()
        };
        (limits, GoMode { infinite: self.infinite, ponder: self.ponder })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_parses_every_parameter() {
        let go = Go::parse(
            &"wtime 1000 btime 2000 winc 10 binc 20 searchmoves h2e2 b0c2 movestogo 5 depth 7 nodes 99 ponder mate 3"
                .split(' ')
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!(
            go,
            Go {
                wtime: Some(1000),
                btime: Some(2000),
                winc: Some(10),
                binc: Some(20),
                movestogo: Some(5),
                movetime: None,
                depth: Some(7),
                nodes: Some(99),
                infinite: false,
                ponder: true,
                mate: Some(3),
                searchmoves: vec!["h2e2".to_owned(), "b0c2".to_owned()],
                perft: None,
            }
        );
        assert_eq!(Go::parse(&["perft", "3"]).unwrap().perft, Some(3));
        assert!(Go::parse(&["perft", "6"]).unwrap_err().contains("from 1 to 5"));
        assert!(Go::parse(&["searchmoves"]).is_err());
        assert!(Go::parse(&["searchmoves", "depth", "3"]).is_err());
        assert!(Go::parse(&["mate"]).is_err());
        assert!(Go::parse(&["depth"]).is_err());
        assert!(Go::parse(&["depth", "x"]).is_err());
        assert!(Go::parse(&["bogus"]).is_err());
        assert_eq!(Go::parse(&["wtime", "0", "btime", "-0"]).unwrap().btime, Some(0));
    }

    #[test]
    fn go_values_out_of_range_are_errors() {
        fn err(text: &str) -> String {
            Go::parse(&text.split(' ').collect::<Vec<_>>()).unwrap_err()
        }
        for time in ["wtime", "btime", "winc", "binc", "movetime"] {
            let e = err(&format!("{time} -5"));
            assert!(e.contains(&format!("go {time}: -5 is negative")), "{e}");
        }
        assert!(err("depth 0").contains("go depth must be from 1 to 120, not 0"));
        assert!(err("depth 1000").contains("go depth must be from 1 to 120, not 1000"));
        assert!(err("mate 0").contains("go mate must be from 1 to 60"));
        assert!(err("mate 61").contains("go mate must be from 1 to 60"));
        assert!(err("nodes 0").contains("go nodes must be at least 1"));
        assert!(err("movestogo 0").contains("go movestogo must be at least 1"));
        assert!(err("perft 0").contains("go perft must be from 1 to 5, not 0"));
        assert!(err("perft 6").contains("go perft must be from 1 to 5, not 6"));
        assert!(err("nodes 99999999999999999999999").contains("too large"));
        assert!(err("depth +").contains("not a number"));
        // The bounds themselves are in range.
        let go = Go::parse(&["depth", "120", "mate", "60", "nodes", "1", "movestogo", "1"]).unwrap();
        assert_eq!((go.depth, go.mate, go.nodes, go.movestogo), (Some(120), Some(60), Some(1), Some(1)));
        assert_eq!(Go::parse(&["depth", "1"]).unwrap().depth, Some(1));
        assert_eq!(Go::parse(&["perft", "1"]).unwrap().perft, Some(1));
    }

    #[test]
    fn time_limits_never_exceed_the_clock() {
        let overhead = Duration::from_millis(10);
        for time in [0u64, 5, 50, 1000, 60_000, 3_600_000] {
            for inc in [0u64, 100, 5000] {
                for mtg in [None, Some(1), Some(40)] {
                    let go = Go { wtime: Some(time), winc: Some(inc), movestogo: mtg, ..Go::default() };
                    let (soft, hard) = go.time_limits(Color::Red, overhead);
                    let (soft, hard) = (soft.unwrap(), hard.unwrap());
                    assert!(soft <= hard);
                    assert!(hard.as_millis() as u64 <= (time.saturating_sub(10) * 8 / 10).max(1));
                }
            }
        }
        let go = Go { movetime: Some(500), ..Go::default() };
        assert_eq!(go.time_limits(Color::Black, overhead), (None, Some(Duration::from_millis(490))));
        assert_eq!(Go::default().time_limits(Color::Red, overhead), (None, None));
    }
}
