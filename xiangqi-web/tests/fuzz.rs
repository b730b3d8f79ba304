//! Fuzzing of the WebSocket protocol: random and mutated messages to a real server, in the style of
//! `xiangqi-cli/tests/fuzz_input.rs`.
//!
//! Each input is a valid message of every type the protocol has (with random positions, lines, limits, records,
//! trees and variants), a mutation of one (bit flips, byte changes, insertions, deletions, truncations, a field's
//! value replaced by a random JSON value, a field removed, an unknown field added, the type changed), random bytes,
//! or a random JSON value. After each input the client stops the session's searches and sends a `hello` with a
//! fresh id: the session must answer it (a working session after every error). Every message the server sends
//! must be a JSON object of a type the protocol has; an `error` carries a message. Nothing may panic, on the
//! server's tasks or the search threads (a panic hook counts them).
//!
//! `XIANGQI_FUZZ_INPUTS` inputs are sent (default 10 000, the short run of `cargo test`) from the seed
//! `XIANGQI_FUZZ_SEED` (default fixed, so runs repeat). The long run, a million inputs:
//!
//! ```text
//! XIANGQI_FUZZ_INPUTS=1000000 cargo test -p xiangqi-web --test fuzz -- --nocapture
//! ```

mod common;

use common::Client;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use xiangqi_core::Position;

static PANICS: AtomicU64 = AtomicU64::new(0);

const TYPES: [&str; 12] =
    ["hello", "state", "go", "stop", "load_record", "export_pgn", "review", "watch", "validate", "info", "bogus", ""];

/// The types of message a server sends.
const ANSWERS: [&str; 10] =
    ["hello", "state", "info", "bestmove", "record", "pgn", "review_progress", "review", "watch", "error"];

const FENS: [&str; 6] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3k5/9/9/9/9/9/9/9/R8/R3K4 w",
    "4k4/9/1c7/9/9/9/2R6/9/9/3K5 w",
    "4k4/4k4/9/9/9/9/9/9/9/4K4 w",
    "4k4/9/9/9/9/9/9/9/9/3K1R3 b",
    "not a fen",
];

/// A random line of legal moves from `fen` (when it reads).
fn random_line(rng: &mut StdRng, fen: &str) -> Vec<String> {
    let Ok(mut pos) = Position::from_fen(fen) else { return vec!["h2e2".to_owned()] };
    let mut line = Vec::new();
    for _ in 0..rng.random_range(0..12) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        line.push(m.to_string());
        pos.make_move(m);
    }
    line
}

fn random_json(rng: &mut StdRng, depth: u32) -> Value {
    match rng.random_range(0..10) {
        0 => Value::Null,
        1 => json!(rng.random_bool(0.5)),
        2 => json!(rng.random::<i64>()),
        3 => json!(rng.random_range(-3i64..70)),
        4 => json!(rng.random::<f64>() * 1e12 - 5e11),
        5 => json!(TYPES[rng.random_range(0..TYPES.len())]),
        6 => json!("x".repeat(rng.random_range(0..3000))),
        7 => json!(String::from_utf8_lossy(
            &(0..rng.random_range(0..40)).map(|_| rng.random::<u8>()).collect::<Vec<_>>()
        )),
        8 if depth < 3 => Value::Array((0..rng.random_range(0..5)).map(|_| random_json(rng, depth + 1)).collect()),
        _ if depth < 3 => {
            let keys = ["fen", "moves", "type", "id", "depth", "text", "synthetic", "clock", "red_ms", "zz"];
            Value::Object(
                (0..rng.random_range(0..4))
                    .map(|_| (keys[rng.random_range(0..keys.len())].to_owned(), random_json(rng, depth + 1)))
                    .collect(),
            )
        }
        _ => json!(null),
    }
}

/// A valid message of a random type.
fn valid_message(rng: &mut StdRng) -> Value {
    let fen = FENS[rng.random_range(0..FENS.len() - 2)];
    let moves = random_line(rng, fen);
    let id = rng.random_range(0..50);
    match rng.random_range(0..10) {
        0 => json!({"type": "hello", "id": id, "lang": "zh"}),
        1 => json!({"type": "state", "id": id, "fen": fen, "moves": moves}),
        2 => {
            let mut m = json!({"type": "go", "id": id, "fen": fen, "moves": moves,
                "purpose": if rng.random_bool(0.5) { "play" } else { "analyse" }, "multipv": rng.random_range(1..6)});
            match rng.random_range(0..5) {
                0 => m["movetime"] = json!(rng.random_range(1..30)),
                1 => m["nodes"] = json!(rng.random_range(1..5000)),
                2 => m["depth"] = json!(rng.random_range(1..4)),
                3 => m["clock"] = json!({"red_ms": rng.random_range(1..2000), "black_ms": 1000, "red_inc_ms": 10}),
                _ => m["infinite"] = json!(true),
            }
            m
        }
        3 => json!({"type": "stop", "id": id}),
        4 => {
            let text = format!("[Event \"fuzz\"]\n[FEN \"{fen}\"]\n\n1. {} *\n", moves.join(" "));
            if rng.random_bool(0.5) {
                json!({"type": "load_record", "id": id, "text": text})
            } else {
                use base64::Engine as _;
                json!({"type": "load_record", "id": id, "base64": base64::engine::general_purpose::STANDARD.encode(text)})
            }
        }
        5 => json!({"type": "export_pgn", "id": id, "fen": fen, "moves": moves, "tags": {"Event": "fuzz"},
                     "notation": (["chinese", "wxf", "iccs", "uci"][rng.random_range(0..4)]), "result": "*"}),
        6 => json!({"type": "review", "id": id, "fen": fen, "moves": &moves[..moves.len().min(3)], "depth": 1}),
        7 if rng.random_bool(0.7) => {
            json!({"type": "watch", "id": id, "variant": (["alphabeta", "minimax", "pvs+qs", "negamax-ab+nmp"][rng.random_range(0..4)]),
                     "synthetic": "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))"})
        }
        7 => json!({"type": "watch", "id": id, "variant": "alphabeta", "depth": 1, "fen": fen, "moves": moves}),
        _ => json!({"type": "validate", "id": id, "fen": FENS[rng.random_range(0..FENS.len())]}),
    }
}

/// A valid message changed at the JSON level.
fn mutate_json(rng: &mut StdRng, mut v: Value) -> Value {
    let obj = v.as_object_mut().expect("messages are objects");
    let keys: Vec<String> = obj.keys().cloned().collect();
    for _ in 0..rng.random_range(1..3) {
        let key = &keys[rng.random_range(0..keys.len())];
        match rng.random_range(0..4) {
            0 => {
                obj.insert(key.clone(), random_json(rng, 0));
            }
            1 => {
                obj.remove(key);
            }
            2 => {
                obj.insert("type".to_owned(), json!(TYPES[rng.random_range(0..TYPES.len())]));
            }
            _ => {
                obj.insert(format!("unknown{}", rng.random_range(0..9)), random_json(rng, 0));
            }
        }
    }
    v
}

/// A text changed at the byte level.
fn mutate_bytes(rng: &mut StdRng, text: String) -> String {
    let mut b = text.into_bytes();
    for _ in 0..rng.random_range(1..4) {
        if b.is_empty() {
            b.push(rng.random());
            continue;
        }
        let i = rng.random_range(0..b.len());
        match rng.random_range(0..5) {
            0 => b[i] ^= 1 << rng.random_range(0..8),
            1 => b[i] = rng.random(),
            2 => {
                let chars = b"{}[]\",:0-9eE\\u";
                b.insert(i, chars[rng.random_range(0..chars.len())]);
            }
            3 => {
                let end = (i + rng.random_range(1..8)).min(b.len());
                b.drain(i..end);
            }
            _ => b.truncate(i),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn input(rng: &mut StdRng) -> String {
    match rng.random_range(0..10) {
        0..=2 => valid_message(rng).to_string(),
        3..=5 => {
            let v = valid_message(rng);
            mutate_json(rng, v).to_string()
        }
        6..=7 => {
            let t = valid_message(rng).to_string();
            mutate_bytes(rng, t)
        }
        8 => String::from_utf8_lossy(&(0..rng.random_range(0..200)).map(|_| rng.random::<u8>()).collect::<Vec<_>>())
            .into_owned(),
        _ => random_json(rng, 0).to_string(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_and_mutated_messages_never_break_a_session() {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::Relaxed);
        hook(info);
    }));
    let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (inputs, seed) = (env("XIANGQI_FUZZ_INPUTS", 10_000), env("XIANGQI_FUZZ_SEED", 0x5eed_0031));
    let config = xiangqi_web::Config {
        max_searches: 2,
        eval: xiangqi_eval::EvalChoice::Handcrafted,
        hash_mb: 1,
        ..xiangqi_web::Config::default()
    };
    let addr = common::start(config).await;
    let mut client = Client::connect(addr).await;
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut errors, mut answers) = (0u64, 0u64);
    let started = Instant::now();
    for n in 0..inputs {
        let text = input(&mut rng);
        client.send(text.clone()).await;
        client.send(r#"{"type":"stop"}"#).await;
        let sentinel = -1 - n as i64;
        client.send_json(json!({"type": "hello", "id": sentinel})).await;
        loop {
            let m = client.recv().await;
            let ty = m["type"].as_str().unwrap_or_default();
            assert!(ANSWERS.contains(&ty), "input {n} ({text:.200}): an unknown answer {m:.300}");
            answers += 1;
            if ty == "error" {
                errors += 1;
                assert!(m["message"].as_str().is_some_and(|s| !s.is_empty()), "input {n}: {m}");
            }
            if ty == "state" {
                assert!(Position::from_fen(m["fen"].as_str().unwrap()).is_ok(), "input {n}: {m}");
            }
            if ty == "hello" && m["id"] == sentinel {
                break;
            }
        }
        if (n + 1) % 100_000 == 0 {
            eprintln!("{} inputs, {:?}", n + 1, started.elapsed());
        }
    }
    eprintln!(
        "fuzz: {inputs} inputs (seed {seed:#x}) in {:.1} s, {answers} messages back, {errors} errors",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(PANICS.load(Ordering::Relaxed), 0, "a panic on the server");
    assert!(errors > inputs / 10, "the inputs were not hostile enough: {errors} errors");
}
