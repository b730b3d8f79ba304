// The Learn tab's exercises: the practice ("which leaves will alpha-beta never evaluate?"), your own tree (typed
// or edited by clicking) and the node counts of each variant on the board's position. The answers come from the
// server's searches; the page only generates the practice's trees from a seed, and compares.

import { t } from "./i18n.js";
import { learn, parseTree, readUrl, renderHead, runTrace, show, stop, treeText, openLesson } from "./learn.js";
import { indexTrace, nodeName, pretty } from "./learntree.js";
import { $, conn } from "./page.js";
import { game, pathOf } from "./gametree.js";

/** A seeded generator of numbers in [0, 1) (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random tree from `seed`: each inner node 2 to 4 children, the depth 2 to 4, leaves from `lo` to `hi`. */
export function randomTree(seed, lo = -9, hi = 9) {
  const r = rng(seed);
  const int = (a, b) => a + Math.floor(r() * (b - a + 1));
  const depth = int(2, 4);
  const gen = (d) => (d === 0 ? int(lo, hi) : Array.from({ length: int(2, depth === 4 ? 3 : 4) }, () => gen(d - 1)));
  return treeText(gen(depth));
}

// ---------------------------------------------------------------- practice

const practice = { tree: null, names: new Set(), answered: false };

function markIds() {
  const ix = learn.ix;
  learn.marks = new Set(learn.data.nodes.filter((n) => practice.names.has(nodeName(ix, n.id))).map((n) => n.id));
}

/** A new practice tree (from `seed`), to be marked before the search runs. */
export async function openPractice(seed, variant, step) {
  learn.mode = "practice";
  learn.seed = seed;
  renderHead();
  $("p-seed").value = seed;
  if (variant) $("p-variant").value = variant;
  const lo = Number($("p-lo").value);
  const hi = Number($("p-hi").value);
  practice.tree = randomTree(seed, Math.min(lo, hi), Math.max(lo, hi));
  practice.names = new Set();
  practice.answered = false;
  learn.answered = false;
  $("p-score").textContent = "";
  $("p-mistakes").textContent = "";
  learn.onPick = (id) => {
    const n = learn.ix.byId.get(id);
    if (practice.answered || (learn.ix.kids.get(id) || []).length) return false;
    const name = nodeName(learn.ix, id);
    if (practice.names.has(name)) practice.names.delete(name);
    else practice.names.add(name);
    markIds();
    return n != null;
  };
  // the tree is drawn from minimax's trace before any step: every leaf's value, nothing searched yet
  await runTrace({ synthetic: practice.tree, variant: "minimax", max_steps: 1 }, 0);
  learn.request = { synthetic: practice.tree, variant: $("p-variant").value };
  markIds();
  show(0);
  if (step != null) await answer(Number(step));
}

/** Runs the search on the practice tree and scores the marks: found, missed, wrongly marked. */
async function answer(step = 0) {
  practice.answered = true;
  learn.answered = true;
  await runTrace({ synthetic: practice.tree, variant: $("p-variant").value }, step);
  markIds();
  const ix = learn.ix;
  const leaves = learn.data.nodes.filter((n) => !(ix.kids.get(n.id) || []).length);
  const pruned = new Set(leaves.filter((n) => n.pruned).map((n) => n.id));
  const found = [...learn.marks].filter((id) => pruned.has(id));
  const missed = [...pruned].filter((id) => !learn.marks.has(id));
  const wrong = [...learn.marks].filter((id) => !pruned.has(id));
  const score = $("p-score");
  score.dataset.found = found.length;
  score.dataset.missed = missed.length;
  score.dataset.wrong = wrong.length;
  score.textContent = `${t("p_found")} ${found.length} / ${pruned.size} · ${t("p_missed")} ${missed.length} · ${t("p_wrong")} ${wrong.length}`;
  const list = $("p-mistakes");
  list.textContent = "";
  const add = (id, kind, at) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.textContent = `[${nodeName(ix, id)}] ${t(kind)}`;
    b.dataset.node = nodeName(ix, id);
    b.dataset.step = at;
    b.addEventListener("click", () => {
      learn.picked = id;
      show(at);
    });
    li.appendChild(b);
    list.appendChild(li);
  };
  // a missed leaf: the cutoff that pruned it; a wrong mark: the step that evaluated the leaf
  for (const id of missed) add(id, "p_missed_one", ix.decided.get(id) ?? 0);
  for (const id of wrong) add(id, "p_wrong_one", ix.first.get(id) ?? 0);
  show(learn.k);
}

// ---------------------------------------------------------------- your own tree

/** Runs the typed tree with the chosen variant. */
export function openOwn(tree, variant, step = 0) {
  learn.mode = "own";
  learn.marks = null;
  renderHead();
  if (tree) $("o-tree").value = tree;
  if (variant) $("o-variant").value = variant;
  learn.onPick = (id) => {
    $("o-selected").textContent = `[${nodeName(learn.ix, id)}]`;
    return false;
  };
  return runTrace({ synthetic: $("o-tree").value.trim(), variant: $("o-variant").value.trim() || "alphabeta" }, step);
}

/** Edits the tree at the selected node: `add` a child, `set` a leaf's value, `remove` it. */
function edit(action) {
  if (learn.picked == null || !learn.ix) return;
  const name = nodeName(learn.ix, learn.picked);
  const path = name === "root" ? [] : name.split(" ").map((m) => Number(m.slice(1)));
  const root = parseTree($("o-tree").value);
  let parent = null;
  let node = root;
  for (const i of path) {
    parent = node;
    node = node[i];
  }
  const value = Number($("o-value").value) || 0;
  const put = (v) => {
    if (parent) parent[path[path.length - 1]] = v;
  };
  let tree = root;
  if (action === "add") {
    if (Array.isArray(node)) node.push(value);
    else if (parent) put([node, value]);
    else tree = [node, value];
  } else if (action === "set") {
    if (!Array.isArray(node)) put(value);
  } else if (action === "remove" && parent && parent.length > 1) {
    parent.splice(path[path.length - 1], 1);
  }
  $("o-tree").value = treeText(tree);
  openOwn();
}

// ---------------------------------------------------------------- counts on the board's position

/** The variants counted, in the course's order; the first five are exact (they must agree on the value). */
export const COUNTED = ["minimax", "alphabeta", "negamax-ab", "negamax-ab+order", "negamax-ab+order+pvs",
  "negamax-ab+order+pvs+nmp", "negamax-ab+order+pvs+nmp+qs", "engine"];
const EXACT = 5;

async function counts() {
  const box = $("c-chart");
  box.textContent = t("l_running");
  try {
    const r = await conn.ask({ type: "compare", fen: game.fen, moves: pathOf(game.cur), variants: COUNTED, depth: 4 });
    box.textContent = "";
    const max = Math.max(...r.rows.map((x) => x.nodes));
    const agree = [];
    for (let d = 1; d <= r.depth; d++) {
      const rows = r.rows.filter((x) => x.depth === d);
      const exact = rows.slice(0, EXACT).map((x) => x.score);
      agree.push(exact.every((s) => s === exact[0]));
      const h = document.createElement("h4");
      h.textContent = `${t("depth")} ${d}`;
      box.appendChild(h);
      for (const x of rows) {
        const row = document.createElement("div");
        row.className = "crow";
        Object.assign(row.dataset, { variant: x.variant, depth: d, nodes: x.nodes, score: x.score });
        const name = document.createElement("span");
        name.className = "cname";
        name.textContent = x.variant;
        const bar = document.createElement("span");
        bar.className = `cbar${rows.indexOf(x) < EXACT ? " exact" : ""}`;
        bar.style.width = `${Math.max(0.5, (Math.log10(x.nodes + 1) / Math.log10(max + 1)) * 100) * 0.6}%`;
        const num = document.createElement("span");
        num.className = "cnum";
        num.textContent = `${x.nodes.toLocaleString()} · ${pretty(x.score)} · ${x.best ?? "–"}`;
        row.append(name, bar, num);
        box.appendChild(row);
      }
    }
    const ok = agree.every(Boolean);
    const p = document.createElement("p");
    p.id = "c-agree";
    p.dataset.agree = ok;
    p.textContent = ok ? t("c_agree") : t("c_disagree");
    box.prepend(p);
  } catch (e) {
    box.textContent = `${t("error")}: ${e.message}`;
  }
}

function openCounts() {
  stop();
  learn.mode = "counts";
  renderHead();
}

/** Binds the exercises' controls, and opens what the address asks for (or the first lesson). */
export function bindMore() {
  $("p-new").addEventListener("click", () => openPractice(Math.floor(Math.random() * 1e6), null));
  $("p-open").addEventListener("click", () => openPractice(Number($("p-seed").value) || 1, null));
  $("p-run").addEventListener("click", () => answer(0));
  $("o-run").addEventListener("click", () => openOwn());
  $("o-add").addEventListener("click", () => edit("add"));
  $("o-set").addEventListener("click", () => edit("set"));
  $("o-remove").addEventListener("click", () => edit("remove"));
  $("c-run").addEventListener("click", counts);
  for (const b of $("l-list").querySelectorAll("[data-mode]:not([data-mode=lesson])")) {
    b.addEventListener("click", () => {
      if (b.dataset.mode === "practice") openPractice(Number($("p-seed").value) || 1, null);
      else if (b.dataset.mode === "own") openOwn();
      else openCounts();
    });
  }
}

/** Opens the view the address names, else the first lesson. */
export function openFromUrl() {
  const q = readUrl() || {};
  const step = Number(q.step) || 0;
  if (q.mode === "practice" && q.seed) return openPractice(Number(q.seed), q.variant, q.step);
  if (q.mode === "own" && q.tree) return openOwn(q.tree, q.variant, step);
  if (q.mode === "counts") return openCounts();
  return openLesson(Math.max(0, (Number(q.lesson) || 1) - 1), Math.max(0, (Number(q.run) || 1) - 1), step);
}
