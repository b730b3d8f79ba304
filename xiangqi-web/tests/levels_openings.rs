//! The page's levels and opening names through the protocol: `hello` lists the levels with the measured Elo of
//! [`LEVEL_ELO`], a `go` to play takes a `level`, and every `state` names the opening its line has reached, by
//! position (so a transposition is named too).

mod common;

use common::{start_with, Client};
use serde_json::{json, Value};
use std::collections::HashSet;
use xiangqi_core::record::openings::opening_of;
use xiangqi_core::Position;
use xiangqi_search::skill::LEVEL_ELO;

/// The UCI moves of a line written in Chinese notation from the start position.
fn uci_line(chinese: &str) -> Vec<String> {
    let mut pos = Position::startpos();
    chinese
        .split_whitespace()
        .map(|t| {
            let (m, _) = pos.read_move(t).unwrap();
            pos.make_move(m);
            m.to_string()
        })
        .collect()
}

/// The opening the rules crate names for the same line (the server's answer must equal it).
fn library_opening(uci: &[String]) -> Value {
    let mut pos = Position::startpos();
    let moves: Vec<_> = uci.iter().map(|m| pos.play(m).unwrap()).collect();
    let named = opening_of(&Position::startpos(), &moves).unwrap();
    json!({"chinese": named.opening.chinese, "english": named.opening.english, "ply": named.ply})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hello_lists_the_levels_with_the_measured_elo() {
    let addr = start_with(2).await;
    let mut c = Client::connect(addr).await;
    let hello = c.ask(json!({"type": "hello", "id": 1})).await;
    let levels = hello["levels"].as_array().unwrap_or_else(|| panic!("no levels in {hello}"));
    let expected: Vec<Value> = (1..=10).map(|l| json!({"level": l, "elo": LEVEL_ELO[l - 1]})).collect();
    assert_eq!(levels, &expected);
    assert_eq!(levels[9]["elo"], 0, "level 10 is the reference");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_names_the_opening_also_after_a_transposition() {
    let addr = start_with(2).await;
    let mut c = Client::connect(addr).await;
    let main = uci_line("炮二平五 马8进7 马二进三 车9平8");
    let st = c.ask(json!({"type": "state", "id": 1, "moves": main})).await;
    assert_eq!(st["opening"], library_opening(&main), "{st}");
    assert_eq!(st["opening"]["chinese"], "中炮对屏风马 先出车");
    // The same position by another order of moves: each chariot steps out and back first.
    let other = uci_line("炮二平五 车9进1 马二进三 车9退1 车一进一 马8进7 车一退一 车9平8");
    let st = c.ask(json!({"type": "state", "id": 2, "moves": other})).await;
    assert_eq!((&st["opening"]["chinese"], &st["opening"]["ply"]), (&json!("中炮对屏风马 先出车"), &json!(8)), "{st}");
    // The opening follows the moves played: after the first move only the central cannon.
    let st = c.ask(json!({"type": "state", "id": 3, "moves": &main[..1]})).await;
    assert_eq!(st["opening"]["english"], "Central Cannon", "{st}");
    let st = c.ask(json!({"type": "state", "id": 4, "moves": []})).await;
    assert_eq!(st["opening"], Value::Null, "{st}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_level_is_checked_and_varies_the_engines_choice() {
    let addr = start_with(2).await;
    let mut c = Client::connect(addr).await;
    for bad in [0, 11] {
        let e = c.ask(json!({"type": "go", "id": 1, "purpose": "play", "nodes": 1000, "level": bad})).await;
        assert_eq!(e["type"], "error", "{e}");
        assert!(e["message"].as_str().unwrap().contains("level must be from 1 to 10"), "{e}");
    }
    // Level 1 chooses at random among eight lines: twelve games from the start do not all open alike.
    let mut seen = HashSet::new();
    for id in 0..12 {
        c.send_json(json!({"type": "go", "id": 10 + id, "purpose": "play", "nodes": 2000, "level": 1})).await;
        let best = c.recv_type("bestmove").await;
        seen.insert(best["move"]["uci"].as_str().unwrap().to_owned());
    }
    assert!(seen.len() >= 2, "level 1 played {seen:?} every time");
    // Level 10 (full strength, the default) is the engine: the same move every time.
    let mut full = HashSet::new();
    for id in 0..3 {
        c.send_json(json!({"type": "go", "id": 30 + id, "purpose": "play", "depth": 3, "level": 10})).await;
        full.insert(c.recv_type("bestmove").await["move"]["uci"].as_str().unwrap().to_owned());
    }
    assert_eq!(full.len(), 1, "{full:?}");
}
