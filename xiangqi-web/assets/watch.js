// Watch the search: the tree one search visits (the server's `watch` answer, from the search's recorder), played
// back node by node, two variants side by side. Each node shows its move, the window on entry, the value it
// returned and how it ended (cutoff, table hit, null move, zero window, re-search, pruned).

import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
/** Trees up to this many nodes are also drawn as a picture (larger ones only as the outline). */
const MAX_DRAWN = 150;

function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function fmtValue(v) {
  if (v == null) return "·";
  // the search's infinity is 32000, a mate in n plies scores 30000 - n
  if (typeof v === "number" && Math.abs(v) >= 32000) return v > 0 ? "+∞" : "−∞";
  if (typeof v === "number" && Math.abs(v) > 29000) return `${v > 0 ? "+" : "−"}M${30000 - Math.abs(v)}`;
  return String(v);
}

class Pane {
  constructor(host) {
    this.host = host;
    this.data = null;
  }

  load(data, view) {
    this.data = data;
    this.places = null;
    for (const n of data.nodes) n.raw = { alpha: n.alpha, beta: n.beta, value: n.value, static: n.static };
    this.byId = new Map();
    this.kids = new Map();
    for (const n of data.nodes) {
      this.byId.set(n.id, n);
      if (!this.kids.has(n.parent)) this.kids.set(n.parent, []);
      this.kids.get(n.parent).push(n);
    }
    this.rank = new Map(data.order.map((id, i) => [id, i]));
    // searched children in visit order, then the pruned ones
    for (const list of this.kids.values()) {
      list.sort((a, b) => (this.rank.get(a.id) ?? 1e9) - (this.rank.get(b.id) ?? 1e9));
    }
    this.setView(view);
  }

  /**
   * The recorder gives windows and values from the side to move's view; `root` shows them from the root player's
   * view (as the spec's figure does): at odd plies the value is negated and the window [a, b] becomes [-b, -a].
   */
  setView(view) {
    if (!this.data) return;
    const neg = (v) => (v == null ? v : -v);
    const ply = (n) => {
      if (n.ply != null) return n.ply;
      let k = 0;
      for (let p = n.parent; p != null; p = this.byId.get(p)?.parent) k++;
      return k;
    };
    for (const n of this.data.nodes) {
      const flip = view === "root" && ply(n) % 2 === 1;
      const r = n.raw;
      Object.assign(n, flip
        ? { alpha: neg(r.beta), beta: neg(r.alpha), value: neg(r.value), static: neg(r.static) }
        : { alpha: r.alpha, beta: r.beta, value: r.value, static: r.static });
    }
  }

  /** The moves from the root to node `k` of the visit order. */
  pathTo(step) {
    const d = this.data;
    if (!d || !d.order.length) return [];
    const moves = [];
    for (let id = d.order[Math.min(step, d.order.length - 1)]; id != null; id = this.byId.get(id)?.parent) {
      const n = this.byId.get(id);
      if (n?.move && n.parent != null) moves.push(n.move);
    }
    return moves.reverse();
  }

  length() {
    return this.data ? this.data.order.length : 0;
  }

  error(message) {
    this.data = null;
    this.host.innerHTML = "";
    const p = document.createElement("p");
    p.className = "msg error";
    p.textContent = `${t("error")}: ${message}`;
    this.host.appendChild(p);
  }

  /** Places every node once: leaves left to right in visit order, a parent above the middle of its children. */
  layout() {
    if (this.places) return this.places;
    const places = new Map();
    let leaf = 0;
    let height = 0;
    const place = (n, level) => {
      height = Math.max(height, level);
      const kids = this.kids.get(n.id) || [];
      if (!kids.length) {
        places.set(n.id, { x: leaf++, y: level });
      } else {
        kids.forEach((c) => place(c, level + 1));
        const xs = kids.map((c) => places.get(c.id).x);
        places.set(n.id, { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: level });
      }
    };
    for (const r of this.kids.get(null) || []) place(r, 0);
    this.places = { places, leaves: leaf, height };
    return this.places;
  }

  /** The tree as a picture: squares for the root player's nodes, circles for the other's; values once returned. */
  drawing(k, cur, visited, done) {
    const { places, leaves, height } = this.layout();
    const DX = 30;
    const DY = 52;
    const W = Math.max(1, leaves) * DX + 20;
    const H = (height + 1) * DY + 10;
    const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "wdraw", "data-testid": "watch-tree" });
    const pos = (id) => {
      const p = places.get(id);
      return [10 + DX / 2 + p.x * DX, 22 + p.y * DY];
    };
    const edges = svgEl("g", {}, svg);
    const dots = svgEl("g", {}, svg);
    for (const n of this.data.nodes) {
      const [x, y] = pos(n.id);
      const seen = visited(n.id);
      const fin = done(n);
      if (n.parent != null) {
        const [px, py] = pos(n.parent);
        const cls = n.pruned ? (seen ? "edge pruned" : "edge future") : seen ? "edge seen" : "edge future";
        svgEl("line", { x1: px, y1: py, x2: x, y2: y, class: cls }, edges);
        if (n.pruned && seen) {
          const mx = (px + x) / 2;
          const my = (py + y) / 2;
          svgEl("path", { d: `M${mx - 5} ${my - 5} L${mx + 5} ${my + 5} M${mx + 5} ${my - 5} L${mx - 5} ${my + 5}`, class: "cut" }, edges);
        }
      }
      const g = svgEl("g", { class: `dot${seen ? " seen" : ""}${fin ? " done" : ""}${n.pruned ? " pruned" : ""}` +
        `${n.id === cur ? " current" : ""}${fin && n.exit ? " e-" + n.exit : ""}${n.kind ? " k-" + n.kind : ""}`, "data-node": n.id }, dots);
      const ply = n.ply ?? places.get(n.id).y;
      if (ply % 2 === 0) svgEl("rect", { x: x - 11, y: y - 11, width: 22, height: 22, rx: 3 }, g);
      else svgEl("circle", { cx: x, cy: y, r: 12 }, g);
      const leaf = !(this.kids.get(n.id) || []).some((c) => !c.pruned);
      const show = !n.pruned && (fin || (n.id === cur && leaf));
      const label = n.pruned ? (n.static != null && seen ? fmtValue(n.static) : "") : show ? fmtValue(n.value) : "";
      svgEl("text", { x, y, class: "v" }, g).textContent = label;
      const title = svgEl("title", {}, g);
      title.textContent = `${n.move ?? "root"} [${fmtValue(n.alpha)}, ${fmtValue(n.beta)}] → ${fmtValue(n.value)}` +
        `${n.kind ? " " + n.kind : ""}${n.exit ? " " + n.exit : ""}${n.pruned ? " pruned" : ""}`;
      if (n.id === cur && n.alpha != null) {
        svgEl("text", { x, y: y - 16, class: "win" }, g).textContent = `[${fmtValue(n.alpha)}, ${fmtValue(n.beta)}]`;
      }
    }
    return svg;
  }

  /** Draws the tree as it stands after `step` visits (0: the root only). */
  render(step) {
    const d = this.data;
    if (!d) return;
    const k = Math.max(0, Math.min(step, d.order.length - 1));
    const cur = d.order[k];
    const visited = (id) => (this.rank.get(id) ?? Infinity) <= k;
    // the path from the root to the current node: those nodes are still open (no value yet)
    const open = new Set();
    for (let id = cur; id != null; id = this.byId.get(id)?.parent) open.add(id);
    // a node is finished when the search has moved on past its subtree
    const last = new Map();
    const lastOf = (n) => {
      if (last.has(n.id)) return last.get(n.id);
      let r = this.rank.get(n.id) ?? -1;
      for (const c of this.kids.get(n.id) || []) r = Math.max(r, lastOf(c));
      last.set(n.id, r);
      return r;
    };
    const done = (n) => visited(n.id) && !open.has(n.id) && lastOf(n) <= k;

    this.host.textContent = "";
    const head = document.createElement("div");
    head.className = "whead";
    head.innerHTML = "";
    const name = document.createElement("b");
    name.textContent = d.variant;
    head.appendChild(name);
    const nodes = d.search_nodes != null ? ` · ${t("nodes")} ${d.search_nodes}` : "";
    head.append(` · ${t("searched")} ${d.searched} · ${t("pruned")} ${d.pruned}${nodes}`);
    if (d.value != null) head.append(` · ${t("value")} ${fmtValue(d.value)}${d.best ? " (" + d.best + ")" : ""}`);
    if (d.total != null && d.sent != null && d.sent < d.total) head.append(` · ${t("shown")} ${d.sent}/${d.total}`);
    head.dataset.testid = "watch-count";
    head.dataset.searched = d.searched;
    head.dataset.pruned = d.pruned;
    if (d.search_nodes != null) head.dataset.nodes = d.search_nodes;
    this.host.appendChild(head);

    const curNode = this.byId.get(cur);
    const detail = document.createElement("div");
    detail.className = "wdetail";
    detail.dataset.testid = "watch-detail";
    if (curNode?.pruned) {
      detail.textContent = `${t("node")} ${k + 1}/${d.order.length}: ${curNode.move} · ${t("pruned")}` +
        `${curNode.reason ? ": " + curNode.reason : ""}`;
    } else if (curNode) {
      // What the tree shows of the node entered, no more: a leaf's value (evaluated on entry); an inner node's value
      // and exit only once the tree reveals them (after its subtree, when it is no longer the current node).
      const leaf = !(this.kids.get(curNode.id) || []).some((c) => !c.pruned);
      const fin = done(curNode);
      detail.dataset.leaf = leaf;
      detail.textContent = `${t("node")} ${k + 1}/${d.order.length}: ${curNode.move ?? "root"} · ` +
        `${t("window")} [${fmtValue(curNode.alpha)}, ${fmtValue(curNode.beta)}] · ${t("kind")} ${curNode.kind}` +
        `${fin || leaf ? ` · ${t("value")} ${fmtValue(curNode.value)}` : ""}` +
        `${fin ? ` · ${t("exit")} ${curNode.exit}` : ""}`;
    }
    this.host.appendChild(detail);

    const ul = document.createElement("ul");
    ul.className = "wtree";
    const roots = this.kids.get(null) || [];
    const walk = (n, parentEl, parentShown) => {
      const inOrder = this.rank.has(n.id);
      const seen = visited(n.id);
      // moves never announced to the search (inside a pruned subtree) appear with their pruned parent
      if (inOrder ? !seen : !parentShown) return;
      const li = document.createElement("li");
      const row = document.createElement("span");
      const fin = done(n);
      const kids = this.kids.get(n.id) || [];
      const leaf = !kids.some((c) => !c.pruned);
      row.className = `wnode${n.kind ? " k-" + n.kind : ""}${fin && n.exit ? " e-" + n.exit : ""}` +
        `${n.pruned ? " pruned" : ""}${n.id === cur ? " current" : ""}`;
      row.dataset.node = n.id;
      if (n.pruned) {
        const stat = n.static != null ? ` ${fmtValue(n.static)}` : "";
        row.textContent = `${n.move ?? "·"} (${t("pruned")}${n.reason ? ": " + n.reason : ""})${stat}`;
      } else {
        const value = fin || (n.id === cur && leaf) ? ` → ${fmtValue(n.value)}` : "";
        const exit = fin && n.exit && n.exit !== "value" ? ` ${n.exit}` : "";
        const kind = n.kind && n.kind !== "main" ? ` ${n.kind}` : "";
        row.textContent = `${n.move ?? "root"} [${fmtValue(n.alpha)}, ${fmtValue(n.beta)}]${value}${kind}${exit}`;
      }
      if (n.omitted) row.textContent += ` (+${n.omitted})`;
      li.appendChild(row);
      parentEl.appendChild(li);
      if (kids.length) {
        const sub = document.createElement("ul");
        for (const c of kids) walk(c, sub, n.pruned || fin);
        if (sub.children.length) li.appendChild(sub);
      }
    };
    for (const r of roots) walk(r, ul, false);
    if (d.nodes.length <= MAX_DRAWN) this.host.appendChild(this.drawing(k, cur, visited, done));
    this.host.appendChild(ul);
    const c = ul.querySelector(".current");
    if (c) {
      const top = c.offsetTop;
      if (top < ul.scrollTop || top > ul.scrollTop + ul.clientHeight - 20) ul.scrollTop = top - ul.clientHeight / 2;
    }
  }
}

export class Watch {
  constructor(conn, opts) {
    this.conn = conn;
    this.opts = opts;
    this.panes = [new Pane($("w-a")), new Pane($("w-b"))];
    this.stepNo = 0;
    $("w-run").addEventListener("click", () => this.run());
    $("w-first").addEventListener("click", () => this.go(0));
    $("w-last").addEventListener("click", () => this.go(Infinity));
    $("w-back").addEventListener("click", () => this.step(-1));
    $("w-fwd").addEventListener("click", () => this.step(1));
    $("w-step").addEventListener("input", () => this.go(Number($("w-step").value)));
    $("w-view").addEventListener("change", () => {
      for (const p of this.panes) p.setView($("w-view").value);
      this.go(this.stepNo);
    });
  }

  async run() {
    const src = document.querySelector("input[name=wsrc]:checked").value;
    const base = src === "synthetic"
      ? { synthetic: $("w-tree").value.trim() }
      : { ...this.opts.line(), depth: Number($("w-depth").value) };
    const variants = [$("w-va").value.trim(), $("w-vb").value.trim()];
    this.source = src;
    const answers = await Promise.all(variants.map((variant, i) => {
      if (!variant) return null;
      return this.conn.ask({ type: "watch", ...base, variant }).then(
        (m) => { this.panes[i].load(m, $("w-view").value); return m; },
        (e) => { this.panes[i].error(e.message); return null; },
      );
    }));
    if (!variants[1]) this.panes[1].host.textContent = "";
    this.max = Math.max(0, ...answers.filter(Boolean).map((m) => m.order.length - 1));
    $("w-step").max = this.max;
    this.go(0);
  }

  step(delta) {
    this.go(this.stepNo + delta);
  }

  go(k) {
    this.stepNo = Math.max(0, Math.min(this.max ?? 0, k));
    $("w-step").value = this.stepNo;
    $("w-pos").textContent = `${this.stepNo + 1} / ${(this.max ?? 0) + 1}`;
    for (const p of this.panes) p.render(this.stepNo);
    if (this.source === "position") this.opts.showPath(this.panes[0].pathTo(this.stepNo));
  }
}
