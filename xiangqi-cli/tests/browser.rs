//! `xiangqi serve` in a real browser: headless Chromium, driven over WebDriver (chromedriver, through the
//! `fantoccini` client), plays, analyses, opens and exports a game record, flips the board, refuses an impossible
//! position in the editor and steps through a recorded search, all on the real `xiangqi` binary and by clicks.
//!
//! The test needs Debian's `chromium` and `chromium-driver` packages (`chromium` and `chromedriver` on `PATH`).
//! Without them it fails, naming what is missing; `XIANGQI_BROWSER_TESTS=skip` skips it (with or without them),
//! with a line on the terminal that `cargo test` shows. Every wait is for a condition in the page, with a generous timeout; no sleep is
//! an assertion.

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use xiangqi_core::Position;
use xiangqi_search::record::Recorder;
use xiangqi_search::synthetic::{Child as TreeChild, Tree, TreeEval};

#[path = "../../xiangqi-search/tests/support/time_scale.rs"]
mod time_scale;
use xiangqi_search::{Limits, RunSetup, VariantConfig};

#[path = "browser/board.rs"]
mod board;

/// How long any one page condition may take to become true on a loaded machine.
const WAIT: Duration = Duration::from_secs(30);
/// How long a whole game against the engine may take (the engine's moves share two cores with other builds).
const GAME_WAIT: Duration = Duration::from_secs(180);

/// The spec's synthetic tree (the page's default in "Watch the search").
const SPEC_TREE: &str = "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))";

/// The game's start: Black (the player) has a king, two advisors and two soldiers, Red (the engine) two chariots
/// that mate in a few moves whatever Black plays.
const GAME_FEN: &str = "4k4/4a4/3a5/p1p6/9/9/9/9/R7R/3K5 b - - 0 1";

#[path = "browser/review.rs"]
mod review;

/// A child process killed when the test ends, passed or failed.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The program `name` on `PATH`, if any.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| p.is_file())
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").expect("bind a free port").local_addr().expect("local address").port()
}

/// `xiangqi serve --port 0` with `more` flags, and the page's URL it prints.
fn start_server(more: &[&str]) -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["serve", "--port", "0"])
        .args(more)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start xiangqi serve");
    let stdout = child.stdout.take().expect("piped stdout");
    let guard = Killed(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("read the server's first line");
    // "xiangqi serve: http://127.0.0.1:PORT/ (Ctrl-C to stop)"
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in the server's first line {line:?}"))
        .to_owned();
    (guard, url)
}

/// chromedriver on a free port, once it accepts connections. (The port is free when chosen; should another
/// program take it before chromedriver binds it, chromedriver exits and another port is tried.)
fn start_chromedriver(driver: &Path) -> (Killed, u16) {
    for _ in 0..5 {
        let port = free_port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let mut guard = Killed(child);
        let start = Instant::now();
        loop {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return (guard, port);
            }
            if let Ok(Some(status)) = guard.0.try_wait() {
                eprintln!("chromedriver exited ({status}) before listening on port {port}; trying another port");
                break;
            }
            assert!(start.elapsed() < WAIT, "chromedriver did not listen on port {port} within {WAIT:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    panic!("chromedriver exited five times before listening");
}

async fn connect(port: u16, chromium: &Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_owned(),
        json!({
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--no-first-run", "--disable-extensions"],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session with headless Chromium")
}

/// Runs `script` (a function body that `return`s) in the page until its value is truthy; returns that value.
async fn wait_for(c: &Client, what: &str, script: &str, timeout: Duration) -> Value {
    let start = Instant::now();
    loop {
        let v = c.execute(script, vec![]).await.unwrap_or_else(|e| panic!("{what}: script failed: {e}"));
        let truthy = match &v {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Number(n) => n.as_f64() != Some(0.0),
            Value::String(s) => !s.is_empty(),
            _ => true,
        };
        if truthy {
            return v;
        }
        if start.elapsed() > time_scale::scaled(timeout) {
            let status = c.execute("return document.getElementById('status')?.textContent", vec![]).await;
            panic!("timed out after {timeout:?} waiting for {what} (last value {v}; page status {status:?})");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap_or_else(|e| panic!("script {script:?} failed: {e}"))
}

async fn click(c: &Client, css: &str) {
    let e = c.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no element {css}: {e}"));
    e.click().await.unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
}

async fn select(c: &Client, css: &str, value: &str) {
    let e = c.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no element {css}: {e}"));
    e.select_by_value(value).await.unwrap_or_else(|e| panic!("cannot select {value} in {css}: {e}"));
}

/// Replaces an input's text by typing, then leaves it (Tab) so that its `change` event fires.
async fn type_into(c: &Client, css: &str, text: &str) {
    let e = c.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no element {css}: {e}"));
    e.clear().await.unwrap_or_else(|e| panic!("cannot clear {css}: {e}"));
    e.send_keys(&format!("{text}\u{E004}")).await.unwrap_or_else(|e| panic!("cannot type into {css}: {e}"));
}

/// The page with nothing remembered (a new game from the start position, the default settings), connected.
async fn fresh_page(c: &Client, url: &str) {
    // The storage is cleared from a page of the same origin that runs no script (the style sheet), so that no page
    // saves its game again in between.
    c.goto(&format!("{url}style.css")).await.expect("open the style sheet");
    js(c, "localStorage.clear(); return true").await;
    c.goto(url).await.expect("open the page");
    wait_for(c, "the page's socket", "return document.querySelector('#conn[data-up=\"1\"]') !== null", WAIT).await;
    wait_for(c, "the start position drawn", "return document.querySelectorAll('[data-piece]').length === 32", WAIT)
        .await;
}

/// Runs the `xiangqi` binary; its standard output, or a panic with its error.
fn xiangqi(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi")).args(args).output().expect("run xiangqi");
    assert!(out.status.success(), "xiangqi {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The moves of a record's first game, in UCI notation, as `xiangqi convert` reads them (main line only).
fn record_moves(path: &Path) -> Vec<String> {
    let out = scratch().join(format!("{}.uci.pgn", path.file_name().unwrap().to_string_lossy()));
    xiangqi(&["convert", path.to_str().unwrap(), out.to_str().unwrap(), "--notation", "uci", "--encoding", "utf8"]);
    let text = std::fs::read_to_string(&out).expect("read the converted record");
    // The movetext without the tags, the comments `{...}` and the variations `(...)`.
    let mut main = String::new();
    let mut depth = 0usize;
    for ch in text.lines().filter(|l| !l.trim_start().starts_with('[')).flat_map(|l| l.chars().chain(['\n'])) {
        match ch {
            '{' | '(' => depth += 1,
            '}' | ')' => depth = depth.saturating_sub(1),
            c if depth == 0 => main.push(c),
            _ => {}
        }
    }
    main.split_whitespace().filter(|w| is_uci(w)).map(str::to_owned).collect()
}

fn is_uci(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 4
        && (b'a'..=b'i').contains(&b[0])
        && b[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&b[2])
        && b[3].is_ascii_digit()
}

fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The UCI moves of the page's move list, in order.
async fn page_moves(c: &Client) -> Vec<String> {
    let v = js(c, "return [...document.querySelectorAll('[data-testid=moves] .move')].map(e => e.dataset.uci)").await;
    v.as_array().expect("an array").iter().map(|m| m.as_str().expect("a move").to_owned()).collect()
}

/// The centre of an element on the screen.
async fn centre(c: &Client, css: &str) -> (f64, f64) {
    let (x, y, w, h) = c.find(Locator::Css(css)).await.expect(css).rectangle().await.expect("its rectangle");
    (x + w / 2.0, y + h / 2.0)
}

// ------------------------------------------------------------------------------------------------ the checks

/// 1. A whole game against the engine by clicks, until the rules end it; every move legal.
async fn play_a_game(c: &Client, url: &str) {
    fresh_page(c, url).await;
    // The engine searches to depth 4: it sees the mates of this ending at once.
    select(c, "#strength", "depth").await;
    type_into(c, "#strength-n", "4").await;
    select(c, "#side", "black").await;
    type_into(c, "#fen", GAME_FEN).await;
    click(c, "#btn-start").await;
    let pieces = GAME_FEN.split(' ').next().unwrap().chars().filter(char::is_ascii_alphabetic).count();
    let script = format!("return document.querySelectorAll('[data-piece]').length === {pieces}");
    wait_for(c, "the game's start position", &script, WAIT).await;
    let start = Instant::now();
    let mut clicks = 0;
    loop {
        assert!(start.elapsed() < GAME_WAIT, "the game did not end within {GAME_WAIT:?}");
        // Either the game is over, or it is the player's (Black's) turn with the server's legal moves shown.
        let turn = wait_for(
            c,
            "the game's end or the player's turn",
            "const s = document.getElementById('status');
             if (s.dataset.result) return 'over';
             const st = window.xq && window.xq.board;
             const n = window.xq.pathOf(window.xq.game.cur).length;
             if (n % 2 === 0 && st && Object.keys(st.legal).length) return JSON.stringify(st.legal);
             return null;",
            GAME_WAIT,
        )
        .await;
        let turn = turn.as_str().expect("a string");
        if turn == "over" {
            break;
        }
        let legal: serde_json::Map<String, Value> = serde_json::from_str(turn).expect("the legal moves");
        // The first legal move in square order.
        let (from, to) = {
            let mut from: Vec<&String> = legal.keys().collect();
            from.sort();
            let f = from[0];
            let mut to: Vec<&str> = legal[f].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
            to.sort();
            (f.clone(), to[0].to_owned())
        };
        let before = page_moves(c).await.len();
        click(c, &format!("[data-square={from}]")).await;
        click(c, &format!("[data-square={to}]")).await;
        clicks += 1;
        let script = format!("return document.querySelectorAll('[data-testid=moves] .move').length > {before}");
        wait_for(c, &format!("the move {from}{to} in the move list"), &script, WAIT).await;
        assert!(clicks < 40, "the game goes on after 40 moves of the player");
    }
    let moves = page_moves(c).await;
    let rule = js(c, "return document.getElementById('status').dataset.result").await;
    let status = js(c, "return document.getElementById('status').textContent").await;
    // The replay by the rules (strict: an illegal move is an error) ends the same way.
    let joined = moves.join(" ");
    let report: Value =
        serde_json::from_str(&xiangqi(&["game", "--fen", GAME_FEN, "--moves", &joined, "--json"])).expect("JSON");
    assert_eq!(report["plies"], moves.len(), "{report}");
    assert_eq!(report["unplayed"], 0, "{report}");
    assert_eq!(report["result"], "red", "the engine (Red) won: {report}; page: {status}");
    assert_eq!(report["reason"].as_str(), rule.as_str(), "the rule the page shows: {status}");
    assert!(moves.len() >= 2 && clicks >= 1, "a game of moves by both sides: {moves:?}");
    eprintln!("browser: game over after {} plies ({status}) in {:.1} s", moves.len(), start.elapsed().as_secs_f64());
}

/// 2. Infinite analysis shows its lines; the time from the click to the first line is measured in the page.
async fn analysis_lines(c: &Client, url: &str) -> f64 {
    fresh_page(c, url).await;
    click(c, "[data-tab=analyse]").await;
    js(
        c,
        "window.__t0 = null; window.__firstLine = null;
         const ol = document.getElementById('lines');
         document.getElementById('btn-analyse').addEventListener('click', () => { window.__t0 = performance.now(); },
           { once: true, capture: true });
         new MutationObserver((_, obs) => {
           if (window.__t0 !== null && ol.querySelector('li.line .pvmove')) {
             window.__firstLine = performance.now() - window.__t0;
             obs.disconnect();
           }
         }).observe(ol, { childList: true, subtree: true });
         return true;",
    )
    .await;
    click(c, "#btn-analyse").await;
    let ms = wait_for(c, "the first analysis line", "return window.__firstLine", WAIT).await.as_f64().unwrap();
    // MultiPV 3 (the default): three lines, each a score and moves the server calls legal from this position.
    let lines = wait_for(
        c,
        "three analysis lines",
        "const ls = [...document.querySelectorAll('[data-testid=lines] li.line')];
         if (ls.length !== 3) return null;
         return ls.map(l => ({ score: l.querySelector('.score').textContent,
                               first: l.querySelector('.pvmove')?.dataset.uci }));",
        WAIT,
    )
    .await;
    let legal = js(c, "return window.xq.board.legal").await;
    for line in lines.as_array().unwrap() {
        let score = line["score"].as_str().unwrap();
        assert!(score.starts_with(['+', '-']) || score == "0.00", "a score: {line}");
        let first = line["first"].as_str().expect("a first move");
        let dests = legal[&first[..2]].as_array().unwrap_or_else(|| panic!("{first} starts on a movable piece"));
        assert!(dests.iter().any(|d| d == &first[2..]), "{first} is legal");
    }
    click(c, "#btn-analyse").await; // stop
    wait_for(
        c,
        "the analysis stopped",
        "return document.querySelectorAll('[data-testid=lines] li').length === 0",
        WAIT,
    )
    .await;
    ms
}

/// The operator's cap ends an infinite analysis: the page says so and its button offers a new analysis.
async fn analysis_ends_at_the_servers_cap(c: &Client, url: &str) {
    fresh_page(c, url).await;
    click(c, "[data-tab=analyse]").await;
    click(c, "#btn-analyse").await;
    let info = wait_for(
        c,
        "the server's cap to end the analysis",
        "const i = document.getElementById('anainfo').textContent; return i.includes('limit') ? i : null",
        WAIT,
    )
    .await;
    assert_eq!(info, "The server's limit was reached: the analysis stopped");
    let button = js(c, "return document.getElementById('btn-analyse').textContent").await;
    assert_eq!(button, "Infinite analysis", "the button offers a new analysis");
}

/// 3. A GBK PGN opens through the file input and exports again with the same moves.
async fn gbk_record_round_trip(c: &Client, url: &str) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../xiangqi-core/tests/data/records/walker8088-cchess/test2.pgn");
    let path = path.canonicalize().expect("the GBK record");
    let bytes = std::fs::read(&path).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err(), "the record is GBK, not UTF-8");
    let expected = record_moves(&path);
    assert_eq!(expected.len(), 102, "the record's main line");
    fresh_page(c, url).await;
    click(c, "[data-tab=games]").await;
    let input = c.find(Locator::Css("#file")).await.expect("the file input");
    input.send_keys(path.to_str().unwrap()).await.expect("choose the file");
    let script = format!("return document.querySelectorAll('[data-testid=moves] .move').length === {}", expected.len());
    wait_for(c, "the record's moves in the move list", &script, WAIT).await;
    assert_eq!(page_moves(c).await, expected, "the moves the page opened");
    let text = exported_pgn(c).await;
    let exported = scratch().join("exported.pgn");
    std::fs::write(&exported, text).unwrap();
    assert_eq!(record_moves(&exported), expected, "the exported PGN's moves");
}

/// Clicks "Export PGN" (on the Games tab) and returns the PGN the page shows.
async fn exported_pgn(c: &Client) -> String {
    click(c, "#btn-export").await;
    let text = wait_for(
        c,
        "the exported PGN",
        "const o = document.getElementById('pgn-out'); return o.hidden ? null : o.value;",
        WAIT,
    )
    .await;
    text.as_str().expect("the PGN is text").to_owned()
}

/// 4. The board flips by a rotation of 180 degrees: a0 ends up top right, i9 bottom left.
async fn board_flips(c: &Client, url: &str) {
    fresh_page(c, url).await;
    let corners = |c: &Client| {
        let c = c.clone();
        async move {
            let mut v = Vec::new();
            for sq in ["a0", "i0", "a9", "i9"] {
                v.push(centre(&c, &format!("[data-square={sq}]")).await);
            }
            v
        }
    };
    let before = corners(c).await;
    let (a0, i0, a9) = (before[0], before[1], before[2]);
    assert!(a0.0 < i0.0 && a0.1 > a9.1, "unflipped: a0 bottom left, {before:?}");
    assert_eq!(js(c, "return document.querySelector('[data-square=e0] [data-piece]').dataset.piece").await, "K");
    click(c, "#btn-flip").await;
    wait_for(c, "the flip", "return window.xq.settings.flipped === true", WAIT).await;
    let after = corners(c).await;
    let (a0, i0, a9, i9) = (after[0], after[1], after[2], after[3]);
    // Rotated, not mirrored: a0 top right, i0 top left, a9 bottom right, i9 bottom left.
    assert!(a0.0 > i0.0 && (a0.1 - i0.1).abs() < 1.0, "flipped: a0 right of i0 on one rank, {after:?}");
    assert!(a0.1 < a9.1 && (a0.0 - a9.0).abs() < 1.0, "flipped: a0 above a9 on one file, {after:?}");
    assert!(i9.0 < a9.0 && i9.1 > i0.1, "flipped: i9 bottom left, {after:?}");
    // The squares swapped places exactly: the board turned about its centre.
    let (b_a0, b_i9) = (before[0], before[3]);
    assert!((a0.0 - b_i9.0).abs() < 1.0 && (a0.1 - b_i9.1).abs() < 1.0, "a0 where i9 was, {before:?} {after:?}");
    assert!((i9.0 - b_a0.0).abs() < 1.0 && (i9.1 - b_a0.1).abs() < 1.0, "i9 where a0 was, {before:?} {after:?}");
    assert_eq!(js(c, "return document.querySelector('[data-square=e0] [data-piece]').dataset.piece").await, "K");
}

/// 5. The editor refuses a position with three kings and shows the rules' reason.
async fn editor_refuses_three_kings(c: &Client, url: &str) {
    fresh_page(c, url).await;
    click(c, "[data-tab=editor]").await;
    click(c, "#ed-clear").await;
    wait_for(c, "an empty board", "return document.querySelectorAll('[data-piece]').length === 0", WAIT).await;
    for (piece, square) in [("K", "e0"), ("k", "e9"), ("k", "d9")] {
        click(c, &format!("#palette [data-pick={piece}]")).await;
        click(c, &format!("[data-square={square}]")).await;
        let script = format!("return document.querySelector('[data-square={square}] [data-piece={piece}]') !== null");
        wait_for(c, &format!("{piece} on {square}"), &script, WAIT).await;
    }
    let fen = js(c, "return document.getElementById('ed-fen').value").await;
    let fen = fen.as_str().unwrap();
    assert!(fen.starts_with("3kk4/9/9/9/9/9/9/9/9/4K4 "), "the editor's FEN {fen}");
    let reason = Position::from_fen(fen).expect_err("three kings are refused by the rules").to_string();
    click(c, "#ed-apply").await;
    let msg = wait_for(
        c,
        "the editor's error",
        "const m = document.querySelector('[data-testid=editor-message]');
         return m.classList.contains('error') ? m.textContent : null;",
        WAIT,
    )
    .await;
    let msg = msg.as_str().unwrap();
    assert!(msg.contains(&reason), "the page shows the rules' reason {reason:?}: {msg:?}");
    eprintln!("browser: the editor refused three kings: {msg}");
    // Refused: the editor stays open and the game keeps its position.
    assert_eq!(js(c, "return window.xq.settings.tab").await, "editor");
    assert_eq!(js(c, "return window.xq.game.fen").await, xiangqi_core::START_FEN);
}

/// The node counts of one search of the spec's tree: (entered, pruned, nodes) as the search library gives them.
fn library_counts(variant: &str) -> (usize, usize, u64) {
    let variant_config: VariantConfig = variant.parse().expect("a variant");
    let tree = Tree::parse(SPEC_TREE).expect("the spec's tree");
    // The tree's height: its leaves lie four plies down.
    let (result, rec) = variant_config.run_observed::<Tree, TreeEval, Recorder<TreeChild>>(
        tree,
        TreeEval,
        &Limits::depth(4),
        &RunSetup::default(),
        |_| {},
    );
    (rec.searched_count(), rec.pruned_count(), result.stats.nodes())
}

/// 6. Watch the search: the spec's tree, two variants, stepped through; the counts are the library's.
async fn watch_the_search(c: &Client, url: &str) {
    fresh_page(c, url).await;
    click(c, "[data-tab=watch]").await;
    let tree = js(c, "return document.getElementById('w-tree').value").await;
    assert_eq!(tree, SPEC_TREE, "the page's default tree is the spec's");
    click(c, "#w-run").await;
    let heads = wait_for(
        c,
        "both variants' trees",
        "const h = [...document.querySelectorAll('[data-testid=watch-count]')];
         if (h.length !== 2) return null;
         return h.map(e => ({ name: e.querySelector('b').textContent, searched: Number(e.dataset.searched),
                              pruned: Number(e.dataset.pruned), nodes: Number(e.dataset.nodes),
                              text: e.textContent }));",
        WAIT,
    )
    .await;
    for (head, variant) in heads.as_array().unwrap().iter().zip(["alphabeta", "pvs"]) {
        let (searched, pruned, nodes) = library_counts(variant);
        assert_eq!(head["searched"], searched, "{variant}: nodes entered, {head}");
        assert_eq!(head["nodes"], nodes, "{variant}: the search's node count, {head}");
        assert_eq!(head["pruned"], pruned, "{variant}: moves pruned, {head}");
    }
    // `xiangqi tree` says the same of the same tree.
    for (head, variant) in heads.as_array().unwrap().iter().zip(["alphabeta", "pvs"]) {
        let out = scratch().join(format!("tree-{variant}.dot"));
        let said = xiangqi(&["tree", "--synthetic", SPEC_TREE, "--variant", variant, "--out", out.to_str().unwrap()]);
        let (searched, pruned) = (head["searched"].as_u64().unwrap(), library_counts(variant).1);
        let expected = format!("the search entered {searched} nodes and pruned {pruned} moves");
        assert!(said.contains(&expected), "{variant}: xiangqi tree says {said:?}, the page {head}");
    }
    let (a, b) = (library_counts("alphabeta"), library_counts("pvs"));
    assert!(a.0 > 0 && b.0 > 0 && a.1 > 0, "the spec's tree prunes under alpha-beta: {a:?} {b:?}");
    // Step through: forwards, backwards, to the end.
    let pos = |c: &Client| {
        let c = c.clone();
        async move { js(&c, "return document.getElementById('w-pos').textContent").await.as_str().unwrap().to_owned() }
    };
    let first = pos(c).await;
    let total: usize = first.split('/').nth(1).unwrap().trim().parse().unwrap();
    assert!(first.starts_with("1 /") && total > 4, "at the first node: {first}");
    for _ in 0..3 {
        click(c, "#w-fwd").await;
    }
    wait_for(c, "step 4", &format!("return document.getElementById('w-pos').textContent === '4 / {total}'"), WAIT)
        .await;
    let current = js(c, "return document.querySelector('#w-a .wnode.current')?.textContent").await;
    assert!(current.as_str().is_some_and(|s| !s.is_empty()), "a current node shown");
    click(c, "#w-back").await;
    wait_for(c, "step 3", &format!("return document.getElementById('w-pos').textContent === '3 / {total}'"), WAIT)
        .await;
    click(c, "#w-last").await;
    let last = format!("{total} / {total}");
    wait_for(c, "the last step", &format!("return document.getElementById('w-pos').textContent === '{last}'"), WAIT)
        .await;

    // On the board's position (the start) at depth 2: the node counts of `xiangqi compare` for the same variants.
    click(c, "input[name=wsrc][value=position]").await;
    let depth = c.find(Locator::Css("#w-depth")).await.expect("the depth");
    depth.select_by_label("2").await.expect("depth 2");
    js(c, "document.querySelectorAll('[data-testid=watch-count]').forEach(e => e.remove()); return true").await;
    click(c, "#w-run").await;
    let nodes = wait_for(
        c,
        "both variants' trees of the position",
        "const h = [...document.querySelectorAll('[data-testid=watch-count]')];
         return h.length === 2 ? h.map(e => Number(e.dataset.nodes)) : null;",
        WAIT,
    )
    .await;
    let compare: Value =
        serde_json::from_str(&xiangqi(&["compare", "--depth", "2", "--variants", "alphabeta,pvs", "--json"])).unwrap();
    let counted: Vec<&Value> = compare["variants"].as_array().unwrap().iter().map(|v| &v["nodes"]).collect();
    assert_eq!(nodes.as_array().unwrap().iter().collect::<Vec<_>>(), counted, "the page's and xiangqi compare's nodes");
    eprintln!("browser: watch-the-search node counts, spec's tree {a:?} {b:?}, start position depth 2 {nodes}");
}

/// The steps `xiangqi tree --trace` prints for `source` (`--synthetic TREE` or `--fen FEN --depth D`) and `variant`,
/// each as `label ply=.. depth=.. alpha=.. beta=.. value=.. best=.. move=.. node=[..]` (without the step number,
/// the header, the summary and the lines of the pruned moves).
fn cli_trace(source: &[&str], variant: &str) -> Vec<String> {
    let mut args = vec!["tree", "--trace", "--variant", variant];
    args.extend_from_slice(source);
    xiangqi(&args)
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim_start().starts_with("pruned"))
        .filter_map(|l| {
            let (_, rest) = l.trim_start().split_once(' ')?;
            let (label, fields) = rest.trim_start().split_once(' ')?;
            Some(format!("{label} {}", fields.trim_start()))
        })
        .collect()
}

/// Steps the Learn tab's trace with its Forward button, in the page, from the step shown, at most `n` times, and
/// returns at each step the highlighted line's label and the frame's values, as `xiangqi tree --trace` writes a
/// step (the function `window.__learnSteps(n)`, installed by [`INSTALL_STEPPER`]).
const INSTALL_STEPPER: &str = "
    window.__learnSteps = (n) => {
      const fwd = document.getElementById('l-fwd');
      const last = Number(document.getElementById('l-step').max);
      const raw = (f) => document.querySelector(`[data-testid=frame-${f}]`).dataset.raw;
      const out = [];
      for (let i = 0; i < n; i++) {
        const k = Number(document.getElementById('l-pos').dataset.step);
        const lines = document.querySelectorAll('#l-code .cline.current');
        const label = lines.length === 1 ? lines[0].dataset.label : `(${lines.length} lines highlighted)`;
        out.push(`${label} ply=${raw('ply')} depth=${raw('depth')} alpha=${raw('alpha')} beta=${raw('beta')} ` +
          `value=${raw('value')} best=${raw('best')} move=${raw('move')} node=${raw('node')}`);
        if (k >= last) return { out, done: true };
        fwd.click();
        if (Number(document.getElementById('l-pos').dataset.step) !== k + 1) return { out, done: true, stuck: k };
      }
      return { out, done: false };
    };
    return true;";

/// Every step of the Learn tab's trace, from its first to its last, by the Forward button (in chunks, so that no
/// script runs long).
async fn step_through(c: &Client) -> Vec<String> {
    js(c, INSTALL_STEPPER).await;
    click(c, "#l-first").await;
    let mut steps = Vec::new();
    loop {
        let r = js(c, "return window.__learnSteps(3000)").await;
        assert!(r["stuck"].is_null(), "Forward did not move past step {}", r["stuck"]);
        steps.extend(r["out"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()));
        if r["done"] == true {
            return steps;
        }
    }
}

/// Check 7, the Learn tab: each lesson's every run stepped from its first step to its last; at every step the highlighted
/// line and the frame equal `xiangqi tree --trace` for the same tree (or position) and variant.
async fn learn_lessons(c: &Client, url: &str) {
    fresh_page(c, url).await;
    click(c, "[data-tab=learn]").await;
    let lessons = js(c, "return document.querySelectorAll('#l-list [data-lesson]').length").await;
    assert_eq!(lessons, 7, "the seven lessons of the course");
    let mut total = 0;
    for i in 0..7 {
        click(c, &format!("#l-list [data-lesson=\"{i}\"]")).await;
        let runs =
            wait_for(c, "the lesson's runs", "return document.querySelectorAll('#l-runs [data-run]').length", WAIT)
                .await
                .as_u64()
                .unwrap();
        for j in 0..runs {
            js(c, "document.getElementById('l-pos').textContent = ''; return true").await;
            click(c, &format!("#l-runs [data-run=\"{j}\"]")).await;
            wait_for(c, "the lesson's trace", "return document.getElementById('l-pos').textContent", WAIT).await;
            let request = js(c, "return window.xq.learn.request").await;
            let variant = request["variant"].as_str().unwrap().to_owned();
            let expected = match request["synthetic"].as_str() {
                Some(tree) => cli_trace(&["--synthetic", tree], &variant),
                None => {
                    let depth = request["depth"].to_string();
                    cli_trace(&["--fen", request["fen"].as_str().unwrap(), "--depth", &depth], &variant)
                }
            };
            let steps = step_through(c).await;
            assert_eq!(steps.len(), expected.len(), "lesson {} run {j} ({variant}): the number of steps", i + 1);
            for (k, (page, cli)) in steps.iter().zip(&expected).enumerate() {
                assert_eq!(page, cli, "lesson {} run {j} ({variant}), step {}", i + 1, k + 1);
            }
            total += steps.len();
        }
    }
    eprintln!("browser: the seven lessons stepped through, {total} steps equal to xiangqi tree --trace");
}

/// The leaves of a tree text, named as the trace names nodes (`#0 #1 ...`, child indices from the root).
fn leaf_names(tree: &str) -> Vec<String> {
    fn walk(tokens: &[String], i: &mut usize, path: &mut Vec<usize>, out: &mut Vec<String>) {
        let tok = tokens[*i].clone();
        *i += 1;
        if tok != "(" {
            out.push(path.iter().map(|k| format!("#{k}")).collect::<Vec<_>>().join(" "));
            return;
        }
        let mut k = 0;
        while tokens[*i] != ")" {
            path.push(k);
            walk(tokens, i, path, out);
            path.pop();
            k += 1;
        }
        *i += 1;
    }
    let spaced = tree.replace('(', " ( ").replace(')', " ) ");
    let tokens: Vec<String> = spaced.split_whitespace().map(str::to_owned).collect();
    let mut out = Vec::new();
    walk(&tokens, &mut 0, &mut Vec::new(), &mut out);
    out
}

/// Check 8, the practice: on the tree of seed 7, marking the first two and the last leaf gets the score the search's
/// trace implies; and an address opens the same tree, variant and step.
async fn learn_practice_and_address(c: &Client, url: &str) {
    c.goto(&format!("{url}#learn?mode=practice&seed=7&variant=alphabeta")).await.expect("open the practice");
    c.refresh().await.expect("reload with the address");
    wait_for(c, "the practice tree", "return document.querySelectorAll('#l-tree [data-node]').length", WAIT).await;
    let tree = js(c, "return window.xq.learn.request.synthetic").await.as_str().unwrap().to_owned();
    let leaves = leaf_names(&tree);
    assert!(leaves.len() >= 4, "a practice tree has leaves: {tree}");
    let marked = [leaves[0].clone(), leaves[1].clone(), leaves[leaves.len() - 1].clone()];
    // The tree is redrawn after each click: each leaf is found again, clicked, and seen marked before the next.
    for (i, name) in marked.iter().enumerate() {
        let script = format!(
            "document.querySelector('#l-tree [data-name=\"{name}\"]').dispatchEvent(new MouseEvent('click', {{ bubbles: true }}));
             return true;"
        );
        js(c, &script).await;
        let count = format!("return document.querySelectorAll('#l-tree .marked').length === {}", i + 1);
        wait_for(c, &format!("{} leaves marked", i + 1), &count, WAIT).await;
    }
    click(c, "#p-run").await;
    let score = wait_for(
        c,
        "the practice's score",
        "const s = document.getElementById('p-score').dataset;
         return s.found != null && window.xq.learn.answered ? [Number(s.found), Number(s.missed), Number(s.wrong)] : null;",
        WAIT,
    )
    .await;
    // The leaves the search evaluated are the `leaf` steps of its trace.
    let evaluated: std::collections::HashSet<String> = cli_trace(&["--synthetic", &tree], "alphabeta")
        .iter()
        .filter(|l| l.starts_with("leaf "))
        .filter_map(|l| l.split("node=[").nth(1).map(|n| n.trim_end_matches(']').to_owned()))
        .collect();
    let never: Vec<&String> = leaves.iter().filter(|l| !evaluated.contains(*l)).collect();
    let found = marked.iter().filter(|m| never.contains(m)).count();
    let wrong = marked.len() - found;
    let missed = never.len() - found;
    assert_eq!(score, json!([found, missed, wrong]), "the score of {marked:?} on {tree} (never evaluated: {never:?})");
    // Each mistake replays to the step that decides it.
    let mistakes = js(c, "return [...document.querySelectorAll('#p-mistakes button')].map(b => b.dataset.node)").await;
    assert_eq!(mistakes.as_array().unwrap().len(), missed + wrong, "one button per mistake: {mistakes}");

    // Your own tree from an address: the same tree, variant and step.
    let own = "((3 5) (2 9) (0 -1))";
    let q = format!("mode=own&tree={}&variant=alphabeta-hard&step=7", own.replace(' ', "%20"));
    c.goto(&format!("{url}#learn?{q}")).await.expect("open the address");
    c.refresh().await.expect("reload with the address");
    wait_for(c, "the step of the address", "return document.getElementById('l-pos').dataset.step === '7'", WAIT).await;
    let state =
        js(c, "return [window.xq.learn.request.synthetic, window.xq.learn.request.variant, location.hash]").await;
    assert_eq!(state[0], own);
    assert_eq!(state[1], "alphabeta-hard");
    let line = js(
        c,
        "const raw = (f) => document.querySelector(`[data-testid=frame-${f}]`).dataset.raw;
         const label = document.querySelector('#l-code .cline.current').dataset.label;
         return `${label} ply=${raw('ply')} depth=${raw('depth')} alpha=${raw('alpha')} beta=${raw('beta')} ` +
           `value=${raw('value')} best=${raw('best')} move=${raw('move')} node=${raw('node')}`;",
    )
    .await;
    let expected = cli_trace(&["--synthetic", own], "alphabeta-hard");
    assert_eq!(line.as_str(), Some(expected[7].as_str()), "the address's step 8 (0-based 7)");
    eprintln!("browser: practice scored {score} on {tree}; the address {q} opened its tree, variant and step");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_in_headless_chromium() {
    // Skipped only when told; the line is written to the terminal's standard error directly, past the test
    // harness's capture, so that `cargo test` shows it.
    if std::env::var("XIANGQI_BROWSER_TESTS").is_ok_and(|v| v == "skip") {
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), "SKIPPED the browser test: XIANGQI_BROWSER_TESTS=skip");
        return;
    }
    let (chromium, driver) = match (on_path("chromium"), on_path("chromedriver")) {
        (Some(c), Some(d)) => (c, d),
        (c, d) => {
            let missing: Vec<&str> = [("chromium", c.is_none()), ("chromedriver", d.is_none())]
                .iter()
                .filter(|m| m.1)
                .map(|m| m.0)
                .collect();
            panic!(
                "{} not found on PATH: apt-get install chromium chromium-driver, or set XIANGQI_BROWSER_TESTS=skip \
                 to skip the browser test",
                missing.join(" and ")
            );
        }
    };
    let begin = Instant::now();
    let (_server, url) = start_server(&[]);
    // A second server with an operator's cap on a search's time, as a class's server would have.
    let (_capped_server, capped_url) = start_server(&["--max-movetime", "300"]);
    let (_driver, port) = start_chromedriver(&driver);
    let c = connect(port, &chromium).await;
    // The checks run on their own task, so that the browser session ends (and Chromium with it) when one fails.
    let checks = tokio::spawn({
        let c = c.clone();
        async move {
            play_a_game(&c, &url).await;
            let first_line_ms = analysis_lines(&c, &url).await;
            analysis_ends_at_the_servers_cap(&c, &capped_url).await;
            gbk_record_round_trip(&c, &url).await;
            board_flips(&c, &url).await;
            editor_refuses_three_kings(&c, &url).await;
            watch_the_search(&c, &url).await;
            learn_lessons(&c, &url).await;
            learn_practice_and_address(&c, &url).await;
            review::opening_names(&c, &url).await;
            review::header_marks_chart_arrow(&c, &url).await;
            review::export_keeps_the_result(&c, &url).await;
            review::new_game_clears_the_fen(&c, &url).await;
            review::reload_keeps_the_clock(&c, &url).await;
            review::eval_bar(&c, &url).await;
            review::level_picker(&c, &url).await;
            review::watch_detail(&c, &url).await;
            board::a_move_slides_and_sounds(&c, &url).await;
            board::reduced_motion_stops_the_slide(&c, &url).await;
            board::drawn_shapes_go_to_pgn_and_back(&c, &url).await;
            board::typed_moves_in_every_notation(&c, &url).await;
            board::points_have_names(&c, &url).await;
            first_line_ms
        }
    })
    .await;
    let closed = c.close().await;
    let first_line_ms = checks.unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
    closed.expect("end the browser session");
    let _ = std::fs::remove_dir_all(scratch());
    eprintln!(
        "browser: first analysis line {first_line_ms:.0} ms after the click; the whole browser test {:.1} s",
        begin.elapsed().as_secs_f64()
    );
}
