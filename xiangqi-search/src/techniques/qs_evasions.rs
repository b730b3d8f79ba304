//! Quiescence evasions: a quiescence node in check searches every evasion instead of standing pat.

use crate::policy::{Additions, Search, Variant};
use crate::registry::{Counter, Forms, Group, Technique, TechniqueId};

/// Its entry in the registry ([`crate::techniques::TECHNIQUES`]). Not part of the `engine` preset until games
/// confirm it: added with `engine+qsevasion`, or to any search with quiescence.
pub const TECHNIQUE: Technique = Technique {
    id: ID,
    name: "qsevasion",
    aliases: &[],
    summary: "quiescence in check: every evasion is searched, no stand pat, and a side without one is mated",
    group: Group::Addition,
    forms: Forms::Negamax,
    needs: Some("qs"),
    in_engine: false,
    counters: &[NODES],
    params: &[],
};

/// Its place in the registry.
pub const ID: TechniqueId = TechniqueId::new(28);

/// How many quiescence nodes in check on one path search their evasions; past them a node in check stands pat, as
/// the spec's quiescence does. In xiangqi an evasion often gives check itself (it screens a cannon or uncovers a
/// chariot), so evasions answered by evading checks could otherwise run on to the maximum ply with every quiet move
/// at every node.
pub const MAX_EVASION_NODES: u32 = 2;

/// Quiescence nodes in check that searched their evasions.
pub const NODES: Counter =
    Counter::new(ID, 0, "qs_evasion_nodes", "quiescence nodes in check that searched every evasion (no stand pat)");

/// Quiescence evasions: the spec's quiescence stands pat even in check, so a capture that mates at the horizon
/// scores as a capture, and the side being mated keeps its static evaluation. With this technique a quiescence
/// node whose side to move is in check does not stand pat: it searches every legal move (captures first, by
/// MVV-LVA, then the quiet ones), each answered by quiescence again, and a side without a legal move scores as
/// mated (in xiangqi, mate and stalemate alike). Quiescence still generates no checks, so every check it meets
/// comes from a capture or from an evasion that checks in turn; the second kind would not end with the material, so
/// only the first [`MAX_EVASION_NODES`] nodes in check of a path search their evasions. Where it matters: a capture
/// that mates (or wins the king's last defender) just past the horizon, behind a null move or at the end of a
/// reduced search. Hook: the top of each quiescence node (`policy/quiescence.rs`). Source: Stockfish's `qsearch`
/// ("if in check, search all evasions"), as Pikafish does for xiangqi.
#[derive(Debug, Clone, Copy, Default)]
pub struct QsEvasions;

impl QsEvasions {
    /// Whether quiescence searches the evasions of a node in check (a constant false without the engine's
    /// additions).
    #[inline(always)]
    pub fn on<S: Search>(s: &S) -> bool {
        <S::V as Variant>::Additions::ENABLED && s.config().has(ID)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MATE, MATE_BOUND};
    use crate::test_eval::Material;
    use crate::{Limits, VariantConfig, VariantError};
    use xiangqi_core::Position;

    /// Red's chariot takes the horse on e8 with check, and Black has no answer: its king cannot take back (the
    /// kings would face each other), its chariots hold the palace's other points.
    const MATE_BY_CAPTURE: &str = "3rkr3/4n4/9/9/9/9/9/9/4R4/4K4 w - - 0 1";

    #[test]
    fn a_node_in_check_at_the_horizon_sees_the_mate_instead_of_standing_pat() {
        let pos = Position::from_fen(MATE_BY_CAPTURE).unwrap();
        let search = |v: &str| v.parse::<VariantConfig>().unwrap().run(pos.clone(), Material, &Limits::depth(1));
        // One ply, then quiescence: the capture's child is a quiescence node in check.
        let (plain, with) = (search("pvs+qs"), search("pvs+qs+qsevasion"));
        assert!(plain.score < MATE_BOUND, "standing pat in check hides the mate: {}", plain.score);
        assert_eq!(plain.stats.get(NODES), 0);
        assert_eq!((with.best_move.unwrap().to_string(), with.score), ("e1e8".to_owned(), MATE - 1));
        assert!(with.stats.get(NODES) > 0);
    }

    #[test]
    fn it_joins_any_search_with_quiescence_but_not_the_engine_preset() {
        let engine: VariantConfig = "engine+qsevasion".parse().unwrap();
        assert!(!VariantConfig::engine().has(ID) && engine.has(ID));
        assert_eq!(VariantConfig::engine().with_technique("qsevasion", true), Ok(engine));
        assert_eq!(
            "engine+no-qsevasion".parse::<VariantConfig>(),
            Err(VariantError::NotInEngine { part: "no-qsevasion".to_owned(), name: "qsevasion" })
        );
        assert!("pvs+qsevasion".parse::<VariantConfig>().is_err(), "it needs quiescence");
        assert!("negamax-ab+qs+qsevasion".parse::<VariantConfig>().is_ok());
    }

    #[test]
    fn the_engine_with_it_keeps_the_mates_and_the_best_moves() {
        // Red wins a loose chariot; Red mates in one.
        for (fen, best) in [("4k4/9/9/9/4r4/9/9/9/4R4/3K5 w", "e1e5"), (MATE_BY_CAPTURE, "e1e8")] {
            let pos = Position::from_fen(fen).unwrap();
            let r = "engine+qsevasion".parse::<VariantConfig>().unwrap().run(pos, Material, &Limits::depth(6));
            assert_eq!(r.best_move.unwrap().to_string(), best, "{fen}");
        }
    }
}
