// Friends in the browser: following a player from their profile, the lobby's Friends
// panel (who of the players you follow is online, and the tables they sit at, to join),
// inviting an online friend to the table you sit at (the WebSocket's `invite`), and the
// `invited` notice with its link (`/#room=ID`, which the lobby offers as any invite
// link). The HTTP side is `PUT`/`DELETE /api/me/follows/{name}` and `GET
// /api/me/follows` (docs/protocol.md, "Card preferences and friends"). A guest sees none
// of it.
import { A, accountName, api, errorText, profileLink, sameName } from './account.js';
import { h } from './dom.js';
import { has, t } from './i18n/index.js';
import { command, takeSeat } from './session.js';
import { notify, state, update } from './store.js';

/** How often the friends list is asked for again while the lobby or a waiting room shows. */
const REFRESH_MS = 4000;

/**
 * @typedef {object} FriendsState
 * @property {import('./types.js').Friend[]} list
 * @property {boolean} loaded
 * @property {{from: string, room: string}[]} invited   invitations not dismissed, newest last
 * @property {string[]} sent                           names invited to the current table
 */

/** @type {FriendsState} */
export const F = { list: [], loaded: false, invited: [], sent: [] };

/** Asks the server for the players this account follows (nothing for a guest). */
export async function loadFriends() {
  if (!accountName()) return;
  const r = await api('GET', '/api/me/follows');
  if (r.status === 200 && Array.isArray(r.body)) {
    F.list = r.body.filter((/** @type {any} */ f) => f && typeof f.name === 'string');
    F.loaded = true;
    update();
  }
}

/** Keeps the list fresh while the lobby or a waiting room is on screen. */
export function startFriends() {
  loadFriends();
  setInterval(() => {
    if (document.visibilityState === 'hidden' || !accountName()) return;
    if (!state.roomId || (state.room?.status === 'lobby' && !state.spectating)) loadFriends();
  }, REFRESH_MS);
}

/** Whether this account follows `name`. @param {string} name */
export function follows(name) {
  return F.list.some((f) => sameName(f.name, name));
}

/**
 * Follows or unfollows `name`; true when the server took it.
 * @param {string} name @param {boolean} follow
 */
export async function setFollowed(name, follow) {
  const r = await api(follow ? 'PUT' : 'DELETE', `/api/me/follows/${encodeURIComponent(name)}`);
  if (r.status === 204 || r.status === 200) {
    await loadFriends();
    if (!follow) F.list = F.list.filter((f) => !sameName(f.name, name));
    update((s) => {
      notify(s, t(follow ? 'friends.followed' : 'friends.unfollowed', { name }), 'success');
    });
    return true;
  }
  const code = r.body && typeof r.body.code === 'string' ? r.body.code : '';
  update((s) => {
    notify(s, has(`friends.err.${code}`) ? t(`friends.err.${code}`) : errorText(r));
  });
  return false;
}

/** Follow / Unfollow, on another signed-in account's profile. @param {string} name */
export function followButton(name) {
  if (!A.me || sameName(A.me.name, name)) return null;
  const on = follows(name);
  return h(
    'button',
    { type: 'button', class: ['btn', 'small', !on && 'primary'], 'data-testid': on ? 'profile-unfollow' : 'profile-follow', 'aria-pressed': on ? 'true' : 'false', onclick: () => setFollowed(name, !on) },
    t(on ? 'friends.unfollow' : 'friends.follow'),
  );
}

/** @param {import('./types.js').Friend} f */
function friendRow(f) {
  return h(
    'li',
    { key: f.name, class: ['friend', f.online ? 'friend-online' : 'friend-offline'], 'data-testid': `friend-${f.name}`, 'data-online': f.online ? 'true' : 'false' },
    h('span', { class: 'friend-dot', 'aria-hidden': 'true' }, f.online ? '●' : '○'),
    ' ',
    profileLink(f.name, { class: 'friend-name' }),
    ' ',
    h('span', { class: 'muted' }, t(f.online ? 'friends.online' : 'friends.offline')),
    f.tables.length
      ? h(
          'ul',
          { class: 'friend-tables' },
          f.tables.map((tb) =>
            h(
              'li',
              { key: tb.room, 'data-testid': `friend-table-${tb.room}` },
              h('span', {}, t('friends.at_table', { room: tb.name })),
              ' ',
              h(
                'button',
                {
                  type: 'button',
                  class: 'btn small primary',
                  'data-testid': `friend-join-${tb.room}`,
                  'aria-label': t('friends.join_named', { name: f.name, room: tb.name }),
                  disabled: state.conn !== 'online',
                  onclick: () => takeSeat(tb.room, undefined, accountName() ?? state.name),
                },
                t('friends.join'),
              ),
            ),
          ),
        )
      : null,
  );
}

/** The lobby's Friends panel: online friends first, with their open tables. */
export function friendsPanel() {
  if (!accountName() || !F.loaded) return null;
  const list = [...F.list].sort((a, b) => Number(b.online) - Number(a.online) || a.name.localeCompare(b.name));
  const online = list.filter((f) => f.online);
  return h(
    'section',
    { class: 'panel friends', 'aria-labelledby': 'friends-h', 'data-testid': 'friends' },
    h('h2', { id: 'friends-h' }, t('friends.heading'), online.length ? h('span', { class: 'badge' }, String(online.length)) : null),
    list.length
      ? h('ul', { class: 'friend-list', 'data-testid': 'friend-list', 'aria-live': 'polite' }, list.map(friendRow))
      : h('p', { class: 'muted', 'data-testid': 'no-friends' }, t('friends.hint_empty')),
  );
}

/** @param {string} room @param {string} name */
async function invite(room, name) {
  const answer = await command({ type: 'invite', room, name });
  if (answer && answer.type === 'ack') {
    F.sent = [...F.sent.filter((n) => !sameName(n, name)), name];
    update((s) => {
      notify(s, t('friends.invite_sent', { name }), 'success');
    });
  }
}

/**
 * In the waiting room of a table you sit at: your online friends, each with Invite.
 * @param {import('./types.js').RoomSummary} room
 */
export function inviteFriendsPanel(room) {
  if (!accountName() || state.spectating || room.status !== 'lobby') return null;
  const here = new Set(room.seats.map((s) => (s.occupant.type === 'human' ? s.occupant.name : '')));
  const online = F.list.filter((f) => f.online && ![...here].some((n) => n && sameName(n, f.name)));
  return h(
    'div',
    { class: 'invite-friends field', 'data-testid': 'invite-friends' },
    h('span', { class: 'account-label', id: 'invite-friends-h' }, t('friends.invite_heading')),
    online.length
      ? h(
          'ul',
          { class: 'friend-list', 'aria-labelledby': 'invite-friends-h' },
          online.map((f) =>
            h(
              'li',
              { key: f.name, class: 'friend friend-online' },
              h('span', { class: 'friend-dot', 'aria-hidden': 'true' }, '●'),
              ' ',
              h('span', { class: 'friend-name' }, f.name),
              ' ',
              h(
                'button',
                {
                  type: 'button',
                  class: 'btn small',
                  'data-testid': `invite-${f.name}`,
                  'aria-label': t('friends.invite_named', { name: f.name }),
                  disabled: state.conn !== 'online',
                  onclick: () => invite(room.id, f.name),
                },
                F.sent.some((n) => sameName(n, f.name)) ? t('friends.invite_again') : t('friends.invite'),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted', 'data-testid': 'invite-no-friends' }, t('friends.none_online')),
  );
}

/**
 * The server's `invited`: remembered (once per room) until dismissed or followed.
 * @param {{from: string, room: string}} msg
 */
export function onInvited(msg) {
  if (typeof msg.from !== 'string' || typeof msg.room !== 'string') return;
  F.invited = [...F.invited.filter((i) => i.room !== msg.room), { from: msg.from, room: msg.room }].slice(-3);
  update();
}

/** @param {string} room */
function dismiss(room) {
  F.invited = F.invited.filter((i) => i.room !== room);
  update();
}

/** The invitations, over every page but the table you are at: who, and a link. */
export function invitedNotices() {
  const shown = F.invited.filter((i) => i.room !== state.roomId);
  if (!shown.length) return null;
  return h(
    'div',
    { class: 'invited-notices', role: 'status', 'data-testid': 'invited' },
    shown.map((i) =>
      h(
        'div',
        { key: i.room, class: 'notice notice-info invited-notice', 'data-testid': `invited-${i.room}`, 'data-from': i.from },
        h('span', { class: 'notice-mark', 'aria-hidden': 'true' }, '✉'),
        h('span', {}, t('friends.invited', { name: i.from })),
        ' ',
        h('a', { class: 'btn small primary', href: `/#room=${encodeURIComponent(i.room)}`, 'data-testid': `invited-link-${i.room}`, onclick: () => dismiss(i.room) }, t('friends.invited_open')),
        h('button', { type: 'button', class: 'btn small', 'aria-label': t('friends.dismiss'), onclick: () => dismiss(i.room) }, '×'),
      ),
    ),
  );
}
