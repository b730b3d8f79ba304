// The Learn tab: the course's algorithms as lessons. Each lesson asks the server for a `trace` (the steps the
// engine's own search code reported, the variant's pseudocode, why each move was pruned) and plays it back: the
// line being executed, the frame's variables, the tree as it stands. The practice, your own tree and the counts on
// the board's position live in learnmore.js.

import { t, language } from "./i18n.js";
import { LESSONS } from "./lessons.js";
import { drawCode, drawTree, indexTrace, nodeName, pathIds, pretty, raw, scrollCode } from "./learntree.js";
import { $, board, conn, page } from "./page.js";

/** What the tab shows: a lesson's run, the practice, your own tree or the counts; the trace and the step. */
export const learn = {
  mode: "lesson", lesson: 0, run: 0, data: null, ix: null, k: 0, timer: null, picked: null,
  marks: null, onPick: null, request: null, seq: 0,
};

/** The trace request of lesson `i`'s run `j` (lesson 4 reorders its tree first, with minimax's values). */
async function lessonRequest(i, j) {
  const lesson = LESSONS[i];
  const run = lesson.runs[j];
  const source = run.source || lesson.source;
  if (source === "fen") return { fen: lesson.fen, depth: lesson.depth, variant: run.variant };
  let tree = lesson.tree;
  if (run.order && run.order !== "given") tree = await reorder(tree, run.order === "best");
  return { synthetic: tree, variant: run.variant };
}

/** Parses a tree text into nested arrays (a leaf is a number). */
export function parseTree(text) {
  const tokens = text.match(/\(|\)|-?\d+/g) || [];
  let i = 0;
  const node = () => {
    const tok = tokens[i++];
    if (tok !== "(") return Number(tok);
    const kids = [];
    while (i < tokens.length && tokens[i] !== ")") kids.push(node());
    i++;
    return kids;
  };
  return node();
}

/** A tree in the `--synthetic` syntax. */
export function treeText(n) {
  return Array.isArray(n) ? `(${n.map(treeText).join(" ")})` : String(n);
}

/** The tree with each node's children sorted best first (or worst first) by their minimax values, which the
 * server's minimax computes (its trace's node values). */
async function reorder(text, bestFirst) {
  const d = await conn.ask({ type: "trace", synthetic: text, variant: "minimax", max_steps: 1 });
  const ix = indexTrace(d);
  const red = new Map(d.nodes.map((n) => [nodeName(ix, n.id), n.ply % 2 ? -n.value : n.value]));
  const sort = (n, name, max) => {
    if (!Array.isArray(n)) return n;
    const kids = n.map((c, i) => {
      const child = name === "root" ? `#${i}` : `${name} #${i}`;
      return { c: sort(c, child, !max), v: red.get(child) ?? 0 };
    });
    // best first for the side to move: Red (max) the largest first, Black the smallest
    kids.sort((a, b) => ((max === bestFirst) ? b.v - a.v : a.v - b.v));
    return kids.map((k) => k.c);
  };
  return treeText(sort(parseTree(text), "root", true));
}

/** Asks for a trace and shows it from step `k` (its first by default). */
export async function runTrace(request, k = 0) {
  const seq = ++learn.seq;
  stop();
  $("l-status").textContent = t("l_running");
  try {
    const data = await conn.ask({ type: "trace", ...request });
    if (seq !== learn.seq) return;
    learn.request = request;
    learn.data = data;
    learn.ix = indexTrace(data);
    learn.picked = null;
    $("l-why").textContent = "";
    $("l-status").textContent = summary(data);
    const range = $("l-step");
    range.max = Math.max(0, data.steps.length - 1);
    show(Math.min(k, data.steps.length - 1));
  } catch (e) {
    if (seq === learn.seq) $("l-status").textContent = `${t("error")}: ${e.message}`;
  }
}

function summary(d) {
  const leaves = d.nodes.filter((n) => !d.nodes.some((c) => c.parent === n.id));
  const evaluated = leaves.filter((n) => !n.pruned).length;
  const parts = [`${t("value")} ${pretty(d.value)}`, `${t("l_best")} ${d.best ?? "–"}`,
    `${d.searched} ${t("searched")}`, `${d.pruned} ${t("pruned")}`, `${d.steps.length} ${t("l_steps")}`];
  if (d.synthetic) parts.splice(2, 0, `${evaluated}/${leaves.length} ${t("l_leaves")}`);
  return `${d.variant}: ${parts.join(" · ")}`;
}

/** Shows step `k`: the code line, the frame, the tree, the board's path for a position. */
export function show(k) {
  const d = learn.data;
  if (!d || !d.steps.length) return;
  learn.k = Math.max(0, Math.min(k, d.steps.length - 1));
  const s = d.steps[learn.k];
  drawCode($("l-code"), d.listing, s.label);
  frame(s);
  $("l-step").value = learn.k;
  $("l-pos").textContent = `${learn.k + 1} / ${d.steps.length}`;
  $("l-pos").dataset.step = learn.k;
  // the tree, the board and the address follow once a frame (stepping fast redraws them once)
  if (!learn.frame) {
    learn.frame = requestAnimationFrame(() => {
      learn.frame = null;
      if (!learn.data) return;
      drawTree($("l-tree"), learn.data, learn.ix, learn.k, { onPick: pick, marks: learn.marks, picked: learn.picked });
      scrollCode($("l-code"));
      const st = learn.data?.steps[learn.k];
      if (learn.data?.fen && st?.node != null) {
        const moves = pathIds(learn.ix, st.node).slice(1).map((id) => learn.ix.byId.get(id).move);
        const arrows = moves.filter((m) => /^[a-i]\d[a-i]\d$/.test(m)).map((uci, i) => ({ uci, weight: 0.6, color: i }));
        board.set({ fen: learn.data.fen, arrows });
      } else if (!learn.data?.fen && page.state) {
        board.set({ fen: page.state.fen, arrows: [] });
      }
      saveUrl();
    });
  }
}

const FIELDS = ["label", "node", "ply", "depth", "alpha", "beta", "value", "best", "move"];

function frame(s) {
  const ix = learn.ix;
  const name = s.node != null ? nodeName(ix, s.node) : "?";
  const values = {
    label: [s.label, s.label], node: [`[${name}]`, `[${name}]`], ply: [s.ply, s.ply], depth: [s.depth, s.depth],
    alpha: [raw(s.alpha), pretty(s.alpha)], beta: [raw(s.beta), pretty(s.beta)], value: [raw(s.value), pretty(s.value)],
    best: [raw(s.best), pretty(s.best)], move: [s.move ?? "-", s.move ?? "–"],
  };
  const table = $("l-frame");
  if (!table.rows.length) {
    for (const f of [...FIELDS, "stack"]) {
      const tr = table.insertRow();
      tr.insertCell().dataset.i18n = `f_${f}`;
      tr.insertCell().dataset.testid = `frame-${f}`;
    }
  }
  [...FIELDS, "stack"].forEach((f, i) => {
    const row = table.rows[i];
    row.cells[0].textContent = t(`f_${f}`);
    if (f === "stack") {
      const ids = s.node != null ? pathIds(ix, s.node) : [];
      row.cells[1].textContent = ids.map((id) => ix.byId.get(id).move ?? t("l_root")).join(" › ");
      return;
    }
    row.cells[1].dataset.raw = values[f][0];
    row.cells[1].textContent = values[f][1];
  });
  const side = s.first ? t("red") : t("black");
  $("l-side").textContent = language() === "zh" ? `${side}${t("l_to_move")}` : `${side} ${t("l_to_move")}`;
}

/** A click on a node: why it was pruned, or what it returned. */
function pick(id) {
  learn.picked = id;
  if (learn.onPick && learn.onPick(id)) return show(learn.k);
  const n = learn.ix.byId.get(id);
  const why = $("l-why");
  const p = learn.ix.prunes.get(id);
  why.dataset.node = nodeName(learn.ix, id);
  if (p) why.textContent = sentence(p);
  else if (n.pruned) why.textContent = t("l_not_searched");
  else why.textContent = `[${nodeName(learn.ix, id)}] ${t("f_depth")} ${n.depth} · α ${pretty(n.alpha)} · β ${pretty(n.beta)} · ${t("value")} ${pretty(n.value)} · ${n.kind} · ${n.exit ?? ""}`;
  show(learn.k);
}

/** The sentence of a prune in the page's language (the server's English one, or its parts translated). */
export function sentence(p) {
  if (language() !== "zh") return p.text;
  if (p.kind === "cutoff") {
    const side = p.first_to_move ? "红方" : "黑方";
    const bounds = p.lowered_beta ? `β = ${p.beta} ≤ α = ${p.alpha}` : `α = ${p.alpha} ≥ β = ${p.beta}`;
    return `未搜索：在节点 [${p.at_name}]（${side}走），子节点 ${p.child_move ?? "?"} 返回 ${p.value} 之后，${bounds}`;
  }
  if (p.kind === "beneath") return `未搜索：位于 [${p.at_name}] 之下，那里没有被搜索`;
  return `未搜索：在节点 [${p.at_name}] 被无益剪枝跳过`;
}

export function stop() {
  clearInterval(learn.timer);
  learn.timer = null;
  $("l-play").textContent = t("l_play");
}

function play() {
  if (learn.timer) return stop();
  if (learn.data && learn.k >= learn.data.steps.length - 1) show(0);
  $("l-play").textContent = t("l_pause");
  learn.timer = setInterval(() => {
    if (!learn.data || learn.k >= learn.data.steps.length - 1) return stop();
    show(learn.k + 1);
  }, 350);
}

/** Opens lesson `i` (its run `j`) at step `k`. */
export async function openLesson(i, j = 0, k = 0) {
  learn.mode = "lesson";
  learn.lesson = i;
  learn.run = j;
  learn.marks = null;
  learn.onPick = null;
  renderHead();
  runTrace(await lessonRequest(i, j), k);
}

/** The lesson's title, text and its runs as buttons. */
export function renderHead() {
  for (const b of $("l-list").children) b.classList.toggle("on", b.dataset.mode === learn.mode && (learn.mode !== "lesson" || Number(b.dataset.lesson) === learn.lesson));
  for (const p of document.querySelectorAll("[data-learn]")) p.hidden = p.dataset.learn !== learn.mode;
  if (learn.mode !== "lesson") return;
  const lesson = LESSONS[learn.lesson];
  const [title, text] = lesson[language()] || lesson.en;
  $("l-title").textContent = `${learn.lesson + 1}. ${title}`;
  $("l-text").textContent = text;
  const runs = $("l-runs");
  runs.textContent = "";
  lesson.runs.forEach((r, j) => {
    const b = document.createElement("button");
    const where = (r.source || lesson.source) === "fen" ? ` · ${t("position")}` : "";
    b.textContent = `${r.variant}${r.order ? ` · ${t(`order_${r.order}`)}` : ""}${where}`;
    b.className = j === learn.run ? "on" : "";
    b.dataset.run = j;
    b.addEventListener("click", () => openLesson(learn.lesson, j));
    runs.appendChild(b);
  });
  if (lesson.key === "ordering") runs.append(` ${t("l_minimal")}: 3^2 + 3^1 − 1 = 11 / 27`);
}

/** The tab's state in the address (lesson, run, tree, variant, step), so that one link opens the same view. */
function saveUrl() {
  const q = new URLSearchParams();
  q.set("mode", learn.mode);
  if (learn.mode === "lesson") {
    q.set("lesson", learn.lesson + 1);
    q.set("run", learn.run + 1);
  } else if (learn.request) {
    if (learn.request.synthetic) q.set("tree", learn.request.synthetic);
    if (learn.request.fen) q.set("fen", learn.request.fen);
    if (learn.request.depth) q.set("depth", learn.request.depth);
    q.set("variant", learn.request.variant);
    if (learn.seed != null && learn.mode === "practice") q.set("seed", learn.seed);
  }
  if (learn.mode !== "practice" || learn.answered) q.set("step", learn.k);
  history.replaceState(null, "", `#learn?${q}`);
}

/** The state an address asks for, or null. */
export function readUrl() {
  const h = location.hash;
  if (!h.startsWith("#learn")) return null;
  const q = new URLSearchParams(h.slice(h.indexOf("?") + 1));
  return Object.fromEntries(q.entries());
}

/** Binds the tab's controls (once, when the page starts). */
export function bindLearn() {
  const list = $("l-list");
  LESSONS.forEach((l, i) => {
    const b = document.createElement("button");
    b.dataset.mode = "lesson";
    b.dataset.lesson = i;
    b.textContent = `${i + 1}`;
    b.title = l[language()]?.[0] ?? l.en[0];
    b.addEventListener("click", () => openLesson(i));
    list.insertBefore(b, $("l-practice"));
  });
  $("l-first").addEventListener("click", () => show(0));
  $("l-back").addEventListener("click", () => show(learn.k - 1));
  $("l-play").addEventListener("click", play);
  $("l-fwd").addEventListener("click", () => show(learn.k + 1));
  $("l-last").addEventListener("click", () => show(Infinity));
  $("l-step").addEventListener("input", () => show(Number($("l-step").value)));
}

/** Keys in the tab: arrows step, Home/End jump, space plays. */
export function learnKey(e) {
  if (e.key === "ArrowLeft") show(learn.k - 1);
  else if (e.key === "ArrowRight") show(learn.k + 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(Infinity);
  else if (e.key === " ") play();
  else return false;
  return true;
}
