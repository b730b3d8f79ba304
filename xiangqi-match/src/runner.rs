//! Playing the games of a match: the schedule, one game between two engine processes, and the workers that play
//! `concurrency` games at a time.

use crate::adjudication::{DrawAdjudication, ResignAdjudication};
use crate::clock::TimeControl;
use crate::elo::{Pentanomial, Sprt, SprtState, Trinomial};
use crate::engine::{BestMove, EngineConfig, EngineProcess, ProcessError, Protocol, MATE_SCORE};
use crate::game::{PlayedGame, Termination};
use crate::openings::Opening;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};
use xiangqi_core::{Color, Move};

/// What a UCCI `nobestmove` in a position with legal moves counts as ([`Termination::DrawClaim`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NoBestMove {
    /// A draw: the engine's claim that its own rules draw the position is accepted.
    #[default]
    Draw,
    /// The claiming engine's loss: the claim is refused, as the rules of this crate see a game that goes on.
    Forfeit,
}

/// A text that is neither `draw` nor `forfeit` ([`NoBestMove`]'s `FromStr`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: expected draw or forfeit")]
pub struct ParseNoBestMoveError(pub String);

impl std::str::FromStr for NoBestMove {
    type Err = ParseNoBestMoveError;

    /// `draw` or `forfeit`.
    fn from_str(text: &str) -> Result<NoBestMove, ParseNoBestMoveError> {
        match text {
            "draw" => Ok(NoBestMove::Draw),
            "forfeit" => Ok(NoBestMove::Forfeit),
            _ => Err(ParseNoBestMoveError(text.to_owned())),
        }
    }
}

impl std::fmt::Display for NoBestMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NoBestMove::Draw => "draw",
            NoBestMove::Forfeit => "forfeit",
        })
    }
}

/// Everything a match needs. [`MatchSettings::new`] gives the defaults; the fields are public, to be set as wanted.
#[derive(Debug, Clone)]
pub struct MatchSettings {
    /// Two or more engines.
    pub engines: Vec<EngineConfig>,
    /// The time control of every engine.
    pub tc: TimeControl,
    /// The openings, used in order (and again from the first when all are used).
    pub openings: Vec<Opening>,
    /// Games to play (fewer if an SPRT stops first).
    pub games: usize,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Resign adjudication.
    pub resign: Option<ResignAdjudication>,
    /// Draw adjudication.
    pub draw: Option<DrawAdjudication>,
    /// The test that may stop the match early.
    pub sprt: Option<Sprt>,
    /// Time an engine may overstep its clock or move time before it loses on time.
    pub margin: Duration,
    /// Longest wait for an answer that no clock bounds (handshake, readiness, fixed-node or fixed-depth moves).
    pub timeout: Duration,
    /// The `Event` tag of the records.
    pub event: String,
    /// What a UCCI `nobestmove` in a live position counts as.
    pub nobestmove: NoBestMove,
}

impl MatchSettings {
    /// A match of `engines` at `tc` with the defaults: the built-in openings, each with both colours for every
    /// pairing of engines, one game at a time, no adjudication by score, no SPRT, 100 ms of grace on a clock, 30 s
    /// for an answer no clock bounds, the event `xiangqi match`, a `nobestmove` counted as a draw.
    pub fn new(engines: Vec<EngineConfig>, tc: TimeControl) -> MatchSettings {
        let openings = crate::openings::builtin();
        let pairings = engines.len() * engines.len().saturating_sub(1) / 2;
        MatchSettings {
            games: 2 * openings.len() * pairings,
            engines,
            tc,
            openings,
            concurrency: 1,
            resign: None,
            draw: None,
            sprt: None,
            margin: Duration::from_millis(100),
            timeout: Duration::from_secs(30),
            event: "xiangqi match".to_owned(),
            nobestmove: NoBestMove::Draw,
        }
    }
}

/// One scheduled game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// The game's index, from 0.
    pub index: usize,
    /// The pair (same opening, same engines, colours reversed) it belongs to.
    pub pair: usize,
    /// The engine with Red.
    pub red: usize,
    /// The engine with Black.
    pub black: usize,
    /// The opening.
    pub opening: usize,
}

/// Every unordered pair of engines, each played with both colours on each opening.
pub fn job(index: usize, engines: usize, openings: usize) -> Job {
    let pairings: Vec<(usize, usize)> = (0..engines).flat_map(|i| (i + 1..engines).map(move |j| (i, j))).collect();
    let pair = index / 2;
    let (i, j) = pairings[pair % pairings.len()];
    let round = pair / pairings.len();
    let (red, black) = if index % 2 == 0 { (i, j) } else { (j, i) };
    Job { index, pair, red, black, opening: round % openings }
}

/// What one game left behind: its record and how many engine processes were restarted for it.
struct Finished {
    job: Job,
    record: PlayedGame,
    restarts: usize,
}

/// One engine's line of the match table.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Standing {
    /// Points: 1 a win, ½ a draw.
    pub points: f64,
    /// Games played.
    pub games: u64,
}

impl Standing {
    /// Points per game (0 with no game).
    pub fn score(&self) -> f64 {
        if self.games > 0 {
            self.points / self.games as f64
        } else {
            0.0
        }
    }
}

/// The moment an SPRT first crossed one of its bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtDecision {
    /// The first engine's games counted then.
    pub games: u64,
    /// The LLR then.
    pub llr: f64,
    /// The hypothesis accepted ([`SprtState::AcceptH0`] or [`SprtState::AcceptH1`]).
    pub state: SprtState,
}

/// The totals of a match, from the first engine's side.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// The first engine's games, game by game.
    pub first: Trinomial,
    /// The first engine's colour-reversed pairs.
    pub pairs: Pentanomial,
    /// Every engine's points and games, in the order of [`MatchSettings::engines`].
    pub table: Vec<Standing>,
    /// Games by the way they ended.
    pub reasons: BTreeMap<Termination, u64>,
    /// Games in which an engine claimed a draw with `nobestmove` (however [`MatchSettings::nobestmove`] counted
    /// them).
    pub draw_claims: u64,
    /// Engine processes restarted after a crash, timeout or disconnect.
    pub restarts: usize,
    /// The SPRT's last LLR and what it says.
    pub sprt: Option<(f64, SprtState)>,
    /// When the SPRT first crossed a bound. Games already under way finish and are counted after it, so the final
    /// LLR may move back inside the bounds; the decision stands.
    pub sprt_decision: Option<SprtDecision>,
}

/// Plays the match, calling `on_game` with each finished game and the totals so far (in the order games finish).
///
/// Each of `concurrency` workers owns its own engine processes and plays one game at a time; a process that
/// crashes, times out or disconnects loses that game and is started again for the next. An SPRT that decides stops
/// the match (games already under way finish and are counted).
pub fn run(settings: &MatchSettings, on_game: impl FnMut(&PlayedGame, &Summary)) -> Summary {
    run_range(settings, 0..settings.games, on_game)
}

/// Plays the games of the schedule whose indices are in `games` (a shard of a match), as [`run`] plays them all:
/// each game is the one [`job`] gives its index, so the shards `0..a`, `a..b`, ... of one match play between them
/// the games of the whole match. A range that starts and ends on an even index holds whole colour-reversed pairs.
pub fn run_range(
    settings: &MatchSettings,
    games: std::ops::Range<usize>,
    mut on_game: impl FnMut(&PlayedGame, &Summary),
) -> Summary {
    let next = AtomicUsize::new(games.start);
    let stop = AtomicBool::new(false);
    let n = settings.engines.len();
    let mut summary = Summary { table: vec![Standing::default(); n], ..Summary::default() };
    let mut pending: HashMap<usize, f64> = HashMap::new();
    let (tx, rx) = channel::<Finished>();
    std::thread::scope(|scope| {
        for _ in 0..settings.concurrency.max(1) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut procs: Vec<Option<EngineProcess>> = (0..n).map(|_| None).collect();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games.end {
                        break;
                    }
                    let job = job(index, n, settings.openings.len());
                    let (record, restarts) = play(settings, &mut procs, job);
                    if tx.send(Finished { job, record, restarts }).is_err() {
                        break;
                    }
                }
                for p in procs.into_iter().flatten() {
                    p.quit();
                }
            });
        }
        drop(tx);
        for f in rx {
            let red_points = match f.record.winner {
                Some(Color::Red) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
            summary.table[f.job.red].points += red_points;
            summary.table[f.job.black].points += 1.0 - red_points;
            summary.table[f.job.red].games += 1;
            summary.table[f.job.black].games += 1;
            *summary.reasons.entry(f.record.termination).or_default() += 1;
            summary.draw_claims += u64::from(f.record.termination == Termination::DrawClaim);
            summary.restarts += f.restarts;
            let first = match (f.job.red, f.job.black) {
                (0, _) => Some(red_points),
                (_, 0) => Some(1.0 - red_points),
                _ => None,
            };
            if let Some(p) = first {
                match p {
                    1.0 => summary.first.wins += 1,
                    0.0 => summary.first.losses += 1,
                    _ => summary.first.draws += 1,
                }
                if let Some(other) = pending.remove(&f.job.pair) {
                    summary.pairs.add(other, p);
                } else {
                    pending.insert(f.job.pair, p);
                }
            }
            if let Some(sprt) = &settings.sprt {
                let llr = summary.pairs.llr(sprt.elo0, sprt.elo1);
                let state = sprt.state(llr);
                summary.sprt = Some((llr, state));
                if state != SprtState::Continue && summary.sprt_decision.is_none() {
                    summary.sprt_decision = Some(SprtDecision { games: summary.first.games(), llr, state });
                    stop.store(true, Ordering::Relaxed);
                }
            }
            on_game(&f.record, &summary);
        }
    });
    summary
}

/// The engine process `i` of this worker, started (again) if it is not running.
fn engine<'a>(
    settings: &MatchSettings,
    procs: &'a mut [Option<EngineProcess>],
    i: usize,
    restarts: &mut usize,
) -> Result<&'a mut EngineProcess, ProcessError> {
    if procs[i].as_mut().is_some_and(|p| !p.alive()) {
        procs[i] = None;
        *restarts += 1;
    }
    if procs[i].is_none() {
        procs[i] = Some(EngineProcess::start(&settings.engines[i], settings.timeout)?);
    }
    Ok(procs[i].as_mut().expect("just started"))
}

/// Converts milliseconds for a UCCI engine that counts seconds: whole seconds, rounded down, so that the engine
/// never believes it has more time than it has (a zero increment stays zero; less than a second left is 0).
fn ucci_time(ms: u64, millis: bool) -> u64 {
    if millis {
        ms
    } else {
        ms / 1000
    }
}

/// The `go` command for the side `us`, with the clocks (`left`: remaining ms; `done`: moves made) of both sides.
fn go_command(tc: TimeControl, protocol: Protocol, millis: bool, us: Color, left: [u64; 2], done: [u32; 2]) -> String {
    let (me, them) = match us {
        Color::Red => (0, 1),
        Color::Black => (1, 0),
    };
    match (tc, protocol) {
        (TimeControl::Nodes(n), _) => format!("go nodes {n}"),
        (TimeControl::Depth(d), _) => format!("go depth {d}"),
        (TimeControl::MoveTime(t), Protocol::Uci) => format!("go movetime {}", t.as_millis()),
        (TimeControl::MoveTime(t), Protocol::Ucci) => {
            format!("go time {} movestogo 1", ucci_time(t.as_millis() as u64, millis))
        }
        (TimeControl::Clock { moves, inc, .. }, Protocol::Uci) => {
            let inc = inc.as_millis();
            let mut s = format!("go wtime {} btime {} winc {inc} binc {inc}", left[0], left[1]);
            if let Some(m) = moves {
                s.push_str(&format!(" movestogo {}", m - done[me] % m));
            }
            s
        }
        (TimeControl::Clock { moves, inc, .. }, Protocol::Ucci) => {
            let t = |ms| ucci_time(ms, millis);
            let inc = t(inc.as_millis() as u64);
            match moves {
                Some(m) => format!(
                    "go time {} movestogo {} opptime {} oppmovestogo {}",
                    t(left[me]),
                    m - done[me] % m,
                    t(left[them]),
                    m - done[them] % m
                ),
                None => format!("go time {} increment {inc} opptime {} oppincrement {inc}", t(left[me]), t(left[them])),
            }
        }
    }
}

/// Plays one game; returns its record and the number of engine restarts it needed.
fn play(settings: &MatchSettings, procs: &mut [Option<EngineProcess>], job: Job) -> (PlayedGame, usize) {
    let opening = &settings.openings[job.opening];
    let mut game = opening.game();
    let start = game.start().clone();
    let mut moves: Vec<Move> = game.moves().to_vec();
    let sides = [job.red, job.black];
    let side_index = |c: Color| if c == Color::Red { 0 } else { 1 };
    let name = |c: Color| settings.engines[sides[side_index(c)]].name.clone();
    let mut restarts = 0;
    let mut end: Option<(Option<Color>, Termination, String)> = None;
    for c in [Color::Red, Color::Black] {
        if end.is_some() {
            break;
        }
        let i = sides[side_index(c)];
        let ready = engine(settings, procs, i, &mut restarts).and_then(|e| e.new_game(settings.timeout));
        if let Err(e) = ready {
            procs[i] = None;
            restarts += 1;
            end = Some((Some(!c), e.termination(), format!("{} {e}", name(c))));
        }
    }
    let (base, inc) = match settings.tc {
        TimeControl::Clock { base, inc, .. } => (base.as_millis() as u64, inc.as_millis() as u64),
        _ => (0, 0),
    };
    let mut left = [base; 2];
    let mut done = [0u32; 2];
    let mut resign_count = [0u32; 2];
    let mut draw_count = 0u32;
    while end.is_none() {
        if let Some(r) = game.result() {
            end = Some((r.winner, Termination::Rules(r.reason), r.to_string()));
            break;
        }
        let us = game.position().turn();
        let me = side_index(us);
        let i = sides[me];
        let position = if moves.is_empty() {
            format!("position fen {}", start.fen())
        } else {
            let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
            format!("position fen {} moves {}", start.fen(), moves.join(" "))
        };
        let margin = settings.margin.as_millis() as u64;
        let allowed = match settings.tc {
            TimeControl::Clock { .. } => Duration::from_millis(left[me] + margin),
            TimeControl::MoveTime(t) => t + settings.margin,
            TimeControl::Nodes(_) | TimeControl::Depth(_) => settings.timeout,
        };
        // The engine started the game: one that has died since loses it (a new process is the next game's).
        let answer = procs[i].as_mut().ok_or(ProcessError::Disconnect).and_then(EngineProcess::running).and_then(|e| {
            let go = go_command(settings.tc, e.protocol(), e.millis(), us, left, done);
            e.think(&position, &go, Instant::now() + allowed)
        });
        let bm: BestMove = match answer {
            Ok(bm) => bm,
            Err(e) => {
                // The process is not to be trusted any more (still thinking, exited or deaf): the next game gets a
                // new one.
                procs[i] = None;
                restarts += 1;
                let detail = match &e {
                    ProcessError::Timeout => format!("{} loses on time ({} ms allowed)", name(us), allowed.as_millis()),
                    e => format!("{} {e}", name(us)),
                };
                end = Some((Some(!us), e.termination(), detail));
                break;
            }
        };
        if let TimeControl::Clock { moves: period, base: period_time, .. } = settings.tc {
            let used = bm.elapsed.as_millis() as u64;
            left[me] = left[me].saturating_sub(used) + inc;
            done[me] += 1;
            if period.is_some_and(|m| done[me] % m == 0) {
                left[me] += period_time.as_millis() as u64;
            }
        }
        if bm.resign {
            end = Some((Some(!us), Termination::Resign, format!("{} resigns", name(us))));
            break;
        }
        if bm.claims_draw {
            let (winner, counted) = match settings.nobestmove {
                NoBestMove::Draw => (None, "counted as a draw"),
                NoBestMove::Forfeit => (Some(!us), "counted as its loss"),
            };
            let detail = format!("{} claims a draw (nobestmove) in a position with legal moves, {counted}", name(us));
            end = Some((winner, Termination::DrawClaim, detail));
            break;
        }
        let Some(text) = bm.mv else {
            let detail = format!("{} gives no move (bestmove (none)) in a live position", name(us));
            end = Some((Some(!us), Termination::NoMove, detail));
            break;
        };
        match game.play(&text) {
            Ok(m) => moves.push(m),
            Err(e) => {
                let detail = format!("{} plays the illegal move {text:?} ({e})", name(us));
                end = Some((Some(!us), Termination::IllegalMove, detail));
                break;
            }
        }
        if let (Some(score), Some(adj)) = (bm.score, settings.resign) {
            resign_count[me] = if score <= -adj.score { resign_count[me] + 1 } else { 0 };
            if resign_count[me] >= adj.movecount && game.result().is_none() {
                let detail = format!("{} adjudicated lost (its score {score})", name(us));
                end = Some((Some(!us), Termination::AdjudicationResign, detail));
                break;
            }
        }
        if let Some(adj) = settings.draw {
            let quiet = bm.score.is_some_and(|s| s.abs() <= adj.score && s.abs() < MATE_SCORE / 2);
            draw_count = if quiet && game.position().fullmoves() >= adj.movenumber { draw_count + 1 } else { 0 };
            if draw_count >= 2 * adj.movecount && game.result().is_none() {
                end = Some((None, Termination::AdjudicationDraw, "draw by adjudication".to_owned()));
                break;
            }
        }
    }
    let (winner, termination, detail) = end.expect("the loop ends with a result");
    let record = PlayedGame {
        round: job.index + 1,
        red: settings.engines[job.red].name.clone(),
        black: settings.engines[job.black].name.clone(),
        start,
        opening_plies: opening.moves.len(),
        moves,
        winner,
        termination,
        detail,
        time_control: settings.tc,
    };
    (record, restarts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_make_go_commands() {
        let tc = TimeControl::parse_clock("40/10+0.1").unwrap();
        let go = |tc, p, millis, us| go_command(tc, p, millis, us, [9000, 8000], [3, 2]);
        assert_eq!(go(tc, Protocol::Uci, false, Color::Red), "go wtime 9000 btime 8000 winc 100 binc 100 movestogo 37");
        assert_eq!(
            go(tc, Protocol::Ucci, true, Color::Black),
            "go time 8000 movestogo 38 opptime 9000 oppmovestogo 37"
        );
        let sd = TimeControl::parse_clock("10+2").unwrap();
        assert_eq!(go(sd, Protocol::Ucci, false, Color::Red), "go time 9 increment 2 opptime 8 oppincrement 2");
        let st = TimeControl::MoveTime(Duration::from_millis(250));
        assert_eq!(go(st, Protocol::Uci, false, Color::Red), "go movetime 250");
        assert_eq!(go(st, Protocol::Ucci, true, Color::Red), "go time 250 movestogo 1");
        // An engine counting seconds is never told of more time than it has, nor of an increment there is not.
        assert_eq!(go(st, Protocol::Ucci, false, Color::Red), "go time 0 movestogo 1");
        let no_inc = TimeControl::parse_clock("10+0").unwrap();
        assert_eq!(go(no_inc, Protocol::Ucci, false, Color::Red), "go time 9 increment 0 opptime 8 oppincrement 0");
        assert_eq!(go(TimeControl::Nodes(5000), Protocol::Ucci, true, Color::Red), "go nodes 5000");
        assert_eq!(go(TimeControl::Depth(7), Protocol::Uci, true, Color::Red), "go depth 7");
    }

    #[test]
    fn schedule_pairs_colours_and_openings() {
        let jobs: Vec<Job> = (0..8).map(|i| job(i, 2, 3)).collect();
        assert_eq!(jobs.iter().map(|j| (j.red, j.black)).collect::<Vec<_>>(), [(0, 1), (1, 0)].repeat(4));
        assert_eq!(jobs.iter().map(|j| j.opening).collect::<Vec<_>>(), [0, 0, 1, 1, 2, 2, 0, 0]);
        assert_eq!(jobs.iter().map(|j| j.pair).collect::<Vec<_>>(), [0, 0, 1, 1, 2, 2, 3, 3]);
        // Three engines: every pairing on the first opening, then the next opening.
        let three: Vec<(usize, usize, usize)> =
            (0..8).map(|i| job(i, 3, 2)).map(|j| (j.red, j.black, j.opening)).collect();
        assert_eq!(three, [(0, 1, 0), (1, 0, 0), (0, 2, 0), (2, 0, 0), (1, 2, 0), (2, 1, 0), (0, 1, 1), (1, 0, 1)]);
    }

    #[test]
    fn standings_score_per_game() {
        assert_eq!(Standing { points: 7.5, games: 10 }.score(), 0.75);
        assert_eq!(Standing::default().score(), 0.0);
    }

    #[test]
    fn the_default_settings_play_every_opening_with_both_colours_for_every_pairing() {
        let words = |w: &str| w.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        let engines: Vec<EngineConfig> =
            ["cmd=a", "cmd=b", "cmd=c"].iter().map(|w| EngineConfig::parse(&words(w)).unwrap()).collect();
        let s = MatchSettings::new(engines, TimeControl::Nodes(1000));
        assert_eq!(s.games, 2 * crate::openings::BUILTIN.len() * 3);
        assert_eq!((s.concurrency, s.nobestmove, s.sprt), (1, NoBestMove::Draw, None));
        assert_eq!("forfeit".parse::<NoBestMove>(), Ok(NoBestMove::Forfeit));
        assert_eq!(NoBestMove::Forfeit.to_string(), "forfeit");
        let e = "lose".parse::<NoBestMove>().unwrap_err();
        assert_eq!(
            (e.to_string(), e),
            ("\"lose\": expected draw or forfeit".to_owned(), ParseNoBestMoveError("lose".into()))
        );
    }
}
