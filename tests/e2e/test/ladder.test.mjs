// The rated bot ladder in the browser (issue 25): a bot account plays three ladder games
// with the Python example (`bot.py --ladder 3 --token …`), against our house bots in
// turn; then /leaderboard?pool=bots lists it and house-easy, house-standard and
// house-search, each marked as a bot, under the note that says who plays there.
// Screenshot: leaderboard-bots-en.png.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { ROOT, startServer } from '../lib/server.mjs';

const PYTHON = [path.join(ROOT, '.venv/bin/python3'), process.env.DOMINION_PYTHON, 'python3'].find((p) => p && (p === 'python3' || fs.existsSync(p)));

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;

before(async () => {
  server = await startServer(['--argon2-memory-kib', '256', '--argon2-iterations', '1', '--ladder-house-wait', '200ms', '--ladder-search-playouts', '5']);
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
  await server?.stop();
});

test('three ladder games against the house bots show on the bots leaderboard', { timeout: 300000 }, async () => {
  const { page } = await openPage(chrome.browser);
  await page.goto(server.url);
  const token = await page.evaluate(async () => {
    const json = { 'content-type': 'application/json' };
    const made = await fetch('/api/accounts', { method: 'POST', headers: json, body: JSON.stringify({ name: 'PyLadder', password: 'a long enough password' }) });
    if (made.status !== 201) throw new Error(`register: ${made.status}`);
    const t = await fetch('/api/me/tokens', { method: 'POST', headers: json, body: JSON.stringify({ label: 'ladder' }) });
    const { token } = await t.json();
    const bot = await fetch('/api/me/bot', { method: 'POST' });
    if (bot.status !== 204) throw new Error(`bot account: ${bot.status}`);
    return /** @type {string} */ (token);
  });
  const url = server.url.replace(/^http/, 'ws') + '/ws';
  const run = spawnSync(PYTHON ?? 'python3', [path.join(ROOT, 'examples/python-bot/bot.py'), '--url', url, '--quiet', '--ladder', '3', '--token', token], {
    encoding: 'utf8',
    timeout: 240000,
  });
  assert.equal(run.status, 0, `bot.py --ladder 3: ${run.stdout}${run.stderr}`);
  assert.match(run.stdout, /game 3\/3 .* vs search \(bot\)/);

  await page.goto(`${server.url}/leaderboard?pool=bots`);
  await page.waitForSelector('[data-testid=board-rows]');
  assert.equal(await page.getByTestId('board-pool-bots').getAttribute('aria-selected'), 'true');
  assert.match((await page.getByTestId('board-bots-note').textContent()) ?? '', /house-search/);
  const rows = await page.locator('[data-testid=board-rows] tbody tr').allTextContents();
  for (const name of ['PyLadder', 'house-easy', 'house-standard', 'house-search']) {
    const row = rows.find((r) => r.includes(name));
    assert.ok(row, `${name} on the board: ${rows.join(' | ')}`);
  }
  assert.equal(await page.locator('[data-testid=board-rows] .bot-mark').count(), 4, 'every row a bot');
  await page.screenshot({ path: path.join(ARTIFACTS, 'leaderboard-bots-en.png'), fullPage: true });
});
