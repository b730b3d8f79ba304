// The page: the game (a move tree with variations, kept in localStorage), play against the engine, analysis,
// games (PGN/XQF, review), the position editor and the search viewer, all over one WebSocket at /ws
// (docs: notes/serve-protocol.md). The server judges every rule; the page only shows what it says.

import { Board, CHINESE, placement, placementToFen } from "./board.js";
import { t, setLanguage, language, ruleName } from "./i18n.js";
import { Watch } from "./watch.js";

const START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- the socket

class Connection {
  constructor() {
    this.nextId = 1;
    this.handlers = new Map();
    this.listeners = [];
    this.queue = [];
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const url = window.XQ_SOCKET_URL || `${proto}//${location.host}/ws`;
    this.ws = new WebSocket(url);
    this.ws.onopen = () => {
      setConn(true);
      const queued = this.queue;
      this.queue = [];
      for (const m of queued) this.ws.send(m);
      this.listeners.forEach((f) => f({ type: "open" }));
    };
    this.ws.onclose = () => {
      setConn(false);
      setTimeout(() => this.open(), 1000);
    };
    this.ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      const h = msg.id != null ? this.handlers.get(msg.id) : null;
      if (h) h(msg);
      else this.listeners.forEach((f) => f(msg));
    };
  }

  /** Sends a message; `handler` gets every answer carrying its id. Returns the id. */
  send(msg, handler) {
    const id = this.nextId++;
    if (handler) this.handlers.set(id, handler);
    const text = JSON.stringify({ ...msg, id });
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.queue.push(text);
    return id;
  }

  /** Sends and resolves with the first answer (an `error` rejects). */
  ask(msg) {
    return new Promise((resolve, reject) => {
      const id = this.send(msg, (m) => {
        this.handlers.delete(id);
        if (m.type === "error") reject(new Error(m.message));
        else resolve(m);
      });
    });
  }

  /** Sends a message as it is (a `stop` carries the id of the search it stops). */
  raw(msg) {
    const text = JSON.stringify(msg);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.queue.push(text);
  }

  forget(id) {
    this.handlers.delete(id);
  }
}

function setConn(up) {
  const c = $("conn");
  c.dataset.up = up ? "1" : "0";
  c.textContent = up ? t("connected") : t("disconnected");
}

// ---------------------------------------------------------------- the game: a tree of moves

/** A node of the move tree: the move that led here (null at the root), its notation, the children (first: main). */
function node(uci, parent, notated = null) {
  return { uci, notated, children: [], parent };
}

const game = {
  fen: START_FEN,
  root: node(null, null),
  cur: null,
  result: null,
};
game.cur = game.root;

function pathOf(n) {
  const moves = [];
  for (let x = n; x && x.uci; x = x.parent) moves.push(x.uci);
  return moves.reverse();
}

function nodeAt(moves) {
  let n = game.root;
  for (const m of moves) {
    const c = n.children.find((k) => k.uci === m);
    if (!c) return n;
    n = c;
  }
  return n;
}

/** Plays `uci` from the current node: an existing child is followed, a new one becomes a variation. */
function addMove(uci, from = game.cur) {
  let c = from.children.find((k) => k.uci === uci);
  if (!c) {
    c = node(uci, from);
    from.children.push(c);
  }
  return c;
}

function serialize(n) {
  return { u: n.uci, n: n.notated, c: n.children.map(serialize) };
}

function deserialize(o, parent) {
  const n = node(o.u, parent, o.n);
  n.children = (o.c || []).map((k) => deserialize(k, n));
  return n;
}

// ---------------------------------------------------------------- settings and persistence

const settings = {
  side: "red", tc: "movetime", movetime: 1, minutes: 10, inc: 5, strength: "time", strengthN: 2000,
  multipv: 3, notation: "chinese", letters: false, flipped: false, tab: "play",
};

const clock = { red: 600000, black: 600000, running: false, lastTick: 0, flagged: null };

function save() {
  try {
    localStorage.setItem("xq.game", JSON.stringify({
      fen: game.fen, tree: serialize(game.root), path: pathOf(game.cur), settings,
      clock: { red: clock.red, black: clock.black, flagged: clock.flagged },
    }));
  } catch {
    // storage full or off: the game still plays
  }
}

function restore() {
  try {
    const s = JSON.parse(localStorage.getItem("xq.game") || "null");
    if (!s) return;
    Object.assign(settings, s.settings || {});
    game.fen = s.fen || START_FEN;
    game.root = deserialize(s.tree || { u: null, c: [] }, null);
    game.cur = nodeAt(s.path || []);
    if (s.clock) Object.assign(clock, s.clock);
  } catch {
    localStorage.removeItem("xq.game");
  }
}

// ---------------------------------------------------------------- the page's state

const conn = new Connection();
let state = null; // the server's `state` of the current node
let stateSeq = 0;
let playSearch = null; // id of the engine's move search
let anaSearch = null; // id of the running analysis
let analysing = false;
let preview = null; // {moves, state} while a line's move is previewed
let lastInfo = null;

const board = new Board($("board"), {
  onMove: (uci) => userMove(uci),
  onSquare: (sq) => editorClick(sq),
});

function notate(m) {
  if (!m) return "";
  return m[settings.notation] ?? m.uci;
}

function engineSide() {
  if (settings.side === "none") return null;
  return settings.side === "red" ? "black" : "red";
}

// ---------------------------------------------------------------- asking the server for the position

async function refresh() {
  const seq = ++stateSeq;
  const moves = pathOf(game.cur);
  let st;
  try {
    st = await conn.ask({ type: "state", fen: game.fen, moves });
  } catch (e) {
    if (seq !== stateSeq) return;
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
  if (seq !== stateSeq) return;
  state = st;
  // keep the notated moves in the tree
  let n = game.cur;
  for (let i = st.moves.length - 1; i >= 0 && n && n.uci; i--, n = n.parent) n.notated = st.moves[i];
  game.result = st.result;
  save();
  show();
  afterPosition();
}

function show() {
  const st = preview ? preview.state : state;
  if (!st) return;
  const playing = !preview && tab() !== "editor";
  board.set({
    fen: tab() === "editor" ? editor.fen() : st.fen,
    legal: playing && !st.result && !clock.flagged && !engineToMove(st) ? st.legal : {},
    last: tab() === "editor" ? null : st.last,
    check: tab() === "editor" ? null : st.check,
    selected: null,
    flipped: settings.flipped,
    letters: settings.letters,
    editing: tab() === "editor",
    arrows: tab() === "editor" || preview ? [] : arrowsFor(st),
  });
  $("preview").hidden = !preview;
  renderMoves();
  markReview();
  renderStatus();
}

function engineToMove(st) {
  return tab() === "play" && engineSide() === st.turn;
}

function arrowsFor(st) {
  if (!analysing || !lastInfo || lastInfo.fen !== st.fen || tab() === "watch" || tab() === "editor") return [];
  return lastInfo.lines.filter((l) => l.pv.length).map((l, i) => ({ uci: l.pv[0].uci, weight: 1 / (i + 1) }));
}

function renderStatus() {
  if (!state) return;
  $("btn-review-end").hidden = !(state.result || clock.flagged) || tab() === "games";
  if (clock.flagged) {
    const winner = clock.flagged === "red" ? "black_wins" : "red_wins";
    status(`${t("game_over")}: ${t(winner)}, ${t(clock.flagged)} ${t("lost_on_time")}`);
    $("status").dataset.result = "time";
    return;
  }
  const r = state.result;
  if (r) {
    const who = r.winner === "red" ? t("red_wins") : r.winner === "black" ? t("black_wins") : t("draw");
    const detail = r.detail ? ` (${r.detail})` : "";
    const after = state.unplayed ? ` · ${state.unplayed} ${t("unplayed")}` : "";
    status(`${t("game_over")}: ${who}, ${t("by_rule")} ${ruleName(r.rule)}${detail}${after}`);
    $("status").dataset.result = r.rule;
    return;
  }
  delete $("status").dataset.result;
  if (playSearch) status(t("thinking"));
  else status(`${t(state.turn)}${engineSide() && tab() === "play" ? " — " + t("your_move") : ""}`);
}

function status(text, error = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
}

// ---------------------------------------------------------------- moves

function userMove(uci) {
  if (preview) return exitPreview();
  const mover = state?.turn;
  game.cur = addMove(uci);
  if (tab() === "play" && settings.tc === "clock" && mover) addIncrement(mover);
  refresh();
}

function goTo(n) {
  if (!n || n === game.cur) return;
  exitPreview(false);
  stopPlay();
  game.cur = n;
  refresh();
}

/** After every new position: the engine's move in play, the analysis when on. */
function afterPosition() {
  const st = state;
  if (analysing) startAnalysis();
  if (tab() !== "play" || st.result || clock.flagged) {
    clock.running = false;
    return;
  }
  clock.running = settings.tc === "clock" && game.cur !== game.root;
  if (engineSide() === st.turn && !playSearch) enginePlay();
}

function limits() {
  if (settings.strength === "nodes") return { nodes: Number(settings.strengthN) || 1000 };
  if (settings.strength === "depth") return { depth: Math.max(1, Math.min(64, Number(settings.strengthN) || 4)) };
  if (settings.tc === "clock") {
    const inc = settings.inc * 1000;
    return { clock: { red_ms: Math.round(clock.red), black_ms: Math.round(clock.black), red_inc_ms: inc, black_inc_ms: inc } };
  }
  return { movetime: Math.max(10, Math.round(settings.movetime * 1000)) };
}

function enginePlay() {
  const from = game.cur;
  const mover = state.turn;
  const moves = pathOf(from);
  playSearch = conn.send({ type: "go", purpose: "play", fen: game.fen, moves, ...limits() }, (m) => {
    if (m.type === "error") {
      conn.forget(playSearch);
      playSearch = null;
      status(`${t("error")}: ${m.message}`, true);
      return;
    }
    if (m.type !== "bestmove") return;
    conn.forget(m.id);
    if (m.id !== playSearch) return;
    playSearch = null;
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

function stopPlay() {
  if (playSearch) {
    conn.raw({ type: "stop", id: playSearch });
    conn.forget(playSearch);
    playSearch = null;
  }
}

function takeback() {
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

function newGame(fen = START_FEN) {
  stopPlay();
  stopAnalysis();
  exitPreview(false);
  game.fen = fen;
  game.root = node(null, null);
  game.cur = game.root;
  const ms = settings.minutes * 60000;
  Object.assign(clock, { red: ms, black: ms, running: false, flagged: null });
  $("marks").textContent = "";
  $("chart").textContent = "";
  $("gameinfo").textContent = "";
  reviewed = null;
  refresh();
}

// ---------------------------------------------------------------- the clock

function addIncrement(side) {
  clock[side] += settings.inc * 1000;
}

function fmt(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tickClock() {
  const now = performance.now();
  const dt = now - (clock.lastTick || now);
  clock.lastTick = now;
  const on = settings.tc === "clock" && tab() === "play";
  $("clocks").hidden = !on;
  if (!on || !state) return;
  if (clock.running && !state.result && !clock.flagged && !preview) {
    const side = state.turn;
    clock[side] -= dt;
    if (clock[side] <= 0) {
      clock[side] = 0;
      clock.flagged = side;
      clock.running = false;
      stopPlay();
      save();
      show();
    }
  }
  $("clock-red").textContent = `${t("red")} ${fmt(clock.red)}`;
  $("clock-black").textContent = `${t("black")} ${fmt(clock.black)}`;
  $("clock-red").classList.toggle("active", state.turn === "red" && clock.running);
  $("clock-black").classList.toggle("active", state.turn === "black" && clock.running);
}
setInterval(tickClock, 100);

// ---------------------------------------------------------------- analysis

function startAnalysis() {
  stopAnalysis();
  if (!state || state.result) return;
  const fen = state.fen;
  const moves = pathOf(game.cur);
  lastInfo = null;
  $("lines").textContent = "";
  $("anainfo").textContent = "…";
  anaSearch = conn.send({ type: "go", purpose: "analyse", fen: game.fen, moves, infinite: true, multipv: settings.multipv }, (m) => {
    if (m.type === "bestmove" || m.type === "error") conn.forget(m.id);
    if (m.id !== anaSearch) return;
    if (m.type === "info" && m.lines) {
      lastInfo = { fen, moves, turn: state.turn, depth: m.depth, seldepth: m.seldepth, nps: m.nps, nodes: m.nodes, lines: m.lines };
      renderLines();
      if (!preview) board.set({ arrows: arrowsFor(state) });
      renderEval();
    } else if (m.type === "error") {
      $("anainfo").textContent = `${t("error")}: ${m.message}`;
    }
  });
  $("btn-analyse").textContent = t("stop");
}

function stopAnalysis() {
  if (anaSearch) {
    conn.raw({ type: "stop", id: anaSearch });
    anaSearch = null;
  }
  $("btn-analyse").textContent = t("infinite");
}

/** A score from the side to move's view, as Red's number of centipawns (mates as +/-10000). */
function redCp(score, turn) {
  if (!score) return 0;
  const v = score.mate != null ? Math.sign(score.mate || 1) * 10000 - score.mate : score.cp;
  return turn === "red" ? v : -v;
}

function scoreText(score, turn) {
  if (!score) return "";
  if (score.mate != null) {
    const redWins = (score.mate > 0) === (turn === "red");
    return `${redWins ? "+" : "-"}M${Math.abs(score.mate)}`;
  }
  const v = redCp(score, turn) / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

function renderLines() {
  const info = lastInfo;
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

function renderEval() {
  const info = lastInfo;
  let cp = 0;
  let text = "";
  if (info && info.lines[0] && analysing) {
    cp = redCp(info.lines[0].score, info.turn);
    text = scoreText(info.lines[0].score, info.turn);
  }
  const share = 1 / (1 + Math.exp(-cp / 400));
  $("evalfill").style.height = `${(share * 100).toFixed(1)}%`;
  $("evaltext").textContent = text;
  $("evalbar").classList.toggle("flipped", settings.flipped);
  $("evalbar").classList.toggle("idle", !(analysing && info));
}

async function startPreview(moves) {
  try {
    const st = await conn.ask({ type: "state", fen: game.fen, moves });
    preview = { moves, state: st };
    show();
  } catch (e) {
    status(`${t("error")}: ${e.message}`, true);
  }
}

function exitPreview(redraw = true) {
  if (!preview) return;
  preview = null;
  if (redraw) show();
}

// ---------------------------------------------------------------- the move list

/** The move number of the move played at `ply` (0-based from the game's start): `12.` for Red, `12…` for Black. */
function moveLabel(ply) {
  const rootRed = game.fen.split(" ")[1] !== "b";
  const startNo = Number(game.fen.split(" ")[5]) || 1;
  const red = (ply % 2 === 0) === rootRed;
  const no = startNo + Math.floor((ply + (rootRed ? 0 : 1)) / 2);
  return red ? `${no}.` : `${no}…`;
}

function renderMoves() {
  const box = $("moves");
  box.textContent = "";
  const rootRed = game.fen.split(" ")[1] !== "b";
  const label = moveLabel;
  const moveEl = (n, ply, forceNo) => {
    const s = document.createElement("span");
    s.className = "move" + (n === game.cur ? " current" : "");
    s.dataset.uci = n.uci;
    s.dataset.ply = ply + 1;
    const red = (ply % 2 === 0) === rootRed;
    s.textContent = (red || forceNo ? label(ply) + " " : "") + (n.notated ? notate(n.notated) : n.uci);
    if (n.mark) {
      const m = document.createElement("sup");
      m.className = "mark";
      m.textContent = n.mark;
      s.appendChild(m);
    }
    s.addEventListener("click", () => goTo(n));
    return s;
  };
  const line = (start, ply, parentEl) => {
    // start: the first node of this line; ply: its ply from the root (0-based)
    let n = start;
    let p = ply;
    let forceNo = true;
    while (n) {
      parentEl.appendChild(moveEl(n, p, forceNo));
      parentEl.append(" ");
      forceNo = false;
      const parent = n.parent;
      // the variations of this move (its siblings after the main one) follow it
      if (parent.children[0] === n && parent.children.length > 1) {
        for (const alt of parent.children.slice(1)) {
          const v = document.createElement("span");
          v.className = "variation";
          line(alt, p, v);
          parentEl.appendChild(v);
          forceNo = true;
        }
      }
      n = n.children[0];
      p += 1;
    }
  };
  if (game.root.children[0]) line(game.root.children[0], 0, box);
  // keep the current move in view by scrolling the list only (never the page)
  const cur = box.querySelector(".current");
  if (cur) {
    const top = cur.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 24) box.scrollTop = top - box.clientHeight / 2;
  }
}

document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, textarea, select")) return;
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

// ---------------------------------------------------------------- games: records, export, review

async function loadRecord(msg) {
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

function openGame(g) {
  newGame(g.fen || START_FEN);
  let n = game.root;
  for (const m of g.moves) n = addMove(m, n);
  game.cur = n;
  game.tags = g.tags;
  const tg = g.tags || {};
  const names = [tg.Red || tg.RedTeam, tg.Black || tg.BlackTeam].filter(Boolean).join(" – ");
  $("gameinfo").textContent = [names, tg.Event, tg.Date, g.result || tg.Result, `${g.moves.length} ${t("plies")}`]
    .filter((x) => x && x !== "?" && x !== "*").join(" · ");
  refresh();
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
    const res = game.result;
    const result = res ? (res.winner === "red" ? "1-0" : res.winner === "black" ? "0-1" : "1/2-1/2") : "*";
    const m = await conn.ask({ type: "export_pgn", fen: game.fen, moves: pathOf(mainEnd()), notation: settings.notation, result, tags: game.tags || {} });
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

/** The end of the line through the current node (the current node, then the main continuation). */
function mainEnd() {
  let n = game.cur;
  while (n.children[0]) n = n.children[0];
  return n;
}

let reviewId = null;
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
  if (reviewId) conn.forget(reviewId);
  reviewId = conn.send({ type: "review", fen: game.fen, moves, movetime: Number($("review-ms").value) || 300 }, (m) => {
    if (m.type === "review_progress") $("review-progress").textContent = `${t("reviewing")} ${m.done}/${m.total}`;
    else if (m.type === "error") $("review-progress").textContent = `${t("error")}: ${m.message}`;
    else if (m.type === "review") {
      conn.forget(m.id);
      $("review-progress").textContent = "";
      showReview(m, nodes);
    }
  });
});

let reviewed = null;

/** The class of a review mark: `?!` an inaccuracy, `?` a mistake, `??` a blunder. */
function markClass(mark) {
  return { "?!": "inaccuracy", "?": "mistake", "??": "blunder" }[mark] ?? "";
}

/** The current position's place on the review chart. */
function markReview() {
  if (!reviewed) return;
  const i = reviewed.nodes.indexOf(game.cur);
  reviewed.cursor.style.display = i < 0 ? "none" : "";
  if (i >= 0) {
    reviewed.cursor.setAttribute("x1", reviewed.x(i));
    reviewed.cursor.setAttribute("x2", reviewed.x(i));
  }
}

function showReview(r, nodes) {
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
    c.addEventListener("click", () => goTo(nodes[i]));
  });
  const cursor = add("line", { x1: 0, y1: 0, x2: 0, y2: H, class: "cursor" });
  const box = $("chart");
  box.textContent = "";
  box.appendChild(svg);
  reviewed = { nodes, cursor, x };
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
    b.addEventListener("click", () => goTo(nd));
    li.appendChild(b);
    li.append(` ${t("loss")} ${mv.loss} · ${t("best_was")} ${notate(mv.best)}`);
    ol.appendChild(li);
  }
  renderMoves();
}

// ---------------------------------------------------------------- the editor

const editor = {
  map: placement(START_FEN),
  pick: "R",
  fen() {
    return `${placementToFen(this.map)} ${$("ed-turn").value} - - 0 1`;
  },
};

function buildPalette() {
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

function editorClick(sq) {
  if (editor.pick === "x" || editor.map.get(sq) === editor.pick) editor.map.delete(sq);
  else editor.map.set(sq, editor.pick);
  editorChanged();
}

function editorChanged() {
  $("ed-fen").value = editor.fen();
  $("ed-msg").textContent = "";
  board.set({ fen: editor.fen() });
}

async function editorApply() {
  const fen = $("ed-fen").value.trim();
  const msg = $("ed-msg");
  try {
    const st = await conn.ask({ type: "validate", fen });
    msg.className = "msg ok";
    msg.textContent = t("position_ok");
    selectTab("play");
    newGame(st.fen || fen);
  } catch (e) {
    msg.className = "msg error";
    msg.textContent = `${t("error")}: ${e.message}`;
  }
}

function enterEditor() {
  editor.map = placement(state?.fen || game.fen);
  $("ed-turn").value = state?.turn === "black" ? "b" : "w";
  $("ed-fen").value = editor.fen();
}

// ---------------------------------------------------------------- tabs and controls

function tab() {
  return settings.tab;
}

function selectTab(name) {
  const was = settings.tab;
  settings.tab = name;
  for (const b of document.querySelectorAll("[data-tab]")) b.classList.toggle("active", b.dataset.tab === name);
  for (const p of document.querySelectorAll(".panel")) p.hidden = p.id !== `panel-${name}`;
  document.body.dataset.tab = name;
  if (name === "editor" && was !== "editor") enterEditor();
  if (name !== "play") stopPlay();
  save();
  show();
  if (name === "play" && state && was !== "play") afterPosition();
}

for (const b of document.querySelectorAll("[data-tab]")) b.addEventListener("click", () => selectTab(b.dataset.tab));

function bindSettings() {
  const fields = { side: "side", tc: "tc", movetime: "movetime", minutes: "minutes", inc: "inc", strength: "strength", "strength-n": "strengthN", multipv: "multipv", notation: "notation" };
  for (const [id, key] of Object.entries(fields)) {
    const e = $(id);
    e.value = settings[key];
    e.addEventListener("change", () => {
      settings[key] = e.type === "number" || key === "multipv" ? Number(e.value) : e.value;
      syncControls();
      save();
      if (key === "multipv" && analysing) startAnalysis();
      if (key === "notation") {
        renderLines();
        renderMoves();
      }
      if (key === "side" && settings.side !== "none") {
        // the player's side at the bottom
        settings.flipped = settings.side === "black";
        renderEval();
      }
      if (key === "tc") clock.running = settings.tc === "clock" && game.cur !== game.root && !state?.result;
      if (key === "side" && state) {
        show();
        afterPosition();
      }
      if (key === "minutes" && game.cur === game.root) {
        clock.red = clock.black = settings.minutes * 60000;
      }
    });
  }
  $("letters").checked = settings.letters;
  $("letters").addEventListener("change", () => {
    settings.letters = $("letters").checked;
    save();
    show();
  });
  syncControls();
}

function syncControls() {
  $("movetime").hidden = settings.tc !== "movetime";
  $("clockset").hidden = settings.tc !== "clock";
  $("strength-n").hidden = settings.strength === "time";
}

// the move tree: the line through the current move becomes the main line; or the current move and what follows go
$("btn-promote").addEventListener("click", () => {
  for (let n = game.cur; n.parent; n = n.parent) {
    const siblings = n.parent.children;
    siblings.splice(siblings.indexOf(n), 1);
    siblings.unshift(n);
  }
  save();
  renderMoves();
});
$("btn-delete").addEventListener("click", () => {
  const n = game.cur;
  if (!n.parent) return;
  stopPlay();
  n.parent.children = n.parent.children.filter((k) => k !== n);
  game.cur = n.parent;
  refresh();
});

$("btn-flip").addEventListener("click", () => {
  settings.flipped = !settings.flipped;
  save();
  show();
  renderEval();
});
$("btn-takeback").addEventListener("click", takeback);
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
  analysing = !analysing;
  if (analysing) startAnalysis();
  else {
    stopAnalysis();
    lastInfo = null;
    renderLines();
    $("anainfo").textContent = "";
    show();
  }
  renderEval();
});
$("board").addEventListener("pointerdown", () => {
  if (preview) exitPreview();
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
});

const watch = new Watch(conn, {
  line: () => ({ fen: game.fen, moves: pathOf(game.cur) }),
  // the moves from the root of a watched position to the node shown, as arrows on the board (numbered by colour)
  showPath: (moves) => {
    if (tab() !== "watch" || !state) return;
    board.set({ arrows: moves.filter((m) => /^[a-i][0-9][a-i][0-9]$/.test(m)).map((uci, i) => ({ uci, weight: 0.6, color: i })) });
  },
});

// ---------------------------------------------------------------- start

conn.listeners.push((m) => {
  if (m.type === "open") {
    // searches of a previous socket ended with it
    playSearch = null;
    anaSearch = null;
    conn.send({ type: "hello", lang: language() }, (h) => {
      if (h.type === "hello") $("engine").textContent = `${h.engine ?? ""} ${h.version ?? ""}`;
    });
    refresh();
  }
});

restore();
renderEval();
// the start position is drawn at once; a position after moves waits for the server's `state`
board.set({ fen: game.cur === game.root ? game.fen : "", flipped: settings.flipped, letters: settings.letters });
setLanguage(language());
$("lang").value = language();
buildPalette();
bindSettings();
$("fen").value = game.fen;
selectTab(settings.tab || "play");
window.xq = { game, board, conn, settings, pathOf };
