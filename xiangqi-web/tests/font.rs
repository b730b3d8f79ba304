//! The embedded font subsets cover every character the page writes beyond ASCII, so that a system without Chinese
//! fonts shows no empty boxes: the characters of the page's files (the interface in English and Chinese, the
//! lessons), and what the server writes into the page (Chinese move notation, the opening names, the pseudocode, the
//! prune sentences).
//! The subsets are made from the character lists `font-text.txt` and `font-pieces.txt` (see `assets/README.md`).

use std::collections::BTreeSet;
use std::path::Path;
use xiangqi_core::record::openings::OPENINGS;
use xiangqi_core::record::Notation;
use xiangqi_core::Position;
use xiangqi_search::record::pseudocode::listing;
use xiangqi_search::record::{record_tree, RecordOptions, Sides};
use xiangqi_search::VariantConfig;

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The characters of a subset's list.
fn list(name: &str) -> BTreeSet<char> {
    let path = crate_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).trim_end().chars().collect()
}

/// The characters beyond ASCII (from U+00A0) of `text`.
fn beyond_ascii(text: &str) -> BTreeSet<char> {
    text.chars().filter(|&c| c >= '\u{a0}').collect()
}

/// The characters beyond ASCII of the page's files (`.js`, `.html`, `.css`).
fn page_chars() -> BTreeSet<char> {
    let mut out = BTreeSet::new();
    for entry in std::fs::read_dir(crate_dir().join("assets")).expect("the assets folder") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "js" || e == "html" || e == "css") {
            out.extend(beyond_ascii(&std::fs::read_to_string(&path).expect("a text file")));
        }
    }
    out
}

fn missing(needed: &BTreeSet<char>, have: &BTreeSet<char>) -> String {
    needed.difference(have).collect()
}

#[test]
fn the_text_subset_covers_every_character_of_the_page_files() {
    let page = page_chars();
    assert!(page.contains(&'象') && page.contains(&'α'), "the page's files hold Chinese and Greek letters");
    let have = list("font-text.txt");
    assert_eq!(missing(&page, &have), "", "characters of the page missing from font-text.txt");
}

#[test]
fn the_subsets_cover_what_the_server_writes() {
    let text = list("font-text.txt");
    let pieces = list("font-pieces.txt");
    // Chinese notation: every legal move of positions along a game, both sides.
    let mut notation = BTreeSet::new();
    let mut pos = Position::startpos();
    for uci in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "h7h3", "b2b6", "a9a8"] {
        for m in pos.legal_moves() {
            notation.extend(beyond_ascii(&pos.move_text(m, Notation::Chinese)));
        }
        pos.make_move(pos.parse_move(uci).expect("a legal move"));
    }
    assert!(notation.contains(&'进') && notation.contains(&'平'), "{notation:?}");
    assert_eq!(missing(&notation, &text), "", "notation characters missing from font-text.txt");
    assert_eq!(missing(&notation, &pieces), "", "notation characters missing from font-pieces.txt");
    // The pseudocode of every form and technique, and the prune sentences.
    let mut code = BTreeSet::new();
    for variant in ["minimax", "alphabeta", "alphabeta-hard", "negamax", "negamax-ab", "negamax-ab-hard", "pvs+nmp+qs"]
    {
        let config: VariantConfig = variant.parse().expect("a variant");
        code.extend(beyond_ascii(&listing(&config).to_text()));
        let spec = "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))";
        let r = record_tree(spec, variant, None, &RecordOptions::default()).expect("a recording");
        for id in 0..r.recorder.len() {
            if let Some(s) = r.recorder.explain_text(id, |c| format!("#{c}"), Sides::default()) {
                code.extend(beyond_ascii(&s));
            }
        }
    }
    assert!(code.contains(&'≤'), "a prune sentence compares α and β");
    assert_eq!(missing(&code, &text), "", "characters of the pseudocode and sentences missing from font-text.txt");
}

#[test]
fn the_text_subset_covers_the_opening_names() {
    // The page writes the name of the opening reached (the server's `state`) above the move list.
    let names: BTreeSet<char> = OPENINGS.iter().flat_map(|o| beyond_ascii(o.chinese)).collect();
    assert!(names.contains(&'屏') && names.contains(&'炮'), "{names:?}");
    assert_eq!(missing(&names, &list("font-text.txt")), "", "opening names' characters missing from font-text.txt");
}

#[test]
fn the_pieces_subset_covers_the_board() {
    let board = std::fs::read_to_string(crate_dir().join("assets/board.js")).expect("board.js");
    let drawn: BTreeSet<char> = board.chars().filter(|&c| ('\u{4e00}'..='\u{9fff}').contains(&c)).collect();
    assert!(drawn.contains(&'帥') && drawn.contains(&'卒'), "{drawn:?}");
    assert_eq!(missing(&drawn, &list("font-pieces.txt")), "", "board characters missing from font-pieces.txt");
}

#[test]
fn the_style_sheet_embeds_both_subsets() {
    let css = std::fs::read_to_string(crate_dir().join("assets/style.css")).expect("style.css");
    for font in ["xiangqi-text.woff2", "xiangqi-pieces.woff2"] {
        assert!(css.contains(font), "style.css names {font}");
        let bytes = std::fs::read(crate_dir().join("assets").join(font)).expect("the font file");
        assert_eq!(&bytes[..4], b"wOF2", "{font} is WOFF2");
    }
}
