// The room's chat: the recent lines (as text, never markup) and a line to write, in the
// waiting room and beside the game. Spectators see it only where the room allows it.
import { A, accountName, isBlocked, openReport, sameName, setBlocked } from './account.js';
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { loadEarlierChat, sendChat } from './session.js';
import { state, update } from './store.js';

/** The longest line the server takes (its `welcome` says so too). */
const MAX_CHARS = 300;

/** Whether this page reads the room's chat: players always, spectators where allowed. */
export function readsChat() {
  return !state.spectating || state.room?.settings.spectator_chat === true;
}

/** @param {import('./types.js').ChatLine} line */
function who(line) {
  if (line.from.type === 'seat') {
    const mine = !state.spectating && line.from.seat === state.seat;
    return h('span', { class: ['who', mine && 'me'] }, line.from.name);
  }
  return h('span', { class: 'who spectator' }, t('chat.spectator', { name: line.from.name }));
}

/**
 * A signed-in player's actions on another's line: report it (kept for the operators), or
 * block its writer (their lines no longer reach you). Guests see none.
 * @param {import('./store.js').ChatEntry} line
 */
function lineActions(line) {
  const me = accountName();
  if (!me || !state.roomId) return null;
  const mine = line.from.type === 'seat' ? !state.spectating && line.from.seat === state.seat : false;
  if (mine || sameName(line.from.name, me)) return null;
  const room = state.roomId;
  const n = line.n;
  return h(
    'span',
    { class: 'chat-actions' },
    h(
      'button',
      {
        type: 'button',
        class: 'btn link chat-action',
        'data-testid': `chat-report-${n}`,
        'aria-label': t('chat.report_line', { name: line.from.name }),
        title: t('chat.report_line', { name: line.from.name }),
        onclick: () => openReport(room, n, line.from.name, line.text),
      },
      t('chat.report'),
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'btn link chat-action',
        'data-testid': `chat-block-${line.from.name}`,
        'aria-label': t('chat.block_player', { name: line.from.name }),
        title: t('chat.block_player', { name: line.from.name }),
        onclick: () => setBlocked(line.from.name, true),
      },
      t('chat.block'),
    ),
  );
}

/** @param {number} at */
function clock(at) {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

async function submit(/** @type {Event} */ e) {
  e.preventDefault();
  const text = state.chatDraft.trim();
  if (!text || state.conn !== 'online') return;
  if (await sendChat(text)) {
    update((s) => {
      s.chatDraft = '';
    });
  }
}

export function chatPanel() {
  if (!state.room || !readsChat()) return null;
  // Lines of blocked players stay hidden (the server also stops sending them).
  const lines = A.blocks.length ? state.chat.filter((l) => !isBlocked(l.from.name)) : state.chat;
  return h(
    'section',
    { class: 'panel chat', 'data-testid': 'chat', 'aria-labelledby': 'chat-h' },
    h('h2', { id: 'chat-h' }, t('chat.heading')),
    state.chatMore
      ? h('button', { type: 'button', class: 'btn small link', 'data-testid': 'chat-earlier', onclick: () => loadEarlierChat() }, t('chat.earlier'))
      : null,
    h(
      'ol',
      { class: 'chat-lines', 'data-testid': 'chat-lines', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: 0 },
      lines.length
        ? lines.map((l) =>
            h(
              'li',
              { key: `line-${l.n}`, class: 'chat-line' },
              h('time', { class: 'muted', datetime: new Date(l.at).toISOString() }, clock(l.at)),
              ' ',
              who(l),
              ': ',
              // Text, never HTML: `h` makes a text node of it.
              h('span', { class: 'chat-text' }, l.text),
              lineActions(l),
            ),
          )
        : h('li', { class: 'muted', 'data-testid': 'chat-empty' }, t('chat.empty')),
    ),
    h(
      'form',
      { class: 'chat-form', onsubmit: submit, novalidate: true },
      h('input', {
        type: 'text',
        'data-testid': 'chat-input',
        'aria-label': t('chat.placeholder'),
        placeholder: t('chat.placeholder'),
        maxlength: MAX_CHARS,
        autocomplete: 'off',
        value: state.chatDraft,
        oninput: (/** @type {any} */ e) => update((s) => {
          s.chatDraft = e.target.value;
        }),
      }),
      h('button', { type: 'submit', class: 'btn small', 'data-testid': 'chat-send', disabled: state.conn !== 'online' || !state.chatDraft.trim() }, t('chat.send')),
    ),
  );
}

/** Keeps the newest chat line in sight after a render (unless the person scrolled up). */
export function scrollChat(/** @type {Element} */ root, /** @type {boolean} */ atBottom) {
  const list = root.querySelector('[data-testid="chat-lines"]');
  if (list && atBottom) list.scrollTop = list.scrollHeight;
}

/** Whether the chat is scrolled to its end (before a render). @param {Element} root */
export function chatAtBottom(root) {
  const list = root.querySelector('[data-testid="chat-lines"]');
  return !list || list.scrollHeight - list.scrollTop - list.clientHeight < 40;
}
