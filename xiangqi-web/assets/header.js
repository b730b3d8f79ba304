// Beside the board: a loaded game's header (the players, the event, the date, the result) and, above the move list,
// the name of the opening the line has reached (the server's `state` names it by position, in Chinese and English),
// and the level picker's list (each level's Elo from the server's `hello`, measured in games: no copy here).

import { game } from "./gametree.js";
import { language, t } from "./i18n.js";

const byId = (id) => document.getElementById(id);

/** A tag's value, or "" when it is missing or PGN's unknown ("?", "????.??.??"). */
function tag(tags, ...names) {
  for (const name of names) {
    const v = String(tags?.[name] ?? "").trim();
    if (v && !/^[?.]*$/.test(v)) return v;
  }
  return "";
}

/** The record's result for the game as loaded, or "" (also for "*"). */
export function recordResult() {
  const r = game.record?.result || tag(game.tags, "Result");
  return r && r !== "*" ? r : "";
}

/** The header of a loaded game (hidden for a game played here). */
export function renderHeader() {
  const box = byId("gamehead");
  const tags = game.tags;
  box.textContent = "";
  box.hidden = !tags;
  if (!tags) return;
  const field = (name, text, cls = "") => {
    const e = document.createElement("span");
    e.dataset.field = name;
    e.className = `hfield ${cls}`.trim();
    e.textContent = text;
    return e;
  };
  const side = (color) => {
    const row = document.createElement("div");
    row.className = `hplayer ${color}`;
    const who = tag(tags, color === "red" ? "Red" : "Black", color === "red" ? "White" : "");
    const team = tag(tags, color === "red" ? "RedTeam" : "BlackTeam");
    row.append(field(`${color}-side`, t(color), "hside"), " ", field(color, who || "?", "hname"));
    if (team && team !== who) row.append(" ", field(`${color}-team`, team, "muted"));
    return row;
  };
  const result = recordResult();
  const players = document.createElement("div");
  players.className = "hplayers";
  players.append(side("red"), field("result", result || "*", "hresult"), side("black"));
  const about = document.createElement("div");
  about.className = "habout muted";
  const event = [tag(tags, "Event"), tag(tags, "Round") && `${t("round")} ${tag(tags, "Round")}`].filter(Boolean).join(" · ");
  if (event) about.append(field("event", event));
  if (tag(tags, "Site")) about.append(event ? " · " : "", field("site", tag(tags, "Site")));
  if (tag(tags, "Date")) about.append(event || tag(tags, "Site") ? " · " : "", field("date", tag(tags, "Date")));
  box.append(players);
  if (about.childNodes.length) box.append(about);
}

/** The opening of the state shown, in the page's language (the other language in its tooltip). */
export function renderOpening(st) {
  const box = byId("opening");
  const o = st?.opening;
  box.hidden = !o;
  if (!o) {
    box.textContent = "";
    delete box.dataset.chinese;
    delete box.dataset.english;
    return;
  }
  const zh = language() === "zh";
  box.textContent = zh ? o.chinese : o.english;
  box.title = zh ? o.english : o.chinese;
  box.dataset.chinese = o.chinese;
  box.dataset.english = o.english;
  box.dataset.ply = o.ply;
}

/** Fills the level picker from the server's `levels` ({level, elo} each, Elo relative to level 10). */
export function fillLevels(levels, current) {
  const pick = byId("level");
  if (!levels?.length) return;
  pick.textContent = "";
  for (const { level, elo } of levels) {
    const o = document.createElement("option");
    o.value = level;
    o.dataset.elo = elo;
    o.textContent = level === 10 ? `10 · ${t("full_strength")}` : `${level} · ${elo} Elo`;
    pick.appendChild(o);
  }
  pick.value = String(current);
  pick.disabled = false;
}
