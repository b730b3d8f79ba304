//! The messages behind the page's board features: a move typed in any notation is read by `state` in the position
//! it is played from, and the arrows and circles drawn on the board go into an exported PGN's comments and come
//! back when it is loaded (`docs/serve-protocol.md`).

use serde_json::{json, Value};
use xiangqi_web::protocol::Session;
use xiangqi_web::Config;

/// Sends `request` to a session and returns its one answer.
fn ask(request: Value) -> Value {
    let (mut session, mut out) = Session::for_test(Config::default());
    session.handle_text(&request.to_string());
    serde_json::from_str(&out.try_recv().expect("an answer")).expect("JSON")
}

fn ucis(state: &Value) -> Vec<&str> {
    state["moves"].as_array().unwrap().iter().map(|m| m["uci"].as_str().unwrap()).collect()
}

#[test]
fn a_line_may_hold_moves_typed_in_any_notation() {
    let typed = ask(json!({"type": "state", "moves": ["炮二平五", "h9g7", "H2+3", "I9-H9", "车一平二"]}));
    assert_eq!(typed["type"], "state", "{typed}");
    assert_eq!(ucis(&typed), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]);
    let uci = ask(json!({"type": "state", "moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]}));
    assert_eq!(typed, uci, "the same state as the UCI line");
    // A move that is not legal where it is played, or no move at all, is an error naming the ply and the text.
    let e = ask(json!({"type": "state", "id": 1, "moves": ["h2e2", "炮二进五"]}));
    assert_eq!((e["type"].as_str(), e["id"].as_i64()), (Some("error"), Some(1)), "{e}");
    let msg = e["message"].as_str().unwrap();
    assert!(msg.starts_with("moves: ply 2: ") && msg.contains("炮二进五") && msg.contains("no legal move"), "{msg}");
    let e = ask(json!({"type": "state", "moves": ["xyz"]}));
    assert!(e["message"].as_str().is_some_and(|m| m.contains("\"xyz\" is not a move")), "{e}");
    // An illegal UCI move keeps the rules' own message.
    let e = ask(json!({"type": "state", "moves": ["a0a5"]}));
    assert!(e["message"].as_str().is_some_and(|m| m.starts_with("moves: ply 1: ")), "{e}");
}

#[test]
fn drawn_shapes_go_into_the_pgn_and_come_back() {
    let shapes = json!({"0": ["Re0"], "1": ["Rb0c2", "Ge4"], "3": ["Bh0g2", "Yh9g7", "Bc3"]});
    let pgn =
        ask(json!({"type": "export_pgn", "moves": ["h2e2", "h9g7", "h0g2"], "notation": "wxf", "shapes": shapes}));
    let text = pgn["text"].as_str().unwrap_or_else(|| panic!("{pgn}"));
    assert!(text.contains("{[%csl Re0]}\n1. C2.5 {[%cal Rb0c2] [%csl Ge4]}\n"), "{text}");
    assert!(text.contains("H2+3 {[%cal Bh0g2,Yh9g7] [%csl Bc3]}"), "{text}");
    let record = ask(json!({"type": "load_record", "text": text}));
    let game = &record["games"][0];
    assert_eq!(game["moves"], json!(["h2e2", "h9g7", "h0g2"]));
    // By ply; the arrows before the circles, as written.
    assert_eq!(game["shapes"], json!({"0": ["Re0"], "1": ["Rb0c2", "Ge4"], "3": ["Bh0g2", "Yh9g7", "Bc3"]}));
    // A game without shapes has no `shapes` field.
    let plain = ask(json!({"type": "load_record", "text": "1. h2e2 h9g7 *"}));
    assert!(plain["games"][0].get("shapes").is_none(), "{plain}");
    // A bad code or a ply past the line's end is an error.
    let e = ask(json!({"type": "export_pgn", "moves": ["h2e2"], "shapes": {"1": ["Xe4"]}}));
    assert!(e["type"] == "error" && e["message"].as_str().unwrap().starts_with("shapes: ply 1: \"Xe4\""), "{e}");
    let e = ask(json!({"type": "export_pgn", "moves": ["h2e2"], "shapes": {"one": ["Ge4"]}}));
    assert!(e["type"] == "error" && e["message"].as_str().unwrap().contains("is no ply"), "{e}");
    let e = ask(json!({"type": "export_pgn", "moves": ["h2e2"], "shapes": {"2": ["Ge4"]}}));
    assert!(e["type"] == "error" && e["message"].as_str().unwrap().contains("the line has 1 moves"), "{e}");
}
