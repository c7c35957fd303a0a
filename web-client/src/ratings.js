// Ratings in the page (issue 25): the end screen's level before → after (from the
// server's `rating_changed`), and a profile's ratings with a level-over-time chart drawn
// as plain SVG (no chart library: a polyline, its points and two axis labels).
import { h, svg } from './dom.js';
import { t } from './i18n/index.js';

/** A level as shown: one decimal. @param {number} level */
export function levelText(level) {
  return (Math.round(level * 10) / 10).toFixed(1);
}

/** The pool's name in the UI language. @param {import('./types.js').RatingPool} pool */
export function poolLabel(pool) {
  return t(`pool.${pool === '3-4p' ? 'multi' : pool === 'bots' ? 'bots' : 'two'}`);
}

/**
 * The end screen's rating lines: each player's level before → after.
 * @param {import('./types.js').RatingChange[]} changes
 */
export function ratingChangesView(changes) {
  return h(
    'section',
    { class: 'rating-changes', 'data-testid': 'rating-changes', 'aria-labelledby': 'rating-h' },
    h('h2', { id: 'rating-h' }, t('end.rating_heading'), changes[0] ? ` — ${poolLabel(changes[0].pool)}` : ''),
    h(
      'ul',
      { class: 'account-list' },
      changes.map((c) => {
        const up = c.level_after >= c.level_before;
        return h(
          'li',
          { key: c.seat, 'data-testid': `rating-change-${c.seat}`, 'data-before': String(c.level_before), 'data-after': String(c.level_after) },
          t('end.rating_change', { name: c.name, before: levelText(c.level_before), after: levelText(c.level_after) }),
          ' ',
          h('span', { class: ['badge', up ? 'result-win' : 'result-loss'] }, `${up ? '+' : '−'}${levelText(Math.abs(c.level_after - c.level_before))}`),
        );
      }),
    ),
  );
}

const s = svg; // short: the chart below builds many

/** Every account's level before its first rated game in a pool (1500 ± 350). */
export const START_LEVEL = 19.7786;

/**
 * The level after each rated game, oldest first, as a line chart. With `fromStart`
 * (the history holds every game of the pool) the line begins at the level every new
 * player has, drawn as a hollow point, so even one game shows where it went.
 * @param {import('./types.js').RatingPoint[]} games
 * @param {string} label   what the chart shows, for screen readers
 * @param {boolean} [fromStart]
 */
export function levelChart(games, label, fromStart = false) {
  const W = 320;
  const H = 120;
  const PAD = 24;
  const points = fromStart ? [{ at: 0, level: START_LEVEL, room: '' }, ...games] : games;
  const levels = points.map((p) => p.level);
  const lo = Math.floor(Math.min(...levels, 20) / 5) * 5;
  const hi = Math.ceil(Math.max(...levels, lo + 5) / 5) * 5;
  const x = (/** @type {number} */ i) => PAD + (points.length > 1 ? (i * (W - 2 * PAD)) / (points.length - 1) : (W - 2 * PAD) / 2);
  const y = (/** @type {number} */ l) => H - PAD - ((l - lo) * (H - 2 * PAD)) / (hi - lo || 1);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.level).toFixed(1)}`).join(' ');
  const text = (/** @type {number} */ tx, /** @type {number} */ ty, /** @type {string} */ v) =>
    s('text', { x: tx, y: ty, 'font-size': 10, fill: 'currentColor' }, document.createTextNode(v));
  return s(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img', 'aria-label': label, class: 'level-chart', 'data-testid': 'level-chart', 'data-points': games.length, 'data-from-start': String(fromStart) },
    s('line', { x1: PAD, y1: H - PAD, x2: W - PAD, y2: H - PAD, stroke: 'currentColor', 'stroke-opacity': 0.3 }),
    s('line', { x1: PAD, y1: PAD, x2: PAD, y2: H - PAD, stroke: 'currentColor', 'stroke-opacity': 0.3 }),
    text(2, y(hi) + 4, String(hi)),
    text(2, y(lo) + 4, String(lo)),
    s('polyline', { points: line, fill: 'none', stroke: '#2b6cb0', 'stroke-width': 2 }),
    ...points.map((p, i) =>
      s(
        'circle',
        fromStart && i === 0
          ? { cx: x(i).toFixed(1), cy: y(p.level).toFixed(1), r: 3, fill: 'none', stroke: '#2b6cb0', 'data-testid': 'level-chart-start' }
          : { cx: x(i).toFixed(1), cy: y(p.level).toFixed(1), r: 3, fill: '#2b6cb0' },
        s('title', {}, document.createTextNode(levelText(p.level))),
      ),
    ),
  );
}

/**
 * A profile's ratings: each pool's level, rating and chart.
 * @param {import('./types.js').PoolRating[]} ratings
 */
export function ratingsPanel(ratings) {
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'ratings-h', 'data-testid': 'profile-ratings' },
    h('h2', { id: 'ratings-h' }, t('profile.ratings'), ' ', h('a', { class: 'btn small', href: '/leaderboard', 'data-testid': 'leaderboard-link' }, t('board.title'))),
    ratings.length
      ? ratings.map((r) =>
          h(
            'div',
            { key: r.pool, class: 'pool-rating', 'data-testid': `rating-${r.pool}` },
            h('h3', {}, poolLabel(r.pool)),
            h(
              'p',
              {},
              h('strong', { 'data-testid': `level-${r.pool}` }, t('rating.level', { level: levelText(r.level) })),
              ' · ',
              t('profile.rating_line', { rating: Math.round(r.rating), deviation: Math.round(r.deviation), n: r.games }),
            ),
            r.history.length ? levelChart(r.history, t('profile.chart_label', { pool: poolLabel(r.pool) }), r.history.length === r.games) : null,
          ),
        )
      : h('p', { class: 'muted' }, t('profile.no_ratings')),
  );
}
