// UI strings in four languages, the chosen language (remembered; the browser's by
// default), and `t()` to look a string up with parameters and plural forms.
import en from './en.js';
import hu from './hu.js';
import ru from './ru.js';
import sv from './sv.js';

/** @typedef {'en' | 'hu' | 'ru' | 'sv'} Lang */

/** Each language under its own name, for the picker. */
export const LANGUAGES = /** @type {const} */ ([
  { code: 'en', label: 'English' },
  { code: 'hu', label: 'Magyar' },
  { code: 'ru', label: 'Русский' },
  { code: 'sv', label: 'Svenska' },
]);

/** @type {Record<Lang, Record<string, string | Record<string, string>>>} */
export const STRINGS = { en, hu, ru, sv };

const STORAGE_KEY = 'dominion.lang';

/** The language to start in: the remembered one, else the browser's, else English. */
export function initialLang() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved && saved in STRINGS) return /** @type {Lang} */ (saved);
  } catch {
    /* storage may be unavailable */
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (base in STRINGS) return /** @type {Lang} */ (base);
  }
  return 'en';
}

/** @type {Lang} */
let current = 'en';

/** @param {Lang} lang @param {boolean} [remember] */
export function setLang(lang, remember = true) {
  current = lang in STRINGS ? lang : 'en';
  document.documentElement.lang = current;
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, current);
    } catch {
      /* ignore */
    }
  }
}

export function lang() {
  return current;
}

/**
 * The string `key` in the current language with `{param}`s filled in. A plural entry
 * picks its form by `params.n`.
 * @param {string} key @param {Record<string, any>} [params]
 */
export function t(key, params = {}) {
  return template(key, params.n).replace(/\{(\w+)\}/g, (m, name) =>
    name in params ? String(params[name]) : m,
  );
}

/** Whether `key` is a UI string (every language has the same keys). @param {string} key */
export function has(key) {
  return key in STRINGS.en;
}

/**
 * The raw string `key` (the plural form for `n`), with `{param}`s unfilled.
 * @param {string} key @param {number} [n]
 */
export function template(key, n = 0) {
  let entry = STRINGS[current][key] ?? STRINGS.en[key];
  if (entry === undefined) return key;
  if (typeof entry === 'object') {
    const form = new Intl.PluralRules(current).select(Number(n));
    entry = entry[form] ?? entry.other;
  }
  return entry;
}

/** A list in the current language: "A, B and C". @param {string[]} items */
export function list(items) {
  try {
    return new Intl.ListFormat(current, { style: 'long', type: 'conjunction' }).format(items);
  } catch {
    return items.join(', ');
  }
}
