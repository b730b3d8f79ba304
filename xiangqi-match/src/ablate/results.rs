//! The results file (`--out`, JSON lines): the tally of each pairing's games, one line appended after each batch,
//! and the file read again to resume a run.

use super::{Pairing, Plan};
use crate::clock::TimeControl;
use crate::elo::{Pentanomial, Trinomial};
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

/// The games of one pairing so far.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Game scores of the side with the technique, by game index ('1', '=', '0'; '-' not played).
    pub scores: Vec<u8>,
    /// Games ended by each reason.
    pub reasons: BTreeMap<String, u64>,
    /// Batches read from the file or played.
    pub batches: usize,
}

/// More games a pairing than any run plays: a results file that says otherwise was damaged (and is not believed
/// to the extent of allocating room for them).
const MAX_GAMES: usize = 100_000_000;

impl Tally {
    /// Games played: the first index not played yet (batches are contiguous).
    pub fn games(&self) -> usize {
        self.scores.iter().filter(|&&c| c != b'-').count()
    }

    /// The games of the side with the technique: its wins, draws and losses.
    pub fn trinomial(&self) -> Trinomial {
        let mut t = Trinomial::default();
        for &c in &self.scores {
            match c {
                b'1' => t.wins += 1,
                b'=' => t.draws += 1,
                b'0' => t.losses += 1,
                _ => {}
            }
        }
        t
    }

    /// The colour-reversed pairs of the side with the technique, by score.
    pub fn pentanomial(&self) -> Pentanomial {
        let mut p = Pentanomial::default();
        let value = |c: u8| match c {
            b'1' => Some(1.0),
            b'=' => Some(0.5),
            b'0' => Some(0.0),
            _ => None,
        };
        for pair in self.scores.chunks(2) {
            if let [a, b] = pair {
                if let (Some(a), Some(b)) = (value(*a), value(*b)) {
                    p.add(a, b);
                }
            }
        }
        p
    }

    /// Elo and 95% error of the side with the technique, pair by pair (NaN without a pair).
    pub fn elo(&self) -> (f64, f64) {
        let p = self.pentanomial();
        if p.pairs() == 0 {
            (f64::NAN, f64::NAN)
        } else {
            p.elo()
        }
    }

    /// Counts a batch: the scores of games `first..first + scores.len()` and the reasons they ended by; an error
    /// when a game was recorded before.
    ///
    /// # Errors
    /// When a game was recorded before, or a score is not `1`, `=` or `0`.
    pub fn add_batch(&mut self, first: usize, scores: &[u8], reasons: BTreeMap<String, u64>) -> Result<(), String> {
        self.record(first, scores)?;
        for (r, c) in reasons {
            *self.reasons.entry(r).or_default() += c;
        }
        self.batches += 1;
        Ok(())
    }

    /// Records the scores of games `first..first + scores.len()`; an error when one was recorded before.
    fn record(&mut self, first: usize, scores: &[u8]) -> Result<(), String> {
        let end = first.checked_add(scores.len()).filter(|&end| end <= MAX_GAMES);
        let Some(end) = end else {
            return Err(format!("games {first}.. are beyond any run (at most {MAX_GAMES} games a pairing)"));
        };
        if self.scores.len() < end {
            self.scores.resize(end, b'-');
        }
        for (i, &c) in scores.iter().enumerate() {
            if !matches!(c, b'1' | b'=' | b'0') {
                return Err(format!("game {}: score {:?} is not 1, = or 0", first + i, c as char));
            }
            if self.scores[first + i] != b'-' {
                return Err(format!("game {} is recorded twice", first + i));
            }
            self.scores[first + i] = c;
        }
        Ok(())
    }
}

/// The key of a pairing in the results file: both variants, the time control and the openings' random plies.
pub fn key(p: &Pairing, tc: &TimeControl, plies: usize) -> (String, String, String, u64) {
    (p.with.to_string(), p.without.to_string(), tc.to_string(), plies as u64)
}

/// Reads the results file (if it exists) into one tally per pairing; lines of other pairings or time controls are
/// kept but not counted.
///
/// # Errors
/// When the file cannot be read, a line is no batch line, or a pairing's games have a gap.
pub fn resume(path: &Path, plan: &Plan, tc: &TimeControl) -> Result<Vec<Tally>, String> {
    let mut tallies = vec![Tally::default(); plan.pairings.len()];
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(tallies),
        Err(e) => return Err(format!("--out {}: {e}", path.display())),
    };
    let lines: Vec<String> = std::io::BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--out {}: {e}", path.display()))?;
    let last = lines.len();
    for (n, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |why: &str| format!("--out {} line {}: {why}", path.display(), n + 1);
        let v: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            // A line cut short by a stop during the write: its games are played again.
            Err(_) if n + 1 == last => {
                eprintln!("warning: {}", bad("unfinished last line skipped (its batch is played again)"));
                continue;
            }
            Err(e) => return Err(bad(&format!("not JSON ({e})"))),
        };
        let text = |k: &str| v[k].as_str().map(str::to_owned).ok_or_else(|| bad(&format!("no {k:?}")));
        let found = (text("with")?, text("without")?, text("tc")?, v["random_plies"].as_u64().unwrap_or(0));
        let Some(i) = plan.pairings.iter().position(|p| key(p, tc, plan.random_plies) == found) else {
            continue;
        };
        let first = v["first"].as_u64().ok_or_else(|| bad("no \"first\""))? as usize;
        let scores = text("scores")?;
        let reasons = v["reasons"].as_object().into_iter().flatten();
        let reasons = reasons.map(|(r, c)| (r.clone(), c.as_u64().unwrap_or(0))).collect();
        tallies[i].add_batch(first, scores.as_bytes(), reasons).map_err(|e| bad(&e))?;
    }
    for (t, p) in tallies.iter().zip(&plan.pairings) {
        if t.scores.contains(&b'-') {
            return Err(format!(
                "--out {}: the games of {} have a gap (the file was edited?)",
                path.display(),
                p.technique
            ));
        }
    }
    Ok(tallies)
}

/// The line of the results file for one batch: the pairing, the time control, the first game's index, the scores
/// of the side with the technique and the reasons the games ended by.
pub fn batch_line(
    plan: &Plan,
    p: &Pairing,
    tc: &TimeControl,
    first: usize,
    scores: &[u8],
    reasons: &BTreeMap<String, u64>,
) -> serde_json::Value {
    serde_json::json!({
        "base": plan.base.to_string(), "technique": p.technique, "with": p.with.to_string(),
        "without": p.without.to_string(), "tc": tc.to_string(), "random_plies": plan.random_plies,
        "first": first,
        "scores": String::from_utf8_lossy(scores), "reasons": reasons,
    })
}
