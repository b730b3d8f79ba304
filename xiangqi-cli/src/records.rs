//! Game record files on the command line: `xiangqi game --pgn FILE` (replay and judge every game of a PGN or XQF
//! file) and `xiangqi convert IN OUT` (write a file's games as PGN in another notation or encoding).

use crate::game::{detail, result_word, GameArgs};
use crate::CmdResult;
use serde_json::json;
use std::io::Write;
use std::path::Path;
use xiangqi_core::record::{
    encode, read_pgn, read_xqf, write_pgn, GameRecord, Notation, ReadOptions, RecordError, TextEncoding,
};
use xiangqi_core::rules::JudgeOptions;
use xiangqi_core::Game;

/// A record file's games: each read, or why not.
pub struct Loaded {
    /// The games in file order.
    pub games: Vec<Result<GameRecord, RecordError>>,
    /// What the file was: `PGN (GBK)`, `XQF`...
    pub kind: String,
}

/// Reads a PGN or XQF file (XQF recognised by its `XQ` magic, whatever the file's name).
pub fn load(path: &Path) -> Result<Loaded, Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.starts_with(b"XQ") {
        let game = read_xqf(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(Loaded { games: vec![Ok(game)], kind: format!("XQF version {}", bytes[2]) });
    }
    let file = read_pgn(&bytes, &ReadOptions::default());
    if file.games.is_empty() {
        return Err(format!("{}: no game found", path.display()).into());
    }
    Ok(Loaded { kind: format!("PGN ({})", file.encoding), games: file.games })
}

/// The `xiangqi game --pgn FILE` report of one game, as JSON.
fn game_json(number: usize, record: &GameRecord, game: &Game, unplayed: usize) -> serde_json::Value {
    let result = game.result();
    let tags: serde_json::Map<String, serde_json::Value> =
        record.tags.iter().map(|(n, v)| (n.clone(), v.clone().into())).collect();
    json!({
        "game": number,
        "tags": tags,
        "recorded_result": record.result,
        "result": result_word(result),
        "reason": result.map(|r| r.reason.as_str()),
        "detail": detail(result),
        "plies": game.plies(),
        "unplayed": unplayed,
        "fen": game.position().fen(),
    })
}

/// Replays a record's main line with the rules' referee: the game, and the number of recorded moves after the
/// rules ended it.
fn judge(record: &GameRecord, options: JudgeOptions) -> Result<(Game, usize), String> {
    let mut game = Game::with_options(&record.start, options);
    for (i, rm) in record.moves.iter().enumerate() {
        if game.is_over() {
            return Ok((game, record.moves.len() - i));
        }
        game.push(rm.mv).map_err(|e| e.to_string())?;
    }
    Ok((game, 0))
}

/// `xiangqi game --pgn FILE`: every game's tags, then the referee's result and the rule that decided it.
pub fn run_game_file(args: &GameArgs, path: &Path) -> CmdResult {
    let loaded = load(path)?;
    let options = JudgeOptions { material_draw: !args.no_material_draw };
    let mut out = std::io::stdout().lock();
    let mut bad = 0;
    let total = loaded.games.len();
    for (i, g) in loaded.games.iter().enumerate() {
        let number = i + 1;
        let record = match g {
            Ok(r) => r,
            Err(e) => {
                bad += 1;
                if args.json {
                    writeln!(out, "{}", json!({ "game": number, "error": e.to_string() }))?;
                } else {
                    writeln!(out, "game {number}: error: {e}")?;
                }
                continue;
            }
        };
        let (game, unplayed) = match judge(record, options) {
            Ok(v) => v,
            Err(e) => {
                bad += 1;
                writeln!(out, "game {number}: error: {e}")?;
                continue;
            }
        };
        if args.json {
            writeln!(out, "{}", game_json(number, record, &game, unplayed))?;
            continue;
        }
        writeln!(out, "game {number}")?;
        for (name, value) in &record.tags {
            if !value.is_empty() {
                writeln!(out, "  {name}: {value}")?;
            }
        }
        let result = game.result();
        match result {
            Some(r) => writeln!(out, "  result {} ({r})", result_word(result))?,
            None => writeln!(out, "  result ongoing")?,
        }
        writeln!(out, "  detail {}", detail(result))?;
        writeln!(out, "  recorded {}", record.result.as_deref().unwrap_or("*"))?;
        writeln!(out, "  plies {}", game.plies())?;
        if unplayed > 0 {
            writeln!(
                out,
                "  stopped the game ended at ply {}; the {unplayed} recorded moves after it were not replayed",
                game.plies()
            )?;
        }
    }
    if !args.json {
        writeln!(out, "{} game(s) in {} ({}), {bad} with errors", total, path.display(), loaded.kind)?;
    }
    if bad > 0 {
        return Err(format!("{bad} of {total} game(s) could not be read or replayed").into());
    }
    Ok(())
}

/// Arguments of `xiangqi convert`.
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// The record to read: PGN (any notation, UTF-8 or GBK) or XQF.
    pub input: std::path::PathBuf,
    /// The PGN file to write (`-` for standard output).
    pub output: std::path::PathBuf,
    /// The notation of the moves written: chinese, wxf, iccs or uci.
    #[arg(long, default_value = "chinese")]
    pub notation: Notation,
    /// The text encoding written: utf8 or gbk.
    #[arg(long, default_value = "utf8")]
    pub encoding: TextEncoding,
}

/// Writes `text` to `path` (`-`: standard output) in `encoding`.
pub fn write_text(path: &Path, text: &str, encoding: TextEncoding) -> CmdResult {
    let bytes = encode(text, encoding)?;
    if path == Path::new("-") {
        std::io::stdout().lock().write_all(&bytes)?;
    } else {
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// `xiangqi convert IN OUT`: the games read are written; a game that could not be read is reported on standard
/// error and left out, and the exit code is then 1.
pub fn convert(args: &ConvertArgs) -> CmdResult {
    let loaded = load(&args.input)?;
    let total = loaded.games.len();
    let mut games = Vec::new();
    for g in loaded.games {
        match g {
            Ok(g) => games.push(g),
            Err(e) => eprintln!("skipped {e}"),
        }
    }
    write_text(&args.output, &write_pgn(&games, args.notation), args.encoding)?;
    let skipped = total - games.len();
    eprintln!(
        "converted {} of {total} game(s) from {} to {} in {} notation, {}",
        games.len(),
        loaded.kind,
        args.output.display(),
        args.notation,
        args.encoding
    );
    if skipped > 0 {
        return Err(format!("{skipped} game(s) could not be read").into());
    }
    Ok(())
}
