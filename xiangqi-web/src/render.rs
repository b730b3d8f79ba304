//! The server's answers made from the engine's values: positions, moves in every notation, scores, search reports,
//! game records, reviews and recorded trees, as the [`crate::message`] types. Nothing here keeps state or runs a
//! search; the session ([`crate::protocol`]) calls these with what the rules and the search returned.
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_web::render;
//!
//! let pos = Position::startpos();
//! let m = pos.parse_move("h2e2").unwrap();
//! assert_eq!(render::notated(&pos, m).chinese, "炮二平五");
//! ```

use crate::message::{
    Bestmove, CodeFunction, CodeLine, GameEnd, Info, Notated, OpeningName, Prune, PvLine, Record, RecordGame, Review,
    ReviewMove, ScoreValue, State, Step, Trace, Watch, WatchNode, WatchState,
};
use std::collections::BTreeMap;
use xiangqi_core::record::openings::opening_of;
use xiangqi_core::record::shapes::shapes_of;
use xiangqi_core::record::{Notation, RecordFile};
use xiangqi_core::rules::Reason;
use xiangqi_core::{Color, GameResult, Move, PieceKind, Position, Replay};
use xiangqi_search::record::pseudocode::listing;
use xiangqi_search::record::{Edge, Explanation, PruneReason, Recorder, Recording, Sides, State as NodeState};
use xiangqi_search::review::{self, PositionEval};
use xiangqi_search::{Label, Score, SearchResult, VariantConfig};

/// A move in every notation, in `pos` (where it is legal).
pub fn notated(pos: &Position, m: Move) -> Notated {
    Notated {
        uci: m.to_string(),
        iccs: pos.move_text(m, Notation::Iccs),
        wxf: pos.move_text(m, Notation::Wxf),
        chinese: pos.move_text(m, Notation::Chinese),
    }
}

/// The moves of `line` from `pos`, notated, stopping at one that is not legal.
pub fn notated_line(pos: &Position, line: &[Move]) -> Vec<Notated> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        if !pos.is_legal(m) {
            break;
        }
        out.push(notated(&pos, m));
        pos.make_move(m);
    }
    out
}

/// A score for the side to move: centipawns, or mate in moves (negative when mated).
pub fn score(score: Score) -> ScoreValue {
    match xiangqi_search::mate_moves(score) {
        Some(moves) => ScoreValue::Mate(moves),
        None => ScoreValue::Cp(score),
    }
}

fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::King => "king",
        PieceKind::Advisor => "advisor",
        PieceKind::Elephant => "elephant",
        PieceKind::Horse => "horse",
        PieceKind::Chariot => "chariot",
        PieceKind::Cannon => "cannon",
        PieceKind::Soldier => "soldier",
    }
}

fn rule_name(reason: Reason) -> &'static str {
    match reason {
        Reason::Checkmate => "checkmate",
        Reason::Stalemate => "stalemate",
        Reason::PerpetualCheck => "perpetual check",
        Reason::PerpetualChase => "perpetual chase",
        Reason::Repetition => "repetition",
        Reason::MoveLimit => "60-move rule",
        Reason::InsufficientMaterial => "insufficient material",
    }
}

/// The result of a finished game, with a sentence naming what decided it (the chased piece of a perpetual chase).
pub fn game_end(r: &GameResult, pos: &Position) -> GameEnd {
    let loser = r.winner.map(|w| !w);
    let cycle = r.ruling.cycle;
    let detail = match (r.reason, loser) {
        (Reason::PerpetualCheck, Some(l)) => format!("{l} checked perpetually"),
        (Reason::PerpetualChase, Some(l)) => {
            let chased: Vec<String> = cycle
                .map(|c| {
                    c.chased[l.index()]
                        .into_iter()
                        .map(|sq| match pos.piece_at(sq) {
                            Some(p) => format!("the {} {} on {sq}", p.color, kind_name(p.kind)),
                            None => format!("the piece on {sq}"),
                        })
                        .collect()
                })
                .unwrap_or_default();
            format!("perpetual chase of {} by {l}", chased.join(" and "))
        }
        (Reason::Repetition, _) => "the position occurred for the third time, neither side to blame".to_owned(),
        // Mate, stalemate, the 60-move rule and bare material: the referee's own sentence.
        _ => r.detail(),
    };
    GameEnd { winner: r.winner.map(|c| c.to_string()), rule: rule_name(r.reason).to_owned(), detail }
}

/// The `state` answer for a replayed line.
pub fn state(replay: &Replay) -> State {
    let game = &replay.game;
    let pos = game.position();
    let mut legal: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if game.result().is_none() {
        for m in pos.legal_moves() {
            legal.entry(m.from().to_string()).or_default().push(m.to().to_string());
        }
    }
    State {
        fen: pos.fen(),
        turn: pos.turn().to_string(),
        legal,
        moves: notated_line(game.start(), game.moves()),
        check: pos.in_check().then(|| pos.king(pos.turn()).to_string()),
        last: game.moves().last().map(Move::to_string),
        result: game.result().map(|r| game_end(&r, pos)),
        unplayed: replay.unplayed,
        opening: opening_of(game.start(), game.moves()).map(|n| OpeningName {
            chinese: n.opening.chinese.to_owned(),
            english: n.opening.english.to_owned(),
            ply: n.ply,
        }),
    }
}

/// An `info` report of a search of `pos`.
pub fn info(pos: &Position, info: &xiangqi_search::Info<Move>) -> Info {
    let r = &info.result;
    let ms = info.elapsed.as_millis() as u64;
    let nps = info.nodes.saturating_mul(1000).checked_div(ms).unwrap_or(0);
    let lines = if r.lines.is_empty() {
        vec![PvLine { multipv: 1, score: score(r.score), pv: notated_line(pos, &r.pv) }]
    } else {
        r.lines
            .iter()
            .enumerate()
            .map(|(i, l)| PvLine { multipv: i + 1, score: score(l.score), pv: notated_line(pos, &l.pv) })
            .collect()
    };
    Info {
        depth: r.depth,
        seldepth: r.stats.seldepth,
        nodes: info.nodes,
        nps,
        time_ms: ms,
        hashfull: info.hashfull,
        lines,
    }
}

/// The `bestmove` of a finished search of `pos`.
pub fn bestmove(pos: &Position, r: &SearchResult<Move>) -> Bestmove {
    Bestmove {
        best: r.best_move.map(|m| notated(pos, m)),
        score: r.best_move.map(|_| score(r.score)),
        depth: r.depth,
        nodes: r.stats.nodes(),
        time_ms: r.stats.elapsed.as_millis() as u64,
        nps: r.stats.nps(),
        clamped: None,
    }
}

/// The `record` answer for a file read (at least one of whose games is readable).
pub fn record(file: &RecordFile) -> Record {
    let mut notation = None;
    let mut games = Vec::new();
    for game in &file.games {
        games.push(match game {
            Ok(g) => {
                notation = notation.or(g.notation);
                RecordGame::Game {
                    tags: g.tags.iter().map(|(n, v)| (n.clone(), v.clone())).collect(),
                    fen: g.start.fen(),
                    moves: g.moves.iter().map(|m| m.mv.to_string()).collect(),
                    result: g.result.clone(),
                    shapes: std::iter::once(&g.intro)
                        .chain(g.moves.iter().map(|m| &m.comments))
                        .map(|c| shapes_of(c).iter().map(ToString::to_string).collect::<Vec<_>>())
                        .enumerate()
                        .filter(|(_, s)| !s.is_empty())
                        .collect(),
                }
            }
            Err(e) => RecordGame::Error { error: e.to_string() },
        });
    }
    let notation = notation.map(|n| n.name().to_ascii_lowercase());
    Record { format: file.format.to_string(), notation, games }
}

/// The `review` answer for the evaluations of every position of a game.
pub fn review(start: &Position, moves: &[Move], evals: &[PositionEval]) -> Review {
    let losses = review::losses(moves, evals);
    let mut pos = start.clone();
    let mut rows = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        rows.push(ReviewMove {
            ply: i + 1,
            loss: losses[i],
            mark: review::mark(losses[i]).map(str::to_owned),
            best: evals[i].best.map(|b| notated(&pos, b)),
        });
        pos.make_move(mv);
    }
    let mut pos = start.clone();
    let mut scores = Vec::with_capacity(evals.len());
    for (i, e) in evals.iter().enumerate() {
        let red = if pos.turn() == Color::Red { e.score } else { -e.score };
        scores.push(score(red));
        if let Some(&mv) = moves.get(i) {
            pos.make_move(mv);
        }
    }
    Review { evals: scores, capped: evals.iter().map(|e| e.red).collect(), moves: rows, clamped: None }
}

/// What a search recorded, as the `watch` answer sends it.
#[derive(Debug, Clone, Copy)]
pub struct Counts {
    /// Nodes the search entered.
    pub searched: usize,
    /// Moves it cut off.
    pub pruned: usize,
    /// The search's own node count.
    pub nodes: u64,
}

/// The `watch` answer: the recorded tree (its first `max_nodes` nodes) and the search's counts; the root's value,
/// best move, depth and what was searched (`synthetic` or `fen`) are filled in by the caller.
pub fn watch<M: Copy>(
    spec: &VariantConfig,
    rec: &Recorder<M>,
    counts: Counts,
    max_nodes: usize,
    label: impl Fn(&M) -> String,
) -> Watch {
    let cut = rec.cut(max_nodes);
    let mut list = Vec::with_capacity(cut.len());
    let mut order = Vec::with_capacity(cut.len());
    for (i, n) in cut.nodes().iter().enumerate() {
        let edge = match &n.edge {
            Edge::Root => None,
            Edge::Move(m) => Some(label(m)),
            Edge::Null => Some("null".to_owned()),
            Edge::Again => Some("again".to_owned()),
        };
        let state = match &n.state {
            NodeState::Searched(v) => {
                order.push(i);
                WatchState::Searched {
                    pruned: false,
                    depth: v.depth,
                    alpha: v.alpha,
                    beta: v.beta,
                    value: v.value,
                    kind: v.kind.name().to_owned(),
                    exit: v.exit.map(|e| e.name().to_owned()),
                }
            }
            NodeState::Pruned(why) => {
                if *why != PruneReason::Beneath {
                    order.push(i);
                }
                WatchState::Pruned { pruned: true, reason: why.name().to_owned(), static_value: n.static_value }
            }
        };
        list.push(WatchNode { id: i, parent: n.parent, ply: n.ply, edge, omitted: n.omitted, state });
    }
    Watch {
        variant: spec.to_string(),
        depth: 0,
        value: 0,
        best: None,
        synthetic: None,
        fen: None,
        nodes: list,
        order,
        searched: counts.searched,
        pruned: counts.pruned,
        search_nodes: counts.nodes,
        total: rec.total(),
        sent: cut.len(),
    }
}

/// The `trace` answer for a recorded search: its tree (the first `max_nodes` nodes, as [`watch`]), its first
/// `max_steps` steps, the variant's pseudocode and why each move sent was pruned. Moves are written by `label`.
pub fn trace<M: Copy>(
    recording: &Recording<M>,
    max_nodes: usize,
    max_steps: usize,
    label: impl Fn(&M) -> String,
) -> Trace {
    let rec = &recording.recorder;
    let counts =
        Counts { searched: recording.searched, pruned: recording.pruned, nodes: recording.result.stats.nodes() };
    let tree = watch(&recording.variant, rec, counts, max_nodes, &label);
    let sent = tree.sent;
    let edge = |e: &Edge<M>| match e {
        Edge::Root => None,
        Edge::Move(m) => Some(label(m)),
        Edge::Null => Some("null".to_owned()),
        Edge::Again => Some("again".to_owned()),
    };
    let steps = rec
        .trace()
        .iter()
        .take(max_steps)
        .map(|t| {
            let s = &t.step;
            let mv = match (s.mv, s.label) {
                (Some(m), _) => Some(label(&m)),
                (None, Label::Null | Label::NullCutoff) => Some("null".to_owned()),
                (None, _) => None,
            };
            Step {
                label: s.label.name().to_owned(),
                node: t.node.filter(|&n| n < sent),
                ply: s.ply,
                depth: s.depth,
                alpha: s.alpha,
                beta: s.beta,
                value: s.value,
                best: s.best,
                mv,
                first: s.first_to_move,
            }
        })
        .collect();
    let listing = listing(&recording.variant)
        .functions
        .iter()
        .map(|f| CodeFunction {
            name: f.name.to_owned(),
            lines: f
                .lines
                .iter()
                .map(|l| CodeLine {
                    indent: l.indent,
                    text: l.text.to_owned(),
                    label: l.label.map(|x| x.name().to_owned()),
                })
                .collect(),
        })
        .collect();
    let mut prunes = Vec::new();
    for id in 0..sent {
        let Some(why) = rec.explain(id) else { continue };
        let text = rec.explain_text(id, &label, Sides::default()).unwrap_or_default();
        let name = |n: usize| rec.node_name(n, &label);
        let mut p = Prune {
            id,
            kind: String::new(),
            at: 0,
            at_name: String::new(),
            child: None,
            child_move: None,
            value: None,
            alpha: None,
            beta: None,
            first_to_move: None,
            lowered_beta: None,
            text,
        };
        match why {
            Explanation::Cutoff(c) => {
                p.kind = "cutoff".to_owned();
                (p.at, p.at_name) = (c.node, name(c.node));
                p.child = c.child;
                p.child_move = c.child.and_then(|ch| edge(&rec.nodes()[ch].edge));
                (p.value, p.alpha, p.beta) = (Some(c.value), Some(c.alpha), Some(c.beta));
                (p.first_to_move, p.lowered_beta) = (Some(c.first_to_move), Some(c.lowered_beta));
            }
            Explanation::Beneath { pruned } => {
                p.kind = "beneath".to_owned();
                (p.at, p.at_name) = (pruned, name(pruned));
            }
            Explanation::Futility { node } => {
                p.kind = "futility".to_owned();
                (p.at, p.at_name) = (node, name(node));
            }
        }
        prunes.push(p);
    }
    let best = recording.result.best_move.map(|m| label(&m));
    Trace {
        tree: Watch { depth: recording.depth, value: recording.result.score, best, ..tree },
        steps,
        steps_total: rec.trace().len() as u64 + rec.trace_dropped(),
        listing,
        prunes,
    }
}
