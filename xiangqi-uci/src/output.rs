//! What the engine says: [`Output`] (whole lines, shared by the input loop and the search's thread), scores as UCI
//! prints them, the `info` lines of each iteration and the final `bestmove`, in UCI and in UCCI (`Reporter`, the
//! search's listener).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use xiangqi_core::Move;
use xiangqi_search::{Info, Listener, Score, SearchResult};

/// Where UCI output goes; shared by the input loop and the search thread, one whole line at a time.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to `w`.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line and flushes it.
    pub fn line(&self, text: &str) {
        if let Ok(mut w) = self.0.lock() {
            let _ = writeln!(w, "{text}");
            let _ = w.flush();
        }
    }

    /// `info string error: text`.
    pub(crate) fn error(&self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }
}

/// `cp N` or `mate N` as UCI prints scores (mate in moves, negative when the engine is mated).
pub fn uci_score(score: Score) -> String {
    match xiangqi_search::mate_moves(score) {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {score}"),
    }
}

/// The UCI `info` lines of one iteration, one per principal variation.
fn report(out: &Output, info: &Info<Move>) {
    let r = &info.result;
    let ms = info.elapsed.as_millis().max(1) as u64;
    let nps = info.nodes * 1000 / ms;
    for (k, line) in r.lines.iter().enumerate() {
        let pv: Vec<String> = line.pv.iter().map(Move::to_string).collect();
        out.line(&format!(
            "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
            r.depth,
            r.stats.seldepth,
            k + 1,
            uci_score(line.score),
            info.nodes,
            nps,
            info.hashfull,
            ms,
            pv.join(" ")
        ));
    }
}

/// UCCI `info` lines: depth, score and the best line (banned moves never reach it); time and nodes.
fn report_ucci(out: &Output, info: &Info<Move>) {
    let r = &info.result;
    if let Some(line) = r.lines.first() {
        let pv: Vec<String> = line.pv.iter().map(Move::to_string).collect();
        out.line(&format!("info depth {} score {} pv {}", r.depth, line.score, pv.join(" ")));
    }
    out.line(&format!("info time {} nodes {}", info.elapsed.as_millis(), info.nodes));
}

/// The final UCI answer: `bestmove <m> [ponder <m>]`, `bestmove (none)` when there is no move to play.
fn uci_bestmove(result: &SearchResult<Move>) -> String {
    let best = result.best_move.map_or("(none)".to_owned(), |m| m.to_string());
    match result.pv.get(1) {
        Some(p) => format!("bestmove {best} ponder {p}"),
        None => format!("bestmove {best}"),
    }
}

/// The final UCCI answer: the search's move, with `ponder` and with `draw` when a draw was offered and the score
/// is not positive; `nobestmove` when there is no move to play.
pub(crate) fn ucci_bestmove(result: &SearchResult<Move>, draw_offered: bool) -> String {
    let Some(best) = result.best_move else { return "nobestmove".to_owned() };
    let mut s = format!("bestmove {best}");
    if let Some(p) = result.pv.get(1) {
        s.push_str(&format!(" ponder {p}"));
    }
    if draw_offered && result.score <= 0 {
        s.push_str(" draw");
    }
    s
}

/// The search's listener: prints each iteration's `info` lines and the final `bestmove`, in UCI or UCCI.
pub(crate) struct Reporter {
    pub(crate) out: Output,
    pub(crate) ucci: bool,
    /// UCCI: a draw offered by `go draw` or `ponderhit draw`.
    pub(crate) draw_offer: Arc<AtomicBool>,
    /// The engine chooses among its lines (a level below 10, or `Variety`): the line chosen is reported last, so
    /// that a GUI or match runner reading the last `info` line sees the score of the move played.
    pub(crate) chooses: bool,
}

impl Listener<Move> for Reporter {
    fn iteration(&mut self, info: &Info<Move>) {
        if self.ucci {
            report_ucci(&self.out, info);
        } else {
            report(&self.out, info);
        }
    }

    fn finished(&mut self, result: &SearchResult<Move>) {
        if self.ucci {
            self.out.line(&ucci_bestmove(result, self.draw_offer.load(Ordering::Relaxed)));
        } else {
            if self.chooses {
                if let Some(m) = result.best_move {
                    let pv: Vec<String> = result.pv.iter().map(Move::to_string).collect();
                    let pv = if pv.first() == Some(&m.to_string()) { pv.join(" ") } else { m.to_string() };
                    self.out.line(&format!("info depth {} score {} pv {pv}", result.depth, uci_score(result.score)));
                }
            }
            self.out.line(&uci_bestmove(result));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_search::MATE;

    #[test]
    fn scores_print_as_uci_wants() {
        assert_eq!(uci_score(35), "cp 35");
        assert_eq!(uci_score(MATE - 1), "mate 1");
        assert_eq!(uci_score(MATE - 4), "mate 2");
        assert_eq!(uci_score(-MATE + 2), "mate -1");
    }
}
