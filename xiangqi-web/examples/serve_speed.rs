//! What the server costs: a search through a running `xiangqi serve` (a `go` with a movetime over its WebSocket)
//! against `xiangqi search --movetime` on the same position and time, alternated in one run (each `go` on a new
//! session, so a fresh engine and table, as `xiangqi search` has), and the time to fetch the page and its files.
//!
//! ```text
//! xiangqi serve --port 8080 &
//! cargo run --release -p xiangqi-web --example serve_speed -- 127.0.0.1:8080 target/release/xiangqi 1000 5
//! ```
//!
//! Arguments: the server's address, the `xiangqi` binary, the movetime in ms (default 1000), the runs (default 5).

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

const FENS: [&str; 2] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2",
];

async fn get(addr: &str, path: &str) -> usize {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    assert!(out.starts_with(b"HTTP/1.1 200"), "GET {path}: {}", String::from_utf8_lossy(&out[..out.len().min(80)]));
    out.len()
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let addr = args.get(1).cloned().unwrap_or_else(|| "127.0.0.1:8080".to_owned());
    let binary = args.get(2).cloned().unwrap_or_else(|| "target/release/xiangqi".to_owned());
    let movetime: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let runs: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(5);

    // Page ready: the page, then every file it names (fetched in parallel, as a browser does).
    let files: Vec<String> = xiangqi_web::Assets::iter()
        .filter(|f| !f.starts_with('.') && f.as_ref() != "index.html" && !f.ends_with(".md") && !f.ends_with(".txt"))
        .map(|f| format!("/{f}"))
        .collect();
    let mut ready = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let mut bytes = get(&addr, "/").await;
        let fetches: Vec<_> = files
            .iter()
            .map(|f| {
                tokio::spawn({
                    let (addr, f) = (addr.clone(), f.clone());
                    async move { get(&addr, &f).await }
                })
            })
            .collect();
        for f in fetches {
            bytes += f.await.unwrap();
        }
        ready.push((t.elapsed(), bytes));
    }
    ready.sort();
    println!(
        "page ready (GET / and {} files, {} bytes): median {:.2} ms, worst {:.2} ms of 20",
        files.len(),
        ready[0].1,
        ready[10].0.as_secs_f64() * 1e3,
        ready[19].0.as_secs_f64() * 1e3
    );

    let mut first_info = Vec::new();
    println!("{:<8} {:>12} {:>12} {:>8}", "run", "server nps", "search nps", "ratio");
    let (mut sum_server, mut sum_cli) = (0f64, 0f64);
    for run in 0..runs {
        let fen = FENS[run % FENS.len()];
        // A new session each run: a fresh engine and table, as `xiangqi search` has.
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.unwrap();
        let asked = Instant::now();
        let go = json!({"type": "go", "id": run, "fen": fen, "movetime": movetime, "purpose": "analyse"});
        ws.send(Message::text(go.to_string())).await.unwrap();
        let mut first = None;
        let best = loop {
            let m = tokio::time::timeout(Duration::from_secs(60), ws.next()).await.unwrap().unwrap().unwrap();
            let v: Value = serde_json::from_str(m.to_text().unwrap()).unwrap();
            if v["type"] == "info" && first.is_none() {
                first = Some(asked.elapsed());
            }
            if v["type"] == "bestmove" {
                break v;
            }
            assert_ne!(v["type"], "error", "{v}");
        };
        first_info.push(first.unwrap());
        let server = best["nps"].as_f64().unwrap();
        let out = std::process::Command::new(&binary)
            .args(["search", "--fen", fen, "--movetime", &movetime.to_string(), "--json"])
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let cli = v["stats"]["nps"].as_f64().unwrap();
        sum_server += server;
        sum_cli += cli;
        println!("{run:<8} {server:>12.0} {cli:>12.0} {:>8.3}", server / cli);
    }
    println!(
        "{:<8} {:>12.0} {:>12.0} {:>8.3}",
        "mean",
        sum_server / runs as f64,
        sum_cli / runs as f64,
        sum_server / sum_cli
    );
    first_info.sort();
    println!(
        "first info after the go: median {:.1} ms, worst {:.1} ms",
        first_info[first_info.len() / 2].as_secs_f64() * 1e3,
        first_info[first_info.len() - 1].as_secs_f64() * 1e3
    );
}
