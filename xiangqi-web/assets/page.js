// What every part of the page shares: the server's `state` of the current move, the running searches' ids, the
// socket and the board.

import { Board } from "./board.js";
import { Connection } from "./connection.js";
import { editor, editorClick, enterEditor } from "./editor.js";
import { afterPosition, show, stopPlay, userMove } from "./play.js";
import { save, settings } from "./storage.js";

/** The element with this id. */
export function $(id) {
  return document.getElementById(id);
}

/** The page's mutable state, shared by its modules. */
export const page = {
  state: null, // the server's `state` of the current node
  stateSeq: 0,
  playSearch: null, // id of the engine's move search
  anaSearch: null, // id of the running analysis
  analysing: false,
  preview: null, // {moves, state} while a line's move is previewed
  lastInfo: null,
  reviewId: null,
  reviewed: null, // the drawn review chart
};

export const conn = new Connection();

export const board = new Board($("board"), {
  onMove: (uci) => userMove(uci),
  onSquare: (sq) => editorClick(sq),
});

export function tab() {
  return settings.tab;
}

export function notate(m) {
  if (!m) return "";
  return m[settings.notation] ?? m.uci;
}

export function engineSide() {
  if (settings.side === "none") return null;
  return settings.side === "red" ? "black" : "red";
}

/** Shows the panel of tab `name` (play, analyse, games, editor, watch, learn). */
export function selectTab(name) {
  const was = settings.tab;
  settings.tab = name;
  for (const b of document.querySelectorAll("[data-tab]")) b.classList.toggle("active", b.dataset.tab === name);
  for (const p of document.querySelectorAll(".panel")) p.hidden = p.id !== `panel-${name}`;
  document.body.dataset.tab = name;
  if (name === "editor" && was !== "editor") enterEditor();
  if (name !== "play") stopPlay();
  save();
  show();
  if (name === "play" && page.state && was !== "play") afterPosition();
}

export function status(text, error = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
}
