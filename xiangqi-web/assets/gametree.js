// The game: a tree of moves with variations from a start position, and the move numbers of its plies.

export const START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

// ---------------------------------------------------------------- the game: a tree of moves

/** A node of the move tree: the move that led here (null at the root), its notation, the children (first: main),
 * the arrows and circles drawn on its position (codes such as `Gh2e2`, `Re4`). */
export function node(uci, parent, notated = null) {
  return { uci, notated, children: [], parent, shapes: [] };
}

export const game = {
  fen: START_FEN,
  root: node(null, null),
  cur: null,
  result: null,
  tags: null, // a loaded record's tags (the header), null for a game played here
  record: null, // a loaded record's line and result: {moves, result}
  review: null, // the last review of the main line: {line, evals, capped, moves} as the server answered
};
game.cur = game.root;

export function pathOf(n) {
  const moves = [];
  for (let x = n; x && x.uci; x = x.parent) moves.push(x.uci);
  return moves.reverse();
}

export function nodeAt(moves) {
  let n = game.root;
  for (const m of moves) {
    const c = n.children.find((k) => k.uci === m);
    if (!c) return n;
    n = c;
  }
  return n;
}

/** Plays `uci` from the current node: an existing child is followed, a new one becomes a variation. */
export function addMove(uci, from = game.cur) {
  let c = from.children.find((k) => k.uci === uci);
  if (!c) {
    c = node(uci, from);
    from.children.push(c);
  }
  return c;
}

export function serialize(n) {
  const o = { u: n.uci, n: n.notated, c: n.children.map(serialize) };
  if (n.shapes?.length) o.s = n.shapes;
  return o;
}

export function deserialize(o, parent) {
  const n = node(o.u, parent, o.n);
  n.shapes = Array.isArray(o.s) ? o.s.filter((c) => typeof c === "string") : [];
  n.children = (o.c || []).map((k) => deserialize(k, n));
  return n;
}

/** The move number of the move played at `ply` (0-based from the game's start): `12.` for Red, `12…` for Black. */
export function moveLabel(ply) {
  const rootRed = game.fen.split(" ")[1] !== "b";
  const startNo = Number(game.fen.split(" ")[5]) || 1;
  const red = (ply % 2 === 0) === rootRed;
  const no = startNo + Math.floor((ply + (rootRed ? 0 : 1)) / 2);
  return red ? `${no}.` : `${no}…`;
}

/** The end of the line through the current node (the current node, then the main continuation). */
export function mainEnd() {
  let n = game.cur;
  while (n.children[0]) n = n.children[0];
  return n;
}
