// The WebSocket to the server, kept open: after a drop it reconnects with exponential
// backoff, and the app re-authenticates and re-joins from its `open` handler.

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;
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
    this.socket = null;
    this.status = "connecting";
    this.heardAt = Date.now();
    setInterval(() => this.keepAlive(), PING_MS);
  }

  connect() {
    this.setStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.heardAt = Date.now();
      this.setStatus("open");
      this.onOpen();
    });
    socket.addEventListener("message", (event) => {
      this.heardAt = Date.now();
      this.onMessage(JSON.parse(event.data));
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.retry();
    });
  }

  retry() {
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    this.setStatus("reconnecting", Math.ceil(delay / 1000));
    setTimeout(() => this.connect(), delay);
  }

  keepAlive() {
    if (this.socket?.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.heardAt > SILENCE_MS) this.drop();
    else this.send({ type: "ping" });
  }

  // Close the socket as a network failure would; reconnection follows.
  drop() {
    this.socket?.close(4000, "dropped");
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
