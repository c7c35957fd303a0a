// The game table: status, the Supply, the players' public state, the cards in play,
// your hand and piles, the trash, the log, the decision panel and the end screen.
// The waiting room (before the game starts) is waiting.js.
import { h } from './dom.js';
import { cardCost, cardName, groupedNames, typeClass, typeLabel } from './cards.js';
import { cardButton, cardChip, cardDetails, setHover, showInfo, typeMarks } from './cardview.js';
import { decisionPanel } from './decision.js';
import { endScreen } from './endscreen.js';
import { list, t } from './i18n/index.js';
import { chatPanel } from './chat.js';
import { requestLeave } from './leave.js';
import { earlierLines, logLines } from './log.js';
import { waitingRoom } from './waiting.js';
import { seatName } from './names.js';
import { answer, leaveRoom } from './session.js';
import { busy, state } from './store.js';
import { undoBar } from './undo.js';

/** @typedef {import('./types.js').GameView} GameView */

/** @param {GameView} v */
function statusBar(v) {
  const mine = v.current === state.seat;
  const cur = v.seats.find((s) => s.seat === v.current);
  return h(
    'section',
    { class: ['status-bar', mine && 'my-turn'], 'data-testid': 'status-bar', 'aria-label': t('table.turn', { n: (cur?.turns ?? 0) }) },
    h('span', { class: 'turn-who', 'data-testid': 'turn-who' }, mine ? `▶ ${t('table.your_turn')}` : t('table.turn_of', { name: seatName(state, v.current) })),
    h('span', { class: 'turn-no' }, t('table.turn', { n: Math.max(1, cur?.turns ?? 1) })),
    h('span', { class: 'phase', 'data-testid': 'phase' }, t(`phase.${v.phase}`)),
    h(
      'span',
      { class: 'counters' },
      counter(t('table.actions'), v.actions, 'actions'),
      counter(t('table.buys'), v.buys, 'buys'),
      counter(t('table.coins'), v.coins, 'coins', '$'),
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
    if (occ.bot_playing) return h('span', { class: 'conn-tag away' }, `⚠ ${t('room.bot_playing')}`);
    return occ.connected
      ? h('span', { class: 'conn-tag on' }, `● ${t('conn.online')}`)
      : h('span', { class: 'conn-tag off' }, `○ ${t('room.offline')}`);
  }
  return null;
}

/** @param {GameView} v */
function players(v) {
  return h(
    'section',
    { class: 'panel players', 'aria-labelledby': 'players-h' },
    h('h2', { id: 'players-h' }, t('table.players')),
    h(
      'ul',
      { class: 'player-list' },
      v.seats.map((s) =>
        h(
          'li',
          {
            key: s.seat,
            class: ['player', s.seat === v.current && 'current', s.seat === state.seat && 'me'],
            'data-testid': s.seat === state.seat ? 'me' : `opponent-${s.seat}`,
            'aria-current': s.seat === v.current ? 'true' : null,
          },
          h(
            'div',
            { class: 'player-head' },
            h('strong', {}, s.seat === v.current ? '▶ ' : '', seatName(state, s.seat), s.seat === state.seat ? ` (${t('common.you')})` : ''),
            connectionOf(s),
          ),
          h(
            'dl',
            { class: 'stats' },
            stat(t('table.hand_count'), s.hand_count, 'hand'),
            stat(t('table.deck'), s.deck_count, 'deck'),
            stat(t('table.discard'), s.discard_count, 'discard'),
            stat(t('table.vp'), s.vp, 'vp'),
          ),
          s.discard_top ? h('div', { class: 'discard-top' }, h('span', { class: 'muted' }, `${t('table.discard_top')}: `), cardChip(s.discard_top)) : null,
          s.aside.length
            ? h(
                'div',
                { class: 'seat-aside', 'data-testid': `aside-${s.seat}` },
                h('span', { class: 'muted' }, `${t('table.aside')}: `),
                h('span', { class: 'chips' }, s.aside.map((c, i) => cardChip(c, `${i}-${c}`))),
              )
            : null,
        ),
      ),
    ),
  );
}

/** @param {string} label @param {number} n @param {string} id */
function stat(label, n, id) {
  return h('div', { class: 'stat', 'data-stat': id }, h('dt', {}, label), h('dd', {}, String(n)));
}

/** @param {GameView} v */
function supply(v) {
  const d = state.decision;
  const buyable = d?.prompt.kind === 'buy_phase' ? new Set(d.prompt.buyable) : new Set();
  const pileChoice = d?.prompt.kind === 'choose_pile' ? new Set(d.prompt.options) : new Set();
  const kingdom = new Set(v.kingdom);
  /** @param {import('./types.js').PileView} p */
  const pile = (p) => {
    const canBuy = buyable.has(p.card) && !busy();
    const canChoose = pileChoice.has(p.card) && !busy();
    const active = canBuy || canChoose;
    const name = cardName(p.card);
    const label = [
      canBuy ? t('dec.buy', { card: name }) : name,
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
          'aria-disabled': active ? null : 'true',
          'aria-label': label,
          onclick: () => {
            if (canBuy) answer({ type: 'buy', card: p.card });
            else if (canChoose) answer({ type: 'pile', card: p.card });
            else showInfo(p.card);
          },
          onpointerenter: () => setHover(p.card),
          onfocus: () => setHover(p.card),
        },
        h('span', { class: 'pile-cost', 'aria-hidden': 'true' }, `$${p.cost}`),
        h('span', { class: 'pile-name' }, name),
        h('span', { class: 'pile-type', 'aria-hidden': 'true' }, `${typeMarks(p.card)} ${typeLabel(p.card)}`),
        h('span', { class: 'pile-count', 'aria-hidden': 'true' }, p.count ? `×${p.count}` : t('table.pile_empty')),
      ),
      h(
        'button',
        { type: 'button', class: 'pile-info', 'data-testid': `pile-info-${p.card}`, 'aria-label': `${t('table.card_info')}: ${name}`, onclick: () => showInfo(p.card) },
        'i',
      ),
    );
  };
  const basics = v.supply.filter((p) => !kingdom.has(p.card));
  const kingdomPiles = v.supply.filter((p) => kingdom.has(p.card));
  return h(
    'section',
    { class: 'panel supply', 'data-testid': 'supply', 'aria-labelledby': 'supply-h' },
    h('h2', { id: 'supply-h' }, t('table.supply')),
    h('ul', { class: 'piles basics', 'aria-label': t('table.basic') }, basics.map(pile)),
    h('ul', { class: 'piles kingdom', 'aria-label': t('table.kingdom') }, kingdomPiles.map(pile)),
  );
}

/** @param {GameView} v */
function playArea(v) {
  const cur = v.seats.find((s) => s.seat === v.current);
  if (!cur) return null;
  return h(
    'section',
    { class: 'panel play-area', 'data-testid': 'in-play', 'aria-labelledby': 'inplay-h' },
    h('h2', { id: 'inplay-h' }, `${t('table.in_play')} — ${seatName(state, v.current)}`),
    cur.in_play.length
      ? h('div', { class: 'chips' }, cur.in_play.map((c, i) => cardChip(c, `${i}-${c}`)))
      : h('p', { class: 'muted' }, '—'),
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

/** @param {GameView} v */
function hand(v) {
  const me = v.seats.find((s) => s.seat === state.seat);
  const d = state.decision;
  const playable = d?.prompt.kind === 'action_phase' ? new Set(d.prompt.playable) : d?.prompt.kind === 'buy_phase' ? new Set(d.prompt.treasures) : new Set();
  const cards = v.hand ?? [];
  return h(
    'section',
    { class: 'panel hand-area', 'aria-labelledby': 'hand-h' },
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
    ),
    cards.length
      ? h(
          'div',
          { class: 'hand', 'data-testid': 'hand' },
          cards.map((c, i) =>
            cardButton(c, {
              testid: `hand-card-${i}`,
              dkey: `${i}-${c}`,
              enabled: playable.has(c) && !busy(),
              label: playable.has(c) ? t('dec.play', { card: cardName(c) }) : undefined,
              onClick: () => answer({ type: 'play', card: c }),
            }),
          ),
        )
      : h('p', { class: 'muted', 'data-testid': 'hand' }, t('table.hand_empty')),
  );
}

/** @param {GameView} v */
function trash(v) {
  return h(
    'details',
    { class: 'panel trash', 'data-testid': 'trash' },
    h('summary', {}, `${t('table.trash')} (${v.trash.length})`),
    v.trash.length ? h('p', {}, list(groupedNames(v.trash))) : h('p', { class: 'muted' }, t('table.trash_empty')),
  );
}

function logPanel() {
  const lines = logLines(state);
  return h(
    'section',
    { class: 'panel log', 'aria-labelledby': 'log-h' },
    h('h2', { id: 'log-h' }, t('table.log')),
    earlierLines(state),
    h(
      'ol',
      { class: 'log-lines', 'data-testid': 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: 0 },
      lines.length
        ? lines.map((l) => h('li', { key: l.key, class: ['log-line', `lk-${l.kind}`, l.seat === state.seat && 'mine'] }, l.parts))
        : h('li', { class: 'muted' }, t('log.empty')),
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

export function tableView() {
  const room = state.room;
  const v = state.view;
  if (!v) {
    if (room && room.status === 'lobby') return waitingRoom();
    return h('p', { class: 'panel', 'data-testid': 'table-loading' }, t('app.loading'));
  }
  return h(
    'div',
    { class: ['table', state.spectating && 'spectator'], 'data-testid': 'table' },
    h('h1', { class: 'visually-hidden' }, room?.name ?? t('app.title')),
    room?.status === 'broken' ? h('p', { class: 'notice', role: 'alert', 'data-testid': 'room-broken' }, t('room.status.broken')) : null,
    endScreen(),
    v.game_over ? null : statusBar(v),
    h(
      'div',
      { class: 'table-grid' },
      h(
        'div',
        { class: 'table-main' },
        supply(v),
        playArea(v),
        state.spectating ? null : hand(v),
        undoBar(),
        decisionPanel(),
      ),
      h('div', { class: 'table-side' }, players(v), hoverPanel(), trash(v), logPanel(), chatPanel()),
    ),
    h(
      'div',
      { class: 'table-foot' },
      v.game_over
        ? null
        : h('button', { type: 'button', class: 'btn small', 'data-testid': 'leave-room', onclick: () => requestLeave() }, state.spectating ? t('common.back_to_lobby') : t('common.leave')),
    ),
  );
}
