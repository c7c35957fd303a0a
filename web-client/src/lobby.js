// The lobby: your name, the rooms (refreshed every few seconds), and a form to create
// a room (seats and bots, edition, kingdom, time per decision).
import { accountField, accountLine, accountName } from './account.js';
import { matchPanel } from './automatch.js';
import { h } from './dom.js';
import { allCards, printedCost as cardCost, cardName, onlyEdition, setEdition, typeClass, typeLabel } from './cards.js';
import { has, t } from './i18n/index.js';
import { botAccountMark, botLabel, levelMark } from './names.js';
import { clearInvite, createRoom, keptSeats, quickPlay, resumeRoom, resumeStored, spectate, storedSeat, takeSeat } from './session.js';
import { state, update, notify } from './store.js';
import { typeMarks } from './cardview.js';
import { friendsPanel } from './friends.js';

const NAME_KEY = 'dominion.name';
const TIMERS = [0, 30, 60, 120, 300];

export function rememberedName() {
  try {
    return localStorage.getItem(NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

/** @param {string} name */
function setName(name) {
  update((s) => {
    s.name = name;
  });
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    /* ignore */
  }
}

/** The name to join with, or null (and a notice) when it is missing. */
function nameOrAsk() {
  const account = accountName();
  if (account) return account;
  const name = state.name.trim();
  if (name.length >= 1 && name.length <= 32) return name;
  update((s) => {
    notify(s, t(name ? 'err.invalid_name' : 'lobby.name_needed'));
  });
  document.getElementById('name-input')?.focus();
  return null;
}

/** "base_2e/first_game" → "Base 2E", "base_intrigue_1e/…" → "Base + Intrigue 1E" @param {string} id */
function kingdomGroup(id) {
  const parts = (id.split('/')[0] ?? '').split('_');
  const sets = parts.filter((p) => !/^\de$/.test(p)).map((p) => t(`set.${p}`));
  const editions = parts.filter((p) => /^\de$/.test(p)).map((p) => p.toUpperCase());
  return [sets.join(' + '), ...editions].join(' ');
}

/** "Base + Intrigue" @param {string[]} sets */
function setsLabel(sets) {
  return sets.map((s) => t(`set.${s}`)).join(' + ');
}

/**
 * A recommended kingdom's name in the UI language ("Első játék"; a 1E one "Kezdőknek"), with "(1E)" where the
 * server's English name has it; the server's name for a kingdom the client does not know.
 * @param {{id: string, name: string}} k
 */
export function kingdomName(k) {
  const name = k.id.split('/').pop();
  // First-edition kingdoms carry the name their edition's rulebook prints (the Hungarian
  // 1E rulebooks name them otherwise than the 2E one).
  const first = `kingdom.1e.${name}`;
  const key = /_1e\//.test(k.id) && has(first) ? first : `kingdom.${name}`;
  if (!has(key)) return k.name;
  return /\(1E\)$/.test(k.name) ? `${t(key)} (1E)` : t(key);
}

/** @param {{id: string, name: string}} k */
export function kingdomLabel(k) {
  return `${kingdomGroup(k.id)}: ${kingdomName(k)}`;
}

/**
 * A room's name: the one it was given, else composed here in the viewer's language from
 * its host and kingdom ("Anna — Első játék"), as the server does in English.
 * @param {import('./types.js').RoomSummary} room
 */
export function roomName(room) {
  if (room.settings.name) return room.settings.name;
  const host = room.host != null ? room.seats.find((x) => x.seat === room.host)?.occupant : null;
  const k = room.settings.kingdom;
  let kingdom;
  if (k.type === 'recommended') {
    const known = state.meta.kingdoms.find((x) => x.id === k.id || x.name === k.id);
    kingdom = known ? kingdomName(known) : null;
  } else if (k.type === 'random') {
    kingdom = t('room.kingdom_random');
  } else {
    const names = k.cards.map((c) => cardName(c, room.settings.edition ?? '2e'));
    kingdom = names.length > 3 ? `${names.slice(0, 3).join(', ')}, …` : names.join(', ');
  }
  if (!kingdom) return room.name;
  return host?.type === 'human' ? `${host.name} — ${kingdom}` : kingdom;
}

/**
 * Kingdom cards that are implemented, of either edition: a hand-picked kingdom may mix
 * cards printed in one edition only (the room's edition picks the text of the others).
 * @param {'1e' | '2e'} edition  whose names to sort by
 */
function pickable(edition) {
  const data = allCards();
  return state.meta.cards
    .filter((k) => data[k] && data[k].set !== 'basic')
    .sort((a, b) => cardCost(a) - cardCost(b) || cardName(a, edition).localeCompare(cardName(b, edition)));
}

/**
 * Kingdoms grouped by set and edition, in the server's order.
 * @param {{id: string, name: string, cards: string[]}[]} ks
 * @returns {[string, {id: string, name: string, cards: string[]}[]][]}
 */
function groups(ks) {
  /** @type {Map<string, {id: string, name: string, cards: string[]}[]>} */
  const out = new Map();
  for (const k of ks) {
    const g = kingdomGroup(k.id);
    out.set(g, [...(out.get(g) ?? []), k]);
  }
  return [...out];
}

/** Recommended kingdoms whose every card is implemented. */
function kingdoms() {
  const have = new Set(state.meta.cards);
  return state.meta.kingdoms.filter((k) => k.cards.every((c) => have.has(c)));
}

export function defaultCreateForm() {
  return {
    name: '',
    players: 2,
    // The card-aware level; main.js falls back to Big Money on a server without levels.
    seats: ['', 'standard', 'standard', 'standard', 'standard', 'standard'],
    edition: /** @type {'1e' | '2e'} */ ('2e'),
    /** The random kingdom's pool; null follows the edition. */
    pool: /** @type {import('./types.js').CardPool | null} */ (null),
    /** The one set a random kingdom draws from; '' for every set. */
    sets: /** @type {import('./types.js').CardSet | ''} */ (''),
    mode: /** @type {'recommended' | 'random' | 'pick'} */ ('recommended'),
    recommended: 'base_2e/first_game',
    picked: /** @type {string[]} */ ([]),
    search: '',
    setFilter: '',
    costFilter: '',
    timer: 0,
    spectatorChat: false,
    rated: false,
  };
}

/** @param {(f: import('./store.js').CreateForm) => void} fn */
function form(fn) {
  update((s) => fn(s.create));
}

function nameField() {
  // Signed in, the seat takes the account's name: no box to type one in.
  const account = accountField();
  if (account) return account;
  return h(
    'div',
    { class: 'field name-field' },
    h('label', { for: 'name-input' }, t('lobby.name')),
    h('input', {
      id: 'name-input',
      'data-testid': 'name-input',
      type: 'text',
      maxlength: 32,
      autocomplete: 'nickname',
      'aria-describedby': 'name-hint',
      value: state.name,
      oninput: (/** @type {any} */ e) => setName(e.target.value),
    }),
    h('small', { id: 'name-hint', class: 'hint' }, t('lobby.name_hint')),
    accountLine(),
  );
}

/** @param {import('./types.js').RoomSummary} room */
function kingdomSummary(room) {
  const k = room.settings.kingdom;
  if (k.type === 'recommended') {
    const known = state.meta.kingdoms.find((x) => x.id === k.id);
    return known ? kingdomLabel(known) : k.id;
  }
  if (k.type === 'random') {
    const parts = [k.pool ? t(`create.pool_${k.pool}`) : '', k.sets ? setsLabel(k.sets) : ''].filter(Boolean);
    return parts.length ? `${t('room.kingdom_random')} (${parts.join('; ')})` : t('room.kingdom_random');
  }
  return t('room.kingdom_cards');
}

/** @param {import('./types.js').RoomSummary} room */
function roomItem(room) {
  const isMine = !!keptSeats()[room.id];
  const open = room.status === 'lobby';
  const seats = room.seats.map((seat) => {
    const o = seat.occupant;
    let label;
    let action = null;
    if (o.type === 'empty') {
      label = h('span', { class: 'muted' }, t('room.empty_seat'));
      if (open && !isMine) {
        action = h(
          'button',
          {
            type: 'button',
            class: 'btn small',
            'data-testid': `join-${room.id}-${seat.seat}`,
            onclick: () => {
              const name = nameOrAsk();
              if (name) takeSeat(room.id, seat.seat, name);
            },
          },
          t('room.take_seat', { n: seat.seat + 1 }),
        );
      }
    } else if (o.type === 'bot') {
      label = h('span', { class: 'bot' }, '⚙ ', botLabel(o.bot));
    } else {
      label = h(
        'span',
        {},
        o.name,
        botAccountMark(o),
        levelMark(o),
        !o.connected ? h('span', { class: 'muted' }, ` (${t('room.offline')})`) : null,
        o.bot_playing ? h('span', { class: 'muted' }, ` (${t('room.bot_playing')})`) : null,
      );
    }
    return h('li', { key: seat.seat }, h('span', { class: 'seat-no' }, `${seat.seat + 1}.`), ' ', label, ' ', action);
  });
  return h(
    'li',
    { key: room.id, class: ['room', `room-${room.status}`], 'data-testid': `room-${room.id}` },
    h(
      'div',
      { class: 'room-head' },
      h('strong', { class: 'room-name' }, roomName(room)),
      h('span', { class: ['badge', `st-${room.status}`] }, t(`room.status.${room.status}`)),
    ),
    h(
      'div',
      { class: 'room-meta' },
      [
        t(`edition.${room.settings.edition ?? '2e'}`),
        kingdomSummary(room),
        room.settings.decision_seconds ? t('room.timer', { n: room.settings.decision_seconds }) : null,
        room.spectators ? t('room.spectators', { n: room.spectators }) : null,
      ]
        .filter(Boolean)
        .join(' · '),
    ),
    h('ul', { class: 'seat-list' }, seats),
    h(
      'div',
      { class: 'room-actions' },
      isMine
        ? h('button', { type: 'button', class: 'btn primary small', 'data-testid': `resume-${room.id}`, onclick: () => resumeRoom(room.id) }, t('lobby.resume'))
        : null,
      room.status !== 'broken'
        ? h('button', { type: 'button', class: 'btn small', 'data-testid': `watch-${room.id}`, onclick: () => spectate(room.id) }, t('room.watch'))
        : null,
    ),
  );
}

function roomList() {
  // Finished games are under "Recent games"; a broken room can only be looked at.
  const rooms = state.rooms.filter((r) => r.status === 'lobby' || r.status === 'playing').sort((a, b) => order(a) - order(b));
  return h(
    'section',
    { class: 'panel rooms', 'aria-labelledby': 'rooms-h' },
    h('h2', { id: 'rooms-h' }, t('lobby.rooms')),
    rooms.length
      ? h('ul', { class: 'room-list', 'data-testid': 'room-list', 'aria-live': 'polite' }, rooms.map(roomItem))
      : h('p', { class: 'muted', 'data-testid': 'no-rooms' }, t('lobby.no_rooms')),
  );
}

/** The games this browser holds a seat in that are not over: each can be resumed. */
function unfinishedGames() {
  const kept = keptSeats();
  const rooms = state.rooms.filter((r) => kept[r.id] && (r.status === 'lobby' || r.status === 'playing'));
  if (!rooms.length) return null;
  return h(
    'section',
    { class: 'panel unfinished', 'data-testid': 'unfinished', 'aria-labelledby': 'unfinished-h' },
    h('h2', { id: 'unfinished-h' }, t('lobby.unfinished')),
    h(
      'ul',
      { class: 'unfinished-list' },
      rooms.map((r) =>
        h(
          'li',
          { key: r.id, 'data-testid': `unfinished-${r.id}` },
          h('strong', {}, roomName(r)),
          ' ',
          h('span', { class: ['badge', `st-${r.status}`] }, t(`room.status.${r.status}`)),
          ' ',
          h('button', { type: 'button', class: 'btn primary small', 'data-testid': `resume-game-${r.id}`, onclick: () => resumeRoom(r.id) }, t('lobby.resume_game')),
        ),
      ),
    ),
  );
}

/** @param {import('./types.js').RecordSeat | undefined} seat @param {number} n */
function playerName(seat, n) {
  if (!seat) return t('common.seat', { n: n + 1 });
  return seat.bot ? botLabel(seat.bot) : seat.name;
}

/** Whether `g` is one of this person's games: a seat with their name (not a bot). @param {import('./types.js').GameSummary} g */
function isMine(g) {
  const name = accountName() ?? state.name.trim();
  return Boolean(name) && (g.seats ?? []).some((x) => !x.bot && x.name === name);
}

/** One recent game: when, its players with scores, its kingdom, and its replay. @param {import('./types.js').GameSummary} g */
function recentGame(g) {
  const kingdom = g.setup.kingdom.type === 'cards' ? g.setup.kingdom.cards : [];
  const scores = [...(g.scores ?? [])].sort((a, b) => b.vp - a.vp || a.turns - b.turns);
  const seats = g.seats ?? [];
  const players = scores.length
    ? scores.map((sc) =>
        h(
          'li',
          { key: sc.seat, class: [sc.winner && 'winner'] },
          sc.winner ? '★ ' : '',
          playerName(seats.find((x) => x.seat === sc.seat), sc.seat),
          ' ',
          h('strong', {}, String(sc.vp)),
        ),
      )
    : seats.map((x) => h('li', { key: x.seat }, playerName(x, x.seat)));
  return h(
    'li',
    { key: g.room, class: 'recent-game', 'data-testid': `recent-${g.room}` },
    h(
      'div',
      { class: 'room-head' },
      h('time', { class: 'muted', datetime: new Date(g.finished_at * 1000).toISOString() }, new Date(g.finished_at * 1000).toLocaleString(document.documentElement.lang)),
      g.outcome === 'abandoned' ? h('span', { class: 'badge' }, t('lobby.abandoned')) : null,
      h('a', { class: 'btn small', href: `/replay/${encodeURIComponent(g.room)}`, 'data-testid': `replay-${g.room}` }, t('lobby.replay')),
    ),
    h('ul', { class: 'recent-players' }, players),
    h('p', { class: 'room-meta' }, [t(`edition.${g.setup.edition}`), kingdom.map((c) => cardName(c, g.setup.edition)).join(', ')].join(' · ')),
  );
}

/** Recent ended games: this person's first, everyone else's folded away under a count. */
function recentGames() {
  const games = state.games;
  const mine = games.filter(isMine);
  const others = games.filter((g) => !isMine(g));
  return h(
    'section',
    { class: 'panel recent', 'data-testid': 'recent-games', 'aria-labelledby': 'recent-h' },
    h('h2', { id: 'recent-h' }, t('lobby.recent')),
    mine.length ? h('ul', { class: 'recent-list', 'data-testid': 'recent-mine' }, mine.map(recentGame)) : null,
    others.length
      ? h(
          'details',
          { class: 'recent-others', 'data-testid': 'recent-others' },
          h('summary', { 'data-testid': 'recent-others-toggle' }, t(mine.length ? 'lobby.recent_others' : 'lobby.recent_all', { n: others.length })),
          h('ul', { class: 'recent-list' }, others.map(recentGame)),
        )
      : null,
    games.length ? null : h('p', { class: 'muted', 'data-testid': 'no-recent' }, t('lobby.no_recent')),
  );
}

/** An invite link's room: take a free seat, or watch. */
function invitePanel() {
  const id = state.invite;
  if (!id || !state.roomsLoaded) return null;
  const room = state.rooms.find((r) => r.id === id);
  const dismiss = h('button', { type: 'button', class: 'btn small', 'data-testid': 'invite-dismiss', onclick: () => clearInvite() }, t('lobby.invite_dismiss'));
  if (!room || room.status === 'finished' || room.status === 'broken') {
    return h('div', { class: 'panel invite-offer', role: 'status', 'data-testid': 'invite-offer' }, h('p', {}, t('lobby.invite_gone')), dismiss);
  }
  const open = room.status === 'lobby' ? room.seats.find((x) => x.occupant.type === 'empty') : undefined;
  return h(
    'div',
    { class: 'panel invite-offer', role: 'status', 'data-testid': 'invite-offer' },
    h('p', {}, h('strong', {}, t('lobby.invited', { room: roomName(room) }))),
    open ? null : h('p', { class: 'muted' }, t('lobby.invite_full')),
    h(
      'div',
      { class: 'choice-row' },
      open
        ? h(
            'button',
            {
              type: 'button',
              class: 'btn primary',
              'data-testid': 'invite-take',
              onclick: async () => {
                const name = nameOrAsk();
                if (!name) return;
                // Any open seat: the list this offer was drawn from may be up to a poll
                // old, and the seat it showed open may have been taken since (the host's
                // own, if the list came between the room's creation and the host sitting
                // down): the server seats the guest in the first seat still open.
                await takeSeat(room.id, undefined, name);
              },
            },
            t('lobby.invite_take'),
          )
        : null,
      h(
        'button',
        {
          type: 'button',
          class: 'btn',
          'data-testid': 'invite-watch',
          onclick: async () => {
            await spectate(room.id);
          },
        },
        t('room.watch'),
      ),
      dismiss,
    ),
  );
}

/** @param {import('./types.js').RoomSummary} r */
function order(r) {
  return { lobby: 0, playing: 1, finished: 2, broken: 3 }[r.status] ?? 4;
}

function seatFields() {
  const f = state.create;
  const rows = [];
  for (let i = 0; i < f.players; i++) {
    if (i === 0) {
      rows.push(h('li', { key: 0 }, h('span', { class: 'seat-no' }, '1.'), ' ', h('strong', {}, t('create.seat_you'))));
      continue;
    }
    rows.push(
      h(
        'li',
        { key: i },
        h('label', { for: `seat-${i}`, class: 'seat-no' }, `${i + 1}.`),
        ' ',
        h(
          'select',
          {
            id: `seat-${i}`,
            'data-testid': `seat-select-${i}`,
            'aria-label': t('common.seat', { n: i + 1 }),
            value: f.seats[i],
            onchange: (/** @type {any} */ e) => form((c) => {
              c.seats[i] = e.target.value;
            }),
          },
          h('option', { value: '' }, t('create.seat_open')),
          botOptions(),
        ),
      ),
    );
  }
  return rows;
}

/** The bot choices of a seat: the levels first, then the reference bots in a group of
 * their own (all bots ungrouped from a server that names no levels). */
function botOptions() {
  const { bots, levels } = state.meta;
  const option = (/** @type {string} */ b) => h('option', { value: b }, botLabel(b));
  const shown = levels.filter((b) => bots.includes(b));
  if (!shown.length) return bots.map(option);
  return [
    h('optgroup', { label: t('create.bot_levels'), 'data-testid': 'bot-levels' }, shown.map(option)),
    h('optgroup', { label: t('create.reference_bots'), 'data-testid': 'reference-bots' }, bots.filter((b) => !shown.includes(b)).map(option)),
  ];
}

function pickList() {
  const f = state.create;
  const all = pickable(f.edition);
  const sets = [...new Set(all.map((k) => allCards()[k].set))];
  const costs = [...new Set(all.map(cardCost))].sort((a, b) => a - b);
  const q = f.search.trim().toLowerCase();
  const shown = all.filter(
    (k) =>
      (!f.setFilter || allCards()[k].set === f.setFilter) &&
      (f.costFilter === '' || String(cardCost(k)) === f.costFilter) &&
      (!q || cardName(k, f.edition).toLowerCase().includes(q) || (allCards()[k].names.en ?? '').toString().toLowerCase().includes(q)),
  );
  const picked = new Set(f.picked.filter((k) => all.includes(k)));
  return h(
    'fieldset',
    { class: 'pick', 'data-testid': 'pick-list' },
    h('legend', {}, t('create.kingdom_pick')),
    h(
      'div',
      { class: 'pick-filters' },
      h('input', {
        type: 'search',
        'data-testid': 'pick-search',
        'aria-label': t('create.search'),
        placeholder: t('create.search'),
        value: f.search,
        oninput: (/** @type {any} */ e) => form((c) => {
          c.search = e.target.value;
        }),
      }),
      h(
        'select',
        {
          'aria-label': t('create.filter_set'),
          'data-testid': 'pick-set',
          value: f.setFilter,
          onchange: (/** @type {any} */ e) => form((c) => {
            c.setFilter = e.target.value;
          }),
        },
        h('option', { value: '' }, t('create.all_sets')),
        sets.map((s) => h('option', { value: s }, t(`set.${s}`))),
      ),
      h(
        'select',
        {
          'aria-label': t('create.filter_cost'),
          'data-testid': 'pick-cost',
          value: f.costFilter,
          onchange: (/** @type {any} */ e) => form((c) => {
            c.costFilter = e.target.value;
          }),
        },
        h('option', { value: '' }, t('create.any_cost')),
        costs.map((c) => h('option', { value: String(c) }, `$${c}`)),
      ),
    ),
    h(
      'p',
      { class: ['pick-count', picked.size === 10 && 'ok'], 'aria-live': 'polite', 'data-testid': 'pick-count' },
      t('create.pick_count', { n: picked.size }),
      ' ',
      picked.size
        ? h('button', { type: 'button', class: 'btn link', onclick: () => form((c) => {
            c.picked = [];
          }) }, t('create.clear'))
        : null,
    ),
    shown.length
      ? h(
          'ul',
          { class: 'pick-cards' },
          shown.map((k) =>
            h(
              'li',
              { key: k },
              h(
                'label',
                { class: ['pick-card', typeClass(k)] },
                h('input', {
                  type: 'checkbox',
                  'data-testid': `pick-card-${k}`,
                  checked: picked.has(k),
                  disabled: !picked.has(k) && picked.size >= 10,
                  onchange: (/** @type {any} */ e) => form((c) => {
                    c.picked = e.target.checked ? [...c.picked.filter((x) => all.includes(x)), k] : c.picked.filter((x) => x !== k);
                  }),
                }),
                h('span', { class: 'pick-name' }, cardName(k, f.edition)),
                onlyEdition(k) ? h('span', { class: 'only-edition', 'data-testid': `only-${k}` }, t(`create.only_${onlyEdition(k)}`)) : null,
                h('span', { class: 'cost' }, `$${cardCost(k)}`),
                h('span', { class: 'type-label' }, `${typeMarks(k)} ${typeLabel(k)}`),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted' }, t('create.no_match')),
  );
}

/**
 * A random kingdom: from the chosen pool (the edition's until one is chosen) and the
 * chosen set, or every set the server has.
 * @param {import('./store.js').CreateForm} f
 * @returns {import('./types.js').KingdomChoice}
 */
function randomChoice(f) {
  const pool = f.pool ?? f.edition;
  const sets = f.sets ? [f.sets] : state.meta.sets;
  return sets.length ? { type: 'random', pool, sets } : { type: 'random', pool };
}

/** Whether the room asked for is rated: chosen, signed in, 2 to 4 seats. @param {import('./store.js').CreateForm} f */
function ratedChoice(f) {
  return f.rated && !!accountName() && f.players <= 4;
}

function createForm() {
  const f = state.create;
  const ks = kingdoms();
  const all = pickable(f.edition);
  const pickedOk = f.picked.filter((k) => all.includes(k)).length === 10;
  const canSubmit = state.conn === 'online' && (f.mode !== 'pick' || pickedOk) && (f.mode !== 'recommended' || ks.some((k) => k.id === f.recommended));
  const radio = (/** @type {string} */ group, /** @type {string} */ value, /** @type {string} */ label, /** @type {boolean} */ checked, /** @type {() => void} */ on) =>
    h(
      'label',
      { class: 'radio' },
      h('input', { type: 'radio', name: group, value, checked, 'data-testid': `${group}-${value}`, onchange: on }),
      ' ',
      label,
    );
  const submit = (/** @type {Event} */ e) => {
    e.preventDefault();
    const name = nameOrAsk();
    if (!name || !canSubmit) return;
    /** @type {import('./types.js').RoomSettings} */
    const settings = {
      kingdom:
        f.mode === 'recommended'
          ? { type: 'recommended', id: f.recommended }
          : f.mode === 'random'
            ? randomChoice(f)
            : { type: 'cards', cards: f.picked.filter((k) => all.includes(k)) },
      edition: f.edition,
      seats: f.seats.slice(0, f.players).map((b, i) => (i === 0 || !b ? { type: 'open' } : { type: 'bot', bot: b })),
    };
    if (f.name.trim()) settings.name = f.name.trim().slice(0, 64);
    if (f.timer > 0) settings.decision_seconds = f.timer;
    if (f.spectatorChat) settings.spectator_chat = true;
    if (ratedChoice(f)) settings.rated = true;
    createRoom(settings, name);
  };
  return h(
    'section',
    { class: 'panel create', 'aria-labelledby': 'create-h' },
    h('h2', { id: 'create-h' }, t('create.heading')),
    h(
      'form',
      { 'data-testid': 'create-form', onsubmit: submit, novalidate: true },
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'room-name' }, t('create.name')),
        h('input', {
          id: 'room-name',
          type: 'text',
          maxlength: 64,
          'data-testid': 'room-name-input',
          value: f.name,
          oninput: (/** @type {any} */ e) => form((c) => {
            c.name = e.target.value;
          }),
        }),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'players' }, t('create.players')),
        h(
          'select',
          {
            id: 'players',
            'data-testid': 'players-select',
            value: String(f.players),
            onchange: (/** @type {any} */ e) => form((c) => {
              c.players = Number(e.target.value);
            }),
          },
          [2, 3, 4, 5, 6].map((n) => h('option', { value: String(n) }, String(n))),
        ),
      ),
      h('ul', { class: 'seat-config' }, seatFields()),
      h(
        'fieldset',
        { class: 'field' },
        h('legend', {}, t('create.edition')),
        ['2e', '1e'].map((e) =>
          radio('edition', e, t(`edition.${e}`), f.edition === e, () => {
            setEdition(e);
            form((c) => {
              c.edition = /** @type {'1e' | '2e'} */ (e);
            });
          }),
        ),
        h('p', { class: 'note', 'data-testid': 'edition-note' }, t('create.edition_note')),
      ),
      h(
        'fieldset',
        { class: 'field' },
        h('legend', {}, t('create.kingdom')),
        radio('kingdom', 'recommended', t('create.kingdom_recommended'), f.mode === 'recommended', () => form((c) => {
          c.mode = 'recommended';
        })),
        radio('kingdom', 'random', t('create.kingdom_random'), f.mode === 'random', () => form((c) => {
          c.mode = 'random';
        })),
        radio('kingdom', 'pick', t('create.kingdom_pick'), f.mode === 'pick', () => form((c) => {
          c.mode = 'pick';
        })),
      ),
      f.mode === 'recommended'
        ? h(
            'div',
            { class: 'field' },
            h('label', { for: 'recommended' }, t('create.recommended_set')),
            h(
              'select',
              {
                id: 'recommended',
                'data-testid': 'recommended-select',
                value: f.recommended,
                onchange: (/** @type {any} */ e) => form((c) => {
                  c.recommended = e.target.value;
                }),
              },
              groups(ks).map(([group, list]) =>
                h('optgroup', { label: group }, list.map((k) => h('option', { value: k.id }, kingdomName(k)))),
              ),
            ),
            h('p', { class: 'hint kingdom-preview' }, (ks.find((k) => k.id === f.recommended)?.cards ?? []).map((c) => cardName(c, f.edition)).join(', ')),
          )
        : null,
      f.mode === 'random'
        ? h(
            'div',
            { class: 'field' },
            h('label', { for: 'pool' }, t('create.pool')),
            h(
              'select',
              {
                id: 'pool',
                'data-testid': 'pool-select',
                value: f.pool ?? f.edition,
                onchange: (/** @type {any} */ e) => form((c) => {
                  c.pool = e.target.value;
                }),
              },
              ['1e', '2e', 'both'].map((p) => h('option', { value: p }, t(`create.pool_${p}`))),
            ),
          )
        : null,
      f.mode === 'random' && state.meta.sets.length
        ? h(
            'div',
            { class: 'field' },
            h('label', { for: 'sets' }, t('create.sets')),
            h(
              'select',
              {
                id: 'sets',
                'data-testid': 'sets-select',
                value: f.sets,
                onchange: (/** @type {any} */ e) => form((c) => {
                  c.sets = e.target.value;
                }),
              },
              h('option', { value: '' }, setsLabel(state.meta.sets)),
              state.meta.sets.map((s) => h('option', { value: s }, t(`set.${s}`))),
            ),
          )
        : null,
      f.mode === 'pick' ? pickList() : null,
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'timer' }, t('create.timer')),
        h(
          'select',
          {
            id: 'timer',
            'data-testid': 'timer-select',
            value: String(f.timer),
            onchange: (/** @type {any} */ e) => form((c) => {
              c.timer = Number(e.target.value);
            }),
          },
          TIMERS.map((n) => h('option', { value: String(n) }, n ? t('create.timer_seconds', { n }) : t('create.timer_none'))),
        ),
      ),
      h(
        'label',
        { class: 'check field' },
        h('input', {
          type: 'checkbox',
          'data-testid': 'spectator-chat',
          checked: f.spectatorChat,
          onchange: (/** @type {any} */ e) => form((c) => {
            c.spectatorChat = e.target.checked;
          }),
        }),
        ' ',
        t('create.spectator_chat'),
      ),
      // A rated game: only a signed-in player may ask, and only for 2 to 4 seats (the
      // server rates it if every seat ends up a signed-in player's).
      accountName() && f.players <= 4
        ? h(
            'label',
            { class: 'check field' },
            h('input', {
              type: 'checkbox',
              'data-testid': 'create-rated',
              checked: f.rated,
              onchange: (/** @type {any} */ e) => form((c) => {
                c.rated = e.target.checked;
              }),
            }),
            ' ',
            t('create.rated'),
          )
        : null,
      f.mode === 'pick' && !pickedOk ? h('p', { class: 'hint' }, t('create.pick_need')) : null,
      h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'create-submit', disabled: !canSubmit }, t('create.submit')),
    ),
  );
}

export function lobbyView() {
  const mine = storedSeat();
  const mineRoom = mine ? state.rooms.find((r) => r.id === mine.room && r.status !== 'finished' && r.status !== 'broken') : null;
  return h(
    'div',
    { class: 'lobby', 'data-testid': 'lobby' },
    h('h1', { class: 'visually-hidden' }, t('lobby.heading')),
    h(
      'div',
      { class: 'panel you' },
      nameField(),
      h(
        'div',
        { class: 'lobby-actions' },
        mineRoom
          ? h('button', { type: 'button', class: 'btn primary', 'data-testid': 'resume-banner', onclick: () => resumeStored() }, `${t('lobby.resume')}: ${roomName(mineRoom)}`)
          : null,
        h(
          'button',
          {
            type: 'button',
            class: ['btn', !mineRoom && 'primary'],
            'data-testid': 'quick-play',
            title: t('lobby.play_hint'),
            disabled: state.conn !== 'online' || !state.meta.bots.length,
            onclick: () => {
              const name = nameOrAsk();
              const bot = ['standard', 'big_money'].find((b) => state.meta.bots.includes(b)) ?? state.meta.bots[0];
              if (name && bot) quickPlay(name, bot, state.create.edition);
            },
          },
          '▶ ',
          t('lobby.play'),
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'btn',
            'data-testid': 'create-open',
            'aria-controls': 'create-h',
            onclick: () => {
              const form = document.getElementById('create-h');
              form?.scrollIntoView({ block: 'start', behavior: 'smooth' });
              document.getElementById('room-name')?.focus({ preventScroll: true });
            },
          },
          '+ ',
          t('lobby.create'),
        ),
      ),
    ),
    matchPanel(),
    invitePanel(),
    friendsPanel(),
    unfinishedGames(),
    h('div', { class: 'lobby-grid' }, h('div', { class: 'lobby-col' }, roomList(), recentGames()), createForm()),
  );
}
