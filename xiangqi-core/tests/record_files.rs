//! Real game records from public repositories (`tests/data/records/README.md` names each file's source): every
//! game read, its tags checked, and every line (main line and variations) replayed with the rules.
#![cfg(feature = "records")]

use std::cell::Cell;
use std::path::{Path, PathBuf};
use xiangqi_core::record::{
    encode, openings, read_pgn, read_record, read_xqf, write_pgn, FileError, GameRecord, Notation, ReadOptions,
    RecordFormat, RecordMove, TextEncoding, STANDARD_TAGS,
};
use xiangqi_core::{Game, Position};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records").join(name)
}

fn pgn(name: &str) -> Vec<GameRecord> {
    let bytes = std::fs::read(data(name)).unwrap();
    let file = read_pgn(&bytes, &ReadOptions::default());
    assert_eq!(file.encoding, TextEncoding::Gbk, "{name}");
    file.games.into_iter().map(|g| g.unwrap_or_else(|e| panic!("{name}: {e}"))).collect()
}

fn xqf(name: &str) -> GameRecord {
    read_xqf(&std::fs::read(data(name)).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Replays a line with the rules' referee from `pos`, and every variation from where it branches; returns the
/// number of moves replayed.
fn replay(pos: &Position, line: &[RecordMove]) -> usize {
    let mut game = Game::new(pos);
    let mut count = 0;
    for rm in line {
        for v in &rm.variations {
            count += replay(game.position(), v);
        }
        game.push(rm.mv).unwrap_or_else(|e| panic!("{}: {e}", game.position().fen()));
        count += 1;
    }
    count
}

fn chinese_line(pos: &Position, line: &[RecordMove]) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for rm in line {
        out.push(pos.move_text(rm.mv, Notation::Chinese));
        pos.make_move(rm.mv);
    }
    out.join(",")
}

#[test]
fn every_file_reads_and_every_line_replays_with_the_rules() {
    let mut files = 0;
    for dir in ["walker8088-cchess", "hbsxcjp-cchess"] {
        for entry in std::fs::read_dir(data(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
            let games = match path.extension().map(|e| e.to_ascii_lowercase()) {
                Some(e) if e == "pgn" => pgn(&name),
                Some(e) if e == "xqf" => vec![xqf(&name)],
                _ => continue,
            };
            files += 1;
            for g in &games {
                assert!(!g.moves.is_empty(), "{name}");
                assert!(replay(&g.start, &g.moves) >= g.moves.len(), "{name}");
                assert!(g.tag("Result").is_some() || g.result.is_some(), "{name}");
            }
        }
    }
    assert_eq!(files, 14);
}

#[test]
fn gbk_pgn_with_comments_and_a_handicap_setup() {
    let games = pgn("hbsxcjp-cchess/nx.pgn");
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.tag("Event"), Some("许银川让九子对聂棋圣"));
    assert_eq!((g.tag("Red"), g.tag("Black")), (Some("许银川"), Some("聂卫平")));
    assert_eq!(g.result.as_deref(), Some("1-0"));
    // Nine red pieces given: five soldiers, both advisors and both elephants.
    assert_eq!(g.start.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1");
    assert_eq!(g.moves.len(), 75);
    assert!(g.intro[0].contains("评注：许银川"), "{:?}", g.intro);
    assert!(g.moves.iter().filter(|m| !m.comments.is_empty()).count() >= 10);
    assert!(g.moves.last().unwrap().comments[0].contains("聂棋圣认负"));
    assert_eq!(g.moves.last().unwrap().text, "车五平七");
}

#[test]
fn nested_variations_and_the_same_study_as_xqf() {
    let from_pgn = &pgn("hbsxcjp-cchess/01.pgn")[0];
    let from_xqf = xqf("hbsxcjp-cchess/01.XQF");
    assert_eq!(from_pgn.start, from_xqf.start);
    assert_eq!(from_pgn.main_line(), from_xqf.main_line());
    assert_eq!(
        chinese_line(&from_pgn.start, &from_pgn.moves),
        "马四进三,炮４退９,马三进五,炮４平５,车三平四,士５进６,马五进三"
    );
    assert_eq!(from_pgn.moves[0].comments, ["从相肩进马是取胜的正确途径。其它着法，均不能取胜。"]);
    // 1. 马四进五 is the alternative to the first move; Black's replies have two more, one nested.
    assert_eq!(from_pgn.moves[0].variations.len(), 1);
    assert_eq!(from_pgn.moves[0].variations[0].len(), 22);
    assert_eq!(from_pgn.moves[1].variations.len(), 1);
    assert!(!from_pgn.moves[1].variations[0][0].variations.is_empty());
    assert_eq!(from_pgn.tag("Result"), Some("红胜"));
    assert_eq!(from_xqf.tag("Game"), Some("第01局"));
}

#[test]
fn xqf_version_10_and_18_of_one_game_agree() {
    let v10 = xqf("walker8088-cchess/test1.xqf");
    let v18 = xqf("walker8088-cchess/test.xqf");
    assert_eq!(v10.main_line(), v18.main_line());
    assert_eq!(v10.moves.len(), 110);
    for g in [&v10, &v18] {
        assert_eq!(g.tag("Red"), Some("柳大华"));
        assert_eq!(g.tag("Date"), Some("1997年11月16日"));
        assert_eq!(g.result.as_deref(), Some("0-1"));
    }
    assert!(v10.intro[0].contains("中立杯"));
    assert_eq!(v18.tag("Event"), Some("\"中立杯\"象棋电视快棋赛"));
    assert_eq!(v18.tag("Game"), Some("仙人指路对起马局"));
}

#[test]
fn xqf_lines_are_the_six_the_file_holds() {
    // The six lines as the source repository's own test lists them.
    let want = [
        "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,马八进七,马２进３",
        "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,兵三进一,卒３进１",
        "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,兵七进一,车９平４",
        "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,马八进九,马２进３",
        "炮二平五,马８进７,马二进三,卒７进１,车一平二,车９平８,兵七进一,马２进３",
        "炮二平五,马８进７,马二进三,卒７进１,车一平二,炮２平５,车二进六,马２进３",
    ];
    let g = xqf("walker8088-cchess/game_varations.xqf");
    // Every line from the start to a leaf, the main line first and alternatives in file order.
    fn lines(pos: &Position, prefix: &[xiangqi_core::Move], line: &[RecordMove], out: &mut Vec<String>) {
        let mut pos = pos.clone();
        let mut prefix = prefix.to_vec();
        let mut extra = Vec::new();
        for rm in line {
            for v in &rm.variations {
                extra.push((pos.clone(), prefix.clone(), v));
            }
            prefix.push(rm.mv);
            pos.make_move(rm.mv);
        }
        let mut start = Position::startpos();
        let mut text = Vec::new();
        for &m in &prefix {
            text.push(start.move_text(m, Notation::Chinese));
            start.make_move(m);
        }
        out.push(text.join(","));
        for (p, pre, v) in extra {
            lines(&p, &pre, v, out);
        }
    }
    let mut out = Vec::new();
    lines(&g.start, &[], &g.moves, &mut out);
    out.sort();
    let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(out, want);
}

#[test]
fn chinese_records_written_again_give_the_same_move_text() {
    for name in ["walker8088-cchess/test2.pgn", "hbsxcjp-cchess/nx.pgn", "walker8088-cchess/test.pgn"] {
        for g in pgn(name) {
            let mut pos = g.start.clone();
            for rm in &g.moves {
                assert_eq!(pos.move_text(rm.mv, Notation::Chinese), rm.text, "{name}");
                pos.make_move(rm.mv);
            }
            // And the whole game, written in GBK and read again, is the same game.
            let bytes = encode(&write_pgn(std::slice::from_ref(&g), Notation::Chinese), TextEncoding::Gbk).unwrap();
            let again = read_pgn(&bytes, &ReadOptions::default()).games.remove(0).unwrap();
            assert_eq!(again.main_line(), g.main_line());
            // The same tags, the Seven Tag Roster first; an empty `Opening` tag is filled with the opening's name.
            let rank = |n: &str| STANDARD_TAGS.iter().position(|t| t == &n).unwrap_or(7);
            let mut want = g.tags.clone();
            want.sort_by_key(|(n, _)| rank(n));
            let named = openings::opening_of(&g.start, &g.main_line()).map(|n| n.opening.label());
            for (n, v) in &mut want {
                if n == "Opening" && v.is_empty() {
                    *v = named.clone().unwrap_or_default();
                }
            }
            assert_eq!(again.tags, want, "{name}");
            assert_eq!(again.intro, g.intro);
            assert_eq!(
                again.moves.iter().map(|m| &m.comments).collect::<Vec<_>>(),
                g.moves.iter().map(|m| &m.comments).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn many_soldiers_on_one_and_two_files() {
    let g = &pgn("hbsxcjp-cchess/bing.pgn")[0];
    assert_eq!(g.moves.len(), 129);
    assert_eq!(g.tag("Event"), Some("许银川让九子对聂棋圣"));
    assert!(g.moves.iter().any(|m| m.text == "四兵进一"));
}

#[test]
fn a_damaged_xqf_file_is_an_error_that_names_the_move() {
    let mut bytes = std::fs::read(data("walker8088-cchess/test1.xqf")).unwrap();
    // Version 10: the move tree is plain, each node 4 bytes, a 4-byte comment length and the comment. Walk to the
    // 5th move and send its piece off the board.
    let len = |at: usize| u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
    let mut at = 1024;
    for _ in 0..5 {
        at += 8 + len(at);
    }
    bytes[at] = 0x18 + 95;
    let e = read_xqf(&bytes).unwrap_err().to_string();
    assert!(e.starts_with("XQF move 5 (95 to ") && e.ends_with("): a point outside the board"), "{e}");
    bytes[2] = 0x30;
    assert!(read_xqf(&bytes).unwrap_err().to_string().contains("version 48 (0x30) is not supported"));
    assert!(read_xqf(b"PK\x03\x04").is_err());
}

/// Real XQF files of each version with bytes changed, cut or added: an error or a game, never a panic, and a game
/// read is always legal. Edits that miss what matters (a name in the header, a comment) leave a game to check: about
/// one file in ten still reads, and at least 60 of the 2,000 (with 500 moves) must, or nothing was checked.
#[test]
fn damaged_xqf_files_never_panic() {
    use proptest::prelude::{any, ProptestConfig};
    use proptest::sample::{select, Index};
    let config = ProptestConfig { cases: 2000, failure_persistence: None, ..Default::default() };
    let files = vec![
        "walker8088-cchess/test1.xqf",
        "walker8088-cchess/game_varations.xqf",
        "walker8088-cchess/BadMoveTest2.xqf",
        "hbsxcjp-cchess/4.XQF",
    ];
    let strategy = (select(files), proptest::collection::vec((any::<Index>(), any::<u8>()), 1..8), any::<Index>());
    let (games, moves) = (Cell::new(0usize), Cell::new(0usize));
    proptest::test_runner::TestRunner::new(config)
        .run(&strategy, |(file, edits, cut)| {
            let mut bytes = std::fs::read(data(file)).unwrap();
            for (at, b) in edits {
                let i = at.index(bytes.len());
                bytes[i] = b;
            }
            if bytes.len() > 1100 {
                let keep = 1024 + cut.index(bytes.len() - 1024);
                bytes.truncate(keep);
            }
            if let Ok(g) = read_xqf(&bytes) {
                games.set(games.get() + 1);
                let mut pos = g.start.clone();
                for rm in &g.moves {
                    proptest::prop_assert!(pos.is_legal(rm.mv));
                    pos.make_move(rm.mv);
                    moves.set(moves.get() + 1);
                }
            }
            Ok(())
        })
        .unwrap();
    eprintln!("damaged XQF files read: {} games, {} moves checked", games.get(), moves.get());
    assert!(games.get() >= 60 && moves.get() >= 500, "{} games and {} moves checked", games.get(), moves.get());
}

/// `read_record` tells the formats apart by content: every record file here reads as its format, and binary data
/// (an XQF file whose magic is lost) is no record, rather than a PGN of garbled text.
#[test]
fn read_record_tells_the_formats_apart() {
    let mut read = 0;
    for dir in ["hbsxcjp-cchess", "walker8088-cchess"] {
        for entry in std::fs::read_dir(data(dir)).unwrap() {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            let file = read_record(&bytes, &ReadOptions::default()).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let xqf = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("xqf"));
            assert_eq!(matches!(file.format, RecordFormat::Xqf { .. }), xqf, "{path:?}: {}", file.format);
            assert!(!file.games.is_empty(), "{path:?}");
            read += 1;
        }
    }
    assert!(read >= 10, "{read} files");
    let mut bytes = std::fs::read(data("walker8088-cchess/test1.xqf")).unwrap();
    bytes[..2].copy_from_slice(b"xx");
    assert_eq!(read_record(&bytes, &ReadOptions::default()).unwrap_err(), FileError::NotARecord);
    assert_eq!(read_record(b"\n\n", &ReadOptions::default()).unwrap_err(), FileError::NoGame);
}
