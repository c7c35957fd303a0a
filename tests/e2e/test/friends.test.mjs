// Friends and card preferences in two browsers against the real server (issue 25): Ann
// bans and dislikes cards on her profile (saved, in card names of her language); she
// follows Bob from his profile; her lobby's Friends panel shows Bob online and the table
// he sits at; at her own table she invites him; Bob's page gets the invitation with a
// link, follows it and sits at Ann's table. Every frame matches the protocol schema and
// no console error is logged.
// Screenshots (tests/e2e/artifacts): friends-prefs.png, friends-lobby.png,
// friends-invite.png, friends-invited.png, and on a phone friends-lobby-phone.png and
// friends-prefs-phone.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { createRoom } from '../lib/play.mjs';
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
function assertClean(p) {
  assert.deepEqual(p.rec.invalid, [], 'every frame matches the protocol schema');
  assert.deepEqual(p.rec.errors, [], 'no console errors');
}

/** The lobby, connected, with the create form's data loaded. @param {import('playwright-core').Page} page */
async function lobby(page) {
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=conn-status][data-status=online]');
  await page.waitForSelector('[data-testid=recommended-select] option', { state: 'attached' });
}

/**
 * Signs up through the lobby's dialog and waits for the page's connection to be signed
 * in. @param {Awaited<ReturnType<typeof openPage>>} p @param {string} name
 */
async function signUp(p, name) {
  const { page } = p;
  await lobby(page);
  await page.getByTestId('sign-in-open').click();
  await page.getByTestId('auth-to-signup').click();
  await page.waitForSelector('[data-testid=auth-dialog][data-mode=signup]');
  await page.getByTestId('auth-name').fill(name);
  await page.getByTestId('auth-password').fill(`${name}'s long password`);
  await page.getByTestId('auth-submit').click();
  await page.waitForSelector('[data-testid=account-name]');
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid=conn-status]')?.getAttribute('data-status') === 'online' && document.querySelector('[data-testid=account-name]')?.textContent === n,
    name,
  );
  // The page's WebSocket reopened signed in.
  const end = Date.now() + 15000;
  while (!p.rec.received.some((m) => m.type === 'welcome' && m.account?.name === name)) {
    if (Date.now() > end) throw new Error(`${name}: no signed-in welcome`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * At a phone's width (390 × 844) the page fits without sideways scrolling; `testid`'s
 * panel is photographed; then back to the desktop size.
 * @param {import('playwright-core').Page} page @param {string} testid @param {string} shot
 */
async function onPhone(page, testid, shot) {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => window.innerWidth === 390);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${shot}: nothing overflows sideways`);
  await page.getByTestId(testid).screenshot({ path: path.join(ARTIFACTS, shot) });
  if (before) await page.setViewportSize(before);
}

describe('friends in the browser', { timeout: 300000 }, () => {
  test('card preferences, follow, a friend online at a table, invite, and the invited link', async () => {
    const ann = await openPage(chrome.browser);
    const bob = await openPage(chrome.browser, { locale: 'hu-HU' });
    await signUp(ann, 'Annika');
    await signUp(bob, 'Bodo');

    // Ann's card preferences, on her profile.
    await ann.page.goto(`${server.url}/players/Annika`);
    await ann.page.waitForSelector('[data-testid=profile-cards] [data-testid=prefs-bans-add]');
    await ann.page.getByTestId('prefs-bans-add').selectOption('witch');
    await ann.page.getByTestId('prefs-dislikes-add').selectOption('moat');
    await ann.page.getByTestId('prefs-dislikes-add').selectOption('chapel');
    // A disliked card banned moves from one list to the other.
    await ann.page.getByTestId('prefs-bans-add').selectOption('chapel');
    await ann.page.getByTestId('prefs-save').click();
    await ann.page.waitForSelector('[data-testid=prefs-message].form-ok');
    assert.equal(await ann.page.getByTestId('prefs-bans-witch').textContent().then((t) => t?.replace('×', '')), 'Witch');
    const stored = await ann.page.evaluate(() => fetch('/api/me/cards').then((r) => r.json()));
    assert.deepEqual(stored, { bans: ['chapel', 'witch'], dislikes: ['moat'] });
    await ann.page.getByTestId('profile-cards').screenshot({ path: path.join(ARTIFACTS, 'friends-prefs.png') });
    await onPhone(ann.page, 'profile-cards', 'friends-prefs-phone.png');

    // Ann follows Bodo from his profile.
    await ann.page.goto(`${server.url}/players/Bodo`);
    await ann.page.getByTestId('profile-follow').click();
    await ann.page.waitForSelector('[data-testid=profile-unfollow]');

    // Bodo sits at a table of his own (the second seat open); Ann's lobby shows him
    // online there, with Join.
    await createRoom(bob.page, { seats: ['', ''] });
    const bobsRoom = bob.rec.received.find((m) => m.type === 'room_created')?.room.id;
    assert.ok(bobsRoom, 'Bodo created a room');
    await lobby(ann.page);
    await ann.page.waitForSelector('[data-testid=friend-Bodo][data-online=true]');
    await ann.page.waitForSelector(`[data-testid=friend-join-${bobsRoom}]`);
    await ann.page.getByTestId('friends').screenshot({ path: path.join(ARTIFACTS, 'friends-lobby.png') });
    await onPhone(ann.page, 'friends', 'friends-lobby-phone.png');

    // Bodo goes back to the lobby; Ann, at her own table, invites him.
    await bob.page.getByTestId('leave-room').click();
    await bob.page.waitForSelector('[data-testid=lobby]');
    await createRoom(ann.page, { seats: ['', ''] });
    const annsRoom = ann.rec.received.filter((m) => m.type === 'room_created').pop()?.room.id;
    assert.ok(annsRoom, 'Annika created a room');
    await ann.page.waitForSelector('[data-testid=invite-Bodo]');
    await ann.page.getByTestId('invite-Bodo').click();
    await ann.page.waitForSelector('[data-testid=notice][data-kind=success]');
    await ann.page.screenshot({ path: path.join(ARTIFACTS, 'friends-invite.png') });
    const sent = ann.rec.sent.find((m) => m.type === 'invite');
    assert.deepEqual({ room: sent?.room, name: sent?.name }, { room: annsRoom, name: 'Bodo' });

    // Bodo's page (in Hungarian) gets the invitation with its link, follows it and sits
    // down at Ann's table.
    await bob.page.waitForSelector(`[data-testid=invited-${annsRoom}][data-from=Annika]`);
    assert.deepEqual(
      bob.rec.received.filter((m) => m.type === 'invited'),
      [{ type: 'invited', from: 'Annika', room: annsRoom }],
    );
    assert.match((await bob.page.getByTestId(`invited-${annsRoom}`).textContent()) ?? '', /Annika meghív/);
    await bob.page.screenshot({ path: path.join(ARTIFACTS, 'friends-invited.png') });
    await bob.page.getByTestId(`invited-link-${annsRoom}`).click();
    await bob.page.waitForSelector('[data-testid=invite-offer]');
    await bob.page.getByTestId('invite-take').click();
    await bob.page.waitForSelector('[data-testid=waiting-room]');
    await ann.page.waitForSelector('[data-testid=wait-seat-1]:has-text("Bodo")');
    assert.ok(bob.rec.received.some((m) => m.type === 'seated' && m.room === annsRoom), 'Bodo sits at Ann\'s table');
    // The offer names no seat: the list it was drawn from may be a poll old, and the seat
    // it showed open may be taken by now (Ann's own, had the poll come between her room's
    // creation and her sitting down: the seat was refused and no waiting room came).
    const took = bob.rec.sent.filter((m) => m.type === 'take_seat' && m.room === annsRoom);
    assert.equal(took.length, 1);
    assert.equal(took[0].seat, undefined, 'the invite offer takes any open seat');

    assertClean(ann);
    assertClean(bob);
    await ann.context.close();
    await bob.context.close();
  });
});
