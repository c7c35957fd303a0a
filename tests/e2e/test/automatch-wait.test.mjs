// "Play a bot while you wait" (issue 25): a signed-in player queued for automatch starts
// an unrated game against the Standard bot on the same connection and plays a move; a
// second player queues; the proposal shows over the first one's game; both accept; the
// first leaves the bot's room and lands in the match's room, still one connection.
// Also: the lobby and the waiting room show each account's level next to its name.
// Screenshots (tests/e2e/artifacts): automatch-wait-playing.png,
// automatch-wait-proposed.png, automatch-wait-proposed-phone.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { endPhase } from '../lib/play.mjs';
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
 * A browser in the lobby, signed up as `name`.
 * @param {string} name @param {{viewport?: {width: number, height: number}, isMobile?: boolean, hasTouch?: boolean}} [opts]
 */
function signedUp(name, opts = {}) {
  return signedUpAt(chrome.browser, server.url, name, opts);
}

describe('play a bot while waiting for a match', { timeout: 300000 }, () => {
  test('a queued player plays the Standard bot, accepts over the game and lands in the match room', async () => {
    const ann = await signedUp('Wanda', { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
    const bob = await signedUp('Walter');
    await ann.page.getByTestId('match-find').click();
    await ann.page.waitForSelector('[data-testid=match-status]');
    await ann.page.getByTestId('match-play-bot').click();

    // The bot game: an unrated room, Ann and the Standard bot, started.
    await ann.page.waitForSelector('[data-testid=table]', { timeout: 20000 });
    const botRoom = last(ann.rec.received, 'seated').room;
    const created = last(ann.rec.received, 'room_created').room;
    assert.equal(created.id, botRoom);
    assert.notEqual(created.settings.rated, true, 'the bot game is unrated');
    assert.deepEqual(created.settings.seats[1], { type: 'bot', bot: 'standard' });
    // Still queued: the status shows over the game, and no cancel was sent.
    await ann.page.waitForSelector('[data-testid=match-overlay] [data-testid=match-status]');
    assert.equal(ann.rec.sent.filter((m) => m.type === 'cancel_match').length, 0);

    // A move: Ann ends her Action phase when she is asked (the bot may go first).
    await ann.page.waitForSelector('[data-testid=end-phase]:not([disabled])', { timeout: 30000 });
    const repliesBefore = ann.rec.sent.filter((m) => m.type === 'reply').length;
    await endPhase(ann.page);
    await until(() => ann.rec.sent.filter((m) => m.type === 'reply').length > repliesBefore, 'a reply');
    await until(() => ann.rec.received.some((m) => m.type === 'events' && m.first > 0), 'the move applied');
    await ann.page.screenshot({ path: path.join(ARTIFACTS, 'automatch-wait-playing.png') });

    // Bob queues: both are proposed, Ann over her game.
    await bob.page.getByTestId('match-find').click();
    await ann.page.waitForSelector('[data-testid=match-overlay] [data-testid=match-proposed]', { timeout: 20000 });
    await bob.page.waitForSelector('[data-testid=match-proposed]');
    assert.match(await ann.page.getByTestId('match-proposed').textContent() ?? '', /Walter/);
    await ann.page.screenshot({ path: path.join(ARTIFACTS, 'automatch-wait-proposed-phone.png') });
    // The box is on screen, over the table, on a phone.
    const box = await ann.page.getByTestId('match-overlay').boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 375 && box.y >= 0 && box.y + box.height <= 667, JSON.stringify(box));
    await ann.page.getByTestId('match-accept').click();
    await bob.page.getByTestId('match-accept').click();

    // Ann leaves the bot's room and enters the match's room, on the same connection.
    await until(() => !!last(ann.rec.received, 'match_found') && !!last(bob.rec.received, 'match_found'), 'match_found');
    const room = last(ann.rec.received, 'match_found').room;
    assert.equal(last(bob.rec.received, 'match_found').room, room);
    assert.notEqual(room, botRoom);
    await until(() => ann.rec.sent.some((m) => m.type === 'resume' && m.room === room), 'resume of the match room');
    const leave = ann.rec.sent.findIndex((m) => m.type === 'leave');
    const resume = ann.rec.sent.findIndex((m) => m.type === 'resume' && m.room === room);
    assert.ok(leave >= 0 && leave < resume, 'the bot room is left before the match room is entered');
    assert.equal(ann.rec.received.filter((m) => m.type === 'welcome').length, 2, 'one connection since signing in');
    for (const p of [ann, bob]) await p.page.waitForSelector('[data-testid=table]', { timeout: 20000 });
    await until(() => last(ann.rec.received, 'room')?.room.id === room || ann.rec.received.some((m) => m.type === 'room_list' && m.rooms.some((r) => r.id === room)), 'the match room');
    // The match room shows both players with a level (2p, new players: 19).
    const summary = [...ann.rec.received].reverse().map((m) => (m.type === 'room' ? m.room : m.type === 'room_list' ? m.rooms.find((r) => r.id === room) : null)).find((r) => r);
    for (const s of summary.seats) assert.equal(s.occupant.level, 19, JSON.stringify(s));
    // Ann is out of the bot's room: its seat is hers no more in this browser.
    assert.equal(await ann.page.evaluate((id) => Object.keys(JSON.parse(localStorage.getItem('dominion.seats') ?? '{}')).includes(id), botRoom), false);
    for (const p of [ann, bob]) {
      assert.deepEqual(p.rec.invalid, [], 'every frame matches the protocol schema');
      assert.deepEqual(p.rec.errors, [], 'no console errors');
    }
  });

  test('the lobby and the waiting room show an account level next to its name, a guest none', async () => {
    const cleo = await signedUp('Cleo');
    // A room of two seats (so the 2p level): Cleo's game against the bot.
    const guest = await openPage(chrome.browser);
    await guest.page.goto(server.url);
    await guest.page.waitForSelector('[data-testid=conn-status][data-status=online]');
    await cleo.page.getByTestId('match-find').click();
    await cleo.page.waitForSelector('[data-testid=match-status]');
    await cleo.page.screenshot({ path: path.join(ARTIFACTS, 'automatch-wait-queued.png') });
    await cleo.page.getByTestId('match-play-bot').click();
    await cleo.page.waitForSelector('[data-testid=table]', { timeout: 20000 });
    const room = last(cleo.rec.received, 'seated').room;
    await guest.page.reload();
    await guest.page.waitForSelector(`[data-testid=room-${room}]`);
    const item = guest.page.getByTestId(`room-${room}`);
    assert.match(await item.textContent() ?? '', /Cleo \(level 19\)/);
    assert.equal(await item.getByTestId('seat-level').count(), 1, 'the bot has no level');
    await cleo.page.getByTestId('match-cancel').click();
  });
});
