// Card data for display: names in four languages (Hungarian may differ by edition),
// cost, types and English text, from data/cards.json.
import { lang, t } from './i18n/index.js';

/**
 * @typedef {object} CardData
 * @property {string} set
 * @property {number} cost
 * @property {string[]} types
 * @property {string[]} editions
 * @property {string | Record<string, string>} text   by edition ("1e", "2e") where the printings differ
 * @property {Record<string, string | Record<string, string>>} names
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
  for (const l of [want, 'en']) {
    const n = names[l];
    if (typeof n === 'string') return n;
    if (n && typeof n === 'object') return n[ed] ?? n['2e'] ?? Object.values(n)[0];
  }
  return key;
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
 * The card's English text in edition `ed` (the game's or room's edition): only that
 * printing's text, for the cards whose texts differ.
 * @param {string} key @param {string} [ed]
 */
export function cardText(key, ed = edition) {
  const text = CARDS[key]?.text;
  if (text == null) return '';
  if (typeof text === 'string') return text;
  return text[ed] ?? text['2e'] ?? Object.values(text)[0] ?? '';
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
