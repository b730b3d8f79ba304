//! Fuzzing of the WebSocket protocol: random and mutated messages to a real server, in the style of
//! `xiangqi-cli/tests/fuzz_input.rs`.
//!
//! Each input is a valid message of every type the protocol has (with random positions, lines, limits, records,
//! trees and variants), a mutation of one (bit flips, byte changes, insertions, deletions, truncations, a field's
//! value replaced by a random JSON value, a field removed, an unknown field added, the type changed), random bytes,
//! a random JSON value, a binary frame, a text frame that is not UTF-8, or a frame over the 4 MB limit.
//!
//! What is checked:
//! - a valid message gets the answer its type promises (the expected type is worked out from the message with the
//!   rules crate: `state` for a line that replays, `error` for a FEN that does not read, a `bestmove` unless the
//!   game is over, ...), with its id; a search refused because the slots are taken is asked again;
//! - a binary frame gets an `error` and the session goes on; a text frame that is not UTF-8, or a frame over the
//!   limit, closes the socket (and the fuzzer connects again);
//! - after any other input the client stops the session's searches and sends a `hello` with a fresh id: the
//!   session must answer it (a working session after every error);
//! - every message the server sends is a JSON object of a type the protocol has; an `error` carries a message;
//!   nothing panics, on the server's tasks or the search threads (a panic hook counts them).
//!
//! `XIANGQI_FUZZ_INPUTS` inputs are sent (default 10 000, the short run of `cargo test`) from the seed
//! `XIANGQI_FUZZ_SEED` (default fixed, so runs repeat). The long run, a million inputs:
//!
//! ```text
//! XIANGQI_FUZZ_INPUTS=1000000 cargo test -p xiangqi-web --test fuzz -- --nocapture
//! ```

mod common;

use common::{patience, Client};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::Message;
use xiangqi_core::rules::JudgeOptions;
use xiangqi_core::{Game, Position};

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

/// What a valid message must get back: the final answer's type, and for an `error` a part of its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Answer(&'static str),
    Error(&'static str),
    /// An `error` whose message is the rules crate's own reading of this FEN.
    FenError(&'static str),
}

/// The answer a message about the line `fen` + `moves` gets: `then` when the line replays, an error naming the
/// FEN when it does not read (the fuzzer's lines are legal moves of a FEN that reads).
fn on_line(fen: &str, then: Expect) -> Expect {
    if Position::from_fen(fen).is_err() {
        Expect::Error("fen: ")
    } else {
        then
    }
}

/// Whether the game of a line is over by the rules.
fn game_over(fen: &str, moves: &[String]) -> bool {
    let Ok(start) = Position::from_fen(fen) else { return false };
    let replay = Game::replay(&start, moves.iter().map(String::as_str), JudgeOptions::default()).unwrap();
    replay.game.result().is_some()
}

/// A valid message of a random type, and what it must get back.
fn valid_message(rng: &mut StdRng) -> (Value, Expect) {
    let fen = FENS[rng.random_range(0..FENS.len() - 2)];
    let moves = random_line(rng, fen);
    let id = rng.random_range(0..50);
    match rng.random_range(0..10) {
        0 => (json!({"type": "hello", "id": id, "lang": "zh"}), Expect::Answer("hello")),
        1 => (json!({"type": "state", "id": id, "fen": fen, "moves": moves}), on_line(fen, Expect::Answer("state"))),
        2 => {
            let play = rng.random_bool(0.5);
            let mut m = json!({"type": "go", "id": id, "fen": fen, "moves": moves,
                "purpose": if play { "play" } else { "analyse" }, "multipv": rng.random_range(1..6)});
            let mut infinite = false;
            match rng.random_range(0..5) {
                0 => m["movetime"] = json!(rng.random_range(1..30)),
                1 => m["nodes"] = json!(rng.random_range(1..5000)),
                2 => m["depth"] = json!(rng.random_range(1..4)),
                3 => m["clock"] = json!({"red_ms": rng.random_range(1..2000), "black_ms": 1000, "red_inc_ms": 10}),
                _ => {
                    m["infinite"] = json!(true);
                    infinite = true;
                }
            }
            let expect = if game_over(fen, &moves) {
                Expect::Error("the game is over")
            } else if play && infinite {
                Expect::Error("needs a limit")
            } else {
                Expect::Answer("bestmove")
            };
            (m, on_line(fen, expect))
        }
        3 => (json!({"type": "stop", "id": id}), Expect::Error("no search with id")),
        4 => {
            let text = format!("[Event \"fuzz\"]\n[FEN \"{fen}\"]\n\n1. {} *\n", moves.join(" "));
            let m = if rng.random_bool(0.5) {
                json!({"type": "load_record", "id": id, "text": text})
            } else {
                use base64::Engine as _;
                json!({"type": "load_record", "id": id, "base64": base64::engine::general_purpose::STANDARD.encode(text)})
            };
            let expect = if Position::from_fen(fen).is_err() {
                Expect::Error("no game of the record can be read")
            } else {
                Expect::Answer("record")
            };
            (m, expect)
        }
        5 => (
            json!({"type": "export_pgn", "id": id, "fen": fen, "moves": moves, "tags": {"Event": "fuzz"},
                     "notation": (["chinese", "wxf", "iccs", "uci"][rng.random_range(0..4)]), "result": "*"}),
            on_line(fen, Expect::Answer("pgn")),
        ),
        6 => (
            json!({"type": "review", "id": id, "fen": fen, "moves": &moves[..moves.len().min(3)], "depth": 1}),
            on_line(fen, Expect::Answer("review")),
        ),
        7 if rng.random_bool(0.7) => (
            json!({"type": "watch", "id": id, "variant": (["alphabeta", "minimax", "pvs+qs", "negamax-ab+nmp"][rng.random_range(0..4)]),
                     "synthetic": "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))"}),
            Expect::Answer("watch"),
        ),
        7 => (
            json!({"type": "watch", "id": id, "variant": "alphabeta", "depth": 1, "fen": fen, "moves": moves}),
            on_line(fen, Expect::Answer("watch")),
        ),
        _ => {
            let fen = FENS[rng.random_range(0..FENS.len())];
            let expect = if Position::from_fen(fen).is_ok() { Expect::Answer("state") } else { Expect::FenError(fen) };
            (json!({"type": "validate", "id": id, "fen": fen}), expect)
        }
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

/// One input of the fuzzer.
enum Input {
    /// A valid message (its id replaced by a fresh one) and what it must get back.
    Valid(Value, Expect),
    /// Any other text.
    Text(String),
    /// A binary frame.
    Binary(Vec<u8>),
    /// A text frame whose bytes are not UTF-8.
    NotUtf8(Vec<u8>),
    /// A text frame of more than the limit.
    TooLarge(usize),
}

fn input(rng: &mut StdRng) -> Input {
    match rng.random_range(0..1000) {
        0..=299 => {
            let (v, expect) = valid_message(rng);
            Input::Valid(v, expect)
        }
        300..=579 => {
            let (v, _) = valid_message(rng);
            Input::Text(mutate_json(rng, v).to_string())
        }
        580..=779 => {
            let (v, _) = valid_message(rng);
            Input::Text(mutate_bytes(rng, v.to_string()))
        }
        780..=879 => Input::Text(
            String::from_utf8_lossy(&(0..rng.random_range(0..200)).map(|_| rng.random::<u8>()).collect::<Vec<_>>())
                .into_owned(),
        ),
        880..=969 => Input::Text(random_json(rng, 0).to_string()),
        970..=984 => {
            let (v, _) = valid_message(rng);
            Input::Binary(if rng.random_bool(0.5) { v.to_string().into_bytes() } else { random_bytes(rng) })
        }
        985..=997 => {
            // Valid JSON around one byte sequence that UTF-8 forbids.
            let (v, _) = valid_message(rng);
            let mut b = v.to_string().into_bytes();
            let bad: &[u8] = [&[0xff][..], &[0xc0, 0x80], &[0xed, 0xa0, 0x80], &[0xe4, 0xb8]][rng.random_range(0..4)];
            let at = b.len() - 1;
            b.splice(at..at, bad.iter().copied());
            Input::NotUtf8(b)
        }
        _ => Input::TooLarge(xiangqi_web::MAX_MESSAGE + 1 + rng.random_range(0..1000)),
    }
}

fn random_bytes(rng: &mut StdRng) -> Vec<u8> {
    (0..rng.random_range(0..200)).map(|_| rng.random::<u8>()).collect()
}

/// A message's first 300 characters, for a failure's text.
fn short(m: &Value) -> String {
    m.to_string().chars().take(300).collect()
}

/// Checks one message from the server (its type is the protocol's, an error has a message); returns it.
fn checked(m: Value, n: u64, what: &str) -> Value {
    let ty = m["type"].as_str().unwrap_or_default();
    assert!(ANSWERS.contains(&ty), "input {n} ({what:.200}): an unknown answer {}", short(&m));
    if ty == "error" {
        assert!(m["message"].as_str().is_some_and(|s| !s.is_empty()), "input {n}: {}", short(&m));
    }
    if ty == "state" {
        assert!(Position::from_fen(m["fen"].as_str().unwrap()).is_ok(), "input {n}: {}", short(&m));
    }
    m
}

/// Whether `m` is the final answer to the message of `id` (a search's reports come before it).
fn is_final(m: &Value, id: i64) -> bool {
    m["id"] == id && !["info", "review_progress"].contains(&m["type"].as_str().unwrap_or_default())
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
    let (mut errors, mut answers, mut valid, mut retried, mut closed) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut seen: std::collections::BTreeMap<String, u64> = Default::default();
    let started = Instant::now();
    for n in 0..inputs {
        let id = n as i64 + 1;
        match input(&mut rng) {
            Input::Valid(mut v, expect) => {
                valid += 1;
                v["id"] = json!(id);
                let text = v.to_string();
                let infinite = v["infinite"] == true;
                let refused_at = Instant::now();
                let answer = loop {
                    client.send(text.clone()).await;
                    if infinite {
                        client.send_json(json!({"type": "stop", "id": id})).await;
                    }
                    let answer = loop {
                        let m = checked(client.recv().await, n, &text);
                        answers += 1;
                        if is_final(&m, id) {
                            break m;
                        }
                    };
                    // Slots held by an earlier input's search that ends by itself: ask again.
                    let busy = answer["message"].as_str().is_some_and(|s| s.contains("too many searches"));
                    if !busy {
                        break answer;
                    }
                    if infinite {
                        // The stop sent with it found no search: its error comes next.
                        loop {
                            let m = checked(client.recv().await, n, &text);
                            if is_final(&m, id) {
                                assert!(m["message"].as_str().unwrap().contains("no search with id"), "{}", short(&m));
                                break;
                            }
                        }
                    }
                    retried += 1;
                    assert!(refused_at.elapsed() < patience(), "input {n}: the slots never came free");
                    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                };
                let ty = answer["type"].as_str().unwrap();
                match expect {
                    Expect::Answer(want) => assert_eq!(ty, want, "input {n} ({text:.300}): {}", short(&answer)),
                    Expect::Error(part) => {
                        assert_eq!(ty, "error", "input {n} ({text:.300}): {}", short(&answer));
                        let message = answer["message"].as_str().unwrap();
                        assert!(message.contains(part), "input {n} ({text:.300}): {message}");
                    }
                    Expect::FenError(fen) => {
                        assert_eq!(ty, "error", "input {n} ({text:.300}): {}", short(&answer));
                        let want = Position::from_fen(fen).unwrap_err().to_string();
                        assert_eq!(answer["message"].as_str().unwrap(), want, "input {n} ({text:.300})");
                    }
                }
                *seen.entry(format!("{} -> {ty}", v["type"].as_str().unwrap())).or_default() += 1;
                continue;
            }
            Input::Text(text) => client.send(text).await,
            Input::Binary(bytes) => {
                client.send_message(Message::Binary(bytes.into())).await;
                // Answers to earlier inputs (a search that ends by itself) may come first.
                loop {
                    let m = checked(client.recv().await, n, "a binary frame");
                    if m["type"] == "error" && m["message"].as_str().unwrap().contains("binary frames") {
                        assert!(m.get("id").is_none(), "input {n}: {}", short(&m));
                        break;
                    }
                }
            }
            Input::NotUtf8(bytes) => {
                let frame = Frame::message(bytes, OpCode::Data(Data::Text), true);
                client.send_message(Message::Frame(frame)).await;
                assert!(client.is_closed_by_server().await, "input {n}: a text frame not UTF-8 was read");
                closed += 1;
                client = Client::connect(addr).await;
                continue;
            }
            Input::TooLarge(len) => {
                // A `hello` of exactly `len` bytes: the padding is what the message without it leaves.
                let empty = json!({"type": "hello", "pad": ""}).to_string().len();
                client.send(json!({"type": "hello", "pad": "x".repeat(len - empty)}).to_string()).await;
                assert!(client.is_closed_by_server().await, "input {n}: a message of {len} bytes was read");
                closed += 1;
                client = Client::connect(addr).await;
                continue;
            }
        }
        client.send(r#"{"type":"stop"}"#).await;
        let sentinel = -id;
        client.send_json(json!({"type": "hello", "id": sentinel})).await;
        loop {
            let m = checked(client.recv().await, n, "");
            answers += 1;
            if m["type"] == "error" {
                errors += 1;
            }
            if m["type"] == "hello" && m["id"] == sentinel {
                break;
            }
        }
        if (n + 1) % 100_000 == 0 {
            eprintln!("{} inputs, {:?}", n + 1, started.elapsed());
        }
    }
    eprintln!(
        "fuzz: {inputs} inputs (seed {seed:#x}) in {:.1} s, {answers} messages back, {errors} errors to other \
         inputs, {valid} valid messages ({retried} asked again for a slot), {closed} sockets closed\n{seen:#?}",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(PANICS.load(Ordering::Relaxed), 0, "a panic on the server");
    assert!(errors > inputs / 10, "the inputs were not hostile enough: {errors} errors");
    if inputs >= 1000 {
        // Every type of valid message was tried, and each kind of frame.
        for ty in ["hello", "state", "go", "stop", "load_record", "export_pgn", "review", "watch", "validate"] {
            assert!(seen.keys().any(|k| k.starts_with(&format!("{ty} -> "))), "no valid {ty} was sent: {seen:?}");
        }
        assert!(closed > 0, "no frame closed the socket");
    }
}
