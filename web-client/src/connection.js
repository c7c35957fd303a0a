// The WebSocket to the server: `hello` handshake, increasing command ids, answers
// matched to commands by `re`, a liveness ping, and reconnection with backoff.
// Only protocol messages (see types.js and the committed JSON Schema) go through here.

/** @typedef {import('./types.js').ClientMessage} ClientMessage */
/** @typedef {import('./types.js').ServerMessage} ServerMessage */
/** @typedef {'connecting' | 'online' | 'down' | 'replaced' | 'unsupported'} ConnStatus */

export const PROTOCOL_VERSION = 1;
const CLIENT_NAME = 'dominion-web/0.1';
const ID_KEY = 'dominion.lastCommandId';
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];
const PING_AFTER_MS = 15000;
const DEAD_AFTER_MS = 35000;

export const CLOSE_REPLACED = 4004;
/** The server restarts, or (several nodes) hands this page's room to another node. */
export const CLOSE_RESTART = 1012;
export const CLOSE_UNSUPPORTED = 4000;
/** The connection was signed in and no longer is (signed out elsewhere, password changed, banned, deleted). */
export const CLOSE_SIGNED_OUT = 4005;

export class Connection {
  /**
   * @param {object} handlers
   * @param {(msg: ServerMessage) => void} handlers.onMessage every message that is not a direct answer
   * @param {(welcome: ServerMessage) => void} handlers.onReady after each successful `welcome`
   * @param {(status: ConnStatus, retryAt?: number) => void} handlers.onStatus
   * @param {(reason: string) => void} [handlers.onSignedOut] the server ended this page's
   *   account session (the page connects again at once, as a guest)
   */
  constructor({ onMessage, onReady, onStatus, onSignedOut }) {
    this.onMessage = onMessage;
    this.onSignedOut = onSignedOut;
    this.onReady = onReady;
    this.onStatus = onStatus;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {ConnStatus} */
    this.status = 'connecting';
    this.attempt = 0;
    /** @type {Map<number, {resolve: (m: ServerMessage) => void, reject: (e: Error) => void}>} */
    this.waiting = new Map();
    this.lastId = Number(safeGet(ID_KEY) ?? 0) || 0;
    this.lastReceived = Date.now();
    /** @type {any} */
    this.retryTimer = null;
    /** @type {any} */
    this.watchdog = null;
    /** @type {object | null} */
    this.limits = null;
    window.addEventListener('online', () => this.retryNow());
  }

  /** Opens the connection (again). */
  open() {
    clearTimeout(this.retryTimer);
    this.setStatus('connecting');
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/ws`);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.lastReceived = Date.now();
      ws.send(JSON.stringify({ type: 'hello', protocol: PROTOCOL_VERSION, client: CLIENT_NAME }));
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      this.lastReceived = Date.now();
      /** @type {ServerMessage} */
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.failWaiting();
      if (ev.code === CLOSE_REPLACED) this.setStatus('replaced');
      else if (ev.code === CLOSE_UNSUPPORTED) this.setStatus('unsupported');
      else if (ev.code === CLOSE_RESTART && this.attempt === 0) this.reconnectSoon();
      else if (ev.code === CLOSE_SIGNED_OUT) {
        this.onSignedOut?.(ev.reason);
        this.reconnectSoon();
      }
      else this.scheduleRetry();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  /** @param {ServerMessage} msg */
  receive(msg) {
    if (msg.type === 'welcome') {
      this.attempt = 0;
      this.limits = msg.limits;
      this.setStatus('online');
      this.startWatchdog();
      this.onReady(msg);
      return;
    }
    const re = 're' in msg ? msg.re : undefined;
    if (re != null && this.waiting.has(re)) {
      const w = this.waiting.get(re);
      this.waiting.delete(re);
      w?.resolve(msg); // a direct answer goes to the command that asked
      return;
    }
    // A late `ack` or `pong` (its command gave up) changes nothing.
    if (msg.type === 'ack' || msg.type === 'pong') return;
    this.onMessage(msg);
  }

  /** Makes every later id greater than `n` (the server's `last_command` for a seat). @param {number} n */
  bumpId(n) {
    if (n > this.lastId) {
      this.lastId = n;
      safeSet(ID_KEY, String(n));
    }
  }

  nextId() {
    this.lastId = Math.max(this.lastId + 1, 1);
    safeSet(ID_KEY, String(this.lastId));
    return this.lastId;
  }

  /**
   * Sends a command with a fresh id; resolves with the server's direct answer (which
   * may be an `error`), rejects when the connection is down or drops first.
   * @param {Record<string, any>} command a ClientMessage without `id`
   * @returns {Promise<ServerMessage>}
   */
  request(command) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || this.status !== 'online') {
      return Promise.reject(new Error('offline'));
    }
    const id = this.nextId();
    const msg = /** @type {ClientMessage} */ ({ ...command, id });
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      ws.send(JSON.stringify(msg));
    });
  }

  failWaiting() {
    for (const w of this.waiting.values()) w.reject(new Error('offline'));
    this.waiting.clear();
  }

  startWatchdog() {
    clearInterval(this.watchdog);
    this.watchdog = setInterval(() => {
      if (this.status !== 'online' || !this.ws) return;
      const quiet = Date.now() - this.lastReceived;
      if (quiet > DEAD_AFTER_MS) {
        // The network is gone without a close frame: drop it and reconnect.
        const ws = this.ws;
        this.ws = null;
        ws.close();
        this.failWaiting();
        this.scheduleRetry();
      } else if (quiet > PING_AFTER_MS) {
        this.request({ type: 'ping' }).catch(() => {});
      }
    }, 5000);
  }

  scheduleRetry() {
    clearInterval(this.watchdog);
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt++;
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    const at = Date.now() + delay;
    this.setStatus('down', at);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  /**
   * After a 1012 the game is safe and goes on elsewhere (another node, or this server
   * once restarted): reconnect almost at once, shown as connecting rather than lost. If
   * that fails, the usual backoff follows (the attempt is counted).
   */
  reconnectSoon() {
    clearInterval(this.watchdog);
    this.attempt++;
    this.setStatus('connecting');
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), 100 + Math.round(Math.random() * 200));
  }

  /**
   * Opens the connection again now (after signing in or out: the server learns who this
   * page is from the upgrade request's cookie). Answers still awaited fail as on a drop.
   */
  reconnect() {
    const ws = this.ws;
    this.ws = null;
    clearInterval(this.watchdog);
    this.failWaiting();
    if (ws) ws.close(1000);
    this.attempt = 0;
    this.open();
  }

  /** Retries at once after a drop (not after being replaced: that needs the person's word). */
  retryNow() {
    if (this.status === 'down') this.open();
  }

  /** @param {ConnStatus} status @param {number} [retryAt] */
  setStatus(status, retryAt) {
    this.status = status;
    this.onStatus(status, retryAt);
  }
}

/** @param {string} k */
function safeGet(k) {
  try {
    return localStorage.getItem(k);
  } catch {
    return null;
  }
}

/** @param {string} k @param {string} v */
function safeSet(k, v) {
  try {
    localStorage.setItem(k, v);
  } catch {
    /* ignore */
  }
}
