// The replay page, /replay/{id}: an ended game step by step — every decision, forward
// and back (⏮ ◀ ▶ ⏭, a slider, the arrow keys, Home and End) — from any player's point
// of view or from everyone's (every hand shown), with the log in sentences (log.js).
//
// The page has no rules of its own: each step is the server's engine replaying the
// published record (GET /api/games/{id}/steps/{n}?viewer=…), and shows what it answers.
// The log is kept per point of view and extended with `since`, so a step forward
// fetches only that step's events.
import { cx, h, memo } from './dom.js';
import { cardName, groupedNames, setCurrentCosts, setEdition, typeClass, typeLabel } from './cards.js';
import { cardButton, cardChip, nameLang, setHover, showInfo, spokenAround, typeMarks, valueBadge } from './cardview.js';
import { analysisPanel, startAnalysis } from './analysis.js';
import { modeText } from './decision.js';
import { list, t } from './i18n/index.js';
import { logLines } from './log.js';
import { botLabel } from './names.js';
import { update } from './store.js';

/** @typedef {import('./types.js').GameRecord} GameRecord */
/** @typedef {import('./types.js').ReplayStep} ReplayStep */
/** @typedef {import('./types.js').GameEvent} GameEvent */
/** @typedef {import('./types.js').GameView} GameView */

/** The game this page replays, from its path (/replay/{id}); null on any other page. */
export function replayId() {
  const m = location.pathname.match(/^\/replay\/([^/]+)\/?$/);
  return m ? decodeURIComponent(m[1]) : null;
}

/**
 * @typedef {object} ReplayState
 * @property {string} id
 * @property {GameRecord | null} record
 * @property {string | null} error      an i18n key
 * @property {'all' | number} viewer    the chosen point of view
 * @property {number} want              the step asked for (the slider's value)
 * @property {ReplayStep | null} step   the step shown
 * @property {'all' | number | null} stepViewer   whose view `step` is
 * @property {GameEvent[]} events       the log up to the shown step, as `logViewer` saw it
 * @property {'all' | number | null} logViewer
 * @property {boolean} busy             a step is being fetched
 */

/** @type {ReplayState} */
const R = {
  id: '',
  record: null,
  error: null,
  viewer: 'all',
  want: 0,
  step: null,
  stepViewer: null,
  events: [],
  logViewer: null,
  busy: false,
};

/** Loads the record and shows the game's first step. */
export async function startReplay() {
  R.id = replayId() ?? '';
  document.addEventListener('keydown', onKey);
  try {
    const res = await fetch(`/api/games/${encodeURIComponent(R.id)}`, { headers: { accept: 'application/json' } });
    if (res.status === 404) R.error = 'replay.not_found';
    else if (res.status === 409) R.error = 'replay.not_over';
    else if (!res.ok) R.error = 'replay.failed';
    else R.record = await res.json();
  } catch {
    R.error = 'replay.failed';
  }
  update();
  if (R.record) {
    // An abandoned game has no result to review against; a finished one is reviewed.
    if (R.record.outcome === 'finished') startAnalysis(R.id);
    await pump();
  }
}

/** Shows step `n` (clamped to the game's steps). @param {number} n */
function go(n) {
  const steps = R.record?.replies.length ?? 0;
  R.want = Math.max(0, Math.min(steps, Math.round(n)));
  update();
  pump();
}

/** @param {'all' | number} viewer */
function choose(viewer) {
  R.viewer = viewer;
  update();
  pump();
}

/**
 * Fetches steps until the one shown is the one wanted, from the chosen point of view.
 * One request at a time: a slider dragged fast asks only for where it stops.
 */
async function pump() {
  if (R.busy || !R.record) return;
  R.busy = true;
  try {
    while (R.step?.step !== R.want || R.stepViewer !== R.viewer) {
      const n = R.want;
      const viewer = R.viewer;
      const have = R.logViewer === viewer ? R.events : [];
      const url = `/api/games/${encodeURIComponent(R.id)}/steps/${n}?viewer=${viewer}&since=${have.length}`;
      const res = await fetch(url, { headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      /** @type {ReplayStep} */
      const step = await res.json();
      R.events = have.slice(0, step.first).concat(step.events);
      R.logViewer = viewer;
      R.step = step;
      R.stepViewer = viewer;
      setEdition(step.view.edition);
      setCurrentCosts(step.view.supply);
      update();
      // The step's lines are at the bottom of the log: keep them in sight.
      requestAnimationFrame(() => {
        const log = document.querySelector('[data-testid="replay-log"]');
        if (log) log.scrollTop = log.scrollHeight;
      });
    }
  } catch {
    R.error = 'replay.failed';
    update();
  } finally {
    R.busy = false;
  }
}

/**
 * Where each turn starts: the step before the turn's first Action- or Buy-phase reply
 * (only the player whose turn it is gives those; other players' answers to Attacks fall
 * inside the turn), with whose turn it is and which of theirs.
 * @returns {{step: number, seat: number, turn: number}[]}
 */
export function turnStarts() {
  const replies = R.record?.replies ?? [];
  /** @type {{step: number, seat: number, turn: number}[]} */
  const out = [];
  /** @type {Map<number, number>} */
  const turns = new Map();
  let owner = -1;
  replies.forEach((r, i) => {
    const phase = r.reply.type === 'play' || r.reply.type === 'play_all_treasures' || r.reply.type === 'buy' || r.reply.type === 'end_phase';
    if (!phase || r.seat === owner) return;
    owner = r.seat;
    const n = (turns.get(owner) ?? 0) + 1;
    turns.set(owner, n);
    out.push({ step: i, seat: owner, turn: n });
  });
  if (out.length) out[0].step = 0;
  return out;
}

/** The turn shown at step `n`: the last one starting at or before it. @param {number} n */
function turnAt(n) {
  const starts = turnStarts();
  let at = starts[0] ?? null;
  for (const s of starts) if (s.step <= n) at = s;
  return at;
}

/** The step where the turn before (or the shown turn's start) begins. */
function prevTurn() {
  const starts = turnStarts().filter((s) => s.step < R.want);
  return starts.length ? starts[starts.length - 1].step : 0;
}

/** The step where the next turn begins (or the game's end). */
function nextTurn() {
  return turnStarts().find((s) => s.step > R.want)?.step ?? R.record?.replies.length ?? 0;
}

/** ← → step, Page Up / Page Down by turn, Home / End jump; not while typing or on the slider (it has its own keys). @param {KeyboardEvent} e */
function onKey(e) {
  if (!R.record || e.ctrlKey || e.metaKey || e.altKey) return;
  const target = /** @type {HTMLElement} */ (e.target);
  if (target.closest('input, select, textarea, [role=dialog]')) return;
  const moves = /** @type {Record<string, () => number>} */ ({
    ArrowLeft: () => R.want - 1,
    ArrowRight: () => R.want + 1,
    PageUp: () => prevTurn(),
    PageDown: () => nextTurn(),
    Home: () => 0,
    End: () => R.record?.replies.length ?? 0,
  });
  const move = moves[e.key];
  if (!move) return;
  e.preventDefault();
  go(move());
}

/** A seat's name as the record gives it. @param {number} seat */
function nameOf(seat) {
  const s = R.record?.seats.find((x) => x.seat === seat);
  if (!s) return t('common.seat', { n: seat + 1 });
  return s.bot && !s.name ? botLabel(s.bot) : s.name;
}

/** What log.js needs to phrase events: the seats' names and whose point of view. */
function logState() {
  const seats = (R.record?.seats ?? []).map((s) => ({
    seat: s.seat,
    occupant: s.bot && !s.name ? { type: 'bot', bot: s.bot } : { type: 'human', name: s.name, connected: true },
  }));
  return /** @type {import('./store.js').State} */ (
    /** @type {unknown} */ ({
      events: R.events,
      nextEvent: R.events.length,
      seat: typeof R.stepViewer === 'number' ? R.stepViewer : null,
      room: { seats },
      result: null,
    })
  );
}

/** The reply that led to the shown step, as a sentence. @param {import('./types.js').NumberedReply} nr */
function replySentence(nr) {
  const r = nr.reply;
  const name = nameOf(nr.seat);
  /** @type {[string, Record<string, any>]} */
  let spec;
  switch (r.type) {
    case 'play':
      spec = ['replay.r.play', { card: cardName(r.card) }];
      break;
    case 'play_all_treasures':
      spec = ['replay.r.play_all_treasures', {}];
      break;
    case 'buy':
      spec = ['replay.r.buy', { card: cardName(r.card) }];
      break;
    case 'end_phase':
      spec = ['replay.r.end_phase', {}];
      break;
    case 'cards':
      spec = r.cards.length ? ['replay.r.cards', { cards: list(groupedNames(r.cards)) }] : ['replay.r.cards_none', {}];
      break;
    case 'pile':
      spec = r.card ? ['replay.r.pile', { card: cardName(r.card) }] : ['replay.r.pile_none', {}];
      break;
    case 'modes':
      spec = ['replay.r.modes', { modes: list(r.modes.map(modeText)) }];
      break;
    case 'yes_no':
      spec = [r.yes ? 'replay.r.yes' : 'replay.r.no', {}];
      break;
    case 'name':
      spec = ['replay.r.name', { card: cardName(r.card) }];
      break;
    case 'number':
      spec = ['replay.r.number', { number: r.number }];
      break;
    default:
      spec = ['replay.r.cards_none', {}];
  }
  return t(spec[0], { name, ...spec[1] });
}

function controls() {
  const steps = R.record?.replies.length ?? 0;
  const shown = R.step?.step ?? 0;
  const turn = turnAt(R.want);
  const turnLabel = turn ? t('replay.turn_of', { n: turn.turn, name: nameOf(turn.seat) }) : '';
  const btn = (/** @type {string} */ id, /** @type {string} */ label, /** @type {string} */ icon, /** @type {number} */ to, /** @type {boolean} */ off) =>
    h('button', { type: 'button', class: 'btn replay-btn', 'data-testid': `replay-${id}`, 'aria-label': label, title: label, disabled: off, onclick: () => go(to) }, icon);
  return h(
    'div',
    { class: 'replay-controls' },
    h(
      'div',
      { class: 'replay-buttons', role: 'group', 'aria-label': t('replay.slider') },
      // ⏮ and ⏭ are missing from many fonts: a bar and a triangle read the same.
      btn('first', t('replay.first'), '|◀', 0, R.want <= 0),
      btn('prev-turn', t('replay.prev_turn'), '◀◀', prevTurn(), R.want <= 0),
      btn('prev', t('replay.prev'), '◀', R.want - 1, R.want <= 0),
      btn('next', t('replay.next'), '▶', R.want + 1, R.want >= steps),
      btn('next-turn', t('replay.next_turn'), '▶▶', nextTurn(), R.want >= steps),
      btn('last', t('replay.last'), '▶|', steps, R.want >= steps),
    ),
    h(
      'div',
      { class: 'replay-track' },
      // The turn at the slider's thumb, over the slider.
      turn ? h('span', { class: 'replay-turn', 'data-testid': 'replay-turn', 'aria-hidden': 'true' }, turnLabel) : null,
      h('input', {
        type: 'range',
        class: 'replay-slider',
        'data-testid': 'replay-slider',
        min: 0,
        max: steps,
        step: 1,
        value: R.want,
        list: 'replay-turns',
        'aria-label': t('replay.slider'),
        'aria-valuetext': turn ? `${turnLabel}, ${t('replay.step', { n: R.want, total: steps })}` : t('replay.step', { n: R.want, total: steps }),
        oninput: (/** @type {any} */ e) => go(Number(e.target.value)),
      }),
      // A tick at each turn's start.
      h('datalist', { id: 'replay-turns' }, turnStarts().map((s) => h('option', { value: String(s.step) }))),
    ),
    h('span', { class: 'replay-count', 'data-testid': 'replay-step', 'aria-live': 'polite' }, t('replay.step', { n: shown, total: steps })),
    h(
      'label',
      { class: 'replay-viewer' },
      h('span', {}, `${t('replay.viewer')}: `),
      h(
        'select',
        {
          'data-testid': 'replay-viewer',
          value: String(R.viewer),
          onchange: (/** @type {any} */ e) => choose(e.target.value === 'all' ? 'all' : Number(e.target.value)),
        },
        h('option', { value: 'all' }, t('replay.viewer_all')),
        (R.record?.seats ?? []).map((s) => h('option', { value: String(s.seat) }, t('replay.viewer_seat', { name: nameOf(s.seat) }))),
      ),
    ),
  );
}

/** @param {GameView} v */
function statusLine(v) {
  const cur = v.seats.find((s) => s.seat === v.current);
  return h(
    'section',
    { class: 'status-bar replay-status', 'data-testid': 'replay-status' },
    v.game_over
      ? h('span', { class: 'turn-who' }, t('end.heading'), ' — ', winnersLine())
      : [
          h('span', { class: 'turn-who' }, t('table.turn_of', { name: nameOf(v.current) })),
          h('span', { class: 'turn-no' }, t('table.turn', { n: Math.max(1, cur?.turns ?? 1) })),
          h('span', { class: 'phase' }, t(`phase.${v.phase}`)),
        ],
    h(
      'span',
      { class: 'counters' },
      counter(t('table.actions'), v.actions),
      counter(t('table.buys'), v.buys),
      counter(t('table.coins'), v.coins, '$'),
    ),
  );
}

/** "Winner: …" from the record's scores. */
function winnersLine() {
  const names = (R.record?.scores ?? []).filter((x) => x.winner).map((x) => nameOf(x.seat));
  return t('end.winners_are', { n: names.length, names: list(names) });
}

/** @param {string} label @param {number} n @param {string} [prefix] */
function counter(label, n, prefix = '') {
  return h('span', { class: 'counter' }, h('span', { class: 'counter-label' }, label), ' ', h('strong', {}, `${prefix}${n}`));
}

/** The Supply, inert: a pile shows its card's details. @param {GameView} v */
function supply(v) {
  const kingdom = new Set(v.kingdom);
  /** @param {import('./types.js').PileView} p */
  const pile = (p) =>
    h(
      'li',
      { key: p.card, class: ['pile', typeClass(p.card), !p.count && 'empty'] },
      h(
        'button',
        {
          type: 'button',
          class: 'pile-main',
          'data-card': p.card,
          'data-count': String(p.count),
          onclick: () => showInfo(p.card),
          onpointerenter: () => setHover(p.card),
        },
        h('span', { class: 'pile-cost', 'aria-hidden': 'true' }, `$${p.cost}`),
        // Named by its content: the visible name, the rest hidden around it.
        ...spokenAround(
          [cardName(p.card), typeLabel(p.card), t('table.cost', { n: p.cost }), p.count ? t('table.left', { n: p.count }) : t('table.pile_empty')].join(', '),
          cardName(p.card),
          h('span', { class: ['pile-name', cardName(p.card).length >= 10 && 'long-name'], lang: nameLang(p.card) }, valueBadge(p.card), cardName(p.card)),
        ),
        h('span', { class: 'pile-type', 'aria-hidden': 'true' }, `${typeMarks(p.card)} ${typeLabel(p.card)}`),
        h('span', { class: 'pile-count', 'aria-hidden': 'true' }, p.count ? `×${p.count}` : t('table.pile_empty')),
      ),
    );
  return h(
    'section',
    { class: 'panel supply', 'data-testid': 'replay-supply', 'aria-label': t('table.supply') },
    h('ul', { class: 'piles basics', 'aria-label': t('table.basic') }, v.supply.filter((p) => !kingdom.has(p.card)).map(pile)),
    h('ul', { class: 'piles kingdom', 'aria-label': t('table.kingdom') }, v.supply.filter((p) => kingdom.has(p.card)).map(pile)),
  );
}

/** The hands shown: every one for `all`, else the viewer's own. @param {ReplayStep} s */
function hands(s) {
  /** @type {{seat: number, cards: string[]}[]} */
  const shown = s.hands ?? (s.view.seat != null && s.view.hand ? [{ seat: s.view.seat, cards: s.view.hand }] : []);
  return shown.map((hd) =>
    h(
      'section',
      { key: `hand-${hd.seat}`, class: ['panel', 'hand-area', hd.seat === s.view.current && 'replay-current'], 'aria-labelledby': `replay-hand-h-${hd.seat}` },
      h('h2', { id: `replay-hand-h-${hd.seat}` }, t('replay.hand_of', { name: nameOf(hd.seat) }), ` (${hd.cards.length})`),
      hd.cards.length
        ? h(
            'div',
            { class: 'hand', 'data-testid': `replay-hand-${hd.seat}` },
            hd.cards.map((c, i) => cardButton(c, { testid: `replay-hand-${hd.seat}-${i}`, dkey: `${i}-${c}` })),
          )
        : h('p', { class: 'muted', 'data-testid': `replay-hand-${hd.seat}` }, t('table.hand_empty')),
    ),
  );
}

/** @param {GameView} v */
function inPlay(v) {
  const cur = v.seats.find((s) => s.seat === v.current);
  const aside = v.seats.filter((s) => s.aside.length);
  return h(
    'section',
    { class: 'panel play-area', 'aria-labelledby': 'replay-inplay-h' },
    h('h2', { id: 'replay-inplay-h' }, `${t('table.in_play')} — ${nameOf(v.current)}`),
    cur?.in_play.length ? h('div', { class: 'chips' }, cur.in_play.map((c, i) => cardChip(c, `${i}-${c}`))) : h('p', { class: 'muted' }, '—'),
    aside.map((s) =>
      h('div', { key: `aside-${s.seat}`, class: 'aside' }, h('h3', {}, `${t('table.aside')} — ${nameOf(s.seat)}`), h('div', { class: 'chips' }, s.aside.map((c, i) => cardChip(c, `${i}-${c}`)))),
    ),
  );
}

/** @param {GameView} v */
function players(v) {
  return h(
    'section',
    { class: 'panel players', 'aria-labelledby': 'replay-players-h' },
    h('h2', { id: 'replay-players-h' }, t('table.players')),
    h(
      'ul',
      { class: 'player-list' },
      v.seats.map((s) =>
        h(
          'li',
          { key: s.seat, class: ['player', s.seat === v.current && 'current', s.seat === v.seat && 'me'], 'data-testid': `replay-seat-${s.seat}` },
          h('div', { class: 'player-head' }, h('strong', {}, s.seat === v.current && !v.game_over ? '▶ ' : '', nameOf(s.seat))),
          h(
            'dl',
            { class: 'stats' },
            stat(t('table.hand_count'), s.hand_count),
            stat(t('table.deck'), s.deck_count),
            stat(t('table.discard'), s.discard_count),
            stat(t('table.vp'), s.vp),
          ),
          s.discard_top ? h('div', { class: 'discard-top' }, h('span', { class: 'muted' }, `${t('table.discard_top')}: `), cardChip(s.discard_top)) : null,
        ),
      ),
    ),
  );
}

/** @param {string} label @param {number} n */
function stat(label, n) {
  return h('div', { class: 'stat' }, h('dt', {}, label), h('dd', {}, String(n)));
}

/** @param {ReplayStep} s */
function logPanel(s) {
  const lines = logLines(logState());
  return h(
    'section',
    { class: 'panel log', 'aria-labelledby': 'replay-log-h' },
    h('h2', { id: 'replay-log-h' }, t('table.log')),
    h(
      'ol',
      { class: 'log-lines', 'data-testid': 'replay-log', tabindex: 0 },
      lines.length
        ? lines.map((l) => {
            // Rebuilt only when the line or its mark changed (`memo`; see log.js).
            const cls = cx('log-line', `lk-${l.kind}`, l.key >= s.step_first && 'replay-now');
            return memo('li', l.key, [l, cls], () => h('li', { class: cls }, l.parts));
          })
        : h('li', { class: 'muted' }, t('log.empty')),
    ),
  );
}

/** The replay page. */
export function replayView() {
  const rec = R.record;
  if (R.error) {
    return h(
      'section',
      { class: 'panel replay', 'data-testid': 'replay' },
      h('h1', {}, t('replay.heading')),
      h('p', { class: 'notice', role: 'alert', 'data-testid': 'replay-error' }, t(R.error)),
      h('a', { class: 'btn', href: '/' }, t('common.back_to_lobby')),
    );
  }
  const s = R.step;
  if (!rec || !s) return h('p', { class: 'panel', 'data-testid': 'replay-loading' }, t('app.loading'));
  const v = s.view;
  const names = rec.seats.map((x) => nameOf(x.seat));
  return h(
    'div',
    { class: 'replay', 'data-testid': 'replay', 'data-step': String(s.step), 'data-viewer': String(R.stepViewer), 'aria-busy': R.busy ? 'true' : null },
    h(
      'section',
      { class: 'panel replay-head' },
      h('h1', {}, t('replay.title', { players: list(names) })),
      controls(),
      h(
        'p',
        { class: 'replay-reply', 'data-testid': 'replay-reply', 'data-decision': s.reply ? String(s.reply.decision) : null },
        s.reply ? replySentence(s.reply) : t('replay.begin'),
      ),
      h('p', { class: 'hint' }, t('replay.keys'), ' ', h('a', { href: `/api/games/${encodeURIComponent(R.id)}` }, t('replay.record')), ' · ', h('a', { href: '/' }, t('common.back_to_lobby'))),
    ),
    statusLine(v),
    h(
      'div',
      { class: 'table-grid' },
      h('div', { class: 'table-main' }, hands(s), inPlay(v), supply(v)),
      h(
        'div',
        { class: 'table-side' },
        analysisPanel({ want: R.want, steps: rec.replies.length, go, nameOf, turnOf: (n) => turnAt(n)?.turn ?? 1 }),
        players(v),
        h(
          'details',
          { class: 'panel trash' },
          h('summary', {}, `${t('table.trash')} (${v.trash.length})`),
          v.trash.length ? h('p', {}, list(groupedNames(v.trash))) : h('p', { class: 'muted' }, t('table.trash_empty')),
        ),
        logPanel(s),
      ),
    ),
  );
}
