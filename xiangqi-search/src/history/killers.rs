//! The killer moves of a ply.

/// The two killer moves of a ply (Stockfish's `Stack::killers`): the last two quiet moves that caused a cutoff at
/// that ply, the latest first, as packed moves ([`crate::GameTree::encode_move`]; 0 for none). They belong to the
/// plies of one line, not to the game: the searcher's stack holds them, one pair per ply.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Killers([u16; 2]);

impl Killers {
    /// No killer yet.
    pub const NONE: Killers = Killers([0; 2]);

    /// The two killers, the latest first (0 for none).
    #[inline(always)]
    pub fn moves(self) -> [u16; 2] {
        self.0
    }

    /// Learns that the quiet move `code` caused a cutoff: it becomes the first killer, the first the second (a
    /// move already first stays alone there).
    #[inline(always)]
    pub fn push(&mut self, code: u16) {
        if self.0[0] != code {
            self.0[1] = self.0[0];
            self.0[0] = code;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Killers;

    #[test]
    fn the_latest_killer_comes_first_and_none_repeats() {
        let mut k = Killers::NONE;
        k.push(7);
        assert_eq!(k.moves(), [7, 0]);
        k.push(7);
        assert_eq!(k.moves(), [7, 0]);
        k.push(9);
        assert_eq!(k.moves(), [9, 7]);
        k.push(11);
        assert_eq!(k.moves(), [11, 9]);
    }
}
