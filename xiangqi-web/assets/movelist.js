// The move list: the main line with its variations, the current move, making a line the main one or deleting it.

import { game, moveLabel } from "./gametree.js";
import { $, actions, notate } from "./page.js";
import { save } from "./storage.js";

export function renderMoves() {
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
    s.addEventListener("click", () => actions.goTo(n));
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
  actions.stopPlay();
  n.parent.children = n.parent.children.filter((k) => k !== n);
  game.cur = n.parent;
  actions.refresh();
});
