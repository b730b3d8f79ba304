// The position editor: a palette of pieces, the board as a canvas, the FEN checked by the server.

import { CHINESE } from "./board.js";
import { START_FEN, game } from "./gametree.js";
import { t } from "./i18n.js";
import { $, actions, board, conn, page, selectTab } from "./page.js";
import { placement, placementToFen } from "./points.js";

// ---------------------------------------------------------------- the editor

export const editor = {
  map: placement(START_FEN),
  pick: "R",
  fen() {
    return `${placementToFen(this.map)} ${$("ed-turn").value} - - 0 1`;
  },
};

export function buildPalette() {
  const pal = $("palette");
  for (const p of [..."KABNRCP", ..."kabnrcp", "x"]) {
    const b = document.createElement("button");
    b.dataset.pick = p;
    b.className = p === "x" ? "pick eraser" : `pick ${p === p.toUpperCase() ? "red" : "black"}`;
    b.textContent = p === "x" ? t("eraser") : CHINESE[p];
    if (p === "x") b.dataset.i18n = "eraser";
    b.addEventListener("click", () => {
      editor.pick = p;
      for (const o of pal.children) o.classList.toggle("on", o === b);
    });
    pal.appendChild(b);
  }
  pal.children[4].classList.add("on");
}

export function editorClick(sq) {
  if (editor.pick === "x" || editor.map.get(sq) === editor.pick) editor.map.delete(sq);
  else editor.map.set(sq, editor.pick);
  editorChanged();
}

export function editorChanged() {
  $("ed-fen").value = editor.fen();
  $("ed-msg").textContent = "";
  board.set({ fen: editor.fen() });
}

export async function editorApply() {
  const fen = $("ed-fen").value.trim();
  const msg = $("ed-msg");
  try {
    const st = await conn.ask({ type: "validate", fen });
    msg.className = "msg ok";
    msg.textContent = t("position_ok");
    selectTab("play");
    actions.newGame(st.fen || fen);
  } catch (e) {
    msg.className = "msg error";
    msg.textContent = `${t("error")}: ${e.message}`;
  }
}

export function enterEditor() {
  editor.map = placement(page.state?.fen || game.fen);
  $("ed-turn").value = page.state?.turn === "black" ? "b" : "w";
  $("ed-fen").value = editor.fen();
}
