//! UCCI as ElephantEye speaks it (see the module [`crate`]): its commands, its `go` and `pophash`.

use crate::go::{clip, go_number, go_range, Go, MAX_GO_DEPTH};
use crate::session::{parse_position, Uci, ENGINE_NAME};
use xiangqi_core::{Color, Move, Position};
use xiangqi_search::tt::{Bound, TranspositionTable};

impl Uci {
    /// The answer to `ucci`: names, options, `ucciok`.
    pub(crate) fn ucci_hello(&self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line("id author the xiangqi workspace authors");
        for line in self.ucci_options() {
            self.out.line(&line);
        }
        self.out.line("ucciok");
    }

    /// Handles one UCCI command line; `false` after `quit`/`bye`.
    pub(crate) fn ucci_command(&mut self, words: &[&str]) -> bool {
        match words[0] {
            "ucci" => self.ucci_hello(),
            "isready" => self.out.line("readyok"),
            "setoption" => self.ucci_setoption(&words[1..]),
            "position" => {
                self.set_position(&words[1..]);
                if self.running.is_none() {
                    self.bans.clear();
                }
            }
            "banmoves" => {
                let bans: Result<Vec<Move>, String> = words[1..]
                    .iter()
                    .map(|m| self.pos.parse_move(m).map_err(|e| format!("banmoves {}: {e}", clip(m, 40))))
                    .collect();
                match bans {
                    Ok(b) => self.bans = b,
                    Err(e) => self.out.error(&e),
                }
            }
            "go" => {
                if self.running.is_some() {
                    self.out.error("a search is already running (send stop first)");
                    return true;
                }
                match parse_ucci_go(&words[1..], self.millis, self.pos.turn()) {
                    Ok((go, draw_offer)) => {
                        // Banned moves leave the root: the search plays the best of the others.
                        let root_moves: Option<Vec<Move>> = (!self.bans.is_empty()).then(|| {
                            let legal = xiangqi_movegen::legal_moves(&self.pos);
                            legal.iter().copied().filter(|m| !self.bans.contains(m)).collect()
                        });
                        self.start_search(&go, root_moves.as_deref(), Some(draw_offer));
                    }
                    Err(e) => self.out.error(&e),
                }
            }
            "ponderhit" => self.ponderhit(words.get(1) == Some(&"draw")),
            "stop" => {
                if self.running.is_some() {
                    self.stop();
                } else {
                    self.out.line("nobestmove");
                }
            }
            "probe" => match parse_position(&words[1..]) {
                Ok(pos) => self.out.line(&probe(self.engine.table(), &pos)),
                Err(e) => self.out.error(&e),
            },
            "quit" | "bye" => {
                self.stop();
                self.out.line("bye");
                return false;
            }
            "d" => self.show(),
            "eval" => self.eval(),
            other => self.out.error(&format!("unknown command {:?}", clip(other, 40))),
        }
        true
    }
}

/// Parses the words after a UCCI `go` into the UCI form, for the side `us`, with times in milliseconds
/// (`millis`) or seconds; also says whether a draw was offered (`go draw`).
pub fn parse_ucci_go(words: &[&str], millis: bool, us: Color) -> Result<(Go, bool), String> {
    let mut go = Go::default();
    let mut words = words;
    let mut draw = false;
    match words.first() {
        Some(&"ponder") => {
            go.ponder = true;
            words = &words[1..];
        }
        Some(&"draw") => {
            draw = true;
            words = &words[1..];
        }
        _ => {}
    }
    let unit = if millis { 1 } else { 1000 };
    let number = |i: usize, name: &str| -> Result<u64, String> {
        go_number(name, words.get(i).ok_or_else(|| format!("go {name} needs a value"))?)
    };
    let (mine, theirs) = match us {
        Color::Red => ((&mut go.wtime, &mut go.winc), (&mut go.btime, &mut go.binc)),
        Color::Black => ((&mut go.btime, &mut go.binc), (&mut go.wtime, &mut go.winc)),
    };
    let mut i = 0;
    match words.first() {
        None | Some(&"infinite") => go.infinite = true,
        Some(&"depth") if words.get(1) == Some(&"infinite") => go.infinite = true,
        Some(&"depth") => go.depth = Some(go_range("depth", number(1, "depth")?, 1, MAX_GO_DEPTH)? as u32),
        Some(&"nodes") => go.nodes = Some(go_range("nodes", number(1, "nodes")?, 1, u64::MAX)?),
        Some(&"time") => {
            *mine.0 = Some(number(1, "time")?.saturating_mul(unit));
            i = 2;
            while i < words.len() {
                let w = words[i];
                if !["movestogo", "increment", "opptime", "oppincrement", "oppmovestogo"].contains(&w) {
                    return Err(format!("unknown go parameter {:?}", clip(w, 40)));
                }
                let v = number(i + 1, w)?;
                match w {
                    "movestogo" => go.movestogo = Some(go_range(w, v, 1, u64::MAX)?),
                    "increment" => *mine.1 = Some(v.saturating_mul(unit)),
                    "opptime" => *theirs.0 = Some(v.saturating_mul(unit)),
                    "oppincrement" => *theirs.1 = Some(v.saturating_mul(unit)),
                    _ => {
                        go_range(w, v, 1, u64::MAX)?;
                    }
                }
                i += 2;
            }
        }
        Some(other) => return Err(format!("unknown go mode {:?}", clip(other, 40))),
    }
    if i == 0 && words.len() > 2 {
        return Err(format!("unexpected {:?} after go {}", clip(words[2], 40), words[0]));
    }
    Ok((go, draw))
}

/// The UCCI `pophash` answer for `pos` from the table.
fn probe(tt: &TranspositionTable, pos: &Position) -> String {
    let Some(hit) = tt.probe(pos.key(), 0) else { return "pophash".to_owned() };
    let mut s = "pophash".to_owned();
    if let Some(m) = Move::from_raw(hit.mv).filter(|&m| pos.is_legal(m)) {
        s.push_str(&format!(" bestmove {m}"));
    }
    if matches!(hit.bound, Bound::Lower | Bound::Exact) {
        s.push_str(&format!(" lowerbound {} depth {}", hit.score, hit.depth));
    }
    if matches!(hit.bound, Bound::Upper | Bound::Exact) {
        s.push_str(&format!(" upperbound {} depth {}", hit.score, hit.depth));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucci_go_maps_onto_the_side_to_move() {
        fn w(t: &str) -> Vec<&str> {
            t.split_whitespace().collect()
        }
        let (go, draw) =
            parse_ucci_go(&w("time 5000 increment 100 opptime 4000 oppincrement 100"), true, Color::Black).unwrap();
        assert!(!draw);
        assert_eq!((go.btime, go.binc, go.wtime, go.winc), (Some(5000), Some(100), Some(4000), Some(100)));
        // Seconds unless usemillisec.
        let (go, _) = parse_ucci_go(&w("time 30 movestogo 10"), false, Color::Red).unwrap();
        assert_eq!((go.wtime, go.movestogo, go.btime), (Some(30_000), Some(10), None));
        let (go, draw) = parse_ucci_go(&w("draw depth 6"), true, Color::Red).unwrap();
        assert!(draw && go.depth == Some(6));
        let (go, _) = parse_ucci_go(&w("ponder nodes 700"), true, Color::Red).unwrap();
        assert!(go.ponder && go.nodes == Some(700));
        assert!(parse_ucci_go(&[], true, Color::Red).unwrap().0.infinite);
        assert!(parse_ucci_go(&w("depth infinite"), true, Color::Red).unwrap().0.infinite);
        for bad in ["depth", "nodes x", "time 5 bogus 3", "wtime 5", "depth 5 nodes 7", "time 5 movestogo"] {
            assert!(parse_ucci_go(&w(bad), true, Color::Red).is_err(), "{bad}");
        }
        for (bad, needle) in [
            ("depth 0", "go depth must be from 1 to 120, not 0"),
            ("depth 121", "go depth must be from 1 to 120, not 121"),
            ("nodes 0", "go nodes must be at least 1"),
            ("time 5 movestogo 0", "go movestogo must be at least 1"),
            ("time -5", "go time: -5 is negative"),
            ("ponder time 5 opptime -1", "go opptime: -1 is negative"),
        ] {
            let e = parse_ucci_go(&w(bad), true, Color::Red).unwrap_err();
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }
}
