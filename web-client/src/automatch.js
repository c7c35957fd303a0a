// Automatch in the lobby (docs/protocol.md, "Automatch"): a signed-in player picks a
// pool and presses Find a match; while queued the panel shows the time waited; a
// proposal shows the opponents, Accept and Decline and a countdown of its 20 s; once
// everyone accepted the server has seated us, and we enter the room with the seat
// token like a resumed seat (seat 0's page starts the game).
//
// While queued, "Play a bot while you wait" starts an unrated game against the Standard
// bot on the same connection (the server keeps a queued connection queued when it takes
// a seat): the queue's status and a proposal show over the game (`matchOverlay`), and on
// `match_found` the page leaves the bot's room before it enters the match's.
import { accountName } from './account.js';
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { command, enterMatch, forgetSeat, leaveRoom, quickPlay } from './session.js';
import { state, update, notify } from './store.js';

/** The bot a player meets while waiting for a match. */
const WAITING_BOT = 'standard';

/**
 * The panel's state: idle, queued (since when), or proposed (which match, until when).
 * @typedef {{phase: 'idle'} | {phase: 'queued', since: number, until?: number} | {phase: 'proposed', match: string, until: number, opponents: import('./types.js').MatchOpponent[], accepted: boolean}} Phase
 */

/** @type {Phase} */
let phase = { phase: 'idle' };
/** @type {import('./types.js').MatchPool} */
let pool = '2p';
/** @type {ReturnType<typeof setInterval> | null} */
let ticker = null;

/** Re-renders every second while the panel shows a clock. */
function tick() {
  if (phase.phase === 'idle') {
    if (ticker) clearInterval(ticker);
    ticker = null;
  } else if (!ticker) {
    ticker = setInterval(() => update(() => {}), 1000);
  }
}

/** @param {Phase} next */
function set(next) {
  phase = next;
  tick();
  update(() => {});
}

async function find() {
  set({ phase: 'queued', since: Date.now() });
  // The answer is `match_queued` (a frame, not a reply): `command` sees only errors.
  const answer = await command({ type: 'find_match', pool });
  if (!answer) set({ phase: 'idle' });
}

async function cancel() {
  set({ phase: 'idle' });
  await command({ type: 'cancel_match' });
}

/** @param {boolean} yes */
async function answer(yes) {
  if (phase.phase !== 'proposed') return;
  const match = phase.match;
  if (yes) {
    set({ ...phase, accepted: true });
    await command({ type: 'accept_match', match });
  } else {
    set({ phase: 'idle' });
    await command({ type: 'decline_match', match });
  }
}

/**
 * The server's automatch frames.
 * @param {import('./types.js').ServerMessage} msg
 * @returns {boolean} whether it was one
 */
export function onMatchMessage(msg) {
  switch (msg.type) {
    case 'match_queued':
      // The server's estimate (when it has one) is of the wait still to come.
      set({ phase: 'queued', since: Date.now() - msg.waited_ms, until: msg.estimate_ms != null ? Date.now() + msg.estimate_ms : undefined });
      return true;
    case 'match_proposed':
      set({ phase: 'proposed', match: msg.match, until: Date.now() + msg.accept_within_ms, opponents: msg.opponents, accepted: false });
      return true;
    case 'match_found':
      set({ phase: 'idle' });
      enterFound({ room: msg.room, token: msg.token, seat: msg.seat });
      return true;
    case 'match_cancelled':
      if (msg.reason === 'requeued') {
        update((s) => {
          notify(s, t('match.requeued'), 'info');
        });
        if (phase.phase === 'proposed') set({ phase: 'queued', since: Date.now() });
      } else {
        set({ phase: 'idle' });
        if (msg.reason === 'timeout') {
          update((s) => {
            notify(s, t('match.timeout'), 'info');
          });
        }
      }
      return true;
    default:
      return false;
  }
}

/**
 * Enters the match's room, leaving first the room this page is in (a game against a
 * bot played while waiting): a connection is in one room at a time.
 * @param {{room: string, token: string, seat: number}} seat
 */
async function enterFound(seat) {
  const current = state.roomId;
  if (current && current !== seat.room) {
    await leaveRoom();
    forgetSeat(current);
  }
  await enterMatch(seat);
}

/** "Play a bot while you wait": an unrated game against the Standard bot, still queued. */
async function playWhileWaiting() {
  const name = accountName();
  if (!name || state.roomId) return;
  await quickPlay(name, WAITING_BOT, state.create.edition);
}

/** The connection dropped: the server forgot the queue entry. */
export function matchLost() {
  if (phase.phase !== 'idle') set({ phase: 'idle' });
}

/** @param {number} ms */
function seconds(ms) {
  return Math.max(0, Math.round(ms / 1000));
}

/** The lobby's automatch panel (signed-in players only). */
export function matchPanel() {
  if (!accountName()) return null;
  const online = state.conn === 'online';
  /** @type {any[]} */
  let body;
  if (phase.phase === 'idle') {
    body = [
      h(
        'label',
        { class: 'field' },
        h('span', {}, t('match.pool')),
        h(
          'select',
          {
            'data-testid': 'match-pool',
            onchange: (/** @type {Event} */ e) => {
              pool = /** @type {any} */ (/** @type {HTMLSelectElement} */ (e.target).value);
            },
          },
          ...['2p', '3-4p', 'practice'].map((p) => h('option', { value: p, selected: p === pool }, t(`match.pool_${p.replace('-', '_')}`))),
        ),
      ),
      h('button', { type: 'button', class: 'btn primary', 'data-testid': 'match-find', disabled: !online, onclick: () => find() }, t('match.find')),
    ];
  } else {
    body = waitingBody();
  }
  return h('section', { class: 'panel automatch', 'aria-labelledby': 'match-h', 'data-testid': 'automatch' }, h('h2', { id: 'match-h' }, t('match.heading')), ...body);
}

/** The queue's status or the proposal, in the lobby's panel or over a game. @returns {any[]} */
function waitingBody() {
  /** @type {any[]} */
  let body;
  if (phase.phase === 'queued') {
    body = [
      h('p', { role: 'status', 'data-testid': 'match-status' }, t('match.waiting', { seconds: seconds(Date.now() - phase.since) })),
      phase.until != null && phase.until > Date.now()
        ? h('p', { class: 'muted', 'data-testid': 'match-estimate' }, t('match.estimate', { seconds: seconds(phase.until - Date.now()) }))
        : null,
      h(
        'div',
        { class: 'lobby-actions' },
        h('button', { type: 'button', class: 'btn', 'data-testid': 'match-cancel', onclick: () => cancel() }, t('match.cancel')),
        state.roomId
          ? null
          : h('button', { type: 'button', class: 'btn', 'data-testid': 'match-play-bot', disabled: state.conn !== 'online', onclick: () => playWhileWaiting() }, t('match.play_bot')),
      ),
    ];
  } else if (phase.phase === 'proposed') {
    const names = phase.opponents.map((o) => (o.level != null ? `${o.name} (${t('match.level', { level: o.level })})` : o.name)).join(', ');
    body = [
      h('p', { role: 'alert', 'data-testid': 'match-proposed' }, t('match.proposed', { names })),
      h('p', { 'data-testid': 'match-countdown' }, t('match.countdown', { seconds: seconds(phase.until - Date.now()) })),
      phase.accepted
        ? h('p', { role: 'status' }, t('match.accepted'))
        : h(
            'div',
            { class: 'lobby-actions' },
            h('button', { type: 'button', class: 'btn primary', 'data-testid': 'match-accept', onclick: () => answer(true) }, t('match.accept')),
            h('button', { type: 'button', class: 'btn', 'data-testid': 'match-decline', onclick: () => answer(false) }, t('match.decline')),
          ),
    ];
  } else {
    body = [];
  }
  return body;
}

/**
 * Over a game (one played while waiting, or any room this page is in): the queue's
 * status as a thin bar, a proposal as a box on top with Accept and Decline.
 */
export function matchOverlay() {
  if (phase.phase === 'idle' || !state.roomId) return null;
  const proposed = phase.phase === 'proposed';
  return h(
    'section',
    { class: ['match-overlay', proposed ? 'match-overlay-proposed' : 'match-overlay-queued'], 'aria-label': t('match.heading'), 'data-testid': 'match-overlay' },
    ...waitingBody(),
  );
}
