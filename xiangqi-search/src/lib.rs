//! # xiangqi-search: the search techniques as composable node policies
//!
//! The spec's techniques (the course texts in `shared/spec/`), minimax and alpha-beta (two-sided, fail-soft and
//! fail-hard), negamax (with and without alpha-beta, fail-soft and fail-hard), null-move pruning, principal
//! variation search and quiescence, are each a small policy type ([`policy`]). A variant is a type composed of one
//! policy per slot ([`Compose`]), and the node function is generic over it: a technique that is off costs nothing
//! at run time. The playing engine's techniques (the transposition table, the game's rules, extensions, pruning and
//! reductions at the negamax node's hooks, aspiration windows and time management at the root, quiescence pruning in
//! quiescence, the verified null move in the null-move slot, the histories of move ordering) live one file each in
//! [`techniques`], with their parameters and sources (the table there lists them, checked against the registry by a
//! test), and are compiled in with [`SwitchedAdditions`]. The history tables they read and how each learns are one
//! module, [`history`] (as Stockfish's `history.h`); the orderings ([`ordering`]) key moves from them.
//!
//! One list, the registry ([`techniques::TECHNIQUES`]), names every technique: its name in a variant string, what
//! it needs, whether the engine has it, its statistics counters, its tunable parameters. A variant chosen at run time is a
//! [`VariantConfig`] parsed from text (e.g. `negamax-ab+pvs+qs`, `pvs+tt`, `engine+no-lmr`), checked against the
//! registry; it runs any combination, on compositions of the `Dynamic` policies that read it at run time and visit
//! the same nodes. Named presets ([`Minimax`], [`AlphaBeta`], [`Pvs`], ..., [`EnginePreset`]) are fixed compositions.
//!
//! A search can be watched by an [`Observer`] (a type parameter of the searcher; [`Silent`] for ordinary searches,
//! which compiles every report away): node by node, and line by line, each node function reporting the labelled
//! line of the algorithm's pseudocode it has just executed ([`Step`], [`Label`]). [`record`] keeps both, with the
//! pseudocode of each variant and an explanation of every pruned move: what `xiangqi tree --trace` prints and the
//! page steps through.
//!
//! Policies see the search through a small trait ([`policy::Search`]). The algorithms are generic over a game
//! ([`GameTree`], plus the optional speed hooks of [`FastPaths`]) and an [`Evaluator`] (the trait lives in
//! `xiangqi-core`, so that `xiangqi-eval` implements it without knowing this crate). `xiangqi_core::Position` is a
//! game; so is the [`synthetic::Tree`], where tests know exactly which leaves must be visited. The search never names
//! a concrete evaluator: it is given one, or a function that builds one per thread.
//!
//! The playing engine in a few lines: [`SearchEngine`] holds the [`EnginePreset`] composition, the transposition table,
//! the Lazy SMP threads, the move-ordering memory of a game, the evaluator's source, the options ([`options`]) and
//! the techniques' tunable numbers ([`params`]: the compiled defaults, or a parameter file), with time management from a [`Clock`]; `xiangqi-eval` gives the evaluators (handcrafted or neural, incremental,
//! cached). [`SearchEngine::go`] returns a [`SearchHandle`] at once: reports as the search deepens, a stop from any
//! thread, the result.
//!
//! ```
//! use std::time::Duration;
//! use xiangqi_core::Position;
//! use xiangqi_eval::EvalChoice;
//! use xiangqi_search::{GoMode, Limits, SearchEngine};
//!
//! let mut engine = SearchEngine::new(EvalChoice::Handcrafted).unwrap(); // or EvalChoice::load("net.nnue".as_ref())?
//! let pos = Position::from_fen("4k4/9/9/9/5r3/9/9/9/9/3K1R3 w").unwrap();
//! let search = engine.go(&pos, Limits::default(), GoMode { infinite: true, ponder: false }); // returns at once
//! let stopper = search.stopper(); // Send + Sync: a stop from another thread or task
//! std::thread::spawn(move || { std::thread::sleep(Duration::from_millis(200)); stopper.stop() });
//! for info in search.reports() { assert!(info.result.depth >= 1) } // one per iteration (`try_report` polls)
//! let r = search.wait();
//! assert_eq!(r.best_move.unwrap().to_string(), "f0f5"); // the chariot takes the undefended chariot
//! ```
//!
//! The textbook algorithms, each alone, compared on the same tree with a material-only evaluator:
//!
//! ```
//! use xiangqi_core::{PieceKind, Position};
//! use xiangqi_search::{Evaluator, Limits, Score, Searcher, AlphaBeta, Minimax, NegamaxAb};
//!
//! /// Material only, for the side to move.
//! struct Material;
//! impl Evaluator<Position> for Material {
//!     fn evaluate(&mut self, pos: &Position) -> Score {
//!         let value = |k| match k { PieceKind::Chariot => 900, PieceKind::Cannon => 450, PieceKind::Horse => 400,
//!                                   PieceKind::King => 0, PieceKind::Soldier => 100, _ => 200 };
//!         let us = pos.turn();
//!         PieceKind::ALL.iter().map(|&k| value(k) * (pos.pieces(us, k).count() as i32
//!             - pos.pieces(!us, k).count() as i32)).sum()
//!     }
//! }
//!
//! let pos = Position::from_fen("4k4/9/9/9/5r3/9/9/9/9/3K1R3 w").unwrap();
//! let minimax = Searcher::<_, _, Minimax>::new(pos.clone(), Material).search(&Limits::depth(3));
//! let ab = Searcher::<_, _, AlphaBeta>::new(pos.clone(), Material).search(&Limits::depth(3));
//! let nab = Searcher::<_, _, NegamaxAb>::new(pos, Material).search(&Limits::depth(3));
//! assert_eq!(minimax.score, ab.score);
//! assert_eq!(ab.score, nab.score);
//! assert!(ab.stats.main_nodes < minimax.stats.main_nodes);
//! assert_eq!(ab.best_move.unwrap().to_string(), "f0f5"); // the chariot takes the undefended chariot
//! ```

pub mod bench;
mod config;
mod engine;
pub mod fixed_depth;
mod game;
mod handle;
pub mod history;
mod limits;
mod memory;
pub mod movepick;
mod node;
pub mod options;
pub mod ordering;
pub mod params;
pub mod picker;
pub mod policy;
pub mod record;
pub mod registry;
pub mod review;
mod run;
mod searcher;
pub mod skill;
mod smp;
mod stack;
mod stats;
pub mod synthetic;
pub mod techniques;
#[cfg(test)]
mod test_eval;
pub mod tt;
mod variants;
mod xiangqi;

pub use config::{FormKind, VariantConfig};
pub use engine::{EngineError, SearchEngine, DEFAULT_HASH_MB};
pub use game::{
    mate_moves, mated_in, Evaluator, FastPaths, GameTree, GenType, MoveBuf, Rule, Score, SimpleGame, INFINITY, MATE,
    MATE_BOUND, MAX_PLY,
};
pub use handle::{GoMode, Info, Listener, SearchHandle, Stopper};
pub use history::Histories;
pub use limits::{Clock, Limits, Signals, MAX_DEPTH};
pub use memory::SearchMemory;
pub use options::ENGINE_VARIANT;
pub use params::{Param, ParamError, Params};
pub use policy::{
    Additions, Exit, Label, NoAdditions, Node, NodeEval, NodeKind, Observer, Silent, Step, SwitchedAdditions,
};
pub use policy::{
    AlphaBetaForm, AlphaBetaHardForm, ChildNode, ChildPolicy, Compose, Form, FullWindow, GenerationOrder, LeafPolicy,
    MinimaxForm, MovePicker, NegamaxAbHardForm, NegamaxAbSoftForm, NegamaxForm, NoNull, NullMove, NullPolicy,
    OrderPolicy, Ordered, PrincipalVariation, Quiescence, StaticLeaf, Variant,
};
pub use policy::{DynamicChild, DynamicForm, DynamicLeaf, DynamicNull, DynamicOrder, DynamicOrderState};
pub use run::RunSetup;
pub use searcher::Searcher;
pub use smp::{search_smp, search_smp_with, SearchPool, SEARCH_STACK};
pub use stats::{Line, SearchResult, Stats};
pub use techniques::late_move_reductions::{lmr_reduction, lmr_reduction_with, LmrTable};
pub use techniques::verified_null::{ChosenNull, VerifiedNullMove};
pub use tt::{TableAllocError, TranspositionTable};
pub use variants::{available, parts, VariantError, VariantSpec, PRESETS};
pub use xiangqi_core::evaluation::EvalSource;

/// Two-sided minimax.
pub type Minimax = Compose<MinimaxForm>;
/// Two-sided alpha-beta.
pub type AlphaBeta = Compose<AlphaBetaForm>;
/// Two-sided alpha-beta, fail-hard (the CS557 best/worst routines).
pub type AlphaBetaHard = Compose<AlphaBetaHardForm>;
/// Negamax without pruning.
pub type Negamax = Compose<NegamaxForm>;
/// Negamax alpha-beta, fail-soft.
pub type NegamaxAb = Compose<NegamaxAbSoftForm>;
/// Negamax alpha-beta, fail-hard.
pub type NegamaxAbHard = Compose<NegamaxAbHardForm>;
/// Alpha-beta with principal variation search.
pub type Pvs = Compose<NegamaxAbSoftForm, StaticLeaf, NoNull, PrincipalVariation>;
/// Alpha-beta with null-move pruning, R = 3.
pub type Nmp = Compose<NegamaxAbSoftForm, StaticLeaf, NullMove<3>>;
/// Alpha-beta with quiescence search.
pub type Qs = Compose<NegamaxAbSoftForm, Quiescence>;
/// PVS, null move and quiescence together.
pub type PvsNmpQs = Compose<NegamaxAbSoftForm, Quiescence, NullMove<3>, PrincipalVariation>;
/// The `engine` preset as a fixed composition (what the playing engine, [`SearchEngine`], runs): PVS, verified
/// null move, quiescence, ordering and the engine's additions.
pub type EnginePreset =
    Compose<NegamaxAbSoftForm, Quiescence, VerifiedNullMove, PrincipalVariation, Ordered, SwitchedAdditions>;
