// The end of a game and its replay in the browser, against the real server: a full game
// against a bot ends on the end screen (VP card by card adding up to the score, why the
// game ended, opened scrolled to "Game over"), its replay link opens /replay/<id>, which
// steps forward and back (buttons, keys, slider) from every point of view, and a rematch
// makes a new room with the same kingdom and seats. Screenshots end-*.png and
// replay-*.png at 1366 × 768 (and the end screen at 390 × 844).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { Policy, createRoom, enterLobby, playToEnd, startGame } from '../lib/play.mjs';
import { startServer } from '../lib/server.mjs';

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
/** The finished game the replay test watches (set by the first test). */
let finished = '';

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

/** @param {{rec: {invalid: string[], errors: string[]}}} p */
function assertClean(p) {
  assert.deepEqual(p.rec.invalid, [], 'every frame matches the protocol schema');
  assert.deepEqual(p.rec.errors, [], 'no console errors');
}

/** @param {string} path */
async function api(path) {
  const res = await fetch(`${server.url}${path}`);
  assert.equal(res.status, 200, path);
  return res.json();
}

/** @param {import('playwright-core').Page} page */
async function noHorizontalOverflow(page) {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: /** @type {Element} */ (document.scrollingElement).scrollWidth,
    inner: window.innerWidth,
  }));
  assert.ok(scroll <= inner, `page is ${scroll}px wide in a ${inner}px viewport`);
}

/** The cards the replay page shows in a seat's hand. @param {import('playwright-core').Page} page @param {number} seat */
function handOnPage(page, seat) {
  return page.locator(`[data-testid=replay-hand-${seat}] .card`).evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card ?? ''));
}

/** Waits until the replay page shows step `n` from `viewer`'s point of view. @param {import('playwright-core').Page} page @param {number} n @param {string} viewer */
async function shown(page, n, viewer) {
  await page.waitForSelector(`[data-testid=replay][data-step="${n}"][data-viewer="${viewer}"]:not([aria-busy])`, { timeout: 15000 });
}

describe('the end screen and the replay', { timeout: 600000 }, () => {
  test('a game against a bot ends on an end screen that adds up, says why, links the replay and offers a rematch', { timeout: 240000 }, async () => {
    const p = await openPage(chrome.browser, { viewport: DESKTOP });
    const { page } = p;
    await enterLobby(page, server.url, 'Anna');
    await createRoom(page, { seats: ['', 'big_money'], roomName: 'Anna vs Big Money' });
    const created = last(p.rec.sent, 'create_room');
    const room = last(p.rec.received, 'seated').room;
    await startGame(page);
    await playToEnd(page, new Policy());
    await page.waitForSelector('[data-testid=end-screen]');
    const over = last(p.rec.received, 'game_over');
    assert.ok(over, 'the server announced the end');

    // Opened scrolled to "Game over", which has the focus.
    await page.waitForFunction(() => document.activeElement?.id === 'end-h');
    const top = await page.evaluate(() => /** @type {HTMLElement} */ (document.getElementById('end-h')).getBoundingClientRect().top);
    assert.ok(top >= 0 && top < 200, `"Game over" is at the top of the viewport (${top}px)`);

    // Every player's VP, card by card, adds up to the score.
    for (const s of over.scores) {
      const cells = await page.locator(`[data-testid=vp-row-${s.seat}] td[data-vp]`).evaluateAll((els) => els.map((e) => Number(/** @type {HTMLElement} */ (e).dataset.vp)));
      const sum = cells.reduce((a, b) => a + b, 0);
      assert.equal(sum, s.vp, `seat ${s.seat}: the cards add up to the score`);
      assert.equal(Number(await page.getByTestId(`vp-total-${s.seat}`).textContent()), s.vp);
      assert.equal(Number(await page.getByTestId(`score-vp-${s.seat}`).textContent()), s.vp);
      const provinces = over.decks.find((/** @type {any} */ d) => d.seat === s.seat).cards.filter((/** @type {string} */ c) => c === 'province').length;
      if (provinces) assert.match(await page.getByTestId(`vp-${s.seat}-province`).textContent() ?? '', new RegExp(`${provinces} × 6 = ?${provinces * 6}`));
    }
    // Why it ended, from the last view.
    const view = last(p.rec.received, 'events').view;
    const reason = (await page.getByTestId('end-reason').textContent()) ?? '';
    if (view.supply.find((/** @type {any} */ x) => x.card === 'province').count === 0) assert.match(reason, /Province pile ran out/);
    else assert.match(reason, /Supply piles are empty: .+ and /);
    await page.screenshot({ path: path.join(ARTIFACTS, 'end-desktop.png') });

    // The phone: the same screen, nothing wider than the viewport.
    await page.setViewportSize(PHONE);
    await noHorizontalOverflow(page);
    await page.getByTestId('end-screen').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: path.join(ARTIFACTS, 'end-phone.png') });
    await page.setViewportSize(DESKTOP);

    // The replay link works.
    assert.equal(await page.getByTestId('replay-link').getAttribute('href'), `/replay/${room}`);
    const r = await openPage(chrome.browser, { viewport: DESKTOP });
    await r.page.goto(`${server.url}/replay/${room}`);
    await shown(r.page, 0, 'all');
    assertClean(r);
    await r.context.close();
    finished = room;

    // A rematch: a new room with the same kingdom (as drawn) and seats, this seat taken.
    await page.getByTestId('rematch').click();
    await page.waitForSelector('[data-testid=waiting-room]');
    const again = last(p.rec.sent, 'create_room');
    assert.deepEqual(again.settings.kingdom, { type: 'cards', cards: over.kingdom });
    assert.deepEqual(again.settings.seats, created.settings.seats);
    const made = last(p.rec.received, 'room_created').room;
    assert.notEqual(made.id, room);
    assert.deepEqual(last(p.rec.sent, 'rematch'), { type: 'rematch', id: last(p.rec.sent, 'rematch').id, room: made.id });
    assert.equal(last(p.rec.received, 'seated').room, made.id);
    assert.equal(last(p.rec.received, 'seated').seat, 0);
    assert.match(await page.getByTestId('wait-seat-1').textContent() ?? '', /bot/);
    assertClean(p);
    await p.context.close();
  });

  test('the replay page steps forward and back through the game from every point of view', { timeout: 120000 }, async () => {
    assert.ok(finished, 'the previous test finished a game');
    const record = await api(`/api/games/${finished}`);
    const steps = record.replies.length;
    const p = await openPage(chrome.browser, { viewport: DESKTOP });
    const { page } = p;
    await page.goto(`${server.url}/replay/${finished}`);
    await shown(page, 0, 'all');
    assert.match(await page.getByTestId('replay-step').textContent() ?? '', new RegExp(`Step 0 of ${steps}`));
    assert.match(await page.getByTestId('replay-reply').textContent() ?? '', /The game begins/);
    assert.match(await page.getByTestId('replay-log').textContent() ?? '', /goes first/);

    /** Checks the shown hands against the server's step. @param {number} n @param {string} viewer */
    const handsAre = async (n, viewer) => {
      const step = await api(`/api/games/${finished}/steps/${n}?viewer=${viewer}`);
      if (viewer === 'all') {
        for (const hd of step.hands) assert.deepEqual(await handOnPage(page, hd.seat), hd.cards, `step ${n}: seat ${hd.seat}'s hand`);
      } else {
        const seat = Number(viewer);
        assert.deepEqual(await handOnPage(page, seat), step.view.hand, `step ${n}: the viewer's hand`);
        assert.equal(await page.getByTestId(`replay-hand-${1 - seat}`).count(), 0, "another seat's hand is not shown");
      }
      return step;
    };
    await handsAre(0, 'all');

    // Forward by button and keys, back by key, the slider.
    await page.getByTestId('replay-next').click();
    await shown(page, 1, 'all');
    const first = record.replies[0];
    const who = first.seat === 0 ? 'Anna' : 'Big Money bot';
    assert.match(await page.getByTestId('replay-reply').textContent() ?? '', new RegExp(who));
    await handsAre(1, 'all');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await shown(page, 3, 'all');
    await page.keyboard.press('ArrowLeft');
    await shown(page, 2, 'all');
    await handsAre(2, 'all');
    const mid = Math.floor(steps / 2);
    await page.getByTestId('replay-slider').evaluate((el, n) => {
      const input = /** @type {HTMLInputElement} */ (el);
      input.value = String(n);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, mid);
    await shown(page, mid, 'all');
    const all = await handsAre(mid, 'all');
    assert.match(await page.getByTestId('replay-log').textContent() ?? '', /Anna draws .*Copper|Anna draws .*Silver|Anna draws .*Estate/, 'every draw is shown to everyone');
    await page.screenshot({ path: path.join(ARTIFACTS, 'replay-all.png') });

    // One player's point of view: their hand only, the others' draws as counts.
    await page.getByTestId('replay-viewer').selectOption('0');
    await shown(page, mid, '0');
    const mine = await handsAre(mid, '0');
    assert.deepEqual(mine.view.hand, all.hands[0].cards);
    const log = (await page.getByTestId('replay-log').textContent()) ?? '';
    assert.match(log, /Big Money bot draws \d+ cards\./, "the bot's draws are counts");
    assert.doesNotMatch(log, /Big Money bot draws [A-Z]/, "the bot's draws are not named");
    await page.screenshot({ path: path.join(ARTIFACTS, 'replay-seat.png') });
    await page.getByTestId('replay-viewer').selectOption('1');
    await shown(page, mid, '1');
    await handsAre(mid, '1');
    await page.keyboard.press('ArrowLeft');
    await shown(page, mid - 1, '1');
    await handsAre(mid - 1, '1');

    // The end and back to the start.
    await page.keyboard.press('End');
    await shown(page, steps, '1');
    assert.match(await page.getByTestId('replay-status').textContent() ?? '', /Game over/);
    assert.match(await page.getByTestId('replay-log').textContent() ?? '', /The game is over\./);
    assert.ok(await page.getByTestId('replay-next').isDisabled(), 'no step after the last');
    await page.screenshot({ path: path.join(ARTIFACTS, 'replay-end.png') });
    await page.getByTestId('replay-first').click();
    await shown(page, 0, '1');
    assert.ok(await page.getByTestId('replay-prev').isDisabled(), 'no step before the first');

    // By turn: each turn starts before its player's first Action- or Buy-phase reply.
    const phase = new Set(['play', 'play_all_treasures', 'buy', 'end_phase']);
    /** @type {{step: number, seat: number}[]} */
    const starts = [];
    record.replies.forEach((/** @type {any} */ r, /** @type {number} */ i) => {
      if (phase.has(r.reply.type) && r.seat !== starts.at(-1)?.seat) starts.push({ step: i, seat: r.seat });
    });
    starts[0].step = 0;
    assert.ok(starts.length < steps / 2, `${starts.length} turns in ${steps} steps`);
    assert.match((await page.getByTestId('replay-turn').textContent()) ?? '', /^Turn 1: /);
    await page.getByTestId('replay-next-turn').click();
    await shown(page, starts[1].step, '1');
    await page.getByTestId('replay-next-turn').click();
    await shown(page, starts[2].step, '1');
    // The third turn is the first player's second.
    assert.match((await page.getByTestId('replay-turn').textContent()) ?? '', /^Turn 2: /);
    await page.keyboard.press('PageDown');
    await shown(page, starts[3].step, '1');
    await page.keyboard.press('PageUp');
    await shown(page, starts[2].step, '1');
    await page.getByTestId('replay-prev-turn').click();
    await shown(page, starts[1].step, '1');
    assert.equal(await page.locator('#replay-turns option').count(), starts.length, 'a tick on the slider per turn');

    assertClean(p);

    // A game that does not exist says so (the browser logs the 404 itself).
    const q = await openPage(chrome.browser, { viewport: DESKTOP });
    await q.page.goto(`${server.url}/replay/nosuchgame`);
    await q.page.waitForSelector('[data-testid=replay-error]');
    assert.match(await q.page.getByTestId('replay-error').textContent() ?? '', /no finished game/);
    assert.deepEqual(q.rec.errors.filter((e) => !/404/.test(e)), []);
  });

  test('between two people, the rematch is offered to the other player, who joins it in their seat', { timeout: 300000 }, async () => {
    const a = await openPage(chrome.browser, { viewport: DESKTOP });
    const b = await openPage(chrome.browser, { viewport: DESKTOP });
    await enterLobby(a.page, server.url, 'Anna');
    await createRoom(a.page, { seats: ['', ''] });
    const room = last(a.rec.received, 'seated').room;
    await enterLobby(b.page, server.url, 'Bence');
    await b.page.getByTestId(`join-${room}-1`).click();
    await b.page.waitForSelector('[data-testid=waiting-room]');
    await a.page.waitForSelector('[data-testid=start-game]:not([disabled])');
    await a.page.getByTestId('start-game').click();
    // Each page plays its own seat; each waits for the other's turn.
    await Promise.all([playToEnd(a.page, new Policy()), playToEnd(b.page, new Policy())]);
    await Promise.all([a.page.waitForSelector('[data-testid=end-screen]'), b.page.waitForSelector('[data-testid=end-screen]')]);
    assert.equal(await b.page.getByTestId('rematch-offer').count(), 0, 'no offer before one is made');

    await a.page.getByTestId('rematch').click();
    await a.page.waitForSelector('[data-testid=waiting-room]');
    const made = last(a.rec.received, 'room_created').room.id;
    await b.page.waitForSelector('[data-testid=rematch-offer]');
    assert.deepEqual(last(b.rec.received, 'rematch'), { type: 'rematch', room: made, seat: 0 });
    assert.match(await b.page.getByTestId('rematch-offer').textContent() ?? '', /Anna offers a rematch/);
    assert.equal(await b.page.getByTestId('rematch').count(), 0, 'offered one, Bence joins it rather than making another');
    await b.page.screenshot({ path: path.join(ARTIFACTS, 'end-rematch-offer.png') });
    await b.page.getByTestId('rematch-join').click();
    await b.page.waitForSelector('[data-testid=waiting-room]');
    const seated = last(b.rec.received, 'seated');
    assert.deepEqual([seated.room, seated.seat], [made, 1], 'Bence sits in his old seat of the new room');
    await a.page.waitForSelector('[data-testid=start-game]:not([disabled])');
    assert.match(await a.page.getByTestId('wait-seat-1').textContent() ?? '', /Bence/);
    assertClean(a);
    assertClean(b);
    await a.context.close();
    await b.context.close();
  });
});
