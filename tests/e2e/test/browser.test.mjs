// End-to-end tests of the web client in Debian's Chromium against the real server
// binary on 127.0.0.1. Pages are driven only by clicks and keys, like a person.
// Every WebSocket frame a page sends (and receives) is checked against the committed
// JSON Schema (lib/browser.mjs); a test fails on any invalid frame or console error.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { Policy, createRoom, enterLobby, playToEnd, readScreen, startGame, waitPast } from '../lib/play.mjs';
import { startProxy } from '../lib/proxy.mjs';
import { ROOT, startServer } from '../lib/server.mjs';

const CARDS = JSON.parse(fs.readFileSync(path.join(ROOT, 'web-client/data/cards.json'), 'utf8')).cards;

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;

const PHONE = { width: 375, height: 740 };

/** @param {{rec: {invalid: string[], errors: string[]}}} p @param {RegExp} [allowErrors] */
function assertClean({ rec }, allowErrors) {
  assert.deepEqual(rec.invalid, [], 'every frame matches the protocol schema');
  const errors = allowErrors ? rec.errors.filter((e) => !allowErrors.test(e)) : rec.errors;
  assert.deepEqual(errors, [], 'no console errors');
}

/** @param {import('playwright-core').Page} page @param {string} name */
async function screenshot(page, name) {
  await page.screenshot({ path: path.join(ARTIFACTS, name), fullPage: true });
}

/** @param {import('playwright-core').Page} page */
async function noHorizontalOverflow(page) {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: /** @type {Element} */ (document.scrollingElement).scrollWidth,
    inner: window.innerWidth,
  }));
  assert.ok(scroll <= inner, `page is ${scroll}px wide in a ${inner}px viewport`);
}

/** The last message of a type a page received. @param {any[]} frames @param {string} type */
function last(frames, type) {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].type === type) return frames[i];
  return undefined;
}

before(async () => {
  server = await startServer();
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
  await server?.stop();
});

// A bound on a hung suite, not a speed target: the full games take most of it on a
// busy 2-core machine.
describe('web client', { timeout: 900000 }, () => {
  test('the lobby offers every card and every recommended kingdom by name, and random pools and sets', async () => {
    const p = await openPage(chrome.browser);
    await enterLobby(p.page, server.url, 'Anna');
    const kingdoms = await (await fetch(`${server.url}/api/kingdoms`)).json();
    const cards = await (await fetch(`${server.url}/api/cards`)).json();
    const offered = await p.page.getByTestId('recommended-select').locator('option').evaluateAll((os) => os.map((o) => [/** @type {HTMLOptionElement} */ (o).value, o.textContent]));
    assert.deepEqual(offered.sort(), kingdoms.map((/** @type {any} */ k) => [k.id, k.name]).sort(), 'each recommended kingdom, by its name');
    const groups = await p.page.getByTestId('recommended-select').locator('optgroup').evaluateAll((gs) => gs.map((g) => g.getAttribute('label')));
    assert.ok(groups.includes('Base 1E') && groups.includes('Base 2E'), `grouped by set and edition: ${groups}`);
    assert.match(await p.page.getByTestId('edition-note').textContent() ?? '', /printed in one edition only.*text/);
    await p.page.getByTestId('kingdom-pick').check();
    // Both editions' cards can be picked (an explicit kingdom may mix them); the ones
    // printed in one edition only say so.
    const pickable = await p.page.locator('[data-testid^="pick-card-"]').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.testid?.slice('pick-card-'.length)));
    const implemented = cards.filter((/** @type {any} */ c) => c.kingdom).map((/** @type {any} */ c) => c.id);
    assert.deepEqual([...pickable].sort(), [...implemented].sort());
    for (const c of cards.filter((/** @type {any} */ c) => c.kingdom)) {
      const mark = p.page.getByTestId(`only-${c.id}`);
      if (c.editions.length === 1) assert.equal(await mark.textContent(), `${c.editions[0].toUpperCase()} only`, c.id);
      else assert.equal(await mark.count(), 0, c.id);
    }
    // The search filters by name.
    await p.page.getByTestId('pick-search').fill('vill');
    const found = await p.page.locator('[data-testid^="pick-card-"]').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.testid?.slice('pick-card-'.length)));
    assert.deepEqual(found.sort(), implemented.filter((/** @type {string} */ c) => c.includes('village')).sort()); // Village, Mining Village
    await p.page.getByTestId('kingdom-recommended').check();
    // Rooms made elsewhere appear without a reload.
    const other = await openPage(chrome.browser);
    await enterLobby(other.page, server.url, 'Zoltán');
    await createRoom(other.page, { players: 3, seats: ['', '', 'big_money'], roomName: 'Zoltán’s table' });
    const room = last(other.rec.received, 'seated').room;
    await p.page.waitForSelector(`[data-testid=room-${room}]`, { timeout: 10000 });
    assert.ok(await p.page.getByTestId(`join-${room}-1`).isVisible(), 'an open seat can be taken');
    assert.ok(await p.page.getByTestId(`watch-${room}`).isVisible(), 'the room can be watched');
    assert.match(await p.page.getByTestId(`room-${room}`).textContent() ?? '', /Zoltán/);
    // Bots by readable names, never their ids (which read like card names).
    assert.match(await p.page.getByTestId(`room-${room}`).textContent() ?? '', /Big Money bot/);
    const botOptions = await p.page.getByTestId('seat-select-1').locator('option').evaluateAll((os) => os.map((o) => [/** @type {HTMLOptionElement} */ (o).value, o.textContent]));
    assert.deepEqual(botOptions.find(([v]) => v === 'militia'), ['militia', 'Militia strategy bot']);
    assert.deepEqual(botOptions.find(([v]) => v === 'big_money'), ['big_money', 'Big Money bot']);
    await screenshot(p.page, 'lobby.png');
    await other.page.getByTestId('leave-room').click();
    await p.page.waitForSelector(`[data-testid=join-${room}-0]`, { timeout: 10000 });
    // A kingdom picked by hand, with a time limit per decision.
    await p.page.getByTestId('kingdom-pick').check();
    await p.page.getByTestId('pick-search').fill('');
    assert.ok(await p.page.getByTestId('create-submit').isDisabled(), 'ten cards are needed');
    for (const card of implemented.slice(0, 10)) await p.page.getByTestId(`pick-card-${card}`).check();
    assert.match(await p.page.getByTestId('pick-count').textContent() ?? '', /10 of 10/);
    await p.page.getByTestId('timer-select').selectOption('60');
    await p.page.getByTestId('create-submit').click();
    await p.page.waitForSelector('[data-testid=waiting-room]');
    const created = last(p.rec.sent, 'create_room');
    assert.deepEqual(created.settings.kingdom, { type: 'cards', cards: implemented.slice(0, 10) });
    assert.equal(created.settings.decision_seconds, 60);
    await p.page.getByTestId('leave-room').click();
    await p.page.waitForSelector('[data-testid=lobby]');
    // A random kingdom from a chosen pool; the pool follows the edition until chosen.
    await p.page.getByTestId('kingdom-random').check();
    assert.equal(await p.page.getByTestId('pool-select').inputValue(), '2e');
    await p.page.getByTestId('edition-1e').check();
    assert.equal(await p.page.getByTestId('pool-select').inputValue(), '1e');
    await p.page.getByTestId('pool-select').selectOption('both');
    // Every set the server's cards belong to, or one of them; every set until chosen.
    const sets = [...new Set(cards.filter((/** @type {any} */ c) => c.kingdom).map((/** @type {any} */ c) => c.set))];
    assert.deepEqual(sets, ['base', 'intrigue'], 'GET /api/cards gives each kingdom card its set');
    const setOptions = await p.page.getByTestId('sets-select').locator('option').evaluateAll((os) => os.map((o) => [/** @type {HTMLOptionElement} */ (o).value, o.textContent]));
    assert.deepEqual(setOptions, [['', 'Base + Intrigue'], ['base', 'Base'], ['intrigue', 'Intrigue']]);
    assert.equal(await p.page.getByTestId('sets-select').inputValue(), '');
    await p.page.getByTestId('create-submit').click();
    await p.page.waitForSelector('[data-testid=waiting-room]');
    const random = last(p.rec.sent, 'create_room');
    assert.deepEqual(random.settings.kingdom, { type: 'random', pool: 'both', sets: ['base', 'intrigue'] });
    assert.equal(random.settings.edition, '1e');
    await p.page.getByTestId('leave-room').click();
    await p.page.waitForSelector('[data-testid=lobby]');
    // Intrigue only, from the 1st edition's cards: the game starts with ten of them.
    await p.page.getByTestId('pool-select').selectOption('1e');
    await p.page.getByTestId('sets-select').selectOption('intrigue');
    await p.page.getByTestId('create-submit').click();
    await p.page.waitForSelector('[data-testid=waiting-room]');
    const intrigueRoom = last(p.rec.sent, 'create_room');
    assert.deepEqual(intrigueRoom.settings.kingdom, { type: 'random', pool: '1e', sets: ['intrigue'] });
    const madeRoom = last(p.rec.received, 'room_created').room;
    await startGame(p.page);
    await p.page.waitForSelector('[data-testid=supply] .kingdom [data-card]');
    const shown = await p.page.locator('[data-testid=supply] .kingdom [data-card]').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card ?? ''));
    assert.equal(shown.length, 10, `ten kingdom piles: ${shown}`);
    const byId = new Map(cards.map((/** @type {any} */ c) => [c.id, c]));
    for (const id of shown) {
      assert.equal(byId.get(id)?.set, 'intrigue', `${id} is an Intrigue card`);
      assert.ok(byId.get(id)?.editions.includes('1e'), `${id} is printed in the 1st edition`);
    }
    const started = p.rec.received.flatMap((/** @type {any} */ m) => (m.type === 'events' ? m.events : [])).find((/** @type {any} */ e) => e.type === 'game_started');
    assert.deepEqual([...started.kingdom].sort(), [...shown].sort(), 'the page shows the kingdom the game started with');
    // The lobby lists the room's choice by its sets.
    await other.page.waitForSelector(`[data-testid=room-${madeRoom.id}]`, { timeout: 10000 });
    const summary = await other.page.getByTestId(`room-${madeRoom.id}`).textContent();
    assert.match(summary ?? '', /random kingdom \(First edition cards; Intrigue\)/);
    assertClean(p);
    assertClean(other);
    await other.context.close();
    await p.context.close();
  });

  test('a player creates a room with one bot and plays a full game to the end screen', { timeout: 200000 }, async () => {
    const p = await openPage(chrome.browser);
    const { page } = p;
    await enterLobby(page, server.url, 'Anna');
    await createRoom(page, { seats: ['', 'militia'], roomName: 'Anna vs Militia' });
    await startGame(page);
    const policy = new Policy();
    let shot = false;
    await playToEnd(page, policy, async (i) => {
      // A mid-game table: the buy phase of a later turn, with cards in play.
      if (!shot && i > 20) {
        const s = await readScreen(page);
        if (s.decision?.kind === 'buy_phase' && s.decision.playAll && s.hand.length >= 4) {
          await screenshot(page, 'table-desktop.png');
          shot = true;
        }
      }
    });
    await page.waitForSelector('[data-testid=end-screen]');
    const scores = await page.locator('[data-testid^="score-vp-"]').allTextContents();
    assert.equal(scores.length, 2, 'both players are scored');
    assert.ok(scores.every((s) => /^-?\d+$/.test(s.trim())), `scores are numbers: ${scores}`);
    assert.match(await page.getByTestId('winner').textContent() ?? '', /Winner/);
    assert.equal(await page.locator('[data-testid^="deck-"]').count(), 2, 'each deck is shown');
    const log = await page.getByTestId('log').textContent();
    assert.match(log ?? '', /Anna plays|Anna buys/, 'the log reads as sentences');
    assert.ok(policy.answered.choose_cards || policy.answered.choose_pile, `a card asked a question: ${JSON.stringify(policy.answered)}`);
    assert.ok(shot, 'a mid-game screenshot was taken');
    // The bot is named as a bot on the end screen and in the log, not as the card.
    assert.match(await page.getByTestId('scores').textContent() ?? '', /Militia strategy bot/);
    assert.match(await page.getByTestId('deck-1').textContent() ?? '', /^Militia strategy bot — /);
    assert.doesNotMatch((await page.getByTestId('end-screen').textContent() ?? '') + (log ?? ''), /militia \(bot\)/);
    await screenshot(page, 'end.png');
    const result = last(p.rec.received, 'game_over');
    assert.ok(result, 'the server announced the end');
    assertClean(p);
    await page.getByTestId('back-to-lobby').click();
    await page.waitForSelector('[data-testid=lobby]');
    await p.context.close();
  });

  test("a real game with this release's cards: Spy's and Sentry's questions answered on the page", { timeout: 200000 }, async () => {
    const p = await openPage(chrome.browser, { viewport: { width: 1366, height: 768 } });
    const { page } = p;
    await enterLobby(page, server.url, 'Anna');
    // A hand-picked 2E kingdom may hold 1E-only cards (Spy, Thief, Feast).
    const kingdom = ['sentry', 'spy', 'thief', 'bandit', 'artisan', 'poacher', 'feast', 'village', 'smithy', 'market'];
    await createRoom(page, { seats: ['', 'big_money'], cards: kingdom, roomName: 'New cards' });
    assert.deepEqual(last(p.rec.sent, 'create_room').settings.kingdom, { type: 'cards', cards: kingdom });
    await startGame(page);
    const policy = new Policy(['sentry', 'spy'], { beforeTreasure: true });
    const seen = { spyAbout: 0, spyOwn: 0, sentry: 0 };
    for (let i = 0; i < 600 && !(seen.spyAbout && seen.sentry); i++) {
      await page.waitForSelector('[data-testid=decision], [data-testid=end-screen]', { timeout: 30000 });
      const s = await readScreen(page);
      if (s.end) break;
      const d = s.decision;
      if (d?.card === 'spy' && d.purpose === 'discard' && d.about === 1) {
        // The bot's revealed card: on the table in its set-aside zone, and in the widget.
        const card = /** @type {string} */ (d.single);
        assert.equal(await page.getByTestId('aside-1').locator('[data-card]').getAttribute('data-card'), card);
        assert.match(await page.getByTestId('decision-prompt').textContent() ?? '', /^Spy: Discard Big Money bot's revealed .+\?$/);
        if (!seen.spyAbout) await page.getByTestId('decision').screenshot({ path: path.join(ARTIFACTS, 'real-spy-discard.png') });
        const yes = seen.spyAbout % 2 === 0;
        await page.getByTestId(yes ? 'yes' : 'no').click();
        await waitPast(page, d.number);
        const frame = [...p.rec.sent].reverse().find((m) => m.type === 'reply' && m.decision === d.number);
        assert.deepEqual(frame, { type: 'reply', id: frame.id, decision: d.number, reply: { type: 'cards', cards: yes ? [card] : [] } });
        seen.spyAbout++;
        continue;
      }
      if (d?.card === 'spy' && d.purpose === 'discard') seen.spyOwn++;
      if (d?.card === 'sentry' && d.kind === 'choose_cards') {
        assert.match(await page.getByTestId('decision-prompt').textContent() ?? '', /^Sentry: (Trash|Discard)/);
        if (!seen.sentry) await page.getByTestId('decision').screenshot({ path: path.join(ARTIFACTS, 'real-sentry.png') });
        seen.sentry++;
      }
      assert.notEqual(await policy.step(page), 'end');
    }
    assert.ok(seen.spyAbout && seen.sentry, `Spy and Sentry asked: ${JSON.stringify(seen)}`);
    const log = await page.getByTestId('log').textContent() ?? '';
    assert.match(log, /Anna plays Spy\./);
    assert.match(log, /Big Money bot reveals/, "the bot's revealed card is in the log");
    assert.match(log, /Anna looks at .+ on top of their deck\./, 'Sentry shows my cards to me');
    await screenshot(page, 'table-new-cards.png');
    assertClean(p);
    await page.getByTestId('leave-room').click();
    await p.context.close();
  });

  for (const [kingdom, edition, favourites] of /** @type {const} */ ([
    ['base_2e/deck_top', '2e', ['sentry', 'harbinger', 'vassal', 'artisan', 'moneylender', 'bureaucrat']],
    ['base_1e/interaction', '1e', ['library', 'spy', 'thief', 'bureaucrat', 'chancellor']],
  ])) {
    test(`a full ${edition.toUpperCase()} game of ${kingdom}: every question of its cards answered on the page`, { timeout: 200000 }, async () => {
      const p = await openPage(chrome.browser);
      const { page } = p;
      await enterLobby(page, server.url, 'Anna');
      await createRoom(page, { seats: ['', 'big_money'], kingdom, edition });
      await startGame(page);
      const policy = new Policy([...favourites]);
      await playToEnd(page, policy, async () => {
        const text = (await page.getByTestId('table').textContent()) ?? '';
        assert.doesNotMatch(text, /\b(dec|log|table|type)\.[a-z_]+/, 'no untranslated string');
      });
      await page.waitForSelector('[data-testid=end-screen]');
      const asked = favourites.filter((c) => Object.keys(policy.answered).some((k) => k.endsWith(`:${c}`)));
      assert.ok(asked.length >= 2, `several of the new cards asked: ${JSON.stringify(policy.answered)}`);
      assert.equal(last(p.rec.received, 'game_over').setup.edition, edition);
      assertClean(p);
      await page.getByTestId('back-to-lobby').click();
      await p.context.close();
    });
  }

  test('at phone width the table fits, and a reload brings back the seat and the pending decision', async () => {
    const p = await openPage(chrome.browser, { viewport: PHONE, hasTouch: true, isMobile: true });
    const { page } = p;
    await enterLobby(page, server.url, 'Bence');
    await noHorizontalOverflow(page);
    await createRoom(page, { seats: ['', 'militia'] });
    await startGame(page);
    const policy = new Policy();
    // Play a few turns so the table has history, stopping at our own buy phase.
    for (let i = 0; i < 60; i++) {
      const s = await readScreen(page);
      if (i > 8 && s.decision?.kind === 'buy_phase' && !s.decision.playAll) break;
      assert.notEqual(await policy.step(page), 'end');
    }
    const before = await readScreen(page);
    assert.equal(before.decision?.kind, 'buy_phase');
    await noHorizontalOverflow(page);
    // The controls a turn needs are on screen and clickable at 375 px.
    for (const id of ['end-phase', 'hand', 'supply', 'status-bar']) {
      await page.getByTestId(id).first().scrollIntoViewIfNeeded();
      assert.ok(await page.getByTestId(id).first().isVisible(), `${id} is visible`);
    }
    const pile = page.getByTestId('pile-silver');
    await pile.scrollIntoViewIfNeeded();
    const box = await pile.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, 'a supply pile fits the screen');
    // Card text on tap.
    await page.getByTestId('pile-info-village').tap();
    await page.waitForSelector('[data-testid=card-info]');
    assert.match(await page.getByTestId('card-info').textContent() ?? '', /\+2 Actions/);
    await page.getByTestId('card-info-close').tap();
    await page.waitForSelector('[data-testid=card-info]', { state: 'detached' });
    // What a phone shows: the top of the table, and the decision bar at the bottom.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(ARTIFACTS, 'table-phone.png') });
    await screenshot(page, 'table-phone-full.png');
    const bar = await page.getByTestId('decision').boundingBox();
    assert.ok(bar && bar.y + bar.height <= PHONE.height + 1 && bar.y >= 0, 'the decision bar is on screen without scrolling');

    const seatBefore = last(p.rec.received, 'seated').seat;
    const handBefore = await page.locator('[data-testid=hand] .card').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card));
    await page.reload();
    await page.waitForSelector('[data-testid=decision]');
    const afterReload = await readScreen(page);
    assert.equal(afterReload.decision?.number, before.decision?.number, 'the same decision is pending');
    assert.equal(afterReload.decision?.kind, 'buy_phase');
    const handAfter = await page.locator('[data-testid=hand] .card').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card));
    assert.deepEqual(handAfter, handBefore, 'the same hand');
    const resumed = p.rec.sent.filter((m) => m.type === 'resume');
    assert.equal(resumed.length, 1, 'the page resumed with its seat token');
    assert.equal(last(p.rec.received, 'seated').seat, seatBefore, 'the same seat');
    assert.ok((await page.getByTestId('log').textContent())?.includes('Bence'), 'the log survives the reload');
    // And the game goes on from there.
    assert.equal(await policy.step(page), 'acted');
    assertClean(p);
    // On a phone, leaving is with the players, one tap away.
    await page.getByTestId('tab-players').tap();
    await page.getByTestId('leave-room').click();
    await p.context.close();
  });

  test('losing the network mid-game shows the indicator, then the same seat and decision come back', async () => {
    const proxy = await startProxy(server.port);
    const p = await openPage(chrome.browser);
    const { page } = p;
    try {
      await enterLobby(page, proxy.url, 'Fanni');
      await createRoom(page, { seats: ['', 'big_money'] });
      await startGame(page);
      const policy = new Policy();
      for (let i = 0; i < 6; i++) await policy.step(page);
      await page.waitForSelector('[data-testid=decision]');
      const before = await readScreen(page);
      proxy.cut();
      await page.waitForSelector('[data-testid=conn-status][data-status=down]');
      assert.match(await page.getByTestId('conn-status').textContent() ?? '', /Connection lost/);
      proxy.restore();
      await page.waitForSelector('[data-testid=conn-status][data-status=online]', { timeout: 20000 });
      await page.waitForFunction((n) => document.querySelector('[data-testid=decision]')?.getAttribute('data-decision') === String(n), before.decision?.number);
      const after = await readScreen(page);
      assert.equal(after.decision?.kind, before.decision?.kind);
      assert.deepEqual(after.hand, before.hand, 'the same hand');
      assert.equal(p.rec.sent.filter((m) => m.type === 'resume').length, 1, 'resumed with the seat token');
      assert.equal(await policy.step(page), 'acted', 'the game goes on');
      assertClean(p, /WebSocket connection to .* failed|ERR_CONNECTION|net::/);
      await page.getByTestId('leave-room').click();
    } finally {
      await p.context.close();
      await proxy.close();
    }
  });

  test('a second tab takes the seat over; the first says so and can take it back', async () => {
    const p = await openPage(chrome.browser);
    await enterLobby(p.page, server.url, 'Gizella');
    await createRoom(p.page, { seats: ['', 'big_money'] });
    await startGame(p.page);
    await p.page.waitForSelector('[data-testid=decision]');
    // Same browser profile (same localStorage, same seat token), another tab.
    const tab = await p.context.newPage();
    await tab.goto(server.url);
    await tab.waitForSelector('[data-testid=decision]');
    await p.page.waitForSelector('[data-testid=conn-status][data-status=replaced]');
    assert.match(await p.page.getByTestId('conn-status').textContent() ?? '', /another tab/);
    await p.page.getByTestId('take-back').click();
    await p.page.waitForSelector('[data-testid=conn-status][data-status=online]');
    await p.page.waitForSelector('[data-testid=decision]');
    await tab.waitForSelector('[data-testid=conn-status][data-status=replaced]');
    assertClean(p);
    await p.page.getByTestId('leave-room').click();
    await p.context.close();
  });

  test("two pages play each other and neither page shows the other's hand", { timeout: 400000 }, async () => {
    const a = await openPage(chrome.browser);
    const b = await openPage(chrome.browser);
    await enterLobby(a.page, server.url, 'Anna');
    await createRoom(a.page, { seats: ['', ''], roomName: 'Anna and Bence' });
    await enterLobby(b.page, server.url, 'Bence');
    const room = last(a.rec.received, 'seated').room;
    await b.page.getByTestId(`join-${room}-1`).click();
    await b.page.waitForSelector('[data-testid=waiting-room]');
    await a.page.waitForSelector('[data-testid=start-game]:not([disabled])');
    await a.page.getByTestId('start-game').click();
    await Promise.all([a.page.waitForSelector('[data-testid=table]'), b.page.waitForSelector('[data-testid=table]')]);
    // A third person watches the public table.
    const watcher = await openPage(chrome.browser);
    await enterLobby(watcher.page, server.url, 'Watcher');
    await watcher.page.getByTestId(`watch-${room}`).click();
    await watcher.page.waitForSelector('[data-testid=supply]');
    assert.equal(await watcher.page.locator('[data-testid=hand]').count(), 0, 'a spectator sees no hand');
    assert.equal(await watcher.page.locator('[data-testid=decision]').count(), 0, 'a spectator gets no decision');
    assert.match(await watcher.page.getByTestId('decision-waiting').textContent() ?? '', /watching/);
    const pa = new Policy();
    const pb = new Policy();
    // Each page answers its own decisions until the game ends.
    const play = async (/** @type {import('playwright-core').Page} */ page, /** @type {Policy} */ policy) => {
      for (let i = 0; i < 1500; i++) {
        await page.waitForSelector('[data-testid=decision], [data-testid=end-screen]', { timeout: 60000 });
        if ((await policy.step(page)) === 'end') return;
      }
      throw new Error('no end');
    };
    await Promise.all([play(a.page, pa), play(b.page, pb)]);
    for (const [me, other] of [
      [a, b],
      [b, a],
    ]) {
      const mySeat = last(me.rec.received, 'seated').seat;
      const otherSeat = last(other.rec.received, 'seated').seat;
      assert.notEqual(mySeat, otherSeat);
      for (const m of me.rec.received) {
        const view = m.view;
        if (view) {
          assert.equal(view.seat, mySeat, 'views are of my seat');
          assert.ok(!view.seats.some((/** @type {any} */ s) => 'hand' in s), 'no other hand in the view');
        }
        for (const e of m.events ?? []) {
          if (e.seat === otherSeat && (e.type === 'drew' || (e.private && e.type !== 'discarded'))) {
            assert.equal(e.cards, undefined, `the other's private cards are not sent: ${JSON.stringify(e)}`);
          }
        }
      }
      // The page shows one hand (its own), and the other player only as counts.
      const handShown = await me.page.locator('[data-testid=hand] .card').count();
      const lastView = [...me.rec.received].reverse().find((m) => m.view)?.view;
      assert.equal(handShown, lastView.hand.length);
      assert.equal(await me.page.locator(`[data-testid=opponent-${otherSeat}] .card`).count(), 0);
      assert.ok(await me.page.locator(`[data-testid=opponent-${otherSeat}] [data-stat=hand]`).isVisible());
      await me.page.waitForSelector('[data-testid=end-screen]');
      assertClean(me);
    }
    await watcher.page.waitForSelector('[data-testid=end-screen]');
    for (const m of watcher.rec.received) {
      if (m.view) assert.equal(m.view.hand, undefined, 'no hand is sent to a spectator');
      for (const e of m.events ?? []) if (e.type === 'drew') assert.equal(e.cards, undefined);
    }
    assertClean(watcher);
    await watcher.context.close();
    await a.context.close();
    await b.context.close();
  });

  test('a turn can be played with the keyboard alone, with visible focus', async () => {
    const p = await openPage(chrome.browser);
    const { page } = p;
    await enterLobby(page, server.url, 'Erik');
    await createRoom(page, { seats: ['', 'big_money'] });
    await page.getByTestId('start-game').focus();
    await page.keyboard.press('Enter');
    let bought = 0;
    for (let i = 0; i < 40 && bought < 2; i++) {
      await page.waitForSelector('[data-testid=decision]');
      const s = await readScreen(page);
      const d = /** @type {NonNullable<typeof s.decision>} */ (s.decision);
      if (d.kind === 'action_phase') {
        await page.keyboard.press('e'); // "E ends the phase"
      } else if (d.kind === 'buy_phase' && d.playAll) {
        await page.keyboard.press('t'); // "T plays all Treasures"
      } else if (d.kind === 'buy_phase') {
        // Tab to an affordable pile and press Enter, as a keyboard player would.
        const want = ['pile-gold', 'pile-silver'].find((id) => s.buyable.includes(id.slice(5)));
        if (!want) {
          await page.getByTestId('end-phase').focus();
          await page.keyboard.press('Enter');
          // With money left the page asks first; E again ends the turn.
          if (await page.getByTestId('end-turn-confirm').count()) await page.keyboard.press('e');
        } else {
          let reached = false;
          for (let tab = 0; tab < 120 && !reached; tab++) {
            await page.keyboard.press('Tab');
            reached = await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, want);
          }
          assert.ok(reached, `${want} is reachable with Tab`);
          const outline = await page.evaluate(() => getComputedStyle(/** @type {Element} */ (document.activeElement)).outlineStyle);
          assert.notEqual(outline, 'none', 'the focused control shows a focus outline');
          await page.keyboard.press('Enter');
          bought++;
        }
      } else {
        throw new Error(`unexpected ${d.kind} with big money`);
      }
      await waitPast(page, d.number);
    }
    assert.equal(bought, 2, 'two cards bought by keyboard');
    assert.match(await page.getByTestId('log').textContent() ?? '', /Erik buys (Silver|Gold)/);
    assertClean(p);
    await page.getByTestId('leave-room').click();
    await p.context.close();
  });

  test('the Hungarian UI shows Hungarian card names; the table in hu, ru and sv shows card texts in that language, at 1366 × 768', async () => {
    const p = await openPage(chrome.browser, { locale: 'hu-HU', viewport: { width: 1366, height: 768 } });
    const { page } = p;
    await enterLobby(page, server.url, 'Csilla');
    // The browser's language is the default.
    assert.equal(await page.getByTestId('lang-select').inputValue(), 'hu');
    assert.match(await page.locator('html').getAttribute('lang') ?? '', /^hu/);
    assert.match(await page.getByTestId('create-submit').textContent() ?? '', /Szoba létrehozása/);
    await page.getByTestId('seat-select-1').selectOption('militia');
    assert.equal(await page.getByTestId('seat-select-1').locator('option:checked').textContent(), 'Gép Polgárőrség-stratégiával');
    await screenshot(page, 'lobby-hu.png');
    await createRoom(page, { seats: ['', 'big_money'] });
    await startGame(page);
    await page.waitForSelector('[data-testid=pile-village]');
    assert.match(await page.getByTestId('pile-village').textContent() ?? '', /Falu/);
    assert.match(await page.getByTestId('pile-militia').textContent() ?? '', /Polgárőrség/, '2nd edition Hungarian name');
    assert.match(await page.getByTestId('supply').textContent() ?? '', /Kínálat/);
    await page.waitForSelector('[data-testid=decision]');
    assert.match(await page.getByTestId('decision').textContent() ?? '', /Akciófázis vége|kincs/i);
    /** The table in `lang`: a card's text in the hover panel, the bot's name, a screenshot. @param {'hu' | 'ru' | 'sv'} lang @param {RegExp} village @param {RegExp} supply @param {string} bot */
    const tableIn = async (lang, village, supply, bot) => {
      await page.getByTestId('lang-select').selectOption(lang);
      assert.match(await page.getByTestId('pile-village').textContent() ?? '', village, lang);
      assert.match(await page.getByTestId('supply').textContent() ?? '', supply, lang);
      assert.match(await page.getByTestId('opponent-1').textContent() ?? '', new RegExp(bot), `${lang}: the bot by name`);
      for (const card of ['mine', 'militia']) {
        await page.getByTestId(`pile-${card}`).hover();
        const text = page.locator('.hover-info .cd-text');
        // Only the 2E text, in the UI language.
        const want = CARDS[card].texts[lang];
        assert.equal(await text.textContent(), typeof want === 'string' ? want : want['2e'], `${lang} ${card}`);
        assert.equal(await text.getAttribute('lang'), lang);
      }
      await noHorizontalOverflow(page);
      // What a player sees at 1366 × 768, and the whole page.
      await page.screenshot({ path: path.join(ARTIFACTS, `table-${lang}.png`) });
      await screenshot(page, `table-${lang}-full.png`);
    };
    await tableIn('hu', /Falu/, /Kínálat/, 'Pénzhalmozó gép');
    // The picker switches language at once, and the choice is remembered.
    await tableIn('sv', /Village|By/, /Försörjning/, 'Bot med pengastrategi');
    await tableIn('ru', /Деревня/, /Резерв/, 'Бот «Большие деньги»');
    await page.reload();
    await page.waitForSelector('[data-testid=pile-village]');
    assert.equal(await page.getByTestId('lang-select').inputValue(), 'ru');
    assertClean(p);
    await page.getByTestId('leave-room').click();
    await p.context.close();
  });

  test('a lost connection is shown, retried, and the page recovers', async () => {
    const p = await openPage(chrome.browser);
    const { page } = p;
    await enterLobby(page, server.url, 'Dora');
    const port = server.port;
    await server.stop();
    await page.waitForSelector('[data-testid=conn-status][data-status=down]');
    assert.match(await page.getByTestId('conn-status').textContent() ?? '', /Connection lost/);
    assert.ok(await page.getByTestId('retry-now').isVisible());
    server = await startServer([], { port });
    await page.waitForSelector('[data-testid=conn-status][data-status=online]', { timeout: 20000 });
    // The browser logs failed WebSocket attempts while the server is away.
    assertClean(p, /WebSocket connection to .* failed/);
    await p.context.close();
  });
});
