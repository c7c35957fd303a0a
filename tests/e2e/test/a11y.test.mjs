// Accessibility scans with axe-core in the browser: the lobby, the waiting room, the
// table in a decision (the Buy phase, a question about the hand's cards, the "end turn
// with money left?" question), the end screen and the replay, at 1366 × 768 and on a
// 390 × 844 phone. No serious or critical violation is allowed (the label-in-name rule,
// still experimental in axe, is run too); every scan's counts by impact are printed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { launch, openPage } from '../lib/browser.mjs';
import { Policy, createRoom, enterLobby, readScreen, startGame } from '../lib/play.mjs';
import { startServer } from '../lib/server.mjs';

// Evaluated through the DevTools protocol: the page's Content-Security-Policy (scripts
// from its own origin only) rightly refuses an injected <script>.
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

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

/** Every scan's counts, printed at the end. @type {string[]} */
const counts = [];

/**
 * Runs axe on the page and fails on any serious or critical violation.
 * @param {import('playwright-core').Page} page @param {string} where
 */
async function scan(page, where) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  /** @type {{id: string, impact: string, help: string, nodes: {target: string[], failureSummary: string}[]}[]} */
  const violations = await page.evaluate(async () => {
    const axe = /** @type {any} */ (window).axe;
    const r = await axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] });
    return r.violations.map((/** @type {any} */ v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((/** @type {any} */ n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
  /** @type {Record<string, number>} */
  const by = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of violations) by[v.impact] = (by[v.impact] ?? 0) + v.nodes.length;
  counts.push(`${where}: critical ${by.critical}, serious ${by.serious}, moderate ${by.moderate}, minor ${by.minor}${violations.length ? ` (${violations.map((v) => `${v.id} ×${v.nodes.length}`).join(', ')})` : ''}`);
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`).join(' | ')}`),
    [],
    `${where}: no serious or critical accessibility violation`,
  );
}

describe('accessibility (axe-core)', { timeout: 900000 }, () => {
  for (const [size, viewport, phone] of /** @type {const} */ ([
    ['laptop', { width: 1366, height: 768 }, false],
    ['phone', { width: 390, height: 844 }, true],
  ])) {
    test(`${size}: lobby, waiting room, the table in its decisions, end screen and replay`, { timeout: 600000 }, async () => {
      const p = await openPage(chrome.browser, { viewport, hasTouch: phone, isMobile: phone });
      const { page } = p;
      await enterLobby(page, server.url, 'Ada');
      await scan(page, `${size} lobby`);
      await createRoom(page, { seats: ['', 'big_money'], cards: ['cellar', 'chapel', 'militia', 'village', 'smithy', 'market', 'workshop', 'remodel', 'festival', 'laboratory'] });
      await scan(page, `${size} waiting room`);
      await startGame(page);
      const policy = new Policy(['cellar', 'militia']);
      const seen = { buy: false, hand: false, end_turn: false };
      for (let i = 0; i < 1500; i++) {
        await page.waitForSelector('[data-testid=decision], [data-testid=end-screen]', { timeout: 30000 });
        const s = await readScreen(page);
        if (s.end) break;
        const d = s.decision;
        if (d?.kind === 'buy_phase' && d.playAll && !seen.buy) {
          await scan(page, `${size} table, Buy phase`);
          // The question before a turn ends with money left.
          await page.getByTestId('end-phase').click();
          await page.waitForSelector('[data-testid=end-turn-confirm]');
          await scan(page, `${size} table, "end turn with money left?"`);
          await page.getByTestId('end-turn-cancel').click();
          seen.buy = seen.end_turn = true;
        }
        if (d?.kind === 'choose_cards' && d.options.length > 1 && !seen.hand) {
          await scan(page, `${size} table, a question about the hand (${d.card})`);
          seen.hand = true;
        }
        if (d && (await policy.step(page)) === 'end') break;
      }
      await page.waitForSelector('[data-testid=end-screen]');
      assert.ok(seen.buy && seen.end_turn, `the table was scanned in its decisions: ${JSON.stringify(seen)}`);
      await scan(page, `${size} end screen`);
      const room = [...p.rec.received].reverse().find((m) => m.type === 'seated').room;
      await page.goto(`${server.url}/replay/${room}`);
      await page.waitForSelector('[data-testid=replay][data-step]');
      await scan(page, `${size} replay`);
      assert.deepEqual(p.rec.errors, []);
      await p.context.close();
    });
  }

  test('the table moves only for people who did not ask for reduced motion', async () => {
    // The stylesheet's own rules, on elements shaped as the table draws them: a card
    // another player just played and a pile count that changed while it is their turn.
    const animations = async (/** @type {boolean} */ motion) => {
      const p = await openPage(chrome.browser, { motion });
      await p.page.goto(server.url);
      const names = await p.page.evaluate(() => {
        const table = document.createElement('div');
        table.className = 'table live others';
        table.innerHTML = '<div class="panel play-area others"><span class="chip">x</span></div><span class="pile-count">×3</span>';
        document.body.append(table);
        const name = (/** @type {string} */ sel) => getComputedStyle(/** @type {Element} */ (table.querySelector(sel))).animationName;
        const out = [name('.chip'), name('.pile-count')];
        table.remove();
        return out;
      });
      await p.context.close();
      return names;
    };
    assert.deepEqual(await animations(true), ['chip-in', 'count-flash']);
    assert.deepEqual(await animations(false), ['none', 'none'], 'prefers-reduced-motion: reduce stops both');
  });

  test('the counts', () => {
    console.log(`axe-core scans:\n${counts.join('\n')}`);
    assert.ok(counts.length >= 10);
  });
});
