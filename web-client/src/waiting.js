// The waiting room, before the game starts: the seats (the host puts bots in open seats
// or takes them out), an invite link, the kingdom with every card's text, the chat, and
// Start / Leave.
import { h } from './dom.js';
import { cardName, printedCost } from './cards.js';
import { cardDetails } from './cardview.js';
import { chatPanel } from './chat.js';
import { t } from './i18n/index.js';
import { botAccountMark, botLabel, levelMark } from './names.js';
import { roomName } from './lobby.js';
import { inviteLink, leaveRoom, removeSeat, setSeat, startGame } from './session.js';
import { state, update } from './store.js';
import { inviteFriendsPanel } from './friends.js';

/** The kingdom's ten cards when known before the start (a random one is drawn then). */
export function kingdomCards(/** @type {import('./types.js').RoomSummary} */ room) {
  const k = room.settings.kingdom;
  if (k.type === 'cards') return k.cards;
  if (k.type === 'recommended') return state.meta.kingdoms.find((x) => x.id === k.id)?.cards ?? [];
  return [];
}

/** @param {import('./types.js').RoomSummary} room */
function kingdomPanel(room) {
  const k = room.settings.kingdom;
  const cards = [...kingdomCards(room)].sort((a, b) => printedCost(a) - printedCost(b) || cardName(a).localeCompare(cardName(b)));
  const known = k.type === 'recommended' ? state.meta.kingdoms.find((x) => x.id === k.id) : null;
  return h(
    'section',
    { class: 'panel wait-kingdom', 'data-testid': 'wait-kingdom', 'aria-labelledby': 'wait-kingdom-h' },
    h('h2', { id: 'wait-kingdom-h' }, t('wait.kingdom'), known ? ` — ${known.name}` : ''),
    k.type === 'random'
      ? h('p', { class: 'muted', 'data-testid': 'wait-kingdom-random' }, t('wait.kingdom_random'))
      : h(
          'ul',
          { class: 'wait-cards' },
          cards.map((c) => h('li', { key: c, 'data-testid': `wait-card-${c}` }, cardDetails(c))),
        ),
  );
}

/** @param {import('./types.js').RoomSummary} room */
function invitePanel(room) {
  const link = inviteLink(room.id);
  const copy = async () => {
    let ok = false;
    try {
      await navigator.clipboard.writeText(link);
      ok = true;
    } catch {
      // No clipboard here: select the text so it can be copied by hand.
      const input = document.querySelector('[data-testid="invite-link"]');
      if (input instanceof HTMLInputElement) input.select();
    }
    update((s) => {
      s.copied = ok ? room.id : null;
    });
  };
  return h(
    'div',
    { class: 'invite field' },
    h('label', { for: 'invite-link' }, t('wait.invite_link')),
    h(
      'div',
      { class: 'invite-row' },
      h('input', {
        id: 'invite-link',
        type: 'text',
        readonly: true,
        'data-testid': 'invite-link',
        value: link,
        onfocus: (/** @type {any} */ e) => e.target.select(),
      }),
      h('button', { type: 'button', class: 'btn small', 'data-testid': 'invite-copy', onclick: copy }, state.copied === room.id ? t('wait.copied') : t('wait.copy')),
    ),
  );
}

/** @param {import('./types.js').SeatInfo} s @param {boolean} host */
function seatRow(s, host) {
  const o = s.occupant;
  const label =
    o.type === 'empty'
      ? h('span', { class: 'muted' }, t('room.empty_seat'))
      : o.type === 'bot'
        ? `⚙ ${botLabel(o.bot)}`
        : [o.name, botAccountMark(o), levelMark(o), s.seat === state.seat && !state.spectating ? ` (${t('common.you')})` : '', s.seat === state.room?.host ? ` — ${t('wait.host')}` : '', !o.connected ? ` — ${t('room.offline')}` : ''];
  const control =
    host && o.type !== 'human'
      ? h(
          'select',
          {
            'data-testid': `wait-seat-select-${s.seat}`,
            'aria-label': t('wait.seat_who', { n: s.seat + 1 }),
            value: o.type === 'bot' ? o.bot : '',
            disabled: state.conn !== 'online',
            onchange: (/** @type {any} */ e) => setSeat(s.seat, e.target.value),
          },
          h('option', { value: '' }, t('create.seat_open')),
          state.meta.bots.map((b) => h('option', { value: b }, botLabel(b))),
        )
      : null;
  // The host may take another player out before the start.
  const remove =
    host && o.type === 'human' && s.seat !== state.seat
      ? h(
          'button',
          {
            type: 'button',
            class: 'btn small',
            'data-testid': `wait-remove-${s.seat}`,
            'aria-label': t('wait.remove_who', { name: o.name }),
            disabled: state.conn !== 'online',
            onclick: () => removeSeat(s.seat),
          },
          t('wait.remove'),
        )
      : null;
  // The host's select says who sits there; others read it.
  return h('li', { key: s.seat, 'data-testid': `wait-seat-${s.seat}` }, h('span', { class: 'seat-no' }, `${s.seat + 1}.`), ' ', control ?? label, remove ? ' ' : null, remove);
}

export function waitingRoom() {
  const room = state.room;
  const filled = room ? room.seats.every((s) => s.occupant.type !== 'empty') : false;
  const host = !!room && !state.spectating && room.host != null && room.host === state.seat;
  const seats = h(
    'section',
    { class: 'panel waiting-room', 'data-testid': 'waiting-room', 'aria-labelledby': 'wait-h' },
    h('h1', { id: 'wait-h' }, room ? roomName(room) : t('wait.heading')),
    h('ul', { class: 'seat-list big' }, (room?.seats ?? []).map((s) => seatRow(s, host))),
    host ? h('p', { class: 'hint' }, t('wait.host_hint')) : null,
    h('p', { class: 'hint', 'aria-live': 'polite' }, filled ? t('wait.ready') : `${t('wait.need_seats')} ${t('wait.invite')}`),
    room ? invitePanel(room) : null,
    room ? inviteFriendsPanel(room) : null,
    h(
      'div',
      { class: 'choice-row' },
      state.spectating
        ? null
        : h('button', { type: 'button', class: 'btn primary', 'data-testid': 'start-game', disabled: !filled, onclick: () => startGame() }, t('wait.start')),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'leave-room', onclick: () => leaveRoom() }, state.spectating ? t('common.back_to_lobby') : t('common.leave')),
    ),
  );
  return h(
    'div',
    { class: 'waiting', 'data-testid': 'waiting' },
    h('div', { class: 'waiting-main' }, seats, chatPanel()),
    room ? kingdomPanel(room) : null,
  );
}
