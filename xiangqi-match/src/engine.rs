//! Engines of a match: how one is described (as `key=value` words, the way cutechess and fastchess take them), and
//! a running engine process spoken to in UCI or UCCI.
//!
//! A reader thread turns the engine's standard output into lines on a channel, so every wait has a deadline: an
//! engine that hangs is a timeout, one whose output closes is a crash (it exited) or a disconnect (it closed its
//! output but still runs). The process is killed when dropped.

use crate::game::Termination;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The protocol an engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// UCI as Pikafish speaks it (coordinates with ranks 0-9).
    Uci,
    /// UCCI as ElephantEye speaks it.
    Ucci,
}

/// One engine of a match: the program, how to start it and the options to set, from `key=value` words
/// ([`EngineConfig::parse`]) or built field by field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineConfig {
    /// The name in the record and the tables.
    pub name: String,
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory.
    pub dir: Option<PathBuf>,
    /// Its protocol.
    pub protocol: Protocol,
    /// Options set after the handshake, in order.
    pub options: Vec<(String, String)>,
}

/// The keys of an engine's `key=value` words ([`EngineConfig::parse`]).
pub const ENGINE_KEYS: &str =
    "cmd=<command line>, arg=<one argument>, name=<name>, proto=uci|ucci, dir=<working directory>, option.<name>=<value>";

/// Why `key=value` words do not describe an engine ([`EngineConfig::parse`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineConfigError {
    /// A word without `=` (a command with arguments must be one word: `cmd="./engine --flag"`).
    #[error("expected key=value, found {0:?} ({ENGINE_KEYS})")]
    NotKeyValue(String),
    /// `cmd=` with no command.
    #[error("cmd= is empty")]
    EmptyCommand,
    /// `proto=` other than `uci` or `ucci`.
    #[error("unknown protocol {0:?} (uci or ucci)")]
    UnknownProtocol(String),
    /// A key that is not one of [`ENGINE_KEYS`].
    #[error("unknown engine key {0:?} ({ENGINE_KEYS})")]
    UnknownKey(String),
    /// No `cmd=`.
    #[error("an engine needs cmd=... ({ENGINE_KEYS})")]
    NoCommand,
}

impl EngineConfig {
    /// Parses `key=value` words ([`ENGINE_KEYS`]). A later `cmd`, `name`, `proto`, `dir` or option of the same
    /// name (without regard to case) overrides an earlier one, so words common to several engines can come first;
    /// every `arg` is kept, after the arguments of `cmd`.
    ///
    /// ```
    /// use xiangqi_match::{EngineConfig, EngineConfigError, Protocol};
    ///
    /// let words = |w: &str| w.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    /// let e = EngineConfig::parse(&words("option.Hash=16 cmd=/opt/eleeye proto=ucci option.hash=64")).unwrap();
    /// assert_eq!((e.name.as_str(), e.protocol), ("eleeye", Protocol::Ucci));
    /// assert_eq!(e.options, [("hash".to_owned(), "64".to_owned())]);
    /// assert_eq!(EngineConfig::parse(&words("name=x")), Err(EngineConfigError::NoCommand));
    /// ```
    pub fn parse(words: &[String]) -> Result<EngineConfig, EngineConfigError> {
        let (mut cmd, mut name, mut protocol, mut dir) = (None::<Vec<String>>, None, Protocol::Uci, None);
        let mut args = Vec::new();
        let mut options: Vec<(String, String)> = Vec::new();
        for w in words {
            let (k, v) = w.split_once('=').ok_or_else(|| EngineConfigError::NotKeyValue(w.clone()))?;
            match k {
                "cmd" => {
                    let parts: Vec<String> = v.split_whitespace().map(str::to_owned).collect();
                    if parts.is_empty() {
                        return Err(EngineConfigError::EmptyCommand);
                    }
                    cmd = Some(parts);
                }
                "arg" => args.push(v.to_owned()),
                "name" => name = Some(v.to_owned()),
                "dir" => dir = Some(PathBuf::from(v)),
                "proto" | "protocol" => {
                    protocol = match v.to_ascii_lowercase().as_str() {
                        "uci" => Protocol::Uci,
                        "ucci" => Protocol::Ucci,
                        _ => return Err(EngineConfigError::UnknownProtocol(v.to_owned())),
                    }
                }
                _ => match k.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => {
                        options.retain(|(o, _)| !o.eq_ignore_ascii_case(opt));
                        options.push((opt.to_owned(), v.to_owned()));
                    }
                    _ => return Err(EngineConfigError::UnknownKey(k.to_owned())),
                },
            }
        }
        let mut cmd = cmd.ok_or(EngineConfigError::NoCommand)?;
        let program = cmd.remove(0);
        cmd.extend(args);
        let name = name.unwrap_or_else(|| {
            std::path::Path::new(&program).file_name().map_or(program.clone(), |f| f.to_string_lossy().into_owned())
        });
        Ok(EngineConfig { name, program, args: cmd, dir, protocol, options })
    }
}

/// Why talking to an engine failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProcessError {
    /// The program could not be started.
    #[error("cannot start: {program}: {reason}")]
    Spawn {
        /// The program.
        program: String,
        /// The system's reason.
        reason: String,
    },
    /// No answer in time.
    #[error("no answer in time")]
    Timeout,
    /// The process exited: its exit status (or why it could not be waited for).
    #[error("exited ({0})")]
    Crash(String),
    /// The output closed while the process still ran, or its input is closed.
    #[error("closed its output")]
    Disconnect,
    /// An option to set that the engine did not declare in its handshake.
    #[error("unknown option {name:?} (the engine declares: {})", declared.join(", "))]
    UnknownOption {
        /// The option.
        name: String,
        /// The options the engine declared.
        declared: Vec<String>,
    },
    /// The engine answered the options set with errors (lines `info string error...` or `No such option...`).
    #[error("rejected its options: {}", .0.join("; "))]
    RejectedOptions(Vec<String>),
}

impl ProcessError {
    /// How a game the engine loses by this error ends, as recorded.
    pub fn termination(&self) -> Termination {
        match self {
            ProcessError::Spawn { .. } | ProcessError::Crash(_) => Termination::Crash,
            ProcessError::Timeout => Termination::Timeout,
            ProcessError::Disconnect => Termination::Disconnect,
            ProcessError::UnknownOption { .. } | ProcessError::RejectedOptions(_) => Termination::IllegalMove,
        }
    }
}

/// The answer to `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestMove {
    /// The move as sent, `None` for `nobestmove` or `bestmove (none)`.
    pub mv: Option<String>,
    /// The engine answered `nobestmove` (UCCI): ElephantEye's way of saying that by its own rules the position is
    /// drawn (a repetition, its move limit), although it has legal moves.
    pub claims_draw: bool,
    /// The last score reported, from the mover's side, in centipawns; mates as ±(100000 - moves).
    pub score: Option<i32>,
    /// The engine resigned (UCCI `bestmove ... resign`).
    pub resign: bool,
    /// How long the engine took.
    pub elapsed: Duration,
}

/// A score that stands for a mate, as [`BestMove::score`] gives it.
pub const MATE_SCORE: i32 = 100_000;

/// A running engine.
pub struct EngineProcess {
    config: EngineConfig,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Option names the engine declared in its handshake.
    declared: Vec<String>,
    /// UCCI: times are sent in milliseconds (the engine declared `usemillisec`), else in seconds.
    millis: bool,
}

impl EngineProcess {
    /// Starts the engine, does the handshake (`uci`/`uciok` or `ucci`/`ucciok`), sets its options (each must have
    /// been declared by the engine) and waits for `readyok`; an error if the engine says it rejects an option.
    pub fn start(config: &EngineConfig, timeout: Duration) -> Result<EngineProcess, ProcessError> {
        let mut command = Command::new(&config.program);
        command.args(&config.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| ProcessError::Spawn { program: config.program.clone(), reason: e.to_string() })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            // Raw lines, read lossily: a line in another encoding (GBK is common in Chinese UCCI engines) is not
            // the end of the engine's output.
            for line in BufReader::new(stdout).split(b'\n') {
                let Ok(mut line) = line else { break };
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if tx.send(String::from_utf8_lossy(&line).into_owned()).is_err() {
                    break;
                }
            }
        });
        let mut engine =
            EngineProcess { config: config.clone(), child, stdin, lines, declared: Vec::new(), millis: false };
        let deadline = Instant::now() + timeout;
        let (hello, ok) = match config.protocol {
            Protocol::Uci => ("uci", "uciok"),
            Protocol::Ucci => ("ucci", "ucciok"),
        };
        engine.send(hello)?;
        loop {
            let line = engine.read_line(deadline)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.first() == Some(&ok) {
                break;
            }
            if words.first() == Some(&"option") {
                // UCI: `option name <words> type ...`; UCCI: `option <name> type ...`.
                let name = match config.protocol {
                    Protocol::Uci => {
                        let end = words.iter().position(|&w| w == "type").unwrap_or(words.len());
                        words.get(2..end).map(|w| w.join(" ")).unwrap_or_default()
                    }
                    Protocol::Ucci => words.get(1).map_or(String::new(), |w| (*w).to_owned()),
                };
                engine.declared.push(name);
            }
        }
        if config.protocol == Protocol::Ucci && engine.declares("usemillisec") {
            engine.send("setoption usemillisec true")?;
            engine.millis = true;
        }
        for (name, value) in &config.options {
            if !engine.declares(name) {
                return Err(ProcessError::UnknownOption { name: name.clone(), declared: engine.declared.clone() });
            }
            match config.protocol {
                Protocol::Uci => engine.send(&format!("setoption name {name} value {value}"))?,
                Protocol::Ucci => engine.send(&format!("setoption {name} {value}"))?,
            }
        }
        // An engine that says it rejects a value (ours: `info string error: ...`; Stockfish's: `No such option`)
        // would otherwise play with its default silently.
        engine.send("isready")?;
        let mut rejected = Vec::new();
        loop {
            let line = engine.read_line(deadline)?;
            let line = line.trim();
            if line == "readyok" {
                break;
            }
            if line.starts_with("info string error") || line.starts_with("No such option") {
                rejected.push(line.to_owned());
            }
        }
        if !rejected.is_empty() {
            return Err(ProcessError::RejectedOptions(rejected));
        }
        Ok(engine)
    }

    /// Whether the engine declared the option `name` in its handshake (compared without regard to case).
    pub fn declares(&self, name: &str) -> bool {
        self.declared.iter().any(|d| d.eq_ignore_ascii_case(name))
    }

    /// The engine's protocol.
    pub fn protocol(&self) -> Protocol {
        self.config.protocol
    }

    /// UCCI: whether times go in milliseconds.
    pub fn millis(&self) -> bool {
        self.millis
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        let stdin = self.stdin.as_mut().ok_or(ProcessError::Disconnect)?;
        if writeln!(stdin, "{line}").and_then(|_| stdin.flush()).is_err() {
            return Err(self.closed());
        }
        Ok(())
    }

    /// What a closed channel means: a crash if the process has exited (waiting a moment for it), else a
    /// disconnect.
    fn closed(&mut self) -> ProcessError {
        let end = Instant::now() + Duration::from_millis(500);
        while Instant::now() < end {
            if let Ok(Some(status)) = self.child.try_wait() {
                return ProcessError::Crash(status.to_string());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        ProcessError::Disconnect
    }

    /// The next line, waiting until `deadline`.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, ProcessError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ProcessError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(self.closed()),
        }
    }

    /// `isready`, then waits for `readyok` (skipping other lines).
    pub fn ready(&mut self, deadline: Instant) -> Result<(), ProcessError> {
        self.send("isready")?;
        while self.read_line(deadline)?.trim() != "readyok" {}
        Ok(())
    }

    /// Tells the engine a new game starts (`ucinewgame` or UCCI `setoption newgame`, if declared) and waits until it
    /// is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), ProcessError> {
        match self.config.protocol {
            Protocol::Uci => self.send("ucinewgame")?,
            Protocol::Ucci if self.declares("newgame") => self.send("setoption newgame")?,
            Protocol::Ucci => {}
        }
        self.ready(Instant::now() + timeout)
    }

    /// Sends `position` and `go`, and reads until `bestmove` (or UCCI `nobestmove`), waiting until `deadline`.
    pub fn think(&mut self, position: &str, go: &str, deadline: Instant) -> Result<BestMove, ProcessError> {
        self.send(position)?;
        let start = Instant::now();
        self.send(go)?;
        let mut score = None;
        loop {
            let line = self.read_line(deadline)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first() {
                Some(&"info") => {
                    if let Some(s) = parse_score(&words) {
                        score = Some(s);
                    }
                }
                Some(&"nobestmove") => {
                    return Ok(BestMove {
                        mv: None,
                        claims_draw: true,
                        score,
                        resign: false,
                        elapsed: start.elapsed(),
                    });
                }
                Some(&"bestmove") => {
                    let mv =
                        words.get(1).filter(|m| !matches!(**m, "(none)" | "0000" | "none")).map(|m| (*m).to_owned());
                    let resign = words.get(2..).is_some_and(|rest| rest.contains(&"resign"));
                    return Ok(BestMove { mv, claims_draw: false, score, resign, elapsed: start.elapsed() });
                }
                _ => {}
            }
        }
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// `Ok` while the process runs; the crash, with its exit status, once it has exited.
    pub fn running(&mut self) -> Result<&mut EngineProcess, ProcessError> {
        match self.child.try_wait() {
            Ok(None) => Ok(self),
            Ok(Some(status)) => Err(ProcessError::Crash(status.to_string())),
            Err(e) => Err(ProcessError::Crash(e.to_string())),
        }
    }

    /// Sends `quit` and gives the engine a moment to exit before it is killed.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let end = Instant::now() + Duration::from_millis(300);
        while Instant::now() < end {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The score of an `info` line: UCI `score cp N` / `score mate N`, UCCI `score N`.
pub fn parse_score(words: &[&str]) -> Option<i32> {
    let i = words.iter().position(|&w| w == "score")?;
    let mate = |n: i32| if n >= 0 { MATE_SCORE - n } else { -MATE_SCORE - n };
    match words.get(i + 1)? {
        &"cp" => words.get(i + 2)?.parse().ok(),
        &"mate" => words.get(i + 2)?.parse().ok().map(mate),
        n => n.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn engine_words() {
        let c = EngineConfig::parse(&words("cmd=./xq --flag name=A option.Hash=32 option.hash=64 proto=ucci arg=x"))
            .unwrap_err();
        // `--flag` is not key=value: cmd with arguments must be one word (quoted on the shell).
        assert_eq!(c, EngineConfigError::NotKeyValue("--flag".to_owned()));
        assert!(c.to_string().starts_with("expected key=value, found \"--flag\" (cmd=<command line>, "), "{c}");
        let mut w = words("name=A option.Hash=32 option.hash=64 proto=ucci arg=x");
        w.insert(0, "cmd=./xq uci".to_owned());
        let c = EngineConfig::parse(&w).unwrap();
        assert_eq!(c.program, "./xq");
        assert_eq!(c.args, ["uci", "x"]);
        assert_eq!(c.name, "A");
        assert_eq!(c.protocol, Protocol::Ucci);
        assert_eq!(c.options, [("hash".to_owned(), "64".to_owned())]);
        assert_eq!(EngineConfig::parse(&words("cmd=/bin/eleeye")).unwrap().name, "eleeye");
        assert_eq!(EngineConfig::parse(&words("name=A")), Err(EngineConfigError::NoCommand));
        assert_eq!(EngineConfig::parse(&words("cmd= name=A")), Err(EngineConfigError::EmptyCommand));
        let e = EngineConfig::parse(&words("cmd=x bogus=1")).unwrap_err();
        assert_eq!(e, EngineConfigError::UnknownKey("bogus".to_owned()));
        assert!(e.to_string().starts_with("unknown engine key \"bogus\" (cmd="), "{e}");
        let e = EngineConfig::parse(&words("cmd=x proto=xboard")).unwrap_err();
        assert_eq!(e.to_string(), "unknown protocol \"xboard\" (uci or ucci)");
        assert_eq!(
            EngineConfig::parse(&words("cmd=x option.=1")),
            Err(EngineConfigError::UnknownKey("option.".to_owned()))
        );
    }

    #[test]
    fn process_errors_say_what_went_wrong() {
        let e = ProcessError::UnknownOption { name: "Hash".into(), declared: vec!["Threads".into(), "MultiPV".into()] };
        assert_eq!(e.to_string(), "unknown option \"Hash\" (the engine declares: Threads, MultiPV)");
        let e = ProcessError::RejectedOptions(vec!["info string error: a".into(), "No such option: b".into()]);
        assert_eq!(e.to_string(), "rejected its options: info string error: a; No such option: b");
        assert_eq!(e.termination(), Termination::IllegalMove);
        let config = EngineConfig::parse(&words("cmd=/nonexistent/engine")).unwrap();
        let e = EngineProcess::start(&config, Duration::from_secs(5)).err().unwrap();
        assert!(matches!(&e, ProcessError::Spawn { program, .. } if program == "/nonexistent/engine"), "{e}");
        assert!(e.to_string().starts_with("cannot start: /nonexistent/engine: "), "{e}");
        assert_eq!(e.termination(), Termination::Crash);
    }

    #[test]
    fn scores_of_info_lines() {
        let s = |t: &str| parse_score(&t.split_whitespace().collect::<Vec<_>>());
        assert_eq!(s("info depth 5 score cp -35 nodes 10 pv h2e2"), Some(-35));
        assert_eq!(s("info depth 5 score mate 3 pv h2e2"), Some(MATE_SCORE - 3));
        assert_eq!(s("info depth 5 score mate -2 pv h2e2"), Some(-MATE_SCORE + 2));
        assert_eq!(s("info depth 6 score 4 pv b0c2 b9c7"), Some(4));
        assert_eq!(s("info time 10 nodes 300"), None);
    }
}
