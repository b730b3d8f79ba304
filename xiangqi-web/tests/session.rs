//! The server end to end: a real server on 127.0.0.1 port 0 and WebSocket clients speaking the protocol of
//! `docs/serve-protocol.md`. Every wait is for a message, with a generous bound ([`common::PATIENCE`]).

mod common;

use base64::Engine as _;
use common::{start_with, Client, PATIENCE};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use xiangqi_core::Position;
use xiangqi_search::record::Recorder;
use xiangqi_search::synthetic::{Child, Tree, TreeEval};
use xiangqi_search::{AlphaBeta, Limits, RunSetup, Searcher, VariantConfig};

/// The tree of the spec's alpha-beta figure.
const SPEC_TREE: &str = "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))";

fn moves_of(state: &Value) -> Vec<String> {
    state["moves"].as_array().unwrap().iter().map(|m| m["uci"].as_str().unwrap().to_owned()).collect()
}

fn is_listed_legal(state: &Value, uci: &str) -> bool {
    state["legal"][&uci[..2]].as_array().is_some_and(|to| to.iter().any(|t| t == &uci[2..]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_by_messages_ends_by_the_rules() {
    let addr = start_with(4).await;
    let mut c = Client::connect(addr).await;
    let hello = c.ask(json!({"type": "hello", "id": 1})).await;
    assert_eq!(
        (hello["type"].as_str(), hello["id"].as_i64(), hello["max_searches"].as_u64()),
        (Some("hello"), Some(1), Some(4))
    );
    // Two chariots against a lone king: the engine plays both sides until the rules end the game.
    let fen = "3k5/9/9/9/9/9/9/9/R8/R3K4 w";
    let mut moves: Vec<String> = Vec::new();
    let mut state = c.ask(json!({"type": "state", "id": 2, "fen": fen, "moves": moves})).await;
    for ply in 0..40 {
        assert_eq!(state["type"], "state", "{state}");
        assert_eq!(moves_of(&state), moves);
        if !state["result"].is_null() {
            break;
        }
        assert!(ply < 39, "the game did not end: {state}");
        c.send_json(json!({"type": "go", "id": 100 + ply, "purpose": "play", "depth": 5, "fen": fen, "moves": moves}))
            .await;
        let best = c.recv_type("bestmove").await;
        assert_eq!(best["id"], 100 + ply);
        let uci = best["move"]["uci"].as_str().unwrap().to_owned();
        assert!(is_listed_legal(&state, &uci), "{uci} is not among the legal moves of {state}");
        moves.push(uci);
        state = c.ask(json!({"type": "state", "id": 3, "fen": fen, "moves": moves})).await;
    }
    assert_eq!(state["result"]["rule"], "checkmate", "{state}");
    assert_eq!(state["result"]["winner"], "red");
    assert_eq!(state["legal"], json!({}));
    assert_eq!(
        state["check"],
        Position::from_fen(state["fen"].as_str().unwrap()).unwrap().king(xiangqi_core::Color::Black).to_string()
    );
    // Past the end, no search; an illegal move is an error and the session goes on.
    let e = c.ask(json!({"type": "go", "id": 4, "purpose": "play", "depth": 2, "fen": fen, "moves": moves})).await;
    assert!(e["type"] == "error" && e["message"].as_str().unwrap().contains("the game is over"), "{e}");
    let e = c.ask(json!({"type": "state", "id": 5, "moves": ["h2e2", "h2e2"]})).await;
    assert_eq!((e["type"].as_str(), e["id"].as_i64()), (Some("error"), Some(5)));
    assert!(e["message"].as_str().unwrap().contains("ply 2"), "{e}");
    let s = c.ask(json!({"type": "state", "id": 6, "moves": ["h2e2"]})).await;
    assert_eq!(s["moves"][0], json!({"uci": "h2e2", "iccs": "H2-E2", "wxf": "C2.5", "chinese": "炮二平五"}));
    assert_eq!((s["turn"].as_str(), s["last"].as_str()), (Some("black"), Some("h2e2")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rule_judge_names_perpetual_check_and_chase() {
    let addr = start_with(1).await;
    let mut c = Client::connect(addr).await;
    let moves = ["a0a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8"];
    let s = c.ask(json!({"type": "state", "fen": "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "moves": moves})).await;
    assert_eq!(s["result"]["rule"], "perpetual check", "{s}");
    assert_eq!(s["result"]["winner"], "black");
    assert_eq!((moves_of(&s).len(), s["unplayed"].as_u64()), (9, Some(2)));
    let moves = ["c3b3", "b7c7", "b3c3", "c7b7", "c3b3", "b7c7", "b3c3", "c7b7"];
    let s = c.ask(json!({"type": "state", "fen": "4k4/9/1c7/9/9/9/2R6/9/9/3K5 w", "moves": moves})).await;
    assert_eq!(
        (s["result"]["rule"].as_str(), s["result"]["winner"].as_str()),
        (Some("perpetual chase"), Some("black"))
    );
    assert_eq!(s["result"]["detail"], "perpetual chase of the black cannon on b7 by red");
    // A bad FEN with its reason.
    let e = c.ask(json!({"type": "validate", "id": 9, "fen": "4k4/4k4/9/9/9/9/9/9/9/4K4 w"})).await;
    assert_eq!((e["type"].as_str(), e["id"].as_i64()), (Some("error"), Some(9)));
    assert!(e["message"].as_str().unwrap().contains("impossible position"), "{e}");
    let v = c.ask(json!({"type": "validate", "fen": "4k4/9/9/9/9/9/9/9/9/3K1R3 w"})).await;
    assert_eq!((v["type"].as_str(), v["legal"]["f0"].as_array().map(Vec::len)), (Some("state"), Some(13)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_reports_multipv_lines_and_stops() {
    let addr = common::start(xiangqi_web::Config { max_searches: 2, ..xiangqi_web::Config::default() }).await;
    let mut c = Client::connect(addr).await;
    let asked = Instant::now();
    c.send_json(json!({"type": "go", "id": 7, "purpose": "analyse", "infinite": true, "multipv": 3})).await;
    let info = loop {
        let m = c.recv_type("info").await;
        assert_eq!(m["id"], 7);
        if m["lines"].as_array().unwrap().len() == 3 {
            break m;
        }
    };
    eprintln!("first 3-line info after {:?}", asked.elapsed());
    let pos = Position::startpos();
    let firsts: HashSet<&str> =
        info["lines"].as_array().unwrap().iter().map(|l| l["pv"][0]["uci"].as_str().unwrap()).collect();
    assert_eq!(firsts.len(), 3, "{info}");
    for (i, l) in info["lines"].as_array().unwrap().iter().enumerate() {
        assert_eq!(l["multipv"], i + 1);
        assert!(l["score"]["cp"].is_i64(), "{l}");
        assert!(pos.is_legal(l["pv"][0]["uci"].as_str().unwrap().parse().unwrap()));
    }
    assert!(info["depth"].as_u64().unwrap() >= 1 && info["nodes"].as_u64().unwrap() > 0);
    // An infinite search ends only when stopped; stop names it by its id.
    let e = c.ask(json!({"type": "stop", "id": 8})).await;
    assert_eq!(e["type"], "error", "{e}");
    c.send_json(json!({"type": "stop", "id": 7})).await;
    let best = c.recv_type("bestmove").await;
    assert_eq!(best["id"], 7);
    assert!(pos.is_legal(best["move"]["uci"].as_str().unwrap().parse().unwrap()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_past_the_limit_are_refused_and_a_closed_socket_frees_its_slot() {
    let addr = start_with(1).await;
    let mut first = Client::connect(addr).await;
    first.send_json(json!({"type": "go", "id": 1, "infinite": true})).await;
    first.recv_type("info").await;
    let mut second = Client::connect(addr).await;
    let e = second.ask(json!({"type": "go", "id": 2, "infinite": true})).await;
    assert_eq!(e["type"], "error");
    assert!(e["message"].as_str().unwrap().contains("too many searches"), "{e}");
    first.close().await;
    // The closed socket's search stops at once and its slot is free: the second session's search starts (the slot
    // is given back when the search's threads have ended, so the go is asked again until then).
    let deadline = Instant::now() + PATIENCE;
    'retry: loop {
        second.send_json(json!({"type": "go", "id": 3, "depth": 3})).await;
        let m = second.recv().await;
        match m["type"].as_str() {
            Some("error") => {
                assert!(m["message"].as_str().unwrap().contains("too many searches"), "{m}");
                assert!(Instant::now() < deadline, "the slot was never freed");
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            Some("info") if m["id"] == 3 => break 'retry,
            _ => panic!("{m}"),
        }
    }
    let best = second.recv_type("bestmove").await;
    assert_eq!(best["id"], 3);
    // The slot is free as soon as the result is out: a search asked on seeing it starts.
    for id in 4..8 {
        second.send_json(json!({"type": "go", "id": id, "depth": 2, "purpose": "play"})).await;
        let m = second.recv().await;
        assert_eq!((m["type"].as_str(), m["id"].as_i64()), (Some("info"), Some(id)), "{m}");
        assert_eq!(second.recv_type("bestmove").await["id"], id);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_sessions_analyse_at_once() {
    let addr = start_with(8).await;
    let mut clients = Vec::new();
    for i in 0..8 {
        let mut c = Client::connect(addr).await;
        c.send_json(json!({"type": "go", "id": i, "infinite": true, "multipv": 2, "moves": ["h2e2"]})).await;
        clients.push(c);
    }
    for (i, c) in clients.iter_mut().enumerate() {
        let info = c.recv_type("info").await;
        assert_eq!(info["id"], i);
        assert!(!info["lines"].as_array().unwrap().is_empty());
    }
    for (i, c) in clients.iter_mut().enumerate() {
        c.send_json(json!({"type": "stop"})).await;
        let best = c.recv_type("bestmove").await;
        assert_eq!(best["id"], i);
        // Each session still answers.
        let s = c.ask(json!({"type": "state", "id": 99})).await;
        assert_eq!(s["type"], "state");
    }
}

fn record_bytes(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../xiangqi-core/tests/data/records/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gbk_pgn_loads_and_exports_with_the_same_moves() {
    let addr = start_with(1).await;
    let mut c = Client::connect(addr).await;
    let b64 = base64::engine::general_purpose::STANDARD.encode(record_bytes("walker8088-cchess/test2.pgn"));
    let r = c.ask(json!({"type": "load_record", "id": 1, "base64": b64})).await;
    assert_eq!(
        (r["type"].as_str(), r["format"].as_str(), r["notation"].as_str()),
        (Some("record"), Some("PGN (GBK)"), Some("chinese")),
        "{r}"
    );
    let game = &r["games"][0];
    let moves = game["moves"].as_array().unwrap().clone();
    assert_eq!(moves.len(), 102);
    for notation in ["chinese", "wxf", "iccs", "uci"] {
        let p = c.ask(json!({"type": "export_pgn", "fen": game["fen"], "moves": moves, "notation": notation, "tags": {"Event": "again"}, "result": game["result"]})).await;
        assert_eq!(p["type"], "pgn", "{p}");
        let again = c.ask(json!({"type": "load_record", "text": p["text"]})).await;
        assert_eq!(again["games"][0]["moves"].as_array().unwrap(), &moves, "{notation}");
        assert_eq!(again["games"][0]["tags"]["Event"], "again");
    }
    // The same game as XQF, scrambled (version 18) and not (version 10).
    let a = c.ask(json!({"type": "load_record", "base64": base64::engine::general_purpose::STANDARD.encode(record_bytes("walker8088-cchess/test.xqf"))})).await;
    let b = c.ask(json!({"type": "load_record", "base64": base64::engine::general_purpose::STANDARD.encode(record_bytes("walker8088-cchess/test1.xqf"))})).await;
    assert_eq!((a["format"].as_str(), b["format"].as_str()), (Some("XQF version 18"), Some("XQF version 10")));
    assert!(!a["games"][0]["moves"].as_array().unwrap().is_empty());
    assert_eq!(a["games"][0]["moves"], b["games"][0]["moves"]);
    // Too large, broken, not a record: errors, and the session goes on.
    let big = "1. h2e2 h9g7 ".repeat(90_000);
    let e = c.ask(json!({"type": "load_record", "id": 2, "text": big})).await;
    assert!(e["type"] == "error" && e["message"].as_str().unwrap().contains("too large"), "{e}");
    let e = c.ask(json!({"type": "load_record", "id": 3, "text": "1. h2e2 z9z9 *"})).await;
    assert_eq!((e["type"].as_str(), e["id"].as_i64()), (Some("error"), Some(3)));
    let e = c.ask(json!({"type": "load_record", "base64": "not base64!"})).await;
    assert_eq!(e["type"], "error");
    let e = c.ask(json!({"type": "load_record", "base64": base64::engine::general_purpose::STANDARD.encode([0x7f, b'E', b'L', b'F', 2, 1, 0, 0])})).await;
    assert!(e["message"].as_str().unwrap().contains("not a PGN or XQF file"), "{e}");
    assert_eq!(c.ask(json!({"type": "hello"})).await["type"], "hello");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_origin_is_refused() {
    let addr = start_with(1).await;
    let with_origin = |origin: &str| {
        let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
        req.headers_mut().insert("Origin", HeaderValue::from_str(origin).unwrap());
        req
    };
    for foreign in [
        "http://evil.example",
        &format!("http://evil.example:{}", addr.port()),
        "null",
        &format!("http://127.0.0.1:{}", addr.port() ^ 1),
    ] {
        match tokio_tungstenite::connect_async(with_origin(foreign)).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => assert_eq!(resp.status(), 403, "{foreign}"),
            other => panic!("{foreign}: {:?}", other.map(|_| ())),
        }
    }
    for own in [format!("http://127.0.0.1:{}", addr.port()), format!("http://localhost:{}", addr.port())] {
        let (mut ws, _) = tokio_tungstenite::connect_async(with_origin(&own)).await.unwrap();
        use futures_util::{SinkExt, StreamExt};
        ws.send(tokio_tungstenite::tungstenite::Message::text(r#"{"type":"hello"}"#)).await.unwrap();
        let m = tokio::time::timeout(PATIENCE, ws.next()).await.unwrap().unwrap().unwrap();
        assert!(m.to_text().unwrap().contains("\"hello\""));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_gives_the_search_librarys_node_counts() {
    let addr = start_with(2).await;
    let mut c = Client::connect(addr).await;
    let tree = Tree::parse(SPEC_TREE).unwrap();
    for variant in ["alphabeta", "minimax", "negamax-ab+pvs"] {
        let w = c.ask(json!({"type": "watch", "id": 5, "synthetic": SPEC_TREE, "variant": variant})).await;
        assert_eq!((w["type"].as_str(), w["id"].as_i64()), (Some("watch"), Some(5)), "{w}");
        let variant_config: VariantConfig = variant.parse().unwrap();
        let (r, rec) = variant_config.run_observed::<Tree, TreeEval, Recorder<Child>>(
            tree.clone(),
            TreeEval,
            &Limits::depth(4),
            &RunSetup::default(),
            |_| {},
        );
        assert_eq!(w["searched"].as_u64(), Some(rec.searched_count() as u64), "{variant}");
        assert_eq!(w["pruned"].as_u64(), Some(rec.pruned_count() as u64), "{variant}");
        assert_eq!(w["search_nodes"].as_u64(), Some(r.stats.nodes()), "{variant}");
        assert_eq!(w["value"].as_i64(), Some(i64::from(r.score)));
        let searched = w["nodes"].as_array().unwrap().iter().filter(|n| n["pruned"] == false).count();
        assert_eq!(searched, rec.searched_count());
    }
    // The spec's figure: alpha-beta enters the nodes the search counts and prunes three moves; minimax prunes none.
    let ab = Searcher::<_, _, AlphaBeta>::new(tree, TreeEval).search(&Limits::depth(4));
    let w = c.ask(json!({"type": "watch", "synthetic": SPEC_TREE, "variant": "alphabeta"})).await;
    assert_eq!(
        (w["searched"].as_u64(), w["pruned"].as_u64(), w["value"].as_i64()),
        (Some(ab.stats.main_nodes), Some(3), Some(6))
    );
    assert_eq!(w["nodes"][0]["parent"], Value::Null);
    // A real position at depth 2.
    let pos = Position::startpos();
    let w = c.ask(json!({"type": "watch", "depth": 2, "variant": "pvs+qs", "moves": []})).await;
    let variant_config: VariantConfig = "pvs+qs".parse().unwrap();
    let (_, rec) = variant_config.run_observed::<_, _, Recorder<xiangqi_core::Move>>(
        pos.clone(),
        xiangqi_eval::EngineEval::new(&pos),
        &Limits::depth(2),
        &RunSetup::default(),
        |_| {},
    );
    assert_eq!(w["searched"].as_u64(), Some(rec.searched_count() as u64), "{}", w["searched"]);
    // The recorder's count is the search's (`xiangqi compare`'s nodes, main search and quiescence).
    assert_eq!(w["searched"], w["search_nodes"]);
    let e = c.ask(json!({"type": "watch", "id": 6, "depth": 9})).await;
    assert!(e["type"] == "error" && e["message"].as_str().unwrap().contains("depth"), "{e}");
    let e = c.ask(json!({"type": "watch", "synthetic": "((1 2)", "variant": "alphabeta"})).await;
    assert_eq!(e["type"], "error");
    let e = c.ask(json!({"type": "watch", "synthetic": SPEC_TREE, "variant": "pvs+bogus"})).await;
    assert_eq!(e["type"], "error");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_marks_a_blunder() {
    let addr = start_with(1).await;
    let mut c = Client::connect(addr).await;
    c.send_json(json!({"type": "review", "id": 4, "fen": "4k4/9/1r7/9/1R7/9/9/9/9/3K5 w", "moves": ["d0d1", "b7b5"], "depth": 4})).await;
    let mut progress = Vec::new();
    let review = loop {
        let m = c.recv().await;
        assert_eq!(m["id"], 4, "{m}");
        match m["type"].as_str() {
            Some("review_progress") => progress.push((m["done"].as_u64().unwrap(), m["total"].as_u64().unwrap())),
            Some("review") => break m,
            _ => panic!("{m}"),
        }
    };
    assert_eq!(progress, [(1, 3), (2, 3), (3, 3)]);
    assert_eq!(review["evals"].as_array().unwrap().len(), 3);
    assert_eq!(review["moves"][0]["mark"], "??");
    assert_eq!(review["moves"][0]["best"]["uci"], "b5b7");
    assert!(review["moves"][0]["loss"].as_i64().unwrap() >= 300);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_files_are_served_from_the_binary() {
    let addr = start_with(1).await;
    let get = |path: String| async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).await.unwrap();
        String::from_utf8_lossy(&out).into_owned()
    };
    let mut files = 0;
    for name in xiangqi_web::Assets::iter() {
        let resp = get(format!("/{name}")).await;
        if name.starts_with('.') {
            assert!(resp.starts_with("HTTP/1.1 404"), "{name}");
            continue;
        }
        files += 1;
        assert!(resp.starts_with("HTTP/1.1 200"), "{name}: {resp}");
        let ty = match name.rsplit('.').next().unwrap() {
            "html" => "text/html",
            "css" => "text/css",
            "js" | "mjs" => "javascript",
            "woff2" => "font/woff2",
            "svg" => "image/svg+xml",
            _ => "",
        };
        let content_type = resp
            .lines()
            .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-type: ").map(str::to_owned))
            .unwrap_or_default();
        assert!(content_type.contains(ty), "{name}: {content_type}");
    }
    assert!(xiangqi_web::Assets::get("index.html").is_some(), "the page's index.html is not embedded");
    assert!(get("/".to_owned()).await.starts_with("HTTP/1.1 200"));
    assert!(files >= 1);
    assert!(get("/no/such/file.js".to_owned()).await.starts_with("HTTP/1.1 404"));
    assert!(get("/../Cargo.toml".to_owned()).await.starts_with("HTTP/1.1 404"));
}

#[test]
fn an_exported_tag_may_hold_a_quote_but_not_a_line_break() {
    let (mut session, mut out) = xiangqi_web::protocol::Session::for_test(xiangqi_web::Config::default());
    session.handle_text(r#"{"type":"export_pgn","moves":["h2e2"],"tags":{"Event":"the \"open\""}}"#);
    let p: Value = serde_json::from_str(&out.try_recv().unwrap()).unwrap();
    assert_eq!(p["type"], "pgn", "{p}");
    assert!(p["text"].as_str().unwrap().contains(r#"[Event "the \"open\""]"#), "{p}");
    session.handle_text(r#"{"type":"export_pgn","moves":["h2e2"],"tags":{"Event":"two\nlines"}}"#);
    let e: Value = serde_json::from_str(&out.try_recv().unwrap()).unwrap();
    assert!(e["type"] == "error" && e["message"].as_str().unwrap().contains("line break"), "{e}");
}
