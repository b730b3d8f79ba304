//! The board's own features, by real clicks, drags and keys: a move slides (and does not when switched off) with
//! its sound, arrows and circles drawn with the right button go into the exported PGN and come back when it is
//! loaded, a move typed in each notation is played, and the points carry accessible names.

use super::{click, exported_pgn, fresh_page, js, page_moves, select, wait_for, WAIT};
use fantoccini::actions::{
    InputSource, KeyAction, KeyActions, MouseActions, PointerAction, MOUSE_BUTTON_LEFT, MOUSE_BUTTON_RIGHT,
};
use fantoccini::{Client, Locator};
use serde_json::{json, Value};
use std::time::Duration;

/// WebDriver's Shift and Enter keys.
const SHIFT: char = '\u{E008}';
const ENTER: char = '\u{E007}';

/// A fresh page for two players (no engine move), in English.
async fn two_players(c: &Client, url: &str) {
    fresh_page(c, url).await;
    select(c, "#lang", "en").await;
    select(c, "#side", "none").await;
}

/// Plays `from` to `to` by two clicks and waits for the move list to hold `n` moves.
async fn click_move(c: &Client, from: &str, to: &str, n: usize) {
    click(c, &format!("[data-square={from}]")).await;
    click(c, &format!("[data-square={to}]")).await;
    let script = format!("return document.querySelectorAll('[data-testid=moves] .move').length === {n}");
    wait_for(c, &format!("the move {from}{to} in the move list"), &script, WAIT).await;
}

/// The board's point `sq` as a WebDriver element.
async fn point(c: &Client, sq: &str) -> fantoccini::elements::Element {
    c.find(Locator::Css(&format!("[data-square={sq}] .hit"))).await.unwrap_or_else(|e| panic!("no point {sq}: {e}"))
}

/// A right-button drag from `from` to `to` (a right-click when they are the same), Shift held when `shift`.
async fn right_drag(c: &Client, from: &str, to: &str, shift: bool) {
    let (a, b) = (point(c, from).await, point(c, to).await);
    let pause = || PointerAction::Pause { duration: Duration::from_millis(0) };
    let mouse = MouseActions::new("mouse".into())
        .then(pause())
        .then(PointerAction::MoveToElement { element: a, duration: None, x: 0.0, y: 0.0 })
        .then(PointerAction::Down { button: MOUSE_BUTTON_RIGHT })
        .then(PointerAction::MoveToElement { element: b, duration: Some(Duration::from_millis(100)), x: 0.0, y: 0.0 })
        .then(PointerAction::Up { button: MOUSE_BUTTON_RIGHT })
        .then(pause());
    let wait = || KeyAction::Pause { duration: Duration::from_millis(0) };
    let keys = if shift {
        KeyActions::new("keys".into()).then(KeyAction::Down { value: SHIFT })
    } else {
        KeyActions::new("keys".into()).then(wait())
    };
    let keys = keys.then(wait()).then(wait()).then(wait()).then(wait());
    let keys = if shift { keys.then(KeyAction::Up { value: SHIFT }) } else { keys.then(wait()) };
    c.perform_actions(fantoccini::actions::Actions::from(keys).and(mouse)).await.expect("the right-button drag");
    c.release_actions().await.expect("release the keys and buttons");
}

/// A Chrome DevTools Protocol command, sent through chromedriver's `goog/cdp/execute`.
#[derive(Debug)]
struct Cdp(Value);

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.0.to_string()))
    }
}

/// Emulates the system's `prefers-reduced-motion: reduce` (or stops emulating it).
async fn reduced_motion(c: &Client, on: bool) {
    let value = if on { "reduce" } else { "" };
    let cmd = json!({"cmd": "Emulation.setEmulatedMedia",
                     "params": {"features": [{"name": "prefers-reduced-motion", "value": value}]}});
    c.issue_cmd(Cdp(cmd)).await.expect("Emulation.setEmulatedMedia");
}

/// Records, for each move the board draws, the moved piece's transition and the sound played then, in
/// `window.__moved[uci]` (a mutation observer, which runs before the transition could end).
async fn record_moves(c: &Client) {
    js(
        c,
        "window.__moved = {};
         new MutationObserver(() => {
           const last = window.xq.board.last;
           if (!last || window.__moved[last]) return;
           const p = document.querySelector(`[data-square=\"${last.slice(2, 4)}\"] [data-piece]`);
           if (!p) return;
           const s = getComputedStyle(p);
           window.__moved[last] = { duration: s.transitionDuration, property: s.transitionProperty,
                                   sliding: p.classList.contains('sliding'), sound: window.xq.sound.last,
                                   sounds: window.xq.sound.count };
         }).observe(document.getElementById('board'), { childList: true, subtree: true });
         return true;",
    )
    .await;
}

/// The codes of the shapes drawn on the board, sorted.
async fn drawn(c: &Client) -> Value {
    js(c, "return [...document.querySelectorAll('#board [data-shape]')].map(e => e.dataset.shape).sort()").await
}

/// A move slides its piece (a CSS transition of its transform, the style sheet's 150 ms) and makes its sound;
/// with the "Slide the pieces" setting off it does not slide, and with the sound off it is silent. A capture has its
/// own sound. The moved piece's style is read as the board draws the new position (a mutation observer, which runs
/// before the transition could end).
pub async fn a_move_slides_and_sounds(c: &Client, url: &str) {
    two_players(c, url).await;
    record_moves(c).await;
    click_move(c, "h2", "e2", 1).await;
    // The black cannon takes the red horse over the red cannon on b2.
    click_move(c, "b7", "b0", 2).await;
    click(c, "#animate").await;
    click_move(c, "h0", "g2", 3).await;
    click(c, "#sound").await;
    click_move(c, "h9", "g7", 4).await;
    let moved =
        wait_for(c, "the moves' records", "return Object.keys(window.__moved).length === 4 && window.__moved", WAIT)
            .await;
    let m = |uci: &str| moved[uci].clone();
    assert_eq!(
        (m("h2e2")["duration"].as_str(), m("h2e2")["property"].as_str(), m("h2e2")["sliding"].as_bool()),
        (Some("0.15s"), Some("transform"), Some(true)),
        "the first move slides: {moved}"
    );
    assert_eq!(m("b7b0")["sliding"], true, "{moved}");
    assert_eq!(
        (m("h0g2")["duration"].as_str(), m("h0g2")["sliding"].as_bool()),
        (Some("0s"), Some(false)),
        "no slide with the setting off: {moved}"
    );
    let sounds: Vec<(Value, Value)> =
        ["h2e2", "b7b0", "h0g2", "h9g7"].iter().map(|u| (m(u)["sound"].clone(), m(u)["sounds"].clone())).collect();
    assert_eq!(
        sounds,
        [(json!("move"), json!(1)), (json!("capture"), json!(2)), (json!("move"), json!(3)), (json!("move"), json!(3))],
        "a move's sound, a capture's, and none when muted: {moved}"
    );
    // Both settings are remembered.
    c.refresh().await.expect("reload");
    let kept = wait_for(
        c,
        "the settings after a reload",
        "const a = document.getElementById('animate'), s = document.getElementById('sound');
         return window.xq && [a.checked, s.checked, window.xq.settings.animate, window.xq.settings.sound];",
        WAIT,
    )
    .await;
    assert_eq!(kept, json!([false, false, false, false]));
    eprintln!("browser: a move slid ({}), and did not with the setting off", m("h2e2")["duration"]);
}

/// With the system's reduced motion (emulated through the DevTools protocol) a move does not slide, the setting on.
pub async fn reduced_motion_stops_the_slide(c: &Client, url: &str) {
    two_players(c, url).await;
    reduced_motion(c, true).await;
    let reduce = "return matchMedia('(prefers-reduced-motion: reduce)').matches";
    assert_eq!(js(c, reduce).await, true, "the emulation is on");
    record_moves(c).await;
    click_move(c, "h2", "e2", 1).await;
    let moved = wait_for(c, "the move's record", "return window.__moved.h2e2", WAIT).await;
    reduced_motion(c, false).await;
    assert_eq!(js(c, reduce).await, false, "the emulation is off");
    assert_eq!(js(c, "return window.xq.settings.animate").await, true);
    assert_eq!((moved["duration"].as_str(), moved["sliding"].as_bool()), (Some("0s"), Some(false)), "{moved}");
}

/// A shift+right-drag draws a red arrow and a right-click a green circle, kept with the move; the exported PGN
/// writes them as lichess does, a left click clears the board, and loading the PGN brings them back.
pub async fn drawn_shapes_go_to_pgn_and_back(c: &Client, url: &str) {
    two_players(c, url).await;
    click_move(c, "h2", "e2", 1).await;
    right_drag(c, "b0", "c2", true).await;
    right_drag(c, "e4", "e4", false).await;
    wait_for(c, "two shapes drawn", "return document.querySelectorAll('#board [data-shape]').length === 2", WAIT).await;
    assert_eq!(drawn(c).await, json!(["Ge4", "Rb0c2"]));
    assert_eq!(js(c, "return window.xq.game.cur.shapes").await, json!(["Rb0c2", "Ge4"]), "kept with the move");
    click(c, "[data-tab=games]").await;
    let pgn = exported_pgn(c).await;
    assert!(pgn.contains("{[%cal Rb0c2] [%csl Ge4]}"), "{pgn}");
    // A left click on an empty point clears the shapes.
    let e5 = point(c, "e5").await;
    c.perform_actions(
        MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement { element: e5, duration: None, x: 0.0, y: 0.0 })
            .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
            .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT }),
    )
    .await
    .expect("a left click");
    c.release_actions().await.expect("release");
    wait_for(c, "the shapes cleared", "return document.querySelectorAll('#board [data-shape]').length === 0", WAIT)
        .await;
    // A new game, then the PGN loaded: the move and its shapes.
    click(c, "#btn-new").await;
    wait_for(
        c,
        "an empty move list",
        "return document.querySelectorAll('[data-testid=moves] .move').length === 0",
        WAIT,
    )
    .await;
    js(c, &format!("document.getElementById('pgn-in').value = {}; return true", json!(pgn))).await;
    click(c, "#btn-load").await;
    wait_for(
        c,
        "the loaded game's shapes",
        "return document.querySelectorAll('#board [data-shape]').length === 2",
        WAIT,
    )
    .await;
    assert_eq!(page_moves(c).await, ["h2e2"]);
    assert_eq!(drawn(c).await, json!(["Ge4", "Rb0c2"]));
    eprintln!("browser: drawn shapes exported as {{[%cal Rb0c2] [%csl Ge4]}} and restored from the PGN");
}

/// Types `text` into the move input and presses Enter.
async fn type_move(c: &Client, text: &str) {
    let e = c.find(Locator::Css("#typed")).await.expect("the move input");
    e.clear().await.expect("clear the move input");
    e.send_keys(&format!("{text}{ENTER}")).await.expect("type a move");
}

/// A move typed in each notation is played (Chinese, UCI, WXF, ICCS); a move that is not legal here, or no move
/// at all, is an error beside the input and plays nothing.
pub async fn typed_moves_in_every_notation(c: &Client, url: &str) {
    two_players(c, url).await;
    let typed = [("炮二平五", "h2e2"), ("h9g7", "h9g7"), ("H2+3", "h0g2"), ("I9-H9", "i9h9")];
    for (i, (text, _)) in typed.iter().enumerate() {
        type_move(c, text).await;
        let script = format!("return document.querySelectorAll('[data-testid=moves] .move').length === {}", i + 1);
        wait_for(c, &format!("the typed move {text} played"), &script, WAIT).await;
    }
    let ucis: Vec<&str> = typed.iter().map(|t| t.1).collect();
    assert_eq!(page_moves(c).await, ucis);
    assert_eq!(js(c, "return document.getElementById('typed').value").await, "", "the input is emptied");
    for bad in ["炮二进五", "xyz"] {
        type_move(c, bad).await;
        let msg =
            wait_for(c, "the typed move's error", "return document.getElementById('typed-msg').textContent", WAIT)
                .await;
        let msg = msg.as_str().unwrap().to_owned();
        assert!(msg.starts_with("Error") && msg.contains(bad), "{bad}: {msg}");
        assert_eq!(page_moves(c).await.len(), 4, "{bad} played nothing");
        js(c, "document.getElementById('typed-msg').textContent = ''; return true").await;
    }
    eprintln!("browser: moves typed as 炮二平五, h9g7, H2+3 and I9-H9 played; 炮二进五 and xyz refused");
}

/// The board is a grid of ten rows of nine points, each named by its square and piece (in Chinese when the
/// page is), a move is announced in the live region, and the keyboard plays a move (Enter on a piece, an arrow
/// key, Enter on its destination).
pub async fn points_have_names(c: &Client, url: &str) {
    two_players(c, url).await;
    let grid = js(
        c,
        "const g = document.querySelector('#board svg[role=grid]');
         const rows = [...g.querySelectorAll('[role=row]')];
         return [rows.length, rows.every(r => r.querySelectorAll('[role=gridcell]').length === 9),
                 ...['e3', 'b2', 'e5', 'e9'].map(s => g.querySelector(`[data-square=${s}]`).getAttribute('aria-label'))];",
    )
    .await;
    assert_eq!(grid, json!([10, true, "e3, red soldier", "b2, red cannon", "e5, empty", "e9, black king"]));
    select(c, "#lang", "zh").await;
    let zh = wait_for(
        c,
        "the names in Chinese",
        "const l = document.querySelector('[data-square=b2]').getAttribute('aria-label'); return l.includes('红') && l;",
        WAIT,
    )
    .await;
    assert_eq!(zh, "b2，红炮");
    select(c, "#lang", "en").await;
    // The keyboard: the soldier on e3 forward to e4.
    js(c, "document.querySelector('[data-square=e3]').focus(); return true").await;
    let keys = KeyActions::new("keys".into())
        .then(KeyAction::Down { value: ENTER })
        .then(KeyAction::Up { value: ENTER })
        .then(KeyAction::Down { value: '\u{E013}' }) // ArrowUp
        .then(KeyAction::Up { value: '\u{E013}' })
        .then(KeyAction::Down { value: ENTER })
        .then(KeyAction::Up { value: ENTER });
    c.perform_actions(keys).await.expect("keys on the board");
    wait_for(c, "the move by keys", "return document.querySelectorAll('[data-testid=moves] .move').length === 1", WAIT)
        .await;
    assert_eq!(page_moves(c).await, ["e3e4"]);
    let said = wait_for(c, "the move announced", "return document.getElementById('announce').textContent", WAIT).await;
    assert_eq!(said, "Red, 兵五进一");
    assert_eq!(js(c, "return document.getElementById('announce').getAttribute('aria-live')").await, "polite");
    eprintln!("browser: the points are named (e3, red soldier / b2，红炮), a move by keys was announced as {said}");
}
