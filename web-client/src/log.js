// The game log: each event as a sentence in the current language, with card names
// marked by type ("Anna plays Militia." / "Anna kijátssza: Milícia.").
import { h } from './dom.js';
import { cardName, groupedNames, typeClass, typeLabel } from './cards.js';
import { list, template } from './i18n/index.js';
import { seatName } from './names.js';

/** @typedef {import('./types.js').GameEvent} GameEvent */

/** @param {string} key */
function cardRef(key) {
  return h('span', { class: ['cardref', typeClass(key)], title: typeLabel(key) }, cardName(key));
}

/** @param {string[]} keys */
function cardsRef(keys) {
  const names = groupedNames(keys);
  return h('span', { class: 'cardref-list' }, list(names));
}

/**
 * Fills `key`'s template: string params as text, node params as nodes.
 * @param {string} key @param {Record<string, any>} params
 */
function sentence(key, params) {
  const parts = [];
  const tpl = template(key, params.n);
  let last = 0;
  for (const m of tpl.matchAll(/\{(\w+)\}/g)) {
    parts.push(tpl.slice(last, m.index));
    const v = params[m[1]];
    parts.push(v instanceof Node ? v : String(v ?? m[0]));
    last = (m.index ?? 0) + m[0].length;
  }
  parts.push(tpl.slice(last));
  return parts;
}

/**
 * One log line for an event, or null for events not worth a line.
 * @param {import('./store.js').State} s @param {GameEvent} e @param {GameEvent | undefined} prev
 * @returns {{parts: any[], kind: string, seat?: number} | null}
 */
export function describe(s, e, prev) {
  const who = (/** @type {number} */ seat) =>
    h('span', { class: ['who', seat === s.seat && 'me'] }, seatName(s, seat));
  switch (e.type) {
    case 'game_started':
      return { kind: 'start', parts: sentence('log.game_started', { name: who(e.first) }) };
    case 'turn_started':
      return { kind: 'turn', seat: e.seat, parts: sentence('log.turn', { turn: e.turn, name: who(e.seat) }) };
    case 'phase_started':
      return null;
    case 'drew':
      if (e.cards && e.cards.length) {
        return { kind: 'private', seat: e.seat, parts: sentence('log.drew_cards', { name: who(e.seat), cards: cardsRef(e.cards) }) };
      }
      return { kind: 'draw', seat: e.seat, parts: sentence('log.drew', { name: who(e.seat), n: e.count }) };
    case 'shuffled':
      return { kind: 'minor', seat: e.seat, parts: sentence('log.shuffled', { name: who(e.seat) }) };
    case 'played':
      return { kind: 'play', seat: e.seat, parts: sentence('log.played', { name: who(e.seat), card: cardRef(e.card) }) };
    case 'played_again':
      return { kind: 'play', seat: e.seat, parts: sentence('log.played_again', { name: who(e.seat), card: cardRef(e.card) }) };
    case 'bought':
      return { kind: 'buy', seat: e.seat, parts: sentence('log.bought', { name: who(e.seat), card: cardRef(e.card) }) };
    case 'gained': {
      // A buy gains the card bought: one sentence says both.
      if (prev && prev.type === 'bought' && prev.seat === e.seat && prev.card === e.card && e.to === 'discard') return null;
      const key = e.to === 'hand' ? 'log.gained_hand' : e.to === 'deck' ? 'log.gained_deck' : 'log.gained';
      return { kind: 'gain', seat: e.seat, parts: sentence(key, { name: who(e.seat), card: cardRef(e.card) }) };
    }
    case 'discarded':
      if (e.private) return null; // clean-up: every turn, nothing to learn
      if (e.cards && e.cards.length) {
        return { kind: 'discard', seat: e.seat, parts: sentence('log.discarded', { name: who(e.seat), cards: cardsRef(e.cards) }) };
      }
      return { kind: 'discard', seat: e.seat, parts: sentence('log.discarded_n', { name: who(e.seat), n: e.count }) };
    case 'trashed':
      return { kind: 'trash', seat: e.seat, parts: sentence('log.trashed', { name: who(e.seat), cards: cardsRef(e.cards) }) };
    case 'revealed':
      return { kind: 'reveal', seat: e.seat, parts: sentence('log.revealed', { name: who(e.seat), cards: cardsRef(e.cards) }) };
    case 'top_decked':
      if (e.cards && e.cards.length) {
        return { kind: 'topdeck', seat: e.seat, parts: sentence('log.top_decked', { name: who(e.seat), cards: cardsRef(e.cards) }) };
      }
      return { kind: 'topdeck', seat: e.seat, parts: sentence('log.top_decked_n', { name: who(e.seat), n: e.count }) };
    case 'blocked':
      return { kind: 'block', seat: e.seat, parts: sentence('log.blocked', { name: who(e.seat), card: cardRef(e.by) }) };
    case 'game_ended':
      return { kind: 'end', parts: sentence('log.game_ended', {}) };
    default:
      return null;
  }
}

/**
 * The log lines for the last `limit` events, oldest first.
 * @param {import('./store.js').State} s @param {number} [limit]
 */
export function logLines(s, limit = 250) {
  const events = s.events;
  const from = Math.max(0, events.length - limit);
  const out = [];
  for (let i = from; i < events.length; i++) {
    const line = describe(s, events[i], events[i - 1]);
    if (line) out.push({ ...line, key: s.nextEvent - events.length + i });
  }
  return out;
}
