// Your card preferences, on your own profile page: up to 3 kingdom cards you ban (never
// in a random kingdom drawn for your automatch games) and up to 10 you dislike (left out
// while enough other cards remain). `GET`/`PUT /api/me/cards` (docs/protocol.md, "Card
// preferences and friends"); the lists are saved whole, and a refusal changes nothing.
import { api, errorText } from './account.js';
import { allCards, cardName, cardNameLang, printedCost } from './cards.js';
import { h } from './dom.js';
import { has, t } from './i18n/index.js';
import { state, update } from './store.js';

export const MAX_BANS = 3;
export const MAX_DISLIKES = 10;

/**
 * @typedef {object} PrefsState
 * @property {boolean} loaded
 * @property {string[]} bans
 * @property {string[]} dislikes
 * @property {boolean} dirty        changed since loaded or saved
 * @property {boolean} busy
 * @property {string | null} message
 * @property {boolean} ok
 */

/** @type {PrefsState} */
const P = { loaded: false, bans: [], dislikes: [], dirty: false, busy: false, message: null, ok: false };

/** @param {any} v @returns {string[]} */
function keys(v) {
  return Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
}

/** Loads your lists (on your own profile). */
export async function loadCardPrefs() {
  const r = await api('GET', '/api/me/cards');
  if (r.status === 200 && r.body) {
    P.bans = keys(r.body.bans);
    P.dislikes = keys(r.body.dislikes);
    P.loaded = true;
    P.dirty = false;
  }
  update();
}

async function save() {
  P.busy = true;
  update();
  const r = await api('PUT', '/api/me/cards', { bans: P.bans, dislikes: P.dislikes });
  P.busy = false;
  if (r.status === 200 && r.body) {
    P.bans = keys(r.body.bans);
    P.dislikes = keys(r.body.dislikes);
    P.dirty = false;
    P.ok = true;
    P.message = t('prefs.saved');
  } else {
    const code = r.body && typeof r.body.code === 'string' ? r.body.code : '';
    P.ok = false;
    P.message = has(`prefs.err.${code}`) ? t(`prefs.err.${code}`) : errorText(r);
  }
  update();
}

/** The kingdom cards one may choose, cheapest first, then by name in the UI language. */
function kingdomCards() {
  const data = allCards();
  const served = new Set(state.meta?.cards ?? []);
  return Object.keys(data)
    .filter((k) => data[k].set !== 'basic' && (!served.size || served.has(k)))
    .sort((a, b) => printedCost(a) - printedCost(b) || cardName(a).localeCompare(cardName(b)));
}

/** @param {'bans' | 'dislikes'} list @param {string} card */
function add(list, card) {
  const other = list === 'bans' ? 'dislikes' : 'bans';
  if (!card || P[list].includes(card)) return;
  P[other] = P[other].filter((c) => c !== card);
  P[list] = [...P[list], card];
  P.dirty = true;
  P.message = null;
  update();
}

/** @param {'bans' | 'dislikes'} list @param {string} card */
function remove(list, card) {
  P[list] = P[list].filter((c) => c !== card);
  P.dirty = true;
  P.message = null;
  update();
}

/**
 * One list: its cards (each with a remove button) and a select to add one.
 * @param {'bans' | 'dislikes'} list @param {number} max
 */
function listField(list, max) {
  const chosen = P[list];
  const full = chosen.length >= max;
  const id = `prefs-${list}`;
  return h(
    'div',
    { class: 'field prefs-list', 'data-testid': id, 'data-count': String(chosen.length) },
    h('span', { class: 'account-label', id: `${id}-h` }, t(list === 'bans' ? 'prefs.bans' : 'prefs.dislikes', { count: chosen.length, max })),
    chosen.length
      ? h(
          'ul',
          { class: 'chips prefs-chips', 'aria-labelledby': `${id}-h` },
          chosen.map((c) =>
            h(
              'li',
              { key: c, class: ['chip', `prefs-${list === 'bans' ? 'ban' : 'dislike'}`], 'data-testid': `${id}-${c}`, 'data-card': c },
              h('span', { lang: cardNameLang(c) }, cardName(c)),
              h('button', { type: 'button', class: 'btn link prefs-remove', 'data-testid': `${id}-remove-${c}`, 'aria-label': t('prefs.remove', { card: cardName(c) }), onclick: () => remove(list, c) }, '×'),
            ),
          ),
        )
      : h('p', { class: 'muted' }, t('prefs.none')),
    h(
      'select',
      {
        'data-testid': `${id}-add`,
        'aria-label': t(list === 'bans' ? 'prefs.add_ban' : 'prefs.add_dislike'),
        disabled: full || P.busy,
        value: '',
        onchange: (/** @type {any} */ e) => {
          const card = e.target.value;
          e.target.value = '';
          add(list, card);
        },
      },
      h('option', { value: '' }, t(list === 'bans' ? 'prefs.add_ban' : 'prefs.add_dislike')),
      // A card of the other list moves here when chosen.
      kingdomCards()
        .filter((c) => !chosen.includes(c))
        .map((c) => h('option', { value: c, lang: cardNameLang(c) }, `${cardName(c)} (${printedCost(c)})`)),
    ),
  );
}

/** The panel on your own profile. */
export function cardPrefsPanel() {
  return h(
    'section',
    { class: 'panel prefs', 'aria-labelledby': 'prefs-h', 'data-testid': 'profile-cards' },
    h('h2', { id: 'prefs-h' }, t('prefs.heading')),
    h('p', { class: 'hint' }, t('prefs.hint')),
    P.loaded
      ? [
          listField('bans', MAX_BANS),
          listField('dislikes', MAX_DISLIKES),
          P.message ? h('p', { class: P.ok ? 'form-ok' : 'form-error', role: P.ok ? 'status' : 'alert', 'data-testid': 'prefs-message' }, P.message) : null,
          h('button', { type: 'button', class: 'btn small primary', 'data-testid': 'prefs-save', disabled: !P.dirty || P.busy, onclick: () => save() }, t('prefs.save')),
        ]
      : h('p', { class: 'muted' }, t('app.loading')),
  );
}
