// The settings and the game in localStorage, so that a reload keeps the game in progress.

import { clock } from "./clock.js";
import { START_FEN, deserialize, game, nodeAt, pathOf, serialize } from "./gametree.js";
import { tab } from "./page.js";

export const settings = {
  side: "red", tc: "movetime", movetime: 1, minutes: 10, inc: 5, strength: "time", strengthN: 2000,
  multipv: 3, notation: "chinese", letters: false, flipped: false, tab: "play",
};

export function save() {
  try {
    localStorage.setItem("xq.game", JSON.stringify({
      fen: game.fen, tree: serialize(game.root), path: pathOf(game.cur), settings,
      clock: { red: clock.red, black: clock.black, flagged: clock.flagged },
    }));
  } catch {
    // storage full or off: the game still plays
  }
}

export function restore() {
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
