//! `xiangqi game --pgn`, `xiangqi convert` and `xiangqi analyze` on real records (xiangqi-core's test data, whose
//! README names each file's source) and on damaged ones.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn xiangqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi")).args(args).output().expect("the binary starts")
}

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../xiangqi-core/tests/data/records")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-records-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn game_pgn_prints_each_games_tags_and_the_referees_result() {
    let o = xiangqi(&["game", "--pgn", &data("hbsxcjp-cchess/nx.pgn")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for line in
        ["game 1", "  Event: 许银川让九子对聂棋圣", "  Red: 许银川", "  recorded 1-0", "  plies 75", "  result ongoing"]
    {
        assert!(out.lines().any(|l| l == line), "{line:?} in\n{out}");
    }
    assert!(out.contains("1 game(s) in ") && out.contains("(PGN (GBK)), 0 with errors"), "{out}");
    // An XQF file, as JSON.
    let o = xiangqi(&["game", "--pgn", &data("walker8088-cchess/test.xqf"), "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!((v["plies"].as_u64(), v["recorded_result"].as_str()), (Some(110), Some("0-1")));
    assert_eq!(v["tags"]["Red"], "柳大华");
}

#[test]
fn game_pgn_judges_a_mate_and_reports_a_bad_game_with_its_number_and_line() {
    let dir = scratch("game");
    let file = dir.join("three.pgn");
    let text = "[Event \"mate\"]\n[FEN \"4k4/8R/9/9/9/9/9/9/R8/3K5 w\"]\n\n1. a1a9 1-0\n\n\
                [Event \"broken\"]\n\n1. 炮二平五 马８进７\n2. 炮五进九 *\n\n[Event \"fine\"]\n\n1. C2.5 H8+7 *\n";
    std::fs::write(&file, text).unwrap();
    let o = xiangqi(&["game", "--pgn", file.to_str().unwrap()]);
    assert!(!o.status.success());
    let out = stdout(&o);
    assert!(out.contains("game 1\n  Event: mate\n"), "{out}");
    assert!(out.contains("  result red (red wins by checkmate)"), "{out}");
    assert!(out.contains("game 2: error: game 2, line 9, at \"炮五进九\": "), "{out}");
    assert!(out.contains("game 3\n  Event: fine\n"), "{out}");
    assert!(stderr(&o).contains("1 of 3 game(s) could not be read or replayed"), "{}", stderr(&o));
    // Bad flags and files are errors, not panics.
    assert!(!xiangqi(&["game", "--pgn", "/nonexistent.pgn"]).status.success());
    let o = xiangqi(&["game", "--pgn", file.to_str().unwrap(), "--moves", "h2e2"]);
    assert_eq!(o.status.code(), Some(2), "--pgn and --moves conflict");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn convert_between_notations_and_encodings() {
    let dir = scratch("convert");
    let wxf = dir.join("01-wxf.pgn");
    let o = xiangqi(&["convert", &data("hbsxcjp-cchess/01.pgn"), wxf.to_str().unwrap(), "--notation", "wxf"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("converted 1 of 1 game(s) from PGN (GBK)"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&wxf).unwrap();
    assert!(text.contains("1. H4+3 {从相肩进马是取胜的正确途径。其它着法，均不能取胜。}"), "{text}");
    assert!(text.contains("[Format \"WXF\"]") && text.trim_end().ends_with("1-0"), "{text}");
    // Back to Chinese in GBK: the bytes are GBK, and the game reads back the same.
    let gbk = dir.join("01-gbk.pgn");
    let o = xiangqi(&[
        "convert",
        wxf.to_str().unwrap(),
        gbk.to_str().unwrap(),
        "--notation",
        "chinese",
        "--encoding",
        "gbk",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&gbk).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err());
    let plies = |path: &str| {
        let o = xiangqi(&["game", "--pgn", path, "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        (v["plies"].as_u64().unwrap(), v["fen"].as_str().unwrap().to_string())
    };
    assert_eq!(plies(gbk.to_str().unwrap()), plies(&data("hbsxcjp-cchess/01.pgn")));
    // XQF to ICCS, on standard output.
    let o = xiangqi(&["convert", &data("walker8088-cchess/test1.xqf"), "-", "--notation", "iccs"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("[Red \"柳大华\"]") && stdout(&o).contains("1. C3-C4 "), "{}", stdout(&o));
    // A bad notation or encoding is a usage error.
    assert_eq!(xiangqi(&["convert", &data("hbsxcjp-cchess/01.pgn"), "-", "--notation", "san"]).status.code(), Some(2));
    assert_eq!(
        xiangqi(&["convert", &data("hbsxcjp-cchess/01.pgn"), "-", "--encoding", "latin1"]).status.code(),
        Some(2)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn analyze_writes_evaluations_marks_a_chart_and_progress() {
    let dir = scratch("analyze");
    let (pgn, svg) = (dir.join("a.pgn"), dir.join("a.svg"));
    let o = xiangqi(&[
        "analyze",
        &data("hbsxcjp-cchess/01.XQF"),
        "--depth",
        "8",
        "--out",
        pgn.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("analyze: position 8/8 (100%)"), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("black: 3 moves, 0 inaccuracies (?!), 0 mistakes (?), 1 blunders (??)"),
        "{}",
        stdout(&o)
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Annotator \"xiangqi analyze (engine, depth 8 per position)\"]"), "{text}");
    // Black's retreat lets Red mate: a blunder, with the engine's better move and line in the comment.
    assert!(text.contains("1... 炮４退９?? {#3 d8; best 车９平８ "), "{text}");
    assert!(text.contains("4. 马五进三 {checkmate, the engine's choice} 1-0"), "{text}");
    // The original comments and variations stay.
    assert!(text.contains("{从相肩进马是取胜的正确途径。其它着法，均不能取胜。}") && text.contains("(1. 马四进五 "));
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.starts_with("<svg") && chart.contains("blunder ?? (loss &gt;= 300): 1"), "{chart}");
    // With a time limit instead, on standard output, in WXF.
    let o = xiangqi(&["analyze", &data("walker8088-cchess/ucci_test1.xqf"), "--movetime", "5", "--notation", "wxf"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("ms per position") && text.contains("1. "), "{text}");
    assert!(stderr(&o).contains("red: 22 moves"), "{}", stderr(&o));
    // No game 2 in a file of one.
    let o = xiangqi(&["analyze", &data("hbsxcjp-cchess/01.XQF"), "--game", "2", "--movetime", "1"]);
    assert!(!o.status.success() && stderr(&o).contains("has 1 game(s); there is no game 2"), "{}", stderr(&o));
    std::fs::remove_dir_all(dir).unwrap();
}

/// A file that is neither PGN nor XQF (binary data: here an XQF file whose magic is lost, and a build of the
/// binary itself) is one error saying so, from each command that reads records, not garbled text read as moves.
#[test]
fn a_file_that_is_no_record_is_an_error_saying_so() {
    let dir = scratch("binary");
    let file = dir.join("game.bin");
    let mut bytes = std::fs::read(data("walker8088-cchess/test1.xqf")).unwrap();
    bytes[..2].copy_from_slice(b"xx");
    std::fs::write(&file, bytes).unwrap();
    let path = file.to_str().unwrap();
    let out = dir.join("out.pgn");
    for target in [path, env!("CARGO_BIN_EXE_xiangqi")] {
        for args in [
            vec!["game", "--pgn", target],
            vec!["game", "--pgn", target, "--json"],
            vec!["convert", target, out.to_str().unwrap()],
            vec!["analyze", target, "--depth", "1"],
        ] {
            let o = xiangqi(&args);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
            assert_eq!(stderr(&o), format!("error: {target}: not a PGN or XQF file\n"), "{args:?}");
            assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o));
        }
    }
    assert!(!out.exists(), "convert wrote a file");
    std::fs::remove_dir_all(dir).unwrap();
}
