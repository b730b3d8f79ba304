// Game records: opening PGN or XQF (text or the file's bytes, read by the server) and exporting PGN.

import { START_FEN, addMove, game, mainEnd, pathOf } from "./gametree.js";
import { t } from "./i18n.js";
import { recordResult, renderHeader } from "./header.js";
import { $, conn, status } from "./page.js";
import { isShape } from "./points.js";
import { newGame, refresh } from "./play.js";
import { settings } from "./storage.js";

// ---------------------------------------------------------------- games: records, export, review

export async function loadRecord(msg) {
  try {
    const rec = await conn.ask({ type: "load_record", ...msg });
    const games = (rec.games || []).filter((g) => !g.error);
    if (!games.length) throw new Error("no game in the record");
    const pick = $("gamepick");
    pick.textContent = "";
    games.forEach((g, i) => {
      const o = document.createElement("option");
      o.value = i;
      o.textContent = `${i + 1}. ${g.tags?.Red ?? "?"} – ${g.tags?.Black ?? "?"} ${g.result ?? ""}`;
      pick.appendChild(o);
    });
    pick.hidden = games.length < 2;
    pick.onchange = () => openGame(games[Number(pick.value)]);
    openGame(games[0]);
  } catch (e) {
    status(`${t("error")}: ${e.message}`, true);
  }
}

export function openGame(g) {
  newGame(g.fen || START_FEN);
  let n = game.root;
  const nodes = [n];
  for (const m of g.moves) nodes.push((n = addMove(m, n)));
  // the arrows and circles of the record's comments, with the move they follow
  for (const [ply, codes] of Object.entries(g.shapes || {})) {
    if (nodes[Number(ply)]) nodes[Number(ply)].shapes = codes.filter(isShape);
  }
  game.cur = n;
  game.tags = g.tags || {};
  // the record's own result, kept for its line as loaded (a resignation or an agreed draw the rules cannot see)
  game.record = { moves: [...g.moves], result: g.result || g.tags?.Result || "*" };
  renderHeader();
  const tg = g.tags || {};
  const names = [tg.Red || tg.RedTeam, tg.Black || tg.BlackTeam].filter(Boolean).join(" – ");
  $("gameinfo").textContent = [names, tg.Event, tg.Date, g.result || tg.Result, `${g.moves.length} ${t("plies")}`]
    .filter((x) => x && x !== "?" && x !== "*").join(" · ");
  refresh();
}

/**
 * The result written in an exported PGN: the rules' verdict when the line ends the game; else the loaded record's
 * own result when the line is the record's (a resignation, an agreed draw); else "*".
 */
export function exportResult(moves) {
  const res = game.result;
  if (res) return res.winner === "red" ? "1-0" : res.winner === "black" ? "0-1" : "1/2-1/2";
  const rec = game.record;
  const same = rec && rec.moves.length === moves.length && rec.moves.every((m, i) => m === moves[i]);
  return same && recordResult() ? recordResult() : "*";
}

$("file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (!f) return;
  if (f.size > 1024 * 1024) return status(`${t("error")}: > 1 MB`, true);
  const bytes = new Uint8Array(await f.arrayBuffer());
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  loadRecord({ base64: btoa(bin) });
});
$("btn-load").addEventListener("click", () => loadRecord({ text: $("pgn-in").value }));

$("btn-export").addEventListener("click", async () => {
  try {
    const end = mainEnd();
    const moves = pathOf(end);
    // PGN's Seven Tag Roster, every one present ("?" when unknown), then the record's other tags
    const tags = { Event: "?", Site: "?", Date: "????.??.??", Round: "?", Red: "?", Black: "?", ...(game.tags || {}) };
    // the arrows and circles drawn on the line's positions, by ply (0: the start)
    const shapes = {};
    const line = [];
    for (let n = end; n; n = n.parent) line.unshift(n);
    line.forEach((n, ply) => {
      if (n.shapes?.length) shapes[ply] = n.shapes;
    });
    const m = await conn.ask({ type: "export_pgn", fen: game.fen, moves, notation: settings.notation, result: exportResult(moves), tags, shapes });
    const out = $("pgn-out");
    out.hidden = false;
    out.value = m.text;
    const a = $("download");
    a.hidden = false;
    a.href = URL.createObjectURL(new Blob([m.text], { type: "application/x-chess-pgn" }));
    a.download = "game.pgn";
  } catch (e) {
    status(`${t("error")}: ${e.message}`, true);
  }
});
