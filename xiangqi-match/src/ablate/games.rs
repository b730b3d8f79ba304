//! The games of a pairing, played in batches by the match runner of `xiangqi-match`.

use super::{engine, short, Pairing, Plan};
use crate::clock::TimeControl;
use crate::openings::{for_pair, Opening};
use crate::runner::MatchSettings;
use std::collections::BTreeMap;
use std::time::Duration;
use xiangqi_core::Color;

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
