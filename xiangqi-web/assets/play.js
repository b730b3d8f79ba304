// The position on the board: asking the server for it, showing it, the moves of the player and the engine, the
// status line, taking back and new games.

import { arrowsFor, exitPreview, startAnalysis, stopAnalysis } from "./analysis.js";
import { addIncrement } from "./clock.js";
import { editor } from "./editor.js";
import { START_FEN, addMove, game, node, pathOf } from "./gametree.js";
import { renderHeader, renderOpening } from "./header.js";
import { ruleName, t } from "./i18n.js";
import { renderMoves } from "./movelist.js";
import { $, board, conn, engineSide, notate, page, status, tab } from "./page.js";
import { clearReview, markReview } from "./review.js";
import { playSound, soundOf } from "./sound.js";
import { clock, save, settings } from "./storage.js";

// ---------------------------------------------------------------- asking the server for the position

export async function refresh() {
  const seq = ++page.stateSeq;
  const moves = pathOf(game.cur);
  let st;
  try {
    st = await conn.ask({ type: "state", fen: game.fen, moves });
  } catch (e) {
    if (seq !== page.stateSeq) return;
    // the line is not legal for the server (e.g. a stored game after a rules change): keep what is legal
    status(`${t("error")}: ${e.message}`, true);
    if (game.cur.parent) {
      const bad = game.cur;
      game.cur = bad.parent;
      game.cur.children = game.cur.children.filter((k) => k !== bad);
      save();
      refresh();
    }
    return;
  }
  if (seq !== page.stateSeq) return;
  const before = page.state;
  const beforePath = page.statePath;
  page.state = st;
  page.statePath = moves;
  // keep the notated moves in the tree
  let n = game.cur;
  for (let i = st.moves.length - 1; i >= 0 && n && n.uci; i--, n = n.parent) n.notated = st.moves[i];
  game.result = st.result;
  save();
  show();
  // one move forward from the position shown: its sound, and its words for a screen reader
  const forward = before && beforePath && st.last && !st.unplayed && moves.length === beforePath.length + 1 &&
    beforePath.every((m, i) => m === moves[i]);
  if (forward) {
    playSound(soundOf(before, st));
    announce(st);
  }
  afterPosition();
}

/** Says the move just played in the live region (`#announce`): who played it, the move, a check, the game's end. */
export function announce(st) {
  const last = st.moves[st.moves.length - 1];
  if (!last) return;
  const mover = st.turn === "red" ? "black" : "red";
  let text = `${t(mover)}${t("comma")}${notate(last)}`;
  if (st.check) text += `${t("comma")}${t("check")}`;
  if (st.result) text += `${t("comma")}${$("status").textContent}`;
  $("announce").textContent = text;
}

/** Whether moves slide: the setting, unless the system asks for reduced motion. */
export function animated() {
  return settings.animate !== false && !window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

export function show() {
  const st = page.preview ? page.preview.state : page.state;
  if (!st) return;
  const playing = !page.preview && tab() !== "editor";
  board.set({
    fen: tab() === "editor" ? editor.fen() : st.fen,
    legal: playing && !st.result && !clock.flagged && !engineToMove(st) ? st.legal : {},
    last: tab() === "editor" ? null : st.last,
    check: tab() === "editor" ? null : st.check,
    selected: null,
    flipped: settings.flipped,
    letters: settings.letters,
    editing: tab() === "editor",
    arrows: tab() === "editor" || page.preview ? [] : arrowsFor(st),
    shapes: playing ? game.cur.shapes || [] : [],
    drawable: playing,
    animate: animated(),
  });
  $("preview").hidden = !page.preview;
  renderOpening(st);
  renderMoves();
  markReview();
  renderStatus();
}

export function engineToMove(st) {
  return tab() === "play" && engineSide() === st.turn;
}

export function renderStatus() {
  if (!page.state) return;
  $("btn-review-end").hidden = !(page.state.result || clock.flagged) || tab() === "games";
  if (clock.flagged) {
    const winner = clock.flagged === "red" ? "black_wins" : "red_wins";
    status(`${t("game_over")}: ${t(winner)}, ${t(clock.flagged)} ${t("lost_on_time")}`);
    $("status").dataset.result = "time";
    return;
  }
  const r = page.state.result;
  if (r) {
    const who = r.winner === "red" ? t("red_wins") : r.winner === "black" ? t("black_wins") : t("draw");
    const detail = r.detail ? ` (${r.detail})` : "";
    const after = page.state.unplayed ? ` · ${page.state.unplayed} ${t("unplayed")}` : "";
    status(`${t("game_over")}: ${who}, ${t("by_rule")} ${ruleName(r.rule)}${detail}${after}`);
    $("status").dataset.result = r.rule;
    return;
  }
  delete $("status").dataset.result;
  if (page.playSearch) status(t("thinking"));
  else status(`${t(page.state.turn)}${engineSide() && tab() === "play" ? " — " + t("your_move") : ""}`);
}

// ---------------------------------------------------------------- moves

export function userMove(uci) {
  if (page.preview) return exitPreview();
  const mover = page.state?.turn;
  game.cur = addMove(uci);
  if (tab() === "play" && settings.tc === "clock" && mover) addIncrement(mover);
  refresh();
}

/**
 * Plays a move the player typed, in any notation the rules read (UCI `h2e2`, ICCS `H2-E2`, WXF `C2.5`, Chinese
 * `炮二平五`): the server reads it in the current position; a text that is no legal move here, or a move when the
 * board takes none (the engine's turn, the game over, the editor), is an error shown beside the input.
 */
export async function typedMove(text) {
  const msg = $("typed-msg");
  const say = (words) => {
    msg.textContent = words;
    msg.classList.toggle("error", Boolean(words));
  };
  text = text.trim();
  if (!text) return say("");
  if (page.preview) exitPreview();
  if (!page.state || !Object.keys(board.legal || {}).length) return say(`${t("error")}: ${t("no_move_now")}`);
  const from = game.cur;
  try {
    const st = await conn.ask({ type: "state", fen: game.fen, moves: [...pathOf(from), text] });
    if (st.unplayed) throw new Error(t("game_over"));
    if (game.cur !== from) return;
    say("");
    $("typed").value = "";
    userMove(st.moves[st.moves.length - 1].uci);
  } catch (e) {
    say(`${t("error")}: ${e.message}`);
  }
}

export function goTo(n) {
  if (!n || n === game.cur) return;
  exitPreview(false);
  stopPlay();
  game.cur = n;
  refresh();
}

/** After every new position: the engine's move in play, the analysis when on. */
export function afterPosition() {
  const st = page.state;
  if (page.analysing) startAnalysis();
  if (tab() !== "play" || st.result || clock.flagged) {
    clock.running = false;
    return;
  }
  clock.running = settings.tc === "clock" && game.cur !== game.root;
  if (engineSide() === st.turn && !page.playSearch) enginePlay();
}

export function limits() {
  if (settings.strength === "nodes") return { nodes: Number(settings.strengthN) || 1000 };
  if (settings.strength === "depth") return { depth: Math.max(1, Math.min(64, Number(settings.strengthN) || 4)) };
  if (settings.tc === "clock") {
    const inc = settings.inc * 1000;
    return { clock: { red_ms: Math.round(clock.red), black_ms: Math.round(clock.black), red_inc_ms: inc, black_inc_ms: inc } };
  }
  return { movetime: Math.max(10, Math.round(settings.movetime * 1000)) };
}

export function enginePlay() {
  const from = game.cur;
  const mover = page.state.turn;
  const moves = pathOf(from);
  const level = settings.level ?? 10;
  page.playSearch = conn.send({ type: "go", purpose: "play", fen: game.fen, moves, level, ...limits() }, (m) => {
    if (m.type === "error") {
      conn.forget(page.playSearch);
      page.playSearch = null;
      status(`${t("error")}: ${m.message}`, true);
      return;
    }
    if (m.type !== "bestmove") return;
    conn.forget(m.id);
    if (m.id !== page.playSearch) return;
    page.playSearch = null;
    if (game.cur !== from || !m.move) {
      renderStatus();
      return;
    }
    if (settings.tc === "clock") addIncrement(mover);
    game.cur = addMove(m.move.uci, from);
    game.cur.notated = m.move;
    refresh();
  });
  renderStatus();
}

export function stopPlay() {
  if (page.playSearch) {
    conn.raw({ type: "stop", id: page.playSearch });
    conn.forget(page.playSearch);
    page.playSearch = null;
  }
}

export function takeback() {
  stopPlay();
  exitPreview(false);
  let n = game.cur;
  if (!n.parent) return;
  n = n.parent;
  // back to the player's own turn when playing the engine
  if (engineSide() && n.parent && tab() === "play") {
    const pliesFromRoot = pathOf(n).length;
    const rootRed = game.fen.split(" ")[1] !== "b";
    const turnRed = (pliesFromRoot % 2 === 0) === rootRed;
    if ((turnRed ? "red" : "black") === engineSide()) n = n.parent;
  }
  clock.flagged = null;
  game.cur = n;
  refresh();
}

export function newGame(fen = START_FEN) {
  stopPlay();
  stopAnalysis();
  exitPreview(false);
  game.fen = fen;
  game.root = node(null, null);
  game.cur = game.root;
  // a new game is no longer the loaded record: no header, no record result, the start field shows its start
  game.tags = null;
  game.record = null;
  $("fen").value = fen;
  const ms = settings.minutes * 60000;
  Object.assign(clock, { red: ms, black: ms, running: false, flagged: null });
  clearReview();
  $("gameinfo").textContent = "";
  renderHeader();
  refresh();
}
