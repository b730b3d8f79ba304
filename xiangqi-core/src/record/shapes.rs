//! Arrows and circles drawn on the board, kept in a record's comments the way lichess writes them:
//! `{[%cal Gh2e2,Rb0c2] [%csl Ge4]}`: `%cal` lists arrows (a colour letter, the square it starts from, the square it
//! points to), `%csl` circled squares (a colour letter and the square). The colours are `G`reen, `R`ed, `B`lue and
//! `Y`ellow. A comment's other text is kept as it was.
//!
//! ```
//! use xiangqi_core::record::shapes::{set_shapes, shapes_of, Shape};
//!
//! let mut comments = vec!["the central cannon [%cal Gh2e2,Rb0c2] [%csl Ge4]".to_string()];
//! let shapes = shapes_of(&comments);
//! assert_eq!(shapes.iter().map(Shape::to_string).collect::<Vec<_>>(), ["Gh2e2", "Rb0c2", "Ge4"]);
//! // Written again: the text stays, the shapes follow it in a comment of their own.
//! set_shapes(&mut comments, &shapes[..1]);
//! assert_eq!(comments, ["the central cannon", "[%cal Gh2e2]"]);
//! ```

use crate::Square;
use std::fmt;
use std::str::FromStr;

/// A shape's colour, written as its letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeColor {
    /// `G`.
    Green,
    /// `R`.
    Red,
    /// `B`.
    Blue,
    /// `Y`.
    Yellow,
}

impl ShapeColor {
    /// The colour's letter.
    pub fn letter(self) -> char {
        match self {
            ShapeColor::Green => 'G',
            ShapeColor::Red => 'R',
            ShapeColor::Blue => 'B',
            ShapeColor::Yellow => 'Y',
        }
    }

    /// The colour of a letter (`G`, `R`, `B`, `Y`).
    pub fn from_letter(c: char) -> Option<ShapeColor> {
        match c {
            'G' => Some(ShapeColor::Green),
            'R' => Some(ShapeColor::Red),
            'B' => Some(ShapeColor::Blue),
            'Y' => Some(ShapeColor::Yellow),
            _ => None,
        }
    }
}

/// An arrow from one square to another, or a circle around one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// An arrow (`%cal`), such as `Gh2e2`.
    Arrow {
        /// Its colour.
        color: ShapeColor,
        /// Where it starts.
        from: Square,
        /// Where it points.
        to: Square,
    },
    /// A circled square (`%csl`), such as `Ge4`.
    Circle {
        /// Its colour.
        color: ShapeColor,
        /// The square.
        at: Square,
    },
}

impl fmt::Display for Shape {
    /// The shape's code: `Gh2e2` for an arrow, `Ge4` for a circle.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Arrow { color, from, to } => write!(f, "{}{from}{to}", color.letter()),
            Shape::Circle { color, at } => write!(f, "{}{at}", color.letter()),
        }
    }
}

/// The text was no shape code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is no arrow or circle: a colour G, R, B or Y, then one square (a circle, \"Ge4\") or two (an arrow, \"Gh2e2\")")]
pub struct ParseShapeError(pub String);

impl FromStr for Shape {
    type Err = ParseShapeError;

    /// Reads a code: `Gh2e2` (an arrow) or `Ge4` (a circle). An arrow from a square to itself is refused.
    fn from_str(s: &str) -> Result<Shape, ParseShapeError> {
        let bad = || ParseShapeError(s.chars().take(16).collect());
        let mut chars = s.chars();
        let color = chars.next().and_then(ShapeColor::from_letter).ok_or_else(bad)?;
        let rest = chars.as_str();
        if !rest.is_ascii() {
            return Err(bad());
        }
        let square = |t: &str| t.parse::<Square>().map_err(|_| bad());
        match rest.len() {
            2 => Ok(Shape::Circle { color, at: square(rest)? }),
            4 => {
                let (from, to) = (square(&rest[..2])?, square(&rest[2..])?);
                if from == to {
                    return Err(bad());
                }
                Ok(Shape::Arrow { color, from, to })
            }
            _ => Err(bad()),
        }
    }
}

/// The commands `[%cal ...]` and `[%csl ...]` of a comment: each command's byte range and its list.
fn commands(comment: &str) -> Vec<(std::ops::Range<usize>, &str, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = comment[from..].find("[%") {
        let start = from + i;
        let Some(len) = comment[start..].find(']') else { break };
        let end = start + len + 1;
        let body = comment[start + 2..end - 1].trim();
        let (name, list) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        if name == "cal" || name == "csl" {
            out.push((start..end, name, list.trim()));
        }
        from = end;
    }
    out
}

/// The shapes of a move's comments (or a game's opening comments), in order: the arrows and circles of every
/// `[%cal ...]` and `[%csl ...]` command. A code that is not a shape, or an arrow in `%csl` or a circle in
/// `%cal`, is left out.
pub fn shapes_of(comments: &[String]) -> Vec<Shape> {
    let mut out = Vec::new();
    for c in comments {
        for (_, name, list) in commands(c) {
            for code in list.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                match (name, code.parse::<Shape>()) {
                    ("cal", Ok(s @ Shape::Arrow { .. })) | ("csl", Ok(s @ Shape::Circle { .. })) => out.push(s),
                    _ => {}
                }
            }
        }
    }
    out
}

/// The comment's text without its `%cal` and `%csl` commands (the spaces around a removed command collapsed).
pub fn without_shapes(comment: &str) -> String {
    let mut out = String::new();
    let mut last = 0;
    for (range, _, _) in commands(comment) {
        out.push_str(&comment[last..range.start]);
        last = range.end;
    }
    out.push_str(&comment[last..]);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The comment that holds `shapes`: `[%cal Gh2e2,Rb0c2] [%csl Ge4]` (arrows first; empty without shapes).
pub fn shapes_comment(shapes: &[Shape]) -> String {
    let codes = |arrows: bool| {
        shapes
            .iter()
            .filter(|s| matches!(s, Shape::Arrow { .. }) == arrows)
            .map(Shape::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut parts = Vec::new();
    let (cal, csl) = (codes(true), codes(false));
    if !cal.is_empty() {
        parts.push(format!("[%cal {cal}]"));
    }
    if !csl.is_empty() {
        parts.push(format!("[%csl {csl}]"));
    }
    parts.join(" ")
}

/// Replaces the shapes of `comments` by `shapes`: the commands are taken out of every comment (a comment left
/// empty goes), and one comment holding `shapes` is added after the others (none when `shapes` is empty).
/// A comment whose text does not change is kept exactly as it was.
pub fn set_shapes(comments: &mut Vec<String>, shapes: &[Shape]) {
    comments.retain_mut(|c| {
        if commands(c).is_empty() {
            return true;
        }
        *c = without_shapes(c);
        !c.is_empty()
    });
    if !shapes.is_empty() {
        comments.push(shapes_comment(shapes));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{read_pgn, write_pgn, Notation, ReadOptions};

    fn codes(shapes: &[Shape]) -> Vec<String> {
        shapes.iter().map(Shape::to_string).collect()
    }

    #[test]
    fn codes_read_and_write() {
        for code in ["Gh2e2", "Rb0c2", "Bi9a0", "Ya0b0", "Ge4", "Ra0", "Yi9"] {
            assert_eq!(code.parse::<Shape>().unwrap().to_string(), code);
        }
        for bad in ["", "G", "Ge", "Xe4", "ge4", "Gj4", "Ge10", "Gh2e", "Gh2h2", "Gh2e2x", "G炮二"] {
            assert!(bad.parse::<Shape>().is_err(), "{bad}");
        }
        let arrow: Shape = "Rb0c2".parse().unwrap();
        assert_eq!(
            arrow,
            Shape::Arrow { color: ShapeColor::Red, from: "b0".parse().unwrap(), to: "c2".parse().unwrap() }
        );
    }

    #[test]
    fn commands_are_found_among_other_text_and_other_commands() {
        let comments = vec![
            "good [%clk 0:10:00] [%cal Gh2e2, Rb0c2] and [%csl Ge4,Bh7]".to_string(),
            "no shapes here".to_string(),
            "[%csl Gh2e2,Yc3] [%cal Ge4,Bb2b9]".to_string(),
        ];
        // An arrow in %csl and a circle in %cal are not taken.
        assert_eq!(codes(&shapes_of(&comments)), ["Gh2e2", "Rb0c2", "Ge4", "Bh7", "Yc3", "Bb2b9"]);
        assert_eq!(without_shapes(&comments[0]), "good [%clk 0:10:00] and");
        assert_eq!(without_shapes(&comments[1]), "no shapes here");
        // An unclosed bracket is text.
        assert_eq!(without_shapes("a [%cal Gh2e2"), "a [%cal Gh2e2");
        assert!(shapes_of(&["a [%cal Gh2e2".to_string()]).is_empty());
    }

    #[test]
    fn set_shapes_keeps_the_other_text() {
        let mut comments = vec!["first".to_string(), "[%cal Gh2e2]".to_string(), "see [%csl Ge4] this".to_string()];
        let new: Vec<Shape> = ["Rb0c2", "Ba0", "Yb9c7"].iter().map(|c| c.parse().unwrap()).collect();
        set_shapes(&mut comments, &new);
        assert_eq!(comments, ["first", "see this", "[%cal Rb0c2,Yb9c7] [%csl Ba0]"]);
        set_shapes(&mut comments, &[]);
        assert_eq!(comments, ["first", "see this"]);
    }

    #[test]
    fn a_pgn_round_trip_keeps_arrows_circles_and_comments() {
        let pgn = "[Event \"shapes\"]\n\n{[%csl Re0]}\n1. h2e2 {central cannon [%cal Gh2e2,Rb0c2] [%csl Ge4]} \
                   h9g7 {[%cal Bh9g7]}\n2. h0g2 *\n";
        let file = read_pgn(pgn.as_bytes(), &ReadOptions::default());
        let game = file.games[0].as_ref().unwrap();
        assert_eq!(codes(&shapes_of(&game.intro)), ["Re0"]);
        assert_eq!(codes(&shapes_of(&game.moves[0].comments)), ["Gh2e2", "Rb0c2", "Ge4"]);
        assert_eq!(codes(&shapes_of(&game.moves[1].comments)), ["Bh9g7"]);
        assert!(shapes_of(&game.moves[2].comments).is_empty());
        // Shapes set again, and the game written and read back in another notation: the same shapes and text.
        let mut edited = game.clone();
        let arrows: Vec<Shape> = ["Yb0c2", "Gi9"].iter().map(|c| c.parse().unwrap()).collect();
        set_shapes(&mut edited.moves[0].comments, &arrows);
        set_shapes(&mut edited.moves[2].comments, &arrows[..1]);
        let text = write_pgn(std::slice::from_ref(&edited), Notation::Chinese);
        assert!(text.contains("{central cannon} {[%cal Yb0c2] [%csl Gi9]}"), "{text}");
        let back = read_pgn(text.as_bytes(), &ReadOptions::default());
        let back = back.games[0].as_ref().unwrap();
        assert_eq!(back.main_line(), game.main_line());
        assert_eq!(codes(&shapes_of(&back.intro)), ["Re0"]);
        assert_eq!(codes(&shapes_of(&back.moves[0].comments)), ["Yb0c2", "Gi9"]);
        assert_eq!(back.moves[0].comments[0], "central cannon");
        assert_eq!(codes(&shapes_of(&back.moves[1].comments)), ["Bh9g7"]);
        assert_eq!(codes(&shapes_of(&back.moves[2].comments)), ["Yb0c2"]);
    }
}
