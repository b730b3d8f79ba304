// The Learn tab's drawings: the searched tree at one step of its trace (what has been entered, returned, pruned,
// the call stack), and the pseudocode with the line being executed. Everything drawn comes from the server's
// `trace` answer; nothing here searches.

const SVG = "http://www.w3.org/2000/svg";
/** The search's infinity: a bound at or past it is drawn as ∞. */
const INF = 32000;
/** A tree with more nodes is drawn as its call stack and the children of the nodes on it. */
const MAX_DRAWN = 160;

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** A value as the trace text writes it: `-` for none, `-inf`/`+inf` for the infinite bounds. */
export function raw(v) {
  if (v == null) return "-";
  if (v >= INF) return "+inf";
  if (v <= -INF) return "-inf";
  return String(v);
}

/** A value for people: ∞ for the bounds, a minus sign. */
export function pretty(v) {
  if (v == null) return "·";
  if (v >= INF) return "+∞";
  if (v <= -INF) return "−∞";
  return v < 0 ? `−${-v}` : String(v);
}

/** What a trace answer gives the page, indexed: nodes by id, children, each node's first and last step. */
export function indexTrace(data) {
  const byId = new Map(data.nodes.map((n) => [n.id, n]));
  const kids = new Map();
  for (const n of data.nodes) {
    if (!kids.has(n.parent)) kids.set(n.parent, []);
    kids.get(n.parent).push(n);
  }
  // a synthetic tree's children in the order of the tree text (#0, #1, ...), a position's in search order
  const key = (n) => (/^#\d+$/.test(n.move ?? "") ? Number(n.move.slice(1)) : n.id);
  for (const list of kids.values()) list.sort((a, b) => key(a) - key(b));
  const first = new Map();
  const last = new Map();
  data.steps.forEach((s, i) => {
    if (s.node == null) return;
    if (!first.has(s.node)) first.set(s.node, i);
    last.set(s.node, i);
  });
  // a pruned move is shown as pruned from the step of the cutoff that decided it
  const decided = new Map();
  const prunes = new Map((data.prunes || []).map((p) => [p.id, p]));
  for (const p of prunes.values()) {
    if (p.kind === "cutoff") {
      const i = data.steps.findIndex((s, k) => s.node === p.at && /cutoff$/.test(s.label) && k >= (last.get(p.child) ?? 0));
      decided.set(p.id, i < 0 ? data.steps.length - 1 : i);
    }
  }
  for (const p of prunes.values()) {
    if (p.kind !== "cutoff") decided.set(p.id, decided.get(p.at) ?? data.steps.length - 1);
  }
  return { byId, kids, first, last, decided, prunes };
}

/** The ids from the root to node `id`. */
export function pathIds(ix, id) {
  const out = [];
  for (let x = id; x != null; x = ix.byId.get(x)?.parent) out.unshift(x);
  return out;
}

/** A node's name as the trace names it: `root`, or its moves from the root joined by spaces. */
export function nodeName(ix, id) {
  const moves = pathIds(ix, id).slice(1).map((x) => ix.byId.get(x).move);
  return moves.length ? moves.join(" ") : "root";
}

/** A node's value from Red's (the first player's) view: the recorder gives the side to move's. */
function redValue(n) {
  const v = n.pruned ? n.static : n.value;
  if (v == null) return null;
  return n.ply % 2 === 1 ? -v : v;
}

/**
 * Draws the tree into `host` as it stands after step `k`; `onPick(id)` is called when a node is clicked; `marks`
 * (a Set of ids) are drawn marked (the practice's guesses).
 */
export function drawTree(host, data, ix, k, { onPick, marks, picked } = {}) {
  host.textContent = "";
  const step = data.steps[k];
  const stack = new Set(step?.node != null ? pathIds(ix, step.node) : []);
  const big = data.nodes.length > MAX_DRAWN;
  let shown = data.nodes;
  if (big) {
    // the call stack, and the children of each node on it
    const keep = new Set(stack);
    for (const id of stack) for (const c of (ix.kids.get(id) || []).slice(0, 14)) keep.add(c.id);
    if (!keep.size && data.nodes.length) keep.add(data.nodes[0].id);
    shown = [...keep].map((id) => ix.byId.get(id)).filter(Boolean).sort((a, b) => a.id - b.id);
  }
  const keep = new Set(shown.map((n) => n.id));
  const kids = (id) => (ix.kids.get(id) || []).filter((c) => keep.has(c.id));
  const root = shown.find((n) => n.parent == null);
  if (!root) return;
  const pos = new Map();
  let col = 0;
  let depth = 0;
  if (big) {
    // one row a ply: the children of the node above on the call stack, side by side
    const cols = 14;
    col = cols;
    pos.set(root.id, { x: (cols - 1) / 2, y: 0 });
    for (let at = root; at; ) {
      const cs = kids(at.id);
      const y = pos.get(at.id).y + 1;
      const off = (cols - cs.length) / 2;
      cs.forEach((c, i) => pos.set(c.id, { x: off + i, y }));
      if (cs.length) depth = y;
      at = cs.find((c) => stack.has(c.id));
    }
  } else {
    // leaves left to right; a parent above the middle of its children
    const place = (n, d) => {
      depth = Math.max(depth, d);
      const cs = kids(n.id);
      if (!cs.length) pos.set(n.id, { x: col++, y: d });
      else {
        cs.forEach((c) => place(c, d + 1));
        const xs = cs.map((c) => pos.get(c.id).x);
        pos.set(n.id, { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: d });
      }
    };
    place(root, 0);
  }
  shown = shown.filter((n) => pos.has(n.id));
  const W = 44;
  const H = 62;
  const width = Math.max(1, col) * W + 20;
  const height = (depth + 1) * H + 10;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "ltree", "data-testid": "learn-tree" }, host);
  svg.style.maxWidth = `${Math.max(width * 1.2, 200)}px`;
  const xy = (id) => ({ x: 10 + pos.get(id).x * W + W / 2, y: 24 + pos.get(id).y * H });
  for (const n of shown) {
    if (n.parent == null || !pos.has(n.parent)) continue;
    const a = xy(n.parent);
    const b = xy(n.id);
    const seen = (ix.first.get(n.id) ?? Infinity) <= k;
    const cut = n.pruned && (ix.decided.get(n.id) ?? Infinity) <= k;
    el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: `edge${seen ? " seen" : ""}${cut ? " cut" : ""}${stack.has(n.id) ? " stack" : ""}` }, svg);
    if (n.move && !/^#/.test(n.move)) {
      const t = el("text", { x: b.x, y: b.y - 19, class: "emove" }, svg);
      t.textContent = n.move;
    }
  }
  for (const n of shown) {
    const { x, y } = xy(n.id);
    const seen = (ix.first.get(n.id) ?? Infinity) <= k;
    const done = (ix.last.get(n.id) ?? Infinity) <= k && step?.node !== n.id;
    const cut = n.pruned && (ix.decided.get(n.id) ?? Infinity) <= k;
    const leaf = !(ix.kids.get(n.id) || []).length;
    const red = n.ply % 2 === 0;
    const cls = ["lnode", red ? "max" : "min", seen ? "seen" : "", done ? "done" : "", cut ? "cut" : "",
      stack.has(n.id) ? "stack" : "", step?.node === n.id ? "current" : "", marks?.has(n.id) ? "marked" : "",
      picked === n.id ? "picked" : ""].filter(Boolean).join(" ");
    const g = el("g", { class: cls, "data-node": n.id, "data-name": nodeName(ix, n.id) }, svg);
    if (red) el("rect", { x: x - 14, y: y - 14, width: 28, height: 28, rx: 3 }, g);
    else el("circle", { cx: x, cy: y, r: 15 }, g);
    // a synthetic leaf shows its value (the tree's input); any other node once it has returned
    const v = (leaf && data.synthetic) || done || (n.pruned && data.synthetic) ? redValue(n) : null;
    const t = el("text", { x, y, class: "nval" }, g);
    t.textContent = v == null ? "" : pretty(v);
    if (cut) {
      const s = el("text", { x: x + 12, y: y - 12, class: "scissors" }, g);
      s.textContent = "✂";
    }
    const kind = { "zero-window": "zw", "re-search": "re", quiescence: "qs", null: "null" }[n.kind];
    if (kind && n.move !== "null") {
      const k2 = el("text", { x, y: y + 25, class: "kind" }, g);
      k2.textContent = kind;
    }
    if (n.omitted) {
      const o = el("text", { x, y: y + 26, class: "omitted" }, g);
      o.textContent = `+${n.omitted}`;
    }
    if (onPick) g.addEventListener("click", () => onPick(n.id));
  }
}

/** Draws the listing into `host`, one line each with its label; `label` is highlighted. */
export function drawCode(host, listing, label) {
  const key = JSON.stringify(listing.map((f) => f.name + f.lines.length));
  if (host.dataset.listing !== key) {
    host.textContent = "";
    host.dataset.listing = key;
    host.byLabel = new Map();
    host.current = null;
    for (const f of listing) {
      for (const l of f.lines) {
        const line = document.createElement("div");
        line.className = "cline";
        if (l.label) {
          line.dataset.label = l.label;
          if (!host.byLabel.has(l.label)) host.byLabel.set(l.label, line);
        }
        line.style.paddingLeft = `${l.indent * 1.4 + 0.3}em`;
        line.textContent = l.text;
        host.appendChild(line);
      }
      host.appendChild(document.createElement("br"));
    }
  }
  const line = host.byLabel.get(label) ?? null;
  if (line === host.current) return;
  host.current?.classList.remove("current");
  line?.classList.add("current");
  host.current = line;
}

/** Scrolls the listing so that its current line is in view. */
export function scrollCode(host) {
  const line = host.current;
  if (!line) return;
  const top = line.offsetTop - host.offsetTop;
  if (top < host.scrollTop || top > host.scrollTop + host.clientHeight - 20) host.scrollTop = top - host.clientHeight / 3;
}
