// Ratings in the browser against the real server (issue 25): two people sign up in
// their own browsers, sit in a rated room through its invite link, play it to the end,
// and each end screen shows both levels before → after — exactly what Glicko-2 (τ 0.4,
// computed here independently of the server) and the level formula give for the scores.
// Then the leaderboard (/leaderboard) lists both with the reader's own row, and a profile
// draws the level chart as SVG. Screenshots (tests/e2e/artifacts): rating-end-en.png,
// leaderboard-en.png, leaderboard-sv.png (a phone), profile-chart-en.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { Policy, playToEnd } from '../lib/play.mjs';
import { startServer } from '../lib/server.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;

before(async () => {
  server = await startServer(['--argon2-memory-kib', '256', '--argon2-iterations', '1']);
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
  await server?.stop();
});

/** @param {import('playwright-core').Page} page @param {string} name */
async function screenshot(page, name) {
  await page.screenshot({ path: path.join(ARTIFACTS, name), fullPage: true });
}

/** @param {any[]} frames @param {string} type */
function last(frames, type) {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].type === type) return frames[i];
  return undefined;
}

// ---- Glicko-2 for one 2-player game, as Glickman's paper (an independent check) ----
const SCALE = 173.7178;
/** @param {{r: number, rd: number, s: number}} me @param {{r: number, rd: number}} them @param {number} score @param {number} tau */
function glicko2(me, them, score, tau) {
  const mu = (me.r - 1500) / SCALE;
  const phi = me.rd / SCALE;
  const muJ = (them.r - 1500) / SCALE;
  const phiJ = them.rd / SCALE;
  const g = 1 / Math.sqrt(1 + (3 * phiJ * phiJ) / (Math.PI * Math.PI));
  const e = 1 / (1 + Math.exp(-g * (mu - muJ)));
  const v = 1 / (g * g * e * (1 - e));
  const delta = v * g * (score - e);
  const a = Math.log(me.s * me.s);
  const f = (/** @type {number} */ x) =>
    (Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x))) / (2 * (phi * phi + v + Math.exp(x)) ** 2) - (x - a) / (tau * tau);
  let A = a;
  let B;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > 1e-6) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else fA /= 2;
    B = C;
    fB = fC;
  }
  const sigma = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + sigma * sigma);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * g * (score - e);
  return { r: SCALE * muNew + 1500, rd: SCALE * phiNew };
}
/** @param {number} r @param {number} rd */
const level = (r, rd) => Math.max(0, 50 + 7.5 * ((r - 1500) / SCALE - (2 * rd) / SCALE));

/** A person with an account, signed in, on the lobby. @param {string} name @param {{locale?: string, viewport?: {width: number, height: number}, isMobile?: boolean, hasTouch?: boolean}} [opts] */
async function person(name, opts) {
  const p = await openPage(chrome.browser, opts);
  await p.page.goto(server.url);
  const status = await p.page.evaluate(
    async (name) =>
      (await fetch('/api/accounts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password: 'a long enough password' }) })).status,
    name,
  );
  assert.equal(status, 201);
  await p.page.reload();
  await p.page.waitForSelector('[data-testid=conn-status][data-status=online]');
  return p;
}

test('two signed-in players play a rated game: both end screens show the levels the formula gives; the leaderboard and the profile chart show them', async () => {
  const ann = await person('Ann');
  const bob = await person('Bob');
  // A rated room, made with the lobby's form (its "rated" box is there for a signed-in
  // player and 2 to 4 seats); Bob comes in through its invite link.
  await ann.page.getByTestId('seat-select-1').selectOption('');
  await ann.page.getByTestId('create-rated').check();
  await ann.page.getByTestId('create-submit').click();
  await ann.page.waitForSelector('[data-testid=waiting-room]');
  const created = ann.rec.sent.find((m) => m.type === 'create_room');
  assert.equal(created?.settings?.rated, true, 'the form asks for a rated room');
  const room = last(ann.rec.received, 'room_created')?.room?.id;
  assert.ok(room, 'the room was made');
  await bob.page.goto(`${server.url}/#room=${room}`);
  await bob.page.waitForSelector('[data-testid=invite-offer]');
  await bob.page.getByTestId('invite-take').click();
  await bob.page.waitForSelector('[data-testid=waiting-room]');
  const start = ann.page.getByTestId('start-game');
  await ann.page.waitForSelector('[data-testid=start-game]:not([disabled])');
  await start.click();
  await Promise.all([playToEnd(ann.page, new Policy()), playToEnd(bob.page, new Policy())]);

  // Both end screens show the change, once the server has stored it.
  for (const p of [ann, bob]) await p.page.waitForSelector('[data-testid=rating-changes]');
  const over = last(ann.rec.received, 'game_over');
  const changed = last(ann.rec.received, 'rating_changed');
  assert.ok(over && changed, 'game_over, then rating_changed');
  const key = (/** @type {any} */ s) => [-s.vp, s.turns];
  const [s0, s1] = [0, 1].map((seat) => over.scores.find((/** @type {any} */ s) => s.seat === seat));
  const cmp = key(s0)[0] - key(s1)[0] || key(s0)[1] - key(s1)[1];
  const score0 = cmp < 0 ? 1 : cmp > 0 ? 0 : 0.5;
  const fresh = { r: 1500, rd: 350, s: 0.06 };
  const expected = [glicko2(fresh, fresh, score0, 0.4), glicko2(fresh, fresh, 1 - score0, 0.4)];
  for (const p of [ann, bob]) {
    for (const seat of [0, 1]) {
      const li = p.page.getByTestId(`rating-change-${seat}`);
      const before = Number(await li.getAttribute('data-before'));
      const after = Number(await li.getAttribute('data-after'));
      assert.ok(Math.abs(before - level(1500, 350)) < 1e-9, `level before ${before}`);
      const want = level(expected[seat].r, expected[seat].rd);
      assert.ok(Math.abs(after - want) < 1e-6, `seat ${seat}: level after ${after}, the formula gives ${want}`);
      const text = await li.textContent();
      assert.ok(text?.includes(`${(Math.round(before * 10) / 10).toFixed(1)} → ${(Math.round(after * 10) / 10).toFixed(1)}`), text ?? '');
    }
  }
  assert.deepEqual(last(bob.rec.received, 'rating_changed'), changed);
  await screenshot(ann.page, 'rating-end-en.png');

  // The leaderboard: both, best first; the reader's own row.
  await ann.page.goto(`${server.url}/leaderboard`);
  await ann.page.waitForSelector('[data-testid=board-rows]');
  assert.equal(await ann.page.locator('[data-testid=board-rows] tbody tr').count(), 2);
  await ann.page.waitForSelector('[data-testid=board-me] [data-testid=me-row-Ann]');
  const shown = await ann.page.getByTestId('me-row-Ann').getByTestId('board-level').textContent();
  assert.equal(shown, (Math.round(level(expected[0].r, expected[0].rd) * 10) / 10).toFixed(1));
  await screenshot(ann.page, 'leaderboard-en.png');
  await ann.page.getByTestId('board-pool-3-4p').click();
  await ann.page.waitForSelector('[data-testid=board-empty]');
  assert.match(await ann.page.evaluate(() => location.search), /pool=3-4p/);

  // In Swedish, on a phone.
  const eve = await openPage(chrome.browser, { locale: 'sv-SE', viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  await eve.page.goto(`${server.url}/leaderboard?pool=2p`);
  await eve.page.waitForSelector('[data-testid=board-rows]');
  assert.match((await eve.page.getByTestId('leaderboard').textContent()) ?? '', /Topplista/);
  const overflow = await eve.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const wide = await eve.page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)} parent ${el.parentElement?.className} ${getComputedStyle(/** @type {Element} */ (el.parentElement)).overflowX}`),
  );
  assert.ok(overflow <= 0, `no sideways scrolling of the page on a phone (${overflow} px): ${wide.join(', ')}`);
  // Every column shows without scrolling the table either (the deviation goes under the rating).
  const inner = await eve.page.evaluate(() => {
    const wrap = /** @type {HTMLElement} */ (document.querySelector('.board-wrap'));
    return wrap.scrollWidth - wrap.clientWidth;
  });
  assert.ok(inner <= 0, `the leaderboard's columns fit a phone (${inner} px to scroll)`);
  await screenshot(eve.page, 'leaderboard-sv.png');

  // The profile: the level and its chart, one point per rated game.
  await ann.page.goto(`${server.url}/players/Bob`);
  await ann.page.waitForSelector('[data-testid=profile-ratings] [data-testid=level-chart]');
  assert.equal(await ann.page.getByTestId('level-chart').getAttribute('data-points'), '1');
  // The line starts at every new player's level (a hollow point), then the game's.
  assert.equal(await ann.page.getByTestId('level-chart').getAttribute('data-from-start'), 'true');
  assert.equal(await ann.page.locator('[data-testid=level-chart] circle').count(), 2);
  assert.equal(await ann.page.locator('[data-testid=level-chart-start] title').textContent(), '19.8');
  await screenshot(ann.page, 'profile-chart-en.png');

  for (const p of [ann, bob, eve]) {
    assert.deepEqual(p.rec.invalid, [], 'every frame matches the protocol schema');
    assert.deepEqual(p.rec.errors, [], 'no console errors');
    await p.context.close();
  }
});
