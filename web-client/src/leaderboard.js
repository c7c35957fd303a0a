// The leaderboard page, /leaderboard?pool=2p|3-4p|bots: the players with a rated game in
// the pool in the last 30 days, best level first, 100 a page (`GET /api/leaderboard`);
// signed in, your own row and the rows of the players you follow too.
import { api, checkMe } from './account.js';
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { levelText, poolLabel } from './ratings.js';
import { update } from './store.js';

/** Whether this page is the leaderboard. */
export function isLeaderboard() {
  return /^\/leaderboard\/?$/.test(location.pathname);
}

const POOLS = /** @type {const} */ (['2p', '3-4p', 'bots']);

/** @type {{pool: import('./types.js').RatingPool, page: number, board: import('./types.js').Leaderboard | null, error: string | null}} */
const L = { pool: '2p', page: 1, board: null, error: null };

/** Reads the pool and page from the address, then loads. */
export async function startLeaderboard() {
  const q = new URLSearchParams(location.search);
  const pool = q.get('pool');
  L.pool = POOLS.includes(/** @type {any} */ (pool)) ? /** @type {import('./types.js').RatingPool} */ (pool) : '2p';
  L.page = Math.max(1, Number(q.get('page')) || 1);
  await checkMe();
  await load();
}

async function load() {
  const r = await api('GET', `/api/leaderboard?pool=${encodeURIComponent(L.pool)}&page=${L.page}`);
  if (r.status === 200 && r.body && Array.isArray(r.body.rows)) {
    L.board = r.body;
    L.error = null;
  } else {
    L.board = null;
    L.error = t('err.network');
  }
  update();
}

/** Shows another pool or page, and keeps the address in step. @param {import('./types.js').RatingPool} pool @param {number} page */
function go(pool, page) {
  L.pool = pool;
  L.page = page;
  history.replaceState(null, '', `/leaderboard?pool=${encodeURIComponent(pool)}${page > 1 ? `&page=${page}` : ''}`);
  load();
}

/** @param {import('./types.js').LeaderboardRow} r @param {string} prefix */
function row(r, prefix) {
  return h(
    'tr',
    { key: `${prefix}${r.name}`, 'data-testid': `${prefix}row-${r.name}` },
    h('td', {}, String(r.rank)),
    h('th', { scope: 'row' }, h('a', { href: `/players/${encodeURIComponent(r.name)}` }, r.name), r.bot ? h('span', { class: 'badge bot-mark' }, t('account.bot_mark')) : null),
    h('td', { 'data-testid': 'board-level' }, levelText(r.level)),
    h('td', {}, String(Math.round(r.rating)), ' ', h('span', { class: 'rating-dev' }, `± ${Math.round(r.deviation)}`)),
    h('td', {}, String(r.games)),
  );
}

/** @param {import('./types.js').LeaderboardRow[]} rows @param {string} prefix @param {string} testid */
function table(rows, prefix, testid) {
  return h(
    'div',
    { class: 'board-wrap' },
    h(
      'table',
      { class: 'vs-bots leaderboard', 'data-testid': testid },
      h('thead', {}, h('tr', {}, ...['board.rank', 'board.player', 'board.level', 'board.rating', 'board.games'].map((k) => h('th', { scope: 'col' }, t(k))))),
      h('tbody', {}, rows.map((r) => row(r, prefix))),
    ),
  );
}

export function leaderboardView() {
  const b = L.board;
  return h(
    'div',
    { class: 'profile leaderboard-page', 'data-testid': 'leaderboard' },
    h('p', { class: 'profile-back' }, h('a', { href: '/' }, '← ', t('common.back_to_lobby'))),
    h(
      'section',
      { class: 'panel' },
      h('h1', {}, t('board.title')),
      h(
        'div',
        { class: 'choice-row', role: 'tablist' },
        POOLS.map((p) =>
          h('button', { type: 'button', role: 'tab', 'aria-selected': p === L.pool ? 'true' : 'false', class: ['btn', 'small', p === L.pool && 'primary'], 'data-testid': `board-pool-${p}`, onclick: () => go(p, 1) }, poolLabel(p)),
        ),
      ),
      h('p', { class: 'muted' }, t('board.note')),
      L.pool === 'bots' ? h('p', { class: 'muted', 'data-testid': 'board-bots-note' }, t('board.bots_note')) : null,
      L.error ? h('p', { role: 'alert' }, L.error) : null,
      !b ? (L.error ? null : h('p', { class: 'muted' }, t('app.loading'))) : b.rows.length ? table(b.rows, '', 'board-rows') : h('p', { class: 'muted', 'data-testid': 'board-empty' }, t('board.empty')),
      b && b.pages > 1
        ? h(
            'div',
            { class: 'choice-row' },
            h('button', { type: 'button', class: 'btn small', disabled: b.page <= 1, onclick: () => go(L.pool, b.page - 1) }, t('board.prev')),
            h('span', {}, t('board.page', { page: b.page, pages: b.pages })),
            h('button', { type: 'button', class: 'btn small', disabled: b.page >= b.pages, onclick: () => go(L.pool, b.page + 1) }, t('board.next')),
          )
        : null,
    ),
    b?.me ? h('section', { class: 'panel', 'data-testid': 'board-me' }, h('h2', {}, t('board.you')), table([b.me], 'me-', 'board-me-rows')) : null,
    b?.friends?.length ? h('section', { class: 'panel', 'data-testid': 'board-friends' }, h('h2', {}, t('board.friends')), table(b.friends, 'friend-', 'board-friend-rows')) : null,
  );
}
