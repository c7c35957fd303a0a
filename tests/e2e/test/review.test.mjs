// The Hint and the game review in the browser, against the real server: in an unrated
// game against a bot the Hint button asks the server what the Hard bot would do and
// shows it; a game with a planted blunder (a Curse bought with $8, late) is reviewed in
// the background once its replay is opened, and the replay page shows each player's
// counts, a chance-to-win graph, the marked decisions (the planted one among them) and,
// at a marked step, the answer given beside the better one. Screenshots review-*.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { Policy, createRoom, enterLobby, playToEnd, startGame } from '../lib/play.mjs';
import { startServer } from '../lib/server.mjs';

const DESKTOP = { width: 1366, height: 768 };

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;

before(async () => {
  // A small review budget: the test is about the page, not the review's strength
  // (the engine's tests check that planted blunders are found).
  server = await startServer(['--analysis-workers', '1', '--analysis-playouts', '600', '--analysis-budget-ms', '2000']);
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
  await server?.stop();
});

/** @param {any[]} frames @param {string} type */
function last(frames, type) {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].type === type) return frames[i];
  return undefined;
}

/** The test's own policy, which once buys a Curse with $8 or more late in the game. */
class Blunderer extends Policy {
  constructor() {
    super();
    /** Whether the Curse was bought. */
    this.planted = false;
  }

  /** @param {number} coins @param {string[]} buyable @param {number} provincesLeft */
  chooseBuy(coins, buyable, provincesLeft) {
    if (!this.planted && coins >= 8 && provincesLeft <= 6 && buyable.includes('curse')) {
      this.planted = true;
      return 'curse';
    }
    return super.chooseBuy(coins, buyable, provincesLeft);
  }
}

describe('the Hint and the game review', { timeout: 900000 }, () => {
  test('a hint in a bot game, then the review of the game on its replay page', { timeout: 840000 }, async () => {
    const p = await openPage(chrome.browser, { viewport: DESKTOP });
    const { page } = p;
    await enterLobby(page, server.url, 'Ada');
    await createRoom(page, { seats: ['', 'big_money'], roomName: 'Ada vs Big Money' });
    const room = last(p.rec.received, 'seated').room;
    await startGame(page);

    // The Hint, at this seat's first decision it is offered for.
    await page.waitForSelector('[data-testid=hint]', { timeout: 30000 });
    const decision = Number(await page.getByTestId('decision').getAttribute('data-decision'));
    await page.getByTestId('hint').click();
    await page.waitForSelector('[data-testid=hint-text]', { timeout: 30000 });
    assert.match((await page.getByTestId('hint-text').textContent()) ?? '', /^The Hard bot would .+\.$/);
    const hint = last(p.rec.received, 'hint');
    assert.ok(hint, 'the server answered with a hint');
    assert.equal(hint.decision, decision, "the hint is for this seat's pending decision");
    await page.screenshot({ path: path.join(ARTIFACTS, 'review-hint.png') });

    const policy = new Blunderer();
    await playToEnd(page, policy);
    await page.waitForSelector('[data-testid=end-screen]');
    assert.equal(await page.getByTestId('hint').count(), 0, 'no hint once the game is over');
    await p.context.close();
    assert.ok(policy.planted, 'the game reached a late $8 buy, where the Curse was bought');

    // The replay page asks for the review and shows it once made.
    const r = await openPage(chrome.browser, { viewport: DESKTOP });
    await r.page.goto(`${server.url}/replay/${room}`);
    await r.page.waitForSelector('[data-testid=review]');
    await r.page.waitForSelector('[data-testid=review][data-status=done]', { timeout: 600000 });
    const res = await fetch(`${server.url}/api/games/${room}/analysis`);
    assert.equal(res.status, 200);
    const analysis = await res.json();
    assert.deepEqual(
      analysis.players.map((/** @type {any} */ x) => x.seat),
      [0],
      'only the human seat is reviewed',
    );

    // The counts, the graph (one line per reviewed player, a dot per marked decision).
    const counts = r.page.locator('[data-testid=review-counts] tbody tr[data-seat="0"] td');
    const me = analysis.players[0];
    assert.deepEqual(await counts.allTextContents(), [String(me.inaccuracies), String(me.mistakes), String(me.blunders)]);
    const line = r.page.locator('[data-testid=review-graph] polyline[data-seat="0"]');
    const points = ((await line.getAttribute('points')) ?? '').trim().split(/\s+/);
    assert.equal(points.length, me.graph.length, 'a point per reviewed decision');
    const marked = analysis.decisions.filter((/** @type {any} */ d) => d.mark);
    assert.equal(await r.page.locator('[data-testid=review-graph] circle').count(), marked.length);

    // The planted Curse was reviewed, and a buy other than the Curse is the best found.
    // (Whether it is marked depends on how close the game was: a Curse late in a game
    // already won or lost changes little. The engine's tests plant blunders in close
    // positions and check their marks.)
    const curse = analysis.decisions.find((/** @type {any} */ d) => d.given.type === 'buy' && d.given.card === 'curse');
    assert.ok(curse, 'the Curse buy was reviewed');
    assert.ok(curse.drop >= 0, 'the best found is at least as good as the Curse');
    assert.ok(
      curse.candidates.some((/** @type {any} */ c) => c.reply.type === 'buy' && c.reply.card === 'province'),
      'Province was a candidate',
    );

    // Each marked decision is a button that jumps the replay there.
    for (const d of marked) {
      assert.equal(await r.page.getByTestId(`review-mark-${d.step}`).getAttribute('data-mark'), d.mark);
    }
    if (marked.length) {
      const d = marked[0];
      await r.page.getByTestId(`review-mark-${d.step}`).click();
      await r.page.waitForSelector(`[data-testid=replay][data-step="${d.step}"]:not([aria-busy])`, { timeout: 15000 });
      assert.equal(await r.page.getByTestId('review-current').getAttribute('data-mark'), d.mark);
      assert.match((await r.page.getByTestId('review-best').textContent()) ?? '', /The Hard bot's best: /);
    } else {
      assert.match((await r.page.getByTestId('review-marks').textContent()) ?? '', /No decision was marked/);
    }

    // At the Curse's step: the answer given beside the Hard bot's.
    await r.page.getByTestId('replay-slider').evaluate((el, n) => {
      const input = /** @type {HTMLInputElement} */ (el);
      input.value = String(n);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, curse.step);
    await r.page.waitForSelector(`[data-testid=replay][data-step="${curse.step}"]:not([aria-busy])`, { timeout: 15000 });
    assert.match((await r.page.getByTestId('review-current').textContent()) ?? '', /answer here: buy Curse/);
    assert.equal((await r.page.getByTestId('review-current').getAttribute('data-mark')) || null, curse.mark);
    await r.page.screenshot({ path: path.join(ARTIFACTS, 'review-replay.png'), fullPage: true });
    // On a phone: the review fits the width.
    await r.page.setViewportSize({ width: 390, height: 844 });
    const { scroll, inner } = await r.page.evaluate(() => ({ scroll: /** @type {Element} */ (document.scrollingElement).scrollWidth, inner: window.innerWidth }));
    assert.ok(scroll <= inner, `the replay page is ${scroll}px wide in a ${inner}px viewport`);
    await r.page.getByTestId('review').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await r.page.screenshot({ path: path.join(ARTIFACTS, 'review-phone.png') });
    assert.deepEqual(r.rec.errors, [], 'no console errors');
    await r.context.close();
  });
});
