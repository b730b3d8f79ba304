//! A match's results as people and programs read them: the one-line state of a running match ([`status_line`]),
//! the summary as text ([`summary_text`]) and as JSON ([`summary_json`]), and the summed results of match shards as
//! JSON ([`match_json`]). Every number that is not finite (an Elo when every game was won) is JSON's `null`
//! ([`json_number`]).
//!
//! ```
//! use xiangqi_match::report::{json_number, match_json};
//! use xiangqi_match::shard::MatchCounts;
//!
//! let total = MatchCounts { first_game: 0, games: 4, wins: 1, draws: 2, losses: 1, pentanomial: [0, 0, 2, 0, 0] };
//! let j = match_json(&total, 2, None);
//! assert_eq!((j["games"].as_u64(), j["score"].as_f64()), (Some(4), Some(0.5)));
//! assert_eq!(json_number(f64::INFINITY), serde_json::Value::Null);
//! ```

use crate::elo::{self, Sprt, SprtState};
use crate::elo::{Pentanomial, Trinomial};
use crate::runner::{MatchSettings, NoBestMove, SprtDecision, Standing, Summary};
use crate::shard::MatchCounts;
use std::fmt::Write;

/// A number for the JSON summary: `null` unless finite, and never `-0.0`.
pub fn json_number(x: f64) -> serde_json::Value {
    if x.is_finite() {
        serde_json::json!(x + 0.0)
    } else {
        serde_json::Value::Null
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The one-line state of the match, for a progress line.
pub fn status_line(s: &Summary, settings: &MatchSettings) -> String {
    let t = &s.first;
    let (elo, err) = t.elo();
    let mut line = format!(
        "{} games: {} vs others +{} ={} -{}, score {:.3}, Elo {}",
        t.games(),
        settings.engines[0].name,
        t.wins,
        t.draws,
        t.losses,
        t.score(),
        elo::format_elo(elo, err)
    );
    if let (Some(sprt), Some((llr, _))) = (settings.sprt, s.sprt) {
        let (lo, hi) = sprt.bounds();
        line.push_str(&format!(", LLR {llr:.2} ({lo:.2}, {hi:.2})"));
        if let Some(decision) = s.sprt_decision {
            line.push_str(&format!(" {} accepted", decision.state));
        }
    }
    line
}

/// The games by the way they ended, by name.
fn reason_counts(s: &Summary) -> serde_json::Map<String, serde_json::Value> {
    s.reasons.iter().map(|(t, n)| (t.as_str().to_owned(), (*n).into())).collect()
}

/// The summary as one JSON object.
pub fn summary_json(s: &Summary, settings: &MatchSettings) -> serde_json::Value {
    // No Elo without a game (or a pair) to measure it.
    let (elo, err) = if s.first.games() > 0 { s.first.elo() } else { (f64::NAN, f64::NAN) };
    let (pelo, perr) = if s.pairs.pairs() > 0 { s.pairs.elo() } else { (f64::NAN, f64::NAN) };
    let finite = json_number;
    let mut obj = serde_json::json!({
        "engines": settings.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>(),
        "time_control": settings.tc.to_string(),
        "games": s.first.games(),
        "wins": s.first.wins,
        "draws": s.first.draws,
        "losses": s.first.losses,
        "score": finite(s.first.score()),
        "elo": finite(elo),
        "elo_error": finite(err),
        "pentanomial": s.pairs.counts,
        "elo_pentanomial": finite(pelo),
        "elo_error_pentanomial": finite(perr),
        "reasons": reason_counts(s),
        "draw_claims": s.draw_claims,
        "restarts": s.restarts,
        "table": settings.engines.iter().zip(&s.table).map(|(e, t)| {
            serde_json::json!({"name": e.name, "points": t.points, "games": t.games})
        }).collect::<Vec<_>>(),
    });
    if let (Some(sprt), Some((llr, state))) = (settings.sprt, s.sprt) {
        let (lo, hi) = sprt.bounds();
        let decision = s.sprt_decision;
        obj["sprt"] = serde_json::json!({
            "elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta,
            "llr": finite(llr), "llr_trinomial": finite(s.first.llr(sprt.elo0, sprt.elo1)), "lower_bound": lo,
            "upper_bound": hi, "result": decision.map_or(state, |d| d.state).to_string(),
            "decided_at_games": decision.map(|d| d.games), "decided_llr": decision.map(|d| finite(d.llr)),
        });
    }
    obj
}

/// The summed results of match shards as JSON: W/D/L, the pentanomial pairs, Elo, and the SPRT when asked.
pub fn match_json(total: &MatchCounts, shards: u64, sprt: Option<&Sprt>) -> serde_json::Value {
    let tri = Trinomial { wins: total.wins, draws: total.draws, losses: total.losses };
    let penta = Pentanomial { counts: total.pentanomial };
    let (elo, err) = penta.elo();
    let mut j = serde_json::json!({
        "kind": "match", "shards": shards, "games": total.games, "wins": tri.wins, "draws": tri.draws,
        "losses": tri.losses, "pentanomial": total.pentanomial, "score": json_number(tri.score()),
        "elo_pentanomial": json_number(elo), "elo_error_pentanomial": json_number(err),
    });
    if let Some(s) = sprt {
        let llr = penta.llr(s.elo0, s.elo1);
        let (lo, hi) = s.bounds();
        let state = match s.state(llr) {
            SprtState::AcceptH0 => "H0",
            SprtState::AcceptH1 => "H1",
            SprtState::Continue => "continue",
        };
        j["sprt"] = serde_json::json!({
            "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
            "llr": json_number(llr), "lower_bound": lo, "upper_bound": hi, "result": state,
        });
    }
    j
}

/// The match's summary as text, as `xiangqi match` prints it: the table, the first engine's results and Elo, the
/// SPRT, the games by the way they ended; `seconds` is how long the match took.
pub fn summary_text(summary: &Summary, settings: &MatchSettings, seconds: u64) -> String {
    let mut out = String::new();
    let _ = write_summary(&mut out, summary, settings, seconds);
    out
}

fn write_summary(out: &mut String, summary: &Summary, settings: &MatchSettings, seconds: u64) -> std::fmt::Result {
    writeln!(out, "Time control: {} (the match took {seconds} s)", settings.tc.describe())?;
    let mut rows: Vec<(usize, &Standing)> = summary.table.iter().enumerate().collect();
    rows.sort_by(|a, b| b.1.score().total_cmp(&a.1.score()));
    writeln!(out, "{:<4} {:<32} {:>8} {:>6} {:>7}", "rank", "engine", "points", "games", "score")?;
    for (rank, (i, t)) in rows.iter().enumerate() {
        writeln!(
            out,
            "{:<4} {:<32} {:>8.1} {:>6} {:>6.1}%",
            rank + 1,
            settings.engines[*i].name,
            t.points,
            t.games,
            t.score() * 100.0
        )?;
    }
    let t = &summary.first;
    let (elo, err) = t.elo();
    writeln!(
        out,
        "{}: W {} D {} L {} of {} games, score {:.3}",
        settings.engines[0].name,
        t.wins,
        t.draws,
        t.losses,
        t.games(),
        t.score()
    )?;
    let versus = match &settings.engines[..] {
        [a, b] => format!("{} over {}", a.name, b.name),
        [a, ..] => format!("{} over the others", a.name),
        [] => String::new(),
    };
    writeln!(out, "Elo of {versus}: {} (95% interval, game by game)", elo_words(elo, err))?;
    if summary.pairs.pairs() > 0 {
        let (pelo, perr) = summary.pairs.elo();
        writeln!(
            out,
            "Game pairs scoring [0, ½, 1, 1½, 2]: {:?}; Elo of {versus}: {} (95% interval, pair by pair)",
            summary.pairs.counts,
            elo_words(pelo, perr)
        )?;
    }
    if let (Some(sprt), Some((llr, _))) = (settings.sprt, summary.sprt) {
        let (lo, hi) = sprt.bounds();
        let verdict = match summary.sprt_decision {
            Some(SprtDecision { games, llr: at, state: SprtState::AcceptH1 }) => {
                format!("H1 accepted after {games} games (LLR {at:.3})")
            }
            Some(SprtDecision { games, llr: at, .. }) => format!("H0 accepted after {games} games (LLR {at:.3})"),
            None => "no decision".to_owned(),
        };
        writeln!(
            out,
            "SPRT [{}, {}] alpha {} beta {}: LLR {llr:.3} ({lo:.3}, {hi:.3}): {verdict}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        )?;
    }
    let reasons: Vec<String> = summary.reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    writeln!(out, "Ended by: {}", reasons.join(", "))?;
    if summary.draw_claims > 0 {
        let counted = match settings.nobestmove {
            NoBestMove::Draw => "counted as draws",
            NoBestMove::Forfeit => "counted as the claimer's losses (--nobestmove forfeit)",
        };
        writeln!(out, "Draw claims (nobestmove in a position with legal moves): {}, {counted}", summary.draw_claims)?;
    }
    if summary.restarts > 0 {
        writeln!(out, "Engine restarts: {}", summary.restarts)?;
    }
    Ok(())
}

/// An Elo difference with its error, and what an infinite one means.
pub fn elo_words(elo: f64, err: f64) -> String {
    let text = elo::format_elo(elo, err);
    if elo.is_infinite() {
        let who = if elo > 0.0 { "won" } else { "lost" };
        format!("{text} (every one {who}: no finite estimate)")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineConfig, TimeControl};

    /// Two engines (never started) at 100 nodes a move.
    fn settings() -> MatchSettings {
        let engine = |name: &str| EngineConfig::parse(&["cmd=x".to_owned(), format!("name={name}")]).unwrap();
        MatchSettings::new(vec![engine("a"), engine("b")], TimeControl::Nodes(100))
    }

    #[test]
    fn json_has_null_for_an_infinite_elo_or_no_pair_and_never_minus_zero() {
        let settings = settings();
        // Every game won, no pair finished yet.
        let s = Summary { first: Trinomial { wins: 3, draws: 0, losses: 0 }, ..Summary::default() };
        let j = summary_json(&s, &settings);
        assert_eq!((j["elo"].is_null(), j["elo_error"].is_null()), (true, true), "{j}");
        assert!(j["elo_pentanomial"].is_null() && j["elo_error_pentanomial"].is_null(), "{j}");
        assert_eq!(j["score"], 1.0);
        // Every pair won twice.
        let s = Summary {
            first: Trinomial { wins: 4, draws: 0, losses: 0 },
            pairs: Pentanomial { counts: [0, 0, 0, 0, 2] },
            ..Summary::default()
        };
        let j = summary_json(&s, &settings);
        assert!(j["elo_pentanomial"].is_null() && j["elo_error_pentanomial"].is_null(), "{j}");
        // Only draws: Elo 0 (not -0) with no spread.
        let s = Summary {
            first: Trinomial { wins: 0, draws: 4, losses: 0 },
            pairs: Pentanomial { counts: [0, 0, 2, 0, 0] },
            ..Summary::default()
        };
        let j = summary_json(&s, &settings);
        for key in ["elo", "elo_error", "elo_pentanomial", "elo_error_pentanomial"] {
            assert_eq!(serde_json::to_string(&j[key]).unwrap(), "0.0", "{key}: {j}");
        }
        assert_eq!(json_number(-0.0).to_string(), "0.0");
        assert_eq!(json_number(f64::NAN), serde_json::Value::Null);
        assert_eq!(json_number(f64::NEG_INFINITY), serde_json::Value::Null);
    }

    #[test]
    fn status_line_prints_an_infinite_elo_without_an_error_bar() {
        let settings = settings();
        let s = Summary { first: Trinomial { wins: 0, draws: 0, losses: 2 }, ..Summary::default() };
        let line = status_line(&s, &settings);
        assert!(line.ends_with("score 0.000, Elo -inf"), "{line}");
        let s = Summary { first: Trinomial { wins: 0, draws: 2, losses: 0 }, ..Summary::default() };
        let line = status_line(&s, &settings);
        assert!(line.ends_with("score 0.500, Elo +0.0 ± 0.0"), "{line}");
    }

    #[test]
    fn thousands_groups_digits_by_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
