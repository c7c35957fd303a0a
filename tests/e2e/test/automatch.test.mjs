// Automatch in the browser against the real server: two players sign up in two
// browsers, press "Find a match", see each other proposed with a countdown, accept, and
// both land at the same table with the game started — no link shared. A guest is not
// offered the panel. Screenshots (tests/e2e/artifacts): automatch-queued-en.png,
// automatch-proposed-{en,hu}.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { startServer } from '../lib/server.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;

before(async () => {
  server = await startServer();
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

/** Waits until `fn` holds (checked every 50 ms, at most 15 s). @param {() => boolean} fn @param {string} what */
async function until(fn, what) {
  const end = Date.now() + 15000;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A browser in the lobby, signed up as `name`; `prepare` runs before the page loads.
 * @param {string} name @param {string} [locale]
 * @param {(page: import('playwright-core').Page) => Promise<void>} [prepare]
 */
async function signedUp(name, locale, prepare) {
  const p = await openPage(chrome.browser, { locale });
  const { page } = p;
  await prepare?.(page);
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=conn-status][data-status=online]');
  assert.equal(await page.getByTestId('automatch').count(), 0, 'a guest is not offered automatch');
  const welcomes = p.rec.received.filter((m) => m.type === 'welcome').length;
  await page.getByTestId('sign-in-open').click();
  await page.waitForSelector('[data-testid=auth-dialog]');
  await page.getByTestId('auth-to-signup').click();
  await page.waitForSelector('[data-testid=auth-dialog][data-mode=signup]');
  await page.getByTestId('auth-name').fill(name);
  await page.getByTestId('auth-password').fill(`${name} has a long password`);
  await page.getByTestId('auth-submit').click();
  await page.waitForSelector('[data-testid=account-name]');
  await until(() => p.rec.received.filter((m) => m.type === 'welcome').length > welcomes, 'a new welcome');
  await page.waitForSelector('[data-testid=conn-status][data-status=online]');
  await page.waitForSelector('[data-testid=automatch]');
  return p;
}

describe('automatch in the browser', { timeout: 300000 }, () => {
  test("the queue shows the server's estimate of the wait still to come", async () => {
    // The server gives an estimate only once five players of the pool were matched
    // (tested in tests/it/automatch_cluster.rs); here every match_queued the real
    // server sends is passed on with one added, to see what the page makes of it.
    const cleo = await signedUp('Cleo', undefined, (page) =>
      page.routeWebSocket(/\/ws$/, (ws) => {
        const real = ws.connectToServer();
        real.onMessage((frame) => {
          let text = String(frame);
          const msg = JSON.parse(text);
          if (msg.type === 'match_queued') text = JSON.stringify({ ...msg, estimate_ms: 42000 });
          ws.send(text);
        });
      }),
    );
    await cleo.page.getByTestId('match-find').click();
    await cleo.page.waitForSelector('[data-testid=match-estimate]');
    assert.match(await cleo.page.getByTestId('match-estimate').textContent() ?? '', /^Usually about (4[0-2]) s more$/);
    await cleo.page.getByTestId('match-cancel').click();
    await cleo.page.waitForSelector('[data-testid=match-find]');
    assert.equal(await cleo.page.getByTestId('match-estimate').count(), 0);
    await cleo.page.context().close();
  });

  test('two players press Find a match, accept, and meet at one table', async () => {
    const ann = await signedUp('Annika');
    const bob = await signedUp('Bertil', 'hu-HU');
    await ann.page.getByTestId('match-find').click();
    await ann.page.waitForSelector('[data-testid=match-status]');
    assert.match(await ann.page.getByTestId('match-status').textContent() ?? '', /Looking for opponents/);
    await ann.page.screenshot({ path: path.join(ARTIFACTS, 'automatch-queued-en.png') });
    await bob.page.getByTestId('match-find').click();
    for (const p of [ann, bob]) await p.page.waitForSelector('[data-testid=match-proposed]');
    assert.match(await ann.page.getByTestId('match-proposed').textContent() ?? '', /Bertil/);
    assert.match(await bob.page.getByTestId('match-proposed').textContent() ?? '', /Annika/);
    assert.match(await ann.page.getByTestId('match-countdown').textContent() ?? '', /Accept within (20|19|18) s/);
    await ann.page.screenshot({ path: path.join(ARTIFACTS, 'automatch-proposed-en.png') });
    await bob.page.screenshot({ path: path.join(ARTIFACTS, 'automatch-proposed-hu.png') });
    await ann.page.getByTestId('match-accept').click();
    await bob.page.getByTestId('match-accept').click();
    for (const p of [ann, bob]) await p.page.waitForSelector('[data-testid=table]', { timeout: 20000 });
    await until(() => !!last(ann.rec.received, 'match_found') && !!last(bob.rec.received, 'match_found'), 'match_found');
    const room = last(ann.rec.received, 'match_found').room;
    assert.equal(last(bob.rec.received, 'match_found').room, room, 'the same room');
    // The game started: someone is asked to move.
    await until(() => [ann, bob].some((p) => p.rec.received.some((m) => m.type === 'decision')), 'a decision');
    for (const p of [ann, bob]) {
      assert.deepEqual(p.rec.invalid, [], 'every frame matches the protocol schema');
      assert.deepEqual(p.rec.errors, [], 'no console errors');
    }
  });
});
