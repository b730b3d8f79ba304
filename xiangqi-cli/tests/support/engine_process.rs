//! The `xiangqi` binary as a child process speaking a line protocol (UCI or UCCI), shared by the session tests.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// The scale of every timeout (`XIANGQI_TEST_TIME_SCALE`), applied by [`Engine::until`].
#[path = "../../../xiangqi-search/tests/support/time_scale.rs"]
pub mod time_scale;

/// The engine process with its input and a channel of its output lines.
pub struct Engine {
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    /// The binary run without arguments: it speaks UCI.
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// The binary run with `args` (e.g. `uci --params FILE`).
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    pub fn send(&mut self, cmd: &str) {
        writeln!(self.stdin, "{cmd}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Writes raw bytes (not necessarily UTF-8, not necessarily a whole line).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that satisfies `done`; panics after `timeout` (times the scale of
    /// `XIANGQI_TEST_TIME_SCALE`).
    pub fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let end = Instant::now() + time_scale::scaled(timeout);
        let mut seen = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Err(_) => panic!("timed out; saw {seen:?}"),
            }
        }
    }

    pub fn ready(&mut self) {
        self.send("isready");
        self.until(Duration::from_secs(10), |l| l == "readyok");
    }

    pub fn bestmove(&mut self, timeout: Duration) -> (Vec<String>, String) {
        let lines = self.until(timeout, |l| l.starts_with("bestmove"));
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_owned();
        (lines, best)
    }

    /// The engine's current FEN, from the `d` command.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until(Duration::from_secs(5), |l| l.starts_with("Fen: "));
        lines.last().unwrap()["Fen: ".len()..].to_owned()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}
