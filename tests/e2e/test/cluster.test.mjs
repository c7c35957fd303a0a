// The browser on a cluster: two dominion-server nodes on one real PostgreSQL and one real
// Redis (lib/backends.mjs), behind a round-robin TCP balancer (lib/balancer.mjs). The
// page plays a room run by the node it is not connected to (its node forwards), and the
// node running the room then goes away — killed (SIGKILL, `kill -9`) or drained
// (SIGTERM). The other node takes the room over from the log in PostgreSQL; the page
// says it is reconnecting, resumes with its seat token by itself, and plays to the end.
// Screenshot cluster-after-failover.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startPostgres, startRedis } from '../lib/backends.mjs';
import { startBalancer } from '../lib/balancer.mjs';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { Policy, createRoom, enterLobby, playToEnd, startGame } from '../lib/play.mjs';
import { startServer } from '../lib/server.mjs';

/** The nodes' lease: short, so a takeover after `kill -9` takes about a second. */
const LEASE = '1s';

/** @type {Awaited<ReturnType<typeof startPostgres>>} */
let pg;
/** @type {Awaited<ReturnType<typeof startRedis>>} */
let redis;
/** The database URL every node shares. */
let database = '';
/** Node b: the one the page is connected to, which outlives every test. */
/** @type {import('../lib/server.mjs').Server} */
let nodeB;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
/** Every node and balancer started, stopped in `after` whatever happened. */
/** @type {{stop?: () => Promise<void>, close?: () => Promise<void>}[]} */
const started = [];

/** Starts node `id` of the cluster. @param {string} id */
async function node(id) {
  const n = await startServer(['--database', database, '--cluster', redis.url, '--node-id', id, '--lease', LEASE], { log: 'info' });
  started.push(n);
  return n;
}

before(async () => {
  pg = await startPostgres();
  database = await pg.createDatabase('dominion_e2e');
  redis = await startRedis();
  nodeB = await node('b');
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
  for (const s of started.reverse()) await (s.stop?.() ?? s.close?.());
  await redis?.stop();
  await pg?.stop();
});

/**
 * Runs a test's body with node `id` started for it, and stops that node afterwards
 * (if the body left it running), so a failed test leaves no third node behind to take
 * the next test's rooms over. If the body fails, the error carries what the nodes
 * logged (their takeovers, forwarding and refusals): what explains a failure here.
 * @param {string} id @param {(n: import('../lib/server.mjs').Server) => Promise<void>} body
 */
async function withNode(id, body) {
  const n = await node(id);
  try {
    await body(n);
  } catch (e) {
    const tail = (/** @type {import('../lib/server.mjs').Server} */ x) => x.output().split('\n').slice(-40).join('\n');
    if (e instanceof Error) e.message += `\n--- node ${id} ---\n${tail(n)}\n--- node b ---\n${tail(nodeB)}`;
    throw e;
  } finally {
    await n.stop();
  }
}

/** @param {any[]} frames @param {string} type */
function last(frames, type) {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].type === type) return frames[i];
  return undefined;
}

/** Which node holds room `room`'s lease (`dominion:owner:<room>` = `<node>|<token>`). @param {string} room */
async function owner(room) {
  const v = await redis.command(['GET', `dominion:owner:${room}`]);
  return v?.split('|')[0] ?? null;
}

/** A counter of a node's /metrics. @param {import('../lib/server.mjs').Server} n @param {string} name */
async function counter(n, name) {
  const text = await (await fetch(`${n.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  assert.ok(line, `${name} is in ${n.url}/metrics`);
  return Number(line.split(' ')[1]);
}

/**
 * Records, in the page, every connection status the indicator shows and every notice
 * (an error shown to the person) from now on: a reconnection may be over before a test
 * could look. @param {import('playwright-core').Page} page
 */
async function watchIndicator(page) {
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.__seen = { status: [], notices: [], closesBefore: w.__closeCodes.length };
    const look = () => {
      const c = document.querySelector('[data-testid=conn-status]');
      const entry = `${c?.getAttribute('data-status')}: ${c?.querySelector('.conn-text')?.textContent}`;
      if (w.__seen.status.at(-1) !== entry) w.__seen.status.push(entry);
      const n = document.querySelector('[data-testid=notice]');
      if (n && !w.__seen.notices.includes(n.textContent)) w.__seen.notices.push(n.textContent);
    };
    look();
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

/** Waits (bounded) until `cond` holds. @param {() => boolean} cond @param {string} what */
async function until(cond, what, ms = 30000) {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * What the page showed since `watchIndicator`, and the close codes of its WebSockets since.
 * @param {import('playwright-core').Page} page @returns {Promise<{status: string[], notices: string[], closes: number[]}>}
 */
function seen(page) {
  return page.evaluate(() => {
    const w = /** @type {any} */ (window);
    return { ...w.__seen, closes: w.__closeCodes.slice(w.__seen.closesBefore) };
  });
}

/**
 * Puts a page on node b playing against a bot in a room that `owner` runs: the room is
 * created while the balancer sends new connections to `owner` only; then it sends them
 * to b only and drops the page's connection, so the page reconnects to b and resumes
 * there (b forwards it to `owner`). Starts the game through b and plays a few turns.
 * @param {import('../lib/server.mjs').Server} roomNode @param {string} roomNodeId @param {string} name
 */
async function playOnOtherNode(roomNode, roomNodeId, name) {
  const balancer = await startBalancer([roomNode.port, nodeB.port]);
  started.push(balancer);
  balancer.route([roomNode.port]);
  const p = await openPage(chrome.browser, { viewport: { width: 1366, height: 768 } });
  const { page } = p;
  // The close code of each of the page's WebSockets, which playwright does not report.
  await p.context.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__closeCodes = [];
    const Native = window.WebSocket;
    w.WebSocket = class extends Native {
      /** @param {string | URL} url @param {string | string[]} [protocols] */
      constructor(url, protocols) {
        super(url, protocols);
        this.addEventListener('close', (/** @type {CloseEvent} */ e) => w.__closeCodes.push(e.code));
      }
    };
  });
  await enterLobby(page, balancer.url, name);
  await createRoom(page, { seats: ['', 'big_money'], roomName: `${name} on the cluster` });
  const room = last(p.rec.received, 'seated').room;
  assert.equal(await owner(room), roomNodeId, `node ${roomNodeId} runs the room it was created on`);

  const forwardedBefore = await counter(nodeB, 'dominion_forwarded_links_total');
  balancer.route([nodeB.port]);
  balancer.cut();
  await page.waitForFunction(() => document.querySelector('[data-testid=conn-status]')?.getAttribute('data-status') !== 'online');
  await page.waitForSelector('[data-testid=conn-status][data-status=online]', { timeout: 20000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=waiting-room]'));
  await page.waitForFunction(() => document.querySelector('[data-testid=start-game]:not([disabled])'));
  assert.equal(p.rec.sent.filter((m) => m.type === 'resume').length, 1, 'the page resumed its seat on node b');
  assert.ok((await counter(nodeB, 'dominion_forwarded_links_total')) > forwardedBefore, 'node b forwarded the page to the room');
  assert.equal(await owner(room), roomNodeId, `node ${roomNodeId} still runs the room`);

  await startGame(page);
  const policy = new Policy();
  for (let i = 0; i < 8; i++) await policy.step(page);
  await page.waitForSelector('[data-testid=decision]');
  assert.equal(await owner(room), roomNodeId, 'the game was played on the node the page is not connected to');
  // From now on a new connection may go to either node: the balancer skips one that refuses.
  balancer.route([roomNode.port, nodeB.port]);
  return { p, page, room, policy, balancer };
}

/**
 * After the room's node went away: the page plays to the end on node b, every frame
 * valid, and its `game_over` is what b's history says.
 * @param {Awaited<ReturnType<typeof playOnOtherNode>>} s
 * @param {number} seatedBefore  `seated` frames the page had received before
 * @param {number} since  when the node was told to go (Date.now())
 * @param {import('node:test').TestContext} t  prints how long the page took to resume
 * @param {string} [screenshot]  the file to show the table in once the seat is back
 */
async function finishOnB({ p, page, room, policy }, seatedBefore, since, t, screenshot = '') {
  // The page loses its connection (node b closes it with 1012 when the room's node is
  // gone) and resumes its seat; only then is a click sure to reach the room (one made
  // in between is lost with the connection, and the person would click again).
  await page.waitForFunction(() => /** @type {any} */ (window).__seen.status.some((/** @type {string} */ x) => !x.startsWith('online')), null, { timeout: 20000 });
  await until(() => p.rec.received.filter((m) => m.type === 'seated').length > seatedBefore, 'the page resumed its seat');
  // A figure, not a check: how long the person waited (lease expiry, takeover, backoff).
  t.diagnostic(`the seat was resumed ${Date.now() - since} ms after the signal`);
  const { status, closes } = await seen(page);
  t.diagnostic(`the indicator showed: ${status.join(' / ')}; the page's sockets closed with ${closes.join(', ')}`);
  assert.equal(closes[0], 1012, 'node b closed the page\'s socket with 1012 (service restart), the word to resume');
  // The log before the failover comes back too (the history, read from the new owner).
  await page.waitForFunction(() => /Turn 1: /.test(document.querySelector('[data-testid=log]')?.textContent ?? ''), null, { timeout: 20000 });
  if (screenshot) {
    await page.waitForSelector('[data-testid=conn-status][data-status=online]');
    await page.waitForSelector('[data-testid=decision]');
    await page.screenshot({ path: path.join(ARTIFACTS, screenshot) });
  }
  await playToEnd(page, policy);
  await page.waitForSelector('[data-testid=end-screen]');
  assert.equal(await owner(room), 'b', 'node b took the room over');
  const over = last(p.rec.received, 'game_over');
  assert.ok(over, 'the server announced the end');
  const res = await fetch(`${nodeB.url}/api/games/${room}`);
  assert.equal(res.status, 200, `GET /api/games/${room} on node b`);
  const record = await res.json();
  for (const key of ['kingdom', 'scores', 'seed', 'setup', 'replies']) {
    assert.deepEqual(over[key], record[key], `the page's game_over.${key} is the stored record's`);
  }
  // Every move the server acknowledged to the page, before and after the failover, is in
  // the record, in order, and nothing else of this seat's is.
  const acked = new Set(p.rec.received.filter((m) => m.type === 'ack').map((m) => m.re));
  const mine = p.rec.sent.filter((m) => m.type === 'reply' && acked.has(m.id)).map((m) => ({ decision: m.decision, reply: m.reply }));
  const stored = record.replies.filter((/** @type {any} */ r) => r.seat === 0).map((/** @type {any} */ r) => ({ decision: r.decision, reply: r.reply }));
  assert.ok(mine.length > 10, `the page's moves were acknowledged (${mine.length})`);
  assert.deepEqual(stored, mine, 'the stored moves of the seat are the ones the page was told were taken');
  assert.deepEqual(p.rec.invalid, [], 'every frame matches the protocol schema');
  assert.deepEqual(p.rec.errors, [], 'no console errors');
  return over;
}

describe('the browser on two nodes', { timeout: 300000 }, () => {
  test('the node running the room is killed (kill -9): the page says so, resumes on the other node and plays to the end', { timeout: 180000 }, async (t) => {
    await withNode('a', async (nodeA) => {
      const s = await playOnOtherNode(nodeA, 'a', 'Anna');
      const { p, page } = s;
      const repliesBefore = p.rec.sent.filter((m) => m.type === 'reply').length;
      await watchIndicator(page);
      const seated = p.rec.received.filter((m) => m.type === 'seated').length;

      const routedBefore = s.balancer.routed.length;
      const killedAt = Date.now();
      const exit = await nodeA.kill('SIGKILL');
      assert.equal(exit.signal, 'SIGKILL');
      await finishOnB(s, seated, killedAt, t, 'cluster-after-failover.png');
      // The balancer, offered both nodes, skipped the dead one for every new connection.
      const routedSince = s.balancer.routed.slice(routedBefore);
      assert.ok(routedSince.length > 0 && routedSince.every((port) => port === nodeB.port), `new connections went to node b only (${routedSince.join(', ')})`);

      const { status, notices } = await seen(page);
      assert.ok(
        status.some((x) => /^(down|connecting): (Connection lost|Connecting)/.test(x)),
        `the page showed it was reconnecting (it showed: ${status.join(' / ')})`,
      );
      assert.deepEqual(notices, [], 'no error was shown');
      assert.equal(p.rec.sent.filter((m) => m.type === 'resume').length, 2, 'the page resumed once more, after the kill');
      assert.equal(last(p.rec.received, 'seated').seat, 0, 'the same seat');
      assert.ok(p.rec.sent.filter((m) => m.type === 'reply').length > repliesBefore, 'the page played on after the kill');
      await page.screenshot({ path: path.join(ARTIFACTS, 'cluster-end.png') });
      await p.context.close();
    });
  });

  test('the node running the room is drained (SIGTERM): the page goes on without an error shown', { timeout: 180000 }, async (t) => {
    await withNode('c', async (nodeC) => {
      const s = await playOnOtherNode(nodeC, 'c', 'Bence');
      const { p, page } = s;
      await watchIndicator(page);
      const seated = p.rec.received.filter((m) => m.type === 'seated').length;

      const drainedAt = Date.now();
      const exit = await nodeC.kill('SIGTERM');
      assert.equal(exit.code, 0, 'a drained node exits cleanly');
      t.diagnostic(`node c exited ${Date.now() - drainedAt} ms after SIGTERM`);
      await finishOnB(s, seated, drainedAt, t);

      const { notices } = await seen(page);
      assert.deepEqual(notices, [], 'no error was shown');
      assert.equal(p.rec.sent.filter((m) => m.type === 'resume').length, 2, 'the page resumed once more, after the drain');
      assert.equal(last(p.rec.received, 'seated').seat, 0, 'the same seat');
      await p.context.close();
    });
  });
});
