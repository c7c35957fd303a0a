// The game review on the replay page: the Hard bot's (searching bot's) judgement of each
// human player's decisions that matter, from what that player knew at the time
// (GET /api/games/{id}/analysis). The server reviews in the background: the first request
// queues the game and answers 202 with its place or progress, which this page polls until
// the review is there. Then: each player's counts, a chance-to-win graph over the game's
// steps with every marked decision on it, the marked decisions as a list that jumps the
// replay to them, and, at the step shown, the answer given beside the Hard bot's best.
import { h, svg } from './dom.js';
import { t } from './i18n/index.js';
import { replyPhrase } from './replies.js';
import { update } from './store.js';

/** @typedef {import('./types.js').GameAnalysis} GameAnalysis */
/** @typedef {import('./types.js').AnalysedDecision} AnalysedDecision */

/**
 * @typedef {object} AnalysisState
 * @property {'idle' | 'queued' | 'running' | 'done' | 'unavailable' | 'busy' | 'failed' | 'none'} status
 *   `none`: nothing to show (no history, or the game cannot be reviewed)
 * @property {number} position
 * @property {number} done
 * @property {number} total
 * @property {GameAnalysis | null} data
 */

/** @type {AnalysisState} */
const A = { status: 'idle', position: 0, done: 0, total: 0, data: null };
let pollTimer = 0;

/** Polls no faster than this while the review is being made (ms). */
const POLL_MS = 2000;

/** Asks for the review of game `id` and keeps asking while it is being made. @param {string} id */
export async function startAnalysis(id) {
  clearTimeout(pollTimer);
  try {
    const res = await fetch(`/api/games/${encodeURIComponent(id)}/analysis`, { headers: { accept: 'application/json' } });
    if (res.status === 200) {
      A.data = await res.json();
      A.status = 'done';
    } else if (res.status === 202) {
      const p = await res.json();
      A.status = p.status === 'running' ? 'running' : 'queued';
      A.position = p.position ?? 0;
      A.done = p.done ?? 0;
      A.total = p.total ?? 0;
      pollTimer = window.setTimeout(() => startAnalysis(id), POLL_MS);
    } else if (res.status === 503) {
      const body = await res.json().catch(() => ({}));
      // Off on this server for good, or only busy now (then it says when to come back).
      if (res.headers.get('retry-after')) {
        A.status = 'busy';
        pollTimer = window.setTimeout(() => startAnalysis(id), Math.max(POLL_MS, Number(res.headers.get('retry-after')) * 1000 || POLL_MS));
      } else {
        A.status = body && body.error === 'busy' ? 'busy' : 'unavailable';
      }
    } else {
      A.status = 'none';
    }
  } catch {
    A.status = 'failed';
  }
  update();
}

/** A chance to win as a percentage. @param {number} x */
function pct(x) {
  return t('review.pct', { n: Math.round(x * 100) });
}

/**
 * The review panel.
 * `turnOf` numbers turns as the replay does (each player's own); the review's `turn`
 * counts every player's turns.
 * @param {{want: number, steps: number, go: (step: number) => void, nameOf: (seat: number) => string, turnOf: (step: number) => number}} at
 */
export function analysisPanel(at) {
  if (A.status === 'idle' || A.status === 'none') return null;
  /** @type {any[]} */
  let body;
  switch (A.status) {
    case 'queued':
      body = [h('p', { class: 'muted', 'aria-live': 'polite' }, t('review.queued', { n: A.position }))];
      break;
    case 'running':
      body = [
        h('p', { class: 'muted', 'aria-live': 'polite' }, t('review.running', { done: A.done, total: A.total })),
        h('progress', { max: Math.max(1, A.total), value: A.done, 'aria-label': t('review.heading') }),
      ];
      break;
    case 'unavailable':
      body = [h('p', { class: 'muted' }, t('review.unavailable'))];
      break;
    case 'busy':
      body = [h('p', { class: 'muted' }, t('review.busy'))];
      break;
    case 'failed':
      body = [h('p', { class: 'notice', role: 'alert' }, t('review.failed'))];
      break;
    default:
      body = A.data ? done(A.data, at) : [];
  }
  return h(
    'section',
    { class: 'panel review', 'data-testid': 'review', 'data-status': A.status, 'aria-labelledby': 'review-h' },
    h('h2', { id: 'review-h' }, t('review.heading')),
    ...body,
  );
}

/**
 * @param {GameAnalysis} a
 * @param {{want: number, steps: number, go: (step: number) => void, nameOf: (seat: number) => string, turnOf: (step: number) => number}} at
 */
function done(a, at) {
  const marked = a.decisions.filter((d) => d.mark);
  const here = a.decisions.find((d) => d.step === at.want);
  return [
    h('p', { class: 'hint' }, t('review.intro')),
    counts(a, at),
    graph(a, at),
    here ? current(here, at) : null,
    h('h3', {}, t('review.marked')),
    marked.length
      ? h(
          'ol',
          { class: 'review-marks', 'data-testid': 'review-marks' },
          marked.map((d) =>
            h(
              'li',
              { key: d.step, class: [`mark-${d.mark}`, d.step === at.want && 'review-here'] },
              h(
                'button',
                { type: 'button', class: 'linkish', 'data-testid': `review-mark-${d.step}`, 'data-mark': d.mark, onclick: () => at.go(d.step) },
                t('review.item', {
                  turn: at.turnOf(d.step),
                  name: at.nameOf(d.seat),
                  mark: t(`review.mark.${d.mark}`),
                  given: replyPhrase(d.given),
                  best: replyPhrase(d.best),
                  from: pct(d.given_win),
                  to: pct(d.best_win),
                }),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted', 'data-testid': 'review-marks' }, t('review.none_marked')),
  ];
}

/**
 * @param {GameAnalysis} a
 * @param {{nameOf: (seat: number) => string}} at
 */
function counts(a, at) {
  return h(
    'table',
    { class: 'review-counts', 'data-testid': 'review-counts' },
    h(
      'thead',
      {},
      h('tr', {}, h('th', { scope: 'col' }, t('review.col.player')), h('th', { scope: 'col' }, t('review.col.inaccuracies')), h('th', { scope: 'col' }, t('review.col.mistakes')), h('th', { scope: 'col' }, t('review.col.blunders'))),
    ),
    h(
      'tbody',
      {},
      a.players.map((p) =>
        h(
          'tr',
          { key: p.seat, 'data-seat': String(p.seat) },
          h('th', { scope: 'row' }, h('span', { class: `review-key s${p.seat}`, 'aria-hidden': 'true' }), at.nameOf(p.seat)),
          h('td', {}, String(p.inaccuracies)),
          h('td', {}, String(p.mistakes)),
          h('td', {}, String(p.blunders)),
        ),
      ),
    ),
  );
}

const W = 600;
const H = 150;
const PAD = 6;

/**
 * Each reviewed player's chance to win over the game's steps, the marked decisions as
 * dots (a dot is a button: it jumps there), the step shown as a bar.
 * @param {GameAnalysis} a
 * @param {{want: number, steps: number, go: (step: number) => void, nameOf: (seat: number) => string, turnOf: (step: number) => number}} at
 */
function graph(a, at) {
  const x = (/** @type {number} */ step) => PAD + ((W - 2 * PAD) * step) / Math.max(1, at.steps);
  const y = (/** @type {number} */ win) => PAD + (H - 2 * PAD) * (1 - Math.max(0, Math.min(1, win)));
  return h(
    'figure',
    { class: 'review-graph' },
    svg(
      'svg',
      { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('review.graph'), 'data-testid': 'review-graph', preserveAspectRatio: 'none' },
      svg('line', { class: 'review-even', x1: PAD, x2: W - PAD, y1: y(0.5), y2: y(0.5) }),
      svg('line', { class: 'review-now', x1: x(at.want), x2: x(at.want), y1: PAD, y2: H - PAD }),
      a.players.map((p) =>
        svg('polyline', {
          key: `line-${p.seat}`,
          class: `review-line s${p.seat}`,
          'data-seat': String(p.seat),
          points: p.graph.map((g) => `${x(g.step).toFixed(1)},${y(g.win).toFixed(1)}`).join(' '),
        }),
      ),
      a.decisions
        .filter((d) => d.mark)
        .map((d) =>
          svg(
            'circle',
            { key: `dot-${d.step}`, class: `review-dot mark-${d.mark}`, cx: x(d.step), cy: y(d.given_win), r: d.mark === 'blunder' ? 5 : 4, onclick: () => at.go(d.step) },
            svg('title', {}, `${t(`review.mark.${d.mark}`)} — ${at.nameOf(d.seat)}`),
          ),
        ),
    ),
    h('figcaption', { class: 'hint' }, t('review.graph')),
  );
}

/**
 * The decision asked at the step shown: the answer given and the Hard bot's best.
 * @param {AnalysedDecision} d
 * @param {{nameOf: (seat: number) => string}} at
 */
function current(d, at) {
  const same = JSON.stringify(d.given) === JSON.stringify(d.best);
  return h(
    'div',
    { class: ['review-current', d.mark && `mark-${d.mark}`], 'data-testid': 'review-current', 'data-mark': d.mark ?? '' },
    d.mark ? h('strong', { class: 'review-badge' }, t(`review.mark.${d.mark}`)) : null,
    h('p', {}, t('review.here_given', { name: at.nameOf(d.seat), given: replyPhrase(d.given), win: pct(d.given_win) })),
    same ? h('p', { class: 'muted' }, t('review.here_same')) : h('p', { 'data-testid': 'review-best' }, t('review.here_best', { best: replyPhrase(d.best), win: pct(d.best_win) })),
  );
}
