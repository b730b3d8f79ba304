//! PGN: reading files of several games (tags, comments, variations, setups, results, moves in any notation) and
//! writing them in a chosen notation.

use super::encoding::{decode, TextEncoding};
use super::notation::{Notation, NotationError};
use super::{GameRecord, RecordError, RecordMove};
use crate::position::Validation;
use crate::types::Color;
use crate::Position;

/// How to read a PGN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// Keep variations (`(...)`) in [`RecordMove::variations`]; otherwise they are checked and dropped.
    pub keep_variations: bool,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions { keep_variations: true }
    }
}

/// What a PGN file held: its games in file order, each read or the error that stopped it.
#[derive(Clone, Debug)]
pub struct PgnFile {
    /// The encoding the file was found to be in.
    pub encoding: TextEncoding,
    /// Each game, in order: the game, or where and why reading it stopped.
    pub games: Vec<Result<GameRecord, RecordError>>,
}

impl PgnFile {
    /// The notation most of the file's games were written in, a tie going to the earlier of [`Notation::ALL`]
    /// (`None` for a file without moves).
    pub fn notation(&self) -> Option<Notation> {
        let mut counts = [0usize; 4];
        for g in self.games.iter().flatten() {
            if let Some(n) = g.notation {
                counts[Notation::ALL.iter().position(|&x| x == n).unwrap_or(0)] += 1;
            }
        }
        let (i, &c) = counts.iter().enumerate().max_by_key(|&(i, c)| (*c, std::cmp::Reverse(i)))?;
        (c > 0).then_some(Notation::ALL[i])
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Tag(String, String),
    Comment(String),
    Open,
    Close,
    Result(String),
    Nag(String),
    Word(String),
}

/// Deepest nesting of variations read; deeper is an error (a guard against hostile files).
const MAX_DEPTH: usize = 64;

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Splits the text into tokens, each with its line number (from 1).
fn lex(text: &str) -> Vec<(Tok, usize)> {
    let mut toks = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let (mut i, mut line) = (0usize, 1usize);
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_whitespace() || c == '\u{feff}' {
            i += 1;
            continue;
        }
        let at_line_start = std::mem::replace(&mut line_start, false);
        let here = line;
        match c {
            '%' if at_line_start => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '[' => {
                let start = i + 1;
                let mut in_quotes = false;
                i += 1;
                while i < chars.len() && chars[i] != '\n' && (in_quotes || chars[i] != ']') {
                    if chars[i] == '\\' && in_quotes {
                        i += 1;
                    } else if chars[i] == '"' {
                        in_quotes = !in_quotes;
                    }
                    i += 1;
                }
                let end = i.min(chars.len());
                if i < chars.len() && chars[i] == ']' {
                    i += 1;
                }
                let inner: String = chars[start..end].iter().collect();
                let inner = inner.trim();
                let name: String = inner.chars().take_while(|c| !c.is_whitespace() && *c != '"').collect();
                let rest = inner[name.len()..].trim();
                let value = match (rest.find('"'), rest.rfind('"')) {
                    (Some(a), Some(b)) if b > a => rest[a + 1..b].replace("\\\"", "\"").replace("\\\\", "\\"),
                    _ => rest.trim_matches('"').to_string(),
                };
                toks.push((Tok::Tag(name, value), here));
            }
            '{' => {
                let start = i + 1;
                i += 1;
                while i < chars.len() && chars[i] != '}' {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
                let comment: String = chars[start..i.min(chars.len())].iter().collect();
                i += 1;
                toks.push((Tok::Comment(comment.replace("\r\n", "\n").trim().to_string()), here));
            }
            ';' => {
                let start = i + 1;
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                let comment: String = chars[start..i].iter().collect();
                toks.push((Tok::Comment(comment.trim().to_string()), here));
            }
            '(' => {
                toks.push((Tok::Open, here));
                i += 1;
            }
            ')' => {
                toks.push((Tok::Close, here));
                i += 1;
            }
            _ => {
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() && !"{}();[".contains(chars[i]) {
                    i += 1;
                }
                if i == start {
                    // A lone '}' or ']' outside its pair: a word of its own.
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                words(&word, here, &mut toks);
            }
        }
    }
    toks
}

/// Classifies a word: a result, a move number (dropped), a NAG, or a move (with any move number before it).
fn words(word: &str, line: usize, toks: &mut Vec<(Tok, usize)>) {
    match word {
        "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½" => {
            let w = if word == "½-½" { "1/2-1/2" } else { word };
            toks.push((Tok::Result(w.to_string()), line));
            return;
        }
        _ => {}
    }
    if let Some(n) = word.strip_prefix('$') {
        toks.push((Tok::Nag(format!("${n}")), line));
        return;
    }
    // A move number: digits then dots (`1.`, `1...`, `1．`, `1、`), possibly joined to the move.
    let digits = word.chars().take_while(|c| c.is_ascii_digit()).count();
    let after: String = word.chars().skip(digits).collect();
    let dots = after.chars().take_while(|c| matches!(c, '.' | '．' | '、' | '…' | '。')).count();
    let rest: String = if digits > 0 && dots > 0 {
        after.chars().skip(dots).collect()
    } else if word.chars().all(|c| matches!(c, '.' | '…')) {
        String::new()
    } else {
        word.to_string()
    };
    if !rest.is_empty() {
        toks.push((Tok::Word(rest), line));
    }
}

/// One variation level being read: its moves and the position after them.
struct Frame {
    moves: Vec<RecordMove>,
    pos: Position,
}

/// Reads a PGN file's bytes (the encoding detected, see [`decode`]).
///
/// Every game is read to its end or to its first error; an error never stops the games after it. Each game's
/// moves are checked for legality (not for the rules' game ends: a record may go on after a repetition that
/// other rules judge differently; `Game` judges).
pub fn read_pgn(bytes: &[u8], options: &ReadOptions) -> PgnFile {
    let decoded = decode(bytes);
    let toks = lex(&decoded.text);
    let mut games = Vec::new();
    // Split into games: a tag after movetext, or a result at depth 0, ends one.
    let mut start = 0;
    let (mut depth, mut in_body) = (0usize, false);
    let mut chunks: Vec<&[(Tok, usize)]> = Vec::new();
    for (i, (tok, _)) in toks.iter().enumerate() {
        match tok {
            Tok::Tag(..) if in_body => {
                chunks.push(&toks[start..i]);
                start = i;
                depth = 0;
                in_body = false;
            }
            Tok::Tag(..) => {}
            Tok::Open => {
                depth += 1;
                in_body = true;
            }
            Tok::Close => depth = depth.saturating_sub(1),
            Tok::Result(_) if depth == 0 => {
                chunks.push(&toks[start..=i]);
                start = i + 1;
                in_body = false;
            }
            _ => in_body = true,
        }
    }
    if start < toks.len() {
        chunks.push(&toks[start..]);
    }
    for chunk in chunks {
        // Stray comments between games (or after the last) are no game, nor is text without tags or result
        // whose first word is no move (a collection's footer, `====`, a web address).
        if chunk.iter().all(|(t, _)| matches!(t, Tok::Comment(_))) || is_trailing_text(chunk) {
            continue;
        }
        let number = games.len() + 1;
        games.push(read_game(chunk, number, options));
    }
    PgnFile { encoding: decoded.encoding, games }
}

fn is_trailing_text(chunk: &[(Tok, usize)]) -> bool {
    if chunk.iter().any(|(t, _)| matches!(t, Tok::Tag(..) | Tok::Result(_))) {
        return false;
    }
    match chunk.iter().find_map(|(t, _)| if let Tok::Word(w) = t { Some(w) } else { None }) {
        Some(w) => Position::startpos().read_move(split_mark(w).0).is_err(),
        None => false,
    }
}

fn read_game(toks: &[(Tok, usize)], number: usize, options: &ReadOptions) -> Result<GameRecord, RecordError> {
    let err = |line: usize, text: &str, reason: String| RecordError { game: number, line, text: clip(text), reason };
    let mut tags = Vec::new();
    let mut body = 0;
    for (i, (tok, line)) in toks.iter().enumerate() {
        match tok {
            Tok::Tag(name, value) => {
                if name.is_empty() {
                    return Err(err(*line, "[", "a tag without a name".into()));
                }
                tags.push((name.clone(), value.clone()));
            }
            _ => {
                body = i;
                break;
            }
        }
        body = i + 1;
    }
    let start = match tags.iter().find(|(n, _)| n.eq_ignore_ascii_case("FEN")) {
        Some((_, fen)) => {
            let line = toks.iter().find(|(t, _)| matches!(t, Tok::Tag(n, _) if n.eq_ignore_ascii_case("FEN")));
            let line = line.map_or(0, |(_, l)| *l);
            Position::from_fen(fen)
                .or_else(|e| Position::from_fen_with(fen, Validation::Lenient).map_err(|_| e))
                .map_err(|e| err(line, fen, format!("bad FEN tag: {e}")))?
        }
        None => Position::startpos(),
    };
    let mut game = GameRecord::new(start.clone());
    game.tags = tags;
    let mut frames = vec![Frame { moves: Vec::new(), pos: start }];
    let mut i = body;
    while i < toks.len() {
        let (tok, line) = (&toks[i].0, toks[i].1);
        i += 1;
        let depth = frames.len();
        let frame = frames.last_mut().expect("the main line's frame stays");
        match tok {
            Tok::Tag(name, _) => return Err(err(line, name, "a tag inside the moves".into())),
            Tok::Comment(c) => match frame.moves.last_mut() {
                Some(m) => m.comments.push(c.clone()),
                None if depth == 1 => game.intro.push(c.clone()),
                None => {} // a comment opening a variation: kept nowhere
            },
            Tok::Nag(n) => match frame.moves.last_mut() {
                Some(m) => m.mark = Some(n.clone()),
                None => return Err(err(line, n, "an annotation before any move".into())),
            },
            Tok::Result(r) => {
                if frames.len() > 1 {
                    return Err(err(line, r, "a result inside a variation".into()));
                }
                game.result = Some(r.clone());
            }
            Tok::Open => {
                if depth > MAX_DEPTH {
                    return Err(err(line, "(", format!("variations nested deeper than {MAX_DEPTH}")));
                }
                if frame.moves.is_empty() {
                    return Err(err(line, "(", "a variation before any move".into()));
                }
                let mut pos = frame.pos.clone();
                pos.unmake_move();
                frames.push(Frame { moves: Vec::new(), pos });
            }
            Tok::Close => {
                if frames.len() == 1 {
                    return Err(err(line, ")", "a ')' without its '('".into()));
                }
                let done = frames.pop().expect("checked above");
                let parent = frames.last_mut().expect("checked above");
                if options.keep_variations && !done.moves.is_empty() {
                    if let Some(m) = parent.moves.last_mut() {
                        m.variations.push(done.moves);
                    }
                }
            }
            Tok::Word(w) => {
                let (text, mark) = split_mark(w);
                if text.is_empty() {
                    match frame.moves.last_mut() {
                        Some(m) => m.mark = Some(mark.to_string()),
                        None => return Err(err(line, w, "an annotation before any move".into())),
                    }
                    continue;
                }
                let moves = match frame.pos.read_move(text) {
                    Ok((m, n)) => vec![(m, n, text.to_string())],
                    Err(e) => match split_joined(&frame.pos, text) {
                        Some(ms) => ms,
                        None => return Err(err(line, text, move_reason(&e, frame.moves.len(), &frame.pos))),
                    },
                };
                let last = moves.len() - 1;
                for (k, (m, n, t)) in moves.into_iter().enumerate() {
                    if game.notation.is_none() && depth == 1 {
                        game.notation = Some(n);
                    }
                    frame.pos.make_move(m);
                    let mut rm = RecordMove::new(m);
                    rm.text = t;
                    if k == last && !mark.is_empty() {
                        rm.mark = Some(mark.to_string());
                    }
                    frame.moves.push(rm);
                }
            }
        }
    }
    if frames.len() > 1 {
        let line = toks.last().map_or(0, |t| t.1);
        return Err(err(line, "(", "a variation is not closed".into()));
    }
    game.moves = frames.pop().map(|f| f.moves).unwrap_or_default();
    if game.result.is_none() {
        game.result = game.tag("Result").map(str::to_string);
    }
    Ok(game)
}

fn move_reason(e: &NotationError, ply: usize, pos: &Position) -> String {
    format!("{e} (ply {} of the line, {} to move)", ply + 1, pos.turn())
}

/// Splits a trailing judgement mark (`!`, `?`, `!?`, ...) from a move's text.
fn split_mark(word: &str) -> (&str, &str) {
    let text = word.trim_end_matches(['!', '?', '！', '？']);
    (text, &word[text.len()..])
}

/// Chinese moves written without spaces between them (`炮二平五马８进７`): four characters each.
fn split_joined(pos: &Position, text: &str) -> Option<Vec<(crate::Move, Notation, String)>> {
    let chars: Vec<char> = text.chars().collect();
    if text.is_ascii() || chars.len() < 8 || chars.len() % 4 != 0 {
        return None;
    }
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for part in chars.chunks(4) {
        let t: String = part.iter().collect();
        let (m, n) = pos.read_move(&t).ok()?;
        pos.make_move(m);
        out.push((m, n, t));
    }
    Some(out)
}

/// The Seven Tag Roster of PGN, in its order: written first, before the other tags.
pub const STANDARD_TAGS: [&str; 7] = ["Event", "Site", "Date", "Round", "Red", "Black", "Result"];

/// Writes games as PGN in `notation` (one line per move number, comments in braces, variations in parentheses).
///
/// The tags of the Seven Tag Roster ([`STANDARD_TAGS`]) that the game has come first, in the roster's order, then
/// the others in the order read; `FEN` is set when the game does not start from the start position, and a `Format`
/// tag, when present, is set to the notation's name. The result is the record's own: the movetext's, or the
/// `Result` tag's when the movetext has none or `*`, and the `Result` tag says the same. A game from the start
/// position whose opening is named ([`super::openings`]) gets an `Opening` tag (`中文 (English)`) and, where the
/// table gives one, an `ECCO` tag, unless it has them already (a tag written empty counts as absent). The text is UTF-8; [`super::encode`] makes GBK bytes.
pub fn write_pgn(games: &[GameRecord], notation: Notation) -> String {
    let mut out = String::new();
    for (k, game) in games.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        let mut tags = game.tags.clone();
        let set = |tags: &mut Vec<(String, String)>, name: &str, value: String| match tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(t) => t.1 = value,
            None => tags.push((name.to_string(), value)),
        };
        let has = |tags: &[(String, String)], name: &str| tags.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
        // A FEN tag that describes the start already is kept as written (`r` for Red, a move number 0...).
        let fen_tag = tags.iter().find(|(n, _)| n.eq_ignore_ascii_case("FEN"));
        let same = fen_tag.and_then(|(_, f)| Position::from_fen_with(f, Validation::Lenient).ok());
        if same.as_ref() != Some(&game.start) && (fen_tag.is_some() || game.start != Position::startpos()) {
            set(&mut tags, "FEN", game.start.fen());
        }
        if has(&tags, "Format") {
            set(&mut tags, "Format", notation.name().to_string());
        }
        // The record's result: a decided one wins over `*`, wherever it was written.
        let tag_result = game.tag("Result").map(|r| result_token(Some(r)));
        let result = match (result_token(game.result.as_deref()), tag_result) {
            ("*", Some(t)) => t,
            (r, _) => r,
        };
        if has(&tags, "Result") || result != "*" {
            set(&mut tags, "Result", result.to_string());
        }
        // A tag written empty (as some programs write every tag) counts as absent.
        let filled = |tags: &[(String, String)], name: &str| {
            tags.iter().any(|(n, v)| n.eq_ignore_ascii_case(name) && !v.trim().is_empty())
        };
        if game.start == Position::startpos() && !filled(&tags, "Opening") {
            if let Some(named) = super::openings::opening_of(&game.start, &game.main_line()) {
                set(&mut tags, "Opening", named.opening.label());
                if let (Some(code), false) = (named.opening.ecco, filled(&tags, "ECCO")) {
                    set(&mut tags, "ECCO", code.to_string());
                }
            }
        }
        // The Seven Tag Roster first, in its order; the rest as they were.
        let rank = |name: &str| STANDARD_TAGS.iter().position(|t| t.eq_ignore_ascii_case(name)).unwrap_or(7);
        tags.sort_by_key(|(n, _)| rank(n));
        for (name, value) in &tags {
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            out.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        if !tags.is_empty() {
            out.push('\n');
        }
        for c in &game.intro {
            out.push_str(&format!("{{{}}}\n", comment_text(c)));
        }
        let mut body = String::new();
        write_line(&mut body, &game.start, &game.moves, notation, true);
        out.push_str(&body);
        if !body.is_empty() {
            out.push(' ');
        }
        out.push_str(result);
        out.push('\n');
    }
    out
}

/// The result as PGN's termination marker: `1-0`, `0-1`, `1/2-1/2` or `*` (Chinese words such as 红胜 mapped).
fn result_token(result: Option<&str>) -> &'static str {
    match result.map(str::trim) {
        Some("1-0" | "红胜" | "紅勝" | "红方胜") => "1-0",
        Some("0-1" | "黑胜" | "黑勝" | "黑方胜") => "0-1",
        Some("1/2-1/2" | "½-½" | "和" | "和棋" | "和局") => "1/2-1/2",
        _ => "*",
    }
}

fn comment_text(c: &str) -> String {
    c.replace('}', ")")
}

/// Writes a line of moves from `pos`; the main line starts each move number on a new line.
fn write_line(out: &mut String, start: &Position, moves: &[RecordMove], notation: Notation, main: bool) {
    let mut pos = start.clone();
    let mut number = start.fullmoves();
    let mut need_number = true;
    for rm in moves {
        let red = pos.turn() == Color::Red;
        if red {
            if !out.is_empty() {
                out.push(if main { '\n' } else { ' ' });
            }
            out.push_str(&format!("{number}. "));
        } else if need_number {
            if !out.is_empty() {
                out.push(if main { '\n' } else { ' ' });
            }
            out.push_str(&format!("{number}... "));
        } else {
            out.push(' ');
        }
        out.push_str(&pos.move_text(rm.mv, notation));
        need_number = false;
        if let Some(mark) = &rm.mark {
            if mark.starts_with('$') {
                out.push(' ');
            }
            out.push_str(mark);
        }
        for c in &rm.comments {
            out.push_str(&format!(" {{{}}}", comment_text(c)));
            need_number = true;
        }
        for v in &rm.variations {
            let mut text = String::new();
            write_line(&mut text, &pos, v, notation, false);
            out.push_str(&format!(" ({text})"));
            need_number = true;
        }
        pos.make_move(rm.mv);
        if !red {
            number += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> PgnFile {
        read_pgn(text.as_bytes(), &ReadOptions::default())
    }

    #[test]
    fn several_games_tags_comments_variations_results() {
        let text = "[Event \"one\"]\n[Result \"1-0\"]\n\n1. h2e2 {a} h9g7 ; b\n2. h0g2 (2. b0c2 i9h9) i9h9 1-0\n\n\
                    [Event \"two\"]\n[FEN \"3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1\"]\n\n1. R9+7 * \n";
        let file = read(text);
        assert_eq!(file.games.len(), 2);
        let one = file.games[0].as_ref().unwrap();
        assert_eq!(one.tag("event"), Some("one"));
        assert_eq!(one.moves.len(), 4);
        assert_eq!(one.moves[0].comments, ["a"]);
        assert_eq!(one.moves[1].comments, ["b"]);
        assert_eq!(one.moves[2].variations.len(), 1);
        assert_eq!(one.moves[2].variations[0].len(), 2);
        assert_eq!(one.result.as_deref(), Some("1-0"));
        assert_eq!(one.notation, Some(Notation::Uci));
        let two = file.games[1].as_ref().unwrap();
        assert_eq!(two.main_line(), vec!["a1a8".parse().unwrap()]);
        assert_eq!(two.notation, Some(Notation::Wxf));
        assert_eq!(two.result.as_deref(), Some("*"));
        // One game in UCI, one in WXF: a tie goes to the earlier of `Notation::ALL`; a third game in UCI decides.
        assert_eq!(file.notation(), Some(Notation::Wxf));
        let more = format!("{text}\n[Event \"three\"]\n1. h2e2 *\n");
        assert_eq!(read(&more).notation(), Some(Notation::Uci));
        // Variations skipped on request.
        let skipped = read_pgn(text.as_bytes(), &ReadOptions { keep_variations: false });
        assert!(skipped.games[0].as_ref().unwrap().moves[2].variations.is_empty());
    }

    #[test]
    fn a_bad_game_names_its_number_line_and_move_and_the_others_are_read() {
        let text =
            "[Event \"a\"]\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n1. h2e2\nh9g7 2. h2h9 *\n\n[Event \"c\"]\n1. 炮二平五 *\n";
        let file = read(text);
        assert_eq!(file.games.len(), 3);
        assert!(file.games[0].is_ok());
        let e = file.games[1].as_ref().unwrap_err();
        assert_eq!((e.game, e.line, e.text.as_str()), (2, 6, "h2h9"));
        assert!(e.to_string().starts_with("game 2, line 6, at \"h2h9\": "), "{e}");
        assert_eq!(file.games[2].as_ref().unwrap().moves.len(), 1);
    }

    #[test]
    fn joined_chinese_moves_and_numbers() {
        let file = read("1.炮二平五马８进７ 2．马二进三 *");
        let g = file.games[0].as_ref().unwrap();
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.moves[1].text, "马８进７");
    }

    #[test]
    fn writes_numbers_after_comments_and_black_first() {
        let file = read("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\"]\n1... h9g7 {x} 2. h0g2 i9h9 *");
        let g = file.games[0].as_ref().unwrap();
        let text = write_pgn(std::slice::from_ref(g), Notation::Chinese);
        assert!(text.contains("1... 马８进７ {x}\n2. 马二进三 车９平８ *"), "{text}");
        let again = read(&text);
        assert_eq!(again.games[0].as_ref().unwrap().main_line(), g.main_line());
    }
}

#[cfg(test)]
mod writer_tests {
    use super::*;

    fn read_one(text: &str) -> GameRecord {
        read_pgn(text.as_bytes(), &ReadOptions::default()).games.remove(0).unwrap()
    }

    #[test]
    fn the_seven_tags_come_first_in_their_order() {
        let text = "[White \"x\"]\n[Result \"0-1\"]\n[Black \"B\"]\n[Opening \"mine\"]\n[Date \"2024.01.02\"]\n\
                    [Red \"R\"]\n[Round \"3\"]\n[Site \"S\"]\n[Event \"E\"]\n\n1. h2e2 h9g7 0-1\n";
        let out = write_pgn(&[read_one(text)], Notation::Uci);
        let names: Vec<&str> =
            out.lines().filter_map(|l| l.strip_prefix('[')).map(|l| l.split(' ').next().unwrap()).collect();
        assert_eq!(names, ["Event", "Site", "Date", "Round", "Red", "Black", "Result", "White", "Opening"]);
        // A name the record gives is kept.
        assert!(out.contains("[Opening \"mine\"]"), "{out}");
    }

    #[test]
    fn the_records_result_is_kept() {
        // The movetext's result fills a `*` tag; a tag's result fills a `*` movetext; neither is overwritten.
        for (text, want) in [
            ("[Event \"e\"]\n[Result \"*\"]\n\n1. h2e2 h9g7 1-0\n", "1-0"),
            ("[Event \"e\"]\n[Result \"0-1\"]\n\n1. h2e2 h9g7 *\n", "0-1"),
            ("[Event \"e\"]\n[Result \"1/2-1/2\"]\n\n1. h2e2 h9g7\n", "1/2-1/2"),
            ("[Event \"e\"]\n\n1. h2e2 h9g7 0-1\n", "0-1"),
            ("[Event \"e\"]\n[Result \"*\"]\n\n1. h2e2 *\n", "*"),
        ] {
            let out = write_pgn(&[read_one(text)], Notation::Uci);
            assert!(out.contains(&format!("[Result \"{want}\"]")), "{text} -> {out}");
            assert!(out.trim_end().ends_with(want), "{text} -> {out}");
        }
        // A game without tags gets none but its result.
        let bare = write_pgn(&[read_one("1. h2e2 h9g7 *\n")], Notation::Uci);
        assert!(!bare.contains("[Result"), "{bare}");
    }

    #[test]
    fn the_opening_is_named_and_survives_a_round_trip() {
        let text = "[Event \"e\"]\n\n1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 兵三进一 *\n";
        let out = write_pgn(&[read_one(text)], Notation::Chinese);
        let tag = "[Opening \"中炮对屏风马 先出车 (Central Cannon vs Screen Horses, Chariot First)\"]";
        assert!(out.contains(tag), "{out}");
        let again = read_one(&out);
        assert_eq!(again.tag("Opening"), Some("中炮对屏风马 先出车 (Central Cannon vs Screen Horses, Chariot First)"));
        assert_eq!(write_pgn(&[again], Notation::Chinese), out);
        // A game from a setup is not named.
        let setup = "[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n\n*\n";
        assert!(!write_pgn(&[read_one(setup)], Notation::Uci).contains("Opening"));
    }
}
