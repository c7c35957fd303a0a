// Your deck at a glance: how many of each card you own (the starting ten, what you
// gained, less what you trashed or passed on), and for every other player only what is
// public: the cards they gained and the cards they lost. Counted from the game's events.
import { h } from './dom.js';
import { cardCost, cardName, cardTypes, typeClass } from './cards.js';
import { cardChip } from './cardview.js';
import { t } from './i18n/index.js';
import { seatName } from './names.js';
import { state, update } from './store.js';

let open = false;

/** Shows or hides the deck panel. @param {boolean} [show] */
export function toggleDeck(show = !open) {
  open = show;
  update();
}

export function deckShown() {
  return open;
}

/**
 * @typedef {object} Ledger
 * @property {Map<string, number>} gained
 * @property {Map<string, number>} lost
 * @property {number} passedUnknown   cards passed on whose name this page was not told
 * @property {number} receivedUnknown
 */

/** @param {Map<string, number>} m @param {string} card @param {number} [n] */
function add(m, card, n = 1) {
  m.set(card, (m.get(card) ?? 0) + n);
}

/**
 * Each seat's gains and losses since the start, from the events this page holds (the
 * whole game once its history has come).
 * @returns {Map<number, Ledger>}
 */
export function ledgers() {
  /** @type {Map<number, Ledger>} */
  const out = new Map();
  const of = (/** @type {number} */ seat) => {
    let l = out.get(seat);
    if (!l) {
      l = { gained: new Map(), lost: new Map(), passedUnknown: 0, receivedUnknown: 0 };
      out.set(seat, l);
    }
    return l;
  };
  for (const e of state.events) {
    if (e.type === 'gained' || e.type === 'gained_from_trash') add(of(e.seat).gained, e.card);
    else if (e.type === 'trashed') for (const c of e.cards) add(of(e.seat).lost, c);
    else if (e.type === 'passed') {
      if (e.card) {
        add(of(e.seat).lost, e.card);
        add(of(e.to).gained, e.card);
      } else {
        of(e.seat).passedUnknown++;
        of(e.to).receivedUnknown++;
      }
    }
  }
  return out;
}

/** Whether the page holds the game's events from its start (its count is exact). */
function fromStart() {
  return state.nextEvent - state.events.length === 0 && state.events[0]?.type === 'game_started';
}

/**
 * The cards this seat owns, by card: the starting seven Coppers and three Estates, plus
 * what it gained, less what it lost.
 * @param {Ledger | undefined} l
 */
export function ownedCards(l) {
  /** @type {Map<string, number>} */
  const own = new Map([
    ['copper', 7],
    ['estate', 3],
  ]);
  for (const [c, n] of l?.gained ?? []) add(own, c, n);
  for (const [c, n] of l?.lost ?? []) add(own, c, -n);
  return [...own].filter(([, n]) => n > 0);
}

/** Cards by type (Treasures, Victory, Curses, Actions), then cost, then name. @param {[string, number][]} list */
function sorted(list) {
  const rank = (/** @type {string} */ c) => {
    const ty = cardTypes(c);
    return ty.includes('treasure') ? 0 : ty.includes('victory') && !ty.includes('action') ? 1 : ty.includes('curse') ? 2 : 3;
  };
  return [...list].sort(([a], [b]) => rank(a) - rank(b) || cardCost(a) - cardCost(b) || cardName(a).localeCompare(cardName(b)));
}

/** @param {[string, number][]} list @param {string} testid */
function countList(list, testid) {
  if (!list.length) return h('p', { class: 'muted', 'data-testid': testid }, '—');
  return h(
    'ul',
    { class: 'deck-list', 'data-testid': testid },
    sorted(list).map(([c, n]) => h('li', { key: c, class: typeClass(c), 'data-card': c, 'data-count': String(n) }, h('strong', { class: 'deck-n' }, `${n} ×`), ' ', cardChip(c))),
  );
}

/** The button that opens the panel (beside the hand, and the spectator's tools). */
export function deckButton() {
  return h('button', { type: 'button', class: 'btn small', 'data-testid': 'decks-button', 'aria-haspopup': 'dialog', onclick: () => toggleDeck(true) }, t('deck.button'));
}

export function deckDialog() {
  const v = state.view;
  if (!open || !v) return null;
  const close = () => toggleDeck(false);
  const all = ledgers();
  const me = state.spectating ? null : state.seat;
  const mine = me != null ? ownedCards(all.get(me)) : [];
  const total = mine.reduce((n, [, k]) => n + k, 0);
  return h(
    'div',
    { class: 'modal-backdrop', onclick: (/** @type {Event} */ e) => e.target === e.currentTarget && close() },
    h(
      'div',
      { class: 'modal deck-panel', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'deck-h', 'data-testid': 'decks-panel', onkeydown: (/** @type {KeyboardEvent} */ e) => e.key === 'Escape' && close() },
      h('h2', { id: 'deck-h' }, t('deck.title')),
      fromStart() ? null : h('p', { class: 'hint' }, t('deck.partial')),
      me != null
        ? h('section', { 'aria-labelledby': 'deck-mine-h' }, h('h3', { id: 'deck-mine-h' }, t('deck.yours', { n: total })), countList(mine, 'decks-mine'))
        : null,
      v.seats
        .filter((s) => s.seat !== me)
        .map((s) => {
          const l = all.get(s.seat);
          const unknown = (l?.passedUnknown ?? 0) || (l?.receivedUnknown ?? 0);
          return h(
            'section',
            { key: s.seat, class: 'deck-other', 'data-testid': `decks-seat-${s.seat}`, 'aria-labelledby': `deck-seat-${s.seat}-h` },
            h('h3', { id: `deck-seat-${s.seat}-h` }, seatName(state, s.seat)),
            h('div', { class: 'deck-row' }, h('span', { class: 'muted' }, `${t('deck.gained')}: `), countList([...(l?.gained ?? [])], `decks-gained-${s.seat}`)),
            h('div', { class: 'deck-row' }, h('span', { class: 'muted' }, `${t('deck.lost')}: `), countList([...(l?.lost ?? [])], `decks-lost-${s.seat}`)),
            unknown ? h('p', { class: 'hint' }, t('deck.passed_unknown', { out: l?.passedUnknown ?? 0, in: l?.receivedUnknown ?? 0 })) : null,
          );
        }),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'decks-close', 'data-autofocus': '', onclick: close }, t('common.close')),
    ),
  );
}
