//! Load on loopback: many sessions at once, each asking for states, legal moves and short searches while the search
//! slots are full. Every `state` and `validate` is answered (none is refused, none is an error); a search is either
//! run (`bestmove`) or refused because the slots are taken, and nothing else; the latency of each `state` answer is
//! measured from the moment it was sent.
//!
//! `cargo test` runs a small load (20 sessions, 5 rounds each). The figure of the README and of the book's deploy
//! page is the full one, 200 sessions of 20 rounds, run explicitly (in the workspace's test profile: the figures
//! depend on the machine and its load, and the server shares the machine with its 200 clients):
//!
//! ```text
//! cargo test -p xiangqi-web --test load -- --ignored --nocapture
//! ```
//!
//! `XIANGQI_LOAD_SESSIONS` and `XIANGQI_LOAD_ROUNDS` change the full run's counts.

mod common;

use common::{patience, Client};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use xiangqi_core::Position;

/// What one load run measured.
#[derive(Debug, Default)]
struct Load {
    /// Latency of each `state` answer.
    state_latencies: Vec<Duration>,
    /// `validate` answers (a position's legal moves).
    validated: usize,
    /// Short searches that ran to their `bestmove`.
    searches_run: usize,
    /// Short searches refused because every slot was taken.
    searches_refused: usize,
    /// The whole run.
    wall: Duration,
}

impl Load {
    fn percentile(&self, p: f64) -> Duration {
        let mut v = self.state_latencies.clone();
        v.sort();
        v[((v.len() - 1) as f64 * p).round() as usize]
    }
}

/// A line of `plies` moves from the start, different for each `seed`.
fn line(seed: usize, plies: usize) -> Vec<String> {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for i in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[(seed * 31 + i * 7) % legal.len()];
        moves.push(m.to_string());
        pos.make_move(m);
    }
    moves
}

/// The answer to the message of `id`, skipping a search's reports.
async fn answer(c: &mut Client, id: i64) -> Value {
    loop {
        let m = c.recv().await;
        if m["id"] == id && m["type"] != "info" {
            return m;
        }
    }
}

/// One session's rounds: a `state` of a line (timed), a `validate` (the legal moves of a FEN), a short search.
async fn session(addr: std::net::SocketAddr, index: usize, rounds: usize) -> Load {
    let mut c = Client::connect(addr).await;
    let mut load = Load::default();
    for round in 0..rounds {
        let id = (round * 3) as i64;
        let moves = line(index * 1000 + round, 1 + (index + round) % 12);
        let sent = Instant::now();
        c.send_json(json!({"type": "state", "id": id, "moves": moves})).await;
        let s = answer(&mut c, id).await;
        load.state_latencies.push(sent.elapsed());
        assert_eq!(s["type"], "state", "session {index} round {round}: {s}");
        assert_eq!(s["moves"].as_array().unwrap().len(), moves.len(), "{s}");

        let v = c.ask(json!({"type": "validate", "id": id + 1, "fen": s["fen"]})).await;
        assert_eq!((v["type"].as_str(), v["id"].as_i64()), (Some("state"), Some(id + 1)), "{v}");
        assert_eq!(v["legal"], s["legal"], "the legal moves of the same position");
        load.validated += 1;

        assert!(s["result"].is_null(), "the lines are short enough not to end a game: {s}");
        c.send_json(json!({"type": "go", "id": id + 2, "purpose": "play", "movetime": 20, "moves": moves})).await;
        let g = answer(&mut c, id + 2).await;
        match g["type"].as_str() {
            Some("bestmove") => load.searches_run += 1,
            Some("error") if g["message"].as_str().unwrap().contains("too many searches") => {
                load.searches_refused += 1;
            }
            _ => panic!("session {index} round {round}: a search got {g}"),
        }
    }
    c.close().await;
    load
}

/// `sessions` sessions of `rounds` rounds at once, against a server of `max_searches` slots of which `holders`
/// are held by infinite analyses from the start to the end.
async fn run(sessions: usize, rounds: usize, max_searches: usize, holders: usize, hash_mb: usize) -> Load {
    let config = xiangqi_web::Config {
        max_searches,
        eval: xiangqi_eval::EvalChoice::Handcrafted,
        hash_mb,
        ..xiangqi_web::Config::default()
    };
    let addr = common::start(config).await;
    let mut held = Vec::new();
    for i in 0..holders {
        let mut c = Client::connect(addr).await;
        c.send_json(json!({"type": "go", "id": 1, "infinite": true, "moves": line(i, 2)})).await;
        assert_eq!(c.recv_type("info").await["id"], 1, "the analysis holding slot {i} started");
        held.push(c);
    }
    let started = Instant::now();
    let tasks: Vec<_> = (0..sessions).map(|i| tokio::spawn(session(addr, i, rounds))).collect();
    let mut total = Load::default();
    for t in tasks {
        let l = tokio::time::timeout(patience() * 5, t).await.expect("the sessions end in time").unwrap();
        total.state_latencies.extend(l.state_latencies);
        total.validated += l.validated;
        total.searches_run += l.searches_run;
        total.searches_refused += l.searches_refused;
    }
    total.wall = started.elapsed();
    // The analyses held their slots throughout, and still answer.
    for mut c in held {
        c.send_json(json!({"type": "stop", "id": 1})).await;
        assert_eq!(c.recv_type("bestmove").await["id"], 1);
    }
    assert_eq!(total.state_latencies.len(), sessions * rounds, "every state was answered");
    assert_eq!(total.validated, sessions * rounds, "every validate was answered");
    assert_eq!(total.searches_run + total.searches_refused, sessions * rounds);
    total
}

fn report(l: &Load, sessions: usize, rounds: usize, max_searches: usize, holders: usize) {
    eprintln!(
        "load: {sessions} sessions x {rounds} rounds, {max_searches} search slots ({holders} held by infinite analyses) \
         in {:.1} s: {} states, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; {} validates answered; searches {} run, {} \
         refused (slots full); nothing else refused",
        l.wall.as_secs_f64(),
        l.state_latencies.len(),
        l.percentile(0.5).as_secs_f64() * 1e3,
        l.percentile(0.99).as_secs_f64() * 1e3,
        l.percentile(1.0).as_secs_f64() * 1e3,
        l.validated,
        l.searches_run,
        l.searches_refused,
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_sessions_are_served_while_the_slots_are_full() {
    // Every slot held: every short search is refused, everything else answered.
    let l = run(20, 5, 2, 2, 1).await;
    report(&l, 20, 5, 2, 2);
    assert_eq!((l.searches_run, l.searches_refused), (0, 100));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the full load (200 sessions): run explicitly for the README's figure"]
async fn two_hundred_sessions_are_served_while_the_slots_are_full() {
    let env = |name: &str, default: usize| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (sessions, rounds) = (env("XIANGQI_LOAD_SESSIONS", 200), env("XIANGQI_LOAD_ROUNDS", 20));
    // Four slots, two held by analyses all along: the 200 sessions' short searches contend for the other two. The
    // server's own table size (16 MB a search), so that the memory figure is the server's.
    let l = run(sessions, rounds, 4, 2, xiangqi_search::DEFAULT_HASH_MB).await;
    report(&l, sessions, rounds, 4, 2);
    // The process's peak memory (server and clients), where Linux reports it.
    if let Some(peak) = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(str::to_owned))
    {
        eprintln!("load: peak memory of the process ({peak})");
    }
    assert!(l.searches_refused > 0, "the slots were never full");
}
