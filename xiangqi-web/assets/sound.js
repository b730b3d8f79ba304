// The sounds of a move, a capture, a check and the game's end, made by the page itself with Web Audio (no sound
// files), unless the sound is switched off (`settings.sound`, remembered with the other settings).

import { placement } from "./points.js";
import { settings } from "./storage.js";

let ctx = null;

/** What was played: the last sound's kind and how many sounds so far (a test driver reads it). */
export const played = { last: null, count: 0 };

function audio() {
  if (!ctx) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    ctx = new Context();
  }
  // a page may start sound only after the player's first gesture; until then the context waits suspended
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

/** A tone of `freq` Hz from `at` (s, the context's time) for `len` s, with a quick attack and an exponential decay. */
function tone(a, freq, at, len, type = "sine", peak = 0.2) {
  const osc = a.createOscillator();
  const gain = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + 0.005);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + len);
  osc.connect(gain).connect(a.destination);
  osc.start(at);
  osc.stop(at + len + 0.02);
}

/** A knock of wood on wood: a short burst of noise through a band-pass filter around `freq` Hz. */
function knock(a, at, freq, peak) {
  const len = 0.06;
  const buffer = a.createBuffer(1, Math.ceil(a.sampleRate * len), a.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const src = a.createBufferSource();
  src.buffer = buffer;
  const filter = a.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = 3;
  const gain = a.createGain();
  gain.gain.value = peak;
  src.connect(filter).connect(gain).connect(a.destination);
  src.start(at);
}

/** Plays the sound of `kind`: `move`, `capture`, `check` or `end`. */
export function playSound(kind) {
  if (!settings.sound) return;
  played.last = kind;
  played.count += 1;
  const a = audio();
  if (!a) return;
  const now = a.currentTime + 0.01;
  if (kind === "move") {
    knock(a, now, 1800, 0.9);
    tone(a, 240, now, 0.07, "sine", 0.15);
  } else if (kind === "capture") {
    knock(a, now, 1300, 1.2);
    tone(a, 170, now, 0.1, "sine", 0.25);
    knock(a, now + 0.07, 1600, 0.7);
  } else if (kind === "check") {
    knock(a, now, 1800, 0.8);
    tone(a, 880, now + 0.02, 0.12, "triangle", 0.18);
    tone(a, 1175, now + 0.14, 0.16, "triangle", 0.18);
  } else if (kind === "end") {
    [523.25, 659.25, 783.99].forEach((f, i) => tone(a, f, now + i * 0.13, i === 2 ? 0.6 : 0.2, "triangle", 0.16));
  }
}

/** The sound of the move from state `before` to state `after` (the server's `state` answers): the game's end, a
 * check, a capture (a piece stood on the move's destination) or a plain move. */
export function soundOf(before, after) {
  if (after.result) return "end";
  if (after.check) return "check";
  return placement(before.fen).has(after.last.slice(2, 4)) ? "capture" : "move";
}
