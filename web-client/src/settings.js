// The settings dialog (⚙ in the header): the person's remembered choices about play.
import { h } from './dom.js';
import { askEndTurn, setAskEndTurn } from './buying.js';
import { t } from './i18n/index.js';
import { update } from './store.js';
import { autoTreasures, setAutoTreasures } from './table.js';

let open = false;

/** Shows or hides the settings. @param {boolean} [show] */
export function toggleSettings(show = !open) {
  open = show;
  update();
}

export function settingsShown() {
  return open;
}

/** The header's button that opens the settings. */
export function settingsButton() {
  return h(
    'button',
    { type: 'button', class: 'btn small settings-button', 'data-testid': 'settings-button', 'aria-haspopup': 'dialog', onclick: () => toggleSettings(true) },
    h('span', { 'aria-hidden': 'true' }, '⚙'),
    h('span', { class: 'settings-label' }, ` ${t('settings.button')}`),
  );
}

/** @param {string} testid @param {string} label @param {boolean} checked @param {(on: boolean) => void} set */
function check(testid, label, checked, set) {
  return h(
    'label',
    { class: 'check setting' },
    h('input', { type: 'checkbox', 'data-testid': testid, checked, onchange: (/** @type {any} */ e) => set(e.target.checked) }),
    ' ',
    label,
  );
}

export function settingsDialog() {
  if (!open) return null;
  const close = () => toggleSettings(false);
  return h(
    'div',
    { class: 'modal-backdrop', onclick: (/** @type {Event} */ e) => e.target === e.currentTarget && close() },
    h(
      'div',
      { class: 'modal settings', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'settings-h', 'data-testid': 'settings', onkeydown: (/** @type {KeyboardEvent} */ e) => e.key === 'Escape' && close() },
      h('h2', { id: 'settings-h' }, t('settings.title')),
      check('setting-ask-end-turn', t('settings.ask_end_turn'), askEndTurn(), setAskEndTurn),
      check('setting-autoplay', t('table.autoplay'), autoTreasures(), setAutoTreasures),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'settings-close', 'data-autofocus': '', onclick: close }, t('common.close')),
    ),
  );
}
