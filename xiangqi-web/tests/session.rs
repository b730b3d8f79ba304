//! The server end to end: a real server on 127.0.0.1 port 0 and WebSocket clients speaking the protocol of
//! `docs/serve-protocol.md`. Every wait is for a message, with a generous bound ([`common::patience`]).

mod common;

use base64::Engine as _;
use common::{patience, start_with, Client};
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
    let deadline = Instant::now() + patience();
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
        // A browser sends the handshake to the host and port it loaded the page from.
        let mut req = with_origin(&own);
        let host = own.trim_start_matches("http://");
        req.headers_mut().insert("Host", HeaderValue::from_str(host).unwrap());
        let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        use futures_util::{SinkExt, StreamExt};
        ws.send(tokio_tungstenite::tungstenite::Message::text(r#"{"type":"hello"}"#)).await.unwrap();
        let m = tokio::time::timeout(patience(), ws.next()).await.unwrap().unwrap().unwrap();
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
        xiangqi_eval::ChosenEval::new(&pos),
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
            "txt" => "text/plain",
            "md" => "text/markdown",
            other => panic!("{name}: no content type known to this test for .{other}: add it"),
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

/// A WebSocket handshake to `addr` from a page at `origin`, sent to the host `host` (the `Host` header).
async fn handshake(addr: std::net::SocketAddr, origin: &str, host: &str) -> Result<(), u16> {
    let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
    req.headers_mut().insert("Origin", HeaderValue::from_str(origin).unwrap());
    req.headers_mut().insert("Host", HeaderValue::from_str(host).unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Ok(_) => Ok(()),
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => Err(resp.status().as_u16()),
        Err(e) => panic!("{origin}: {e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allowed_origins_let_a_named_or_proxied_page_in() {
    // Bound to loopback (the default): a DNS name pointing there is refused unless the operator names it.
    let local = common::start(xiangqi_web::Config {
        allowed_origins: vec!["https://xiangqi.school.example".parse().unwrap()],
        ..xiangqi_web::Config::default()
    })
    .await;
    let port = local.port();
    assert_eq!(
        handshake(local, &format!("http://rebound.example:{port}"), &format!("rebound.example:{port}")).await,
        Err(403)
    );
    // An Ingress on https://xiangqi.school.example passes the browser's Host on: the named origin is allowed.
    assert_eq!(handshake(local, "https://xiangqi.school.example", "xiangqi.school.example").await, Ok(()));
    assert_eq!(handshake(local, "https://other.school.example", "xiangqi.school.example").await, Err(403));
    // Bound to every interface: a page of the address the browser sent the handshake to, a name too.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let all = listener.local_addr().unwrap();
    let config = xiangqi_web::Config { host: "0.0.0.0".to_owned(), ..xiangqi_web::Config::default() };
    tokio::spawn(xiangqi_web::serve(listener, config));
    assert_eq!(handshake(all, "https://xiangqi.school.example", "xiangqi.school.example").await, Ok(()));
    assert_eq!(handshake(all, "http://box.lan:8080", "box.lan:8080").await, Ok(()));
    assert_eq!(handshake(all, "http://box.lan:8081", "box.lan:8080").await, Err(403));
    assert_eq!(handshake(all, "https://evil.example", "xiangqi.school.example").await, Err(403));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operators_caps_end_a_search_and_the_answer_says_so() {
    let addr = common::start(xiangqi_web::Config {
        max_searches: 1,
        eval: xiangqi_eval::EvalChoice::Handcrafted,
        max_movetime: Some(std::time::Duration::from_millis(300)),
        max_nodes: Some(20_000),
        ..xiangqi_web::Config::default()
    })
    .await;
    let mut c = Client::connect(addr).await;
    let hello = c.ask(json!({"type": "hello"})).await;
    assert_eq!((hello["max_movetime_ms"].as_u64(), hello["max_nodes"].as_u64()), (Some(300), Some(20_000)), "{hello}");
    // An infinite analysis ends by itself at a cap, without a stop, and says which caps applied.
    c.send_json(json!({"type": "go", "id": 1, "infinite": true})).await;
    let best = c.recv_type("bestmove").await;
    assert_eq!(best["id"], 1);
    assert_eq!(best["clamped"], json!({"movetime_ms": 300, "nodes": 20_000}), "{best}");
    assert!(best["nodes"].as_u64().unwrap() <= 20_000 + 5_000, "the node cap is kept (checked periodically): {best}");
    // A request within the caps is unchanged and says nothing.
    c.send_json(json!({"type": "go", "id": 2, "depth": 1, "movetime": 200, "nodes": 1000})).await;
    let best = c.recv_type("bestmove").await;
    assert!(best.get("clamped").is_none(), "{best}");
    // A review's positions are capped too.
    c.send_json(json!({"type": "review", "id": 3, "moves": ["h2e2"], "movetime": 60_000})).await;
    let review = c.recv_type("review").await;
    assert_eq!(review["clamped"], json!({"movetime_ms": 300, "nodes": 20_000}), "{review}");
    // Uncapped, nothing is said.
    let plain = start_with(1).await;
    let mut c = Client::connect(plain).await;
    let hello = c.ask(json!({"type": "hello"})).await;
    assert!(hello["max_movetime_ms"].is_null() && hello["max_nodes"].is_null(), "{hello}");
    c.send_json(json!({"type": "go", "id": 4, "depth": 2})).await;
    assert!(c.recv_type("bestmove").await.get("clamped").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_binary_frame_gets_an_error_and_an_oversized_frame_closes_the_socket() {
    use tokio_tungstenite::tungstenite::Message;
    let addr = start_with(1).await;
    let mut c = Client::connect(addr).await;
    c.send_message(Message::Binary(br#"{"type":"hello"}"#.to_vec().into())).await;
    let e = c.recv().await;
    assert_eq!(e["type"], "error", "{e}");
    assert!(e["message"].as_str().unwrap().contains("binary frames"), "{e}");
    // The session goes on.
    assert_eq!(c.ask(json!({"type": "hello", "id": 1})).await["type"], "hello");
    // A message of exactly the limit is read (and answered: an unknown field is ignored).
    let pad = |total: usize| {
        let empty = json!({"type": "hello", "id": 2, "pad": ""}).to_string().len();
        json!({"type": "hello", "id": 2, "pad": "x".repeat(total - empty)}).to_string()
    };
    let at_limit = pad(xiangqi_web::MAX_MESSAGE);
    assert_eq!(at_limit.len(), xiangqi_web::MAX_MESSAGE);
    c.send(at_limit).await;
    let m = c.recv().await;
    assert_eq!((m["type"].as_str(), m["id"].as_i64()), (Some("hello"), Some(2)), "{m:.200}");
    // One byte more closes the socket.
    c.send(pad(xiangqi_web::MAX_MESSAGE + 1)).await;
    assert!(c.is_closed_by_server().await, "a message over the limit did not close the socket");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_nodes_caps_a_watched_tree() {
    let addr = start_with(1).await;
    let mut c = Client::connect(addr).await;
    let all = c.ask(json!({"type": "watch", "depth": 2, "variant": "alphabeta", "max_nodes": 20_000})).await;
    let total = all["total"].as_u64().unwrap();
    assert_eq!(all["nodes"].as_array().unwrap().len() as u64, total.min(20_000), "{:.300}", all.to_string());
    assert!(total > 50, "{total}");
    for max in [1u64, 7, 50] {
        let w = c.ask(json!({"type": "watch", "depth": 2, "variant": "alphabeta", "max_nodes": max})).await;
        assert_eq!(w["type"], "watch", "{w}");
        assert_eq!((w["nodes"].as_array().unwrap().len() as u64, w["sent"].as_u64()), (max, Some(max)));
        // The first nodes in search order, the same as the whole tree's (but for the count of children left out).
        let without_omitted = |nodes: &[Value]| {
            nodes
                .iter()
                .cloned()
                .map(|mut n| n.as_object_mut().unwrap().remove("omitted").map(|_| n).unwrap())
                .collect::<Vec<_>>()
        };
        let sent = w["nodes"].as_array().unwrap();
        assert_eq!(without_omitted(sent), without_omitted(&all["nodes"].as_array().unwrap()[..max as usize]));
        // What was left out is counted: every node sent, plus the children omitted, is the whole tree.
        let omitted: u64 = sent.iter().map(|n| n["omitted"].as_u64().unwrap()).sum();
        assert_eq!(max + omitted, total, "{w}");
        assert_eq!((w["total"].as_u64(), w["searched"].as_u64()), (Some(total), all["searched"].as_u64()));
    }
    let e = c.ask(json!({"type": "watch", "depth": 2, "max_nodes": 20_001})).await;
    assert!(e["type"] == "error" && e["message"].as_str().unwrap().contains("max_nodes"), "{e}");
}

/// A line of `n` moves from the start (the engine's own at depth 1 is not needed: any legal line will do).
fn some_line(n: usize) -> Vec<String> {
    let mut pos = Position::startpos();
    let mut line = Vec::new();
    for _ in 0..n {
        let m = pos.legal_moves()[0];
        line.push(m.to_string());
        pos.make_move(m);
    }
    line
}

/// The time of each position of a review that only a stop ends early: 30 s times `XIANGQI_TEST_TIME_SCALE` (within
/// the protocol's 60 s), so that a regression fails in about two minutes instead of hanging.
fn long_review_movetime() -> std::time::Duration {
    common::time_scale::scaled(std::time::Duration::from_secs(30)).min(std::time::Duration::from_secs(60))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_ends_a_review_with_an_error() {
    let addr = start_with(1).await;
    let mut c = Client::connect(addr).await;
    // Four positions of half a minute each (times the test's time scale): two minutes unless stopped.
    let movetime = long_review_movetime();
    c.send_json(json!({"type": "review", "id": 5, "moves": some_line(3), "movetime": movetime.as_millis() as u64}))
        .await;
    let asked = Instant::now();
    c.send_json(json!({"type": "stop", "id": 5})).await;
    let m = loop {
        let m = c.recv().await;
        if m["type"] != "review_progress" {
            break m;
        }
    };
    assert_eq!((m["type"].as_str(), m["id"].as_i64()), (Some("error"), Some(5)), "{m}");
    assert_eq!(m["message"], "the review was stopped");
    assert!(asked.elapsed() < movetime, "the review was not stopped: it ran its first position");
    // Its slot is free again.
    c.send_json(json!({"type": "go", "id": 6, "depth": 1})).await;
    assert_eq!(c.recv_type("bestmove").await["id"], 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_socket_stops_its_review() {
    let addr = start_with(1).await;
    let mut first = Client::connect(addr).await;
    let movetime = long_review_movetime();
    first
        .send_json(json!({"type": "review", "id": 1, "moves": some_line(3), "movetime": movetime.as_millis() as u64}))
        .await;
    // The review holds the only slot.
    let mut second = Client::connect(addr).await;
    let e = second.ask(json!({"type": "go", "id": 2, "depth": 1})).await;
    assert!(e["message"].as_str().unwrap().contains("too many searches"), "{e}");
    first.close().await;
    // The slot comes back before the review's first position would end.
    let closed = Instant::now();
    loop {
        second.send_json(json!({"type": "go", "id": 3, "depth": 1})).await;
        let m = second.recv().await;
        if m["type"] == "info" || m["type"] == "bestmove" {
            break;
        }
        assert!(m["message"].as_str().unwrap().contains("too many searches"), "{m}");
        assert!(closed.elapsed() < movetime, "the review went on");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reviews_capped_values_are_its_scores_within_a_thousand() {
    let addr = start_with(1).await;
    let mut c = Client::connect(addr).await;
    // Red two chariots and two cannons up (far over 1000), then mated lines: every kind of value.
    let fen = "3k5/9/9/9/9/9/9/9/9/RRCCK4 w";
    let r = c.ask(json!({"type": "review", "fen": fen, "moves": ["a0a9", "d9d8", "b0b8"], "depth": 2})).await;
    assert_eq!(r["type"], "review", "{r}");
    let (evals, capped) = (r["evals"].as_array().unwrap(), r["capped"].as_array().unwrap());
    assert_eq!((evals.len(), capped.len()), (4, 4));
    for (e, c) in evals.iter().zip(capped) {
        let want = match (e["cp"].as_i64(), e["mate"].as_i64()) {
            (Some(cp), None) => cp.clamp(-1000, 1000),
            (None, Some(mate)) => 1000 * mate.signum(),
            _ => panic!("{e}"),
        };
        assert_eq!(c.as_i64(), Some(want), "{e}: {c}");
    }
    assert!(capped.iter().any(|c| c == 1000), "no value reached the cap: {r}");
    assert!(evals.iter().any(|e| e["cp"].as_i64().is_some_and(|cp| cp > 1000)), "no score over 1000: {r}");
    // The review's depth has the search's one limit, MAX_DEPTH (the operator's caps bound its cost).
    let e = c.ask(json!({"type": "review", "fen": fen, "moves": ["a0a9"], "depth": 121})).await;
    assert_eq!(e["message"], "depth must be from 1 to 120, not 121", "{e}");
}
