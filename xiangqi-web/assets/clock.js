// The players' clock: its time left, the increment, the tick that runs it.

import { t } from "./i18n.js";
import { $, actions, page, tab } from "./page.js";
import { playSound } from "./sound.js";
import { clock, save, settings } from "./storage.js";

/** How often a running clock is saved, in ms: a reload gives back at most this much thinking time. */
const SAVE_EVERY = 500;
let lastSave = 0;

// ---------------------------------------------------------------- the clock

export function addIncrement(side) {
  clock[side] += settings.inc * 1000;
}

export function fmt(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function tickClock() {
  const now = performance.now();
  const dt = now - (clock.lastTick || now);
  clock.lastTick = now;
  const on = settings.tc === "clock" && tab() === "play";
  $("clocks").hidden = !on;
  if (!on || !page.state) return;
  if (clock.running && !page.state.result && !clock.flagged && !page.preview) {
    const side = page.state.turn;
    clock[side] -= dt;
    if (clock[side] <= 0) {
      clock[side] = 0;
      clock.flagged = side;
      clock.running = false;
      actions.stopPlay();
      save();
      actions.show();
      playSound("end");
    } else if (now - lastSave >= SAVE_EVERY) {
      // saved as it runs, so that a reload does not give the player back the time spent thinking
      lastSave = now;
      save();
    }
  }
  $("clock-red").textContent = `${t("red")} ${fmt(clock.red)}`;
  $("clock-black").textContent = `${t("black")} ${fmt(clock.black)}`;
  $("clock-red").classList.toggle("active", page.state.turn === "red" && clock.running);
  $("clock-black").classList.toggle("active", page.state.turn === "black" && clock.running);
}
