// Automatch in the browser against the real server: two players sign up in two
// browsers, press "Find a match", see each other proposed with a countdown, accept, and
// both land at the same table with the game started — no link shared. A guest is not
// offered the panel. Screenshots (tests/e2e/artifacts): automatch-queued-en.png,
// automatch-proposed-{en,hu}.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch } from '../lib/browser.mjs';
import { startServer } from '../lib/server.mjs';
import { last, signedUp as signedUpAt, until } from '../lib/signup.mjs';

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

/**
 * A browser in the lobby, signed up as `name`; `prepare` runs before the page loads.
 * @param {string} name @param {string} [locale]
 * @param {(page: import('playwright-core').Page) => Promise<void>} [prepare]
 */
function signedUp(name, locale, prepare) {
  return signedUpAt(chrome.browser, server.url, name, { locale, prepare });
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
