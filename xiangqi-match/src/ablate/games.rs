//! The games of a pairing, played in batches by the match runner of `xiangqi-match`, and the rounds of batches of
//! every pairing ([`play`]).

use super::results::{batch_line, Tally};
use super::{engine, short, Pairing, Plan};
use crate::clock::TimeControl;
use crate::elo::SprtState;
use crate::engine::EngineProcess;
use crate::openings::{for_pair, Opening};
use crate::runner::MatchSettings;
use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;
use xiangqi_core::Color;

/// Starts each engine of the plan's pairings once (`program` with each variant) and quits it: a variant the engine
/// refuses is an error before any game.
pub fn check_engines(program: &str, plan: &Plan) -> Result<(), String> {
    for p in &plan.pairings {
        for variant in [p.with, p.without] {
            let e = EngineProcess::start(&engine(program, &variant, plan.hash), Duration::from_secs(60))
                .map_err(|e| format!("engine {variant}: {e}"))?;
            e.quit();
        }
    }
    Ok(())
}

/// How [`play`] ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// Batches played.
    pub batches: usize,
    /// Whether it stopped at the most batches asked for with games left to play.
    pub stopped: bool,
}

/// Plays the games of every pairing at `tc` in batches of `batch` games, one batch of each pairing in turn (so
/// every pairing's figures grow together), until each pairing has played the plan's games or its SPRT has decided,
/// or `max_batches` batches are played. After each batch its line ([`batch_line`]) is appended to `out`, its games
/// are added to the pairing's tally and `progress(pairing, tally)` is called.
///
/// # Errors
/// When `out` cannot be written or a batch does not fit its tally.
pub fn play(
    program: &str,
    plan: &Plan,
    tc: TimeControl,
    tallies: &mut [Tally],
    (batch, max_batches): (usize, Option<usize>),
    mut out: Option<&mut dyn Write>,
    progress: &mut dyn FnMut(&Pairing, &Tally),
) -> Result<Played, String> {
    let mut batches = 0;
    loop {
        let mut played = false;
        for (p, tally) in plan.pairings.iter().zip(tallies.iter_mut()) {
            let first = tally.games();
            let count = batch.min(plan.games.saturating_sub(first));
            let decided = plan.sprt_of(tally).is_some_and(|(_, s)| s != SprtState::Continue);
            if count == 0 || decided {
                continue;
            }
            if max_batches.is_some_and(|m| batches >= m) {
                return Ok(Played { batches, stopped: true });
            }
            let (scores, reasons) = play_batch(program, plan, p, tc, first, count);
            if let Some(f) = out.as_mut() {
                let line = batch_line(plan, p, &tc, first, &scores, &reasons);
                f.write_all(format!("{line}\n").as_bytes())
                    .and_then(|_| f.flush())
                    .map_err(|e| format!("the results file: {e}"))?;
            }
            tally.add_batch(first, &scores, reasons)?;
            batches += 1;
            played = true;
            progress(p, tally);
        }
        if !played {
            return Ok(Played { batches, stopped: false });
        }
    }
}

/// Plays games `first..first + count` of a pairing with the engine `program`; returns the scores of the side with the technique, by game,
/// and the reasons the games ended.
pub fn play_batch(
    program: &str,
    plan: &Plan,
    p: &Pairing,
    tc: TimeControl,
    first: usize,
    count: usize,
) -> (Vec<u8>, BTreeMap<String, u64>) {
    // Game `first + i` is game `i` of this batch's match, which the schedule gives the opening `i / 2`: the
    // opening of the game pair `(first + i) / 2`.
    let openings: Vec<Opening> = (first / 2..(first + count).div_ceil(2))
        .map(|pair| for_pair(&plan.openings, pair, plan.random_plies))
        .collect();
    let engines = vec![engine(program, &p.with, plan.hash), engine(program, &p.without, plan.hash)];
    let mut settings = MatchSettings::new(engines, tc);
    settings.openings = openings;
    settings.games = count;
    settings.concurrency = plan.concurrency.min(count);
    settings.timeout = Duration::from_secs(60);
    settings.event = format!("xiangqi ablate: {} with and without {}", short(&plan.base), p.technique);
    let mut scores = vec![b'-'; count];
    let mut reasons = BTreeMap::new();
    let with_name = p.with.to_string();
    crate::run(&settings, |game, _| {
        let with = if game.red == with_name { Color::Red } else { Color::Black };
        scores[game.round - 1] = match game.points(with) {
            1.0 => b'1',
            0.0 => b'0',
            _ => b'=',
        };
        *reasons.entry(game.termination.as_str().to_owned()).or_insert(0) += 1;
    });
    (scores, reasons)
}
