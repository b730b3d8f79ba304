//! # xiangqi-core: the rules of xiangqi
//!
//! Squares, pieces, bitboards, attack tables, and [`Position`] with make/unmake, an incremental zobrist key, check
//! detection and legality; FEN reading in two stages (syntax in [`Setup`], possibility in
//! [`Position::from_setup`]); moves in UCI coordinates (ranks 0-9) and ICCS, read and written, and in WXF
//! ([`Position::wxf`]), written; and the game-end rules (mate, stalemate, repetition, perpetual check and chase,
//! the 60-move rule) in [`Game`], which also replays and judges a whole game ([`Game::replay`]). With the default feature `records`, [`record`] reads and writes game records:
//! PGN in Chinese, WXF, ICCS or UCI notation (UTF-8 or GBK), and XQF. The trait that joins an evaluation to a search,
//! [`evaluation::Evaluator`], lives here too, so that `xiangqi-eval` and `xiangqi-search` share it without knowing
//! each other.
//!
//! Conventions follow Pikafish: files a-i from Red's left, ranks 0-9 from Red's side, square index
//! `rank * 9 + file`, uppercase Red in FEN.
//!
//! ```
//! use xiangqi_core::{Position, Square};
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 44);
//! pos.play("h2e2").unwrap();            // central cannon
//! pos.play("h9g7").unwrap();            // the horse defends
//! assert_eq!(pos.fen(), "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
//! assert!(pos.play("e2e5").is_err());   // a cannon cannot move through a piece
//! assert!(pos.play("e2e6").is_ok());    // ...but captures over exactly one screen
//! let e9: Square = "e9".parse().unwrap();
//! assert!(pos.piece_at(e9).is_some());
//! ```

pub mod attacks;
mod bitboard;
pub mod chase;
pub mod evaluation;
mod fen;
mod game;
mod moves;
mod position;
#[cfg(feature = "records")]
pub mod record;
pub mod rules;
mod see;
mod types;
mod wxf;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, Setup, START_FEN};
pub use game::{Game, GameResult, PlayError, Replay, ReplayMove};
pub use moves::{Move, MoveSyntaxError};
pub use position::{can_stand, piece_reach, Error, KingSafety, MoveError, Position, PositionError, Reach, Validation};
pub use see::{see_value, SEE_VALUES};
pub use types::{Color, File, ParseSquareError, Piece, PieceKind, Rank, Square};
