// The decision panel: one widget per prompt kind, each answerable by mouse, touch and
// keyboard. A confirm button stays disabled until the choice is legal.
import { h } from './dom.js';
import { cardCost, cardName, cardNameIn, cardTextIn, cardTypes, typeClass, typeLabel } from './cards.js';
import { cardButton, cardChip, cardTextBlock } from './cardview.js';
import { has, lang, t } from './i18n/index.js';
import { seatName } from './names.js';
import { answer } from './session.js';
import { busy, state, update } from './store.js';
import { askEndTurn, confirmingEnd, endPhase, keepPlaying, leftOver, setAskEndTurn } from './buying.js';

/** @typedef {import('./types.js').DecisionRequest} DecisionRequest */
/** @typedef {import('./types.js').Prompt} Prompt */

/**
 * "Choose a card.", "Choose up to 4." etc. Bounds that allow one card at most say so,
 * however many are offered.
 * @param {number} min @param {number} max @param {number} offered
 */
export function countText(min, max, offered) {
  if (max === 1) return t(min === 1 ? 'dec.count_one' : 'dec.count_up_to_one');
  if (min === max) return t('dec.count_exact', { n: min });
  if (min === 0 && max >= offered) return t('dec.count_any');
  if (min === 0) return t('dec.count_up_to', { n: max });
  return t('dec.count_range', { min, max });
}

/** The first of `keys` that has a string, else null. @param {string[]} keys */
function firstKey(keys) {
  return keys.find(has) ?? null;
}

/**
 * The card a choose_cards prompt is about when it is a "may" over one card (0..1 of
 * copies of one card): such a question reads as yes or no.
 * @param {DecisionRequest} d
 * @returns {string | null}
 */
function singleCard(d) {
  const p = d.prompt;
  if (p.kind !== 'choose_cards' || d.purpose === 'react') return null;
  if (p.min !== 0 || p.max !== 1 || !p.options.length) return null;
  return p.options.every((c) => c === p.options[0]) ? p.options[0] : null;
}

/** @param {DecisionRequest} d */
function aboutName(d) {
  return d.about != null && d.about !== state.seat ? seatName(state, d.about) : null;
}

/**
 * Who receives the card this seat passes (Masquerade), or null when the view cannot
 * tell. 1E: the player to the left. 2E: the next player to the left with cards in
 * hand; a neighbour holding none may only have chosen their own card already (the
 * engine may hold chosen cards out of the hand), so then the rule is said in words.
 */
function passTarget() {
  const v = state.view;
  if (!v || state.seat == null || v.seats.length < 2) return null;
  const left = v.seats[(state.seat + 1) % v.seats.length];
  return v.edition === '1e' || left.hand_count > 0 ? left.seat : null;
}

/**
 * Whether this seat already revealed a Reaction to the Attack now asking: scans the
 * events back to the Attack's play.
 * @param {DecisionRequest} d
 */
function reactedAlready(d) {
  const events = state.events;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    // Reactions are asked right after the Attack is played (or played again).
    if (e.type === 'played' || e.type === 'played_again' || e.type === 'turn_started') return false;
    if (e.type === 'revealed' && e.seat === state.seat && e.cards.every((c) => cardTypes(c).includes('reaction'))) return true;
  }
  return false;
}

/** The question a Reaction prompt asks: who attacks, and whether one was revealed already. @param {DecisionRequest} d */
function reactQuestion(d) {
  if (reactedAlready(d)) return t('dec.react_again');
  const attacker = state.view?.current;
  return attacker != null && attacker !== state.seat ? t('dec.react_by', { name: seatName(state, attacker) }) : t('dec.react');
}

/** The question a choose_cards prompt asks, in words. @param {DecisionRequest} d @param {Prompt & {kind: 'choose_cards'}} p */
function cardsQuestion(d, p) {
  if (d.purpose === 'react') return reactQuestion(d);
  if (d.purpose === 'pass') {
    const to = passTarget();
    return to != null ? t('dec.q.pass', { name: seatName(state, to) }) : t('dec.q.pass_left');
  }
  const name = aboutName(d);
  const zone = `${d.purpose}.${p.zone}`;
  const one = singleCard(d);
  if (one) {
    const key = firstKey([name ? `dec.one.${zone}_of` : '', `dec.one.${zone}`, `dec.one.${d.purpose}`].filter(Boolean));
    if (key) return t(key, { card: cardName(one), name });
  }
  const treasures = p.options.every((c) => cardTypes(c).includes('treasure'));
  const exactlyOne = p.min === 1 && p.max === 1;
  const key = firstKey(
    [
      name && treasures && exactlyOne ? `dec.q.${zone}_of` : '',
      !name && treasures && exactlyOne ? `dec.q.${zone}.treasure` : '',
      exactlyOne ? `dec.q.${zone}.one` : '',
      p.min === 0 && p.max === 1 ? `dec.q.${zone}.may` : '',
      p.min === 0 && p.max > 1 ? `dec.q.${zone}.any` : '',
    ].filter(Boolean),
  );
  if (key) return t(key, { name });
  return t(p.max === 1 ? 'dec.choose_card' : 'dec.choose_cards', { verb: t(`dec.purpose.${d.purpose}`) });
}

/** The question the decision asks, in words. @param {DecisionRequest} d */
function headline(d) {
  const p = d.prompt;
  const verb = t(`dec.purpose.${d.purpose}`);
  switch (p.kind) {
    case 'action_phase':
      return p.playable.length ? t('dec.action_phase') : t('dec.action_none');
    case 'buy_phase': {
      const left = confirmingEnd() ? leftOver() : null;
      if (left) return t('buy.end_with', { n: left.money });
      return p.buyable.length || p.treasures.length ? t('dec.buy_phase') : t('dec.buy_none');
    }
    case 'choose_cards':
      return cardsQuestion(d, p);
    case 'choose_pile': {
      const name = aboutName(d);
      if (name && has(`dec.choose_pile.${d.purpose}_of`)) return t(`dec.choose_pile.${d.purpose}_of`, { name });
      return t('dec.choose_pile', { verb });
    }
    case 'choose_modes':
      return modesQuestion(d, p);
    case 'order_cards':
      return d.purpose === 'top_deck' ? t('dec.order_back') : t('dec.order');
    case 'yes_no':
      return t(firstKey([`dec.yes_no.${d.purpose}`]) ?? 'dec.yes_no');
    case 'name_card':
      return t('dec.name_card');
    case 'choose_number':
      return numberQuestion(d, p);
    default:
      return '';
  }
}

/** "Choose one." / "Choose two different." and, when asked over another seat, who. @param {DecisionRequest} d @param {Prompt & {kind: 'choose_modes'}} p */
function modesQuestion(d, p) {
  const revealed = state.answered?.purpose === 'reveal' ? justChosen(d) : null;
  // Courtier: one choice per type of the card just revealed.
  if (revealed && p.min === p.max) return t('dec.modes_revealed', { card: cardName(revealed), n: p.min });
  const q = p.min === p.max ? t('dec.choose_modes_n', { n: p.min }) : t('dec.choose_modes_range', { min: p.min, max: p.max });
  const name = aboutName(d);
  if (!name) return q;
  // Torturer: the victim chooses, and the question names the attacker.
  const attack = d.card != null && cardTypes(d.card).includes('attack');
  return t(attack ? 'dec.modes_attacked' : 'dec.modes_about', { name, question: q });
}

/**
 * The card this seat chose just before, when the same card asks again (Secret
 * Passage: which card is being placed), else null.
 * @param {DecisionRequest} d
 */
function justChosen(d) {
  const a = state.answered;
  if (!a || a.card !== d.card || a.reply.type !== 'cards' || a.reply.cards.length !== 1) return null;
  return a.reply.cards[0];
}

/** @param {DecisionRequest} d @param {Prompt & {kind: 'choose_number'}} p */
function numberQuestion(d, p) {
  if (d.purpose === 'place_in_deck') {
    const card = justChosen(d);
    return card ? t('dec.place_card', { card: cardName(card) }) : t('dec.place');
  }
  return t('dec.choose_number', { min: p.min, max: p.max });
}

/** The words for a place in the deck: how many cards lie above it. @param {number} n @param {number} max */
export function placeText(n, max) {
  if (n === 0) return t('dec.place.top');
  if (n === max) return t('dec.place.bottom', { n });
  return t('dec.place.under', { n });
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

/**
 * Where the hand itself is the choice: a choose_cards prompt over the cards in hand (not
 * a Reaction, not a yes/no over one card) whose every option is a card of the hand the
 * page shows. Maps each hand position to the option it chooses (the k-th copy of a card
 * in the hand to the k-th copy among the options); null when the widget lists the cards.
 * @returns {Map<number, number> | null}
 */
export function handChoice() {
  const d = state.decision;
  const hand = state.view?.hand;
  if (!d || !hand) return null;
  const p = d.prompt;
  if (p.kind !== 'choose_cards' || p.zone !== 'hand' || d.purpose === 'react' || singleCard(d)) return null;
  /** @type {Map<string, number[]>} */
  const copies = new Map();
  p.options.forEach((c, i) => copies.set(c, [...(copies.get(c) ?? []), i]));
  /** @type {Map<number, number>} */
  const map = new Map();
  /** @type {Map<string, number>} */
  const used = new Map();
  hand.forEach((c, at) => {
    const k = used.get(c) ?? 0;
    const option = copies.get(c)?.[k];
    if (option == null) return;
    map.set(at, option);
    used.set(c, k + 1);
  });
  return map.size === p.options.length ? map : null;
}

/** Chooses or unchooses option `i` (a card or a mode). @param {number} i */
export function toggle(i) {
  const d = state.decision;
  if (!d || (d.prompt.kind !== 'choose_cards' && d.prompt.kind !== 'choose_modes')) return;
  const max = d.prompt.max;
  update((s) => {
    if (s.selected.includes(i)) s.selected = s.selected.filter((x) => x !== i);
    else if (max === 1) s.selected = [i];
    else if (s.selected.length < max) s.selected = [...s.selected, i];
  });
}

/** Whether the chosen number is one the prompt allows. */
function numberOk() {
  const p = state.decision?.prompt;
  const n = state.number;
  return p?.kind === 'choose_number' && n != null && Number.isInteger(n) && n >= p.min && n <= p.max;
}

/** Sends the choice for choose_cards / choose_modes / order_cards / name_card / choose_number. */
export function confirm() {
  const d = state.decision;
  if (!d || busy()) return;
  const p = d.prompt;
  if (singleCard(d)) return; // answered by its own two buttons, never by Enter
  if (p.kind === 'choose_cards' && selectionOk()) {
    answer({ type: 'cards', cards: [...state.selected].sort((a, b) => a - b).map((i) => p.options[i]) });
  } else if (p.kind === 'choose_modes' && selectionOk()) {
    answer({ type: 'modes', modes: [...state.selected].sort((a, b) => a - b).map((i) => p.options[i]) });
  } else if (p.kind === 'order_cards') {
    answer({ type: 'cards', cards: [...state.order] });
  } else if (p.kind === 'name_card' && state.named) {
    answer({ type: 'name', card: state.named });
  } else if (p.kind === 'choose_number' && numberOk()) {
    answer({ type: 'number', number: /** @type {number} */ (state.number) });
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

/** Where the offered cards are, in words ("from Bob's revealed cards"). @param {DecisionRequest} d @param {import('./types.js').Zone} zone */
function fromText(d, zone) {
  const name = aboutName(d);
  return name && has(`dec.from.${zone}_of`) ? t(`dec.from.${zone}_of`, { name }) : t(`dec.from.${zone}`);
}

/**
 * A "may" over one card as two buttons: do it, or not. The card itself is shown (its
 * text on click or tap), since it may be nowhere else on screen (revealed, in the trash).
 * @param {DecisionRequest} d @param {Prompt & {kind: 'choose_cards'}} p @param {string} card
 */
function yesNoCard(d, p, card) {
  const yes = firstKey([`dec.yes.${d.purpose}.${p.zone}`, `dec.yes.${d.purpose}`]);
  const no = firstKey([`dec.no.${d.purpose}.${p.zone}`, `dec.no.${d.purpose}`]);
  return [
    h('p', { class: 'dec-count muted' }, fromText(d, p.zone)),
    h('div', { class: 'choice-cards' }, cardButton(card, { testid: 'offered-0', dkey: `${d.decision}-offered` })),
    h(
      'div',
      { class: 'choice-row' },
      h(
        'button',
        { type: 'button', class: 'btn primary', 'data-testid': 'yes', disabled: busy(), onclick: () => answer({ type: 'cards', cards: [card] }) },
        yes ? t(yes, { card: cardName(card) }) : t('common.yes'),
      ),
      h(
        'button',
        { type: 'button', class: 'btn', 'data-testid': 'no', disabled: busy(), onclick: () => answer({ type: 'cards', cards: [] }) },
        no ? t(no, { card: cardName(card) }) : t('common.no'),
      ),
    ),
  ];
}

/** A Reaction's text beside its button, in the UI language. @param {string} card */
function reactText(card) {
  const { text, lang: textLang } = cardTextIn(card, lang());
  return h('span', { class: 'react-text', lang: textLang }, text);
}

/** @param {DecisionRequest} d @param {Prompt & {kind: 'choose_cards'}} p */
function chooseCards(d, p) {
  if (d.purpose === 'react') {
    const distinct = [...new Set(p.options)];
    // Each Reaction with what it does: the asking card is the Attack, whose text is above.
    return [
      h(
        'ul',
        { class: 'react-list' },
        distinct.map((c) =>
          h(
            'li',
            { key: c },
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
            reactText(c),
          ),
        ),
      ),
      p.min === 0
        ? h(
            'div',
            { class: 'choice-row' },
            h(
              'button',
              { type: 'button', class: 'btn', 'data-testid': 'react-none', disabled: busy(), onclick: () => answer({ type: 'cards', cards: [] }) },
              t('dec.react_none'),
            ),
          )
        : null,
    ];
  }
  const one = singleCard(d);
  if (one) return yesNoCard(d, p, one);
  const n = state.selected.length;
  if (handChoice()) {
    // The cards are chosen in the hand itself, right below: no second copy of them here.
    return h(
      'div',
      { class: 'choice-row in-hand' },
      h('p', { class: 'dec-count', 'data-testid': 'decision-count' }, countText(p.min, p.max, p.options.length), ' ', h('span', { class: 'muted' }, t('dec.pick_in_hand', { n: p.max }))),
      h('span', { class: 'selected-count', 'aria-live': 'polite' }, n ? t('dec.selected', { n }) : t('dec.none_selected')),
      confirmButton(n === 0 && p.min === 0 ? t('dec.choose_none') : t('common.confirm'), selectionOk()),
    );
  }
  // Choosing one of many copies (a discard pile) is choosing a card: each shown once.
  const shown = p.options
    .map((c, i) => ({ c, i, copies: p.options.filter((x) => x === c).length }))
    .filter(({ c, i }) => p.max > 1 || p.options.indexOf(c) === i);
  return [
    h('p', { class: 'dec-count', 'data-testid': 'decision-count' }, countText(p.min, p.max, p.options.length), ' ', h('span', { class: 'muted' }, `(${fromText(d, p.zone)})`)),
    h(
      'div',
      { class: ['choice-cards', p.zone !== 'hand' && 'offered'], role: 'group', 'aria-label': headline(d) },
      shown.map(({ c, i, copies }) =>
        cardButton(c, {
          testid: `option-${i}`,
          dkey: `${d.decision}-${i}`,
          enabled: !busy(),
          pressed: state.selected.includes(i),
          count: p.max > 1 ? undefined : copies,
          onClick: () => toggle(i),
        }),
      ),
    ),
    h(
      'div',
      { class: 'choice-row' },
      h('span', { class: 'selected-count', 'aria-live': 'polite' }, n ? t('dec.selected', { n }) : t('dec.none_selected')),
      confirmButton(n === 0 && p.min === 0 ? t('dec.choose_none') : t('common.confirm'), selectionOk()),
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

/** A mode's label ("+2 Cards", "Gain a Gold"): card names in the UI language. @param {import('./types.js').Mode} m */
export function modeText(m) {
  return t(`mode.${m}`, { gold: cardName('gold'), curse: cardName('curse') });
}

/** @param {DecisionRequest} d @param {Prompt & {kind: 'choose_modes'}} p */
function chooseModes(d, p) {
  const n = state.selected.length;
  return [
    h(
      'div',
      { class: 'choice-row modes', role: 'group', 'aria-label': headline(d) },
      p.options.map((m, i) =>
        h(
          'button',
          {
            type: 'button',
            class: ['btn', 'toggle', state.selected.includes(i) && 'pressed'],
            'aria-pressed': String(state.selected.includes(i)),
            'data-testid': `mode-${m}`,
            disabled: busy(),
            onclick: () => toggle(i),
          },
          modeText(m),
        ),
      ),
    ),
    h(
      'div',
      { class: 'choice-row' },
      p.max > 1 ? h('span', { class: 'selected-count', 'aria-live': 'polite' }, n ? t('dec.selected', { n }) : t('dec.none_selected')) : null,
      confirmButton(t('common.confirm'), selectionOk()),
    ),
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

/** Lower case without accents, for matching what is typed. @param {string} s */
function fold(s) {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
}

/** Whether `card` matches the typed `query`: by its name in the UI language or in English. @param {string} card @param {string} query */
function nameMatches(card, query) {
  const q = fold(query);
  if (!q) return true;
  return [cardName(card), cardNameIn(card, 'en')].some((n) => fold(n).includes(q));
}

/** @param {string} c */
function pickName(c) {
  update((s) => {
    s.named = c;
  });
}

/**
 * Name a card (Wishing Well): every option listed, narrowed by typing (in the UI
 * language or English). Enter in the search picks the only match, or confirms the
 * picked card when it is still shown.
 * @param {Prompt & {kind: 'name_card'}} p
 */
function nameCard(p) {
  const sorted = [...p.options].sort((a, b) => cardName(a).localeCompare(cardName(b), lang()));
  const shown = sorted.filter((c) => nameMatches(c, state.nameQuery));
  const english = lang() !== 'en';
  return [
    h(
      'div',
      { class: 'choice-row' },
      h('input', {
        type: 'search',
        class: 'name-search',
        'data-testid': 'name-search',
        'aria-label': t('dec.name_search'),
        'aria-controls': 'name-options',
        placeholder: t('dec.name_search'),
        autocomplete: 'off',
        value: state.nameQuery,
        oninput: (/** @type {any} */ e) => update((s) => {
          s.nameQuery = e.target.value;
        }),
        onkeydown: (/** @type {KeyboardEvent} */ e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          if (state.named && shown.includes(state.named)) confirm();
          else if (shown.length === 1) pickName(shown[0]);
        },
      }),
      h('span', { class: 'muted', 'aria-live': 'polite', 'data-testid': 'name-count' }, t('dec.name_shown', { n: shown.length, total: sorted.length })),
    ),
    h(
      'div',
      { id: 'name-options', class: 'name-options', role: 'group', 'aria-label': t('dec.name_card') },
      shown.length
        ? shown.map((c) =>
            h(
              'button',
              {
                type: 'button',
                key: c,
                class: ['name-option', typeClass(c), state.named === c && 'pressed'],
                'data-testid': `name-option-${c}`,
                'data-card': c,
                'aria-pressed': String(state.named === c),
                disabled: busy(),
                onclick: () => pickName(c),
              },
              h(
                'span',
                {},
                h('span', { class: 'card-name' }, cardName(c)),
                english && cardNameIn(c, 'en') !== cardName(c) ? h('span', { class: 'muted', lang: 'en' }, ` (${cardNameIn(c, 'en')})`) : null,
              ),
              h('span', { class: 'card-meta' }, h('span', { class: 'cost' }, `$${cardCost(c)}`), ' ', h('span', { class: 'type-label' }, typeLabel(c))),
            ),
          )
        : h('p', { class: 'muted' }, t('create.no_match')),
    ),
    h(
      'div',
      { class: 'choice-row' },
      h('span', { class: 'selected-count', 'aria-live': 'polite' }, state.named ? t('dec.named', { card: cardName(state.named) }) : t('dec.none_selected')),
      confirmButton(t('common.confirm'), Boolean(state.named)),
    ),
  ];
}

/** @param {number} n */
function pickNumber(n) {
  update((s) => {
    s.number = n;
  });
}

/** How many places in the deck get a button each; deeper ones are in a list. */
const PLACE_BUTTONS = 8;

/**
 * Where in the deck a card goes (Secret Passage): each place in words, top to bottom.
 * A deep deck lists the middle places in a select instead of a wall of buttons.
 * @param {Prompt & {kind: 'choose_number'}} p
 */
function placeInDeck(p) {
  const all = Array.from({ length: p.max - p.min + 1 }, (_, i) => p.min + i);
  const many = all.length > PLACE_BUTTONS + 4;
  const buttons = many ? [...all.slice(0, PLACE_BUTTONS), p.max] : all;
  const deep = many ? all.slice(PLACE_BUTTONS, -1) : [];
  const place = (/** @type {number} */ n) =>
    h(
      'button',
      {
        type: 'button',
        key: `place-${n}`,
        class: ['btn', 'toggle', state.number === n && 'pressed'],
        'data-testid': `place-${n}`,
        'aria-pressed': String(state.number === n),
        disabled: busy(),
        onclick: () => pickNumber(n),
      },
      placeText(n, p.max),
    );
  return [
    h(
      'div',
      { class: 'place-list', role: 'group', 'aria-label': t('dec.place') },
      buttons.filter((n) => n !== p.max).map(place),
      deep.length
        ? h(
            'select',
            {
              key: 'place-deep',
              'data-testid': 'place-deep',
              'aria-label': t('dec.place_deeper'),
              value: deep.includes(state.number ?? -1) ? String(state.number) : '',
              onchange: (/** @type {any} */ e) => e.target.value !== '' && pickNumber(Number(e.target.value)),
            },
            h('option', { value: '' }, t('dec.place_deeper')),
            deep.map((n) => h('option', { value: String(n) }, placeText(n, p.max))),
          )
        : null,
      buttons.includes(p.max) ? place(p.max) : null,
    ),
    h(
      'div',
      { class: 'choice-row' },
      h('span', { class: 'selected-count', 'aria-live': 'polite' }, state.number != null ? placeText(state.number, p.max) : t('dec.none_selected')),
      confirmButton(t('common.confirm'), numberOk()),
    ),
  ];
}

/** Any other whole number from min to max. @param {Prompt & {kind: 'choose_number'}} p */
function chooseNumber(p) {
  return [
    h(
      'div',
      { class: 'choice-row' },
      h('button', { type: 'button', class: 'btn', 'data-testid': 'number-down', 'aria-label': t('dec.number_down'), disabled: busy() || (state.number ?? p.min) <= p.min, onclick: () => pickNumber((state.number ?? p.min) - 1) }, '−'),
      h('input', {
        type: 'number',
        inputmode: 'numeric',
        class: 'number-input',
        'data-testid': 'number-input',
        'aria-label': t('dec.choose_number', { min: p.min, max: p.max }),
        min: p.min,
        max: p.max,
        step: 1,
        value: state.number ?? '',
        oninput: (/** @type {any} */ e) => update((s) => {
          s.number = e.target.value === '' ? null : Number(e.target.value);
        }),
        onkeydown: (/** @type {KeyboardEvent} */ e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            confirm();
          }
        },
      }),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'number-up', 'aria-label': t('dec.number_up'), disabled: busy() || (state.number ?? p.min) >= p.max, onclick: () => pickNumber(state.number == null ? p.min : state.number + 1) }, '+'),
      confirmButton(t('common.confirm'), numberOk()),
    ),
  ];
}

/** "End turn with $5 unspent?": its detail, its answers and "don't ask again". */
function endTurnQuestion() {
  const left = leftOver();
  return [
    left?.treasures ? h('p', { class: 'dec-count', 'data-testid': 'end-turn-detail' }, t('buy.unplayed', { n: left.treasures })) : null,
    h(
      'div',
      { class: 'choice-row' },
      h('button', { type: 'button', class: 'btn danger', 'data-testid': 'end-turn-confirm', disabled: busy(), 'aria-keyshortcuts': 'E', onclick: () => endPhase() }, t('dec.end_turn')),
      h('button', { type: 'button', class: 'btn primary', 'data-testid': 'end-turn-cancel', disabled: busy(), onclick: () => keepPlaying() }, t('buy.keep_playing')),
      h(
        'label',
        { class: 'check dont-ask' },
        h('input', { type: 'checkbox', 'data-testid': 'end-turn-dont-ask', checked: !askEndTurn(), onchange: (/** @type {any} */ e) => setAskEndTurn(!e.target.checked) }),
        ' ',
        t('buy.dont_ask'),
      ),
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
      h('button', { type: 'button', class: ['btn', !p.playable.length && 'primary'], 'data-testid': 'end-phase', disabled: busy(), 'aria-keyshortcuts': 'E', onclick: () => endPhase() }, t('dec.end_actions')),
    );
  }
  if (p.kind === 'buy_phase' && confirmingEnd()) return endTurnQuestion();
  if (p.kind === 'buy_phase') {
    return h(
      'div',
      { class: 'choice-row' },
      h(
        'button',
        { type: 'button', class: ['btn', p.treasures.length && 'primary'], 'data-testid': 'play-all', disabled: !p.treasures.length || busy(), 'aria-keyshortcuts': 'T', onclick: () => answer({ type: 'play_all_treasures' }) },
        t('dec.play_all'),
      ),
      h('button', { type: 'button', class: ['btn', !p.treasures.length && !p.buyable.length && 'primary'], 'data-testid': 'end-phase', disabled: busy(), 'aria-keyshortcuts': 'E', onclick: () => endPhase() }, t('dec.end_turn')),
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
    // Nobody is named while someone is asked whether to reveal a Reaction (only players
    // holding one are asked), from this seat's reply until the next frame or question,
    // and while the view names this seat but asks it nothing (the server may be waiting
    // on a private question to someone else, and keeps naming the player whose turn it is).
    const neutral = waiting == null || state.awaiting || (waiting === state.seat && !state.spectating);
    return h(
      'section',
      { class: 'panel decision waiting', 'data-testid': 'decision-waiting', 'aria-live': 'polite' },
      state.spectating ? h('p', {}, t('table.spectating')) : null,
      neutral
        ? h('p', { 'data-testid': 'waiting-neutral' }, t('table.waiting'))
        : h('p', { 'data-testid': 'waiting-for' }, t('table.waiting_for', { name: seatName(state, waiting) })),
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
      body = chooseModes(d, p);
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
    case 'choose_number':
      body = d.purpose === 'place_in_deck' ? placeInDeck(p) : chooseNumber(p);
      break;
    default:
      body = [phaseButtons(d)];
  }
  const left = secondsLeft();
  return h(
    'section',
    {
      class: ['panel', 'decision', `kind-${p.kind}`, confirmingEnd() && 'confirm-end'],
      'data-testid': 'decision',
      'data-kind': p.kind,
      'data-decision': d.decision,
      'data-purpose': d.purpose,
      'data-card': d.card,
      'data-about': d.about,
      'data-single': singleCard(d) ? 'true' : null,
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
      ? cardTextBlock(d.card, 'dec-text', { 'data-testid': 'decision-card-text' })
      : null,
    left != null ? h('p', { class: ['deadline', left <= 10 && 'urgent'], 'data-testid': 'deadline', role: 'timer' }, '◷ ', t('dec.deadline', { s: left })) : null,
    body,
    state.sending ? h('p', { class: 'muted' }, t('dec.sending')) : null,
  );
}
