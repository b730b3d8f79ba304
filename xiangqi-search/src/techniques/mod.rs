//! The playing engine's techniques, one file each, with their parameters beside them. Each is a type whose
//! functions the negamax node (`node.rs`) calls at one of its hook points; the node calls them only when the
//! variant has the engine's additions ([`crate::Extras::ENABLED`], a constant: for the spec's variants the calls
//! fold away) and the technique is switched on ([`crate::SearchOptions`]). The spec's techniques (the forms, null
//! move, PVS, quiescence, ordering) are policies of their own in [`crate::policy`].
//!
//! | technique | file | hook | what it does | where it comes from |
//! | --- | --- | --- | --- | --- |
//! | transposition table | `table.rs` | probe, store | answers a node searched before to enough depth, and gives its best move first | Greenblatt (1967); Stockfish's `tt.cpp` |
//! | the game's rules | `rules.rs` | probe | repetition, perpetual check and chase, the move limit decide or bound the node | the Asian rules (`xiangqi_core::rules`) |
//! | check extension | `check_extension.rs` | extend | a node in check is searched one ply deeper | Stockfish, Pikafish |
//! | reverse futility | `reverse_futility.rs` | prune before the moves | a zero-window node whose static evaluation beats beta by a margin returns it | Heinz's "static null move"; Stockfish |
//! | razoring | `razoring.rs` | prune before the moves | a node far below alpha near the horizon drops into quiescence | Birmingham and Kent (1977); Stockfish |
//! | verified null move | [`crate::VerifiedNullMove`] | prune before the moves | the null move with an adaptive reduction, verified deep down | Tabibi and Netanyahu (2002) |
//! | futility and late move pruning | `futility.rs` | skip a move | quiet moves that cannot raise alpha, and late quiet moves, are not searched | Heinz (1998); Stockfish's move-count pruning |
//! | late move reductions | `late_move_reductions.rs` | reduce | late quiet moves are searched shallower first | Stockfish's logarithmic formula |
//! | aspiration windows | `aspiration.rs` | root | each iteration starts in a window around the last score | Stockfish |
//! | quiescence pruning | `qs_pruning.rs` | quiescence | captures that lose material are not searched | Stockfish's SEE pruning in qsearch |

pub mod aspiration;
pub mod check_extension;
pub mod futility;
pub mod late_move_reductions;
pub mod qs_pruning;
pub mod razoring;
pub mod reverse_futility;
pub mod rules;
pub mod table;
