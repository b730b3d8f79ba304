// Analysis: the engine's lines for the current position (infinite, multi-PV), the evaluation bar, and the
// preview of a line's move.

import { addMove, game, nodeAt, pathOf } from "./gametree.js";
import { t } from "./i18n.js";
import { renderMoves } from "./movelist.js";
import { $, actions, board, conn, notate, page, status, tab } from "./page.js";
import { save, settings } from "./storage.js";

// ---------------------------------------------------------------- analysis

export function startAnalysis() {
  stopAnalysis();
  if (!page.state || page.state.result) return;
  const fen = page.state.fen;
  const moves = pathOf(game.cur);
  page.lastInfo = null;
  $("lines").textContent = "";
  $("anainfo").textContent = "…";
  page.anaSearch = conn.send({ type: "go", purpose: "analyse", fen: game.fen, moves, infinite: true, multipv: settings.multipv }, (m) => {
    if (m.type === "bestmove" || m.type === "error") conn.forget(m.id);
    if (m.id !== page.anaSearch) return;
    if (m.type === "info" && m.lines) {
      page.lastInfo = { fen, moves, turn: page.state.turn, depth: m.depth, seldepth: m.seldepth, nps: m.nps, nodes: m.nodes, lines: m.lines };
      renderLines();
      if (!page.preview) board.set({ arrows: arrowsFor(page.state) });
      renderEval();
    } else if (m.type === "error") {
      $("anainfo").textContent = `${t("error")}: ${m.message}`;
    } else if (m.type === "bestmove") {
      // Only the server ends an infinite analysis by itself: its operator's cap (`clamped`) was reached.
      page.anaSearch = null;
      page.analysing = false;
      $("btn-analyse").textContent = t("infinite");
      $("anainfo").textContent = t("server_limit");
      board.set({ arrows: arrowsFor(page.state) });
      renderEval();
    }
  });
  $("btn-analyse").textContent = t("stop");
}

/** The analysis's first moves in position `st`, as arrows (the best one thickest); none when it is not analysed. */
/** The engine's best move from the current position of a reviewed game, as an arrow (none off the game's line). */
export function reviewArrows() {
  const r = page.reviewed;
  if (!r) return [];
  const i = r.nodes.indexOf(game.cur);
  const best = i >= 0 ? r.best[i] : null;
  return best ? [{ uci: best, weight: 1, color: 1 }] : [];
}

export function arrowsFor(st) {
  // stepping through a reviewed game (no analysis running): the engine's best move from the position shown
  if (!page.analysing && tab() !== "watch" && tab() !== "editor") return reviewArrows();
  if (!page.analysing || !page.lastInfo || page.lastInfo.fen !== st.fen || tab() === "watch" || tab() === "editor") return [];
  return page.lastInfo.lines.filter((l) => l.pv.length).map((l, i) => ({ uci: l.pv[0].uci, weight: 1 / (i + 1) }));
}

export function stopAnalysis() {
  if (page.anaSearch) {
    conn.raw({ type: "stop", id: page.anaSearch });
    page.anaSearch = null;
  }
  $("btn-analyse").textContent = t("infinite");
}

/** A score from the side to move's view, as Red's number of centipawns (mates as +/-10000). */
export function redCp(score, turn) {
  if (!score) return 0;
  const v = score.mate != null ? Math.sign(score.mate || 1) * 10000 - score.mate : score.cp;
  return turn === "red" ? v : -v;
}

export function scoreText(score, turn) {
  if (!score) return "";
  if (score.mate != null) {
    const redWins = (score.mate > 0) === (turn === "red");
    return `${redWins ? "+" : "-"}M${Math.abs(score.mate)}`;
  }
  const v = redCp(score, turn) / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

export function renderLines() {
  const info = page.lastInfo;
  const ol = $("lines");
  ol.textContent = "";
  if (!info) return;
  $("anainfo").textContent = `${t("depth")} ${info.depth}${info.seldepth ? "/" + info.seldepth : ""} · ${(info.nps / 1000).toFixed(0)}k ${t("nps")} · ${info.nodes} ${t("nodes")}`;
  for (const line of info.lines) {
    const li = document.createElement("li");
    li.className = "line";
    li.dataset.multipv = line.multipv;
    const sc = document.createElement("span");
    sc.className = "score";
    sc.textContent = scoreText(line.score, info.turn);
    li.appendChild(sc);
    const dp = document.createElement("span");
    dp.className = "muted";
    dp.textContent = ` d${info.depth} `;
    li.appendChild(dp);
    const add = document.createElement("button");
    add.className = "addline";
    add.textContent = "+";
    add.title = t("add_line");
    add.addEventListener("click", () => {
      if (game.cur !== nodeAt(info.moves) || pathOf(game.cur).length !== info.moves.length) return;
      let n = game.cur;
      for (const m of line.pv) {
        n = addMove(m.uci, n);
        n.notated = m;
      }
      save();
      renderMoves();
    });
    li.appendChild(add);
    line.pv.forEach((m, i) => {
      const a = document.createElement("button");
      a.className = "pvmove";
      a.textContent = notate(m);
      a.dataset.uci = m.uci;
      a.addEventListener("click", () => startPreview([...info.moves, ...line.pv.slice(0, i + 1).map((x) => x.uci)]));
      li.appendChild(a);
    });
    ol.appendChild(li);
  }
}

export function renderEval() {
  const info = page.lastInfo;
  let cp = 0;
  let text = "";
  if (info && info.lines[0] && page.analysing) {
    cp = redCp(info.lines[0].score, info.turn);
    text = scoreText(info.lines[0].score, info.turn);
  }
  const share = 1 / (1 + Math.exp(-cp / 400));
  $("evalfill").style.height = `${(share * 100).toFixed(1)}%`;
  $("evaltext").textContent = text;
  $("evalbar").classList.toggle("flipped", settings.flipped);
  $("evalbar").classList.toggle("idle", !(page.analysing && info));
}

export async function startPreview(moves) {
  try {
    const st = await conn.ask({ type: "state", fen: game.fen, moves });
    page.preview = { moves, state: st };
    actions.show();
  } catch (e) {
    status(`${t("error")}: ${e.message}`, true);
  }
}

export function exitPreview(redraw = true) {
  if (!page.preview) return;
  page.preview = null;
  if (redraw) actions.show();
}
