// The table fits the screen: at 1366 × 768 (the commonest laptop), 1920 × 1080 and on a
// 390 × 844 phone, in a real game against the real server with a time limit per
// decision, the Supply (with its costs and counts), the hand, the cards in play, the
// status (coins, actions, buys) and the decision (with its countdown) are all on screen at once without scrolling, in the Action phase, the Buy
// phase and a question about the hand's cards (Cellar's or Militia's discard); the
// decision never covers the hand; nothing overflows sideways and no text is smaller
// than 12 px. Opponents and the log are one tap away on the phone. The card faces show
// their text (on the phone: the ⓘ shows it without playing the card). The keys of the
// in-page help (1–9, B and the arrows, I, T, E, ?) and the Treasure autoplay option are
// tested here too. Screenshots: artifacts/layout-<size>-<phase>.png (what the screen
// shows, not the full page), layout-phone-log.png, layout-phone-card-info.png,
// layout-help.png, layout-autoplay.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { Policy, createRoom, endPhase, enterLobby, readScreen, startGame, waitPast } from '../lib/play.mjs';
import { ROOT, startServer } from '../lib/server.mjs';

const CARDS = JSON.parse(fs.readFileSync(path.join(ROOT, 'web-client/data/cards.json'), 'utf8')).cards;
/** A card's English rules texts (one per edition where they differ). @param {string} c @returns {string[]} */
const texts = (c) => {
  const t = CARDS[c].text ?? CARDS[c].texts?.en;
  return typeof t === 'string' ? [t] : Object.values(t ?? {});
};

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;

// Cellar asks which hand cards to discard; the Militia bot makes the person discard.
const KINGDOM = ['cellar', 'chapel', 'militia', 'village', 'smithy', 'market', 'workshop', 'remodel', 'festival', 'laboratory'];

/** Seconds per decision: the countdown is shown (the review found it hid the hand). */
const TIMER = 300;

const SIZES = /** @type {const} */ ([
  ['laptop', { width: 1366, height: 768 }, false],
  ['desktop', { width: 1920, height: 1080 }, false],
  ['phone', { width: 390, height: 844 }, true],
]);

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

/**
 * Measures the table as the person sees it now: whether the page scrolls, and for each
 * part and control its box, whether it lies inside the window, and whether it shows
 * (inside the box of the region that scrolls it, and on top at its centre).
 * @param {import('playwright-core').Page} page
 */
function measure(page) {
  return page.evaluate(() => {
    const W = window.innerWidth;
    const H = window.innerHeight;
    const box = (/** @type {Element} */ el) => {
      const r = el.getBoundingClientRect();
      return { x: r.left, y: r.top, w: r.width, h: r.height, right: r.right, bottom: r.bottom };
    };
    const inView = (/** @type {ReturnType<typeof box>} */ b) => b.w > 0 && b.h > 0 && b.x >= -0.5 && b.y >= -0.5 && b.right <= W + 0.5 && b.bottom <= H + 0.5;
    /** Inside every ancestor that clips it, and the topmost element at its centre. */
    // Why `el` is not fully on screen ('' when it is): outside the window, clipped by a
    // scrolling ancestor, or covered at its centre by another element.
    const hidden = (/** @type {Element} */ el) => {
      const b = box(el);
      if (!inView(b)) return `outside the window: ${JSON.stringify(b)}`;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowY;
        if (o === 'auto' || o === 'scroll' || o === 'hidden') {
          const c = box(p);
          if (b.y < c.y - 0.5 || b.bottom > c.bottom + 0.5 || b.x < c.x - 0.5 || b.right > c.right + 0.5) {
            return `clipped by ${p.className || p.tagName} ${JSON.stringify(c)}: ${JSON.stringify(b)}`;
          }
        }
      }
      const top = document.elementFromPoint(b.x + b.w / 2, b.y + b.h / 2);
      if (top && (el === top || el.contains(top))) return '';
      return `covered by ${top ? top.className || top.tagName : 'nothing'}`;
    };
    const shown = (/** @type {Element} */ el) => hidden(el) === '';
    const q = (/** @type {string} */ sel) => document.querySelector(sel);
    const part = (/** @type {string} */ sel) => {
      const el = q(sel);
      return el ? { box: box(el), inView: inView(box(el)) } : null;
    };
    const scroller = /** @type {Element} */ (document.scrollingElement);
    // Text smaller than 12 px anywhere on the table (visible elements with text of their own).
    const tiny = [];
    for (const el of document.querySelectorAll('[data-testid=table] *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim());
      if (!own || !(el instanceof HTMLElement) || !el.offsetParent || el.closest('.visually-hidden')) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 12) tiny.push(`${el.className || el.tagName}: ${size}px "${el.textContent?.trim().slice(0, 20)}"`);
    }
    const hand = [...document.querySelectorAll('[data-testid=hand] .card')];
    const prompt = q('[data-testid=decision]');
    const pb = prompt ? box(prompt) : null;
    const overlaps = (/** @type {ReturnType<typeof box>} */ a, /** @type {ReturnType<typeof box>} */ b) => a.x < b.right && b.x < a.right && a.y < b.bottom && b.y < a.bottom;
    return {
      W,
      H,
      scrollY: window.scrollY,
      scrollHeight: scroller.scrollHeight,
      scrollWidth: scroller.scrollWidth,
      parts: {
        supply: part('[data-testid=supply]'),
        hand: part('[data-testid=hand]'),
        inPlay: part('[data-testid=in-play]'),
        status: part('[data-testid=status-bar]'),
        coins: part('[data-testid=count-coins]'),
        actions: part('[data-testid=count-actions]'),
        buys: part('[data-testid=count-buys]'),
        prompt: part('[data-testid=decision]'),
        question: part('[data-testid=decision-prompt]'),
        deadline: part('[data-testid=deadline]'),
      },
      // Every pile with its cost and count, every hand card, every control of the decision.
      piles: [...document.querySelectorAll('[data-testid=supply] .pile-main')].map((el) => ({
        card: /** @type {HTMLElement} */ (el).dataset.card,
        shown: shown(el),
        why: hidden(el),
        cost: el.querySelector('.pile-cost')?.textContent,
        costShown: Boolean(/** @type {HTMLElement | null} */ (el.querySelector('.pile-cost'))?.offsetParent),
        count: el.querySelector('.pile-count')?.textContent,
        countShown: Boolean(/** @type {HTMLElement | null} */ (el.querySelector('.pile-count'))?.offsetParent),
      })),
      hand: hand.map((el) => ({ card: /** @type {HTMLElement} */ (el).dataset.card, shown: shown(el), overlapsPrompt: pb ? overlaps(box(el), pb) : false })),
      controls: prompt
        ? [...prompt.querySelectorAll('button, input, select')].map((el) => ({ id: /** @type {HTMLElement} */ (el).dataset.testid ?? el.tagName, shown: shown(el) }))
        : [],
      tiny,
    };
  });
}

/**
 * Asserts that everything a turn needs is on screen at once, without scrolling.
 * @param {import('playwright-core').Page} page @param {string} where
 * @param {Record<string, number>} costs  each pile's cost now (from the view)
 */
async function assertFits(page, where, costs) {
  const m = await measure(page);
  assert.equal(m.scrollY, 0, `${where}: the page is not scrolled`);
  assert.ok(m.scrollHeight <= m.H + 1, `${where}: the page is ${m.scrollHeight}px tall in a ${m.H}px window`);
  assert.ok(m.scrollWidth <= m.W, `${where}: the page is ${m.scrollWidth}px wide in a ${m.W}px window`);
  for (const [name, p] of Object.entries(m.parts)) {
    assert.ok(p, `${where}: ${name} is on the page`);
    assert.ok(p.inView, `${where}: ${name} lies inside the window: ${JSON.stringify(p.box)} in ${m.W}×${m.H}`);
  }
  assert.equal(m.piles.length, 17, `${where}: seventeen piles`);
  for (const pile of m.piles) {
    assert.ok(pile.shown, `${where}: the ${pile.card} pile is on screen, not scrolled away or covered (${pile.why})`);
    assert.ok(pile.costShown && pile.countShown, `${where}: the ${pile.card} pile shows its cost and count`);
    assert.equal(pile.cost, `$${costs[/** @type {string} */ (pile.card)]}`, `${where}: ${pile.card} shows its cost now`);
    assert.match(pile.count ?? '', /^×\d+$|empty/, `${where}: ${pile.card}'s count`);
  }
  assert.ok(m.hand.length > 0, `${where}: a hand`);
  for (const c of m.hand) {
    assert.ok(c.shown, `${where}: the hand's ${c.card} is on screen and nothing covers it`);
    assert.ok(!c.overlapsPrompt, `${where}: the decision does not cover the hand's ${c.card}`);
  }
  assert.ok(m.controls.length > 0, `${where}: the decision has controls`);
  for (const c of m.controls) assert.ok(c.shown, `${where}: the decision's ${c.id} is on screen`);
  assert.deepEqual(m.tiny, [], `${where}: no text under 12 px`);
}

/** Each pile's cost now, from the last view the page received. @param {any[]} received */
function costsNow(received) {
  const view = [...received].reverse().find((m) => m.view)?.view;
  return Object.fromEntries(view.supply.map((/** @type {any} */ p) => [p.card, p.cost]));
}

describe('the table fits the screen', { timeout: 600000 }, () => {
  for (const [size, viewport, phone] of SIZES) {
    test(`at ${viewport.width} × ${viewport.height}: Supply, hand, in play, status and decision on screen at once in each phase`, { timeout: 200000 }, async () => {
      const p = await openPage(chrome.browser, { viewport, hasTouch: phone, isMobile: phone });
      const { page } = p;
      await enterLobby(page, server.url, 'Lena');
      // With a time limit per decision, whose countdown the decision shows too.
      await createRoom(page, { seats: ['', 'militia'], cards: KINGDOM, roomName: `Layout ${size}`, timer: TIMER });
      await startGame(page);
      const policy = new Policy(['cellar']);
      /** @type {Record<string, boolean>} */
      const seen = { action: false, buy: false, hand_question: false };
      for (let i = 0; i < 400 && !Object.values(seen).every(Boolean); i++) {
        await page.waitForSelector('[data-testid=decision], [data-testid=end-screen]', { timeout: 30000 });
        const s = await readScreen(page);
        assert.ok(!s.end, `the phases were seen before the game ended: ${JSON.stringify(seen)}`);
        const d = s.decision;
        if (!d) continue;
        // The Action phase with a card to play, the start of the Buy phase (Treasures to
        // play), and a question about the cards in hand.
        let phase = null;
        if (d.kind === 'action_phase' && s.hand.some((c) => c.enabled) && !seen.action) phase = 'action';
        if (d.kind === 'buy_phase' && d.playAll && s.hand.length >= 5 && !seen.buy) phase = 'buy';
        const about = d.kind === 'choose_cards' && !d.single && !d.react.length && d.options.length > 1;
        if (about && (d.card === 'cellar' || d.card === 'militia' || d.card === 'chapel') && !seen.hand_question) phase = `${d.card}`;
        if (phase) {
          await page.mouse.move(0, 0);
          await page.screenshot({ path: path.join(ARTIFACTS, `layout-${size}-${phase}.png`) });
          // Measured once the page has settled: a frame that arrives while measuring
          // (a view, the deadline's tick) may re-lay it out for an instant. The question
          // waits for the person, so a layout that does not fit fails both times.
          try {
            await assertFits(page, `${size} ${phase}`, costsNow(p.rec.received));
          } catch {
            await page.waitForTimeout(500);
            await assertFits(page, `${size} ${phase}`, costsNow(p.rec.received));
          }
          seen[phase === 'action' || phase === 'buy' ? phase : 'hand_question'] = true;
        }
        assert.notEqual(await policy.step(page), 'end');
      }
      assert.deepEqual(seen, { action: true, buy: true, hand_question: true });

      if (!phone) {
        // The card faces carry their rules text: the hand's cards and the kingdom's piles.
        const faces = await page.evaluate(() => {
          const face = (/** @type {Element} */ c, /** @type {string} */ sel) => {
            const el = /** @type {HTMLElement | null} */ (c.querySelector(sel));
            return { card: /** @type {HTMLElement} */ (c).dataset.card, text: el?.innerText ?? '', shown: Boolean(el && el.offsetHeight > 10) };
          };
          return {
            hand: [...document.querySelectorAll('[data-testid=hand] .card')].map((c) => face(c, '.card-text')),
            piles: [...document.querySelectorAll('[data-testid=supply] .kingdom .pile-main')].map((c) => face(c, '.pile-text')),
          };
        });
        for (const f of [...faces.hand, ...faces.piles]) {
          const card = /** @type {string} */ (f.card);
          const full = texts(card);
          assert.ok(f.text.length > 0 && f.shown, `${card} shows its text on its face`);
          assert.ok(full.some((t) => t.startsWith(f.text.replace(/…$/, '').trim().slice(0, 12))), `${card}: "${f.text}" is its rules text`);
        }
      } else {
        // On the phone: the text of a hand card, without playing or choosing it.
        await page.waitForSelector('[data-testid=decision]');
        const s = await readScreen(page);
        const card = s.hand[0].card;
        const sentBefore = p.rec.sent.length;
        await page.locator('[data-testid=hand] .card-info').first().tap();
        await page.waitForSelector('[data-testid=card-info]');
        const shown = (await page.getByTestId('card-info').textContent()) ?? '';
        assert.ok(texts(card).some((t) => shown.includes(t)), `the whole text of ${card}: ${shown}`);
        await page.screenshot({ path: path.join(ARTIFACTS, 'layout-phone-card-info.png') });
        await page.getByTestId('card-info-close').tap();
        await page.waitForSelector('[data-testid=card-info]', { state: 'detached' });
        assert.deepEqual(p.rec.sent.slice(sentBefore).filter((m) => m.type === 'reply'), [], 'looking at a card does not play it');
        assert.deepEqual((await readScreen(page)).hand, s.hand, 'the hand is unchanged');
        // Opponents and the log: one tap away, and the tap again puts them away.
        await page.getByTestId('tab-players').tap();
        const opponent = page.getByTestId('opponent-1');
        assert.ok(await opponent.isVisible(), 'the opponent is shown');
        const ob = await opponent.boundingBox();
        assert.ok(ob && ob.y >= 0 && ob.y + ob.height <= viewport.height, 'the opponent lies inside the window');
        await page.getByTestId('tab-log').tap();
        assert.ok(await page.getByTestId('log').isVisible(), 'the log is shown');
        assert.match((await page.getByTestId('log').textContent()) ?? '', /Lena plays Cellar|Lena buys/);
        assert.ok(!(await opponent.isVisible()), 'one panel at a time');
        await page.screenshot({ path: path.join(ARTIFACTS, 'layout-phone-log.png') });
        await page.getByTestId('tab-log').tap();
        assert.ok(!(await page.getByTestId('log').isVisible()), 'the log is put away');
        await page.getByTestId('tab-players').tap();
      }
      assertClean(p);
      await page.getByTestId('leave-room').click();
      await p.context.close();
    });
  }
});

describe('keys and autoplay', { timeout: 600000 }, () => {
  test('1–9 play the n-th playable card, T plays all Treasures, B and the arrows reach the Supply, Enter buys, I shows a card, E ends the phase, ? shows the keys', { timeout: 200000 }, async () => {
    const p = await openPage(chrome.browser, { viewport: { width: 1366, height: 768 } });
    const { page, rec } = p;
    await enterLobby(page, server.url, 'Kalle');
    await createRoom(page, { seats: ['', 'big_money'], cards: KINGDOM });
    await startGame(page);
    const policy = new Policy(['village', 'cellar']);
    const lastReply = async (/** @type {number} */ n) => {
      await waitPast(page, n);
      return [...rec.sent].reverse().find((m) => m.type === 'reply' && m.decision === n)?.reply;
    };
    const focused = () => page.evaluate(() => /** @type {HTMLElement | null} */ (document.activeElement)?.dataset.testid ?? null);
    const seen = { action: false, buy: false, end: false };
    for (let i = 0; i < 300 && !(seen.action && seen.buy && seen.end); i++) {
      await page.waitForSelector('[data-testid=decision]', { timeout: 30000 });
      const s = await readScreen(page);
      const d = /** @type {NonNullable<typeof s.decision>} */ (s.decision);
      const playable = s.hand.filter((c) => c.enabled);
      // Each playable card shows its number.
      const numbers = await page.locator('[data-testid=hand] .card .hotkey').allTextContents();
      if ((d.kind === 'action_phase' || d.kind === 'buy_phase') && playable.length) {
        assert.deepEqual(numbers, playable.slice(0, 9).map((_, n) => String(n + 1)), 'the playable cards are numbered');
      }
      if (d.kind === 'action_phase' && playable.length && !seen.action) {
        await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
        const n = Math.min(playable.length, 2);
        await page.keyboard.press(String(n));
        assert.deepEqual(await lastReply(d.number), { type: 'play', card: playable[n - 1].card }, `key ${n} plays the ${n}. playable card`);
        seen.action = true;
        continue;
      }
      if (seen.buy && !seen.end && (d.kind === 'action_phase' || d.kind === 'buy_phase')) {
        // E ends the phase (asked first with money left: E again says yes).
        await page.keyboard.press('e');
        if (await page.getByTestId('end-turn-confirm').count()) await page.keyboard.press('e');
        assert.deepEqual(await lastReply(d.number), { type: 'end_phase' }, 'E ends the phase');
        seen.end = true;
        continue;
      }
      if (d.kind === 'buy_phase' && playable.length >= 3 && !seen.buy) {
        // 3 plays the third Treasure, in hand order.
        await page.keyboard.press('3');
        assert.deepEqual(await lastReply(d.number), { type: 'play', card: playable[2].card }, 'key 3 plays the third Treasure');
        // T plays the rest.
        const d2 = /** @type {NonNullable<Awaited<ReturnType<typeof readScreen>>['decision']>} */ ((await readScreen(page)).decision);
        await page.keyboard.press('t');
        assert.deepEqual(await lastReply(d2.number), { type: 'play_all_treasures' });
        const s3 = await readScreen(page);
        const d3 = /** @type {NonNullable<typeof s3.decision>} */ (s3.decision);
        // B: the focus goes to the first pile that can be bought.
        await page.keyboard.press('b');
        const first = await focused();
        assert.equal(first, `pile-${s3.buyable[0]}`, 'B focuses the first pile to buy');
        // The arrows move between piles: right to the next, left back, down to a pile below.
        const order = await page.locator('[data-testid=supply] .pile-main').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.testid));
        await page.keyboard.press('ArrowRight');
        assert.equal(await focused(), order[order.indexOf(first) + 1], 'ArrowRight: the next pile');
        await page.keyboard.press('ArrowLeft');
        assert.equal(await focused(), first, 'ArrowLeft: back');
        const y0 = (await page.getByTestId(/** @type {string} */ (first)).boundingBox())?.y ?? 0;
        await page.keyboard.press('ArrowDown');
        const below = /** @type {string} */ (await focused());
        assert.ok(below && below !== first && below.startsWith('pile-'), `ArrowDown: another pile (${below})`);
        assert.ok(((await page.getByTestId(below).boundingBox())?.y ?? 0) > y0, 'ArrowDown: a pile further down');
        await page.keyboard.press('ArrowUp');
        // I: the focused pile's text.
        const at = /** @type {string} */ (await focused()).replace(/^pile-/, '');
        await page.keyboard.press('i');
        await page.waitForSelector('[data-testid=card-info]');
        const info = (await page.getByTestId('card-info').textContent()) ?? '';
        assert.ok(texts(at).some((t) => info.includes(t)), `I shows ${at}'s text: ${info}`);
        await page.keyboard.press('Escape');
        await page.waitForSelector('[data-testid=card-info]', { state: 'detached' });
        // Enter buys the focused pile.
        await page.getByTestId(/** @type {string} */ (first)).focus();
        await page.keyboard.press('Enter');
        assert.deepEqual(await lastReply(d3.number), { type: 'buy', card: /** @type {string} */ (first).replace(/^pile-/, '') }, 'Enter buys the focused pile');
        seen.buy = true;
        continue;
      }
      await policy.step(page);
    }
    assert.deepEqual(seen, { action: true, buy: true, end: true });
    // ? shows the keys, the button too; Escape closes.
    await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid=help]');
    const help = (await page.getByTestId('help').textContent()) ?? '';
    for (const k of ['1 – 9', 'T', 'B', 'Enter', 'E', 'Esc']) assert.ok(help.includes(k), `the help names ${k}`);
    assert.match(help, /Play all Treasures/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'layout-help.png') });
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=help]', { state: 'detached' });
    await page.getByTestId('help-button').click();
    await page.waitForSelector('[data-testid=help]');
    await page.getByTestId('help-close').click();
    await page.waitForSelector('[data-testid=help]', { state: 'detached' });
    assertClean(p);
    await page.getByTestId('leave-room').click();
    await p.context.close();
  });

  test('autoplay: on, the Buy phase starts with every Treasure played (and it is remembered); off, nothing is played', { timeout: 200000 }, async () => {
    for (const on of [true, false]) {
      const p = await openPage(chrome.browser, { viewport: { width: 1366, height: 768 } });
      const { page, rec } = p;
      await enterLobby(page, server.url, on ? 'Auto' : 'Manual');
      await createRoom(page, { seats: ['', 'big_money'] });
      await startGame(page);
      await page.waitForSelector('[data-testid=decision]');
      assert.equal(await page.getByTestId('autoplay-toggle').isChecked(), false, 'off unless chosen');
      if (on) {
        await page.getByTestId('autoplay-toggle').check();
        assert.equal(await page.evaluate(() => localStorage.getItem('dominion.autoTreasures')), '1');
      }
      /**
       * Ends the phases until the Buy phase in progress is over; returns how many frames
       * the page had sent before it ended the turn (what it sends next is the next turn's).
       */
      const endTurn = async () => {
        for (;;) {
          const d = /** @type {NonNullable<Awaited<ReturnType<typeof readScreen>>['decision']>} */ ((await readScreen(page)).decision);
          const sent = rec.sent.length;
          await endPhase(page);
          await waitPast(page, d.number);
          if (d.kind === 'buy_phase') return sent;
        }
      };
      // The turn in progress (turning the option on in a Buy phase plays at once) …
      let sentBefore = await endTurn();
      // … then two turns: each Buy phase starts with the Treasures played by the page, or not.
      for (let turn = 0; turn < 2; turn++) {
        await page.waitForSelector('[data-testid=decision]', { timeout: 30000 });
        // (An Action phase is only asked with an Action in hand: not with this deck.)
        const first = (await readScreen(page)).decision;
        if (first?.kind === 'action_phase') {
          await endPhase(page);
          await waitPast(page, first.number);
        }
        await page.waitForSelector('[data-testid=decision][data-kind=buy_phase]');
        /** The replies sent since the turn began, but for ending the Action phase. */
        const replies = () => rec.sent.slice(sentBefore).filter((m) => m.type === 'reply' && m.reply.type !== 'end_phase').map((m) => m.reply);
        if (on) {
          await page.waitForFunction(() => (document.querySelector('[data-testid=count-coins] strong')?.textContent ?? '$0') !== '$0');
          await page.waitForFunction(() => !document.querySelector('[data-testid=play-all]:not([disabled])'));
          const s = await readScreen(page);
          assert.equal(s.decision?.kind, 'buy_phase');
          assert.ok(s.hand.every((c) => !CARDS[c.card].types.includes('treasure')), `no Treasure left in hand: ${s.hand.map((c) => c.card)}`);
          const inPlay = await page.locator('[data-testid=in-play] [data-card]').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card ?? ''));
          assert.ok(inPlay.length >= 2 && inPlay.every((c) => CARDS[c].types.includes('treasure')), `the Treasures are in play: ${inPlay}`);
          assert.deepEqual(replies(), [{ type: 'play_all_treasures' }], 'the page played them with the usual reply, once');
          const log = (await page.getByTestId('log').textContent()) ?? '';
          assert.match(log, /Auto plays \d+ Treasures: /, 'the log shows them played');
          if (turn === 0) await page.screenshot({ path: path.join(ARTIFACTS, 'layout-autoplay.png') });
        } else {
          await page.waitForTimeout(600);
          const s = await readScreen(page);
          assert.equal(s.decision?.playAll, true, 'the Treasures wait in hand');
          assert.ok(s.hand.some((c) => CARDS[c.card].types.includes('treasure')));
          assert.equal(await page.locator('[data-testid=in-play] [data-card]').count(), 0, 'nothing in play');
          assert.deepEqual(replies(), [], 'nothing was played');
          assert.equal(s.coins, 0);
        }
        sentBefore = await endTurn();
      }
      if (on) {
        // Remembered, like the language.
        await page.reload();
        await page.waitForSelector('[data-testid=decision]');
        assert.equal(await page.getByTestId('autoplay-toggle').isChecked(), true, 'still on after a reload');
        await page.getByTestId('autoplay-toggle').uncheck();
        assert.equal(await page.evaluate(() => localStorage.getItem('dominion.autoTreasures')), '0');
      }
      assertClean(p);
      await page.getByTestId('leave-room').click();
      await p.context.close();
    }
  });
});

/**
 * The log and the Players panel as the person sees them now: the log's box, its line
 * height, which of its lines show, and each player's row (shown, not clipped by the
 * panel's scrolling or the window).
 * @param {import('playwright-core').Page} page
 */
function measureSide(page) {
  return page.evaluate(() => {
    const H = window.innerHeight;
    const W = window.innerWidth;
    const log = /** @type {HTMLElement} */ (document.querySelector('[data-testid=log]'));
    const lb = log.getBoundingClientRect();
    const line = /** @type {HTMLElement | null} */ (log.querySelector('.log-line'));
    const lineHeight = line ? parseFloat(getComputedStyle(line).lineHeight) : 0;
    const entries = [...log.querySelectorAll('h3, li')];
    // (A pixel of slack: the scroll range is whole pixels, the lines' boxes are not.)
    const inside = (/** @type {DOMRect} */ b) => b.top >= lb.top - 1 && b.bottom <= lb.bottom + 1;
    const last = entries.at(-1)?.getBoundingClientRect();
    const earlier = document.querySelector('[data-testid=log-earlier]')?.getBoundingClientRect();
    /** Whether `el` is fully on screen: in the window, inside every ancestor that clips it, on top. */
    const shown = (/** @type {Element} */ el) => {
      const b = el.getBoundingClientRect();
      if (b.width <= 0 || b.height <= 0 || b.top < -0.5 || b.left < -0.5 || b.bottom > H + 0.5 || b.right > W + 0.5) return false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowY;
        if (o === 'auto' || o === 'scroll' || o === 'hidden') {
          const c = p.getBoundingClientRect();
          if (b.top < c.top - 0.5 || b.bottom > c.bottom + 0.5) return false;
        }
      }
      const top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      return Boolean(top && (el === top || el.contains(top)));
    };
    const rows = [...document.querySelectorAll('[data-testid=me], [data-testid^="opponent-"]')];
    const scroller = /** @type {HTMLElement | null} */ (document.querySelector('[data-testid=players]'));
    return {
      H,
      logHeight: lb.height,
      logInView: lb.top >= -0.5 && lb.bottom <= H + 0.5 && lb.height > 0,
      lineHeight,
      shownEntries: entries.filter((e) => inside(e.getBoundingClientRect())).length,
      entries: entries.length,
      newestShown: Boolean(last && inside(last)),
      where: `newest ${last?.top}–${last?.bottom} in the log's ${lb.top}–${lb.bottom}, scrolled ${log.scrollTop} of ${log.scrollHeight - log.clientHeight}`,
      earlierOverlaps: Boolean(earlier && earlier.bottom > lb.top + 0.5 && earlier.top < lb.bottom),
      rows: rows.map((r) => ({ id: /** @type {HTMLElement} */ (r).dataset.testid, shown: shown(r), current: r.getAttribute('aria-current') === 'true' })),
      playersFocusable: scroller?.tabIndex === 0,
      playersScrolled: scroller ? scroller.scrollTop : -1,
    };
  });
}

describe('the log and every opponent in view, with 2, 4 and 6 players', { timeout: 900000 }, () => {
  // The log's height in lines: twelve at 1366 × 768 (and in the phone's log panel), twenty at 1920 × 1080.
  const LINES = { laptop: 12, desktop: 20, phone: 12 };
  for (const [size, viewport, phone] of SIZES) {
    for (const players of [2, 4, 6]) {
      test(`${viewport.width} × ${viewport.height}, ${players} players: the log shows ${LINES[size]}+ lines, newest in view; every player's row shows`, { timeout: 240000 }, async () => {
        const p = await openPage(chrome.browser, { viewport, hasTouch: phone, isMobile: phone });
        const { page } = p;
        await enterLobby(page, server.url, 'Lena');
        await createRoom(page, { players, seats: ['', 'big_money', 'big_money', 'big_money', 'big_money', 'big_money'], roomName: `Log ${size} ${players}` });
        await startGame(page);
        // Until the log holds more than a screenful and it is the person's turn again.
        const policy = new Policy();
        for (let i = 0; i < 300; i++) {
          assert.notEqual(await policy.step(page), 'end', 'the game goes on');
          const n = await page.evaluate(() => document.querySelectorAll('[data-testid=log] :is(h3, li)').length);
          const kind = await page.evaluate(() => document.querySelector('[data-testid=decision]')?.getAttribute('data-kind'));
          if (n >= 45 && kind === 'buy_phase') break;
        }
        await page.mouse.move(0, 0);
        if (phone) {
          await page.getByTestId('tab-log').tap();
          await page.waitForTimeout(100);
        }
        let m = await measureSide(page);
        // A frame that lands while measuring may move the log for an instant: once more.
        if (!m.newestShown) {
          await page.waitForTimeout(400);
          m = await measureSide(page);
        }
        await page.screenshot({ path: path.join(ARTIFACTS, `layout-${size}-${players}p${phone ? '-log' : ''}.png`) });
        assert.ok(m.logInView, `${size} ${players}p: the log lies inside the window`);
        assert.ok(m.entries >= 45, `${size} ${players}p: the log holds ${m.entries} lines`);
        assert.ok(m.logHeight >= LINES[size] * m.lineHeight, `${size} ${players}p: the log is ${m.logHeight}px tall, ${(m.logHeight / m.lineHeight).toFixed(1)} lines of ${m.lineHeight}px (${LINES[size]} wanted)`);
        assert.ok(m.shownEntries >= LINES[size] - 2, `${size} ${players}p: ${m.shownEntries} headings and lines shown at once`);
        assert.ok(m.newestShown, `${size} ${players}p: the newest line is in view (${m.where})`);
        assert.ok(!m.earlierOverlaps, `${size} ${players}p: nothing is drawn over the log`);
        if (phone) {
          await page.getByTestId('tab-players').tap();
          await page.waitForTimeout(100);
        }
        const r = phone ? await measureSide(page) : m;
        if (phone) await page.screenshot({ path: path.join(ARTIFACTS, `layout-${size}-${players}p-players.png`) });
        assert.equal(r.rows.length, players, `${size}: a row per player`);
        for (const row of r.rows) assert.ok(row.shown, `${size} ${players}p: the row of ${row.id} is on screen without scrolling`);
        assert.equal(r.playersScrolled, 0, 'the Players panel is not scrolled');
        assert.ok(r.playersFocusable, 'the Players panel can be reached by keyboard');
        assert.equal(r.rows.filter((x) => x.current).length, 1, 'the player whose turn it is is marked');
        assertClean(p);
        await p.context.close();
      });
    }
  }
});
