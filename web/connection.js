// The WebSocket to cor-server: requests with ids answered by promises, messages the server sends
// on its own handed to `onMessage`, and reconnection with backoff after any loss.

const kBackoffMs = [500, 1000, 2000, 4000, 8000, 15000];

export class ServerError extends Error {
  constructor(reply) {
    super(reply.message || reply.code);
    this.code = reply.code;
    this.reason = reply.reason;
    this.table = reply.table;
  }
}

export class Connection {
  // `hello()` returns the hello request to send on every (re)connection; `onWelcome(reply)` runs
  // after it is answered, `onMessage(message)` for every message that answers no request, and
  // `onState(state, detail)` when the state changes: connecting, open, closed.
  constructor({ url, hello, onWelcome, onMessage, onState }) {
    this.url = url;
    this.hello = hello;
    this.onWelcome = onWelcome;
    this.onMessage = onMessage;
    this.onState = onState;
    this.socket = null;
    this.pending = new Map(); // request id -> {resolve, reject}
    this.nextId = 1;
    this.attempt = 0;
    this.timer = null;
    this.stopped = true;
    this.ready = false; // hello answered on the current socket
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close(1000);
    this.socket = null;
    this.failPending('signed out');
  }

  open() {
    clearTimeout(this.timer);
    this.ready = false;
    this.onState('connecting');
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.request(this.hello()).then(
        (welcome) => {
          this.attempt = 0;
          this.ready = true;
          this.onState('open');
          this.onWelcome(welcome);
        },
        (error) => this.onMessage({ type: 'error', code: error.code, message: error.message, hello: true }),
      );
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.ready = false;
      this.failPending('the connection was lost');
      if (this.stopped) return;
      const delay = kBackoffMs[Math.min(this.attempt, kBackoffMs.length - 1)];
      this.attempt += 1;
      // A little jitter so that a restarted server is not hit by every client at once.
      const wait = Math.round(delay * (0.8 + 0.4 * Math.random()));
      this.onState('closed', { retryAt: Date.now() + wait });
      this.timer = setTimeout(() => this.open(), wait);
    };
  }

  // Reconnect now (after the network came back), instead of at the end of the backoff.
  retryNow() {
    if (!this.stopped && !this.socket) this.open();
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return; // the server only sends JSON; ignore anything else
    }
    const waiting = message.id !== undefined ? this.pending.get(message.id) : undefined;
    if (!waiting) return this.onMessage(message);
    this.pending.delete(message.id);
    if (message.type === 'error') waiting.reject(new ServerError(message));
    else waiting.resolve(message);
    // Replies that also change what the page shows (a snapshot, a table) are shown too.
    if (message.type !== 'error') this.onMessage(message);
  }

  // Sends a request and resolves with its reply (rejects with a ServerError or a lost connection).
  request(message) {
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        reject(new ServerError({ code: 'offline', message: 'not connected to the server' }));
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ ...message, id }));
    });
  }

  failPending(why) {
    for (const { reject } of this.pending.values())
      reject(new ServerError({ code: 'offline', message: why }));
    this.pending.clear();
  }
}
