//! Capture history.

use crate::registry::{Forms, Group, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]).
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "caphist",
    aliases: &["capture-history"],
    summary: "capture history: captures that caused cutoffs before are tried first among equals",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("order"),
    in_engine: false,
    counters: &[],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(15);

/// Capture history: a table indexed by the moving piece, its destination and the captured piece's kind, raised
/// (with gravity, as the quiet history) when a capture causes a cutoff and lowered for the captures searched before
/// it that did not (the table and how it learns: [`crate::history::CaptureHistory`]). The ordering keys each capture that does not lose material by MVV-LVA first, and within a
/// margin of [`CaptureHistory::SPAN`] steps of it by its history, so a capture that keeps working is tried before
/// one of a slightly larger victim. Conditions: the ordering (`order`). Hooks: the ordering's keys
/// ([`crate::Ordered`]) and the node's cutoff. Source: Stockfish's `CapturePieceToHistory` (`history.h`), which
/// keys captures by `captureHistory + 7 * PieceValue[captured]`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CaptureHistory;

impl CaptureHistory {
    /// How much history one MVV-LVA step of the ordering is worth (history scores reach
    /// [`crate::history::Scale::HISTORY_MAX`]).
    pub const STEP: i32 = 1 << 14;
    /// How many MVV-LVA steps the history can move a capture, either way.
    pub const SPAN: i32 = 1;

    /// The ordering key of a good capture with MVV-LVA key `mvv_lva` and capture history `history`, from `base`.
    #[inline(always)]
    pub fn key(base: i32, mvv_lva: i32, history: i32) -> i32 {
        let shift = (history / 64).clamp(-Self::SPAN * Self::STEP + 1, Self::SPAN * Self::STEP - 1);
        base + (mvv_lva + Self::SPAN) * Self::STEP + shift
    }
}
