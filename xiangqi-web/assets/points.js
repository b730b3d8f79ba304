// The board's points and what stands on them, without drawing: a FEN's placement as a map from square to piece
// and back, and the codes of the arrows and circles a player draws (lichess's: a colour letter and one square or
// two).

/** The files' letters, a to i (Red's left to right). */
export const FILES = "abcdefghi";

/** Parses the placement field of a FEN into a map square -> FEN letter (no rules, just the picture). */
export function placement(fen) {
  const map = new Map();
  const rows = (fen || "").split(" ")[0].split("/");
  rows.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-9]/.test(ch)) file += Number(ch);
      else {
        if (file < 9 && rank >= 0) map.set(FILES[file] + rank, ch);
        file += 1;
      }
    }
  });
  return map;
}

/** Writes a placement map back as the placement field of a FEN. */
export function placementToFen(map) {
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = "";
    let empty = 0;
    for (let f = 0; f < 9; f++) {
      const p = map.get(FILES[f] + rank);
      if (p) {
        if (empty) row += empty;
        empty = 0;
        row += p;
      } else empty += 1;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join("/");
}

/** A drawn shape's colour letter (lichess's): green plain, red with Shift, blue with Alt or Ctrl, yellow with both. */
export function shapeColor(e) {
  const other = e.altKey || e.ctrlKey || e.metaKey;
  return e.shiftKey ? (other ? "Y" : "R") : other ? "B" : "G";
}

/** Whether `code` is a drawn shape's code: a colour letter and one square (a circle) or two (an arrow). */
export function isShape(code) {
  return typeof code === "string" && /^[GRBY][a-i][0-9]([a-i][0-9])?$/.test(code) && code.slice(1, 3) !== code.slice(3);
}
