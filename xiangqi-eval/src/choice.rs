//! The choice of an evaluation and the evaluator it builds: the handcrafted evaluator or a neural network, chosen
//! once ([`EvalChoice`], or by a playing engine's options, [`EvalSettings`]), then kept incremental along the
//! search's line and cached ([`ChosenEval`]), behind the search's [`xiangqi_core::evaluation::Evaluator`].

use crate::nnue::{LoadError, Network, NnueStack};
use crate::{Accumulator, EvalCache, Evaluate, Handcrafted};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use xiangqi_core::evaluation::{EvalSource, Evaluator, OptionDecl, OptionKind, OptionValue};
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
/// The choice is made once per search: [`ChosenEval`] matches on it in each call, a branch that always goes the
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

    /// An [`ChosenEval`] of this choice with its incremental state set to `pos`, ready for a search of `pos`.
    pub fn for_search(&self, pos: &Position) -> ChosenEval {
        ChosenEval::with(self, pos)
    }
}

/// `EvalChoice` as an engine's source of evaluators, without options.
impl EvalSource for EvalChoice {
    type Eval = ChosenEval;

    fn for_search(&self, pos: &Position) -> ChosenEval {
        ChosenEval::with(self, pos)
    }

    fn describe(&self) -> String {
        EvalChoice::describe(self)
    }
}

/// The evaluator options of a playing engine, `Use NNUE` and `EvalFile` (the network, kept while `Use NNUE` is off).
pub const EVAL_OPTIONS: [OptionDecl; 2] = [
    OptionDecl {
        name: "Use NNUE",
        ucci: None,
        kind: OptionKind::Check { default: true },
        doc: "Search with the network (on) or the handcrafted evaluator (off).",
    },
    OptionDecl {
        name: "EvalFile",
        ucci: None,
        kind: OptionKind::Text { default: EMBEDDED_NAME },
        doc: "The network file (<embedded>: the built-in network).",
    },
];

/// The evaluator a playing engine's options choose ([`EVAL_OPTIONS`]): the network of `EvalFile` when `Use NNUE`
/// is on (the default, with the built-in network), else the handcrafted evaluator.
///
/// ```
/// use xiangqi_core::evaluation::{EvalSource, OptionValue};
/// use xiangqi_eval::{EvalChoice, EvalSettings};
///
/// let mut eval = EvalSettings::default();
/// assert!(matches!(eval.choice(), EvalChoice::Nnue(_)));
/// eval.set_option("Use NNUE", &OptionValue::Check(false)).unwrap();
/// assert_eq!(eval.describe(), "handcrafted");
/// assert!(eval.set_option("EvalFile", &OptionValue::Text("no/such.nnue".into())).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct EvalSettings {
    /// Option `Use NNUE`.
    pub use_nnue: bool,
    /// Option `EvalFile`: the file's name as given, and its network.
    pub network: (String, Arc<Network>),
}

impl Default for EvalSettings {
    fn default() -> EvalSettings {
        EvalSettings { use_nnue: true, network: (EMBEDDED_NAME.to_owned(), embedded_network()) }
    }
}

impl From<EvalChoice> for EvalSettings {
    fn from(choice: EvalChoice) -> EvalSettings {
        match choice {
            EvalChoice::Handcrafted => EvalSettings { use_nnue: false, ..EvalSettings::default() },
            EvalChoice::Nnue(net) => EvalSettings { use_nnue: true, network: ("<given>".to_owned(), net) },
        }
    }
}

impl EvalSettings {
    /// The evaluator in use.
    pub fn choice(&self) -> EvalChoice {
        if self.use_nnue {
            EvalChoice::Nnue(self.network.1.clone())
        } else {
            EvalChoice::Handcrafted
        }
    }
}

impl EvalSource for EvalSettings {
    type Eval = ChosenEval;

    fn for_search(&self, pos: &Position) -> ChosenEval {
        ChosenEval::with(&self.choice(), pos)
    }

    fn options(&self) -> &'static [OptionDecl] {
        &EVAL_OPTIONS
    }

    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<Option<String>, String> {
        match (name, value) {
            ("Use NNUE", OptionValue::Check(on)) => self.use_nnue = *on,
            ("EvalFile", OptionValue::Text(name)) if name == EMBEDDED_NAME => {
                self.network = (EMBEDDED_NAME.to_owned(), embedded_network());
                return Ok(Some("the built-in network is loaded".to_owned()));
            }
            ("EvalFile", OptionValue::Text(path)) => {
                let net = Network::load(Path::new(path)).map_err(|e| format!("{e}; the evaluator is unchanged"))?;
                let shown: String = path.chars().take(200).collect();
                let cut = if shown.len() < path.len() { "..." } else { "" };
                let said = format!("loaded network {shown}{cut} (hidden {}, hash {:016x})", net.hidden(), net.hash());
                self.network = (path.clone(), Arc::new(net));
                return Ok(Some(said));
            }
            _ => return Err(format!("unknown option {name:?}")),
        }
        Ok(None)
    }

    fn describe(&self) -> String {
        self.choice().describe()
    }
}

/// The state of the evaluation in use. The handcrafted accumulator stays inline: the search's hottest path is not
/// given a pointer to follow.
#[allow(clippy::large_enum_variant)]
enum State {
    Handcrafted { eval: Handcrafted, acc: Accumulator },
    Nnue { net: Arc<Network>, stack: NnueStack },
}

/// The evaluator an [`EvalChoice`] names (handcrafted or neural) as a search sees it: its incremental state
/// (the handcrafted [`Accumulator`], or the network's accumulators) kept in step by the search's make/unmake hooks,
/// full evaluations remembered in an [`EvalCache`], and the handcrafted evaluator's lazy bound in quiescence. The
/// cache only saves time: every value it returns is the one the evaluator would compute, so searches visit the same
/// nodes with or without it.
///
/// ```
/// use xiangqi_core::evaluation::{EvalSource, Evaluator, OptionDecl, OptionKind, OptionValue};
/// use xiangqi_core::Position;
/// use xiangqi_eval::{ChosenEval, EvalChoice, Evaluate, Handcrafted};
///
/// let mut pos = Position::startpos();
/// let mut eval = ChosenEval::with(&EvalChoice::Handcrafted, &pos);
/// let m = pos.parse_move("h2e2").unwrap();
/// eval.on_make(&pos, m); // as a search does, before the move
/// pos.make_move(m);
/// assert_eq!(eval.evaluate(&pos), Handcrafted::default().evaluate(&pos));
/// ```
pub struct ChosenEval {
    state: State,
    cache: EvalCache,
}

impl std::fmt::Debug for ChosenEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.state {
            State::Handcrafted { .. } => "handcrafted",
            State::Nnue { .. } => "nnue",
        };
        f.debug_struct("ChosenEval").field("kind", &kind).finish_non_exhaustive()
    }
}

impl ChosenEval {
    /// The engine's default evaluator ([`EvalChoice::engine_default`]: the built-in network), set to `pos`.
    pub fn new(pos: &Position) -> ChosenEval {
        ChosenEval::with(&EvalChoice::engine_default(), pos)
    }

    /// The handcrafted evaluator, its accumulator set to `pos`.
    pub fn handcrafted(pos: &Position) -> ChosenEval {
        ChosenEval::with(&EvalChoice::Handcrafted, pos)
    }

    /// The evaluator `choice` names, its incremental state set to `pos`.
    pub fn with(choice: &EvalChoice, pos: &Position) -> ChosenEval {
        let state = match choice {
            EvalChoice::Handcrafted => {
                let eval = Handcrafted::default();
                let acc = Accumulator::new(&eval, pos);
                State::Handcrafted { eval, acc }
            }
            EvalChoice::Nnue(net) => State::Nnue { net: net.clone(), stack: NnueStack::new(net, pos) },
        };
        ChosenEval { state, cache: EvalCache::default() }
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

impl Evaluator for ChosenEval {
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
