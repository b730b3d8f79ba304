//! Fuzzing of everything a user can feed the engine: UCI and UCCI command streams, FENs and moves.
//!
//! - **Command streams** (`command_streams_never_break_the_engine`): sessions of up to 24 lines, each a command
//!   from a grammar of every command the engine knows (UCI and UCCI), a mutated command (bit flips, byte changes,
//!   insertions, deletions, truncation, word swaps and replacements), random bytes, known words in a random order,
//!   GBK text, a line of 100 KB or more, or a burst of `position`/`go`/`stop`/`ponderhit`. They are fed to the engine
//!   in-process through `Uci::feed`. Nothing may panic (the input loop nor the search threads); every line printed
//!   must be one the engine prints, well formed (`fuzz_validate.rs`): a `bestmove` legal with a legal ponder move,
//!   a principal variation legal, `d`'s board its FEN, `eval`'s total the evaluator's, `go perft`'s rows the legal
//!   moves; every command gets its answer (`isready` gets `readyok`...). After each command that gave
//!   `info string error`, the engine must still answer `isready`, show its position with `d` in a FEN that reads
//!   back, and play a legal move there with `go depth 1`.
//! - **FENs** (`fens_read_or_fail_cleanly`): valid, impossible, mutated, odd-field, random and 100 KB FENs through
//!   `Position::from_fen`, `Setup::from_fen` and the lenient `Position::from_setup`. An error is a short one-line
//!   message; a position read writes a FEN that reads back as the same position, and its moves (from both
//!   generators, the same set) play and take back cleanly, each leaving a position whose FEN reads back.
//! - **Moves** (`move_texts_and_lists_read_or_fail_cleanly`): legal moves in UCI and ICCS, any two points,
//!   mutated, random and wide-character texts through `Position::parse_move` and `Position::play` on random
//!   positions, and move lists through `position ... moves`: a move is read exactly when it is legal, and a bad
//!   list names its first bad move and changes nothing.
//!
//! Each target draws `XIANGQI_FUZZ_INPUTS` inputs (default 10 000, the short run that is part of `cargo test`)
//! from the seed `XIANGQI_FUZZ_SEED` (default fixed, so runs repeat). A failure prints the seed and the case;
//! `XIANGQI_FUZZ_CASE=<n>` replays that case alone. The long run, a million inputs per target, is:
//!
//! ```text
//! XIANGQI_FUZZ_INPUTS=1000000 cargo test -p xiangqi-cli --test fuzz_input -- --nocapture
//! ```
//!
//! (in the test profile: optimized, with overflow checks and debug assertions on, which a fuzzer wants). The
//! figures (inputs, time, input lines per second, lines printed, recovery checks) are printed at the end, and
//! every 100 000 inputs along the way.
//!
//! The generator keeps the machine whole: a `setoption` value from 129 to 32768 (a `Hash` of gigabytes, a hundred
//! threads and more) is brought down to 17..=32 before it is fed (larger values, which the engine refuses, are fed
//! as they are), `go perft 5` is rare, and every session ends with `stop`.

#[path = "support/fuzz_driver.rs"]
mod fuzz_driver;
#[path = "support/fuzz_grammar.rs"]
mod fuzz_grammar;
#[path = "support/fuzz_validate.rs"]
mod fuzz_validate;

use fuzz_driver::{show_bytes, Driver};
use fuzz_grammar::{case_rng, chance, fen_text, move_text_input, random_game, random_position, session, Rng};
use proptest::prelude::RngExt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiangqi_core::{Move, Position, Setup, Validation};
use xiangqi_uci::parse_position;

/// The run's settings, from the environment.
struct Settings {
    inputs: u64,
    seed: u64,
    case: Option<u64>,
}

fn settings() -> Settings {
    let var = |name: &str| std::env::var(name).ok().map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let number =
        |name: &str| var(name).map(|v| v.parse::<u64>().unwrap_or_else(|_| panic!("{name}={v:?} is not a number")));
    Settings {
        inputs: number("XIANGQI_FUZZ_INPUTS").unwrap_or(10_000),
        seed: number("XIANGQI_FUZZ_SEED").unwrap_or(0x5eed_f00d),
        case: number("XIANGQI_FUZZ_CASE"),
    }
}

/// The cases to run: one when replaying, else as many as it takes to reach the number of inputs.
fn cases(s: &Settings) -> Box<dyn Iterator<Item = u64>> {
    match s.case {
        Some(c) => Box::new(std::iter::once(c)),
        None => Box::new(0..),
    }
}

fn failure(target: &str, s: &Settings, case: u64, what: &str) -> String {
    format!(
        "{target}: {what}\nseed {seed}, case {case}; replay with XIANGQI_FUZZ_SEED={seed} XIANGQI_FUZZ_CASE={case} \
         cargo test -p xiangqi-cli --test fuzz_input",
        seed = s.seed
    )
}

/// Ends the process when a case makes no progress for three minutes times `XIANGQI_TEST_TIME_SCALE` (a hung engine
/// would hang the test run).
fn watchdog(progress: Arc<AtomicU64>, label: &'static str) {
    std::thread::spawn(move || {
        let mut last = (progress.load(Ordering::Relaxed), Instant::now());
        loop {
            std::thread::sleep(Duration::from_secs(5));
            let now = progress.load(Ordering::Relaxed);
            if now != last.0 {
                last = (now, Instant::now());
            } else if last.1.elapsed() > fuzz_driver::time_scale::scaled(Duration::from_secs(180)) {
                eprintln!("{label}: no progress for three minutes at case {now}; the engine hangs");
                std::process::exit(3);
            }
        }
    });
}

/// A `setoption` line's numbers from 129 to 32768 brought down to 17..=32: a `Hash` of gigabytes would take the
/// machine's memory, a hundred `Threads` and more its time. Everything else passes as it is.
fn tame(line: &[u8]) -> Vec<u8> {
    let words = fuzz_driver::engine_words(line);
    if words.first().is_none_or(|w| w != "setoption") {
        return line.to_vec();
    }
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        let run = line[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if run == 0 {
            out.push(line[i]);
            i += 1;
            continue;
        }
        let digits = &line[i..i + run];
        let value = std::str::from_utf8(digits).ok().and_then(|d| d.parse::<u64>().ok());
        match value {
            Some(v @ 129..=32768) => out.extend_from_slice((v % 16 + 17).to_string().as_bytes()),
            _ => out.extend_from_slice(digits),
        }
        i += run;
    }
    out
}

#[test]
fn command_streams_never_break_the_engine() {
    let s = settings();
    let progress = Arc::new(AtomicU64::new(0));
    watchdog(progress.clone(), "command streams");
    let start = Instant::now();
    let (mut inputs, mut sessions, mut printed, mut probes, mut bytes) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut next_report = 100_000;
    let mut tally = std::collections::BTreeMap::new();
    for case in cases(&s) {
        if s.case.is_none() && inputs >= s.inputs {
            break;
        }
        progress.store(case, Ordering::Relaxed);
        let mut rng = case_rng(s.seed, case);
        let lines: Vec<Vec<u8>> = session(&mut rng, 24).iter().map(|l| tame(l)).collect();
        let mut driver = Driver::new();
        let mut run = |driver: &mut Driver| -> Result<(), String> {
            let mut quit = false;
            for line in &lines {
                inputs += 1;
                bytes += line.len() as u64;
                let fed = driver.feed(line)?;
                if !fed.going {
                    quit = true;
                    break;
                }
                if fed.error {
                    driver.probe().map_err(|e| format!("after {}: {e}", show_bytes(line)))?;
                }
            }
            driver.finish(quit)
        };
        if let Err(e) = run(&mut driver) {
            let shown: Vec<String> = lines.iter().map(|l| show_bytes(l)).collect();
            panic!(
                "{}\nthe session's input:\n{}\nthe last lines in (>) and out (<):\n{}",
                failure("command streams", &s, case, &e),
                shown.join("\n"),
                driver.transcript()
            );
        }
        sessions += 1;
        printed += driver.printed;
        probes += driver.probes;
        for (kind, n) in &driver.tally {
            *tally.entry(*kind).or_insert(0u64) += n;
        }
        if inputs >= next_report {
            next_report += 100_000;
            eprintln!("command streams: {inputs} input lines, {:.0} s", start.elapsed().as_secs_f64());
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "command streams: {inputs} input lines ({bytes} bytes) in {sessions} sessions, {printed} lines printed, \
         {probes} recovery checks after errors, {secs:.1} s, {:.0} input lines/s, seed {}",
        inputs as f64 / secs,
        s.seed
    );
    eprintln!("command streams: lines printed by kind: {tally:?}");
}

/// A message fit for a user: one short line.
fn clear_message(e: &dyn std::fmt::Display) -> Result<(), String> {
    let text = e.to_string();
    if text.is_empty() || text.contains('\n') || text.len() > 300 {
        return Err(format!("an unclear error message: {:?}", text.chars().take(400).collect::<String>()));
    }
    Ok(())
}

/// Runs `f`, turning a panic into an error.
fn no_panic<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
        format!("{what} panicked: {}", msg.unwrap_or_default())
    })
}

/// A position read from a FEN (strictly, or leniently): its FEN reads back as itself, both move generators give
/// the same moves, and each move plays and takes back cleanly, leaving a position whose FEN reads back too.
fn check_position(pos: &Position, validation: Validation) -> Result<(), String> {
    let read = |fen: &str| -> Result<Position, String> {
        let setup = Setup::from_fen(fen).map_err(|e| format!("{fen} does not read back: {e}"))?;
        Position::from_setup(&setup, validation).map_err(|e| format!("{fen} does not read back: {e}"))
    };
    let fen = pos.fen();
    let back = read(&fen)?;
    if back.fen() != fen || back != *pos || back.key() != pos.key() {
        return Err(format!("{fen} reads back as {}", back.fen()));
    }
    let mut core = pos.legal_moves();
    let mut generated: Vec<Move> = no_panic("movegen", || xiangqi_movegen::legal_moves(pos))?.to_vec();
    core.sort();
    generated.sort();
    if core != generated {
        return Err(format!("the two move generators differ in {fen}: {core:?} and {generated:?}"));
    }
    no_panic("eval", || xiangqi_eval::Handcrafted::default().trace(pos))?;
    let mut p = pos.clone();
    for &m in &core {
        if pos.parse_move(&m.to_string()) != Ok(m) {
            return Err(format!("{m} is generated but not read in {fen}"));
        }
        p.make_move(m);
        if p.key() != p.compute_key() {
            return Err(format!("the key is wrong after {m} in {fen}"));
        }
        let after = p.fen();
        let child = read(&after).map_err(|e| format!("after {m} in {fen}: {e}"))?;
        if child.fen() != after || child.key() != p.key() {
            return Err(format!("after {m} in {fen}: {after} reads back as another position"));
        }
        no_panic("movegen", || xiangqi_movegen::count_legal(&p))?;
        p.unmake_move();
        if p.fen() != fen || p.key() != pos.key() {
            return Err(format!("{m} did not take back in {fen}"));
        }
    }
    Ok(())
}

/// Reads `fen` every way there is, and checks what comes back.
fn check_fen(fen: &str) -> Result<(), String> {
    let strict = no_panic("Position::from_fen", || Position::from_fen(fen))?;
    let setup = no_panic("Setup::from_fen", || Setup::from_fen(fen))?;
    if let Err(e) = &strict {
        clear_message(e)?;
    }
    let setup = match setup {
        Ok(setup) => setup,
        Err(e) if strict.is_err() => return clear_message(&e),
        Err(e) => return Err(format!("Position::from_fen reads it, Setup::from_fen says {e}")),
    };
    let again: Setup =
        setup.to_string().parse().map_err(|e| format!("the setup's FEN {setup} does not read back: {e}"))?;
    if again != setup {
        return Err(format!("the setup's FEN {setup} reads back as {again}"));
    }
    let lenient = no_panic("Position::from_setup", || Position::from_setup(&setup, Validation::Lenient))?;
    match (&strict, &lenient) {
        (Ok(a), Ok(b)) if a.fen() != b.fen() => return Err("strict and lenient readings differ".to_owned()),
        (Ok(_), Err(e)) => return Err(format!("read strictly, but not leniently: {e}")),
        _ => {}
    }
    if let Ok(pos) = &strict {
        check_position(pos, Validation::Strict)?;
    }
    match lenient {
        Ok(pos) if strict.is_err() => check_position(&pos, Validation::Lenient),
        Ok(_) => Ok(()),
        Err(e) => clear_message(&e),
    }
}

#[test]
fn fens_read_or_fail_cleanly() {
    let s = settings();
    let start = Instant::now();
    let mut read = 0;
    let mut inputs = 0;
    for case in cases(&s) {
        if s.case.is_none() && inputs >= s.inputs {
            break;
        }
        inputs += 1;
        let mut rng = case_rng(s.seed ^ 0xf3e7, case);
        let fen = fen_text(&mut rng);
        if let Err(e) = check_fen(&fen) {
            panic!("{}\nthe FEN: {}", failure("FENs", &s, case, &e), show_bytes(fen.as_bytes()));
        }
        read += Position::from_fen(&fen).is_ok() as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!("FENs: {inputs} inputs, {read} read as positions, {secs:.1} s, {:.0} inputs/s", inputs as f64 / secs);
}

/// One move text in `pos`: read exactly when it names a legal move, the same move `Move::parse` reads, and played
/// by `play` exactly then; an error is a clear message and leaves the position as it was.
fn check_move_text(pos: &Position, text: &str) -> Result<(), String> {
    let parsed = no_panic("parse_move", || pos.parse_move(text))?;
    let syntax = no_panic("Move::parse", || Move::parse(text))?;
    let legal = pos.legal_moves();
    match &parsed {
        Ok(m) => {
            if !legal.contains(m) || syntax != Ok(*m) {
                return Err(format!("{text:?} read as {m}, which is not legal or not what Move::parse reads"));
            }
            let written: String = text.trim().to_ascii_lowercase().replace('-', "");
            if written != m.to_string() {
                return Err(format!("{text:?} read as {m}"));
            }
        }
        Err(e) => {
            clear_message(e)?;
            if let Some(m) = legal.iter().find(|m| syntax == Ok(**m)) {
                return Err(format!("{text:?} is the legal move {m} but was refused: {e}"));
            }
        }
    }
    let mut p = pos.clone();
    let played = no_panic("play", || p.play(text))?;
    match (played, parsed) {
        (Ok(a), Ok(b)) if a == b => {
            p.unmake_move();
            if p.fen() != pos.fen() || p.key() != pos.key() {
                return Err(format!("{text:?} did not take back"));
            }
        }
        (Err(_), Err(_)) if p.fen() == pos.fen() && p.key() == pos.key() && p.ply() == pos.ply() => {}
        _ => return Err(format!("play and parse_move disagree on {text:?}, or a refused move changed the position")),
    }
    Ok(())
}

/// A move list through `position fen <fen> moves ...`: read exactly when every move is legal in turn, to the
/// position the moves reach; else an error that names the first bad move.
fn check_move_list(rng: &mut Rng, pos: &Position) -> Result<(), String> {
    let mut model = pos.clone();
    let mut texts = Vec::new();
    for _ in 0..rng.random_range(0..30) {
        let text = if chance(rng, 0.9) {
            random_game(rng, &model, 1).1.first().map_or_else(|| "h2e2".to_owned(), |m| m.to_string())
        } else {
            move_text_input(rng, &model)
        };
        texts.push(text.clone());
        for w in text.split_whitespace() {
            let _ = model.play(w);
        }
    }
    let line = format!("fen {} moves {}", pos.fen(), texts.join(" "));
    let words: Vec<&str> = line.split_whitespace().collect();
    let end = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let got = no_panic("parse_position", || parse_position(&words))?;
    let mut expected = pos.clone();
    let mut first_bad = None;
    for (i, w) in words[end + 1..].iter().enumerate() {
        if expected.play(w).is_err() {
            first_bad = Some(i + 1);
            break;
        }
    }
    match (got, first_bad) {
        (Ok(p), None) if p.fen() == expected.fen() && p.key() == expected.key() => Ok(()),
        (Err(e), Some(i)) if e.contains(&format!("move {i} ")) => clear_message(&e),
        (got, bad) => Err(format!("{line}: got {got:?}, first bad move {bad:?}")),
    }
}

#[test]
fn move_texts_and_lists_read_or_fail_cleanly() {
    let s = settings();
    let start = Instant::now();
    let (mut inputs, mut legal) = (0u64, 0u64);
    for case in cases(&s) {
        if s.case.is_none() && inputs >= s.inputs {
            break;
        }
        inputs += 1;
        let mut rng = case_rng(s.seed ^ 0x40fe, case);
        let pos = random_position(&mut rng);
        let result = if case % 4 == 0 {
            check_move_list(&mut rng, &pos)
        } else {
            let text = move_text_input(&mut rng, &pos);
            legal += pos.parse_move(&text).is_ok() as u64;
            check_move_text(&pos, &text).map_err(|e| format!("{e}\nthe text: {}", show_bytes(text.as_bytes())))
        };
        if let Err(e) = result {
            panic!("{}\nthe position: {}", failure("moves", &s, case, &e), pos.fen());
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!("moves: {inputs} inputs, {legal} legal moves read, {secs:.1} s, {:.0} inputs/s", inputs as f64 / secs);
}

/// The taming of `setoption` values keeps the machine whole and changes nothing else.
#[test]
fn only_huge_setoption_values_are_tamed() {
    assert_eq!(tame(b"setoption name Hash value 20000"), b"setoption name Hash value 17");
    assert_eq!(tame(b"setoption hashsize 32768"), b"setoption hashsize 17");
    assert_eq!(tame(b"setoption name Hash value 32769"), b"setoption name Hash value 32769");
    assert_eq!(tame(b"setoption name Threads value 256"), b"setoption name Threads value 17");
    assert_eq!(tame(b"setoption name MultiPV value 128"), b"setoption name MultiPV value 128");
    assert_eq!(tame(b"go depth 20000"), b"go depth 20000");
}
