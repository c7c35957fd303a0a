// The game log: each event as a sentence in the current language, with card names
// marked by type ("Anna plays Militia." / "Anna kijátssza: Milícia.").
import { cx, h, memo } from './dom.js';
import { cardName, cardTypes, groupedNames, shownEdition, typeClass, typeLabel } from './cards.js';
import { lang, list, t, template } from './i18n/index.js';
import { update } from './store.js';
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
 * One log line for an event, or null for events not worth a line. `cleanup` says the
 * event happened in its seat's Clean-up (after its Buy phase began).
 * @param {import('./store.js').State} s @param {GameEvent} e @param {GameEvent | undefined} prev
 * @param {boolean} [cleanup]
 * @returns {{parts: any[], kind: string, seat?: number} | null}
 */
export function describe(s, e, prev, cleanup = false) {
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
      if (e.private && cleanup) return null; // the hand at Clean-up: every turn, nothing to learn
      if (e.cards && e.cards.length) {
        return { kind: 'discard', seat: e.seat, parts: sentence('log.discarded', { name: who(e.seat), cards: cardsRef(e.cards) }) };
      }
      // Another player's discard from hand: how many, and what now lies on top.
      if (e.top) {
        return { kind: 'discard', seat: e.seat, parts: sentence('log.discarded_top', { name: who(e.seat), n: e.count, card: cardRef(e.top) }) };
      }
      return { kind: 'discard', seat: e.seat, parts: sentence('log.discarded_n', { name: who(e.seat), n: e.count }) };
    case 'deck_discarded':
      return { kind: 'discard', seat: e.seat, parts: sentence('log.deck_discarded', { name: who(e.seat), n: e.count }) };
    case 'set_aside':
      return { kind: 'reveal', seat: e.seat, parts: sentence('log.set_aside', { name: who(e.seat), cards: cardsRef(e.cards) }) };
    case 'put_in_hand':
      return { kind: 'gain', seat: e.seat, parts: sentence('log.put_in_hand', { name: who(e.seat), cards: cardsRef(e.cards) }) };
    case 'looked_at':
      // The cards are sent to the player who looked only.
      if (e.cards && e.cards.length) {
        return { kind: 'private', seat: e.seat, parts: sentence('log.looked_at_cards', { name: who(e.seat), cards: cardsRef(e.cards) }) };
      }
      return { kind: 'minor', seat: e.seat, parts: sentence('log.looked_at', { name: who(e.seat), n: e.count }) };
    case 'gained_from_trash':
      return { kind: 'gain', seat: e.seat, parts: sentence('log.gained_from_trash', { name: who(e.seat), card: cardRef(e.card) }) };
    case 'trashed':
      return { kind: 'trash', seat: e.seat, parts: sentence('log.trashed', { name: who(e.seat), cards: cardsRef(e.cards) }) };
    case 'revealed':
      return { kind: 'reveal', seat: e.seat, parts: sentence('log.revealed', { name: who(e.seat), cards: cardsRef(e.cards) }) };
    case 'top_decked':
      if (e.cards && e.cards.length) {
        return { kind: 'topdeck', seat: e.seat, parts: sentence('log.top_decked', { name: who(e.seat), cards: cardsRef(e.cards) }) };
      }
      return { kind: 'topdeck', seat: e.seat, parts: sentence('log.top_decked_n', { name: who(e.seat), n: e.count }) };
    case 'named':
      return { kind: 'minor', seat: e.seat, parts: sentence('log.named', { name: who(e.seat), card: cardRef(e.card) }) };
    case 'passed':
      // The card is sent only to the passer and the receiver.
      if (e.card) {
        return { kind: 'private', seat: e.seat, parts: sentence('log.passed_card', { name: who(e.seat), to: who(e.to), card: cardRef(e.card) }) };
      }
      return { kind: 'minor', seat: e.seat, parts: sentence('log.passed', { name: who(e.seat), to: who(e.to) }) };
    case 'modes_chosen':
      return {
        kind: 'minor',
        seat: e.seat,
        parts: sentence('log.modes_chosen', { name: who(e.seat), modes: list(e.modes.map((m) => t(`mode.${m}`))), card: cardRef(e.card) }),
      };
    case 'blocked':
      return { kind: 'block', seat: e.seat, parts: sentence('log.blocked', { name: who(e.seat), card: cardRef(e.by) }) };
    case 'game_ended':
      return { kind: 'end', parts: sentence('log.game_ended', {}) };
    default:
      return null;
  }
}

/** Lines shown until the person asks for the whole log. */
const SHOWN = 250;

/** @param {string} card */
function isTreasure(card) {
  return cardTypes(card).includes('treasure');
}

/**
 * "Anna plays 4 Treasures: 3 × Copper and Gold" — Treasures played one after another by
 * one player make one line (the count's plural form is each language's own).
 * @param {import('./store.js').State} s @param {number} seat @param {string[]} cards
 */
function treasuresLine(s, seat, cards) {
  const who = h('span', { class: ['who', seat === s.seat && 'me'] }, seatName(s, seat));
  const names = [...new Map(cards.map((c) => [c, cards.filter((x) => x === c).length]))].map(([c, n]) =>
    h('span', { class: ['cardref', typeClass(c)], title: typeLabel(c) }, n > 1 ? `${n} × ${cardName(c)}` : cardName(c)),
  );
  const joined = [];
  const words = list(names.map((_, i) => `\u0000${i}\u0000`));
  for (const part of words.split(/(\u0000\d+\u0000)/)) {
    const m = /^\u0000(\d+)\u0000$/.exec(part);
    joined.push(m ? names[Number(m[1])] : part);
  }
  return sentence('log.played_treasures', { name: who, n: cards.length, cards: h('span', { class: 'cardref-list' }, joined) });
}

/**
 * The log lines for the last `limit` events (every event once the person asked for the
 * whole log), oldest first. Treasures played one after another by one player are one line.
 * @param {import('./store.js').State} s @param {number} [limit]
 */
export function logLines(s, limit = s.logAll ? Infinity : SHOWN) {
  const out = allLines(s);
  return out.length > limit ? out.slice(out.length - limit) : out;
}

/**
 * The last `allLines` result, and where to go on from: a line is final once a later event
 * exists, but for the last one (a run of Treasures may go on), so the events a render adds
 * are described alone and every older line stays the same object — which is what lets
 * `logBody` skip rebuilding it (`memo`).
 * @type {{context: string, events: GameEvent[], base: number, out: LogLine[], resume: {at: number, buying: number, lines: number}} | null}
 */
let cached = null;

/**
 * What a line's words depend on besides its events: the language and edition of the
 * names, the viewer's seat ("me") and every seat's name.
 * @param {import('./store.js').State} s
 */
function linesContext(s) {
  const seats = (s.room?.seats ?? []).map((x) => seatName(s, x.seat));
  const decks = (s.result?.decks ?? []).map((d) => `${d.seat}:${d.name}`);
  return [lang(), shownEdition(), s.seat, ...seats, '|', ...decks].join('\u0001');
}

/** Every line of the events held, oldest first (see `logLines`). @param {import('./store.js').State} s @returns {LogLine[]} */
function allLines(s) {
  const events = s.events;
  const base = s.nextEvent - events.length;
  const context = linesContext(s);
  /** @type {LogLine[]} */
  let out = [];
  let from = 0;
  // Clean-up has no event of its own: it follows the Buy phase of the same turn.
  let buying = -1;
  // Events are never changed in place (session.js replaces the array), so the same first
  // and last event objects where the cached array had them mean the same events up to there.
  const held = cached?.events ?? [];
  if (cached && cached.context === context && cached.base === base && held.length && events.length >= held.length && events[0] === held[0] && events[held.length - 1] === held[held.length - 1]) {
    if (events.length === held.length) return cached.out;
    ({ at: from, buying } = cached.resume);
    out = cached.out.slice(0, cached.resume.lines);
  }
  // Where the last event's line starts: the next call goes on from there.
  let at = from;
  let atBuying = buying;
  let atLines = out.length;
  for (let i = from; i < events.length; i++) {
    at = i;
    atBuying = buying;
    atLines = out.length;
    const e = events[i];
    if (e.type === 'turn_started') buying = -1;
    else if (e.type === 'phase_started') buying = e.phase === 'buy' ? e.seat : -1;
    if (e.type === 'played' && isTreasure(e.card)) {
      // The run of Treasures this player plays from here.
      const cards = [e.card];
      let j = i + 1;
      for (; j < events.length; j++) {
        const next = events[j];
        if (next.type !== 'played' || next.seat !== e.seat || !isTreasure(next.card)) break;
        cards.push(next.card);
      }
      if (cards.length > 1) {
        out.push({ kind: 'play', seat: e.seat, parts: treasuresLine(s, e.seat, cards), key: base + i });
        i = j - 1;
        continue;
      }
    }
    const line = describe(s, e, events[i - 1], 'seat' in e && e.seat === buying);
    if (line) out.push({ ...line, key: base + i });
  }
  cached = { context, events, base, out, resume: { at, buying: atBuying, lines: atLines } };
  return out;
}

/** @typedef {{parts: any[], kind: string, seat?: number, key: number}} LogLine */

/**
 * The lines grouped by turn: each turn's group starts with its `turn` line (the heading,
 * "Turn 4: Bob"); what came before the first turn is a group without one.
 * @param {LogLine[]} lines
 * @returns {{key: number, head: LogLine | null, seat: number | undefined, lines: LogLine[]}[]}
 */
export function logGroups(lines) {
  /** @type {{key: number, head: LogLine | null, seat: number | undefined, lines: LogLine[]}[]} */
  const groups = [];
  for (const l of lines) {
    if (l.kind === 'turn') groups.push({ key: l.key, head: l, seat: l.seat, lines: [] });
    else if (groups.length) groups[groups.length - 1].lines.push(l);
    else groups.push({ key: -1, head: null, seat: undefined, lines: [l] });
  }
  return groups;
}

/** @typedef {'all' | 'me' | 'turn'} LogFilter */

/**
 * The groups a filter keeps: every one; the viewer's own lines (under their turns'
 * headings, with the game's start and end); or the turn in progress only.
 * @param {ReturnType<typeof logGroups>} groups @param {LogFilter} filter @param {number | null} seat
 */
export function filterGroups(groups, filter, seat) {
  if (filter === 'turn') return groups.slice(-1);
  if (filter !== 'me' || seat == null) return groups;
  return groups
    .map((g) => ({ ...g, lines: g.lines.filter((l) => l.seat === seat || l.kind === 'start' || l.kind === 'end') }))
    .filter((g) => g.lines.length || g.seat === seat);
}

/**
 * The log's lines as turn groups, each headed by whose turn it is (the heading stays in
 * sight while its turn's lines scroll under it), oldest first.
 * @param {import('./store.js').State} s @param {LogLine[]} lines @param {LogFilter} filter
 * @param {(l: LogLine) => any[]} [cls]  extra classes of a line
 */
export function logBody(s, lines, filter, cls = () => []) {
  const groups = filterGroups(logGroups(lines), filter, s.spectating ? null : s.seat);
  if (!groups.length) return h('p', { class: 'muted log-empty' }, t('log.empty'));
  const seat = s.seat;
  const mine = (/** @type {{seat: number | undefined}} */ g) => g.seat != null && g.seat === seat && !s.spectating;
  // Each turn and each line is rebuilt only when it changed (`memo`): a new line, a new
  // turn, another class. A line object stays the same while its words do (`logLines`).
  return groups.map((g) => {
    const classes = g.lines.map((l) => cx('log-line', `lk-${l.kind}`, l.seat === seat && 'mine', ...cls(l)));
    return memo('section', `g${g.key}`, [g.head, mine(g), ...g.lines, ...classes], () =>
      h(
        'section',
        { class: ['log-turn', mine(g) && 'mine'], 'aria-label': g.head ? g.head.parts.map((p) => (p instanceof Node ? p.textContent : p)).join('') : null },
        g.head ? h('h3', { class: 'log-turn-head', 'data-seat': g.seat }, g.head.parts) : null,
        g.lines.length
          ? h(
              'ol',
              { class: 'log-group' },
              g.lines.map((l, i) => memo('li', l.key, [l, classes[i]], () => h('li', { class: classes[i] }, l.parts))),
            )
          : null,
      ),
    );
  });
}

/**
 * The filter: everyone's lines, the viewer's own (not for spectators), or this turn's.
 * @param {LogFilter} filter @param {(f: LogFilter) => void} set @param {boolean} seated
 */
export function logFilter(filter, set, seated) {
  /** @type {LogFilter[]} */
  const options = seated ? ['all', 'me', 'turn'] : ['all', 'turn'];
  return h(
    'div',
    { class: 'log-filter', role: 'group', 'aria-label': t('log.filter') },
    options.map((f) =>
      h(
        'button',
        {
          type: 'button',
          key: f,
          class: ['btn', 'small', 'toggle', filter === f && 'pressed'],
          'aria-pressed': String(filter === f),
          'data-testid': `log-filter-${f}`,
          onclick: () => set(f),
        },
        t(`log.filter_${f}`),
      ),
    ),
  );
}

/**
 * The button that shows the whole log, when lines are hidden (a spectator's or reloaded
 * page's log reaches back to the start of the game once its history has come).
 * @param {import('./store.js').State} s
 */
export function earlierLines(s) {
  if (s.logAll) return null;
  const hidden = logLines(s, Infinity).length - SHOWN;
  if (hidden <= 0) return null;
  return h(
    'button',
    {
      type: 'button',
      class: 'btn link log-earlier',
      'data-testid': 'log-earlier',
      onclick: () => update((st) => {
        st.logAll = true;
      }),
    },
    t('log.show_earlier', { n: hidden }),
  );
}
