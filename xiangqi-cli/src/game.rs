//! `xiangqi game`: replays a game and says whether it is over, who won and by which rule, as a referee would.
//!
//! The moves are replayed with [`xiangqi_core::Game::replay`] (a record file's games with
//! [`GameRecord::judge`], which calls it); an illegal move is an error naming its ply and the reason. When the rules end the game (mate, stalemate, a judged repetition, the 60-move rule, insufficient
//! material) replaying stops there, and the output says how many moves were left unplayed.

use crate::records::load;
use crate::{CmdResult, UsageError};
use serde_json::json;
use std::io::Write;
use std::path::Path;
use xiangqi_core::record::{openings, GameRecord};
use xiangqi_core::rules::JudgeOptions;
use xiangqi_core::{Game, GameResult, Position, Replay, Validation};

/// Arguments of `xiangqi game`.
#[derive(clap::Args)]
pub struct GameArgs {
    /// Start position (default: the start position).
    #[arg(long, default_value = xiangqi_core::START_FEN, hide_default_value = true)]
    pub fen: String,
    /// The moves played, in UCI notation, separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Replay and judge every game of a record file instead: PGN (Chinese, WXF, ICCS or UCI notation; UTF-8 or
    /// GBK) or XQF. Each game's tags are printed, then the result and the rule that decided it.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "fen"])]
    pub pgn: Option<std::path::PathBuf>,
    /// Print one JSON object: `result` (red, black, draw or ongoing), `reason`, `plies` and more.
    #[arg(long)]
    pub json: bool,
    /// Do not adjudicate a draw for insufficient material.
    #[arg(long)]
    pub no_material_draw: bool,
    /// Load a start position the strict rules refuse but rule books and studies use: a soldier on a point it can
    /// never reach, more pieces of a kind than a side starts with (kings, the river and check are still checked).
    #[arg(long)]
    pub lenient: bool,
}

/// Replays `--moves` from `--fen` with the rules' referee ([`Game::replay`]). A bad FEN or move is an error in the
/// command line ([`UsageError`]).
fn replay(args: &GameArgs) -> Result<Replay, UsageError> {
    let validation = if args.lenient { Validation::Lenient } else { Validation::Strict };
    let start = Position::from_fen_with(&args.fen, validation).map_err(|e| {
        // Only what lenient loading accepts gets the hint.
        let lenient_would_load = Position::from_fen_with(&args.fen, Validation::Lenient).is_ok();
        let hint = if !args.lenient && lenient_would_load {
            " (--lenient loads the setups of rule books and studies)"
        } else {
            ""
        };
        UsageError::value("fen", &args.fen, format!("{e}{hint}"))
    })?;
    let options = JudgeOptions { material_draw: !args.no_material_draw };
    Game::replay(&start, args.moves.split_whitespace(), options).map_err(|e| UsageError::value("moves", &args.moves, e))
}

/// One sentence saying what decided the game ([`GameResult::detail`]).
fn detail(result: Option<GameResult>) -> String {
    result.map_or_else(|| "the game goes on".to_owned(), |r| r.detail())
}

/// The opening the game reached ([`openings::opening_of`]), as JSON: its names, its ECCO code when the table
/// gives one, and the ply that reached it; `null` when none is named.
fn opening_json(game: &Game) -> serde_json::Value {
    match openings::opening_of(game.start(), game.moves()) {
        Some(n) => json!({
            "chinese": n.opening.chinese,
            "english": n.opening.english,
            "ecco": n.opening.ecco,
            "ply": n.ply,
        }),
        None => serde_json::Value::Null,
    }
}

/// The opening line of the text report: `opening 中炮 (Central Cannon), at ply 1`, or nothing.
fn opening_text(game: &Game) -> Option<String> {
    openings::opening_of(game.start(), game.moves()).map(|n| format!("opening {}, at ply {}", n.opening.label(), n.ply))
}

/// The `--json` object.
fn json_report(game: &Game, unplayed: usize) -> serde_json::Value {
    let result = game.result();
    json!({
        "opening": opening_json(game),
        "result": GameResult::word(result),
        "reason": result.map(|r| r.reason.as_str()),
        "plies": game.plies(),
        "unplayed": unplayed,
        "detail": detail(result),
        "fen": game.position().fen(),
        "move_limit_plies": game.move_limit().plies(),
    })
}

/// Runs the command.
pub fn run(args: &GameArgs) -> CmdResult {
    if let Some(path) = &args.pgn {
        return run_game_file(args, path);
    }
    let Replay { game, unplayed } = replay(args)?;
    let result = game.result();
    let plies = game.plies();
    let fen = game.position().fen();
    let limit = game.move_limit();
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", json_report(&game, unplayed))?;
        return Ok(());
    }
    match result {
        Some(r) => writeln!(out, "result {} ({r})", GameResult::word(result))?,
        None => writeln!(out, "result ongoing")?,
    }
    if let Some(r) = result {
        writeln!(out, "reason {}", r.reason)?;
    }
    writeln!(out, "detail {}", detail(result))?;
    writeln!(out, "plies {plies}")?;
    if let Some(line) = opening_text(&game) {
        writeln!(out, "{line}")?;
    }
    if unplayed > 0 {
        writeln!(out, "stopped the game ended at ply {plies}; the {unplayed} moves after it were not replayed")?;
    }
    writeln!(out, "move-limit {} of 120 counted plies", limit.plies())?;
    writeln!(out, "fen {fen}")?;
    Ok(())
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
        "opening": opening_json(game),
        "result": GameResult::word(result),
        "reason": result.map(|r| r.reason.as_str()),
        "detail": detail(result),
        "plies": game.plies(),
        "unplayed": unplayed,
        "fen": game.position().fen(),
    })
}

/// `xiangqi game --pgn FILE`: every game's tags, then the referee's result and the rule that decided it.
fn run_game_file(args: &GameArgs, path: &Path) -> CmdResult {
    let loaded = load(path)?;
    let options = JudgeOptions { material_draw: !args.no_material_draw };
    let mut out = std::io::stdout().lock();
    let mut bad = 0;
    let total = loaded.games.len();
    for (i, g) in loaded.games.iter().enumerate() {
        let number = i + 1;
        // A game that cannot be read, or (what the readers let through) replayed, is reported in its place.
        let judged = g
            .as_ref()
            .map_err(|e| e.to_string())
            .and_then(|r| r.judge(options).map(|v| (r, v)).map_err(|e| e.to_string()));
        let (record, Replay { game, unplayed }) = match judged {
            Ok(v) => v,
            Err(e) => {
                bad += 1;
                if args.json {
                    writeln!(out, "{}", json!({ "game": number, "error": e }))?;
                } else {
                    writeln!(out, "game {number}: error: {e}")?;
                }
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
            Some(r) => writeln!(out, "  result {} ({r})", GameResult::word(result))?,
            None => writeln!(out, "  result ongoing")?,
        }
        writeln!(out, "  detail {}", detail(result))?;
        writeln!(out, "  recorded {}", record.result.as_deref().unwrap_or("*"))?;
        writeln!(out, "  plies {}", game.plies())?;
        if let Some(line) = opening_text(&game) {
            writeln!(out, "  {line}")?;
        }
        if unplayed > 0 {
            writeln!(
                out,
                "  stopped the game ended at ply {}; the {unplayed} recorded moves after it were not replayed",
                game.plies()
            )?;
        }
    }
    if !args.json {
        writeln!(out, "{} game(s) in {} ({}), {bad} with errors", total, path.display(), loaded.format)?;
    }
    if bad > 0 {
        return Err(format!("{bad} of {total} game(s) could not be read or replayed").into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(fen: &str, moves: &str) -> GameArgs {
        GameArgs {
            fen: fen.to_string(),
            moves: moves.to_string(),
            pgn: None,
            json: true,
            no_material_draw: false,
            lenient: false,
        }
    }

    #[test]
    fn the_opening_is_named_in_text_and_json() {
        let start = Position::startpos().fen();
        for moves in ["h2e2 h9g7 h0g2 i9h9", "h2e2 i9i8 h0g2 i8i9 i0i1 h9g7 i1i0 i9h9"] {
            let game = replay(&args(&start, moves)).unwrap().game;
            let v = json_report(&game, 0);
            assert_eq!(v["opening"]["chinese"], "中炮对屏风马 先出车", "{moves}");
            assert_eq!(v["opening"]["english"], "Central Cannon vs Screen Horses, Chariot First");
            assert_eq!(v["opening"]["ply"], moves.split(' ').count());
            let text = opening_text(&game).unwrap();
            assert!(text.starts_with("opening 中炮对屏风马 先出车 (Central Cannon"), "{text}");
        }
        let none = replay(&args("3k5/9/9/9/9/9/9/9/9/R3K4 w", "a0a1")).unwrap().game;
        assert!(json_report(&none, 0)["opening"].is_null());
    }

    #[test]
    fn perpetual_check_stops_the_replay() {
        let moves = "a0a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9";
        let Replay { game, unplayed } = replay(&args("3k5/9/9/9/9/9/9/9/9/R3K4 w", moves)).unwrap();
        let v = json_report(&game, unplayed);
        assert_eq!(v["result"], "black");
        assert_eq!(v["reason"], "perpetual-check");
        assert_eq!(v["plies"], 9);
        assert_eq!(v["unplayed"], 3);
        assert!(v["detail"].as_str().unwrap().starts_with("red checked perpetually"));
    }

    #[test]
    fn perpetual_chase_names_the_chased_piece() {
        let moves = "c3b3 b7c7 b3c3 c7b7 c3b3 b7c7 b3c3 c7b7";
        let Replay { game, unplayed } = replay(&args("4k4/9/1c7/9/9/9/2R6/9/9/3K5 w", moves)).unwrap();
        let v = json_report(&game, unplayed);
        assert_eq!((v["result"].as_str(), v["reason"].as_str(), unplayed), (Some("black"), Some("perpetual-chase"), 0));
        assert!(v["detail"].as_str().unwrap().contains("the piece on b7"), "{}", v["detail"]);
    }

    #[test]
    fn ongoing_and_material_draw_option() {
        let Replay { game, unplayed } = replay(&args(xiangqi_core::START_FEN, "h2e2 h9g7")).unwrap();
        let v = json_report(&game, unplayed);
        assert_eq!(
            (v["result"].as_str(), v["reason"].is_null(), v["plies"].as_u64()),
            (Some("ongoing"), true, Some(2))
        );
        let bare = "4k4/9/9/9/9/9/9/9/4A4/3K5 w";
        let v = json_report(&replay(&args(bare, "")).unwrap().game, 0);
        assert_eq!((v["result"].as_str(), v["reason"].as_str()), (Some("draw"), Some("insufficient-material")));
        let mut off = args(bare, "");
        off.no_material_draw = true;
        assert_eq!(json_report(&replay(&off).unwrap().game, 0)["result"], "ongoing");
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let e = replay(&args(xiangqi_core::START_FEN, "h2e2 h9g7 e2e9")).err().unwrap().to_string();
        assert!(e.starts_with("invalid value 'h2e2 h9g7 e2e9' for --moves: ply 3: illegal move e2e9"), "{e}");
        let e = replay(&args(xiangqi_core::START_FEN, "h2e2 x")).err().unwrap().to_string();
        assert!(e.starts_with("invalid value 'h2e2 x' for --moves: ply 2: malformed move"), "{e}");
        assert!(replay(&args("not a fen", "")).is_err());
        assert!(replay(&args("4k4/9/9/9/9/9/9/9/9/4K4 w", "")).is_err(), "facing kings");
    }
}
