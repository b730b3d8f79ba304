// Watch the search: the tree one search visits (the server's `watch` answer, from the search's recorder), played
// back node by node, two variants side by side. Each node shows its move, the window on entry, the value it
// returned and how it ended (cutoff, table hit, null move, zero window, re-search, pruned).

import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

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

  load(data) {
    this.data = data;
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
    if (d.search_nodes != null) head.dataset.nodes = d.search_nodes;
    this.host.appendChild(head);

    const curNode = this.byId.get(cur);
    const detail = document.createElement("div");
    detail.className = "wdetail";
    if (curNode?.pruned) {
      detail.textContent = `${t("node")} ${k + 1}/${d.order.length}: ${curNode.move} · ${t("pruned")}` +
        `${curNode.reason ? ": " + curNode.reason : ""}`;
    } else if (curNode) {
      detail.textContent = `${t("node")} ${k + 1}/${d.order.length}: ${curNode.move ?? "root"} · ` +
        `${t("window")} [${fmtValue(curNode.alpha)}, ${fmtValue(curNode.beta)}] · ${t("kind")} ${curNode.kind} · ` +
        `${t("value")} ${fmtValue(curNode.value)} · ${t("exit")} ${curNode.exit}`;
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
    this.host.appendChild(ul);
    const c = ul.querySelector(".current");
    if (c) {
      const top = c.offsetTop - ul.offsetTop;
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
        (m) => { this.panes[i].load(m); return m; },
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
