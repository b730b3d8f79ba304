// The socket to the server (/ws, docs/serve-protocol.md): requests with ids, their answers, a queue while
// (re)connecting.

import { t } from "./i18n.js";

export class Connection {
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

export function setConn(up) {
  const c = document.getElementById("conn");
  c.dataset.up = up ? "1" : "0";
  c.textContent = up ? t("connected") : t("disconnected");
}
