// Accounts in the browser against the real server: a guest still plays a bot at once
// and is asked nothing (a discreet "Sign in", no request about accounts); signing up
// shows the name in the lobby, seats take the account's name, and a game played against
// a bot appears on the profile (/players/{name}) with its result and replay; signing
// out, a wrong password refused in words, the right one accepted; API tokens made on
// the profile (shown once), working in `hello`, revoked; blocking a player from their
// profile and from a chat line (their lines no longer shown), and reporting a line; a
// password change ending the other browser's session, your data downloaded, and
// deleting the account. axe-core scans the sign-up dialog, the signed-in lobby and your
// own profile.
// Screenshots (tests/e2e/artifacts): account-signup-{en,hu}.png,
// account-lobby-{en,hu}.png, account-profile-{en,hu}.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { Policy, createRoom, enterLobby, playToEnd, startGame } from '../lib/play.mjs';
import { startServer } from '../lib/server.mjs';

const DESKTOP = { width: 1280, height: 900 };
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const NAME = 'Mirabel';
const PASSWORD = 'correct horse battery';
const OTHER = 'Quentin';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
/** The room of the game Mirabel played (set by the sign-up test). */
let played = '';

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

/**
 * No frame off the schema and no console error (but the expected refusals: a wrong
 * password is a 401, which Chromium logs).
 * @param {{rec: {invalid: string[], errors: string[]}}} p @param {RegExp} [allow]
 */
function assertClean(p, allow) {
  assert.deepEqual(p.rec.invalid, [], 'every frame matches the protocol schema');
  assert.deepEqual(allow ? p.rec.errors.filter((e) => !allow.test(e)) : p.rec.errors, [], 'no console errors');
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
 * axe-core finds no serious or critical violation on the page (as test/a11y.test.mjs).
 * @param {import('playwright-core').Page} page @param {string} where
 */
async function accessible(page, where) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  /** @type {string[]} */
  const bad = await page.evaluate(async () => {
    const axe = /** @type {any} */ (window).axe;
    const r = await axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] });
    return r.violations
      .filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical')
      .map((/** @type {any} */ v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((/** @type {any} */ n) => n.target.join(' ')).join(' | ')}`);
  });
  assert.deepEqual(bad, [], `${where}: no serious or critical accessibility violation`);
}

/** The lobby, connected, with the create form's data loaded. @param {import('playwright-core').Page} page */
async function lobby(page) {
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=conn-status][data-status=online]');
  await page.waitForSelector('[data-testid=recommended-select] option', { state: 'attached' });
}

/**
 * Signs in (or up) through the lobby's dialog and waits for the page's new connection
 * to be signed in.
 * @param {Awaited<ReturnType<typeof openPage>>} p @param {string} name @param {string} password
 * @param {{signup?: boolean, shot?: string}} [opts]
 */
async function signIn(p, name, password, opts = {}) {
  const { page } = p;
  const welcomes = p.rec.received.filter((m) => m.type === 'welcome').length;
  await page.getByTestId('sign-in-open').click();
  await page.waitForSelector('[data-testid=auth-dialog]');
  if (opts.signup) await page.getByTestId('auth-to-signup').click();
  await page.waitForSelector(`[data-testid=auth-dialog][data-mode=${opts.signup ? 'signup' : 'signin'}]`);
  await page.getByTestId('auth-name').fill(name);
  await page.getByTestId('auth-password').fill(password);
  if (opts.shot) {
    await page.screenshot({ path: path.join(ARTIFACTS, opts.shot) });
    await accessible(page, 'the sign-up dialog');
  }
  await page.getByTestId('auth-submit').click();
  await page.waitForSelector('[data-testid=account-name]');
  assert.equal(await page.getByTestId('account-name').textContent(), name);
  await until(() => p.rec.received.filter((m) => m.type === 'welcome').length > welcomes, 'a new welcome');
  assert.equal(last(p.rec.received, 'welcome').account?.name, name, 'the new connection is signed in');
  await page.waitForSelector('[data-testid=conn-status][data-status=online]');
}

describe('accounts in the browser', { timeout: 600000 }, () => {
  test('a guest sees a discreet "Sign in", is asked nothing, and plays a bot at once', async () => {
    const p = await openPage(chrome.browser, { viewport: DESKTOP });
    const { page } = p;
    /** @type {string[]} */
    const asked = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (/^\/api\/(me|session|accounts|players|reports)/.test(u.pathname)) asked.push(u.pathname);
    });
    await enterLobby(page, server.url, 'Gast');
    assert.ok(await page.getByTestId('sign-in-open').isVisible(), 'a "Sign in" is offered');
    assert.equal(await page.getByTestId('account-field').count(), 0);
    assert.ok(await page.getByTestId('name-input').isVisible(), 'the guest types a name as before');
    await page.getByTestId('quick-play').click();
    await page.waitForSelector('[data-testid=table]');
    assert.equal(last(p.rec.sent, 'take_seat').name, 'Gast');
    assert.equal(last(p.rec.received, 'welcome').account, undefined, 'the connection is a guest');
    assert.deepEqual(asked, [], 'a guest page asks nothing about accounts');
    assertClean(p);
    await p.context.close();
  });

  test('sign up: the lobby shows the name, a game against a bot is played as the account, and the profile lists it', { timeout: 300000 }, async () => {
    const p = await openPage(chrome.browser, { viewport: DESKTOP });
    const { page } = p;
    await lobby(page);
    await page.getByTestId('name-input').fill(NAME);
    await signIn(p, NAME, PASSWORD, { signup: true, shot: 'account-signup-en.png' });
    assert.equal(await page.getByTestId('name-input').count(), 0, 'no name box: seats take the account name');
    await page.screenshot({ path: path.join(ARTIFACTS, 'account-lobby-en.png') });
    await accessible(page, 'the signed-in lobby');

    await createRoom(page, { seats: ['', 'standard'] });
    const seated = last(p.rec.received, 'seated');
    played = seated.room;
    const room = last(p.rec.received, 'room')?.room;
    assert.equal(room?.seats[0].occupant.name, NAME, 'the seat carries the account name');
    await startGame(page);
    await playToEnd(page, new Policy());

    await page.goto(`${server.url}/players/${NAME}`);
    await page.waitForSelector('[data-testid=profile][data-own=true]');
    assert.equal(await page.getByTestId('profile-name').textContent(), NAME);
    await page.waitForSelector(`[data-testid=profile-game-${played}]`);
    const row = page.getByTestId(`profile-game-${played}`);
    assert.match((await row.getByTestId('profile-result').getAttribute('data-result')) ?? '', /^(win|loss|tie)$/);
    assert.ok(Number(await page.getByTestId('profile-games').getAttribute('data-n')) >= 1);
    const replay = await page.getByTestId(`profile-replay-${played}`).getAttribute('href');
    assert.match(replay ?? '', /^\/replay\//);
    await page.waitForSelector('[data-testid=vs-standard]');
    assert.match((await page.getByTestId('vs-standard').textContent()) ?? '', /Standard\s*1/);
    await page.waitForSelector('[data-testid=session-list] [data-current=true]');
    await page.screenshot({ path: path.join(ARTIFACTS, 'account-profile-en.png'), fullPage: true });
    await accessible(page, 'your own profile');
    // The replay link opens the game.
    await page.getByTestId(`profile-replay-${played}`).click();
    await page.waitForSelector('[data-testid=replay]');
    assertClean(p);
    await p.context.close();
  });

  test('sign out; a wrong password is refused in words; the right one signs in', async () => {
    const p = await openPage(chrome.browser, { viewport: DESKTOP });
    const { page } = p;
    await lobby(page);
    await signIn(p, NAME, PASSWORD);
    const welcomes = p.rec.received.filter((m) => m.type === 'welcome').length;
    await page.getByTestId('sign-out').click();
    await page.waitForSelector('[data-testid=sign-in-open]');
    await until(() => p.rec.received.filter((m) => m.type === 'welcome').length > welcomes, 'a new welcome');
    assert.equal(last(p.rec.received, 'welcome').account, undefined, 'signed out, the page is a guest again');
    assert.ok(await page.getByTestId('name-input').isVisible());

    await page.getByTestId('sign-in-open').click();
    await page.getByTestId('auth-name').fill(NAME);
    await page.getByTestId('auth-password').fill('not the password');
    await page.getByTestId('auth-submit').click();
    await page.waitForSelector('[data-testid=auth-error]');
    assert.equal(await page.getByTestId('auth-error').textContent(), 'Wrong name or password.');
    assert.equal(await page.getByTestId('account-field').count(), 0);
    // An unknown name gets the very same words.
    await page.getByTestId('auth-name').fill('Nobody Here');
    await page.getByTestId('auth-password').fill('not the password');
    await page.getByTestId('auth-submit').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=auth-password]') instanceof HTMLInputElement && /** @type {HTMLInputElement} */ (document.querySelector('[data-testid=auth-password]')).value === '');
    assert.equal(await page.getByTestId('auth-error').textContent(), 'Wrong name or password.');
    await page.getByTestId('auth-cancel').click();
    await signIn(p, NAME, PASSWORD);
    assertClean(p, /status of 401/);
    await p.context.close();
  });

  test('API tokens on the profile: shown once, listed, working in hello, revoked', async () => {
    const p = await openPage(chrome.browser, { viewport: DESKTOP });
    const { page } = p;
    await lobby(page);
    await signIn(p, NAME, PASSWORD);
    await page.getByTestId('account-name').click();
    await page.waitForSelector('[data-testid=profile][data-own=true]');
    await page.waitForSelector('[data-testid=no-tokens]');
    await page.getByTestId('token-label').fill('my bot');
    await page.getByTestId('token-create').click();
    await page.waitForSelector('[data-testid=fresh-token]');
    const token = await page.getByTestId('fresh-token-value').inputValue();
    assert.match(token, /^dmn_[A-Za-z0-9_-]{40,}$/);
    await page.waitForSelector('[data-testid=token-list] li[data-label="my bot"]');
    assert.equal(await page.locator('[data-testid=token-list] li').count(), 1);
    assert.ok(!(await page.locator('[data-testid=token-list]').textContent())?.includes(token), 'the list never shows the secret');

    /** What a program sending `hello` with the token is told first. @param {string} tok */
    const hello = (tok) =>
      page.evaluate(
        (tok) =>
          new Promise((resolve) => {
            const ws = new WebSocket(`ws://${location.host}/ws`);
            ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', protocol: 1, client: 'e2e-token', token: tok }));
            ws.onmessage = (e) => {
              resolve(JSON.parse(e.data));
              ws.close();
            };
            ws.onclose = (e) => resolve({ closed: e.code });
          }),
        tok,
      );
    const ok = /** @type {any} */ (await hello(token));
    assert.equal(ok.type, 'welcome');
    assert.equal(ok.account?.name, NAME);

    const id = await page.locator('[data-testid=token-list] li').first().getAttribute('data-testid');
    await page.getByTestId(`token-revoke-${(id ?? '').replace(/^token-/, '')}`).click();
    await page.waitForSelector('[data-testid=no-tokens]');
    assert.equal(await page.getByTestId('fresh-token').count(), 0, 'a revoked token is not shown any more');
    const refused = /** @type {any} */ (await hello(token));
    assert.ok(refused.type === 'error' ? refused.code === 'bad_token' : refused.closed >= 4000, `a revoked token is refused: ${JSON.stringify(refused)}`);
    // Shown once: a reload lists no secret.
    await page.reload();
    await page.waitForSelector('[data-testid=profile][data-own=true]');
    assert.equal(await page.getByTestId('fresh-token').count(), 0);
    assertClean(p);
    await p.context.close();
  });

  test('blocking a player from their profile; your block list on your own', async () => {
    const b = await openPage(chrome.browser, { viewport: DESKTOP });
    await lobby(b.page);
    await signIn(b, OTHER, 'another long password', { signup: true });
    const a = await openPage(chrome.browser, { viewport: DESKTOP });
    await lobby(a.page);
    await signIn(a, NAME, PASSWORD);
    await a.page.goto(`${server.url}/players/${OTHER}`);
    await a.page.waitForSelector('[data-testid=profile][data-own=false]');
    assert.equal(await a.page.getByTestId('token-form').count(), 0, "another's profile shows no account controls");
    await a.page.getByTestId('profile-block').click();
    await a.page.waitForSelector('[data-testid=profile-unblock]');
    await a.page.goto(`${server.url}/players/${NAME}`);
    await a.page.waitForSelector(`[data-testid=block-list] [data-testid="blocked-${OTHER}"]`);
    await a.page.getByTestId(`unblock-${OTHER}`).click();
    await a.page.waitForSelector('[data-testid=no-blocks]');
    assertClean(a);
    assertClean(b);
    await a.context.close();
    await b.context.close();
  });

  /**
   * Quentin hosts a room and Mirabel sits in it, both signed in; `say` writes a line as Quentin.
   */
  async function chatRoom() {
    const b = await openPage(chrome.browser, { viewport: DESKTOP });
    await lobby(b.page);
    await signIn(b, OTHER, 'another long password');
    await createRoom(b.page, { seats: ['', ''] });
    const room = last(b.rec.received, 'seated').room;
    const a = await openPage(chrome.browser, { viewport: DESKTOP });
    await lobby(a.page);
    await signIn(a, NAME, PASSWORD);
    // Whatever an earlier test left: Mirabel blocks nobody.
    const unblocked = await a.page.evaluate((name) => fetch(`/api/me/blocks/${name}`, { method: 'DELETE' }).then((r) => r.status), OTHER);
    assert.equal(unblocked, 204);
    await a.page.reload();
    await a.page.waitForSelector('[data-testid=conn-status][data-status=online]');
    await a.page.waitForSelector(`[data-testid=join-${room}-1]`);
    await a.page.getByTestId(`join-${room}-1`).click();
    await a.page.waitForSelector('[data-testid=waiting-room]');
    const say = async (/** @type {Awaited<ReturnType<typeof openPage>>} */ who, /** @type {string} */ text) => {
      await who.page.getByTestId('chat-input').fill(text);
      await who.page.getByTestId('chat-send').click();
      await who.page.waitForSelector(`[data-testid=chat-lines] :text("${text}")`);
    };
    return { a, b, room, say };
  }

  test("Block on a chat line: the writer's lines disappear and later ones never reach you", async () => {
    const { a, b, say } = await chatRoom();
    await say(b, 'hello from Quentin');
    await a.page.waitForSelector('[data-testid=chat-lines] :text("hello from Quentin")');
    assert.equal(await b.page.locator('[data-testid=chat-lines] .chat-actions').count(), 0, 'no actions on your own lines');
    await a.page.getByTestId(`chat-block-${OTHER}`).click();
    await a.page.waitForFunction(() => !document.querySelector('[data-testid=chat-lines]')?.textContent?.includes('hello from Quentin'));
    await say(b, 'can you read this?');
    // Mirabel's own line comes after Quentin's in the room's order: once she reads it,
    // Quentin's would have reached her.
    await say(a, 'anyone there?');
    assert.ok(!a.rec.received.some((m) => m.type === 'chat' && m.text === 'can you read this?'), 'a blocked player’s line does not reach you');
    // Unblocked (from the profile), the next line shows again.
    await a.page.goto(`${server.url}/players/${NAME}`);
    await a.page.getByTestId(`unblock-${OTHER}`).click();
    await a.page.waitForSelector('[data-testid=no-blocks]');
    assertClean(a);
    assertClean(b);
    await a.context.close();
    await b.context.close();
  });

  test('Report on a chat line: kept for the operators', async () => {
    const { a, b, say } = await chatRoom();
    await say(b, 'a line to report');
    await a.page.waitForSelector('[data-testid=chat-lines] :text("a line to report")');
    await a.page.getByTestId('chat-report-0').click();
    await a.page.waitForSelector('[data-testid=report-dialog]');
    await a.page.getByTestId('report-reason').fill('just a test');
    await a.page.getByTestId('report-send').click();
    await a.page.waitForSelector('[data-testid=notice][data-kind=success]');
    assert.equal(await a.page.getByTestId('report-dialog').count(), 0);
    assertClean(a);
    assertClean(b);
    await a.context.close();
    await b.context.close();
  });

  test('the same pages in Hungarian', async () => {
    const p = await openPage(chrome.browser, { viewport: DESKTOP, locale: 'hu-HU' });
    const { page } = p;
    await lobby(page);
    assert.equal(await page.getByTestId('sign-in-open').textContent(), 'Belépés');
    await page.getByTestId('sign-in-open').click();
    await page.getByTestId('auth-to-signup').click();
    await page.getByTestId('auth-name').fill('Réka');
    await page.getByTestId('auth-password').fill('rövid');
    await page.getByTestId('auth-submit').click();
    await page.waitForSelector('[data-testid=auth-error]');
    assert.equal(await page.getByTestId('auth-error').textContent(), 'Válassz legalább 10 karakteres jelszót.');
    await page.screenshot({ path: path.join(ARTIFACTS, 'account-signup-hu.png') });
    await page.getByTestId('auth-cancel').click();
    await signIn(p, NAME, PASSWORD);
    await page.screenshot({ path: path.join(ARTIFACTS, 'account-lobby-hu.png') });
    await page.goto(`${server.url}/players/${NAME}`);
    await page.waitForSelector(`[data-testid=profile-game-${played}]`);
    await page.waitForSelector('[data-testid=session-list] [data-current=true]');
    assert.match((await page.getByTestId('profile-recent').textContent()) ?? '', /Legutóbbi játszmák/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'account-profile-hu.png'), fullPage: true });
    assertClean(p);
    await p.context.close();
  });

  test("a password change ends the other browser's session; your data downloads; deleting the account", async () => {
    const name = 'Tamsin';
    const a = await openPage(chrome.browser, { viewport: DESKTOP });
    await lobby(a.page);
    await signIn(a, name, 'first long password', { signup: true });
    const b = await openPage(chrome.browser, { viewport: DESKTOP });
    await lobby(b.page);
    await signIn(b, name, 'first long password');

    await a.page.goto(`${server.url}/players/${name}`);
    await a.page.waitForSelector('[data-testid=profile][data-own=true]');
    await a.page.getByTestId('pw-old').fill('first long password');
    await a.page.getByTestId('pw-new').fill('second long password');
    await a.page.getByTestId('pw-submit').click();
    await a.page.waitForSelector('[data-testid=pw-message].form-ok');
    // The other browser's WebSocket is closed (4005): it is a guest again, and says so.
    await b.page.waitForSelector('[data-testid=sign-in-open]');
    await b.page.waitForSelector('[data-testid=name-input]');
    await until(() => { const w = last(b.rec.received, 'welcome'); return b.rec.received.filter((m) => m.type === 'welcome').length >= 3 && !w.account; }, 'a guest welcome');
    assert.equal(await a.page.locator('[data-testid=session-list] li').count(), 1, 'only this browser is still signed in');

    const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.getByTestId('download-data').click()]);
    assert.equal(download.suggestedFilename(), `dominion-${name}.json`);

    await a.page.getByTestId('delete-open').click();
    await a.page.getByTestId('delete-password').fill('second long password');
    await a.page.getByTestId('delete-confirm').click();
    await a.page.waitForSelector('[data-testid=profile-deleted]');
    assert.equal((await fetch(`${server.url}/api/players/${name}`)).status, 404);
    await a.page.getByTestId('profile-lobby').click();
    await a.page.waitForSelector('[data-testid=sign-in-open]');
    assertClean(a);
    assertClean(b);
    await a.context.close();
    await b.context.close();
  });
});
