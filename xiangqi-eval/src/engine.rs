//! The engine's evaluation: the handcrafted evaluator or a neural network, chosen once ([`EvalChoice`]), kept
//! incremental along the search's line and cached ([`EngineEval`]), behind the search's
//! [`xiangqi_core::evaluation::Evaluator`].

use crate::nnue::{LoadError, Network, NnueStack};
use crate::{Accumulator, EvalCache, Evaluate, Handcrafted};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use xiangqi_core::evaluation::Evaluator;
use xiangqi_core::{Move, Position};

/// The network built into the library (`networks/default.nnue`): trained by this workspace's own pipeline on its
/// own self-play games (`networks/README.md` gives the commands, the data and the match that made it the default).
pub const EMBEDDED_NETWORK: &[u8] = include_bytes!("../networks/default.nnue");

/// The name by which the UCI option `EvalFile` calls the built-in network.
pub const EMBEDDED_NAME: &str = "<embedded>";

/// The built-in network ([`EMBEDDED_NETWORK`]), read once and shared.
///
/// ```
/// let net = xiangqi_eval::embedded_network();
/// assert_eq!(net.hidden(), 256);
/// ```
pub fn embedded_network() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    // A test reads the same bytes, so this cannot fail in a build whose tests pass.
    NET.get_or_init(|| Arc::new(Network::from_bytes(EMBEDDED_NETWORK).expect("the built-in network is valid"))).clone()
}

/// Which evaluation a search uses: the handcrafted evaluator, or a neural network (shared by all threads).
///
/// The choice is made once per search: [`EngineEval`] matches on it in each call, a branch that always goes the
/// same way, and every call inside is static.
///
/// ```
/// use std::sync::Arc;
/// use xiangqi_core::Position;
/// use xiangqi_eval::nnue::Network;
/// use xiangqi_eval::EvalChoice;
///
/// let pos = Position::startpos();
/// assert_eq!(EvalChoice::Handcrafted.describe(), "handcrafted");
/// let net = EvalChoice::Nnue(Arc::new(Network::random(32, 7)));
/// assert!(net.describe().starts_with("nnue (hidden 32"));
/// assert!(net.evaluate(&pos).abs() <= xiangqi_eval::EVAL_MAX);
/// assert!(EvalChoice::load("no/such/file.nnue".as_ref()).is_err());
/// ```
#[derive(Debug, Clone)]
pub enum EvalChoice {
    /// The handcrafted evaluator ([`Handcrafted`]).
    Handcrafted,
    /// A neural network ([`Network`]).
    Nnue(Arc<Network>),
}

impl EvalChoice {
    /// What the engine plays with when nothing else is asked for: the built-in network
    /// ([`embedded_network`]).
    pub fn engine_default() -> EvalChoice {
        EvalChoice::Nnue(embedded_network())
    }

    /// A network read from `path`.
    pub fn load(path: &Path) -> Result<EvalChoice, LoadError> {
        Ok(EvalChoice::Nnue(Arc::new(Network::load(path)?)))
    }

    /// `handcrafted`, or `nnue` with the network's hidden size and hash.
    pub fn describe(&self) -> String {
        match self {
            EvalChoice::Handcrafted => "handcrafted".to_owned(),
            EvalChoice::Nnue(net) => format!("nnue (hidden {}, hash {:016x})", net.hidden(), net.hash()),
        }
    }

    /// The static evaluation of `pos` for the side to move, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            EvalChoice::Handcrafted => Handcrafted::default().evaluate(pos),
            EvalChoice::Nnue(net) => net.evaluate(pos),
        }
    }

    /// An [`EngineEval`] of this choice with its incremental state set to `pos`, ready for a search of `pos`.
    pub fn for_search(&self, pos: &Position) -> EngineEval {
        EngineEval::with(self, pos)
    }
}

/// The state of the evaluation in use. The handcrafted accumulator stays inline: the search's hottest path is not
/// given a pointer to follow.
#[allow(clippy::large_enum_variant)]
enum State {
    Handcrafted { eval: Handcrafted, acc: Accumulator },
    Nnue { net: Arc<Network>, stack: NnueStack },
}

/// The engine's evaluator (handcrafted or neural, see [`EvalChoice`]) as a search sees it: its incremental state
/// (the handcrafted [`Accumulator`], or the network's accumulators) kept in step by the search's make/unmake hooks,
/// full evaluations remembered in an [`EvalCache`], and the handcrafted evaluator's lazy bound in quiescence. The
/// cache only saves time: every value it returns is the one the evaluator would compute, so searches visit the same
/// nodes with or without it.
///
/// ```
/// use xiangqi_core::evaluation::Evaluator;
/// use xiangqi_core::Position;
/// use xiangqi_eval::{EngineEval, EvalChoice, Evaluate, Handcrafted};
///
/// let mut pos = Position::startpos();
/// let mut eval = EngineEval::with(&EvalChoice::Handcrafted, &pos);
/// let m = pos.parse_move("h2e2").unwrap();
/// eval.on_make(&pos, m); // as a search does, before the move
/// pos.make_move(m);
/// assert_eq!(eval.evaluate(&pos), Handcrafted::default().evaluate(&pos));
/// ```
pub struct EngineEval {
    state: State,
    cache: EvalCache,
}

impl std::fmt::Debug for EngineEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.state {
            State::Handcrafted { .. } => "handcrafted",
            State::Nnue { .. } => "nnue",
        };
        f.debug_struct("EngineEval").field("kind", &kind).finish_non_exhaustive()
    }
}

impl EngineEval {
    /// The engine's default evaluator ([`EvalChoice::engine_default`]: the built-in network), set to `pos`.
    pub fn new(pos: &Position) -> EngineEval {
        EngineEval::with(&EvalChoice::engine_default(), pos)
    }

    /// The handcrafted evaluator, its accumulator set to `pos`.
    pub fn handcrafted(pos: &Position) -> EngineEval {
        EngineEval::with(&EvalChoice::Handcrafted, pos)
    }

    /// The evaluator `choice` names, its incremental state set to `pos`.
    pub fn with(choice: &EvalChoice, pos: &Position) -> EngineEval {
        let state = match choice {
            EvalChoice::Handcrafted => {
                let eval = Handcrafted::default();
                let acc = Accumulator::new(&eval, pos);
                State::Handcrafted { eval, acc }
            }
            EvalChoice::Nnue(net) => State::Nnue { net: net.clone(), stack: NnueStack::new(net, pos) },
        };
        EngineEval { state, cache: EvalCache::default() }
    }

    /// The full evaluation, from the cache when the position was met before.
    #[inline(always)]
    fn full(&mut self, pos: &Position) -> i32 {
        let key = pos.key();
        if let Some(v) = self.cache.probe(key) {
            return v;
        }
        let v = match &mut self.state {
            State::Handcrafted { eval, acc } => eval.evaluate_with(pos, acc),
            State::Nnue { net, stack } => stack.evaluate(net, pos),
        };
        self.cache.store(key, v);
        v
    }
}

impl Evaluator for EngineEval {
    #[inline(always)]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        self.full(pos)
    }

    #[inline(always)]
    fn evaluate_in_window(&mut self, pos: &Position, alpha: i32, beta: i32) -> i32 {
        if let State::Handcrafted { eval, acc } = &self.state {
            if let Some(bound) = eval.lazy_bound(pos, acc, alpha, beta) {
                return bound;
            }
        }
        self.full(pos)
    }

    #[inline(always)]
    fn on_make(&mut self, pos: &Position, m: Move) {
        match &mut self.state {
            State::Handcrafted { eval, acc } => acc.make(eval, pos, m),
            State::Nnue { stack, .. } => stack.make(pos, m),
        }
    }

    #[inline(always)]
    fn on_unmake(&mut self) {
        match &mut self.state {
            State::Handcrafted { acc, .. } => acc.unmake(),
            State::Nnue { stack, .. } => stack.unmake(),
        }
    }
}
