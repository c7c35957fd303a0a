// How a card looks wherever it appears: its name, cost, a type colour AND a type label
// (colour is never the only signal), and its text in a details dialog.
import { h } from './dom.js';
import { cardCost, cardName, cardNameLang, cardText, cardTextIn, cardTypes, treasureValue, typeClass, typeLabel } from './cards.js';
import { lang, t } from './i18n/index.js';
import { state, update } from './store.js';

/** Short type marks shown on small cards, so types read without colour. */
const TYPE_MARK = { action: '◆', treasure: '$', victory: '♛', curse: '☠', attack: '⚔', reaction: '☂' };

/** @param {string} key */
export function typeMarks(key) {
  return cardTypes(key)
    .map((ty) => /** @type {Record<string, string>} */ (TYPE_MARK)[ty] ?? '')
    .join('');
}

/**
 * A Treasure's value, shown before its name (its cost is shown smaller): what a Copper
 * is for is its $1, not its $0 cost. Null for other cards.
 * @param {string} key
 */
export function valueBadge(key) {
  const n = treasureValue(key);
  if (!n) return null;
  return h('span', { class: 'tvalue', title: t('table.worth', { n }), 'aria-hidden': 'true' }, `$${n}`);
}

/**
 * The content of a control named by its content: `label` as screen readers read it, with
 * `nameNode` (the visible name) where the label names the card and the rest of the label
 * visually hidden around it, so that what is seen is what is said (voice control finds
 * the control by the name on it).
 * @param {string} label @param {string} name @param {Node} nameNode
 */
export function spokenAround(label, name, nameNode) {
  const i = label.indexOf(name);
  const hidden = (/** @type {string} */ text) => (text ? h('span', { class: 'visually-hidden' }, text) : null);
  if (i < 0) return [hidden(label), nameNode];
  return [hidden(label.slice(0, i)), nameNode, hidden(label.slice(i + name.length))];
}

/** The card name's `lang` when it is not the page's (an English name in a Swedish page). @param {string} key */
export function nameLang(key) {
  const l = cardNameLang(key);
  return l === lang() ? null : l;
}

/** @param {string | null} key */
export function setHover(key) {
  if (state.hover !== key) update((s) => {
    s.hover = key;
  });
}

/** @param {string} key */
export function showInfo(key) {
  update((s) => {
    s.info = key;
  });
}

/** The label of a card's ⓘ button. @param {string} key */
export function infoLabel(key) {
  return `${t('table.card_info')}: ${cardName(key)}`;
}

/** Whether the press now ending began on the card dialog's backdrop. */
let backdropPressed = false;

/** How long a press on a card lasts before it shows the card's text instead (touch). */
const LONG_PRESS_MS = 500;
/** The card whose long press showed its text: the click that ends the press is not a play. */
let longPressed = /** @type {EventTarget | null} */ (null);
let pressTimer = 0;

/**
 * A card as a button (hand, choices), drawn as a card face: cost, name, types and its
 * rules text (clamped where space is short), with an ⓘ button beside it that shows the
 * whole text without playing or choosing the card; a long press or right click on the
 * card does the same.
 * @param {string} key
 * @param {object} opts
 * @param {string} opts.testid
 * @param {string} [opts.dkey]       identity among siblings
 * @param {() => void} [opts.onClick]
 * @param {boolean} [opts.enabled]   clickable now (highlighted)
 * @param {boolean} [opts.pressed]   for toggles (aria-pressed)
 * @param {string} [opts.label]      accessible label override
 * @param {string} [opts.extra]      extra class
 * @param {number} [opts.count]      how many copies it stands for (shown from 2)
 * @param {string} [opts.hotkey]     the key that plays it (shown on the card)
 */
export function cardButton(key, { testid, dkey, onClick, enabled = false, pressed, label, extra, count, hotkey }) {
  const name = cardName(key);
  const copies = count && count > 1 ? count : 0;
  const info = () => showInfo(key);
  return h(
    'span',
    { key: dkey, class: ['card-slot', typeClass(key)] },
    h(
      'button',
      {
        type: 'button',
        class: ['card', typeClass(key), enabled && 'enabled', pressed && 'pressed', extra],
        'data-testid': testid,
        'data-card': key,
        'aria-pressed': pressed === undefined ? null : String(pressed),
        'aria-disabled': enabled ? null : 'true',
        'aria-keyshortcuts': hotkey ?? null,
        onclick: (/** @type {Event} */ e) => {
          if (longPressed === e.currentTarget) {
            longPressed = null;
            return;
          }
          if (enabled && onClick) onClick();
          else info();
        },
        oncontextmenu: (/** @type {Event} */ e) => {
          e.preventDefault();
          info();
        },
        onpointerdown: (/** @type {PointerEvent} */ e) => {
          clearTimeout(pressTimer);
          longPressed = null;
          if (e.pointerType === 'mouse') return;
          const target = e.currentTarget;
          pressTimer = window.setTimeout(() => {
            longPressed = target;
            info();
          }, LONG_PRESS_MS);
        },
        onpointerup: () => clearTimeout(pressTimer),
        onpointercancel: () => clearTimeout(pressTimer),
        onpointerleave: () => clearTimeout(pressTimer),
        onpointerenter: () => setHover(key),
        onfocus: () => setHover(key),
      },
      h(
        'span',
        { class: 'card-top' },
        h('span', { class: 'cost', 'aria-hidden': 'true' }, `$${cardCost(key)}`),
        // A small face (phone) shows a Treasure's value in the cost's place.
        treasureValue(key) ? h('span', { class: 'cost-value tvalue', 'aria-hidden': 'true' }, `$${treasureValue(key)}`) : null,
        // Named by its content: the name on the card, and what is not seen hidden around it.
        spokenAround(
          `${label ?? `${copies ? `${copies} × ` : ''}${name}`} — ${typeLabel(key)}, ${t('table.cost', { n: cardCost(key) })}`,
          name,
          h('span', { class: ['card-name', name.length >= 10 && 'long-name'], lang: nameLang(key) }, valueBadge(key), name),
        ),
      ),
      h(
        'span',
        { class: 'card-meta' },
        copies ? h('span', { class: 'copies', 'aria-hidden': 'true' }, `×${copies}`) : null,
        h('span', { class: 'type-label', 'aria-hidden': 'true' }, h('span', { class: 'type-marks' }, typeMarks(key)), ' ', h('span', { class: 'type-name' }, typeLabel(key))),
      ),
      h('span', { class: 'card-text', 'aria-hidden': 'true' }, cardText(key)),
      hotkey ? h('kbd', { class: 'hotkey', 'aria-hidden': 'true' }, hotkey) : null,
    ),
    h(
      'button',
      { type: 'button', class: 'card-info', 'data-testid': `info-${testid}`, 'aria-label': infoLabel(key), tabindex: -1, onclick: info },
      'i',
    ),
  );
}

/**
 * A small inert card chip (in play, discard top, deck lists).
 * @param {string} key @param {string} [dkey] @param {string} [extra]  an extra class
 */
export function cardChip(key, dkey, extra) {
  return h(
    'span',
    {
      key: dkey,
      class: ['chip', typeClass(key), extra],
      title: `${cardName(key)} — ${typeLabel(key)}`,
      'data-card': key,
      onpointerenter: () => setHover(key),
    },
    h('span', { class: 'chip-mark', 'aria-hidden': 'true' }, typeMarks(key)),
    ' ',
    cardName(key),
  );
}

/**
 * The card's rules text in the UI language and the game's edition, as a paragraph marked
 * with the language it is in.
 * @param {string} key @param {string} cls @param {Record<string, string>} [attrs]
 */
export function cardTextBlock(key, cls, attrs = {}) {
  const { text, lang: textLang } = cardTextIn(key, lang());
  return h('p', { class: cls, lang: textLang, ...attrs }, text);
}

/** The card text block (used by the hover panel and the dialog). @param {string} key */
export function cardDetails(key) {
  return h(
    'div',
    { class: ['card-details', typeClass(key)] },
    h('div', { class: 'cd-head' }, h('strong', { class: 'cd-name' }, cardName(key)), h('span', { class: 'cost' }, `$${cardCost(key)}`)),
    h('div', { class: 'cd-types' }, `${typeMarks(key)} ${typeLabel(key)}`),
    cardTextBlock(key, 'cd-text'),
  );
}

/** The modal dialog with one card's details, when one is asked for. */
export function infoDialog() {
  const key = state.info;
  if (!key) return null;
  const close = () => update((s) => {
    s.info = null;
  });
  // Opened by a long press, the dialog appears under the finger: lifting it must not
  // close it. A tap outside closes it only when it began outside (a press on the backdrop).
  return h(
    'div',
    {
      class: 'modal-backdrop',
      onpointerdown: (/** @type {Event} */ e) => {
        backdropPressed = e.target === e.currentTarget;
      },
      onclick: (/** @type {Event} */ e) => {
        if (e.target === e.currentTarget && backdropPressed) close();
        backdropPressed = false;
      },
    },
    h(
      'div',
      {
        class: 'modal',
        role: 'dialog',
        'aria-modal': 'true',
        'aria-label': t('table.card_info'),
        'data-testid': 'card-info',
        onkeydown: (/** @type {KeyboardEvent} */ e) => e.key === 'Escape' && close(),
      },
      cardDetails(key),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'card-info-close', 'data-autofocus': '', onclick: close }, t('common.close')),
    ),
  );
}
