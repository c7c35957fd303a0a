// The game table: status, the Supply, the players' public state, the cards in play,
// your hand and piles, the trash, the log, the decision panel and the end screen.
// In a game it is one screen (style.css): status, Supply, cards in play, the decision
// and the hand in the main column; players, card text, trash and log in a side column,
// which narrow screens show one at a time over the table (tabs at the bottom).
// The waiting room (before the game starts) is waiting.js, the end screen endscreen.js.
import { h } from './dom.js';
import { cardCost, cardName, cardText, groupedNames, typeClass, typeLabel } from './cards.js';
import { cardButton, cardChip, cardDetails, infoLabel, nameLang, setHover, showInfo, spokenAround, typeMarks, valueBadge } from './cardview.js';
import { decisionPanel, handChoice, toggle } from './decision.js';
import { endScreen } from './endscreen.js';
import { list, t } from './i18n/index.js';
import { chatPanel } from './chat.js';
import { requestLeave } from './leave.js';
import { earlierLines, logBody, logFilter, logLines } from './log.js';
import { waitingRoom } from './waiting.js';
import { roomName } from './lobby.js';
import { deckButton } from './deck.js';
import { seatName } from './names.js';
import { answer } from './session.js';
import { busy, state, update } from './store.js';
import { hintButton, hintLine } from './hint.js';
import { undoBar, undoButton } from './undo.js';
import { buyPending, buysWithTreasures, clickPile } from './buying.js';

/** @typedef {import('./types.js').GameView} GameView */


/** @param {GameView} v */
function statusBar(v) {
  const mine = v.current === state.seat;
  const cur = v.seats.find((s) => s.seat === v.current);
  return h(
    'section',
    { class: ['status-bar', mine && 'my-turn'], 'data-testid': 'status-bar', 'aria-label': t('table.turn', { n: (cur?.turns ?? 0) }) },
    h(
      'span',
      { class: 'turn-info' },
      h('span', { class: 'turn-who', 'data-testid': 'turn-who' }, mine ? `▶ ${t('table.your_turn')}` : t('table.turn_of', { name: seatName(state, v.current) })),
      h('span', { class: 'turn-no' }, t('table.turn', { n: Math.max(1, cur?.turns ?? 1) })),
      h('span', { class: 'phase', 'data-testid': 'phase' }, t(`phase.${v.phase}`)),
    ),
    h(
      'span',
      { class: 'counters' },
      counter(t('table.actions'), v.actions, 'actions'),
      counter(t('table.buys'), v.buys, 'buys'),
      counter(t('table.coins'), v.coins, 'coins', '$'),
    ),
    undoButton(),
    hintButton(),
    h(
      'button',
      {
        type: 'button',
        class: 'btn small help-button',
        'data-testid': 'help-button',
        'aria-label': t('help.button'),
        'aria-keyshortcuts': '?',
        title: t('help.button'),
        onclick: () => toggleHelp(),
      },
      '?',
    ),
  );
}

/** @param {string} label @param {number} n @param {string} id @param {string} [prefix] */
function counter(label, n, id, prefix = '') {
  return h('span', { class: 'counter', 'data-testid': `count-${id}` }, h('span', { class: 'counter-label' }, label), ' ', h('strong', {}, `${prefix}${n}`));
}

/** @param {import('./types.js').SeatView} s */
function connectionOf(s) {
  const occ = state.room?.seats.find((x) => x.seat === s.seat)?.occupant;
  if (!occ) return null;
  if (occ.type === 'bot') return h('span', { class: 'conn-tag bot', 'aria-hidden': 'true' }, '⚙');
  if (occ.type === 'human') {
    if (occ.account === 'bot') return h('span', { class: 'conn-tag bot', title: t('room.bot_account') }, '⚙');
    if (occ.bot_playing) return h('span', { class: 'conn-tag away' }, `⚠ ${t('room.bot_playing')}`);
    return occ.connected
      ? h('span', { class: 'conn-tag on', title: t('conn.online') }, h('span', { 'aria-hidden': 'true' }, '●'), h('span', { class: 'visually-hidden' }, t('conn.online')))
      : h('span', { class: 'conn-tag off' }, `○ ${t('room.offline')}`);
  }
  return null;
}

/**
 * Every player in one compact row each (name and status, hand, deck, discard, VP), the
 * one whose turn it is marked; cards a seat has revealed or set aside in a row below it.
 * @param {GameView} v
 */
function players(v) {
  /** @param {string} label @param {string} abbr */
  const col = (label, abbr) => h('th', { scope: 'col', title: label }, h('span', { 'aria-hidden': 'true' }, abbr), h('span', { class: 'visually-hidden' }, label));
  return h(
    'section',
    { class: 'panel players', 'aria-labelledby': 'players-h' },
    h(
      'div',
      { class: 'players-head' },
      h('h2', { id: 'players-h' }, t('table.players')),
      deckButton(),
      v.game_over ? null : h('button', { type: 'button', class: 'btn small', 'data-testid': 'leave-room', onclick: () => requestLeave() }, state.spectating ? t('common.back_to_lobby') : t('table.leave')),
    ),
    h(
      'div',
      { class: 'players-scroll', tabindex: 0, role: 'region', 'aria-label': t('table.players_numbers'), 'data-testid': 'players' },
      h(
        'table',
        { class: 'player-table' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('table.player'))), col(t('table.hand_count'), t('table.hand_abbr')), col(t('table.deck'), t('table.deck_abbr')), col(t('table.discard'), t('table.discard_abbr')), col(t('table.vp'), t('table.vp')))),
        h(
          'tbody',
          {},
          v.seats.map((s) => {
            const current = s.seat === v.current;
            return [
              h(
                'tr',
                {
                  key: `p${s.seat}`,
                  class: ['player', current && 'current', s.seat === state.seat && 'me'],
                  'data-testid': s.seat === state.seat ? 'me' : `opponent-${s.seat}`,
                  'aria-current': current ? 'true' : null,
                },
                h(
                  'th',
                  { scope: 'row', class: 'player-head' },
                  h('span', { class: 'turn-mark', 'aria-hidden': 'true' }, current ? '▶' : ''),
                  connectionOf(s),
                  ' ',
                  h('span', { class: 'player-name', title: seatName(state, s.seat) }, seatName(state, s.seat), s.seat === state.seat ? ` (${t('common.you')})` : ''),
                  current ? h('span', { class: 'visually-hidden' }, ` — ${t('table.their_turn')}`) : null,
                ),
                stat(s.hand_count, 'hand'),
                stat(s.deck_count, 'deck'),
                stat(s.discard_count, 'discard', s.discard_top),
                stat(s.vp, 'vp'),
              ),
              s.aside.length
                ? h(
                    'tr',
                    { key: `a${s.seat}`, class: ['aside-row', current && 'current'] },
                    h(
                      'td',
                      { colspan: 5 },
                      h(
                        'div',
                        { class: 'seat-aside', 'data-testid': `aside-${s.seat}` },
                        h('span', { class: 'muted' }, `${t('table.aside')}: `),
                        h('span', { class: 'chips' }, s.aside.map((c, i) => cardChip(c, `${i}-${c}`))),
                      ),
                    ),
                  )
                : null,
            ];
          }),
        ),
      ),
    ),
  );
}

/**
 * One number of a player's row; the discard pile's names its top card (in its title).
 * @param {number} n @param {string} id @param {string | null} [top]
 */
function stat(n, id, top) {
  return h('td', { class: 'stat', 'data-stat': id, title: top ? `${t('table.discard_top')}: ${cardName(top)}` : null }, String(n));
}

/** @param {GameView} v */
function supply(v) {
  const d = state.decision;
  const buyable = d?.prompt.kind === 'buy_phase' ? new Set(d.prompt.buyable) : new Set();
  const pileChoice = d?.prompt.kind === 'choose_pile' ? new Set(d.prompt.options) : new Set();
  const kingdom = new Set(v.kingdom);
  /** @param {import('./types.js').PileView} p */
  const pile = (p) => {
    const canBuy = (buyable.has(p.card) || buysWithTreasures(p.card)) && !busy();
    const canChoose = pileChoice.has(p.card) && !busy();
    const active = canBuy || canChoose;
    const name = cardName(p.card);
    const label = [
      canBuy ? (buyable.has(p.card) ? t('dec.buy', { card: name }) : t('buy.with_treasures', { card: name })) : name,
      typeLabel(p.card),
      t('table.cost', { n: p.cost }),
      p.count ? t('table.left', { n: p.count }) : t('table.pile_empty'),
    ].join(', ');
    return h(
      'li',
      { key: p.card, class: ['pile', typeClass(p.card), active && 'enabled', !p.count && 'empty'] },
      h(
        'button',
        {
          type: 'button',
          class: 'pile-main',
          'data-testid': `pile-${p.card}`,
          'data-card': p.card,
          // In this seat's Buy phase every pile answers a click: it is bought, or says why not.
          'aria-disabled': active || (d?.prompt.kind === 'buy_phase' && !busy()) ? null : 'true',
          onclick: () => {
            if (canChoose) answer({ type: 'pile', card: p.card });
            else if (!clickPile(p.card)) showInfo(p.card);
          },
          onpointerenter: () => setHover(p.card),
          onfocus: () => setHover(p.card),
        },
        h('span', { class: 'pile-cost', 'aria-hidden': 'true' }, `$${p.cost}`),
        ...spokenAround(label, name, h('span', { class: ['pile-name', name.length >= 10 && 'long-name'], lang: nameLang(p.card) }, valueBadge(p.card), name)),
        h('span', { class: 'pile-type', 'aria-hidden': 'true' }, h('span', { class: 'pile-marks' }, typeMarks(p.card)), ' ', h('span', { class: 'pile-type-label' }, typeLabel(p.card))),
        // The rules text on the tile (clamped where space is short; the whole text is
        // one click away, on the tile or its ⓘ).
        h('span', { class: 'pile-text', 'aria-hidden': 'true' }, cardText(p.card)),
        // Keyed by the count: a pile another player takes from flashes as it changes.
        h('span', { key: `n${p.count}`, class: 'pile-count', 'aria-hidden': 'true' }, p.count ? `×${p.count}` : t('table.pile_empty')),
      ),
      h(
        'button',
        { type: 'button', class: 'pile-info', 'data-testid': `pile-info-${p.card}`, 'aria-label': infoLabel(p.card), onclick: () => showInfo(p.card) },
        'i',
      ),
    );
  };
  const basics = v.supply.filter((p) => !kingdom.has(p.card));
  const kingdomPiles = v.supply.filter((p) => kingdom.has(p.card));
  return h(
    'section',
    { class: 'panel supply', 'data-testid': 'supply', 'aria-labelledby': 'supply-h', onkeydown: (/** @type {KeyboardEvent} */ e) => arrowKeys(e, '.pile-main') },
    h('h2', { id: 'supply-h', class: 'visually-hidden' }, t('table.supply')),
    h('ul', { class: 'piles basics', 'aria-label': t('table.basic') }, basics.map(pile)),
    h('ul', { class: 'piles kingdom', 'aria-label': t('table.kingdom') }, kingdomPiles.map(pile)),
  );
}

/** @param {GameView} v */
function playArea(v) {
  const cur = v.seats.find((s) => s.seat === v.current);
  if (!cur) return null;
  const turn = v.turn_count;
  const gains = gainedThisTurn();
  const n = cur.in_play.length;
  // Another player's cards light up as they are played or gained (a new key: a new chip).
  return h(
    'section',
    { class: ['panel', 'play-area', v.current !== state.seat && 'others'], 'data-testid': 'in-play', 'aria-labelledby': 'inplay-h' },
    h('h2', { id: 'inplay-h' }, `${t('table.in_play')} — ${seatName(state, v.current)}`),
    cur.in_play.length
      ? h('div', { class: 'chips' }, cur.in_play.map((c, i) => cardChip(c, `${turn}-${i}-${c}`, i === n - 1 ? 'newest' : undefined)))
      : h('p', { class: 'muted' }, '—'),
    gains.length
      ? h(
          'div',
          { class: 'gains', 'data-testid': 'gained-this-turn' },
          h('h3', {}, t('table.gained')),
          gains.map((g, i) =>
            h(
              'span',
              { key: `${turn}-g${g.at}`, class: 'gain' },
              g.seat !== v.current ? h('span', { class: 'muted' }, `${seatName(state, g.seat)}: `) : null,
              cardChip(g.card, undefined, i === gains.length - 1 ? 'newest' : undefined),
            ),
          ),
        )
      : null,
    v.seats
      .filter((s) => s.aside.length)
      .map((s) =>
        h(
          'div',
          { key: `aside-${s.seat}`, class: 'aside', 'data-testid': `play-aside-${s.seat}` },
          h('h3', {}, `${t('table.aside')} — ${seatName(state, s.seat)}`),
          h('div', { class: 'chips' }, s.aside.map((c, i) => cardChip(c, `${i}-${c}`))),
        ),
      ),
  );
}

/**
 * The cards gained since the turn began, by whom, in order (bought, gained, from the
 * trash): what the player whose turn it is just did is on the table, not only in the log.
 * @returns {{seat: number, card: string, at: number}[]}
 */
function gainedThisTurn() {
  const events = state.events;
  /** @type {{seat: number, card: string, at: number}[]} */
  const out = [];
  const base = state.nextEvent - events.length;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === 'turn_started') break;
    if (e.type === 'gained' || e.type === 'gained_from_trash') out.push({ seat: e.seat, card: e.card, at: base + i });
  }
  return out.reverse();
}

/**
 * The hand cards that can be played now (Actions in the Action phase, Treasures in the
 * Buy phase), by their place in the hand: the number keys 1–9 play them in this order.
 * @returns {{index: number, card: string}[]}
 */
export function playableInHand() {
  const d = state.decision;
  const p = d?.prompt;
  const can = p?.kind === 'action_phase' ? new Set(p.playable) : p?.kind === 'buy_phase' ? new Set(p.treasures) : null;
  if (!can) return [];
  return (state.view?.hand ?? []).map((card, index) => ({ index, card })).filter((x) => can.has(x.card));
}

/** @param {GameView} v */
function hand(v) {
  const me = v.seats.find((s) => s.seat === state.seat);
  const playable = playableInHand();
  /** @type {Map<number, number>} each playable card's place among them, from 1 */
  const keyOf = new Map(playable.map((x, n) => [x.index, n + 1]));
  const cards = v.hand ?? [];
  const choice = handChoice();
  return h(
    'section',
    { class: ['panel', 'hand-area', choice && 'choosing'], 'data-testid': 'hand-area', 'aria-labelledby': 'hand-h', onkeydown: (/** @type {KeyboardEvent} */ e) => arrowKeys(e, '.card') },
    h(
      'div',
      { class: 'hand-head' },
      h('h2', { id: 'hand-h' }, t('table.hand'), ` (${cards.length})`),
      me
        ? h(
            'div',
            { class: 'my-piles' },
            h('span', { 'data-testid': 'my-deck' }, `${t('table.deck')}: `, h('strong', {}, String(me.deck_count))),
            h(
              'span',
              { 'data-testid': 'my-discard' },
              `${t('table.discard')}: `,
              h('strong', {}, String(me.discard_count)),
              me.discard_top ? [' ', cardChip(me.discard_top)] : null,
            ),
          )
        : null,
      autoplayToggle(),
    ),
    cards.length
      ? h(
          'div',
          { class: 'hand', 'data-testid': 'hand' },
          cards.map((c, i) => {
            if (choice) {
              // A question about the hand's cards: each card it offers is a toggle here.
              const option = choice.get(i);
              return option == null
                ? cardButton(c, { testid: `hand-card-${i}`, dkey: `${i}-${c}` })
                : cardButton(c, {
                    testid: `option-${option}`,
                    dkey: `${i}-${c}`,
                    enabled: !busy(),
                    pressed: state.selected.includes(option),
                    onClick: () => toggle(option),
                  });
            }
            const n = keyOf.get(i);
            return cardButton(c, {
              testid: `hand-card-${i}`,
              dkey: `${i}-${c}`,
              enabled: n != null && !busy(),
              label: n != null ? t('dec.play', { card: cardName(c) }) : undefined,
              hotkey: n != null && n <= 9 ? String(n) : undefined,
              onClick: () => answer({ type: 'play', card: c }),
            });
          }),
        )
      : h('p', { class: 'muted', 'data-testid': 'hand' }, t('table.hand_empty')),
  );
}

/** @param {GameView} v */
function trash(v) {
  return h(
    'section',
    { class: 'panel trash', 'data-testid': 'trash', 'aria-labelledby': 'trash-h' },
    h('h2', { id: 'trash-h' }, `${t('table.trash')} (${v.trash.length})`),
    v.trash.length ? h('p', {}, list(groupedNames(v.trash))) : h('p', { class: 'muted' }, t('table.trash_empty')),
  );
}

function logPanel() {
  const lines = logLines(state);
  const filter = state.logFilter ?? 'all';
  return h(
    'section',
    { class: 'panel log', 'aria-labelledby': 'log-h' },
    h(
      'div',
      { class: 'log-head' },
      h('h2', { id: 'log-h' }, t('table.log')),
      logFilter(filter, (f) => {
        update((s) => {
          s.logFilter = f;
        });
        requestAnimationFrame(() => scrollLogToEnd());
      }, !state.spectating),
    ),
    filter === 'all' ? earlierLines(state) : null,
    h(
      'div',
      { class: 'log-lines', 'data-testid': 'log', 'data-filter': filter, role: 'log', 'aria-labelledby': 'log-h', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: 0 },
      logBody(state, lines, filter),
    ),
  );
}

function hoverPanel() {
  const key = state.hover;
  return h(
    'section',
    { class: 'panel hover-info', 'aria-hidden': 'true' },
    key ? cardDetails(key) : h('p', { class: 'muted' }, t('table.card_info')),
  );
}



/**
 * The panel shown over the table on a narrow screen (players, log or trash; a tab each),
 * or null. Wide screens show them all in the side column.
 * @type {'players' | 'log' | 'trash' | 'chat' | null}
 */
let drawer = null;

/** @param {'players' | 'log' | 'trash' | 'chat' | null} which */
export function openDrawer(which) {
  drawer = drawer === which ? null : which;
  update();
  // The log opens on its newest line.
  if (drawer === 'log') requestAnimationFrame(() => scrollLogToEnd());
}

/** Scrolls the log to its newest line. */
export function scrollLogToEnd() {
  const log = document.querySelector('[data-testid="log"]');
  if (log) log.scrollTop = log.scrollHeight;
}

/** Whether a panel is open over the table (Escape closes it). */
export function drawerOpen() {
  return drawer != null;
}

/** @param {GameView} v */
function tabs(v) {
  /** @param {'players' | 'log' | 'trash' | 'chat'} id @param {string} label */
  const tab = (id, label) =>
    h(
      'button',
      {
        type: 'button',
        class: ['tab', drawer === id && 'active'],
        'data-testid': `tab-${id}`,
        'aria-expanded': String(drawer === id),
        'aria-controls': 'table-side',
        onclick: () => openDrawer(id),
      },
      label,
    );
  return h(
    'nav',
    { class: 'table-tabs', 'aria-label': t('table.panels') },
    tab('players', `${t('table.players')} (${v.seats.length})`),
    tab('log', t('table.log')),
    tab('trash', `${t('table.trash')} (${v.trash.length})`),
    tab('chat', t('chat.heading')),
  );
}

/** The option to play every Treasure when the Buy phase starts. */
function autoplayToggle() {
  if (state.spectating) return null;
  return h(
    'label',
    { class: 'autoplay', title: t('table.autoplay_hint') },
    h('input', {
      type: 'checkbox',
      'data-testid': 'autoplay-toggle',
      checked: autoTreasures(),
      onchange: (/** @type {any} */ e) => setAutoTreasures(e.target.checked),
    }),
    ' ',
    t('table.autoplay'),
  );
}

const AUTO_KEY = 'dominion.autoTreasures';
/** @type {boolean | null} */
let autoplay = null;

/** Whether Treasures are played by themselves when the Buy phase starts (off unless chosen; remembered). */
export function autoTreasures() {
  if (autoplay == null) {
    try {
      autoplay = localStorage.getItem(AUTO_KEY) === '1';
    } catch {
      autoplay = false;
    }
  }
  return autoplay;
}

/** @param {boolean} on */
export function setAutoTreasures(on) {
  autoplay = on;
  try {
    localStorage.setItem(AUTO_KEY, on ? '1' : '0');
  } catch {
    /* storage may be unavailable */
  }
  update();
  autoplayTreasures();
}

/** The turn whose Buy phase was autoplayed (room and turn), so it happens once a turn. */
let autoplayedTurn = '';

/**
 * When the option is on and the Buy phase's decision arrives with Treasures to play,
 * plays them all (the same reply as the button), once per turn: the person can still
 * play a Treasure gained later by hand.
 */
export function autoplayTreasures() {
  const d = state.decision;
  const v = state.view;
  if (!d || !v || d.prompt.kind !== 'buy_phase' || !d.prompt.treasures.length || busy() || !autoTreasures() || buyPending()) return;
  const turn = `${state.roomId}/${v.turn_count}`;
  if (turn === autoplayedTurn) return;
  autoplayedTurn = turn;
  answer({ type: 'play_all_treasures' });
}

let helpOpen = false;

/** Shows or hides the keyboard help. @param {boolean} [open] */
export function toggleHelp(open = !helpOpen) {
  helpOpen = open;
  update();
}

export function helpShown() {
  return helpOpen;
}

/** The dialog listing the keys, when asked for. */
export function helpDialog() {
  if (!helpOpen) return null;
  const close = () => toggleHelp(false);
  /** @type {[string, string][]} */
  const keys = [
    ['1 – 9', t('help.play_n')],
    ['T', t('help.treasures')],
    ['B', t('help.buy')],
    ['← ↑ → ↓', t('help.arrows')],
    ['Enter', t('help.enter')],
    ['I', t('help.info')],
    ['E', t('help.end')],
    ['U', t('undo.hint')],
    ['H', t('hint.title')],
    ['?', t('help.help')],
    ['Esc', t('help.escape')],
  ];
  return h(
    'div',
    { class: 'modal-backdrop', onclick: (/** @type {Event} */ e) => e.target === e.currentTarget && close() },
    h(
      'div',
      { class: 'modal help', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'help-h', 'data-testid': 'help', onkeydown: (/** @type {KeyboardEvent} */ e) => e.key === 'Escape' && close() },
      h('h2', { id: 'help-h' }, t('help.title')),
      h('dl', { class: 'keys' }, keys.map(([k, what]) => [h('dt', {}, h('kbd', {}, k)), h('dd', {}, what)])),
      h('p', { class: 'hint' }, t('help.cards')),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'help-close', 'data-autofocus': '', onclick: close }, t('common.close')),
    ),
  );
}

/**
 * Arrow keys move the focus among the controls matching `selector` in the section (the
 * Supply's piles, the hand's cards) by where they are on screen: left/right to the
 * previous/next, up/down to the nearest one in the row above/below.
 * @param {KeyboardEvent} e @param {string} selector
 */
function arrowKeys(e, selector) {
  const dirs = /** @type {Record<string, [number, number]>} */ ({ ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] });
  const dir = dirs[e.key];
  const from = /** @type {HTMLElement} */ (e.target);
  if (!dir || e.ctrlKey || e.metaKey || e.altKey || !from.matches(selector)) return;
  const section = /** @type {HTMLElement} */ (e.currentTarget);
  const all = /** @type {HTMLElement[]} */ ([...section.querySelectorAll(selector)]);
  const i = all.indexOf(from);
  let next = null;
  if (dir[0]) {
    next = all[i + dir[0]] ?? null;
  } else {
    const a = from.getBoundingClientRect();
    const cx = a.left + a.width / 2;
    let best = Infinity;
    for (const el of all) {
      const b = el.getBoundingClientRect();
      const dy = dir[1] > 0 ? b.top - a.bottom : a.top - b.bottom;
      if (dy < -2) continue;
      const score = dy * 4 + Math.abs(b.left + b.width / 2 - cx);
      if (el !== from && score < best) {
        best = score;
        next = el;
      }
    }
  }
  e.preventDefault();
  if (next) {
    next.focus();
    next.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}

/** Moves the focus to the Supply: the first pile that can be bought, else the first pile. */
export function focusSupply() {
  const pile = document.querySelector('[data-testid=supply] .pile.enabled .pile-main') ?? document.querySelector('[data-testid=supply] .pile-main');
  if (pile instanceof HTMLElement) {
    pile.focus();
    pile.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}

export function tableView() {
  const room = state.room;
  const v = state.view;
  if (!v) {
    if (room && room.status === 'lobby') return waitingRoom();
    return h('p', { class: 'panel', 'data-testid': 'table-loading' }, t('app.loading'));
  }
  const live = !v.game_over;
  return h(
    'div',
    { class: ['table', state.spectating && 'spectator', live && 'live', v.current !== state.seat && 'others'], 'data-testid': 'table', 'data-drawer': live ? drawer : null },
    h('h1', { class: 'visually-hidden' }, room ? roomName(room) : t('app.title')),
    room?.status === 'broken' ? h('p', { class: 'notice', role: 'alert', 'data-testid': 'room-broken' }, t('room.status.broken')) : null,
    endScreen(),
    h(
      'div',
      { class: 'table-grid' },
      h(
        'div',
        { class: 'table-main' },
        live ? statusBar(v) : null,
        supply(v),
        playArea(v),
        undoBar(),
        hintLine(),
        decisionPanel(),
        state.spectating ? null : hand(v),
      ),
      h(
        'div',
        { class: 'table-side', id: 'table-side' },
        live
          ? h(
              'div',
              { class: 'drawer-head' },
              h('button', { type: 'button', class: 'btn small', 'data-testid': 'drawer-close', onclick: () => openDrawer(null) }, `× ${t('common.close')}`),
            )
          : null,
        players(v),
        hoverPanel(),
        trash(v),
        logPanel(),
        chatPanel(),
      ),
    ),
    live ? tabs(v) : null,
  );
}
