// The review of a game: the server's evaluation of every position, the chart under the board (a click goes to a
// position), the marked moves, and the engine's best move from the position shown as an arrow.

import { game, mainEnd, moveLabel, pathOf } from "./gametree.js";
import { t } from "./i18n.js";
import { $, actions, conn, notate, page, selectTab } from "./page.js";
import { save } from "./storage.js";

$("btn-review-end").addEventListener("click", () => {
  selectTab("games");
  $("btn-review").click();
});
$("btn-review").addEventListener("click", () => {
  const end = mainEnd();
  const moves = pathOf(end);
  const nodes = [];
  for (let n = end; n; n = n.parent) nodes.unshift(n);
  $("review-progress").textContent = t("reviewing");
  if (page.reviewId) conn.forget(page.reviewId);
  page.reviewId = conn.send({ type: "review", fen: game.fen, moves, movetime: Number($("review-ms").value) || 300 }, (m) => {
    if (m.type === "review_progress") $("review-progress").textContent = `${t("reviewing")} ${m.done}/${m.total}`;
    else if (m.type === "error") $("review-progress").textContent = `${t("error")}: ${m.message}`;
    else if (m.type === "review") {
      conn.forget(m.id);
      $("review-progress").textContent = "";
      // kept with the game (localStorage), so that a reload shows the review again
      game.review = { line: moves, evals: m.evals, capped: m.capped, moves: m.moves };
      save();
      showReview(m, nodes);
    }
  });
});

/** The class of a review mark: `?!` an inaccuracy, `?` a mistake, `??` a blunder. */
export function markClass(mark) {
  return { "?!": "inaccuracy", "?": "mistake", "??": "blunder" }[mark] ?? "";
}

/** The current position's place on the review chart. */
export function markReview() {
  const r = page.reviewed;
  if (!r) return;
  const i = r.nodes.indexOf(game.cur);
  r.cursor.style.display = i < 0 ? "none" : "";
  if (i >= 0) {
    r.cursor.setAttribute("x1", r.x(i));
    r.cursor.setAttribute("x2", r.x(i));
  }
  r.svg.dataset.ply = i;
}

/** The chart's geometry: a plot area with room for the axes' labels on the left and below. */
const W = 640;
const H = 230;
const LEFT = 46;
const RIGHT = 10;
const TOP = 10;
const BOTTOM = 34;
const CAP = 1000;

export function showReview(r, nodes) {
  for (const n of nodes) n.mark = null;
  for (const mv of r.moves) if (nodes[mv.ply]) nodes[mv.ply].mark = mv.mark;
  // Red's view, capped at +-10 pawns by the server (a mate counts as the cap)
  const evals = r.capped;
  const n = Math.max(1, evals.length - 1);
  const x = (i) => LEFT + (i / n) * (W - LEFT - RIGHT);
  const mid = TOP + (H - TOP - BOTTOM) / 2;
  const y = (v) => mid - (Math.max(-CAP, Math.min(CAP, v)) / CAP) * ((H - TOP - BOTTOM) / 2);
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "evalchart");
  svg.setAttribute("data-testid", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("chart_title"));
  const add = (name, attrs, parent = svg) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    parent.appendChild(e);
    return e;
  };
  add("rect", { x: LEFT, y: TOP, width: W - LEFT - RIGHT, height: mid - TOP, class: "redhalf" });
  add("rect", { x: LEFT, y: mid, width: W - LEFT - RIGHT, height: H - BOTTOM - mid, class: "blackhalf" });
  // the value axis: pawns for Red, +10 (Red winning) at the top
  for (const v of [CAP, CAP / 2, 0, -CAP / 2, -CAP]) {
    add("line", { x1: LEFT, y1: y(v), x2: W - RIGHT, y2: y(v), class: v === 0 ? "axis" : "grid" });
    const label = add("text", { x: LEFT - 6, y: y(v), class: "ylabel" });
    label.textContent = v === 0 ? "0" : `${v > 0 ? "+" : "−"}${Math.abs(v / 100)}`;
  }
  // the move axis: move numbers, about ten of them
  const plies = evals.length - 1;
  const every = Math.max(2, 2 * Math.ceil(plies / 20));
  for (let i = 0; i <= plies; i += every) {
    add("line", { x1: x(i), y1: H - BOTTOM, x2: x(i), y2: H - BOTTOM + 4, class: "tick" });
    const label = add("text", { x: x(i), y: H - BOTTOM + 15, class: "xlabel" });
    label.textContent = i === 0 ? "0" : moveLabel(i - 1).replace(/[.…]$/, "");
  }
  add("text", { x: (LEFT + W - RIGHT) / 2, y: H - 3, class: "xtitle" }).textContent = t("chart_moves");
  const pts = evals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  add("polygon", { points: `${x(0)},${mid} ${pts} ${x(plies)},${mid}`, class: "area" });
  add("polyline", { points: pts, class: "curve" });
  evals.forEach((v, i) => {
    const mark = i > 0 ? nodes[i]?.mark : null;
    const c = add("circle", { cx: x(i), cy: y(v), r: mark ? 5 : 2.5, class: `pt ${markClass(mark)}`, "data-ply": i });
    const title = document.createElementNS(NS, "title");
    title.textContent = `${i ? moveLabel(i - 1) + " " : ""}${(v / 100).toFixed(2)}${mark ?? ""}`;
    c.appendChild(title);
  });
  const cursor = add("line", { x1: 0, y1: TOP, x2: 0, y2: H - BOTTOM, class: "cursor" });
  // a click anywhere on the chart goes to the nearest position
  svg.addEventListener("click", (e) => {
    const m = svg.getScreenCTM();
    if (!m) return;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    const i = Math.round(((p.x - LEFT) / (W - LEFT - RIGHT)) * n);
    actions.goTo(nodes[Math.max(0, Math.min(plies, i))]);
  });
  const box = $("chart");
  box.textContent = "";
  box.appendChild(svg);
  box.hidden = false;
  const best = nodes.map((_, i) => r.moves[i]?.best?.uci ?? null);
  page.reviewed = { nodes, cursor, x, svg, best };
  markReview();
  const ol = $("marks");
  ol.textContent = "";
  for (const mv of r.moves) {
    if (!mv.mark || !nodes[mv.ply]) continue;
    const li = document.createElement("li");
    const b = document.createElement("button");
    const nd = nodes[mv.ply];
    b.textContent = `${moveLabel(mv.ply - 1)} ${nd.notated ? notate(nd.notated) : nd.uci}${mv.mark}`;
    b.className = markClass(mv.mark);
    b.addEventListener("click", () => actions.goTo(nd));
    li.appendChild(b);
    li.append(` ${t("loss")} ${mv.loss} · ${t("best_was")} ${notate(mv.best)}`);
    ol.appendChild(li);
  }
  actions.show();
}

/** Shows the review kept with the game after a reload, if its line is still in the move tree. */
export function restoreReview() {
  const kept = game.review;
  if (!kept) return;
  const nodes = [game.root];
  for (const uci of kept.line) {
    const next = nodes[nodes.length - 1].children.find((k) => k.uci === uci);
    if (!next) {
      game.review = null;
      return;
    }
    nodes.push(next);
  }
  showReview(kept, nodes);
}

/** Forgets the review (a new game, another record). */
export function clearReview() {
  game.review = null;
  page.reviewed = null;
  $("marks").textContent = "";
  $("chart").textContent = "";
  $("chart").hidden = true;
}
