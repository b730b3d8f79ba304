// The settings, the game and the clock in localStorage, so that a reload keeps the game in progress. The lowest of
// the page's modules: it imports only the game tree.

import { START_FEN, deserialize, game, nodeAt, pathOf, serialize } from "./gametree.js";

export const settings = {
  side: "red", tc: "movetime", movetime: 1, minutes: 10, inc: 5, strength: "time", strengthN: 2000,
  multipv: 3, notation: "chinese", letters: false, flipped: false, tab: "play", level: 10, animate: true,
  sound: true,
};

/** The players' clock: the time left of each side (ms), whether it runs, who lost on time. */
export const clock = { red: 600000, black: 600000, running: false, lastTick: 0, flagged: null };

/** Writes the game, the settings and the clock to localStorage. */
export function save() {
  try {
    localStorage.setItem("xq.game", JSON.stringify({
      fen: game.fen, tree: serialize(game.root), path: pathOf(game.cur), settings, tags: game.tags ?? null,
      record: game.record ?? null, review: game.review ?? null,
      clock: { red: clock.red, black: clock.black, flagged: clock.flagged },
    }));
  } catch {
    // storage full or off: the game still plays
  }
}

/** Reads back what `save` wrote (nothing when there is nothing or it is unreadable). */
export function restore() {
  try {
    const s = JSON.parse(localStorage.getItem("xq.game") || "null");
    if (!s) return;
    Object.assign(settings, s.settings || {});
    game.fen = s.fen || START_FEN;
    game.root = deserialize(s.tree || { u: null, c: [] }, null);
    game.cur = nodeAt(s.path || []);
    game.tags = s.tags ?? null;
    game.record = s.record ?? null;
    game.review = s.review ?? null;
    if (s.clock) Object.assign(clock, s.clock);
  } catch {
    localStorage.removeItem("xq.game");
  }
}
