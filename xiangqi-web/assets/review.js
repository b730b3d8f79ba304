// The review of a game: the server's evaluation of every position, the chart, and the marked moves.

import { redCp } from "./analysis.js";
import { game, mainEnd, moveLabel, pathOf } from "./gametree.js";
import { t } from "./i18n.js";
import { renderMoves } from "./movelist.js";
import { $, actions, conn, notate, page, selectTab } from "./page.js";

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
  if (!page.reviewed) return;
  const i = page.reviewed.nodes.indexOf(game.cur);
  page.reviewed.cursor.style.display = i < 0 ? "none" : "";
  if (i >= 0) {
    page.reviewed.cursor.setAttribute("x1", page.reviewed.x(i));
    page.reviewed.cursor.setAttribute("x2", page.reviewed.x(i));
  }
}

export function showReview(r, nodes) {
  for (const n of nodes) n.mark = null;
  for (const mv of r.moves) if (nodes[mv.ply]) nodes[mv.ply].mark = mv.mark;
  // red's view; a mate in 0 (the game's last position) is a loss for the side to move there
  const rootRed = game.fen.split(" ")[1] !== "b";
  const evals = r.evals.map((s, i) => {
    if (s && s.mate === 0) return ((i % 2 === 0) === rootRed ? -1 : 1) * 10000;
    return redCp(s, "red");
  });
  const W = 600;
  const H = 160;
  const n = Math.max(1, evals.length - 1);
  const clamp = (v) => Math.max(-1000, Math.min(1000, v));
  const x = (i) => (i / n) * W;
  const y = (v) => H / 2 - (clamp(v) / 1000) * (H / 2 - 6);
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "evalchart");
  svg.setAttribute("data-testid", "chart");
  const add = (name, attrs) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.appendChild(e);
    return e;
  };
  add("rect", { x: 0, y: 0, width: W, height: H / 2, class: "redhalf" });
  add("rect", { x: 0, y: H / 2, width: W, height: H / 2, class: "blackhalf" });
  const pts = evals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  add("polygon", { points: `0,${H / 2} ${pts} ${W},${H / 2}`, class: "area" });
  add("polyline", { points: pts, class: "curve" });
  add("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "axis" });
  evals.forEach((v, i) => {
    const mark = i > 0 ? nodes[i]?.mark : null;
    const c = add("circle", { cx: x(i), cy: y(v), r: mark ? 5 : 3, class: `pt ${markClass(mark)}`, "data-ply": i });
    const title = document.createElementNS(NS, "title");
    title.textContent = `${i}: ${(v / 100).toFixed(2)}`;
    c.appendChild(title);
    c.addEventListener("click", () => actions.goTo(nodes[i]));
  });
  const cursor = add("line", { x1: 0, y1: 0, x2: 0, y2: H, class: "cursor" });
  const box = $("chart");
  box.textContent = "";
  box.appendChild(svg);
  page.reviewed = { nodes, cursor, x };
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
  renderMoves();
}
