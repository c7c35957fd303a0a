// Taking back a move in the browser against the real server: at once against a bot, and
// between two people only with the other's consent (refused once, then allowed). The
// move is the playing of Treasures at the start of a Buy phase (no card is drawn by it,
// so it may be taken back); its effect and its undoing are checked on the page (coins,
// the Play-all button, the log) and in the frames.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { STEP_TIMEOUT, createRoom, enterLobby, startGame } from '../lib/play.mjs';
import { startServer } from '../lib/server.mjs';

const VIEWPORT = { width: 1366, height: 768 };

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

/** @param {{rec: {invalid: string[], errors: string[]}}} p */
function assertClean(p) {
  assert.deepEqual(p.rec.invalid, [], 'every frame matches the protocol schema');
  assert.deepEqual(p.rec.errors, [], 'no console errors');
}

/** The coins the status bar shows. @param {import('playwright-core').Page} page */
async function coins(page) {
  const text = await page.getByTestId('count-coins').textContent();
  return Number((text ?? '').replace(/[^0-9]/g, ''));
}

/** Plays all Treasures on the page whose Buy phase starts; returns the coins before. @param {import('playwright-core').Page} page */
async function playTreasures(page) {
  await page.waitForSelector('[data-testid=play-all]:not([disabled])', { timeout: STEP_TIMEOUT });
  const before = await coins(page);
  await page.getByTestId('play-all').click();
  // The button is disabled as soon as the reply is sent; the coins change when the
  // server's events arrive.
  await page.waitForFunction(
    (n) => Number((document.querySelector('[data-testid=count-coins]')?.textContent ?? '').replace(/[^0-9]/g, '')) > n,
    before,
    { timeout: STEP_TIMEOUT },
  );
  return before;
}

test('against a bot, Undo takes the Treasures back at once', { timeout: 120000 }, async () => {
  const a = await openPage(chrome.browser, { viewport: VIEWPORT });
  await enterLobby(a.page, server.url, 'Anna');
  await createRoom(a.page, { seats: ['', 'big_money'] });
  await startGame(a.page);
  const before = await playTreasures(a.page);
  await a.page.getByTestId('undo').click();
  await a.page.waitForSelector('[data-testid=play-all]:not([disabled])', { timeout: STEP_TIMEOUT });
  assert.equal(await coins(a.page), before, 'the coins are back to what they were');
  assert.equal(last(a.rec.received, 'undo_result').outcome, 'done');
  assert.match(await a.page.getByTestId('notice').textContent() ?? '', /taken back/);
  await a.page.screenshot({ path: path.join(ARTIFACTS, 'undo-bot.png') });
  // The same key does it too.
  await playTreasures(a.page);
  await a.page.keyboard.press('u');
  await a.page.waitForSelector('[data-testid=play-all]:not([disabled])', { timeout: STEP_TIMEOUT });
  assertClean(a);
});

test('between two people, Undo needs the other player to allow it', { timeout: 120000 }, async () => {
  const a = await openPage(chrome.browser, { viewport: VIEWPORT });
  const b = await openPage(chrome.browser, { viewport: VIEWPORT });
  await enterLobby(a.page, server.url, 'Anna');
  await createRoom(a.page, { seats: ['', ''] });
  const room = last(a.rec.received, 'seated').room;
  await enterLobby(b.page, server.url, 'Bence');
  await b.page.getByTestId(`join-${room}-1`).click();
  await b.page.waitForSelector('[data-testid=waiting-room]');
  await a.page.waitForSelector('[data-testid=start-game]:not([disabled])');
  await a.page.getByTestId('start-game').click();
  await Promise.all([a.page.waitForSelector('[data-testid=table]'), b.page.waitForSelector('[data-testid=table]')]);
  // Whoever has the first decision moves; the other is asked.
  await Promise.race([a.page.waitForSelector('[data-testid=play-all]:not([disabled])'), b.page.waitForSelector('[data-testid=play-all]:not([disabled])')]);
  const aMoves = (await a.page.locator('[data-testid=play-all]:not([disabled])').count()) > 0;
  const [mover, other] = aMoves ? [a, b] : [b, a];

  // Refused: the Treasures stay played.
  await playTreasures(mover.page);
  const played = await coins(mover.page);
  await mover.page.getByTestId('undo').click();
  await mover.page.waitForSelector('[data-testid=undo-waiting]');
  await other.page.waitForSelector('[data-testid=undo-ask]');
  await other.page.screenshot({ path: path.join(ARTIFACTS, 'undo-consent.png') });
  await other.page.getByTestId('undo-refuse').click();
  await mover.page.waitForSelector('[data-testid=undo-waiting]', { state: 'detached' });
  assert.equal(last(mover.rec.received, 'undo_result').outcome, 'refused');
  assert.match(await mover.page.getByTestId('notice').textContent() ?? '', /refused/);
  assert.equal(await coins(mover.page), played);

  // Allowed: the Treasures go back to the hand on both pages' views.
  await mover.page.getByTestId('undo').click();
  await other.page.waitForSelector('[data-testid=undo-ask]');
  await other.page.getByTestId('undo-accept').click();
  await mover.page.waitForSelector('[data-testid=play-all]:not([disabled])', { timeout: STEP_TIMEOUT });
  assert.equal(await coins(mover.page), 0);
  await other.page.waitForSelector('[data-testid=undo-ask]', { state: 'detached' });
  assert.equal(last(other.rec.received, 'undo_result').outcome, 'done');
  await mover.page.screenshot({ path: path.join(ARTIFACTS, 'undo-done.png') });
  assertClean(mover);
  assertClean(other);
});
