//! The incremental terms of the handcrafted evaluation, as plain data: what [`Handcrafted::psq`] computes from
//! scratch and an [`Accumulator`] keeps move by move.
//!
//! [`Handcrafted::psq`]: super::Handcrafted::psq
//! [`Accumulator`]: super::Accumulator

use crate::score::TaperedScore;

/// The incremental part of an evaluation: material and piece-square sums per side (index [`Color::index`]) and the
/// raw phase count (the sum of [`Weights::phase_weight`] over the pieces on the board).
///
/// [`Handcrafted::psq`](super::Handcrafted::psq) computes it from scratch; an [`Accumulator`](super::Accumulator)
/// keeps it up to date move by move. Both must agree.
///
/// [`Color::index`]: xiangqi_core::Color::index
/// [`Weights::phase_weight`]: crate::Weights::phase_weight
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PsqState {
    /// Base values of each side's pieces.
    pub material: [TaperedScore; 2],
    /// Piece-square bonuses of each side's pieces.
    pub pst: [TaperedScore; 2],
    /// Raw phase count of all pieces.
    pub phase: i32,
}

/// What an [`Accumulator`](super::Accumulator) keeps beside a [`PsqState`] for the positional terms: the attack counts (see
/// `Handcrafted::pressures`), the strength surplus (Red's [`Weights::attack_material`] sum minus Black's) and each
/// side's attack units ([`Weights::attack_unit`]) of its pieces across the river, and each side's pieces file by file
/// (`bits::FILE_MAJOR`).
///
/// [`Weights::attack_material`]: crate::Weights::attack_material
/// [`Weights::attack_unit`]: crate::Weights::attack_unit
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Extra {
    /// Red's strength minus Black's.
    pub(crate) surplus: i32,
    /// Attack units of each side's pieces across the river, `[color]`.
    pub(crate) units: [i32; 2],
    /// Each side's pieces, file-major, `[color]`.
    pub(crate) files: [[u64; 2]; 2],
}
