//! Opening names: the opening a game has reached, in Chinese and English.
//!
//! [`OPENINGS`] lists the lines, each written as its moves in Chinese notation; a line is recognised by the
//! position it reaches (its zobrist key, with the side to move), and by that position's left-right mirror, so
//! that a game reaching it by another order of moves (a transposition), or on the other wing, is named too.
//! [`opening_of`] walks a game and keeps the deepest named position: `炮二平五 马2进3 马二进三 马8进7` and
//! `炮二平五 马8进7 马二进三 马2进3` get the same name.
//!
//! # Sources
//!
//! The Chinese names are the standard opening nomenclature of xiangqi literature, as the ECCO classification
//! (*Encyclopedia of Chinese Chess Openings*, 2004; its groups are listed at <https://www.xqbase.com/ecco/>)
//! uses them for its groups: 非中炮类开局 (A: 飞相局, 起马局, 仕角炮局, 过宫炮局 and the uncommon first moves),
//! 中炮对反宫马及其他 (B: 单提马, 左三步虎, 反宫马), 中炮对屏风马 (C: 过河车, 五六炮, 五七炮, 巡河炮, 五九炮),
//! 顺炮局和列炮局 (D: 顺炮直车对缓开车, 顺炮直车对横车, 列炮) and 仙人指路局 (E: 卒底炮, 对兵局). The English names
//! translate them in the usage of the World Xiangqi Federation's introductory material ("central cannon",
//! "screen horses", "same-direction cannons"...). The lines were written for this table from that nomenclature
//! (each line the name's defining moves); no other program's table was copied. No ECCO code is given: the table
//! names a line by its group's words, and a code is written (`[ECCO]`) only for an entry that carries one
//! ([`Opening::ecco`]).
//!
//! ```
//! use xiangqi_core::record::openings::opening_of;
//! use xiangqi_core::Position;
//!
//! let mut pos = Position::startpos();
//! let moves: Vec<_> = ["h2e2", "h9g7", "h0g2", "i9h9"].iter().map(|m| pos.play(m).unwrap()).collect();
//! let named = opening_of(&Position::startpos(), &moves).unwrap();
//! assert_eq!(named.opening.chinese, "中炮对屏风马 先出车");
//! assert_eq!(named.ply, 4);
//! ```

use crate::{Move, Position};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A named opening line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opening {
    /// The name in Chinese.
    pub chinese: &'static str,
    /// The name in English.
    pub english: &'static str,
    /// The line's moves in Chinese notation, from the start position, separated by spaces.
    pub moves: &'static str,
    /// The line's ECCO code, where the table gives one (none does yet: see the module's sources).
    pub ecco: Option<&'static str>,
}

impl Opening {
    /// `中文 (English)`, as the game's header shows it.
    pub fn label(&self) -> String {
        format!("{} ({})", self.chinese, self.english)
    }
}

const fn o(chinese: &'static str, english: &'static str, moves: &'static str) -> Opening {
    Opening { chinese, english, moves, ecco: None }
}

/// The named lines, shortest first within each family. Each is recognised on either wing.
pub const OPENINGS: &[Opening] = &[
    // Red's first moves.
    o("中炮", "Central Cannon", "炮二平五"),
    o("仙人指路", "Pawn Opening", "兵七进一"),
    o("飞相局", "Elephant Opening", "相三进五"),
    o("起马局", "Horse Opening", "马二进三"),
    o("仕角炮", "Palcorner Cannon", "炮二平四"),
    o("过宫炮", "Cross-Palace Cannon", "炮二平六"),
    o("边兵局", "Edge Pawn Opening", "兵一进一"),
    o("边马局", "Edge Horse Opening", "马二进一"),
    o("边炮局", "Edge Cannon Opening", "炮二平一"),
    o("兵底炮局", "Cannon Behind the Pawn Opening", "炮二平三"),
    o("巡河炮局", "River-Patrol Cannon Opening", "炮二进二"),
    o("过河炮局", "River-Crossing Cannon Opening", "炮二进四"),
    o("龟背炮局", "Turtle-Back Cannon Opening", "炮二退一"),
    o("上仕局", "Advisor Opening", "仕四进五"),
    // Central cannon: Black's replies.
    o("中炮对进左马", "Central Cannon vs Left Horse", "炮二平五 马8进7"),
    o("中炮对进右马", "Central Cannon vs Right Horse", "炮二平五 马2进3"),
    o("顺炮", "Same-Direction Cannons", "炮二平五 炮8平5"),
    o("列炮", "Opposite-Direction Cannons", "炮二平五 炮2平5"),
    o("中炮对进7卒", "Central Cannon vs 7th Pawn", "炮二平五 卒7进1"),
    o("中炮对进3卒", "Central Cannon vs 3rd Pawn", "炮二平五 卒3进1"),
    o("中炮对飞象", "Central Cannon vs Elephant", "炮二平五 象3进5"),
    o("中炮对上士", "Central Cannon vs Advisor", "炮二平五 士4进5"),
    o("中炮对进边马", "Central Cannon vs Edge Horse", "炮二平五 马8进9"),
    o("中炮对屏风马", "Central Cannon vs Screen Horses", "炮二平五 马8进7 马二进三 马2进3"),
    o("中炮对屏风马 先出车", "Central Cannon vs Screen Horses, Chariot First", "炮二平五 马8进7 马二进三 车9平8"),
    o(
        "中炮直车对屏风马",
        "Central Cannon, Straight Chariot vs Screen Horses",
        "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3",
    ),
    o(
        "中炮进三兵对屏风马",
        "Central Cannon, 3rd Pawn vs Screen Horses",
        "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 兵三进一",
    ),
    o(
        "中炮进七兵对屏风马",
        "Central Cannon, 7th Pawn vs Screen Horses",
        "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 兵七进一",
    ),
    o(
        "中炮互进七兵对屏风马",
        "Central Cannon vs Screen Horses, Both 7th Pawns",
        "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 兵七进一 卒7进1",
    ),
    o(
        "中炮过河车对屏风马",
        "Central Cannon, River-Crossing Chariot vs Screen Horses",
        "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 车二进六",
    ),
    o(
        "中炮过河车互进七兵对屏风马",
        "Central Cannon, River-Crossing Chariot vs Screen Horses, Both 7th Pawns",
        "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 兵七进一 卒7进1 车二进六",
    ),
    o(
        "五六炮对屏风马",
        "Fifth and Sixth File Cannons vs Screen Horses",
        "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 炮八平六",
    ),
    o(
        "五七炮对屏风马",
        "Fifth and Seventh File Cannons vs Screen Horses",
        "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 炮八平七",
    ),
    o(
        "中炮巡河炮对屏风马",
        "Central Cannon, River-Patrol Cannon vs Screen Horses",
        "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 炮八进二",
    ),
    o(
        "五九炮对屏风马",
        "Fifth and Ninth File Cannons vs Screen Horses",
        "炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3 炮八平九",
    ),
    o("中炮对反宫马", "Central Cannon vs Reverse Palcorner Horse", "炮二平五 马2进3 马二进三 炮8平6 车一平二 马8进7"),
    o("中炮对士角炮", "Central Cannon vs Palcorner Cannon", "炮二平五 马2进3 马二进三 炮8平6"),
    o("中炮对单提马", "Central Cannon vs Single Lifted Horse", "炮二平五 马2进3 马二进三 马8进9"),
    o("中炮对左三步虎", "Central Cannon vs Left Three-Step Tiger", "炮二平五 马8进7 马二进三 炮8平9"),
    // Same-direction and opposite-direction cannons.
    o("顺炮直车", "Same-Direction Cannons, Straight Chariot", "炮二平五 炮8平5 马二进三 马8进7 车一平二"),
    o("顺炮横车", "Same-Direction Cannons, Horizontal Chariot", "炮二平五 炮8平5 马二进三 马8进7 车一进一"),
    o(
        "顺炮直车对横车",
        "Same-Direction Cannons, Straight Chariot vs Horizontal Chariot",
        "炮二平五 炮8平5 马二进三 马8进7 车一平二 车9进1",
    ),
    o(
        "顺炮直车对缓开车",
        "Same-Direction Cannons, Straight Chariot vs Delayed Chariot",
        "炮二平五 炮8平5 马二进三 马8进7 车一平二 马2进3",
    ),
    o("中炮对列炮", "Central Cannon vs Opposite-Direction Cannon", "炮二平五 炮2平5 马二进三 马8进7"),
    o("列炮直车", "Opposite-Direction Cannons, Straight Chariot", "炮二平五 炮2平5 马二进三 马8进7 车一平二"),
    // The pawn opening.
    o("仙人指路对卒底炮", "Pawn Opening vs Cannon Behind the Pawn", "兵七进一 炮2平3"),
    o("对兵局", "Pawns Face to Face", "兵七进一 卒3进1"),
    o("仙人指路对中炮", "Pawn Opening vs Central Cannon", "兵七进一 炮8平5"),
    o("仙人指路对右中炮", "Pawn Opening vs Right Central Cannon", "兵七进一 炮2平5"),
    o("仙人指路对飞象", "Pawn Opening vs Elephant", "兵七进一 象3进5"),
    o("仙人指路对进马", "Pawn Opening vs Horse", "兵七进一 马8进7"),
    o("仙人指路对进7卒", "Pawn Opening vs 7th Pawn", "兵七进一 卒7进1"),
    o(
        "仙人指路转左中炮对卒底炮",
        "Pawn Opening to Left Central Cannon vs Cannon Behind the Pawn",
        "兵七进一 炮2平3 炮八平五",
    ),
    o("仙人指路对卒底炮 飞相", "Pawn Opening vs Cannon Behind the Pawn, Elephant", "兵七进一 炮2平3 相三进五"),
    o("两头蛇", "Two-Headed Snake", "兵七进一 马8进7 兵三进一"),
    // The elephant opening.
    o("飞相对左中炮", "Elephant Opening vs Left Central Cannon", "相三进五 炮8平5"),
    o("飞相对右中炮", "Elephant Opening vs Right Central Cannon", "相三进五 炮2平5"),
    o("飞相对进7卒", "Elephant Opening vs 7th Pawn", "相三进五 卒7进1"),
    o("飞相对进3卒", "Elephant Opening vs 3rd Pawn", "相三进五 卒3进1"),
    o("飞相对进马", "Elephant Opening vs Horse", "相三进五 马8进7"),
    o("飞相对左过宫炮", "Elephant Opening vs Left Cross-Palace Cannon", "相三进五 炮8平4"),
    o("飞相对左士角炮", "Elephant Opening vs Left Palcorner Cannon", "相三进五 炮8平6"),
    // The horse opening.
    o("起马对中炮", "Horse Opening vs Central Cannon", "马二进三 炮8平5"),
    o("起马对挺7卒", "Horse Opening vs 7th Pawn", "马二进三 卒7进1"),
    o("起马对挺3卒", "Horse Opening vs 3rd Pawn", "马二进三 卒3进1"),
    o("起马对进马", "Horse Opening vs Horse", "马二进三 马8进7"),
    o("起马互进七兵", "Horse Opening, Both 7th Pawns", "马二进三 卒7进1 兵七进一"),
    // The palcorner and cross-palace cannons.
    o("仕角炮对进马", "Palcorner Cannon vs Horse", "炮二平四 马8进7"),
    o("仕角炮对中炮", "Palcorner Cannon vs Central Cannon", "炮二平四 炮8平5"),
    o("仕角炮对右中炮", "Palcorner Cannon vs Right Central Cannon", "炮二平四 炮2平5"),
    o("过宫炮对进马", "Cross-Palace Cannon vs Horse", "炮二平六 马8进7"),
    o("过宫炮对中炮", "Cross-Palace Cannon vs Central Cannon", "炮二平六 炮8平5"),
    o("过宫炮对直车", "Cross-Palace Cannon vs Straight Chariot", "炮二平六 马8进7 马二进三 车9平8"),
];

/// An opening a game reached: the line and the ply (from the game's start) of the position that named it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Named {
    /// The opening.
    pub opening: &'static Opening,
    /// The plies played when its position was reached.
    pub ply: usize,
}

/// The named positions: key of the position reached (and of its mirror) to the opening.
fn table() -> &'static HashMap<u64, &'static Opening> {
    static TABLE: OnceLock<HashMap<u64, &'static Opening>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut map = HashMap::new();
        for opening in OPENINGS {
            let (moves, _) = line_moves(opening).unwrap_or_else(|e| panic!("opening {}: {e}", opening.chinese));
            for mirror in [false, true] {
                let mut pos = Position::startpos();
                for &m in &moves {
                    pos.make_move(if mirror { m.mirror_files() } else { m });
                }
                // A line named twice (on its own wing and as another's mirror) keeps its first name.
                map.entry(pos.key()).or_insert(opening);
            }
        }
        map
    })
}

/// The moves of `opening`'s line from the start position, and the position they reach.
///
/// # Errors
/// When a move of the line cannot be read or is illegal (a defect of the table, which a test rules out).
pub fn line_moves(opening: &Opening) -> Result<(Vec<Move>, Position), String> {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for text in opening.moves.split_whitespace() {
        let (m, _) = pos.read_move(text).map_err(|e| format!("{text}: {e}"))?;
        pos.make_move(m);
        moves.push(m);
    }
    Ok((moves, pos))
}

/// The opening of the position `pos`, if the table names it (on either wing).
pub fn opening_at(pos: &Position) -> Option<&'static Opening> {
    table().get(&pos.key()).copied()
}

/// The opening of a game from `start` with `moves`: the deepest position along the game that the table names.
/// `None` when no position is named (a game from a setup, or one that left the table's lines at once).
pub fn opening_of(start: &Position, moves: &[Move]) -> Option<Named> {
    let mut pos = start.clone();
    let mut found = opening_at(&pos).map(|opening| Named { opening, ply: 0 });
    for (i, &m) in moves.iter().enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        pos.make_move(m);
        if let Some(opening) = opening_at(&pos) {
            found = Some(Named { opening, ply: i + 1 });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(line: &str) -> Vec<Move> {
        let mut pos = Position::startpos();
        line.split_whitespace()
            .map(|t| {
                let (m, _) = pos.read_move(t).unwrap();
                pos.make_move(m);
                m
            })
            .collect()
    }

    #[test]
    fn every_line_is_legal_and_names_its_own_position() {
        assert!(OPENINGS.len() >= 60, "{}", OPENINGS.len());
        for opening in OPENINGS {
            let (moves, pos) = line_moves(opening).unwrap();
            let named = opening_at(&pos).unwrap_or_else(|| panic!("{}", opening.chinese));
            assert_eq!(named, opening, "{} is named {} (the same position twice)", opening.chinese, named.chinese);
            assert_eq!(opening_of(&Position::startpos(), &moves).unwrap().ply, moves.len());
        }
        let names: std::collections::HashSet<_> = OPENINGS.iter().map(|o| o.chinese).collect();
        assert_eq!(names.len(), OPENINGS.len(), "a name used twice");
    }

    #[test]
    fn transpositions_and_mirrors_are_named() {
        let start = Position::startpos();
        let main = opening_of(&start, &play("炮二平五 马8进7 马二进三 车9平8")).unwrap();
        assert_eq!(main.opening.english, "Central Cannon vs Screen Horses, Chariot First");
        // The same position after eight plies: each chariot steps out and back first.
        let other_order = opening_of(&start, &play("炮二平五 车9进1 马二进三 车9退1 车一进一 马8进7 车一退一 车9平8"));
        assert_eq!(other_order.map(|n| (n.opening, n.ply)), Some((main.opening, 8)));
        let screen = opening_of(&start, &play("炮二平五 马2进3 马二进三 马8进7")).unwrap();
        assert_eq!(screen.opening.chinese, "中炮对屏风马");
        // The other wing: 炮八平五 马2进3 马八进七 车1平2.
        let mirror = opening_of(&start, &play("炮八平五 马2进3 马八进七 车1平2")).unwrap();
        assert_eq!(mirror.opening, main.opening);
        // Past the table's lines the deepest named position is kept.
        let later = opening_of(&start, &play("炮二平五 马8进7 马二进三 车9平8 兵三进一 卒3进1")).unwrap();
        assert_eq!((later.opening, later.ply), (main.opening, 4));
        assert_eq!(opening_of(&start, &[]), None);
        assert_eq!(opening_of(&start, &play("兵七进一")).unwrap().opening.chinese, "仙人指路");
        assert_eq!(opening_of(&start, &play("兵三进一")).unwrap().opening.chinese, "仙人指路");
    }
}
