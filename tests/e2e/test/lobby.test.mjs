// The lobby at every size: "Play" and "Create a table" at the top of the screen, the
// last name used remembered, recent games with this person's first and the rest folded
// away, every screen opening at its top, and names in the viewer's language (recommended
// kingdoms, and room names the client composes from host and kingdom). Screenshots:
// lobby-top-<size>.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { createRoom, enterLobby } from '../lib/play.mjs';
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

/** @param {{rec: {invalid: string[], errors: string[]}}} p */
function assertClean({ rec }) {
  assert.deepEqual(rec.invalid, [], 'every frame matches the protocol schema');
  assert.deepEqual(rec.errors, [], 'no console errors');
}

const SIZES = /** @type {const} */ ([
  ['laptop', { width: 1366, height: 768 }, false],
  ['desktop', { width: 1920, height: 1080 }, false],
  ['phone', { width: 390, height: 844 }, true],
]);

/** A finished game's summary as GET /api/games gives it. @param {string} room @param {string} name @param {number} at */
function game(room, name, at) {
  return {
    room,
    finished_at: at,
    outcome: 'finished',
    setup: { edition: '2e', kingdom: { type: 'cards', cards: ['cellar', 'moat', 'village', 'workshop', 'militia', 'remodel', 'smithy', 'market', 'mine', 'witch'] } },
    seats: [
      { seat: 0, name },
      { seat: 1, name: 'Big Money bot', bot: 'big_money' },
    ],
    scores: [
      { seat: 0, vp: 30, turns: 20, winner: true },
      { seat: 1, vp: 20, turns: 20, winner: false },
    ],
  };
}

describe('the lobby', { timeout: 300000 }, () => {
  for (const [size, viewport, phone] of SIZES) {
    test(`at ${viewport.width} × ${viewport.height}: "Play" and "Create a table" at the top; recent games, mine first`, async () => {
      const p = await openPage(chrome.browser, { viewport, hasTouch: phone, isMobile: phone });
      const { page } = p;
      // Five recent games, one of them Lena's (the list is the server's; here a fixed one).
      const now = Math.floor(Date.now() / 1000);
      const games = [game('g1', 'Zoé', now - 10), game('g2', 'Erik', now - 20), game('g3', 'Lena', now - 30), game('g4', 'Anna', now - 40), game('g5', 'Bob', now - 50)];
      await page.route(/\/api\/games\?limit=10$/, (route) => route.fulfill({ json: games }));
      await enterLobby(page, server.url, 'Lena');
      for (const id of ['quick-play', 'create-open', 'name-input']) {
        const b = await page.getByTestId(id).boundingBox();
        assert.ok(b && b.y >= 0 && b.y + b.height <= viewport.height, `${size}: ${id} is on the first screen: ${JSON.stringify(b)}`);
      }
      await page.screenshot({ path: path.join(ARTIFACTS, `lobby-top-${size}.png`) });
      // Lena's game is listed, the others are folded away under their count.
      await page.waitForSelector('[data-testid=recent-mine] [data-testid=recent-g3]');
      assert.equal(await page.locator('[data-testid=recent-mine] > li').count(), 1);
      assert.equal(await page.getByTestId('recent-others').getAttribute('open'), null, 'the others are collapsed');
      assert.match((await page.getByTestId('recent-others-toggle').textContent()) ?? '', /\(4\)/);
      assert.ok(!(await page.getByTestId('recent-g1').isVisible()));
      await page.getByTestId('recent-others-toggle').click();
      assert.ok(await page.getByTestId('recent-g1').isVisible());
      // "Create a table" brings the form into view with its first field focused.
      await page.getByTestId('create-open').click();
      await page.waitForFunction(() => document.activeElement?.id === 'room-name');
      await page.waitForFunction(() => {
        const r = document.getElementById('create-h')?.getBoundingClientRect();
        return r && r.top >= 0 && r.top < window.innerHeight;
      });
      assertClean(p);
      await p.context.close();
    });
  }

  test('the name is remembered; "Play" starts a game against a bot at once, and each screen opens at its top', async () => {
    const p = await openPage(chrome.browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const { page } = p;
    await enterLobby(page, server.url, 'Märta');
    await page.reload();
    await page.waitForSelector('[data-testid=conn-status][data-status=online]');
    assert.equal(await page.getByTestId('name-input').inputValue(), 'Märta', 'the last name used');
    // Scrolled down the lobby, "Play" (at the top) opens the table at its top.
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('quick-play').tap();
    await page.waitForSelector('[data-testid=table]');
    const created = [...p.rec.sent].reverse().find((m) => m.type === 'create_room');
    assert.equal(created.settings.seats.length, 2);
    assert.equal(created.settings.seats[1].type, 'bot');
    assert.equal(created.settings.kingdom.type, 'random');
    assert.ok(p.rec.sent.some((m) => m.type === 'start'), 'the game was started');
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'the table opens at its top');
    // Back in the lobby (leaving asks first), scrolled down; the waiting room of a new room opens at its top.
    await page.getByTestId('tab-players').tap();
    await page.getByTestId('leave-room').tap();
    await page.getByTestId('leave-confirm').tap();
    await page.waitForSelector('[data-testid=lobby]');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    assert.ok((await page.evaluate(() => window.scrollY)) > 200, 'the lobby was scrolled');
    await createRoom(page, { seats: ['', 'big_money'] });
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'the waiting room opens at its top');
    assertClean(p);
    await p.context.close();
  });

  test('recommended kingdoms by their names in the language; a room without a name is named in the viewer\'s language', async () => {
    const host = await openPage(chrome.browser);
    await enterLobby(host.page, server.url, 'Anna');
    await createRoom(host.page, { seats: ['', ''], kingdom: 'base_2e/first_game' });
    const room = [...host.rec.received].reverse().find((m) => m.type === 'seated').room;
    const viewer = await openPage(chrome.browser);
    await enterLobby(viewer.page, server.url, 'Olga');
    await viewer.page.waitForSelector(`[data-testid=room-${room}]`);
    const server_name = (await (await fetch(`${server.url}/api/rooms`)).json()).find((/** @type {any} */ r) => r.id === room).name;
    assert.equal(server_name, 'Anna — First Game', 'the server names it in English');
    /** @type {Record<string, [string, RegExp]>} */
    const want = { en: ['Anna — First Game', /First Game/], hu: ['Anna — Első játék', /Első játék/], ru: ['Anna — Первая игра', /Первая игра/], sv: ['Anna — Första spelet', /Första spelet/] };
    for (const [lang, [name, kingdom]] of Object.entries(want)) {
      await viewer.page.getByTestId('lang-select').selectOption(lang);
      assert.equal(await viewer.page.getByTestId(`room-${room}`).locator('.room-name').textContent(), name, lang);
      const options = await viewer.page.getByTestId('recommended-select').locator('option').allTextContents();
      assert.ok(options.some((o) => kingdom.test(o)), `${lang}: ${options.join(' | ')}`);
      if (lang !== 'en') assert.ok(!options.includes('Underlings'), `${lang}: no English kingdom name`);
      // The Hungarian 1E rulebooks print other names than the 2E one: each edition's own.
      if (lang === 'hu') {
        assert.ok(options.some((o) => /Kezdőknek/.test(o)) && options.some((o) => /Mérettorzítás/.test(o)), `hu: ${options.join(' | ')}`);
      }
    }
    for (const p of [host, viewer]) {
      assertClean(p);
      await p.context.close();
    }
  });
});
