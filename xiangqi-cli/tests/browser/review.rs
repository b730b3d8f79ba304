//! The review, the header, the levels, the opening names and the player-trial fixes, in headless Chromium on the real
//! binary: each check drives the page by clicks (or its own controls) and compares with the library or the record.

use super::*;

/// A game record with its tags out of the standard order and a result the rules cannot see (Black resigned after
/// Red's cannon took a pawn and was lost for it: a marked move).
const RECORD: &str =
    "[Black \"Lu Qin\"]\n[Red \"Xu Yinchuan\"]\n[Date \"2024.05.01\"]\n[Event \"Club championship\"]\n\
[Result \"0-1\"]\n\n1. 炮二平五 马8进7 2. 炮五进四 马7进5 3. 马二进三 车9平8 0-1\n";

/// The record's moves in UCI notation.
const RECORD_UCI: [&str; 6] = ["h2e2", "h9g7", "e2e6", "g7e6", "h0g2", "i9h9"];

/// Plays `uci` by two clicks once the board offers it, and waits for it in the move list.
async fn play(c: &Client, uci: &str) {
    let (from, to) = (&uci[..2], &uci[2..]);
    let offered = format!("return (window.xq.board.legal['{from}'] || []).includes('{to}')");
    wait_for(c, &format!("{uci} offered on the board"), &offered, WAIT).await;
    let before = page_moves(c).await.len();
    click(c, &format!("[data-square={from}]")).await;
    click(c, &format!("[data-square={to}]")).await;
    let script = format!("return document.querySelectorAll('[data-testid=moves] .move').length > {before}");
    wait_for(c, &format!("{uci} in the move list"), &script, WAIT).await;
}

/// The UCI moves of a line in Chinese notation from the start position.
fn uci_line(chinese: &str) -> Vec<String> {
    let mut pos = Position::startpos();
    chinese
        .split_whitespace()
        .map(|t| {
            let (m, _) = pos.read_move(t).expect("a legal move of the line");
            pos.make_move(m);
            m.to_string()
        })
        .collect()
}

/// The opening the rules crate names for a line (what the page must show).
fn named(uci: &[String]) -> (String, String) {
    let mut pos = Position::startpos();
    let moves: Vec<_> = uci.iter().map(|m| pos.play(m).expect("a legal move")).collect();
    let n = xiangqi_core::record::openings::opening_of(&Position::startpos(), &moves).expect("a named opening");
    (n.opening.chinese.to_owned(), n.opening.english.to_owned())
}

/// The opening shown above the move list: its text and its Chinese and English names.
async fn shown_opening(c: &Client, chinese: &str) -> Value {
    let script = format!(
        "const o = document.getElementById('opening');
         return !o.hidden && o.dataset.chinese === '{chinese}' ? [o.textContent, o.dataset.chinese, o.dataset.english] : null;"
    );
    wait_for(c, &format!("the opening {chinese}"), &script, WAIT).await
}

/// The opening's name appears as the moves are played, and after a transposition of them; per language.
pub async fn opening_names(c: &Client, url: &str) {
    fresh_page(c, url).await;
    select(c, "#side", "none").await;
    let main = uci_line("炮二平五 马8进7 马二进三 车9平8");
    let (zh, en) = named(&main);
    assert_eq!(zh, "中炮对屏风马 先出车");
    // After the first move the central cannon only.
    play(c, &main[0]).await;
    let first = named(&main[..1]);
    assert_eq!(shown_opening(c, &first.0).await, json!([first.1, first.0, first.1]));
    for m in &main[1..] {
        play(c, m).await;
    }
    assert_eq!(shown_opening(c, &zh).await, json!([en, zh, en]));
    // The same position by another order of moves (each chariot steps out and back first).
    click(c, "#btn-new").await;
    wait_for(c, "the new game", "return document.querySelectorAll('[data-testid=moves] .move').length === 0", WAIT)
        .await;
    let other = uci_line("炮二平五 车9进1 马二进三 车9退1 车一进一 马8进7 车一退一 车9平8");
    for m in &other {
        play(c, m).await;
    }
    assert_eq!(named(&other), (zh.clone(), en.clone()));
    assert_eq!(shown_opening(c, &zh).await, json!([en, zh, en]));
    // In the Chinese interface the Chinese name.
    select(c, "#lang", "zh").await;
    assert_eq!(shown_opening(c, &zh).await, json!([zh, zh, en]));
    select(c, "#lang", "en").await;
    eprintln!("browser: the opening {zh} ({en}) named after its line and after a transposition");
}

/// Loads [`RECORD`] by pasting it.
async fn load_record(c: &Client, url: &str) {
    fresh_page(c, url).await;
    click(c, "[data-tab=games]").await;
    let area = c.find(Locator::Css("#pgn-in")).await.expect("the PGN text area");
    area.send_keys(RECORD).await.expect("paste the record");
    click(c, "#btn-load").await;
    let script =
        format!("return document.querySelectorAll('[data-testid=moves] .move').length === {}", RECORD_UCI.len());
    wait_for(c, "the record's moves", &script, WAIT).await;
    assert_eq!(page_moves(c).await, RECORD_UCI);
}

/// A loaded game's header and, after its review, the marks in the move list, the chart under the board (a click
/// on it goes to that position) and the engine's best move as an arrow.
pub async fn header_marks_chart_arrow(c: &Client, url: &str) {
    load_record(c, url).await;
    let header = wait_for(
        c,
        "the game's header",
        "const h = document.querySelector('[data-testid=game-header]');
         if (h.hidden) return null;
         const f = (n) => h.querySelector(`[data-field=${n}]`)?.textContent;
         return [f('red'), f('black'), f('event'), f('date'), f('result')];",
        WAIT,
    )
    .await;
    assert_eq!(header, json!(["Xu Yinchuan", "Lu Qin", "Club championship", "2024.05.01", "0-1"]));

    type_into(c, "#review-ms", "150").await;
    click(c, "#btn-review").await;
    let marks = wait_for(
        c,
        "the review's marks in the move list",
        "if (!document.querySelector('[data-testid=chart] circle')) return null;
         return [...document.querySelectorAll('[data-testid=moves] .move')].map(m => m.querySelector('.mark')?.textContent ?? '');",
        Duration::from_secs(90),
    )
    .await;
    let marks: Vec<&str> = marks.as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    // The cannon taken for a pawn: at least a mistake.
    assert!(["?", "??"].contains(&marks[2]), "炮五进四 is marked a mistake or a blunder: {marks:?}");
    for m in &marks {
        assert!(["", "?!", "?", "??"].contains(m), "{marks:?}");
    }
    // The chart has a point per position and the marked move's point is coloured as its mark.
    let points = js(c, "return document.querySelectorAll('[data-testid=chart] circle[data-ply]').length").await;
    assert_eq!(points, RECORD_UCI.len() + 1);
    let cls =
        js(c, "return document.querySelector('[data-testid=chart] circle[data-ply=\"3\"]').getAttribute('class')")
            .await;
    assert!(cls.as_str().unwrap().contains(if marks[2] == "??" { "blunder" } else { "mistake" }), "{cls}");
    // A click on the chart, above the line at the second position, goes to that position.
    let at = js(
        c,
        "const svg = document.querySelector('[data-testid=chart]');
         const p = svg.querySelector('circle[data-ply=\"2\"]').getBoundingClientRect();
         const box = svg.getBoundingClientRect();
         svg.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: p.x + p.width / 2, clientY: box.y + 12 }));
         return true;",
    )
    .await;
    assert_eq!(at, true);
    wait_for(c, "the position after two plies", "return window.xq.pathOf(window.xq.game.cur).length === 2", WAIT).await;
    // There, the engine's best move is an arrow: a legal move, not the cannon move that lost.
    let arrow = wait_for(
        c,
        "the best move's arrow",
        "const a = document.querySelector('#board [data-arrow]');
         const l = window.xq.board.legal;
         return a && Object.keys(l).length ? [a.dataset.arrow, JSON.stringify(l)] : null;",
        WAIT,
    )
    .await;
    let best = arrow[0].as_str().unwrap();
    let legal: serde_json::Map<String, Value> = serde_json::from_str(arrow[1].as_str().unwrap()).unwrap();
    assert!(
        legal.get(&best[..2]).and_then(Value::as_array).is_some_and(|to| to.iter().any(|t| t == &best[2..])),
        "the arrow {best} is a legal move"
    );
    assert_ne!(best, "e2e6", "the move that lost a cannon is not the engine's best");
    // A reload keeps the review with the game: the same marks, the chart, the arrow at the same position.
    c.refresh().await.expect("reload the page");
    let again = wait_for(
        c,
        "the review after the reload",
        "const a = document.querySelector('#board [data-arrow]');
         if (!a || !document.querySelector('[data-testid=chart] circle')) return null;
         const marks = [...document.querySelectorAll('[data-testid=moves] .move')].map(m => m.querySelector('.mark')?.textContent ?? '');
         return [marks, a.dataset.arrow];",
        WAIT,
    )
    .await;
    assert_eq!(again, json!([marks, best]), "the review before the reload: {marks:?}, {best}");
    eprintln!("browser: header shown, marks {marks:?}, best move {best} after two plies");
}

/// Exporting the loaded game keeps the record's result and writes the seven standard tags first.
pub async fn export_keeps_the_result(c: &Client, url: &str) {
    load_record(c, url).await;
    let text = exported_pgn(c).await;
    let text = text.as_str();
    let names: Vec<&str> =
        text.lines().filter_map(|l| l.strip_prefix('[')).filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(names.get(..7), Some(&["Event", "Site", "Date", "Round", "Red", "Black", "Result"][..]), "{text}");
    // The record's own tags are kept, the missing ones of the roster written unknown.
    for tag in ["[Red \"Xu Yinchuan\"]", "[Date \"2024.05.01\"]", "[Site \"?\"]", "[Round \"?\"]"] {
        assert!(text.contains(tag), "{tag} in {text}");
    }
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert!(text.trim_end().ends_with("0-1"), "the movetext ends with the record's result: {text}");
}

/// "New game" clears a custom start position: "Start" then begins from the start position.
pub async fn new_game_clears_the_fen(c: &Client, url: &str) {
    fresh_page(c, url).await;
    select(c, "#side", "none").await;
    type_into(c, "#fen", GAME_FEN).await;
    click(c, "#btn-start").await;
    let pieces = GAME_FEN.split(' ').next().unwrap().chars().filter(char::is_ascii_alphabetic).count();
    wait_for(
        c,
        "the custom position",
        &format!("return document.querySelectorAll('[data-piece]').length === {pieces}"),
        WAIT,
    )
    .await;
    click(c, "#btn-new").await;
    wait_for(c, "the start position", "return document.querySelectorAll('[data-piece]').length === 32", WAIT).await;
    let fen = js(c, "return document.getElementById('fen').value").await;
    assert_eq!(fen, xiangqi_core::START_FEN);
    click(c, "#btn-start").await;
    wait_for(c, "the start position again", "return document.querySelectorAll('[data-piece]').length === 32", WAIT)
        .await;
    assert_eq!(js(c, "return window.xq.game.fen").await, xiangqi_core::START_FEN);
}

/// The clock is saved as it runs: a reload gives back less than a second of the player's thinking time.
pub async fn reload_keeps_the_clock(c: &Client, url: &str) {
    fresh_page(c, url).await;
    select(c, "#side", "none").await;
    select(c, "#tc", "clock").await;
    play(c, "h2e2").await;
    // Black thinks for more than two seconds (the clock of the page, not a sleep, says when).
    wait_for(
        c,
        "Black's clock running",
        "return window.xq.clock.running && window.xq.clock.black < 600000 - 2500",
        WAIT,
    )
    .await;
    let before = js(c, "return window.xq.clock.black").await.as_f64().unwrap();
    c.refresh().await.expect("reload the page");
    let after = wait_for(
        c,
        "the clock after the reload",
        "return window.xq && window.xq.clock.running && window.xq.pathOf(window.xq.game.cur).length === 1 ? window.xq.clock.black : null",
        WAIT,
    )
    .await
    .as_f64()
    .unwrap();
    assert!((before - after).abs() <= 1000.0, "Black's time was {before} ms before the reload and {after} ms after");
    eprintln!("browser: Black's clock {before:.0} ms before the reload, {after:.0} ms after");
}

/// The evaluation bar is neutral when nothing is evaluated, and prints the score level when analysing.
pub async fn eval_bar(c: &Client, url: &str) {
    fresh_page(c, url).await;
    let idle = "const bar = document.getElementById('evalbar');
                const fill = document.getElementById('evalfill').getBoundingClientRect().height;
                const text = getComputedStyle(document.getElementById('evaltext')).display;
                return bar.classList.contains('idle') && fill === 0 && text === 'none';";
    wait_for(c, "a neutral bar before any analysis", idle, WAIT).await;
    click(c, "[data-tab=analyse]").await;
    click(c, "#btn-analyse").await;
    let style = wait_for(
        c,
        "the score on the bar",
        "const e = document.getElementById('evaltext');
         if (!e.textContent) return null;
         const s = getComputedStyle(e);
         return [s.writingMode, parseFloat(s.fontSize), e.textContent];",
        WAIT,
    )
    .await;
    assert_eq!(style[0], "horizontal-tb", "the score is printed level: {style}");
    assert!(style[1].as_f64().unwrap() >= 10.0, "and legible: {style}");
    click(c, "#btn-analyse").await;
    wait_for(c, "a neutral bar after the analysis", idle, WAIT).await;
}

/// The level picker lists levels 1 to 10 with the Elo measured for each (the search crate's table).
pub async fn level_picker(c: &Client, url: &str) {
    fresh_page(c, url).await;
    let levels = wait_for(
        c,
        "the levels",
        "const o = [...document.querySelectorAll('#level option')];
         return o.length === 10 ? o.map(e => [Number(e.value), Number(e.dataset.elo), e.textContent]) : null;",
        WAIT,
    )
    .await;
    for (i, l) in levels.as_array().unwrap().iter().enumerate() {
        let elo = xiangqi_search::skill::LEVEL_ELO[i];
        assert_eq!((l[0].as_u64(), l[1].as_i64()), (Some(i as u64 + 1), Some(i64::from(elo))), "{levels}");
        if i < 9 {
            assert!(l[2].as_str().unwrap().contains(&elo.to_string()), "the option shows its Elo: {l}");
        }
    }
    assert_eq!(js(c, "return document.getElementById('level').value").await, "10", "full strength by default");
}

/// "Watch the search": the detail line of the node entered shows neither its final value nor its exit before the
/// tree shows them (an inner node's value and exit come once the search has left it).
pub async fn watch_detail(c: &Client, url: &str) {
    fresh_page(c, url).await;
    click(c, "[data-tab=watch]").await;
    click(c, "#w-run").await;
    wait_for(
        c,
        "the recorded tree",
        "return document.querySelectorAll('[data-testid=watch-detail]').length === 2",
        WAIT,
    )
    .await;
    let leaks = js(
        c,
        "const out = [];
         const max = Number(document.getElementById('w-step').max);
         for (let k = 0; k <= max; k++) {
           document.getElementById('w-step').value = k;
           document.getElementById('w-step').dispatchEvent(new Event('input'));
           for (const pane of ['w-a', 'w-b']) {
             const d = document.querySelector(`#${pane} [data-testid=watch-detail]`);
             const detail = d.textContent;
             if (d.dataset.leaf === 'false' && detail.includes(' value ')) out.push(`${k} ${pane}: ${detail}`);
             if (detail.includes(' exit ')) out.push(`${k} ${pane}: ${detail}`);
           }
         }
         return [max, out];",
    )
    .await;
    assert!(leaks[0].as_u64().unwrap() > 5, "a tree of several steps: {leaks}");
    assert_eq!(leaks[1], json!([]), "details that tell more than the tree");
}
