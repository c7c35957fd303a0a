// The decision panel: one widget per prompt kind, each answerable by mouse, touch and
// keyboard. A confirm button stays disabled until the choice is legal.
import { h } from './dom.js';
import { cardCost, cardName, cardText, typeLabel } from './cards.js';
import { cardButton, cardChip } from './cardview.js';
import { t } from './i18n/index.js';
import { seatName } from './names.js';
import { answer } from './session.js';
import { busy, state, update } from './store.js';

/** @typedef {import('./types.js').DecisionRequest} DecisionRequest */
/** @typedef {import('./types.js').Prompt} Prompt */

/** "Choose up to 4." etc. @param {number} min @param {number} max @param {number} offered */
export function countText(min, max, offered) {
  if (min === max) return t('dec.count_exact', { n: min });
  if (min === 0 && max >= offered) return t('dec.count_any');
  if (min === 0) return t('dec.count_up_to', { n: max });
  return t('dec.count_range', { min, max });
}

/** @param {DecisionRequest} d */
function headline(d) {
  const p = d.prompt;
  const verb = t(`dec.purpose.${d.purpose}`);
  switch (p.kind) {
    case 'action_phase':
      return p.playable.length ? t('dec.action_phase') : t('dec.action_none');
    case 'buy_phase':
      return p.buyable.length || p.treasures.length ? t('dec.buy_phase') : t('dec.buy_none');
    case 'choose_cards':
      return d.purpose === 'react' ? t('dec.react') : t('dec.choose_cards', { verb });
    case 'choose_pile':
      return t('dec.choose_pile', { verb });
    case 'choose_modes':
      return t('dec.choose_modes');
    case 'order_cards':
      return t('dec.order');
    case 'yes_no':
      return t('dec.yes_no');
    case 'name_card':
      return t('dec.name_card');
    default:
      return '';
  }
}

/** The legal-count check for choose_cards / choose_modes. */
function selectionOk() {
  const d = state.decision;
  if (!d) return false;
  const p = d.prompt;
  if (p.kind !== 'choose_cards' && p.kind !== 'choose_modes') return false;
  const n = state.selected.length;
  return n >= p.min && n <= p.max;
}

/** @param {number} i */
function toggle(i) {
  const d = state.decision;
  if (!d || (d.prompt.kind !== 'choose_cards' && d.prompt.kind !== 'choose_modes')) return;
  const max = d.prompt.max;
  update((s) => {
    if (s.selected.includes(i)) s.selected = s.selected.filter((x) => x !== i);
    else if (max === 1) s.selected = [i];
    else if (s.selected.length < max) s.selected = [...s.selected, i];
  });
}

/** Sends the choice for choose_cards / choose_modes / order_cards / name_card. */
export function confirm() {
  const d = state.decision;
  if (!d || busy()) return;
  const p = d.prompt;
  if (p.kind === 'choose_cards' && selectionOk()) {
    answer({ type: 'cards', cards: [...state.selected].sort((a, b) => a - b).map((i) => p.options[i]) });
  } else if (p.kind === 'choose_modes' && selectionOk()) {
    answer({ type: 'modes', modes: [...state.selected].sort((a, b) => a - b).map((i) => p.options[i]) });
  } else if (p.kind === 'order_cards') {
    answer({ type: 'cards', cards: [...state.order] });
  } else if (p.kind === 'name_card' && state.named) {
    answer({ type: 'name', card: state.named });
  }
}

/** @param {string} label @param {boolean} enabled @param {string} [testid] */
function confirmButton(label, enabled, testid = 'confirm') {
  return h(
    'button',
    {
      type: 'button',
      class: 'btn primary',
      'data-testid': testid,
      disabled: !enabled || busy(),
      'aria-keyshortcuts': 'Enter',
      onclick: confirm,
    },
    label,
  );
}

/** @param {DecisionRequest} d @param {Prompt & {kind: 'choose_cards'}} p */
function chooseCards(d, p) {
  if (d.purpose === 'react') {
    const distinct = [...new Set(p.options)];
    return [
      h(
        'div',
        { class: 'choice-row' },
        distinct.map((c) =>
          h(
            'button',
            {
              type: 'button',
              class: 'btn primary',
              'data-testid': `react-${c}`,
              disabled: busy(),
              onclick: () => answer({ type: 'cards', cards: [c] }),
            },
            `${t('dec.purpose.react')}: ${cardName(c)}`.replace(/^./, (x) => x.toUpperCase()),
          ),
        ),
        p.min === 0
          ? h(
              'button',
              { type: 'button', class: 'btn', 'data-testid': 'react-none', disabled: busy(), onclick: () => answer({ type: 'cards', cards: [] }) },
              t('common.no'),
            )
          : null,
      ),
    ];
  }
  const n = state.selected.length;
  return [
    h('p', { class: 'dec-count', 'data-testid': 'decision-count' }, countText(p.min, p.max, p.options.length), ' ', h('span', { class: 'muted' }, `(${t(`dec.from.${p.zone}`)})`)),
    h(
      'div',
      { class: 'choice-cards', role: 'group', 'aria-label': headline(d) },
      p.options.map((c, i) =>
        cardButton(c, {
          testid: `option-${i}`,
          dkey: `${d.decision}-${i}`,
          enabled: !busy(),
          pressed: state.selected.includes(i),
          onClick: () => toggle(i),
        }),
      ),
    ),
    h(
      'div',
      { class: 'choice-row' },
      h('span', { class: 'selected-count', 'aria-live': 'polite' }, n ? t('dec.selected', { n }) : t('dec.none_selected')),
      confirmButton(t('common.confirm'), selectionOk()),
    ),
  ];
}

/** @param {Prompt & {kind: 'choose_pile'}} p */
function choosePile(p) {
  return [
    h(
      'div',
      { class: 'choice-cards' },
      p.options.map((c, i) =>
        cardButton(c, {
          testid: `pile-option-${c}`,
          dkey: `pile-${i}`,
          enabled: !busy(),
          onClick: () => answer({ type: 'pile', card: c }),
        }),
      ),
    ),
    p.optional
      ? h('div', { class: 'choice-row' }, h('button', { type: 'button', class: 'btn', 'data-testid': 'pile-none', disabled: busy(), onclick: () => answer({ type: 'pile', card: null }) }, t('dec.pile_none')))
      : null,
  ];
}

/** @param {Prompt & {kind: 'choose_modes'}} p */
function chooseModes(p) {
  return [
    h('p', { class: 'dec-count' }, countText(p.min, p.max, p.options.length)),
    h(
      'div',
      { class: 'choice-row', role: 'group' },
      p.options.map((m, i) =>
        h(
          'button',
          {
            type: 'button',
            class: ['btn', 'toggle', state.selected.includes(i) && 'pressed'],
            'aria-pressed': String(state.selected.includes(i)),
            'data-testid': `mode-${m}`,
            onclick: () => toggle(i),
          },
          t(`mode.${m}`),
        ),
      ),
    ),
    h('div', { class: 'choice-row' }, confirmButton(t('common.confirm'), selectionOk())),
  ];
}

function orderCards() {
  const order = state.order;
  /** @param {number} i @param {number} j */
  const swap = (i, j) => update((s) => {
    const o = [...s.order];
    [o[i], o[j]] = [o[j], o[i]];
    s.order = o;
  });
  return [
    h(
      'ol',
      { class: 'order-list', 'data-testid': 'order-list' },
      order.map((c, i) =>
        h(
          'li',
          { key: `${i}` },
          cardChip(c),
          i === 0 ? h('span', { class: 'muted' }, ` (${t('dec.top')})`) : null,
          h(
            'span',
            { class: 'order-buttons' },
            h('button', { type: 'button', class: 'btn small', 'data-testid': `order-up-${i}`, 'aria-label': t('dec.move_up', { card: cardName(c) }), disabled: i === 0, onclick: () => swap(i, i - 1) }, '↑'),
            h('button', { type: 'button', class: 'btn small', 'data-testid': `order-down-${i}`, 'aria-label': t('dec.move_down', { card: cardName(c) }), disabled: i === order.length - 1, onclick: () => swap(i, i + 1) }, '↓'),
          ),
        ),
      ),
    ),
    h('div', { class: 'choice-row' }, confirmButton(t('common.confirm'), true)),
  ];
}

function yesNo() {
  return [
    h(
      'div',
      { class: 'choice-row' },
      h('button', { type: 'button', class: 'btn primary', 'data-testid': 'yes', disabled: busy(), onclick: () => answer({ type: 'yes_no', yes: true }) }, t('common.yes')),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'no', disabled: busy(), onclick: () => answer({ type: 'yes_no', yes: false }) }, t('common.no')),
    ),
  ];
}

/** @param {Prompt & {kind: 'name_card'}} p */
function nameCard(p) {
  const sorted = [...p.options].sort((a, b) => cardName(a).localeCompare(cardName(b)));
  return [
    h(
      'div',
      { class: 'choice-row' },
      h(
        'select',
        {
          'data-testid': 'name-select',
          'aria-label': t('dec.name_card'),
          value: state.named,
          onchange: (/** @type {any} */ e) => update((s) => {
            s.named = e.target.value;
          }),
        },
        sorted.map((c) => h('option', { value: c }, `${cardName(c)} ($${cardCost(c)}, ${typeLabel(c)})`)),
      ),
      confirmButton(t('common.confirm'), Boolean(state.named)),
    ),
  ];
}

/** The phase buttons (Play all Treasures, End phase) for action and buy phases. @param {DecisionRequest} d */
function phaseButtons(d) {
  const p = d.prompt;
  if (p.kind === 'action_phase') {
    return h(
      'div',
      { class: 'choice-row' },
      h('button', { type: 'button', class: ['btn', !p.playable.length && 'primary'], 'data-testid': 'end-phase', disabled: busy(), 'aria-keyshortcuts': 'E', onclick: () => answer({ type: 'end_phase' }) }, t('dec.end_actions')),
    );
  }
  if (p.kind === 'buy_phase') {
    return h(
      'div',
      { class: 'choice-row' },
      h(
        'button',
        { type: 'button', class: ['btn', p.treasures.length && 'primary'], 'data-testid': 'play-all', disabled: !p.treasures.length || busy(), 'aria-keyshortcuts': 'T', onclick: () => answer({ type: 'play_all_treasures' }) },
        t('dec.play_all'),
      ),
      h('button', { type: 'button', class: ['btn', !p.treasures.length && !p.buyable.length && 'primary'], 'data-testid': 'end-phase', disabled: busy(), 'aria-keyshortcuts': 'E', onclick: () => answer({ type: 'end_phase' }) }, t('dec.end_turn')),
    );
  }
  return null;
}

/** Seconds left before the server answers for this seat, or null. */
export function secondsLeft() {
  const d = state.decision;
  if (!d || d.deadline_ms == null) return null;
  return Math.max(0, Math.ceil((state.decisionAt + d.deadline_ms - Date.now()) / 1000));
}

/** The decision panel for the viewer, or a "waiting for …" line. */
export function decisionPanel() {
  const v = state.view;
  const d = state.decision;
  if (!v || v.game_over) return null;
  if (!d) {
    const waiting = v.waiting_for;
    return h(
      'section',
      { class: 'panel decision waiting', 'data-testid': 'decision-waiting', 'aria-live': 'polite' },
      state.spectating ? h('p', {}, t('table.spectating')) : null,
      waiting != null && waiting !== state.seat ? h('p', {}, t('table.waiting_for', { name: seatName(state, waiting) })) : null,
    );
  }
  const p = d.prompt;
  let body;
  switch (p.kind) {
    case 'choose_cards':
      body = chooseCards(d, p);
      break;
    case 'choose_pile':
      body = choosePile(p);
      break;
    case 'choose_modes':
      body = chooseModes(p);
      break;
    case 'order_cards':
      body = orderCards();
      break;
    case 'yes_no':
      body = yesNo();
      break;
    case 'name_card':
      body = nameCard(p);
      break;
    default:
      body = [phaseButtons(d)];
  }
  const left = secondsLeft();
  return h(
    'section',
    {
      class: ['panel', 'decision', `kind-${p.kind}`],
      'data-testid': 'decision',
      'data-kind': p.kind,
      'data-decision': d.decision,
      'data-purpose': d.purpose,
      'data-card': d.card,
      'data-min': 'min' in p ? p.min : null,
      'data-max': 'max' in p ? p.max : null,
      'aria-labelledby': 'decision-h',
    },
    h(
      'h2',
      { id: 'decision-h', class: 'dec-head', 'data-testid': 'decision-prompt', 'aria-live': 'polite' },
      d.card ? h('span', { class: 'dec-card' }, `${cardName(d.card)}: `) : null,
      headline(d),
    ),
    d.card && p.kind !== 'action_phase' && p.kind !== 'buy_phase'
      ? h('p', { class: 'dec-text', lang: 'en', 'data-testid': 'decision-card-text' }, cardText(d.card))
      : null,
    left != null ? h('p', { class: ['deadline', left <= 10 && 'urgent'], 'data-testid': 'deadline', role: 'timer' }, '◷ ', t('dec.deadline', { s: left })) : null,
    body,
    state.sending ? h('p', { class: 'muted' }, t('dec.sending')) : null,
  );
}
