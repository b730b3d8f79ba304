// What every part of the page shares: the server's `state` of the current move, the running searches' ids, the
// socket and the board.
//
// The page's modules import one another in one direction only, from the top down:
//   app > records > play > editor, review > analysis > clock, movelist > page > storage > gametree, board, ...
// (header.js, the game's header, the opening and the level list, imports only gametree and i18n.)
// A lower module that must start something of a higher one (a click in the move list goes to a move, the clock's
// flag stops the engine) calls it through `actions`, which app.js fills in at start.

import { Board } from "./board.js";
import { Connection } from "./connection.js";
import { game } from "./gametree.js";
import { save, settings } from "./storage.js";

/** The element with this id. */
export function $(id) {
  return document.getElementById(id);
}

/** The page's mutable state, shared by its modules. */
export const page = {
  state: null, // the server's `state` of the current node
  statePath: null, // the UCI moves of that node from the start
  stateSeq: 0,
  playSearch: null, // id of the engine's move search
  anaSearch: null, // id of the running analysis
  analysing: false,
  preview: null, // {moves, state} while a line's move is previewed
  lastInfo: null,
  reviewId: null,
  reviewed: null, // the drawn review chart: {nodes, cursor, x, svg, best (the engine's move from each position)}
  levels: null, // the server's playing levels ({level, elo}), from its `hello`
};

/**
 * The higher modules' functions that lower ones call, registered by app.js before anything runs: `show`,
 * `refresh`, `goTo(node)`, `userMove(uci)`, `afterPosition`, `stopPlay`, `newGame(fen)` (play.js), `enterEditor`,
 * `editorClick(square)` (editor.js).
 */
export const actions = {
  show: null,
  refresh: null,
  goTo: null,
  userMove: null,
  afterPosition: null,
  stopPlay: null,
  newGame: null,
  enterEditor: null,
  editorClick: null,
};

/** The socket to the server. */
export const conn = new Connection();

/** The board; its moves and editor clicks go to play.js and editor.js through `actions`; the arrows and circles
 * the player draws are kept with the current move (and saved with the game). */
export const board = new Board($("board"), {
  onMove: (uci) => actions.userMove(uci),
  onSquare: (sq) => actions.editorClick(sq),
  onShapes: (codes) => {
    game.cur.shapes = codes;
    save();
  },
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
  if (name === "editor" && was !== "editor") actions.enterEditor();
  if (name !== "play") actions.stopPlay();
  save();
  actions.show();
  if (name === "play" && page.state && was !== "play") actions.afterPosition();
}

export function status(text, error = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
}
