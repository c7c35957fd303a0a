// Card data for display: names and rules texts in four languages (either may differ by
// edition), cost and types, from data/cards.json.
import { lang, t } from './i18n/index.js';

/**
 * A name or text in one language: one string, or one per edition ("1e", "2e") where the
 * printings differ.
 * @typedef {string | Record<string, string>} ByEdition
 */

/**
 * @typedef {object} CardData
 * @property {string} set
 * @property {number} cost
 * @property {string[]} types
 * @property {string[]} editions
 * @property {Record<string, ByEdition>} texts   by language ("en", "hu", "ru", "sv")
 * @property {Record<string, ByEdition>} names   by language; English always, others where the rulebooks give one
 */

/** @type {Record<string, CardData>} */
let CARDS = {};

/** Loads the card data once. */
export async function loadCards() {
  const res = await fetch(new URL('../data/cards.json', import.meta.url));
  if (!res.ok) throw new Error(`cards.json: ${res.status}`);
  CARDS = (await res.json()).cards;
}

/** @param {string} key @returns {CardData | undefined} */
export function card(key) {
  return CARDS[key];
}

export function allCards() {
  return CARDS;
}

/** The edition whose names and texts are shown (set from the game, room or form being viewed). */
let edition = '2e';
/** @param {string} e */
export function setEdition(e) {
  edition = e === '1e' ? '1e' : '2e';
}
/** The edition shown now ("1e" or "2e"): what a cached rendering of names depends on. */
export function shownEdition() {
  return edition;
}

/**
 * The card's name in the current language, falling back to English (and to the id).
 * @param {string} key @param {string} [ed]
 */
export function cardName(key, ed = edition) {
  return cardNameIn(key, lang(), ed);
}

/**
 * The card's name in language `want`, falling back to English (and to the id).
 * @param {string} key @param {string} want @param {string} [ed]
 */
export function cardNameIn(key, want, ed = edition) {
  const names = CARDS[key]?.names;
  if (!names) return key.replace(/_/g, ' ');
  return inLang(names, want, ed)?.value ?? key;
}

/**
 * The language the card's name is shown in: the UI language, or English where the card
 * has no name in it (for the `lang` attribute, so words break by the right rules).
 * @param {string} key @param {string} [ed]
 */
export function cardNameLang(key, ed = edition) {
  const names = CARDS[key]?.names;
  return (names && inLang(names, lang(), ed)?.lang) ?? 'en';
}

/**
 * The entry of `byLang` for language `want` (else English) in edition `ed`, and the
 * language it is in.
 * @param {Record<string, ByEdition>} byLang @param {string} want @param {string} ed
 * @returns {{value: string, lang: string} | null}
 */
function inLang(byLang, want, ed) {
  for (const l of [want, 'en']) {
    const v = byLang[l];
    if (typeof v === 'string' && v) return { value: v, lang: l };
    if (v && typeof v === 'object') {
      const e = v[ed] ?? v['2e'] ?? Object.values(v)[0];
      if (e) return { value: e, lang: l };
    }
  }
  return null;
}

/**
 * What a Treasure gives when played, from its printed text ("$2"): 0 for other cards.
 * What other cards add (Merchant, Coppersmith) is not counted.
 * @param {string} key
 */
export function treasureValue(key) {
  if (!cardTypes(key).includes('treasure')) return 0;
  const en = CARDS[key]?.texts?.en;
  const text = typeof en === 'string' ? en : Object.values(en ?? {})[0] ?? '';
  const m = /^\$(\d+)/.exec(text);
  return m ? Number(m[1]) : 0;
}

/** The card's types, most telling first, for colour and label. @param {string} key */
export function cardTypes(key) {
  return CARDS[key]?.types ?? [];
}

/** "Action – Attack" in the current language. @param {string} key */
export function typeLabel(key) {
  return cardTypes(key)
    .map((ty) => t(`type.${ty}`))
    .join(' – ');
}

/** The CSS class naming the card's colour: its first type, except Reaction wins over Action. @param {string} key */
export function typeClass(key) {
  const types = cardTypes(key);
  if (types.includes('reaction')) return 'ty-reaction';
  if (types.includes('attack')) return 'ty-attack';
  if (types.includes('action')) return 'ty-action';
  if (types.includes('treasure') && types.includes('victory')) return 'ty-treasure-victory';
  return types.length ? `ty-${types[0]}` : 'ty-unknown';
}

/**
 * What each Supply card costs now in the game being viewed (Bridge lowers it during a
 * turn); empty outside a game. Widgets show these, so a choice "costing up to $4" lists
 * the costs it is judged by.
 * @type {Map<string, number>}
 */
let currentCosts = new Map();

/** Takes the current costs from a game view's Supply; `null` (leaving a game) clears them. @param {{card: string, cost: number}[] | null} supply */
export function setCurrentCosts(supply) {
  currentCosts = new Map((supply ?? []).map((p) => [p.card, p.cost]));
}

/** The printed cost (the lobby, card lists outside a game). @param {string} key */
export function printedCost(key) {
  return CARDS[key]?.cost ?? 0;
}

/** The cost now: the game's current cost for a Supply card, else the printed one. @param {string} key */
export function cardCost(key) {
  return currentCosts.get(key) ?? printedCost(key);
}

/**
 * The card's rules text in the current language (English where a language lacks one) for
 * edition `ed` (the game's or room's edition): only that printing's text, for the cards
 * whose texts differ.
 * @param {string} key @param {string} [ed]
 */
export function cardText(key, ed = edition) {
  return cardTextIn(key, lang(), ed).text;
}

/**
 * The card's rules text in language `want` for edition `ed`, and the language it is in
 * (for the `lang` attribute: English when `want` has none).
 * @param {string} key @param {string} want @param {string} [ed]
 * @returns {{text: string, lang: string}}
 */
export function cardTextIn(key, want, ed = edition) {
  const texts = CARDS[key]?.texts;
  const found = texts ? inLang(texts, want, ed) : null;
  return found ? { text: found.value, lang: found.lang } : { text: '', lang: want };
}

/** Whether the card was printed in only one edition: that edition ("1e" / "2e"), else null. @param {string} key */
export function onlyEdition(key) {
  const eds = CARDS[key]?.editions ?? [];
  return eds.length === 1 ? eds[0] : null;
}

/**
 * Groups repeated cards: ["copper","copper","estate"] → "2 × Copper, Estate" style list
 * entries, in first-seen order.
 * @param {string[]} keys @returns {string[]}
 */
export function groupedNames(keys) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].map(([k, n]) => (n > 1 ? `${n} × ${cardName(k)}` : cardName(k)));
}
