//! The board as a standalone SVG picture, in the look of the browser page (`xiangqi serve`): the same geometry
//! (60-unit points, the palace diagonals, the river's words, the file numbers of both sides), the same colours,
//! the pieces as discs with their Chinese characters; the last move framed and a king in check ringed.

use std::fmt::Write;
use xiangqi_core::{Color, Move, PieceKind, Position, Square};

const CELL: i32 = 60;
const MARGIN: i32 = 56;
const WIDTH: i32 = CELL * 8 + MARGIN * 2;
const HEIGHT: i32 = CELL * 9 + MARGIN * 2;
const WOOD: &str = "#e8c98f";
const LINE: &str = "#6b4a1e";
const RED: &str = "#b3261e";
const BLACK: &str = "#1f1f1f";
const MARK: &str = "#f5c542";
const RED_FILES: [&str; 9] = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];

/// The character of a piece, as the page draws it.
fn glyph(color: Color, kind: PieceKind) -> &'static str {
    let red = color == Color::Red;
    match kind {
        PieceKind::King => ["將", "帥"][usize::from(red)],
        PieceKind::Advisor => ["士", "仕"][usize::from(red)],
        PieceKind::Elephant => ["象", "相"][usize::from(red)],
        PieceKind::Horse => ["馬", "傌"][usize::from(red)],
        PieceKind::Chariot => ["車", "俥"][usize::from(red)],
        PieceKind::Cannon => ["砲", "炮"][usize::from(red)],
        PieceKind::Soldier => ["卒", "兵"][usize::from(red)],
    }
}

/// The point of a square in the picture, Red at the bottom unless `flipped`.
fn xy(sq: Square, flipped: bool) -> (i32, i32) {
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    let (col, row) = if flipped { (8 - f, r) } else { (f, 9 - r) };
    (MARGIN + col * CELL, MARGIN + row * CELL)
}

fn at(file: i32, rank: i32, flipped: bool) -> (i32, i32) {
    let sq = Square::from_index((rank * 9 + file) as usize).expect("a point on the board");
    xy(sq, flipped)
}

/// The SVG of `pos`, `size` pixels wide; `last` is framed and the side to move's king ringed when in check.
pub fn board_svg(pos: &Position, last: Option<Move>, flipped: bool, size: u32) -> String {
    let mut s = String::with_capacity(16 * 1024);
    let height = u64::from(size) * HEIGHT as u64 / WIDTH as u64;
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{size}" height="{height}" font-family="'Noto Serif CJK SC','Songti SC','SimSun',serif">"#
    );
    let _ = write!(
        s,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{WOOD}" stroke="{LINE}" stroke-width="3"/>"#,
        MARGIN - 10,
        MARGIN - 10,
        CELL * 8 + 20,
        CELL * 9 + 20
    );
    let _ = write!(s, r#"<g stroke="{LINE}" stroke-width="1.6">"#);
    let line = |s: &mut String, a: (i32, i32), b: (i32, i32)| {
        let (pa, pb) = (at(a.0, a.1, flipped), at(b.0, b.1, flipped));
        let _ = write!(s, r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#, pa.0, pa.1, pb.0, pb.1);
    };
    for r in 0..10 {
        line(&mut s, (0, r), (8, r));
    }
    line(&mut s, (0, 0), (0, 9));
    line(&mut s, (8, 0), (8, 9));
    for f in 1..8 {
        line(&mut s, (f, 0), (f, 4));
        line(&mut s, (f, 5), (f, 9));
    }
    line(&mut s, (3, 0), (5, 2));
    line(&mut s, (5, 0), (3, 2));
    line(&mut s, (3, 7), (5, 9));
    line(&mut s, (5, 7), (3, 9));
    s.push_str("</g>");
    let ym = (at(0, 4, flipped).1 + at(0, 5, flipped).1) / 2;
    for (x, text) in [(MARGIN + CELL * 2, "楚 河"), (MARGIN + CELL * 6, "漢 界")] {
        let _ = write!(
            s,
            r#"<text x="{x}" y="{ym}" font-size="30" fill="{LINE}" text-anchor="middle" dominant-baseline="central">{text}</text>"#
        );
    }
    let dr = if flipped { -1 } else { 1 };
    for f in 0..9 {
        let (xr, yr) = at(f, 0, flipped);
        let (xb, yb) = at(f, 9, flipped);
        let _ = write!(
            s,
            r#"<text x="{xr}" y="{}" font-size="18" fill="{RED}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
            yr + dr * 38,
            RED_FILES[f as usize]
        );
        let _ = write!(
            s,
            r#"<text x="{xb}" y="{}" font-size="18" fill="{BLACK}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
            yb - dr * 38,
            f + 1
        );
    }
    if let Some(m) = last {
        for sq in [m.from(), m.to()] {
            let (x, y) = xy(sq, flipped);
            let _ = write!(
                s,
                r#"<rect x="{}" y="{}" width="54" height="54" rx="6" fill="{MARK}" fill-opacity="0.45"/>"#,
                x - 27,
                y - 27
            );
        }
    }
    if pos.in_check() {
        let (x, y) = xy(pos.king(pos.turn()), flipped);
        let _ = write!(s, r#"<circle cx="{x}" cy="{y}" r="29" fill="{RED}" fill-opacity="0.35"/>"#);
    }
    for sq in Square::all() {
        let Some(p) = pos.piece_at(sq) else { continue };
        let (x, y) = xy(sq, flipped);
        let ink = if p.color == Color::Red { RED } else { BLACK };
        let _ = write!(
            s,
            r##"<g data-square="{sq}" data-piece="{}"><circle cx="{x}" cy="{y}" r="26" fill="#fbf3e3" stroke="#8a6a3a" stroke-width="2"/><circle cx="{x}" cy="{y}" r="21" fill="none" stroke="{ink}" stroke-width="1.5"/><text x="{x}" y="{y}" font-size="30" font-weight="700" fill="{ink}" text-anchor="middle" dominant-baseline="central">{}</text></g>"##,
            p.char(),
            glyph(p.color, p.kind)
        );
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_has_its_32_pieces_and_the_last_move_is_framed() {
        let mut pos = Position::startpos();
        let svg = board_svg(&pos, None, false, 400);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert_eq!(svg.matches("data-piece=").count(), 32);
        assert!(svg.contains(r#"data-square="e0" data-piece="K""#));
        let m = pos.play("h2e2").unwrap();
        assert_eq!(board_svg(&pos, Some(m), false, 400).matches("rx=\"6\"").count(), 2);
    }
}
