// The profile page, /players/{name}: a player's name, since when they play, how many
// games, their recent games (result and replay) and how they fare against each bot
// level (`GET /api/players/{name}`). Your own profile also holds your account: API
// tokens (made here, the secret shown once), sessions, the players you block, the
// password, your data to download, and deleting the account; and the cards you ban or
// dislike (prefs.js). Another account's profile offers to follow or unfollow it
// (friends.js) and to block or unblock it.
import { A, api, checkMe, errorText, forgetAccount, sameName, setBlocked, signOut } from './account.js';
import { h } from './dom.js';
import { has, lang, t } from './i18n/index.js';
import { botLabel } from './names.js';
import { update } from './store.js';
import { followButton, loadFriends } from './friends.js';
import { cardPrefsPanel, loadCardPrefs } from './prefs.js';
import { ratingsPanel } from './ratings.js';

/** The player this page shows, from its path (/players/{name}); null on any other page. */
export function profileName() {
  const m = location.pathname.match(/^\/players\/([^/]+)\/?$/);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

/**
 * @typedef {{game: string, room: string, finished: number, result: 'win' | 'loss' | 'tie' | 'abandoned', players: string[], replay: string}} ProfileGame
 * @typedef {{name: string, bot: boolean, created: number, games: number, recent: ProfileGame[], vs_bots: {level: string, games: number, wins: number}[], ratings: import('./types.js').PoolRating[]}} Profile
 * @typedef {{id: string | number, label: string, created: number, last_used?: number | null}} TokenInfo
 * @typedef {{id: string | number, created: number, last_used?: number | null, expires: number, current: boolean}} SessionInfo
 */

/**
 * @typedef {object} ProfileState
 * @property {string} name
 * @property {Profile | null} profile
 * @property {string | null} error          an i18n key, or a sentence
 * @property {TokenInfo[]} tokens
 * @property {SessionInfo[]} sessions
 * @property {{id: string | number, label: string, token: string} | null} fresh   a token just made (shown once)
 * @property {string} label                 the new token's label being written
 * @property {string | null} tokenError
 * @property {{old: string, new: string, message: string | null, ok: boolean}} pw
 * @property {{password: string, error: string | null}} del
 * @property {boolean} deleted
 * @property {boolean} copied
 */

/** @type {ProfileState} */
const P = {
  name: '',
  profile: null,
  error: null,
  tokens: [],
  sessions: [],
  fresh: null,
  label: '',
  tokenError: null,
  pw: { old: '', new: '', message: null, ok: false },
  del: { password: '', error: null },
  deleted: false,
  copied: false,
};

/** Whether this page shows the signed-in account's own profile. */
function own() {
  return !!(A.me && P.profile && sameName(A.me.name, P.profile.name));
}

/** Loads the profile (and, on your own, your account's lists). */
export async function startProfile() {
  P.name = profileName() ?? '';
  await checkMe();
  await loadProfile();
}

async function loadProfile() {
  const r = await api('GET', `/api/players/${encodeURIComponent(P.name)}`);
  if (r.status === 200 && r.body && typeof r.body.name === 'string') {
    P.profile = {
      name: r.body.name,
      bot: r.body.bot === true,
      created: Number(r.body.created) || 0,
      games: Number(r.body.games) || 0,
      recent: Array.isArray(r.body.recent) ? r.body.recent : [],
      vs_bots: Array.isArray(r.body.vs_bots) ? r.body.vs_bots : [],
      ratings: Array.isArray(r.body.ratings) ? r.body.ratings : [],
    };
    P.error = null;
  } else if (r.status === 404 && !r.missing) {
    P.error = t('profile.not_found', { name: P.name });
  } else if (r.missing || !A.available) {
    P.error = t('account.unavailable');
  } else {
    P.error = errorText(r);
  }
  update();
  if (own()) await Promise.all([loadTokens(), loadSessions(), loadCardPrefs()]);
  else if (A.me) await loadFriends();
}

async function loadTokens() {
  const r = await api('GET', '/api/me/tokens');
  if (r.status === 200 && Array.isArray(r.body)) P.tokens = r.body;
  update();
}

async function loadSessions() {
  const r = await api('GET', '/api/me/sessions');
  if (r.status === 200 && Array.isArray(r.body)) P.sessions = r.body;
  update();
}

/** A date in the UI language. @param {number | null | undefined} secs */
function day(secs) {
  if (!secs) return '—';
  return new Date(secs * 1000).toLocaleDateString(lang());
}

/** A date and time in the UI language. @param {number | null | undefined} secs */
function when(secs) {
  if (!secs) return t('profile.never');
  return new Date(secs * 1000).toLocaleString(lang(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** @param {number | null | undefined} secs */
function timeEl(secs, /** @type {(s: number | null | undefined) => string} */ fmt = when) {
  return secs ? h('time', { datetime: new Date(secs * 1000).toISOString() }, fmt(secs)) : fmt(secs);
}

const RESULTS = /** @type {const} */ ({
  win: 'profile.result_win',
  loss: 'profile.result_loss',
  tie: 'profile.result_tie',
  abandoned: 'profile.result_abandoned',
});

const LEVELS = /** @type {Record<string, string>} */ ({
  easy: 'profile.level_easy',
  standard: 'profile.level_standard',
  hard: 'profile.level_hard',
});

/**
 * A seat's name in a profile game: a bot seat comes as its bot's id ("standard"), shown
 * by its name in the UI language.
 * @param {string} name
 */
function playerLabel(name) {
  return /^[a-z][a-z0-9_]*$/.test(name) && has(`bot.${name}`) ? `⚙ ${botLabel(name)}` : name;
}

/** @param {ProfileGame} g */
function gameRow(g) {
  const key = RESULTS[g.result] ?? 'profile.result_abandoned';
  return h(
    'li',
    { key: g.game, class: 'profile-game', 'data-testid': `profile-game-${g.room}` },
    h('span', { class: ['badge', 'result', `result-${g.result}`], 'data-testid': 'profile-result', 'data-result': g.result }, t(key)),
    ' ',
    h('span', { class: 'profile-players' }, (g.players ?? []).map(playerLabel).join(', ')),
    ' ',
    h('span', { class: 'muted' }, timeEl(g.finished)),
    ' ',
    g.replay ? h('a', { class: 'btn small', href: g.replay, 'data-testid': `profile-replay-${g.room}` }, t('lobby.replay')) : null,
  );
}

/** @param {Profile} p */
function vsBots(p) {
  const rows = p.vs_bots.filter((v) => v.games > 0);
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'vs-bots-h', 'data-testid': 'profile-vs-bots' },
    h('h2', { id: 'vs-bots-h' }, t('profile.vs_bots')),
    rows.length
      ? h(
          'table',
          { class: 'vs-bots' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('profile.level')), h('th', { scope: 'col' }, t('profile.games_col')), h('th', { scope: 'col' }, t('profile.wins')), h('th', { scope: 'col' }, t('profile.win_rate')))),
          h(
            'tbody',
            {},
            rows.map((v) =>
              h(
                'tr',
                { key: v.level, 'data-testid': `vs-${v.level}` },
                h('th', { scope: 'row' }, LEVELS[v.level] ? t(LEVELS[v.level]) : v.level),
                h('td', {}, String(v.games)),
                h('td', {}, String(v.wins)),
                h('td', {}, `${Math.round((100 * v.wins) / v.games)} %`),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted' }, t('profile.no_bot_games')),
  );
}

async function createToken(/** @type {Event} */ e) {
  e.preventDefault();
  const label = P.label.trim();
  if (!label) {
    P.tokenError = t('profile.token_label_needed');
    update();
    return;
  }
  const r = await api('POST', '/api/me/tokens', { label: label.slice(0, 64) });
  if ((r.status === 201 || r.status === 200) && r.body && typeof r.body.token === 'string') {
    P.fresh = { id: r.body.id, label: r.body.label ?? label, token: r.body.token };
    P.label = '';
    P.tokenError = null;
    P.copied = false;
    await loadTokens();
  } else {
    P.tokenError = errorText(r);
    update();
  }
}

/** @param {TokenInfo} tok */
async function revokeToken(tok) {
  const r = await api('DELETE', `/api/me/tokens/${encodeURIComponent(String(tok.id))}`);
  if (r.status === 204 || r.status === 200 || r.status === 404) {
    if (P.fresh && String(P.fresh.id) === String(tok.id)) P.fresh = null;
    P.tokens = P.tokens.filter((x) => String(x.id) !== String(tok.id));
    update();
  } else {
    P.tokenError = errorText(r);
    update();
  }
}

function tokensPanel() {
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'tokens-h', 'data-testid': 'profile-tokens' },
    h('h2', { id: 'tokens-h' }, t('profile.tokens')),
    h('p', { class: 'hint' }, t('profile.tokens_hint')),
    P.fresh
      ? h(
          'div',
          { class: 'fresh-token', role: 'status', 'data-testid': 'fresh-token' },
          h('p', {}, h('strong', {}, t('profile.token_once', { label: P.fresh.label }))),
          h(
            'div',
            { class: 'invite-row' },
            h('input', { type: 'text', readonly: true, 'aria-label': t('profile.token'), 'data-testid': 'fresh-token-value', value: P.fresh.token, onfocus: (/** @type {any} */ e) => e.target.select() }),
            h(
              'button',
              {
                type: 'button',
                class: 'btn small',
                'data-testid': 'fresh-token-copy',
                onclick: async () => {
                  try {
                    await navigator.clipboard.writeText(P.fresh?.token ?? '');
                    P.copied = true;
                  } catch {
                    P.copied = false;
                  }
                  update();
                },
              },
              P.copied ? t('profile.copied') : t('profile.copy'),
            ),
          ),
          h('button', { type: 'button', class: 'btn link', 'data-testid': 'fresh-token-done', onclick: () => {
            P.fresh = null;
            update();
          } }, t('profile.token_done')),
        )
      : null,
    P.tokens.length
      ? h(
          'ul',
          { class: 'account-list', 'data-testid': 'token-list' },
          P.tokens.map((tok) =>
            h(
              'li',
              { key: String(tok.id), 'data-testid': `token-${tok.id}`, 'data-label': tok.label },
              h('strong', { class: 'token-label' }, tok.label),
              h('span', { class: 'muted' }, t('profile.created', { when: when(tok.created) }), ' · ', t('profile.last_used', { when: when(tok.last_used) })),
              h('button', { type: 'button', class: 'btn small danger', 'data-testid': `token-revoke-${tok.id}`, 'aria-label': t('profile.revoke_named', { label: tok.label }), onclick: () => revokeToken(tok) }, t('profile.revoke')),
            ),
          ),
        )
      : h('p', { class: 'muted', 'data-testid': 'no-tokens' }, t('profile.no_tokens')),
    h(
      'form',
      { class: 'inline-form', onsubmit: createToken, novalidate: true, 'data-testid': 'token-form' },
      h('label', { for: 'token-label' }, t('profile.token_label')),
      h('input', {
        id: 'token-label',
        type: 'text',
        maxlength: 64,
        autocomplete: 'off',
        'data-testid': 'token-label',
        value: P.label,
        oninput: (/** @type {any} */ e) => {
          P.label = e.target.value;
        },
      }),
      h('button', { type: 'submit', class: 'btn small primary', 'data-testid': 'token-create' }, t('profile.token_create')),
    ),
    P.tokenError ? h('p', { class: 'form-error', role: 'alert', 'data-testid': 'token-error' }, P.tokenError) : null,
  );
}

/** @param {SessionInfo} s */
async function revokeSession(s) {
  if (s.current) {
    await signOut();
    P.sessions = [];
    P.tokens = [];
    update();
    return;
  }
  const r = await api('DELETE', `/api/me/sessions/${encodeURIComponent(String(s.id))}`);
  if (r.status === 204 || r.status === 200 || r.status === 404) await loadSessions();
}

function sessionsPanel() {
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'sessions-h', 'data-testid': 'profile-sessions' },
    h('h2', { id: 'sessions-h' }, t('profile.sessions')),
    h(
      'ul',
      { class: 'account-list', 'data-testid': 'session-list' },
      P.sessions.map((s) =>
        h(
          'li',
          { key: String(s.id), 'data-testid': `session-${s.id}`, 'data-current': s.current ? 'true' : 'false' },
          h('strong', {}, s.current ? t('profile.this_browser') : t('profile.signed_in_at', { when: when(s.created) })),
          h('span', { class: 'muted' }, t('profile.last_used', { when: when(s.last_used) }), ' · ', t('profile.expires', { when: day(s.expires) })),
          h('button', { type: 'button', class: 'btn small', 'data-testid': `session-revoke-${s.id}`, onclick: () => revokeSession(s) }, s.current ? t('account.sign_out') : t('profile.revoke')),
        ),
      ),
    ),
  );
}

function blocksPanel() {
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'blocks-h', 'data-testid': 'profile-blocks' },
    h('h2', { id: 'blocks-h' }, t('profile.blocks')),
    h('p', { class: 'hint' }, t('profile.blocks_hint')),
    A.blocks.length
      ? h(
          'ul',
          { class: 'account-list', 'data-testid': 'block-list' },
          A.blocks.map((name) =>
            h(
              'li',
              { key: name, 'data-testid': `blocked-${name}` },
              h('a', { href: `/players/${encodeURIComponent(name)}` }, name),
              h('button', { type: 'button', class: 'btn small', 'data-testid': `unblock-${name}`, onclick: () => setBlocked(name, false) }, t('profile.unblock')),
            ),
          ),
        )
      : h('p', { class: 'muted', 'data-testid': 'no-blocks' }, t('profile.no_blocks')),
  );
}

async function changePassword(/** @type {Event} */ e) {
  e.preventDefault();
  const pw = P.pw;
  if ([...pw.new].length < 10) {
    pw.message = t('account.err.weak_password');
    pw.ok = false;
    update();
    return;
  }
  const r = await api('PUT', '/api/me/password', { old: pw.old, new: pw.new });
  pw.old = '';
  pw.new = '';
  if (r.status === 204 || r.status === 200) {
    pw.message = t('profile.password_changed');
    pw.ok = true;
    await loadSessions();
  } else {
    pw.message = errorText(r);
    pw.ok = false;
  }
  update();
}

function passwordPanel() {
  const pw = P.pw;
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'password-h', 'data-testid': 'profile-password' },
    h('h2', { id: 'password-h' }, t('profile.password')),
    h(
      'form',
      { class: 'stack-form', onsubmit: changePassword, novalidate: true },
      h('div', { class: 'field' }, h('label', { for: 'pw-old' }, t('profile.password_old')), h('input', { id: 'pw-old', type: 'password', autocomplete: 'current-password', 'data-testid': 'pw-old', value: pw.old, oninput: (/** @type {any} */ e) => {
        pw.old = e.target.value;
      } })),
      h('div', { class: 'field' }, h('label', { for: 'pw-new' }, t('profile.password_new')), h('input', { id: 'pw-new', type: 'password', autocomplete: 'new-password', 'aria-describedby': 'pw-new-hint', 'data-testid': 'pw-new', value: pw.new, oninput: (/** @type {any} */ e) => {
        pw.new = e.target.value;
      } }), h('small', { id: 'pw-new-hint', class: 'hint' }, t('account.password_hint'))),
      pw.message ? h('p', { class: pw.ok ? 'form-ok' : 'form-error', role: pw.ok ? 'status' : 'alert', 'data-testid': 'pw-message' }, pw.message) : null,
      h('button', { type: 'submit', class: 'btn small', 'data-testid': 'pw-submit' }, t('profile.password_change')),
    ),
  );
}

async function deleteAccount(/** @type {Event} */ e) {
  e.preventDefault();
  const r = await api('DELETE', '/api/me', { password: P.del.password });
  P.del.password = '';
  if (r.status === 204 || r.status === 200) {
    P.deleted = true;
    forgetAccount();
  } else {
    P.del.error = errorText(r);
  }
  update();
}

function dataPanel() {
  const name = A.me?.name ?? '';
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'data-h', 'data-testid': 'profile-data' },
    h('h2', { id: 'data-h' }, t('profile.your_data')),
    h('p', {}, h('a', { class: 'btn small', href: '/api/me/data', download: `dominion-${name}.json`, 'data-testid': 'download-data' }, t('profile.download'))),
    h(
      'details',
      { class: 'danger-zone', 'data-testid': 'delete-account' },
      h('summary', { 'data-testid': 'delete-open' }, t('profile.delete')),
      h('p', {}, t('profile.delete_note')),
      h(
        'form',
        { class: 'inline-form', onsubmit: deleteAccount, novalidate: true },
        h('label', { for: 'delete-password' }, t('account.password')),
        h('input', { id: 'delete-password', type: 'password', autocomplete: 'current-password', 'data-testid': 'delete-password', value: P.del.password, oninput: (/** @type {any} */ e) => {
          P.del.password = e.target.value;
        } }),
        h('button', { type: 'submit', class: 'btn small danger', 'data-testid': 'delete-confirm' }, t('profile.delete_confirm')),
      ),
      P.del.error ? h('p', { class: 'form-error', role: 'alert', 'data-testid': 'delete-error' }, P.del.error) : null,
    ),
  );
}

/** Block or unblock, on another account's profile. @param {Profile} p */
function blockButton(p) {
  if (!A.me || own()) return null;
  const blocked = A.blocks.some((b) => sameName(b, p.name));
  return h(
    'button',
    { type: 'button', class: ['btn', 'small', !blocked && 'danger'], 'data-testid': blocked ? 'profile-unblock' : 'profile-block', onclick: () => setBlocked(p.name, !blocked) },
    t(blocked ? 'profile.unblock' : 'profile.block'),
  );
}

export function profileView() {
  const back = h('p', { class: 'profile-back' }, h('a', { href: '/', 'data-testid': 'profile-lobby' }, '← ', t('common.back_to_lobby')));
  if (P.deleted) {
    return h('div', { class: 'profile', 'data-testid': 'profile' }, back, h('section', { class: 'panel', 'data-testid': 'profile-deleted' }, h('h1', {}, t('profile.deleted')), h('p', {}, t('profile.deleted_note'))));
  }
  if (P.error) {
    return h('div', { class: 'profile', 'data-testid': 'profile' }, back, h('section', { class: 'panel', 'data-testid': 'profile-error' }, h('h1', {}, P.name), h('p', {}, P.error)));
  }
  const p = P.profile;
  if (!p) return h('div', { class: 'profile', 'data-testid': 'profile' }, back, h('p', { class: 'muted' }, t('app.loading')));
  const mine = own();
  return h(
    'div',
    { class: 'profile', 'data-testid': 'profile', 'data-own': mine ? 'true' : 'false' },
    back,
    h(
      'section',
      { class: 'panel profile-head' },
      h('h1', { 'data-testid': 'profile-name' }, p.name, p.bot ? h('span', { class: 'badge bot-mark', 'data-testid': 'profile-bot' }, t('account.bot_mark')) : null),
      h(
        'p',
        { class: 'profile-facts' },
        h('span', { 'data-testid': 'profile-since' }, t('profile.member_since', { when: day(p.created) })),
        ' · ',
        h('span', { 'data-testid': 'profile-games', 'data-n': String(p.games) }, t('profile.games', { n: p.games })),
      ),
      h(
        'div',
        { class: 'choice-row' },
        followButton(p.name),
        blockButton(p),
        mine ? h('button', { type: 'button', class: 'btn small', 'data-testid': 'profile-sign-out', onclick: async () => {
          await signOut();
          update();
        } }, t('account.sign_out')) : null,
      ),
    ),
    h(
      'div',
      { class: 'profile-grid' },
      h(
        'div',
        { class: 'profile-col' },
        h(
          'section',
          { class: 'panel', 'aria-labelledby': 'profile-recent-h', 'data-testid': 'profile-recent' },
          h('h2', { id: 'profile-recent-h' }, t('profile.recent')),
          p.recent.length ? h('ul', { class: 'account-list profile-games' }, p.recent.map(gameRow)) : h('p', { class: 'muted', 'data-testid': 'profile-no-games' }, t('profile.no_games')),
        ),
        ratingsPanel(p.ratings),
        vsBots(p),
      ),
      mine ? h('div', { class: 'profile-col' }, cardPrefsPanel(), tokensPanel(), sessionsPanel(), blocksPanel(), passwordPanel(), dataPanel()) : null,
    ),
  );
}
