// The WebSocket to the server, kept open: after a drop it reconnects with exponential
// backoff, and the app re-authenticates and re-joins from its `open` handler.

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;
// A server that closes its sockets as it stops (1012 "service restart", 1001 "going away":
// docs/protocol.md) is back in a moment: the page tries again every second or so, not after
// a backoff that had grown to 10 s (a page came back some 14 s after a restart), jittered so
// that every page does not come back in the same instant. After this many failed attempts
// the server is not restarting but down: the ordinary backoff takes over.
const RESTART_CODES = new Set([1012, 1001]);
const RESTART_FIRST_MS = 500;
const RESTART_MAX_MS = 1500;
const RESTART_ATTEMPTS = 40;
// A connection that has heard nothing for this long is treated as dead: a half-open TCP
// connection (a phone that changed network) never fires `close` on its own.
const SILENCE_MS = 45_000;
const PING_MS = 20_000;

export class Connection {
  constructor(url, { onMessage, onOpen, onStatus }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.onStatus = onStatus;
    this.attempt = 0;
    // The attempts made since the server said it was restarting (null: it did not).
    this.restarting = null;
    this.socket = null;
    this.status = "connecting";
    this.heardAt = Date.now();
    this.timer = null;
    this.ticker = null;
    setInterval(() => this.keepAlive(), PING_MS);
    // The browser knows at once when the network goes: the socket may stay "open" for a long
    // while, its messages held back, and decisions made meanwhile would go nowhere. Dropped
    // now, the page says so; back online, it reconnects at once rather than at its backoff.
    window.addEventListener("offline", () => this.drop());
    window.addEventListener("online", () => {
      if (this.isOpen) return;
      clearTimeout(this.timer);
      const stale = this.socket; // an attempt made while offline
      this.socket = null;
      stale?.close();
      this.attempt = 0;
      this.connect();
    });
  }

  connect() {
    this.timer = null;
    clearInterval(this.ticker);
    this.setStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (this.socket !== socket) return;
      this.attempt = 0;
      this.restarting = null;
      this.heardAt = Date.now();
      this.setStatus("open");
      this.onOpen();
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return; // a socket dropped already
      this.heardAt = Date.now();
      this.onMessage(JSON.parse(event.data));
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (RESTART_CODES.has(event.code)) this.restarting = 0;
      this.retry();
    });
  }

  retry() {
    if (this.restarting !== null && this.restarting >= RESTART_ATTEMPTS) this.restarting = null;
    let delay;
    if (this.restarting === null) {
      delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    } else {
      // The first attempt in about half a second (0.4 to 0.6 s), the next ones 0.75 to 1.5 s apart.
      delay = this.restarting === 0 ? RESTART_FIRST_MS * (0.8 + Math.random() * 0.4) : RESTART_MAX_MS * (0.5 + Math.random() * 0.5);
      this.restarting += 1;
    }
    // Counted in either case: a server still down after its restart's attempts is waited for
    // as long as one down from the start.
    this.attempt += 1;
    // The seconds shown count down to the next attempt ("reconnecting in 8 s" stayed 8).
    const due = Date.now() + delay;
    const tick = () => this.setStatus("reconnecting", Math.max(1, Math.ceil((due - Date.now()) / 1000)));
    tick();
    clearInterval(this.ticker);
    this.ticker = setInterval(tick, 1000);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  keepAlive() {
    if (this.socket?.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.heardAt > SILENCE_MS) this.drop();
    else this.send({ type: "ping" });
  }

  // Close the socket as a network failure would; reconnection follows. Its `close` event is
  // not waited for: with the network gone, the closing handshake may take minutes.
  drop() {
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    this.restarting = null; // the network gone: waited for as any drop (back online, at once)
    socket.close(4000, "dropped");
    this.retry();
  }

  get isOpen() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.isOpen) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  setStatus(status, seconds = null) {
    this.status = status;
    this.onStatus(status, seconds);
  }
}
