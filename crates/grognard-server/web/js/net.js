// The server's protocol (docs/server.md): HTTP with `Authorization: Bearer TOKEN` and the
// game's WebSocket, which this module keeps open, reconnecting by itself.

/** A JSON request with the seat's (or the host's) token. */
export async function api(path, token, { method = 'GET', body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: text };
  }
  if (!response.ok) {
    const message = (data && data.error) || `${response.status} ${response.statusText}`;
    // The status travels with the words, so a page can say what a 401 means for its user.
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return data;
}

/**
 * The game's live connection: `hello` with the token, then every message to `onMessage`.
 * When the socket closes it tries again (1 s, 2 s, 4 s… up to 15 s) and tells
 * `onStatus` what it is doing, so the page can say so.
 */
export class Live {
  constructor(game, token, { onMessage, onStatus }) {
    this.game = game;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.delay = 1000;
    this.socket = null;
    this.stopped = false;
    this.timer = null;
  }

  start() {
    this.stopped = false;
    this.open();
    // A page left open (a laptop asleep, a phone in a pocket) reconnects when it is seen.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && !this.isOpen()) this.retryNow();
    });
    window.addEventListener('online', () => this.retryNow());
  }

  isOpen() {
    return this.socket && this.socket.readyState === WebSocket.OPEN;
  }

  retryNow() {
    if (this.stopped || (this.socket && this.socket.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.timer);
    this.delay = 1000;
    this.open();
  }

  open() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = `${scheme}//${location.host}/games/${encodeURIComponent(this.game)}/live`;
    this.onStatus('connecting');
    let socket;
    try {
      socket = new WebSocket(url);
    } catch {
      this.later();
      return;
    }
    this.socket = socket;
    let welcomed = false;
    socket.addEventListener('open', () => {
      socket.send(JSON.stringify({ type: 'hello', token: this.token }));
    });
    socket.addEventListener('message', (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === 'welcome') {
        welcomed = true;
        this.delay = 1000;
        this.onStatus('live');
      } else if (message.type === 'error' && !welcomed) {
        // Refused at `hello` (no such game, a token that opens no seat): trying again
        // would be refused again.
        this.stopped = true;
        this.onStatus('refused');
      }
      this.onMessage(message);
    });
    socket.addEventListener('close', () => {
      if (this.socket === socket) this.later();
    });
  }

  later() {
    if (this.stopped) return;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, 15000);
    this.onStatus('reconnecting', wait);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), wait);
  }

  /** Sends one message; false when the connection is down. */
  send(message) {
    if (!this.isOpen()) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
