//! A validator for what the engine prints, line by line and block by block: `id`, `option`, `uciok`, `ucciok`,
//! `readyok`, `bye`, `info string error: ...`, the `info` lines of a search in UCI and UCCI form, `bestmove`
//! (a legal move, a legal ponder move) or `nobestmove`, `pophash`, the rows of `go perft`, and the boards of `d`
//! and the tables of `eval`, each checked against the position it shows.

#![allow(dead_code)]

use xiangqi_core::{Color, Move, Position, Setup};
use xiangqi_eval::{Evaluate, Handcrafted, Term};

/// The longest error line accepted: an error names what is wrong, it does not echo a 100 KB line back.
pub const MAX_ERROR_LINE: usize = 600;

/// A line the engine printed, understood.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// `id name ...`.
    IdName,
    /// `id author ...`.
    IdAuthor,
    /// `option name ... type ...` (UCI).
    OptionUci,
    /// `option <name> type ...` (UCCI).
    OptionUcci,
    /// `uciok`.
    UciOk,
    /// `ucciok`.
    UcciOk,
    /// `readyok`.
    ReadyOk,
    /// `bye`.
    Bye,
    /// `nobestmove`.
    NoBestMove,
    /// `info string error: <message>`.
    Error(String),
    /// A search's `info depth ...` line (UCI or UCCI form) with its principal variation.
    Info(Vec<Move>),
    /// UCCI's `info time <t> nodes <n>`.
    InfoTime,
    /// `bestmove <move> [ponder <move>] [draw]`; `None` for UCI's `(none)`.
    BestMove(Option<Move>, Option<Move>),
    /// `pophash ...`.
    PopHash,
    /// `<move>: <count>`, a row of `go perft`.
    PerftRow(Move, u64),
    /// `Nodes searched: <n>`.
    NodesSearched(u64),
    /// An empty line (in `go perft` and `eval`).
    Empty,
    /// A rank of `d`'s board: the rank and its nine points.
    BoardRank(u8, String),
    /// The river under rank 5 in `d`.
    River,
    /// The file letters under `d`'s board.
    Files,
    /// `red to move` or `black to move`.
    ToMove(Color),
    /// `Fen: <fen>`.
    Fen(String),
    /// `Key: <hex>`.
    Key(u64),
    /// `Position: <fen>` at the top of `eval`.
    EvalPosition(String),
    /// `Phase: ...`.
    EvalPhase,
    /// One of the fixed lines of `eval`'s table: headers, rules, the note under it.
    EvalFixed,
    /// A row of `eval`'s table: the term's name and the tapered value.
    EvalRow(String, i32),
    /// `Evaluation: <total> for <side> (side to move), <red view> from Red's view`.
    Evaluation(i32, Color, i32),
    /// `NNUE evaluation: <total> for <side> (side to move), searches use it`: the network's line after the table.
    NnueEvaluation(i32, Color),
}

impl Line {
    /// The kind of line, for the fuzzer's tally.
    pub fn kind(&self) -> &'static str {
        match self {
            Line::IdName | Line::IdAuthor | Line::OptionUci | Line::OptionUcci | Line::UciOk | Line::UcciOk => {
                "handshake"
            }
            Line::ReadyOk => "readyok",
            Line::Bye => "bye",
            Line::NoBestMove => "nobestmove",
            Line::Error(_) => "error",
            Line::Info(_) | Line::InfoTime => "info",
            Line::BestMove(..) => "bestmove",
            Line::PopHash => "pophash",
            Line::PerftRow(..) | Line::NodesSearched(_) => "perft",
            Line::BoardRank(..) | Line::River | Line::Files | Line::ToMove(_) | Line::Fen(_) | Line::Key(_) => "d",
            Line::Empty => "empty",
            Line::EvalPosition(_)
            | Line::EvalPhase
            | Line::EvalFixed
            | Line::EvalRow(..)
            | Line::Evaluation(..)
            | Line::NnueEvaluation(..) => "eval",
        }
    }

    /// Printed by the search thread, whenever it likes: not part of a command's answer.
    pub fn is_async(&self) -> bool {
        matches!(self, Line::Info(_) | Line::InfoTime | Line::BestMove(..) | Line::NoBestMove)
    }
}

const EVAL_FIXED: [&str; 4] = [
    "        Term |       Red       |      Black      |    Red - Black  | Value",
    "             |    MG      EG   |    MG      EG   |    MG      EG   |",
    "-------------+-----------------+-----------------+-----------------+-------",
    "Value: the term tapered by the phase, from Red's view; the total tapers the sum once.",
];

fn num<T: std::str::FromStr>(w: Option<&&str>, what: &str) -> Result<T, String> {
    let w = w.ok_or_else(|| format!("{what} missing"))?;
    w.parse().map_err(|_| format!("{what}: {w:?} is not a number"))
}

/// A move as the engine writes it: UCI coordinates, canonical.
fn mv(w: Option<&&str>) -> Result<Move, String> {
    let w = w.ok_or("a move is missing")?;
    let m = Move::parse(w).map_err(|e| e.to_string())?;
    if m.to_string() != *w {
        return Err(format!("{w:?} is not written as the engine writes moves"));
    }
    Ok(m)
}

fn moves(ws: &[&str]) -> Result<Vec<Move>, String> {
    ws.iter().map(|w| mv(Some(w))).collect()
}

/// Checks the words after `at` are exactly `expected` (names) with numbers in between: `name <n> name <n> ...`.
fn pairs(words: &[&str], names: &[&str]) -> Result<(), String> {
    if words.len() != names.len() * 2 {
        return Err(format!("expected {names:?} with values"));
    }
    for (k, name) in names.iter().enumerate() {
        if words[2 * k] != *name {
            return Err(format!("expected {name}, found {:?}", words[2 * k]));
        }
        num::<i64>(words.get(2 * k + 1), name)?;
    }
    Ok(())
}

/// Understands one line, or says what is wrong with it.
pub fn parse(line: &str) -> Result<Line, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    // Protocol lines are single-spaced words; the board and the tables of `d` and `eval` are laid out for the eye.
    let tidy = line == words.join(" ");
    let protocol = |l: Line| if tidy { Ok(l) } else { Err("not single-spaced words".to_owned()) };
    match words.as_slice() {
        [] if line.is_empty() => Ok(Line::Empty),
        ["uciok"] => Ok(Line::UciOk),
        ["ucciok"] => Ok(Line::UcciOk),
        ["readyok"] => Ok(Line::ReadyOk),
        ["bye"] => Ok(Line::Bye),
        ["nobestmove"] => Ok(Line::NoBestMove),
        ["id", "name", _, ..] => protocol(Line::IdName),
        ["id", "author", _, ..] => protocol(Line::IdAuthor),
        ["option", "name", rest @ ..] => {
            let t = rest.iter().position(|&w| w == "type").ok_or("option without type")?;
            if t == 0 {
                return Err("option without a name".to_owned());
            }
            option_kind(&rest[t + 1..], false)?;
            protocol(Line::OptionUci)
        }
        ["option", _, "type", rest @ ..] => {
            option_kind(rest, true)?;
            protocol(Line::OptionUcci)
        }
        ["info", "string", ..] => {
            let msg = line.strip_prefix("info string error: ").ok_or("info string that is not an error")?;
            if msg.trim().is_empty() {
                return Err("an empty error".to_owned());
            }
            if line.len() > MAX_ERROR_LINE {
                return Err(format!("an error line of {} bytes", line.len()));
            }
            Ok(Line::Error(msg.to_owned()))
        }
        ["info", "depth", d, "seldepth", ..] => {
            num::<u32>(Some(d), "depth")?;
            let pv_at = words.iter().position(|&w| w == "pv").ok_or("info without pv")?;
            // seldepth <n> multipv <n> score cp|mate <n> nodes <n> nps <n> hashfull <n> time <n>
            let fields = &words[3..pv_at];
            if fields.len() != 15 || fields[4] != "score" || !matches!(fields[5], "cp" | "mate") {
                return Err("expected seldepth, multipv, score cp|mate, nodes, nps, hashfull, time".to_owned());
            }
            pairs(&fields[..4], &["seldepth", "multipv"])?;
            num::<i32>(fields.get(6), "score")?;
            pairs(&fields[7..], &["nodes", "nps", "hashfull", "time"])?;
            let hashfull: u32 = num(fields.get(12), "hashfull")?;
            let multipv: u32 = num(fields.get(3), "multipv")?;
            if hashfull > 1000 || multipv == 0 {
                return Err("hashfull above 1000 or multipv 0".to_owned());
            }
            let pv = moves(&words[pv_at + 1..])?;
            if pv.is_empty() {
                return Err("an empty pv".to_owned());
            }
            protocol(Line::Info(pv))
        }
        ["info", "depth", d, "score", s, "pv", pv @ ..] => {
            num::<u32>(Some(d), "depth")?;
            num::<i32>(Some(s), "score")?;
            let pv = moves(pv)?;
            if pv.is_empty() {
                return Err("an empty pv".to_owned());
            }
            protocol(Line::Info(pv))
        }
        ["info", "time", t, "nodes", n] => {
            num::<u64>(Some(t), "time")?;
            num::<u64>(Some(n), "nodes")?;
            protocol(Line::InfoTime)
        }
        ["bestmove", rest @ ..] => {
            let (best, rest) = match rest {
                ["(none)", rest @ ..] => (None, rest),
                [m, rest @ ..] => (Some(mv(Some(m))?), rest),
                [] => return Err("bestmove without a move".to_owned()),
            };
            let (ponder, rest) = match rest {
                ["ponder", m, rest @ ..] if best.is_some() => (Some(mv(Some(m))?), rest),
                _ => (None, rest),
            };
            match rest {
                [] => {}
                ["draw"] if best.is_some() => {}
                _ => return Err("unexpected words after bestmove".to_owned()),
            }
            protocol(Line::BestMove(best, ponder))
        }
        ["pophash", rest @ ..] => {
            let mut rest = rest;
            if let ["bestmove", m, more @ ..] = rest {
                mv(Some(m))?;
                rest = more;
            }
            for bound in ["lowerbound", "upperbound"] {
                if let [b, v, "depth", d, more @ ..] = rest {
                    if *b == bound {
                        num::<i32>(Some(v), bound)?;
                        num::<i32>(Some(d), "depth")?;
                        rest = more;
                    }
                }
            }
            if !rest.is_empty() {
                return Err("unexpected words in pophash".to_owned());
            }
            protocol(Line::PopHash)
        }
        ["Nodes", "searched:", n] => protocol(Line::NodesSearched(num(Some(n), "nodes")?)),
        [m, n] if m.ends_with(':') && m.len() == 5 => {
            protocol(Line::PerftRow(mv(Some(&&m[..4]))?, num(Some(n), "count")?))
        }
        ["Fen:", ..] => {
            let fen = line.strip_prefix("Fen: ").ok_or("Fen line")?;
            Setup::from_fen(fen).map_err(|e| format!("the FEN of d does not read back: {e}"))?;
            protocol(Line::Fen(fen.to_owned()))
        }
        ["Key:", k] if k.len() == 16 && k.bytes().all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b)) => {
            protocol(Line::Key(u64::from_str_radix(k, 16).map_err(|e| e.to_string())?))
        }
        [side, "to", "move"] if tidy => match *side {
            "red" => Ok(Line::ToMove(Color::Red)),
            "black" => Ok(Line::ToMove(Color::Black)),
            _ => Err("an unknown side".to_owned()),
        },
        ["Position:", ..] => {
            let fen = line.strip_prefix("Position: ").ok_or("Position line")?;
            protocol(Line::EvalPosition(fen.to_owned()))
        }
        ["Phase:", ..] => {
            let rest = line.strip_prefix("Phase: ").ok_or("Phase line")?;
            let (frac, pct) = rest.split_once(" (").ok_or("Phase line")?;
            let (a, b) = frac.split_once('/').ok_or("Phase line")?;
            let (a, b): (u32, u32) = (a.parse().map_err(|_| "phase")?, b.parse().map_err(|_| "phase")?);
            let pct: u32 = pct.strip_suffix("% middlegame)").ok_or("Phase line")?.parse().map_err(|_| "pct")?;
            if b == 0 || a > b || pct != 100 * a / b {
                return Err("an inconsistent phase".to_owned());
            }
            Ok(Line::EvalPhase)
        }
        ["Evaluation:", total, "for", side, "(side", "to", "move),", red, "from", "Red's", "view"] if tidy => {
            let color = match *side {
                "red" => Color::Red,
                "black" => Color::Black,
                _ => return Err("an unknown side".to_owned()),
            };
            let sign = |w: &str| -> Result<i32, String> {
                if !w.starts_with(['+', '-']) {
                    return Err(format!("{w} has no sign"));
                }
                w.parse().map_err(|_| format!("{w} is not a number"))
            };
            Ok(Line::Evaluation(sign(total)?, color, sign(red)?))
        }
        ["NNUE", "evaluation:", total, "for", side, "(side", "to", "move),", "searches", "use", "it"] if tidy => {
            let color = match *side {
                "red" => Color::Red,
                "black" => Color::Black,
                _ => return Err("an unknown side".to_owned()),
            };
            if !total.starts_with(['+', '-']) {
                return Err(format!("{total} has no sign"));
            }
            Ok(Line::NnueEvaluation(total.parse().map_err(|_| format!("{total} is not a number"))?, color))
        }
        _ if EVAL_FIXED.contains(&line) => Ok(Line::EvalFixed),
        _ if line == "   ~~~~~~~~~~~~~~~~~" => Ok(Line::River),
        _ if line == "   a b c d e f g h i" => Ok(Line::Files),
        _ => board_rank(line).or_else(|| eval_row(line)).ok_or_else(|| "not a line the engine prints".to_owned()),
    }
}

/// The type part of an option line: `spin` with its bounds (`default min max` in UCI, `min max default` in UCCI),
/// `check` with `true` or `false`, `button`, `string` with a default.
fn option_kind(words: &[&str], ucci: bool) -> Result<(), String> {
    match words {
        ["spin", rest @ ..] => {
            let names: &[&str] = if ucci { &["min", "max", "default"] } else { &["default", "min", "max"] };
            pairs(rest, names)?;
            let value = |name: &str| -> i64 {
                let i = rest.iter().position(|w| w == &name).unwrap_or(0);
                rest[i + 1].parse().unwrap_or(0)
            };
            if !(value("min") <= value("default") && value("default") <= value("max")) {
                return Err("a spin default outside its bounds".to_owned());
            }
            Ok(())
        }
        ["check", "default", "true" | "false"] | ["button"] | ["string", "default", _] => Ok(()),
        _ => Err(format!("an unknown option type {words:?}")),
    }
}

/// `9  r n b a k a b n r`: a rank of `d`'s board.
fn board_rank(line: &str) -> Option<Line> {
    let b = line.as_bytes();
    if b.len() != 20 || !b[0].is_ascii_digit() || b[1] != b' ' {
        return None;
    }
    let mut points = String::new();
    for k in 0..9 {
        let (sp, c) = (b[2 + 2 * k], b[3 + 2 * k] as char);
        if sp != b' ' || !(c == '.' || "KABNRCPkabnrcp".contains(c)) {
            return None;
        }
        points.push(c);
    }
    Some(Line::BoardRank(b[0] - b'0', points))
}

/// `    material |   1234    1234  |   1234    1234  |      0       0  |      0`: a row of `eval`'s table, its
/// net columns the difference of the sides'.
fn eval_row(line: &str) -> Option<Line> {
    let parts: Vec<&str> = line.split('|').collect();
    if parts.len() != 5 || parts[0].len() != 13 {
        return None;
    }
    let name = parts[0].trim();
    let nums = |s: &str| -> Option<Vec<i32>> { s.split_whitespace().map(|w| w.parse().ok()).collect() };
    let (red, black, net, value) = (nums(parts[1])?, nums(parts[2])?, nums(parts[3])?, nums(parts[4])?);
    if red.len() != 2 || black.len() != 2 || net.len() != 2 || value.len() != 1 {
        return None;
    }
    if net[0] != red[0] - black[0] || net[1] != red[1] - black[1] {
        return None;
    }
    Some(Line::EvalRow(name.to_owned(), value[0]))
}

/// Checks a search line against the position searched: the principal variation is a legal line, the best move
/// is legal (or `(none)` when there is none), the ponder move is legal after it.
pub fn check_search_line(l: &Line, pos: &Position) -> Result<(), String> {
    match l {
        Line::Info(pv) => {
            let mut p = pos.clone();
            for (i, &m) in pv.iter().enumerate() {
                if !p.is_legal(m) {
                    return Err(format!("pv move {} ({m}) is not legal in {}", i + 1, p.fen()));
                }
                p.make_move(m);
            }
            Ok(())
        }
        Line::BestMove(None, _) if pos.has_legal_move() => Err(format!("bestmove (none) with moves in {}", pos.fen())),
        Line::BestMove(Some(m), ponder) => {
            pos.check_move(*m).map_err(|e| format!("bestmove: {e} in {}", pos.fen()))?;
            if let Some(p) = ponder {
                let mut after = pos.clone();
                after.make_move(*m);
                after.check_move(*p).map_err(|e| format!("ponder: {e} in {}", after.fen()))?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Checks `d`'s block (the command's answer, search lines and errors left out) against `pos`.
pub fn check_board(block: &[Line], pos: &Position) -> Result<(), String> {
    let shape = "d: 10 ranks with the river, the files, the side, Fen, Key";
    if block.len() != 15 {
        return Err(format!("{shape}; got {} lines", block.len()));
    }
    let Line::Fen(fen) = &block[13] else { return Err(shape.to_owned()) };
    if *fen != pos.fen() {
        return Err(format!("d shows {fen}, the position is {}", pos.fen()));
    }
    let read = Position::from_fen(fen).map_err(|e| format!("d's FEN {fen} does not read back: {e}"))?;
    if read.fen() != *fen || read.key() != pos.key() {
        return Err(format!("d's FEN {fen} reads back as another position"));
    }
    if block[14] != Line::Key(pos.key()) {
        return Err(format!("d's key is not {:016X}", pos.key()));
    }
    let setup = pos.setup();
    let mut i = 0;
    for rank in (0..10u8).rev() {
        let expected: String = (0..9).map(|f| setup.board[rank as usize * 9 + f].map_or('.', |p| p.char())).collect();
        if block[i] != Line::BoardRank(rank, expected) {
            return Err(format!("d's rank {rank} is {:?}", block[i]));
        }
        i += 1;
        if rank == 5 {
            if block[i] != Line::River {
                return Err("d has no river".to_owned());
            }
            i += 1;
        }
    }
    if block[11] != Line::Files || block[12] != Line::ToMove(pos.turn()) {
        return Err(format!("d's last lines: {:?} {:?}", block[11], block[12]));
    }
    Ok(())
}

/// Checks `eval`'s block against `pos`: its FEN, every term once, the total equal to the evaluator's.
pub fn check_eval(block: &[Line], pos: &Position) -> Result<(), String> {
    let n = Term::NUM;
    // With `Use NNUE` on (the default) the network's line follows the table. The sessions never load another
    // network (their EvalFile values name no file), so it is the built-in one's.
    let block = match block.len() {
        len if len == n + 11 => block,
        len if len == n + 12 => {
            let v = xiangqi_eval::embedded_network().evaluate(pos);
            if block[n + 11] != Line::NnueEvaluation(v, pos.turn()) {
                return Err(format!("eval's network line {:?}, the built-in network says {v}", block[n + 11]));
            }
            &block[..n + 11]
        }
        len => return Err(format!("eval: {len} lines")),
    };
    if block[0] != Line::EvalPosition(pos.fen()) || block[1] != Line::EvalPhase || block[2] != Line::Empty {
        return Err(format!("eval's head: {:?}", &block[..3]));
    }
    for i in [3, 4, 5, 6 + n, n + 9] {
        if block[i] != Line::EvalFixed {
            return Err(format!("eval's line {i}: {:?}", block[i]));
        }
    }
    for (k, term) in Term::ALL.iter().enumerate() {
        if !matches!(&block[6 + k], Line::EvalRow(name, _) if name == term.name()) {
            return Err(format!("eval's row for {}: {:?}", term.name(), block[6 + k]));
        }
    }
    if !matches!(&block[6 + n + 1], Line::EvalRow(name, _) if name == "total") {
        return Err("eval has no total".to_owned());
    }
    let total = Handcrafted::default().evaluate(pos);
    let red = if pos.turn() == Color::Red { total } else { -total };
    if block[n + 10] != Line::Evaluation(total, pos.turn(), red) {
        return Err(format!("eval's total {:?}, the evaluator says {total}", block[n + 10]));
    }
    Ok(())
}

/// Checks `go perft`'s block against `pos`: one row per legal move, each legal, and the total their sum.
pub fn check_perft(block: &[Line], pos: &Position) -> Result<(), String> {
    let k = block.len().saturating_sub(3);
    let (rows, tail) = block.split_at(k);
    let [Line::Empty, Line::NodesSearched(total), Line::Empty] = tail else {
        return Err("perft: rows, an empty line, Nodes searched, an empty line".to_owned());
    };
    let legal = pos.legal_moves();
    let mut seen = Vec::new();
    let mut sum = 0;
    for row in rows {
        let Line::PerftRow(m, n) = row else { return Err(format!("perft row {row:?}")) };
        if !legal.contains(m) || seen.contains(m) {
            return Err(format!("perft row {m}: not legal, or twice"));
        }
        seen.push(*m);
        sum += n;
    }
    if seen.len() != legal.len() || sum != *total {
        return Err(format!("perft: {} rows for {} moves, total {total} for a sum of {sum}", seen.len(), legal.len()));
    }
    Ok(())
}

/// Checks the answer of a command (its lines other than search lines and errors) by the command's first word
/// and the mode it was given in: `isready` gets `readyok`, `uci` and `ucci` the handshake, `d` the board, `eval`
/// the table, `go perft` its rows, UCCI's `quit` and `bye` get `bye` and `probe` gets `pophash` (or an error);
/// everything else answers nothing. Only `quit` (and UCCI's `bye`) ends the loop.
pub fn check_answer(word: &str, ucci: bool, answer: &[Line], pos: &Position, going: bool) -> Result<(), String> {
    let quits = word == "quit" || (ucci && word == "bye");
    if going == quits {
        return Err(format!("{word}: the loop {}", if going { "goes on" } else { "ended" }));
    }
    let hello = |ok: Line, option: Line| -> Result<(), String> {
        let n = answer.len();
        let fine = n >= 3
            && answer[0] == Line::IdName
            && answer[1] == Line::IdAuthor
            && answer[2..n - 1].iter().all(|l| *l == option)
            && answer[n - 1] == ok;
        if fine {
            Ok(())
        } else {
            Err(format!("handshake {answer:?}"))
        }
    };
    match word {
        "isready" if answer == [Line::ReadyOk] => Ok(()),
        "isready" => Err(format!("isready answered {answer:?}")),
        "d" => check_board(answer, pos),
        "eval" => check_eval(answer, pos),
        "uci" if !ucci => hello(Line::UciOk, Line::OptionUci),
        "ucci" => hello(Line::UcciOk, Line::OptionUcci),
        "quit" | "bye" if ucci && answer == [Line::Bye] => Ok(()),
        "quit" | "bye" if ucci => Err(format!("{word} answered {answer:?}")),
        "probe" if ucci && (answer.is_empty() || answer == [Line::PopHash]) => Ok(()),
        "go" if !ucci && !answer.is_empty() => check_perft(answer, pos),
        _ if answer.is_empty() => Ok(()),
        _ => Err(format!("{word:?} answered {answer:?}")),
    }
}
