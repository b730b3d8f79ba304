//! # xiangqi-match: engine matches for xiangqi
//!
//! What cutechess and fastchess do for chess, as a library for xiangqi engines: start engine processes that speak
//! UCI (ranks 0-9, as Pikafish) or UCCI (as ElephantEye), play them against each other from a set of openings with
//! both colours, check every move and end every game by the rules of `xiangqi_core::rules`, adjudicate by score if
//! asked, and measure the difference in strength: Elo with its error bar, game by game and by colour-reversed pairs
//! (pentanomial), and the generalized SPRT as fastchess and fishtest compute it.
//!
//! - [`engine`]: an engine described as `key=value` words ([`EngineConfig`]) and a running process
//!   ([`EngineProcess`]): handshake, options, `go`, every wait with a deadline.
//! - [`clock`]: how long each engine may think ([`TimeControl`]), and the range of every time a match takes.
//! - [`adjudication`]: adjudication by score ([`ResignAdjudication`], [`DrawAdjudication`]) and its `key=value`
//!   words.
//! - [`runner`]: the settings of a match ([`MatchSettings`], adjudication), the schedule, and
//!   [`run`], which plays the games on `concurrency` workers and returns the totals ([`Summary`]).
//! - [`game`]: one finished game ([`PlayedGame`]) with how it ended ([`Termination`]) and its PGN record, written
//!   by `xiangqi_core::record`.
//! - [`openings`]: opening files, the built-in set, and per-pair variations for deterministic engines.
//! - [`elo`]: Elo arithmetic ([`Trinomial`], [`Pentanomial`]) and the SPRT ([`Sprt`]).
//! - [`report`]: a match's results as text and JSON, written once for `xiangqi match` and `xiangqi merge`.
//! - [`selfplay`]: training data from the engine's games against itself, and the data file it appends to.
//! - [`ablate`]: what each technique of a variant is worth, in nodes and Elo (`xiangqi ablate`).
//! - [`tactics`]: tactical test sets (positions with known best moves) and the engine's run over them.
//! - [`tune`]: the SPSA tuner of the search's parameters, in games (`xiangqi tune`).
//! - [`shard`]: a run cut into shards, their manifests, checks and merge (`--shard I --shards N`, `xiangqi merge`).
//!
//! Self-play is here, beside the matches, because it is games too: from the same openings, ended by the same rules,
//! cut into shards with the same manifests and merged by the same code. Its searches run in-process, on the
//! `xiangqi-search` engine; the data file's format is `xiangqi_eval::nnue::data`'s, which the trainer reads.
//!
//! Bad input is a typed error, one type per kind of input, whose message says what is wrong without naming any
//! program's flags: [`EngineConfigError`], [`SprtError`], [`ClockError`], [`SecondsError`], [`AdjudicationError`],
//! [`ParseNoBestMoveError`] and the
//! opening errors of [`openings`]. A running engine's failures are [`ProcessError`]s.
//! (The errors of [`shard`], [`selfplay`] and [`tune`] are messages that name the file or the shard, as `xiangqi`
//! prints them; a few still name the command's flag.)
//!
//! Results are typed values: a game ends by a [`Termination`] (a rule of the game, an engine's fault, a draw claim,
//! an adjudication), its winner is an `Option<Color>`, and the summary counts games by termination. An engine's
//! UCCI `nobestmove` in a position with legal moves is ElephantEye's claim that its own rules draw the position:
//! it ends the game as [`Termination::DrawClaim`], a draw by default ([`NoBestMove`] chooses).
//!
//! The statistics need no engine. Sixty wins, eighty draws and forty losses are +38.8 ± 38.0 Elo, and an SPRT of
//! H0 `elo0 = 0` against H1 `elo1 = 5` has not decided yet:
//!
//! ```
//! use xiangqi_match::{elo::format_elo, Pentanomial, Sprt, SprtState, Trinomial};
//!
//! let games = Trinomial { wins: 60, draws: 80, losses: 40 };
//! let (elo, error) = games.elo();
//! assert_eq!(format_elo(elo, error), "+38.8 ± 38.0");
//!
//! // The same kind of figure from colour-reversed pairs, counted by the pair's score 0, ½, 1, 1½, 2.
//! let mut pairs = Pentanomial::default();
//! for (first, second) in [(1.0, 0.5), (0.5, 0.5), (1.0, 0.0), (0.0, 0.5), (1.0, 1.0)] {
//!     pairs.add(first, second);
//! }
//! assert_eq!(pairs.counts, [0, 1, 2, 1, 1]);
//!
//! let sprt = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
//! let llr = pairs.llr(sprt.elo0, sprt.elo1);
//! assert!(llr.abs() < 0.1);
//! assert_eq!(sprt.state(llr), SprtState::Continue);
//! let (lower, upper) = sprt.bounds();
//! assert!((upper - 2.944).abs() < 1e-3 && (lower + upper).abs() < 1e-12);
//! ```
//!
//! A match is a [`MatchSettings`] and a call to [`run`] (here two engines named by the command that starts them;
//! each finished game comes to the closure with the totals so far):
//!
//! ```no_run
//! use xiangqi_match::{run, EngineConfig, MatchSettings, NoBestMove, TimeControl};
//!
//! let words = |w: &str| w.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
//! let ours = EngineConfig::parse(&words("cmd=xiangqi name=ours")).unwrap();
//! let theirs = EngineConfig::parse(&words("cmd=eleeye name=eleeye proto=ucci")).unwrap();
//! let mut settings = MatchSettings::new(vec![ours, theirs], TimeControl::Nodes(20_000));
//! settings.games = 48;
//! settings.concurrency = 2;
//! settings.nobestmove = NoBestMove::Draw;
//! let summary = run(&settings, |game, _totals| print!("{}", game.pgn("example")));
//! let (elo, error) = summary.pairs.elo();
//! println!("{} games, {elo:+.1} ± {error:.1} Elo, {} draw claims", summary.first.games(), summary.draw_claims);
//! ```

pub mod ablate;
pub mod adjudication;
pub mod clock;
pub mod elo;
pub mod engine;
pub mod game;
pub mod openings;
pub mod report;
pub mod runner;
pub mod selfplay;
pub mod shard;
pub mod tactics;
pub mod tune;

pub use adjudication::{AdjudicationError, DrawAdjudication, ResignAdjudication};
pub use clock::{ClockError, SecondsError, TimeControl, CLOCK_FORM};
pub use elo::{Pentanomial, Sprt, SprtError, SprtState, Trinomial};
pub use engine::{BestMove, EngineConfig, EngineConfigError, EngineProcess, ProcessError, Protocol};
pub use game::{PlayedGame, Termination};
pub use openings::Opening;
pub use runner::{run, run_range, MatchSettings, NoBestMove, SprtDecision, Standing};
pub use runner::{ParseNoBestMoveError, Summary};
