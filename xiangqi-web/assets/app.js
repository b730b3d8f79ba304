// The page: the game (a move tree with variations, kept in localStorage), play against the engine, analysis,
// games (PGN/XQF, review), the position editor, the search viewer and the lessons, all over one WebSocket at /ws
// (docs/serve-protocol.md). The server judges every rule; the page only shows what it says. This module starts
// the page: the tabs, the controls, the keys; each job lives in its own module.

import { exitPreview, renderEval, renderLines, startAnalysis, stopAnalysis } from "./analysis.js";
import { placement } from "./points.js";
import { tickClock } from "./clock.js";
import { setConn } from "./connection.js";
import { buildPalette, editor, editorApply, editorChanged, editorClick, enterEditor } from "./editor.js";
import { START_FEN, game, pathOf } from "./gametree.js";
import { fillLevels, renderHeader, renderOpening } from "./header.js";
import { language, setLanguage, t } from "./i18n.js";
import { bindLearn, learn, learnKey, readUrl, renderHead, show as showStep } from "./learn.js";
import { bindMore, openFromUrl } from "./learnmore.js";
import { renderMoves } from "./movelist.js";
import { $, actions, board, conn, page, selectTab, status, tab } from "./page.js";
import { afterPosition, goTo, newGame, refresh, show, stopPlay, takeback, typedMove, userMove } from "./play.js";
import "./records.js"; // binds the games tab's buttons
import { restoreReview } from "./review.js"; // also binds the review buttons
import { played } from "./sound.js";
import { clock, restore, save, settings } from "./storage.js";
import { Watch } from "./watch.js";

// the lower modules reach these through `actions` (page.js), so that no module imports one above it
Object.assign(actions, { show, refresh, goTo, userMove, afterPosition, stopPlay, newGame, enterEditor, editorClick });

// ---------------------------------------------------------------- tabs and controls

for (const b of document.querySelectorAll("[data-tab]")) b.addEventListener("click", () => selectTab(b.dataset.tab));

/** The Learn tab opens what the address names (or its first lesson) the first time it is shown. */
let learnOpened = false;
function openLearn() {
  if (learnOpened) return;
  learnOpened = true;
  openFromUrl();
}
document.querySelector("[data-tab=learn]").addEventListener("click", openLearn);

function bindSettings() {
  const fields = { side: "side", tc: "tc", movetime: "movetime", minutes: "minutes", inc: "inc", strength: "strength", "strength-n": "strengthN", multipv: "multipv", notation: "notation", level: "level" };
  for (const [id, key] of Object.entries(fields)) {
    const e = $(id);
    e.value = settings[key];
    e.addEventListener("change", () => {
      settings[key] = e.type === "number" || key === "multipv" || key === "level" ? Number(e.value) : e.value;
      syncControls();
      save();
      if (key === "multipv" && page.analysing) startAnalysis();
      if (key === "notation") {
        renderLines();
        renderMoves();
      }
      if (key === "side" && settings.side !== "none") {
        // the player's side at the bottom
        settings.flipped = settings.side === "black";
        renderEval();
      }
      if (key === "tc") clock.running = settings.tc === "clock" && game.cur !== game.root && !page.state?.result;
      if (key === "side" && page.state) {
        show();
        afterPosition();
      }
      if (key === "minutes" && game.cur === game.root) {
        clock.red = clock.black = settings.minutes * 60000;
      }
    });
  }
  // the checkboxes: WXF letters on the pieces, sliding moves, sound
  for (const key of ["letters", "animate", "sound"]) {
    $(key).checked = Boolean(settings[key]);
    $(key).addEventListener("change", () => {
      settings[key] = $(key).checked;
      save();
      show();
    });
  }
  syncControls();
}

function syncControls() {
  $("movetime").hidden = settings.tc !== "movetime";
  $("clockset").hidden = settings.tc !== "clock";
  $("strength-n").hidden = settings.strength === "time";
}

$("btn-flip").addEventListener("click", () => {
  settings.flipped = !settings.flipped;
  save();
  show();
  renderEval();
});
$("btn-takeback").addEventListener("click", takeback);
$("typed-form").addEventListener("submit", (e) => {
  e.preventDefault();
  typedMove($("typed").value);
});
$("btn-new").addEventListener("click", () => newGame());
$("btn-start").addEventListener("click", async () => {
  const fen = $("fen").value.trim() || START_FEN;
  try {
    await conn.ask({ type: "validate", fen });
    newGame(fen);
  } catch (e) {
    status(`${t("error")}: ${e.message}`, true);
  }
});
$("btn-analyse").addEventListener("click", () => {
  page.analysing = !page.analysing;
  if (page.analysing) startAnalysis();
  else {
    stopAnalysis();
    page.lastInfo = null;
    renderLines();
    $("anainfo").textContent = "";
    show();
  }
  renderEval();
});
$("board").addEventListener("pointerdown", () => {
  if (page.preview) exitPreview();
});
$("ed-clear").addEventListener("click", () => {
  editor.map = new Map();
  editorChanged();
});
$("ed-initial").addEventListener("click", () => {
  editor.map = placement(START_FEN);
  $("ed-turn").value = "w";
  editorChanged();
});
$("ed-turn").addEventListener("change", editorChanged);
$("ed-apply").addEventListener("click", editorApply);
$("ed-fen").addEventListener("change", () => {
  editor.map = placement($("ed-fen").value);
  const side = $("ed-fen").value.trim().split(/\s+/)[1];
  $("ed-turn").value = side === "b" ? "b" : "w";
  board.set({ fen: editor.fen() });
});
$("lang").addEventListener("change", () => {
  setLanguage($("lang").value);
  conn.send({ type: "hello", lang: language() });
  setConn(conn.ws.readyState === WebSocket.OPEN);
  show();
  renderLines();
  renderHead();
  renderHeader();
  renderOpening(page.preview ? page.preview.state : page.state);
  fillLevels(page.levels, settings.level);
  if (learn.data) showStep(learn.k);
});

const watch = new Watch(conn, {
  line: () => ({ fen: game.fen, moves: pathOf(game.cur) }),
  // the moves from the root of a watched position to the node shown, as arrows on the board (numbered by colour)
  showPath: (moves) => {
    if (tab() !== "watch" || !page.state) return;
    board.set({ arrows: moves.filter((m) => /^[a-i][0-9][a-i][0-9]$/.test(m)).map((uci, i) => ({ uci, weight: 0.6, color: i })) });
  },
});

document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, textarea, select")) return;
  if (tab() === "learn") {
    if (learnKey(e)) e.preventDefault();
    return;
  }
  if (tab() === "watch") {
    if (e.key === "ArrowLeft") watch.step(-1);
    else if (e.key === "ArrowRight") watch.step(1);
    else if (e.key === "Home") watch.go(0);
    else if (e.key === "End") watch.go(Infinity);
    else return;
    e.preventDefault();
    return;
  }
  let n = game.cur;
  if (e.key === "Escape") return exitPreview();
  if (e.key === "ArrowLeft") n = n.parent;
  else if (e.key === "ArrowRight") n = n.children[0];
  else if (e.key === "Home" || e.key === "ArrowUp") n = game.root;
  else if (e.key === "End" || e.key === "ArrowDown") while (n.children[0]) n = n.children[0];
  else return;
  e.preventDefault();
  goTo(n);
});

// ---------------------------------------------------------------- start

conn.listeners.push((m) => {
  if (m.type === "open") {
    // searches of a previous socket ended with it
    page.playSearch = null;
    page.anaSearch = null;
    conn.send({ type: "hello", lang: language() }, (h) => {
      if (h.type !== "hello") return;
      $("engine").textContent = `${h.engine ?? ""} ${h.version ?? ""}`;
      page.levels = h.levels;
      fillLevels(h.levels, settings.level);
    });
    refresh();
  }
});

restore();
setInterval(tickClock, 100);
// the clock as it stands when the page goes (a reload, a closed tab)
window.addEventListener("pagehide", save);
renderEval();
// the start position is drawn at once; a position after moves waits for the server's `state`
board.set({ fen: game.cur === game.root ? game.fen : "", flipped: settings.flipped, letters: settings.letters });
setLanguage(language());
$("lang").value = language();
buildPalette();
bindSettings();
$("fen").value = game.fen;
renderHeader();
restoreReview();
bindLearn();
bindMore();
// an address naming a Learn view opens it (a teacher's link)
if (readUrl()) settings.tab = "learn";
selectTab(settings.tab || "play");
if (settings.tab === "learn") openLearn();
window.xq = { game, board, conn, settings, pathOf, learn, clock, sound: played };
