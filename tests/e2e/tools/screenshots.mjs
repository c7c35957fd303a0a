// The screenshots issue 25's closing note asks for, taken from a real server (SQLite, a
// temporary data directory): the Play panel and the queue, a match proposed and found,
// the end screen with each level before → after, the leaderboard, a profile's level
// chart, the lobby with levels next to names, and a game against a bot played while
// waiting with the proposal over it — each in English on a desktop (1366 × 768) and in
// Swedish on a phone (375 × 667; `--lang hu` for Hungarian instead).
//
//   cargo build -p dominion-server
//   node tests/e2e/tools/screenshots.mjs /tmp/shots [--lang sv|hu|ru]
//
// Not part of the test suite: it asserts nothing beyond waiting for each screen, and
// plays one short rated automatch game to its end between two browser pages (the
// policy of tests/e2e/lib/play.mjs, a minute or two).
import fs from 'node:fs';
import path from 'node:path';
import { launch, openPage } from '../lib/browser.mjs';
import { Policy, playToEnd } from '../lib/play.mjs';
import { startServer } from '../lib/server.mjs';

const args = process.argv.slice(2);
const out = args.find((a) => !a.startsWith('--'));
const langAt = args.indexOf('--lang');
const other = langAt >= 0 ? args[langAt + 1] : 'sv';
if (!out) {
  console.error('usage: node tests/e2e/tools/screenshots.mjs OUT_DIR [--lang sv|hu|ru]');
  process.exit(2);
}
const LOCALES = /** @type {Record<string, string>} */ ({ sv: 'sv-SE', hu: 'hu-HU', ru: 'ru-RU' });
if (!LOCALES[other]) {
  console.error(`--lang must be one of ${Object.keys(LOCALES).join(', ')}`);
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

const DESKTOP = { viewport: { width: 1366, height: 768 }, locale: 'en-US' };
const PHONE = { viewport: { width: 375, height: 667 }, locale: LOCALES[other], isMobile: true, hasTouch: true };

/** @type {string[]} */
const saved = [];

/**
 * Saves what the page shows (the viewport: what a person sees), or the whole page.
 * @param {import('playwright-core').Page} page @param {string} name @param {{full?: boolean, at?: string}} [opts]
 */
async function shot(page, name, opts = {}) {
  if (opts.at) await page.locator(opts.at).first().scrollIntoViewIfNeeded();
  await page.waitForTimeout(150); // a re-render after the last frame settles
  const file = path.join(out, `${name}.png`);
  await page.screenshot({ path: file, fullPage: !!opts.full });
  saved.push(file);
  // Anything cut off at the right edge (the page itself never scrolls sideways), other
  // than inside a part that scrolls sideways on purpose (the VP table on a phone).
  const cut = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (/** @type {Element} */ el) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > width + 1 && !scrolls(el))
      .slice(0, 3)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} (right ${Math.round(el.getBoundingClientRect().right)} > ${width})`);
  });
  console.log(`saved ${file}${cut.length ? ` — cut off: ${cut.join('; ')}` : ''}`);
}

/** @param {any[]} frames @param {string} type */
function last(frames, type) {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].type === type) return frames[i];
  return undefined;
}

/** Waits until `fn` holds (at most 30 s). @param {() => boolean} fn @param {string} what */
async function until(fn, what) {
  const end = Date.now() + 30000;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const server = await startServer(['--argon2-memory-kib', '256', '--argon2-iterations', '1']);
const chrome = await launch();
try {
  /**
   * A person with an account, signed in, in the lobby.
   * @param {string} name @param {typeof DESKTOP | typeof PHONE} opts
   */
  const person = async (name, opts) => {
    const p = await openPage(chrome.browser, opts);
    await p.page.goto(server.url);
    const status = await p.page.evaluate(
      async (name) =>
        (await fetch('/api/accounts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password: 'a long enough password' }) })).status,
      name,
    );
    if (status !== 201) throw new Error(`registering ${name}: ${status}`);
    await p.page.reload();
    await p.page.waitForSelector('[data-testid=conn-status][data-status=online]');
    await p.page.waitForSelector('[data-testid=automatch]');
    return p;
  };
  const ann = await person('Annika', DESKTOP);
  const bob = await person('Bertil', PHONE);
  const both = /** @type {const} */ ([
    [ann, 'en-desktop'],
    [bob, `${other}-phone`],
  ]);

  // 1. The Play panel, then the queue.
  for (const [p, tag] of both) await shot(p.page, `01-play-${tag}`, { at: '[data-testid=automatch]' });
  await ann.page.getByTestId('match-find').click();
  await ann.page.waitForSelector('[data-testid=match-status]');
  await shot(ann.page, '02-queued-en-desktop', { at: '[data-testid=automatch]' });
  // (The phone's queue is 09-wait-queued: two new players are paired at once.)
  await bob.page.getByTestId('match-find').click();

  // 2. Proposed, then found.
  for (const [p] of both) await p.page.waitForSelector('[data-testid=match-proposed]');
  for (const [p, tag] of both) await shot(p.page, `03-proposed-${tag}`, { at: '[data-testid=automatch]' });
  for (const [p] of both) await p.page.getByTestId('match-accept').click();
  for (const [p] of both) await p.page.waitForSelector('[data-testid=table]', { timeout: 30000 });
  await until(() => !!last(ann.rec.received, 'match_found') && !!last(bob.rec.received, 'match_found'), 'match_found');
  for (const [p, tag] of both) await shot(p.page, `04-found-${tag}`);

  // 3. Played to the end: the end screen with each level before → after.
  await Promise.all([playToEnd(ann.page, new Policy()), playToEnd(bob.page, new Policy())]);
  for (const [p] of both) await p.page.waitForSelector('[data-testid=rating-changes]');
  for (const [p, tag] of both) await shot(p.page, `05-end-${tag}`, { at: '[data-testid=rating-changes]' });
  for (const [p, tag] of both) await shot(p.page, `05-end-${tag}-full`, { full: true });
  for (const [p] of both) {
    await p.page.getByTestId('back-to-lobby').click();
    await p.page.waitForSelector('[data-testid=automatch]');
  }

  // 4. The leaderboard and a profile's level chart.
  for (const [p, tag] of both) {
    await p.page.goto(`${server.url}/leaderboard`);
    await p.page.waitForSelector('[data-testid=board-rows]');
    await shot(p.page, `06-leaderboard-${tag}`, { full: true });
    await p.page.goto(`${server.url}/players/${p === ann ? 'Bertil' : 'Annika'}`);
    await p.page.waitForSelector('[data-testid=profile-ratings] [data-testid=level-chart]');
    await shot(p.page, `07-profile-${tag}`, { at: '[data-testid=profile-ratings]' });
  }

  // 5. The lobby with levels next to names: Annika waits at a new table of two.
  await ann.page.goto(server.url);
  await ann.page.waitForSelector('[data-testid=conn-status][data-status=online]');
  await ann.page.getByTestId('seat-select-1').selectOption('');
  await ann.page.getByTestId('create-submit').click();
  await ann.page.waitForSelector('[data-testid=waiting-room]');
  const room = last(ann.rec.received, 'room_created')?.room?.id;
  await shot(ann.page, '08-waiting-levels-en-desktop');
  await bob.page.goto(server.url);
  await bob.page.waitForSelector(`[data-testid=room-${room}]`);
  await shot(bob.page, `08-lobby-levels-${other}-phone`, { at: `[data-testid=room-${room}]` });
  const eve = await openPage(chrome.browser, DESKTOP);
  await eve.page.goto(server.url);
  await eve.page.waitForSelector(`[data-testid=room-${room}]`);
  await shot(eve.page, '08-lobby-levels-en-desktop', { at: `[data-testid=room-${room}]` });

  // 6. A bot while waiting: Bertil queues, plays the Standard bot, and Annika's match
  //    proposal shows over his game.
  await bob.page.getByTestId('match-find').click();
  await bob.page.waitForSelector('[data-testid=match-play-bot]');
  await shot(bob.page, `09-wait-queued-${other}-phone`, { at: '[data-testid=automatch]' });
  await bob.page.getByTestId('match-play-bot').click();
  await bob.page.waitForSelector('[data-testid=table]');
  await bob.page.waitForSelector('[data-testid=match-overlay]');
  await shot(bob.page, `09-wait-playing-${other}-phone`);
  const cleo = await person('Cleo', DESKTOP);
  await cleo.page.getByTestId('match-find').click();
  await bob.page.waitForSelector('[data-testid=match-overlay] [data-testid=match-proposed]', { timeout: 60000 });
  await shot(bob.page, `09-wait-proposed-${other}-phone`);
  await bob.page.getByTestId('match-decline').click();

  for (const [p] of [...both, [eve], [cleo]]) {
    if (p.rec.invalid.length || p.rec.errors.length) console.warn('frames or console:', p.rec.invalid, p.rec.errors);
  }
  console.log(`${saved.length} screenshots in ${out}`);
} finally {
  await chrome.close();
  await server.stop();
}
