// The board: an SVG drawn from a FEN, with click-click and drag moves, legal destinations, the last move, check,
// arrows and a 180-degree flip. It knows nothing of the rules: the destinations come from the server's `legal`.
// A move slides its piece; the player draws arrows (right-drag) and circles (right-click); each point is a cell of
// an ARIA grid named by its square and piece, and the arrow keys move between points, Enter or Space clicks one.

import { t } from "./i18n.js";
import { FILES, placement, shapeColor } from "./points.js";

const NS = "http://www.w3.org/2000/svg";
const CELL = 60;
const MARGIN = 56;
const WIDTH = CELL * 8 + MARGIN * 2;
const HEIGHT = CELL * 9 + MARGIN * 2;
/** The pieces' characters, by FEN letter. */
export const CHINESE = {
  K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒",
};
/** WXF letters, by FEN letter. */
export const WXF = { K: "K", A: "A", B: "E", N: "H", R: "R", C: "C", P: "P" };
const RED_FILES = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export class Board {
  /**
   * @param {HTMLElement} host where the SVG goes
   * @param {object} opts `onMove(uci)`, `onSquare(square)` (editor clicks; when set, moves are off),
   *   `onShapes(codes)` (the player's arrows and circles changed)
   */
  constructor(host, opts = {}) {
    this.host = host;
    this.opts = opts;
    this.flipped = false;
    this.letters = false;
    this.fen = "";
    this.legal = {};
    this.last = null;
    this.check = null;
    this.arrows = [];
    this.selected = null;
    this.interactive = true;
    this.editing = false;
    this.drag = null;
    this.shapes = []; // the player's arrows and circles: codes such as "Gh2e2", "Re4"
    this.drawable = true; // whether the player may draw them now
    this.drawing = null; // a right-drag in progress: {from, to, color}
    this.animate = true; // moves slide
    this.dropped = null; // the move just dropped by a drag (it does not slide: the piece is there already)
    this.focus = "e0"; // the point the keyboard is on
    this.svg = el("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "board", role: "grid" });
    host.appendChild(this.svg);
    this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.svg.addEventListener("pointercancel", () => this.cancelDrag());
    this.svg.addEventListener("contextmenu", (e) => e.preventDefault());
    this.svg.addEventListener("keydown", (e) => this.key(e));
    this.render();
  }

  /** Screen position (x, y in the viewBox) of a square's point, after the flip. */
  xy(square) {
    const f = FILES.indexOf(square[0]);
    const r = Number(square.slice(1));
    const col = this.flipped ? 8 - f : f;
    const row = this.flipped ? r : 9 - r;
    return [MARGIN + col * CELL, MARGIN + row * CELL];
  }

  squareAt(x, y) {
    const col = Math.round((x - MARGIN) / CELL);
    const row = Math.round((y - MARGIN) / CELL);
    if (col < 0 || col > 8 || row < 0 || row > 9) return null;
    const f = this.flipped ? 8 - col : col;
    const r = this.flipped ? row : 9 - row;
    return FILES[f] + r;
  }

  set(state) {
    const before = { fen: this.fen, last: this.last };
    Object.assign(this, state);
    // a piece being dragged stays where the pointer is; the board is drawn again when it is dropped
    if (this.drag) return;
    this.render();
    if (this.fen !== before.fen) {
      if (this.last && this.last !== before.last) this.slide(before.fen);
      this.dropped = null;
    }
  }

  /**
   * Slides the piece of the last move from its origin (as drawn in `beforeFen`) to where it stands now (a CSS
   * transition of its transform, 150 ms: the style sheet's `.piece.sliding`), unless
   * moves do not slide, the piece was dropped there by a drag, or the position is not the one after that move.
   */
  slide(beforeFen) {
    const from = this.last.slice(0, 2);
    const to = this.last.slice(2, 4);
    if (!this.animate || this.dropped === this.last) return;
    const p = this.pieces.get(to);
    if (!p || placement(beforeFen).get(from) !== p || this.pieces.get(from)) return;
    const node = this.svg.querySelector(`[data-square="${to}"] [data-piece]`);
    if (!node) return;
    const [x1, y1] = this.xy(from);
    const [x2, y2] = this.xy(to);
    node.style.transform = `translate(${x1 - x2}px, ${y1 - y2}px)`;
    node.getBoundingClientRect(); // the start is laid out before the transition's class is set
    node.classList.add("sliding");
    node.style.transform = "";
    const done = () => node.classList.remove("sliding");
    node.addEventListener("transitionend", done, { once: true });
    node.addEventListener("transitioncancel", done, { once: true });
  }

  /** The accessible name of a point: its square and its piece (or that it is empty), and what a click does. */
  label(sq, p, dest) {
    let s = `${sq}${t("comma")}${p ? t(`piece_${p}`) : t("empty_point")}`;
    if (sq === this.selected) s += `${t("comma")}${t("selected_point")}`;
    if (dest) s += `${t("comma")}${t("move_here")}`;
    return s;
  }

  render() {
    const svg = this.svg;
    const hadFocus = svg.contains(document.activeElement);
    svg.textContent = "";
    svg.setAttribute("aria-label", t("board"));
    this.drawGrid();
    const marks = el("g", { class: "marks" }, svg);
    if (this.last) {
      for (const sq of [this.last.slice(0, 2), this.last.slice(2, 4)]) {
        const [x, y] = this.xy(sq);
        el("rect", { x: x - 27, y: y - 27, width: 54, height: 54, rx: 6, class: "last" }, marks);
      }
    }
    if (this.check) {
      const [x, y] = this.xy(this.check);
      el("circle", { cx: x, cy: y, r: 29, class: "check" }, marks);
    }
    const pieces = placement(this.fen);
    this.pieces = pieces;
    const layer = el("g", { class: "squares" }, svg);
    const dests = this.selected ? this.legal[this.selected] || [] : [];
    // the grid's rows and cells in the order they are seen, top left first
    for (let row = 0; row <= 9; row++) {
      const r = this.flipped ? row : 9 - row;
      const rowEl = el("g", { role: "row" }, layer);
      for (let col = 0; col <= 8; col++) {
        const f = this.flipped ? 8 - col : col;
        const sq = FILES[f] + r;
        const [x, y] = this.xy(sq);
        const p = pieces.get(sq);
        const dest = dests.includes(sq);
        const g = el("g", { "data-square": sq, class: "square", role: "gridcell", tabindex: sq === this.focus ? 0 : -1 }, rowEl);
        g.setAttribute("aria-label", this.label(sq, p, dest));
        if (sq === this.selected) g.setAttribute("aria-selected", "true");
        el("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: "hit" }, g);
        if (p) this.drawPiece(g, p, x, y, sq === this.selected);
        if (dest) {
          el("circle", { cx: x, cy: y, r: p ? 27 : 9, class: p ? "dest capture" : "dest" }, g);
        }
      }
    }
    const arrows = el("g", { class: "arrows", "aria-hidden": "true" }, svg);
    this.arrows.forEach((a, i) => this.drawArrow(arrows, a.uci, a.weight ?? 1 / (i + 1), `arrow${(a.color ?? i) % 5}`));
    this.shapeLayer = el("g", { class: "shapes", "aria-hidden": "true" }, svg);
    this.renderShapes();
    if (hadFocus) svg.querySelector(`[data-square="${this.focus}"]`)?.focus();
  }

  /** Draws the player's arrows and circles (and the one being drawn) again. */
  renderShapes() {
    const layer = this.shapeLayer;
    if (!layer) return;
    layer.textContent = "";
    if (!this.drawable) return;
    const codes = [...this.shapes];
    const d = this.drawing;
    if (d) codes.push(d.color + d.from + (d.to !== d.from ? d.to : ""));
    for (const code of codes) {
      const color = code[0];
      if (code.length === 5) {
        this.drawArrow(layer, code.slice(1), 0.8, `shape ${color}`)?.setAttribute("data-shape", code);
      } else {
        const [x, y] = this.xy(code.slice(1, 3));
        el("circle", { cx: x, cy: y, r: 28, class: `shape-circle ${color}`, "data-shape": code }, layer);
      }
    }
  }

  /** Adds the shape `code`, or removes it when it is there already (the same squares in another colour: replaced). */
  toggleShape(code) {
    const squares = code.slice(1);
    const same = this.shapes.find((c) => c.slice(1) === squares);
    this.shapes = this.shapes.filter((c) => c.slice(1) !== squares);
    if (same !== code) this.shapes.push(code);
    this.opts.onShapes?.([...this.shapes]);
    this.renderShapes();
  }

  /** The keyboard on the grid: the arrow keys move between points (as seen), Enter or Space clicks one. */
  key(e) {
    const sq = e.target.closest?.("[data-square]")?.dataset.square;
    if (!sq) return;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (moves[e.key]) {
      const [dx, dy] = moves[e.key];
      const s = this.flipped ? -1 : 1;
      const f = FILES.indexOf(sq[0]) + dx * s;
      const r = Number(sq[1]) + dy * s;
      if (f >= 0 && f <= 8 && r >= 0 && r <= 9) {
        this.focus = FILES[f] + r;
        for (const g of this.svg.querySelectorAll("[data-square]")) g.setAttribute("tabindex", g.dataset.square === this.focus ? 0 : -1);
        this.svg.querySelector(`[data-square="${this.focus}"]`).focus();
      }
    } else if (e.key === "Enter" || e.key === " ") {
      this.focus = sq;
      this.click(sq);
    } else return;
    e.preventDefault();
    e.stopPropagation();
  }

  drawGrid() {
    const g = el("g", { class: "grid" }, this.svg);
    el("rect", { x: MARGIN - 10, y: MARGIN - 10, width: CELL * 8 + 20, height: CELL * 9 + 20, class: "frame" }, g);
    const L = (a, b) => {
      const [x1, y1] = this.xy(a);
      const [x2, y2] = this.xy(b);
      el("line", { x1, y1, x2, y2 }, g);
    };
    for (let r = 0; r <= 9; r++) L("a" + r, "i" + r);
    L("a0", "a9");
    L("i0", "i9");
    for (let f = 1; f < 8; f++) {
      L(FILES[f] + 0, FILES[f] + 4);
      L(FILES[f] + 5, FILES[f] + 9);
    }
    // palaces
    L("d0", "f2"); L("f0", "d2"); L("d7", "f9"); L("f7", "d9");
    // the river's words, upright whichever way the board is turned
    const [, y4] = this.xy("a4");
    const [, y5] = this.xy("a5");
    const ym = (y4 + y5) / 2;
    el("text", { x: MARGIN + CELL * 2, y: ym, class: "river" }, g).textContent = "楚 河";
    el("text", { x: MARGIN + CELL * 6, y: ym, class: "river" }, g).textContent = "漢 界";
    // file numbers: Red's 九..一 on Red's side, Black's 1..9 on Black's side
    for (let f = 0; f < 9; f++) {
      const [xr, yr] = this.xy(FILES[f] + 0);
      const [xb, yb] = this.xy(FILES[f] + 9);
      const dr = this.flipped ? -1 : 1;
      el("text", { x: xr, y: yr + dr * 38, class: "fileno red" }, g).textContent = RED_FILES[f];
      el("text", { x: xb, y: yb - dr * 38, class: "fileno black" }, g).textContent = String(f + 1);
    }
    // the points where soldiers and cannons start
    const marks = ["b2", "h2", "b7", "h7", "a3", "c3", "e3", "g3", "i3", "a6", "c6", "e6", "g6", "i6"];
    for (const sq of marks) {
      const [x, y] = this.xy(sq);
      for (const dx of [-1, 1]) {
        if ((dx < 0 && sq[0] === "a") || (dx > 0 && sq[0] === "i")) continue;
        for (const dy of [-1, 1]) {
          const d = `M${x + dx * 5} ${y + dy * 13} V${y + dy * 5} H${x + dx * 13}`;
          el("path", { d, class: "tick" }, g);
        }
      }
    }
  }

  drawPiece(parent, p, x, y, selected) {
    const red = p === p.toUpperCase();
    const g = el("g", { "data-piece": p, class: `piece ${red ? "red" : "black"}${selected ? " selected" : ""}` }, parent);
    el("circle", { cx: x, cy: y, r: 26, class: "disc" }, g);
    el("circle", { cx: x, cy: y, r: 22, class: "ring" }, g);
    const t = el("text", { x, y, class: this.letters ? "glyph letter" : "glyph" }, g);
    t.textContent = this.letters ? WXF[p.toUpperCase()] : CHINESE[p];
    return g;
  }

  drawArrow(parent, uci, weight, cls) {
    if (!uci || uci.length < 4) return;
    const [x1, y1] = this.xy(uci.slice(0, 2));
    const [x2, y2] = this.xy(uci.slice(2, 4));
    const dx = x2 - x1;
    const dy = y2 - y1;
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len;
    const uy = dy / len;
    const head = 18;
    const w = 4 + 6 * Math.max(0.2, Math.min(1, weight));
    const ex = x2 - ux * head;
    const ey = y2 - uy * head;
    const px = -uy;
    const py = ux;
    const d = `M${x1 + px * w / 2} ${y1 + py * w / 2} L${ex + px * w / 2} ${ey + py * w / 2} ` +
      `L${ex + px * (w / 2 + 8)} ${ey + py * (w / 2 + 8)} L${x2} ${y2} ` +
      `L${ex - px * (w / 2 + 8)} ${ey - py * (w / 2 + 8)} L${ex - px * w / 2} ${ey - py * w / 2} ` +
      `L${x1 - px * w / 2} ${y1 - py * w / 2} Z`;
    return el("path", { d, class: `arrow ${cls}`, "data-arrow": uci }, parent);
  }

  point(e) {
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = pt.matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  movable(sq) {
    return (this.legal[sq] || []).length > 0;
  }

  click(sq) {
    if (this.editing) {
      this.opts.onSquare?.(sq);
      return;
    }
    if (!this.interactive) return;
    if (this.selected && (this.legal[this.selected] || []).includes(sq)) {
      const uci = this.selected + sq;
      this.selected = null;
      this.render();
      this.opts.onMove?.(uci);
      return;
    }
    this.selected = this.movable(sq) && this.selected !== sq ? sq : null;
    this.render();
  }

  pointerDown(e) {
    const [x, y] = this.point(e);
    const sq = this.squareAt(x, y);
    if (e.button === 2) {
      // a right-drag draws an arrow, a right-click a circle
      if (!sq || !this.drawable) return;
      e.preventDefault();
      this.drawing = { from: sq, to: sq, color: shapeColor(e) };
      this.svg.setPointerCapture?.(e.pointerId);
      this.renderShapes();
      return;
    }
    if (e.button !== 0) return;
    // a left click clears the drawn shapes (and does what it does)
    if (this.shapes.length && this.drawable) {
      this.shapes = [];
      this.opts.onShapes?.([]);
      this.renderShapes();
    }
    if (!sq) return;
    if (this.editing || !this.interactive || !this.movable(sq)) {
      this.click(sq);
      return;
    }
    e.preventDefault();
    const wasSelected = this.selected === sq;
    if (!wasSelected && this.selected && (this.legal[this.selected] || []).includes(sq)) {
      this.click(sq);
      return;
    }
    this.selected = sq;
    this.render();
    const node = this.svg.querySelector(`[data-square="${sq}"] [data-piece]`);
    this.drag = { from: sq, x, y, node, moved: false, wasSelected };
    this.svg.setPointerCapture?.(e.pointerId);
  }

  pointerMove(e) {
    if (this.drawing) {
      const [x, y] = this.point(e);
      const sq = this.squareAt(x, y);
      if (sq && sq !== this.drawing.to) {
        this.drawing.to = sq;
        this.renderShapes();
      }
      return;
    }
    if (!this.drag) return;
    const [x, y] = this.point(e);
    const d = this.drag;
    if (!d.moved && Math.hypot(x - d.x, y - d.y) < 6) return;
    d.moved = true;
    if (d.node) {
      if (d.node.parentNode !== this.svg) this.svg.appendChild(d.node);
      d.node.setAttribute("transform", `translate(${x - d.x} ${y - d.y})`);
      d.node.classList.add("dragging");
    }
  }

  pointerUp(e) {
    if (this.drawing) {
      const { from, to, color } = this.drawing;
      this.drawing = null;
      this.toggleShape(color + from + (to !== from ? to : ""));
      return;
    }
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    const [x, y] = this.point(e);
    const sq = this.squareAt(x, y);
    if (!d.moved) {
      // a plain click: a second click on the selected piece unselects it
      if (d.wasSelected) this.selected = null;
      this.render();
      return;
    }
    if (sq && (this.legal[d.from] || []).includes(sq)) {
      this.selected = null;
      this.dropped = d.from + sq;
      this.render();
      this.opts.onMove?.(d.from + sq);
    } else {
      this.render();
    }
  }

  cancelDrag() {
    this.drag = null;
    this.drawing = null;
    this.render();
  }
}
