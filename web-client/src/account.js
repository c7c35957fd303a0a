// Accounts in the browser: who is signed in, signing up, in and out (a dialog over the
// lobby), blocking a player and reporting a chat line. The HTTP API is in
// docs/protocol.md (`/api/accounts`, `/api/session`, `/api/me…`; reports go as
// `report_chat` on the game's connection); the
// session is an HttpOnly cookie the page never sees, so the WebSocket is opened again
// after signing in or out for the server to know who this page is.
//
// Guests are never asked anything: the page calls `GET /api/me` only when this browser
// signed in before (a hint in localStorage) or on a profile page, so a guest's page
// makes no request that fails. A server without accounts answers 404: the account
// controls then disappear.
import { h } from './dom.js';
import { has, t } from './i18n/index.js';
import { ask, reconnect } from './session.js';
import { notify, state, update } from './store.js';

/** @typedef {{name: string, bot: boolean, created?: number}} Me */

const HINT_KEY = 'dominion.account';

/**
 * @typedef {object} AccountState
 * @property {boolean} available    false once the server said it has no accounts (404)
 * @property {Me | null} me         the signed-in account
 * @property {'signin' | 'signup' | null} dialog
 * @property {{name: string, password: string, error: string | null, busy: boolean}} form
 * @property {string[]} blocks      the names this account blocks
 * @property {{room: string, line: number, who: string, text: string, reason: string, busy: boolean, error: string | null} | null} reporting
 */

/** @type {AccountState} */
export const A = {
  available: true,
  me: null,
  dialog: null,
  form: { name: '', password: '', error: null, busy: false },
  blocks: [],
  reporting: null,
};

/** The signed-in account's name, or null for a guest. */
export function accountName() {
  return A.available && A.me ? A.me.name : null;
}

/** Names compare as the server compares them (case aside; it also folds look-alikes). @param {string} a @param {string} b */
export function sameName(a, b) {
  return a.normalize('NFKC').toLowerCase() === b.normalize('NFKC').toLowerCase();
}

function hinted() {
  try {
    return localStorage.getItem(HINT_KEY) != null;
  } catch {
    return false;
  }
}

/** @param {string | null} name */
function setHint(name) {
  try {
    if (name) localStorage.setItem(HINT_KEY, name);
    else localStorage.removeItem(HINT_KEY);
  } catch {
    /* ignore */
  }
}

/**
 * One JSON request to the accounts API (same-origin, with the cookie).
 * @param {string} method @param {string} path @param {any} [body]
 * @returns {Promise<{status: number, body: any, missing: boolean}>}  status 0: the server
 *   cannot be reached; `missing`: the server has no such endpoint
 */
export async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let parsed = null;
    if (res.status !== 204) {
      try {
        parsed = await res.json();
      } catch {
        parsed = null;
      }
    }
    // A 404 without a code is not an answer of the accounts API (whose 404s carry one):
    // the server lacks this endpoint, and without the basic ones it has no accounts.
    const missing = res.status === 404 && !(parsed && typeof parsed.code === 'string');
    if (missing && /^\/api\/(me|session|accounts)$/.test(path)) A.available = false;
    return { status: res.status, body: parsed, missing };
  } catch {
    return { status: 0, body: null, missing: false };
  }
}

/**
 * The person's words for an error answer (`{code, message}`), in the UI language.
 * @param {{status: number, body: any, missing?: boolean}} r
 */
export function errorText(r) {
  if (r.status === 0) return t('err.network');
  if (!A.available) return t('account.unavailable');
  if (r.missing) return t('account.missing');
  const code = r.body && typeof r.body.code === 'string' ? r.body.code : '';
  const key = `account.err.${code}`;
  if (code && has(key)) return t(key);
  const message = r.body && typeof r.body.message === 'string' ? r.body.message : String(r.status);
  return t('err.refused', { message });
}

/** @param {Me} me */
function signedIn(me) {
  A.me = { name: me.name, bot: me.bot === true, created: me.created };
  setHint(me.name);
  loadBlocks();
}

function signedOut() {
  A.me = null;
  A.blocks = [];
  setHint(null);
}

/**
 * Asks the server who this browser is (`GET /api/me`) — only when it signed in before,
 * or `always` (a profile page of a browser that signed in before).
 */
export async function checkMe(always = false) {
  if (!always && !hinted()) return;
  const r = await api('GET', '/api/me');
  if (r.status === 200 && r.body && typeof r.body.name === 'string') signedIn(r.body);
  else if (r.status === 401 || r.status === 404) signedOut();
  update();
}

/**
 * The WebSocket's `welcome` names the account the connection is signed in as (absent
 * for a guest).
 * @param {any} welcome
 */
export function onWelcome(welcome) {
  const acc = welcome?.account;
  if (acc && typeof acc.name === 'string' && (!A.me || A.me.name !== acc.name)) {
    A.available = true;
    signedIn({ name: acc.name, bot: acc.bot === true, created: A.me?.created });
    update();
  }
}

async function loadBlocks() {
  const r = await api('GET', '/api/me/blocks');
  if (r.status === 200 && Array.isArray(r.body)) {
    A.blocks = r.body.filter((/** @type {any} */ n) => typeof n === 'string');
    update();
  }
}

/** Whether this account blocks anyone (the server then leaves their chat lines out). */
export function blocksAny() {
  return A.blocks.length > 0;
}

/** Whether lines of `name` are hidden from this account. @param {string} name */
export function isBlocked(name) {
  return A.blocks.some((b) => sameName(b, name));
}

/**
 * Blocks or unblocks `name`; true when the server took it.
 * @param {string} name @param {boolean} block
 */
export async function setBlocked(name, block) {
  const r = await api(block ? 'PUT' : 'DELETE', `/api/me/blocks/${encodeURIComponent(name)}`);
  if (r.status === 204 || r.status === 200) {
    A.blocks = block ? [...A.blocks.filter((b) => !sameName(b, name)), name] : A.blocks.filter((b) => !sameName(b, name));
    update((s) => {
      notify(s, t(block ? 'account.blocked' : 'account.unblocked', { name }), 'success');
    });
    return true;
  }
  update((s) => {
    notify(s, r.status === 404 && !r.missing ? t('account.err.unknown_player') : errorText(r));
  });
  return false;
}

/** Opens the sign-in (or sign-up) dialog. @param {'signin' | 'signup'} mode */
export function openAuth(mode) {
  A.dialog = mode;
  A.form = { name: A.form.name || state.name.trim(), password: '', error: null, busy: false };
  update();
}

function closeAuth() {
  A.dialog = null;
  A.form.password = '';
  update();
}

/** Signs up or in with the dialog's name and password. */
async function submitAuth(/** @type {Event} */ e) {
  e.preventDefault();
  const f = A.form;
  if (f.busy) return;
  const name = f.name.trim();
  if (!name) {
    f.error = t('lobby.name_needed');
    update();
    return;
  }
  if (A.dialog === 'signup' && [...f.password].length < 10) {
    f.error = t('account.err.weak_password');
    update();
    return;
  }
  f.busy = true;
  f.error = null;
  update();
  const create = A.dialog === 'signup';
  const r = await api('POST', create ? '/api/accounts' : '/api/session', { name, password: f.password });
  f.busy = false;
  if ((r.status === 200 || r.status === 201) && r.body && typeof r.body.name === 'string') {
    signedIn(r.body);
    A.dialog = null;
    f.password = '';
    update((s) => {
      notify(s, t(create ? 'account.welcome_new' : 'account.welcome', { name: r.body.name }), 'success');
    });
    reconnect();
    return;
  }
  if (!A.available) {
    A.dialog = null;
    update((s) => {
      notify(s, t('account.unavailable'));
    });
    return;
  }
  f.error = errorText(r);
  f.password = '';
  update();
}

/** Signs out: the session ends on the server, and the page is a guest again. */
export async function signOut() {
  const r = await api('DELETE', '/api/session');
  if (r.status === 0) {
    update((s) => {
      notify(s, t('err.network'));
    });
    return;
  }
  signedOut();
  update((s) => {
    notify(s, t('account.signed_out'), 'info');
  });
  reconnect();
}

/**
 * The server closed the WebSocket because this page's session ended (signed out in
 * another tab, the password changed elsewhere, the account banned or deleted).
 * @param {string} reason  the close frame's reason, e.g. "banned"
 */
export function onSignedOut(reason) {
  if (!A.me) return;
  signedOut();
  update((s) => {
    notify(s, /ban/i.test(reason) ? t('account.err.banned') : t('account.err.not_signed_in'), 'info');
  });
}

/** Forgets the account on this page (it was deleted, or its session ended). */
export function forgetAccount() {
  signedOut();
  update();
}

/** A link to `name`'s profile page. @param {string} name @param {Record<string, any>} [props] */
export function profileLink(name, props = {}) {
  return h('a', { href: `/players/${encodeURIComponent(name)}`, ...props }, name);
}

/**
 * The lobby's line about the account: who you are (with your profile and "Sign out"),
 * or, for a guest, a discreet "Sign in".
 */
export function accountLine() {
  if (!A.available) return null;
  if (!A.me) {
    return h(
      'p',
      { class: 'account-line hint', 'data-testid': 'account-guest' },
      h('button', { type: 'button', class: 'btn link', 'data-testid': 'sign-in-open', 'aria-haspopup': 'dialog', onclick: () => openAuth('signin') }, t('account.sign_in')),
    );
  }
  return null;
}

/** Stands for the name box when signed in: the seat takes the account's name. */
export function accountField() {
  const me = A.available ? A.me : null;
  if (!me) return null;
  return h(
    'div',
    { class: 'field name-field account-field', 'data-testid': 'account-field' },
    h('span', { class: 'account-label' }, t('account.playing_as')),
    h(
      'div',
      { class: 'account-who' },
      profileLink(me.name, { class: 'account-name', 'data-testid': 'account-name', title: t('account.profile') }),
      me.bot ? h('span', { class: 'badge bot-mark' }, t('account.bot_mark')) : null,
      h('button', { type: 'button', class: 'btn small', 'data-testid': 'sign-out', onclick: () => signOut() }, t('account.sign_out')),
    ),
    h('small', { class: 'hint' }, t('account.playing_as_hint')),
  );
}

/** The sign-in / sign-up dialog. */
export function authDialog() {
  if (!A.dialog) return null;
  const f = A.form;
  const signup = A.dialog === 'signup';
  const field = (/** @type {string} */ id, /** @type {string} */ label, /** @type {Record<string, any>} */ props, /** @type {any} */ hint) =>
    h('div', { class: 'field' }, h('label', { for: id }, label), h('input', { id, ...props }), hint);
  return h(
    'div',
    { class: 'modal-backdrop', onclick: (/** @type {Event} */ e) => e.target === e.currentTarget && closeAuth() },
    h(
      'div',
      {
        class: 'modal auth',
        role: 'dialog',
        'aria-modal': 'true',
        'aria-labelledby': 'auth-h',
        'data-testid': 'auth-dialog',
        'data-mode': A.dialog,
        onkeydown: (/** @type {KeyboardEvent} */ e) => e.key === 'Escape' && closeAuth(),
      },
      h('h2', { id: 'auth-h' }, t(signup ? 'account.sign_up_title' : 'account.sign_in_title')),
      signup ? h('p', { class: 'hint' }, t('account.sign_up_why')) : null,
      h(
        'form',
        { class: 'auth-form', onsubmit: submitAuth, novalidate: true },
        field('auth-name', t('account.name'), {
          type: 'text',
          'data-testid': 'auth-name',
          maxlength: 32,
          autocomplete: 'username',
          'data-autofocus': '',
          value: f.name,
          oninput: (/** @type {any} */ e) => {
            f.name = e.target.value;
          },
        }, signup ? h('small', { class: 'hint' }, t('lobby.name_hint')) : null),
        field('auth-password', t('account.password'), {
          type: 'password',
          'data-testid': 'auth-password',
          autocomplete: signup ? 'new-password' : 'current-password',
          'aria-describedby': signup ? 'auth-password-hint' : null,
          value: f.password,
          oninput: (/** @type {any} */ e) => {
            f.password = e.target.value;
          },
        }, signup ? h('small', { id: 'auth-password-hint', class: 'hint' }, t('account.password_hint')) : null),
        f.error ? h('p', { class: 'form-error', role: 'alert', 'data-testid': 'auth-error' }, f.error) : null,
        h(
          'div',
          { class: 'choice-row' },
          h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'auth-submit', disabled: f.busy }, t(signup ? 'account.sign_up' : 'account.sign_in')),
          h('button', { type: 'button', class: 'btn', 'data-testid': 'auth-cancel', onclick: closeAuth }, t('common.close')),
        ),
      ),
      h(
        'p',
        { class: 'auth-switch' },
        t(signup ? 'account.have_account' : 'account.no_account'),
        ' ',
        h(
          'button',
          {
            type: 'button',
            class: 'btn link',
            'data-testid': signup ? 'auth-to-signin' : 'auth-to-signup',
            onclick: () => {
              A.dialog = signup ? 'signin' : 'signup';
              f.error = null;
              update();
            },
          },
          t(signup ? 'account.sign_in' : 'account.sign_up'),
        ),
      ),
    ),
  );
}

/**
 * Opens the dialog that reports chat line number `line` of the room.
 * @param {string} room @param {number} line @param {string} who @param {string} text
 */
export function openReport(room, line, who, text) {
  A.reporting = { room, line, who, text, reason: '', busy: false, error: null };
  update();
}

function closeReport() {
  A.reporting = null;
  update();
}

async function sendReport(/** @type {Event} */ e) {
  e.preventDefault();
  const rep = A.reporting;
  if (!rep || rep.busy) return;
  rep.busy = true;
  update();
  // On the game's connection, which reaches the node running the room in a cluster;
  // the room quotes the line itself.
  /** @type {Record<string, any>} */
  const cmd = { type: 'report_chat', line: rep.line };
  if (rep.reason.trim()) cmd.reason = rep.reason.trim().slice(0, 500);
  const answer = await ask(cmd);
  rep.busy = false;
  if (answer?.type === 'ack') {
    A.reporting = null;
    update((s) => {
      notify(s, t('account.reported'), 'success');
    });
    return;
  }
  if (answer?.type !== 'error') rep.error = t('err.network');
  else rep.error = has(`err.${answer.code}`) ? t(`err.${answer.code}`, { message: answer.message }) : t('err.refused', { message: answer.message });
  update();
}

/** The "report this line" dialog. */
export function reportDialog() {
  const rep = A.reporting;
  if (!rep) return null;
  return h(
    'div',
    { class: 'modal-backdrop', onclick: (/** @type {Event} */ e) => e.target === e.currentTarget && closeReport() },
    h(
      'div',
      {
        class: 'modal report',
        role: 'dialog',
        'aria-modal': 'true',
        'aria-labelledby': 'report-h',
        'data-testid': 'report-dialog',
        onkeydown: (/** @type {KeyboardEvent} */ e) => e.key === 'Escape' && closeReport(),
      },
      h('h2', { id: 'report-h' }, t('account.report_title')),
      h('blockquote', { class: 'report-line' }, h('strong', {}, rep.who), ': ', rep.text),
      h(
        'form',
        { onsubmit: sendReport, novalidate: true },
        h(
          'div',
          { class: 'field' },
          h('label', { for: 'report-reason' }, t('account.report_reason')),
          h('textarea', {
            id: 'report-reason',
            'data-testid': 'report-reason',
            maxlength: 500,
            rows: 3,
            'data-autofocus': '',
            value: rep.reason,
            oninput: (/** @type {any} */ e) => {
              rep.reason = e.target.value;
            },
          }),
        ),
        h('p', { class: 'hint' }, t('account.report_note')),
        rep.error ? h('p', { class: 'form-error', role: 'alert', 'data-testid': 'report-error' }, rep.error) : null,
        h(
          'div',
          { class: 'choice-row' },
          h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'report-send', disabled: rep.busy }, t('account.report_send')),
          h('button', { type: 'button', class: 'btn', 'data-testid': 'report-cancel', onclick: closeReport }, t('common.close')),
        ),
      ),
    ),
  );
}

/** Whether a dialog of this module is open (the page's keys then do nothing). */
export function accountDialogShown() {
  return A.dialog != null || A.reporting != null;
}
