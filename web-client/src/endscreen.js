// The end screen: the winner, the scores, each player's victory points card by card, why
// the game ended, every deck, a link to the replay, and a rematch (a new room with the
// same seats and kingdom, and a new shuffle) that the other players are invited to.
import { h } from './dom.js';
import { card, cardCost, cardName, typeClass, typeLabel } from './cards.js';
import { typeMarks } from './cardview.js';
import { list, t } from './i18n/index.js';
import { seatName } from './names.js';
import { command, leaveRoom, takeSeat } from './session.js';
import { state, update } from './store.js';
import { ratingChangesView } from './ratings.js';

/** @typedef {import('./types.js').GameView} GameView */

/** Turns per player after which the engine ends a game (state.rs TURN_LIMIT_PER_PLAYER). */
const TURN_LIMIT_PER_PLAYER = 250;

/**
 * The VP one copy of `key` is worth in a deck of `cards`, as the engine scores it
 * (score.rs): the fixed VP of cards.json's `vp` (Estate 1, Duchy 3, Province 6, Curse −1,
 * Great Hall and Mill 1, Harem and Nobles 2), Gardens 1 per full 10 cards, Duke 1 per
 * Duchy; anything else 0.
 * @param {string} key @param {string[]} cards
 */
export function cardVp(key, cards) {
  if (key === 'gardens') return Math.floor(cards.length / 10);
  if (key === 'duke') return cards.filter((c) => c === 'duchy').length;
  const vp = /** @type {{vp?: number} | undefined} */ (card(key))?.vp;
  return typeof vp === 'number' ? vp : 0;
}

/**
 * The cards of a deck that are worth VP (or cost it), each with how many, what one is
 * worth and their sum.
 * @param {string[]} cards
 * @returns {Map<string, {count: number, each: number, total: number}>}
 */
export function vpByCard(cards) {
  /** @type {Map<string, {count: number, each: number, total: number}>} */
  const out = new Map();
  for (const c of cards) {
    const each = cardVp(c, cards);
    // Gardens in a deck under 10 cards and Dukes without Duchies are worth 0 but are
    // still shown: a player wants to see why.
    if (each === 0 && c !== 'gardens' && c !== 'duke') continue;
    const row = out.get(c) ?? { count: 0, each, total: 0 };
    row.count += 1;
    row.total += each;
    out.set(c, row);
  }
  return out;
}

/** Columns in a fixed order: Provinces, Duchies, Estates, the kingdom's VP cards by name, Curses. @param {string} c */
function columnRank(c) {
  const i = ['province', 'duchy', 'estate'].indexOf(c);
  if (i >= 0) return i;
  return c === 'curse' ? 9 : 5;
}

/**
 * Why the game ended, from the final view: the Provinces ran out, enough Supply piles
 * are empty (named), the turn limit, or — when none of those holds — that no player
 * could do anything any more (the engine's last resort).
 * @param {GameView} v @returns {string[]}
 */
export function endReasons(v) {
  const out = [];
  const players = v.seats.length;
  const provinces = v.supply.some((p) => p.card === 'province' && p.count === 0);
  const empty = v.supply.filter((p) => p.count === 0);
  const piles = empty.length >= (players >= 5 ? 4 : 3);
  const params = { card: cardName('province'), n: empty.length, cards: list(empty.map((p) => cardName(p.card))) };
  if (provinces && piles) out.push(t('end.reason.both', params));
  else if (provinces) out.push(t('end.reason.provinces', params));
  else if (piles) out.push(t('end.reason.piles', params));
  if (v.turn_count >= TURN_LIMIT_PER_PLAYER * players) out.push(t('end.reason.turns', { turns: TURN_LIMIT_PER_PLAYER }));
  if (!out.length) out.push(t('end.reason.stuck'));
  return out;
}

/** The result the end screen was last opened for: it scrolls into view once per result. */
let openedFor = '';
let rematching = false;

/** Creates the rematch room, offers it to the others, and takes this seat there. */
async function offerRematch() {
  const room = state.room;
  const r = state.result;
  const seat = state.seat;
  if (!room || !r || seat == null || rematching) return;
  rematching = true;
  update();
  try {
    const settings = { ...room.settings, kingdom: { type: 'cards', cards: [...r.kingdom] } };
    const created = await command({ type: 'create_room', settings });
    if (!created || created.type !== 'room_created') return;
    // The offer may fail (the finished room closed meanwhile): the rematch goes on.
    await command({ type: 'rematch', room: created.room.id });
    const name = state.name;
    await leaveRoom();
    await takeSeat(created.room.id, seat, name);
  } finally {
    rematching = false;
    update();
  }
}

/** Accepts another player's rematch: this seat's number in the new room, else any open one. @param {string} room */
async function joinRematch(room) {
  const seat = state.spectating ? undefined : (state.seat ?? undefined);
  const name = state.name;
  await leaveRoom();
  await takeSeat(room, seat, name);
  if (!state.roomId && seat != null) await takeSeat(room, undefined, name);
}

/** @param {string[]} cards */
function deckChips(cards) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const c of cards) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => cardCost(b[0]) - cardCost(a[0]) || cardName(a[0]).localeCompare(cardName(b[0])))
    .map(([c, n]) =>
      h('span', { key: c, class: ['chip', typeClass(c)], title: typeLabel(c) }, h('span', { class: 'chip-mark', 'aria-hidden': 'true' }, typeMarks(c)), ` ${n} × ${cardName(c)}`),
    );
}

/**
 * Each player's VP card by card: a row per player (in score order), a column per card
 * worth VP that anyone has, and the total, which is the score.
 * @param {import('./types.js').GameResult} r @param {import('./types.js').ScoreLine[]} scores
 */
function vpTable(r, scores) {
  const decks = new Map(r.decks.map((d) => [d.seat, vpByCard(d.cards)]));
  const columns = [...new Set([...decks.values()].flatMap((m) => [...m.keys()]))].sort(
    (a, b) => columnRank(a) - columnRank(b) || cardName(a).localeCompare(cardName(b)),
  );
  return h(
    'div',
    // It scrolls sideways on a phone: reachable by keyboard, named by the table's caption.
    { class: 'vp-wrap', tabindex: 0, role: 'region', 'aria-label': t('end.vp_by_card') },
    h(
      'table',
      { class: 'scores vp-table', 'data-testid': 'vp-table' },
      h('caption', { class: 'visually-hidden' }, t('end.vp_by_card')),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, t('end.player')),
          columns.map((c) => h('th', { scope: 'col', key: c, class: typeClass(c) }, h('span', { class: 'chip-mark', 'aria-hidden': 'true' }, typeMarks(c)), ' ', cardName(c))),
          h('th', { scope: 'col' }, t('end.vp_total')),
        ),
      ),
      h(
        'tbody',
        {},
        scores.map((s) => {
          const rows = decks.get(s.seat) ?? new Map();
          const sum = [...rows.values()].reduce((a, x) => a + x.total, 0);
          return h(
            'tr',
            { key: s.seat, 'data-testid': `vp-row-${s.seat}` },
            h('th', { scope: 'row' }, seatName(state, s.seat)),
            columns.map((c) => {
              const x = rows.get(c);
              return h(
                'td',
                { key: c, 'data-testid': `vp-${s.seat}-${c}`, 'data-vp': x ? String(x.total) : '0' },
                x ? [h('span', { class: 'vp-calc' }, t('end.vp_calc', { n: x.count, v: x.each })), ' ', h('strong', {}, String(x.total))] : h('span', { class: 'muted' }, '—'),
              );
            }),
            h('td', { 'data-testid': `vp-total-${s.seat}` }, h('strong', {}, String(sum))),
          );
        }),
      ),
    ),
  );
}

/** The end screen, once the game is over (else nothing). */
export function endScreen() {
  const r = state.result;
  if (!r) return null;
  const v = state.view;
  const scores = [...r.scores].sort((a, b) => b.vp - a.vp || a.turns - b.turns);
  const winners = scores.filter((s) => s.winner).map((s) => seatName(state, s.seat));
  const room = state.roomId;
  // Opened: bring "Game over" into view (the table above which it appears may have been
  // scrolled down to the hand) and give it focus, once per result.
  const key = `${room}:${r.seed}`;
  if (openedFor !== key) {
    openedFor = key;
    requestAnimationFrame(() => {
      const heading = document.getElementById('end-h');
      if (!heading) return;
      heading.closest('section')?.scrollIntoView({ block: 'start' });
      heading.focus({ preventScroll: true });
    });
  }
  const offer = state.rematch && state.rematch.from === room && state.rematch.seat !== state.seat ? state.rematch : null;
  const offerRoom = offer?.room ?? '';
  return h(
    'section',
    { class: 'panel end-screen', 'data-testid': 'end-screen', 'aria-labelledby': 'end-h' },
    h('h1', { id: 'end-h', tabindex: -1 }, t('end.heading')),
    h('p', { class: 'winner-line', 'data-testid': 'winner' }, '★ ', t('end.winners_are', { n: winners.length, names: list(winners) })),
    v ? h('p', { class: 'end-reason', 'data-testid': 'end-reason' }, endReasons(v).join(' ')) : null,
    offer
      ? h(
          'div',
          { class: 'rematch-offer', role: 'status', 'data-testid': 'rematch-offer' },
          h('span', {}, t('end.rematch_offer', { name: seatName(state, offer.seat) })),
          ' ',
          h('button', { type: 'button', class: 'btn primary', 'data-testid': 'rematch-join', onclick: () => joinRematch(offerRoom) }, t('end.rematch_join')),
        )
      : null,
    state.ratingChanges && state.ratingChanges.room === room && state.ratingChanges.changes.length ? ratingChangesView(state.ratingChanges.changes) : null,
    h(
      'table',
      { class: 'scores', 'data-testid': 'scores' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('end.player')), h('th', { scope: 'col' }, t('end.vp')), h('th', { scope: 'col' }, t('end.turns')))),
      h(
        'tbody',
        {},
        scores.map((s) =>
          h(
            'tr',
            { key: s.seat, class: [s.winner && 'winner'], 'data-testid': `score-${s.seat}` },
            h('th', { scope: 'row' }, s.winner ? `★ ${seatName(state, s.seat)} — ${t('end.winner')}` : seatName(state, s.seat), s.seat === state.seat ? ` (${t('common.you')})` : ''),
            h('td', { 'data-testid': `score-vp-${s.seat}` }, String(s.vp)),
            h('td', {}, String(s.turns)),
          ),
        ),
      ),
    ),
    h('h2', {}, t('end.vp_by_card')),
    vpTable(r, scores),
    h(
      'div',
      { class: 'choice-row end-actions' },
      // Offered a rematch already: joining it is the way to play again.
      state.spectating || state.seat == null || offer
        ? null
        : h(
            'button',
            { type: 'button', class: 'btn primary', 'data-testid': 'rematch', disabled: rematching, title: t('end.rematch_hint'), onclick: () => offerRematch() },
            t('end.rematch'),
          ),
      room ? h('a', { class: 'btn', href: `/replay/${encodeURIComponent(room)}`, 'data-testid': 'replay-link' }, t('end.replay')) : null,
      h('button', { type: 'button', class: 'btn', 'data-testid': 'back-to-lobby', onclick: () => leaveRoom() }, t('common.back_to_lobby')),
    ),
    h('h2', {}, t('end.decks')),
    h(
      'div',
      { class: 'decks' },
      r.decks.map((d) =>
        h(
          'div',
          { key: d.seat, class: 'deck', 'data-testid': `deck-${d.seat}` },
          h('h3', {}, seatName(state, d.seat), ` — ${t('common.cards', { n: d.cards.length })}`),
          h('div', { class: 'chips' }, deckChips(d.cards)),
        ),
      ),
    ),
  );
}
