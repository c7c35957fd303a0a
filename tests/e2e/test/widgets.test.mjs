// Every decision widget, one test per question a card asks. The page is the real
// client served by the real server, but its WebSocket is answered by a scripted server
// in the test (playwright's routeWebSocket) that asks exactly the question under test,
// so each widget is reached at once and with the exact shape the engine sends. Each
// question is answered through the page (click, tap or keyboard) and the test checks
// the exact `reply` frame the page sent. Every frame either side sends is validated
// against the committed protocol schema. A screenshot of each widget, at 1366 × 768,
// lands in artifacts/widget-<card>-<purpose>.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch, validateClient, validateServer } from '../lib/browser.mjs';
import { ROOT, startServer } from '../lib/server.mjs';

const CARDS = JSON.parse(fs.readFileSync(path.join(ROOT, 'web-client/data/cards.json'), 'utf8')).cards;

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
/** @type {Scripted} */
let s;
/** @type {import('playwright-core').Page} */
let page;

const KINGDOM = ['cellar', 'chapel', 'moat', 'village', 'workshop', 'militia', 'remodel', 'smithy', 'market', 'library'];
const SUPPLY = ['copper', 'silver', 'gold', 'estate', 'duchy', 'province', 'curse', ...KINGDOM].map((card) => ({ card, count: 10, cost: CARDS[card].cost }));
const HAND = ['copper', 'estate', 'silver', 'copper', 'chapel'];

/** @param {any} occupant0 */
function room(occupant0, status = 'lobby') {
  return {
    id: 'mock',
    name: 'Scripted table',
    status,
    settings: { kingdom: { type: 'cards', cards: KINGDOM }, edition: '2e', seats: [{ type: 'open' }, { type: 'open' }] },
    seats: [
      { seat: 0, occupant: occupant0 },
      { seat: 1, occupant: { type: 'human', name: 'Bob', connected: true } },
    ],
    spectators: 0,
  };
}
const ROOM = room({ type: 'empty' });
const SEATED_ROOM = room({ type: 'human', name: 'Hanna', connected: true }, 'playing');

/**
 * The view of seat 0 with `over` applied (`seats` entries merge by index).
 * @param {number | null} decision  the decision pending for seat 0, or null (Bob's turn to answer)
 * @param {any} [over]
 */
function view(decision, over = {}) {
  const seats = [0, 1].map((seat) => ({ seat, hand_count: 5, deck_count: 5, discard_count: 3, discard_top: 'copper', in_play: [], aside: [], vp: 3, turns: 3, ...(over.seats?.[seat] ?? {}) }));
  /** @type {any} */
  const v = {
    seat: 0,
    edition: '2e',
    kingdom: KINGDOM,
    supply: SUPPLY,
    trash: [],
    hand: HAND,
    current: 0,
    phase: 'action',
    actions: 1,
    buys: 1,
    coins: 0,
    turn_count: 5,
    game_over: false,
    ...over,
    seats,
  };
  if (decision == null) {
    if (!('waiting_for' in over)) Object.assign(v, { waiting_for: 1, decision: 900 });
  } else {
    Object.assign(v, { waiting_for: 0, decision });
  }
  if (v.waiting_for === undefined) delete v.waiting_for;
  if (v.decision === undefined) delete v.decision;
  return v;
}

/** A scripted server for one page: it seats the page, then asks what a test asks. */
class Scripted {
  /** @param {import('playwright-core').Page} page */
  constructor(page) {
    this.page = page;
    /** @type {string[]} */
    this.problems = [];
    /** @type {any} */
    this.ws = null;
    this.next = 0; // the next event number
    this.decision = 0;
    /** @type {((frame: any) => void) | null} */
    this.onReply = null;
    /** @type {any} */
    this.over = {};
    /** When set, a reply gets its ack but no frame after it (the server is still busy). */
    this.silent = false;
  }

  /** @param {any} msg */
  send(msg) {
    if (!validateServer(msg)) this.problems.push(`the scripted server sent an invalid ${msg.type}: ${JSON.stringify(msg)}`);
    this.ws.send(JSON.stringify(msg));
  }

  /** Sends events and the view after them. @param {any[]} events @param {any} v */
  events(events, v) {
    this.send({ type: 'events', first: this.next, events, view: v });
    this.next += events.length;
  }

  async open() {
    let seated = false;
    await this.page.routeWebSocket(/\/ws$/, (ws) => {
      this.ws = ws;
      ws.onMessage((text) => {
        const msg = JSON.parse(String(text));
        if (!validateClient(msg)) this.problems.push(`the page sent an invalid frame: ${text}`);
        switch (msg.type) {
          case 'hello':
            this.send({ type: 'welcome', protocol: 1, server: 'scripted', limits: { max_message_bytes: 65536, rate_messages: 100, rate_window_ms: 20000, heartbeat_ms: 20000, idle_timeout_ms: 60000 } });
            break;
          case 'list_rooms':
            this.send({ type: 'room_list', re: msg.id, rooms: [seated ? SEATED_ROOM : ROOM] });
            break;
          case 'take_seat':
            seated = true;
            this.send({ type: 'seated', re: msg.id, room: 'mock', seat: 0, token: 'mock-token-0123456789abcdef', last_command: msg.id });
            this.send({ type: 'room', room: SEATED_ROOM });
            this.send({ type: 'snapshot', next_event: 0, view: view(null) });
            break;
          case 'reply': {
            this.send({ type: 'ack', re: msg.id });
            if (!this.silent) this.events([], view(null, this.over));
            const done = this.onReply;
            this.onReply = null;
            if (done) done(msg);
            else this.problems.push(`an unexpected reply: ${text}`);
            break;
          }
          case 'ping':
            this.send({ type: 'pong', re: msg.id });
            break;
          default:
            this.send({ type: 'ack', re: msg.id });
        }
      });
    });
    await this.page.goto(server.url);
    await this.page.getByTestId('name-input').fill('Hanna');
    await this.page.getByTestId('join-mock-0').click();
    await this.page.waitForSelector('[data-testid=table]');
  }

  /**
   * Asks seat 0 a question (after `events`, with the view changed by `over`) and waits
   * until the page shows it. `reply` resolves to the frame the page answers with.
   * @param {{card?: string, purpose: string, prompt: any, about?: number, over?: any, events?: any[]}} q
   */
  async ask(q) {
    const n = ++this.decision;
    this.over = q.over ?? {};
    /** @type {Promise<any>} */
    const reply = new Promise((resolve) => (this.onReply = resolve));
    this.events(q.events ?? [], view(n, this.over));
    /** @type {any} */
    const d = { type: 'decision', decision: n, seat: 0, purpose: q.purpose, prompt: q.prompt };
    if (q.card) d.card = q.card;
    if (q.about != null) d.about = q.about;
    this.send(d);
    await this.page.waitForSelector(`[data-testid=decision][data-decision="${n}"]`);
    return { n, reply };
  }
}

/**
 * The reply frame is exactly {type: 'reply', id, decision, reply} with the given answer.
 * @param {any} frame @param {number} n @param {any} answer
 */
function assertReply(frame, n, answer) {
  assert.deepEqual(Object.keys(frame).sort(), ['decision', 'id', 'reply', 'type']);
  assert.ok(Number.isInteger(frame.id) && frame.id > 0, 'a command id');
  assert.deepEqual(frame, { type: 'reply', id: frame.id, decision: n, reply: answer });
  assert.ok(validateClient(frame));
}

/** @param {string} name */
async function shot(name) {
  const file = path.join(ARTIFACTS, `widget-${name}.png`);
  // A question about the hand's cards is answered in the hand: both are in the picture.
  if (await page.locator('[data-testid=hand] [data-testid^="option-"]').count()) {
    const a = /** @type {NonNullable<Awaited<ReturnType<import('playwright-core').Locator['boundingBox']>>>} */ (await page.getByTestId('decision').boundingBox());
    const b = /** @type {typeof a} */ (await page.getByTestId('hand-area').boundingBox());
    const x = Math.min(a.x, b.x);
    const y = Math.min(a.y, b.y);
    const clip = { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
    await page.screenshot({ path: file, clip });
  } else {
    await page.getByTestId('decision').screenshot({ path: file });
  }
}

async function headline() {
  return (await page.getByTestId('decision-prompt').textContent())?.replace(/\s+/g, ' ').trim() ?? '';
}

/** The labels of the mode buttons, in order. */
async function modeLabels() {
  return page.locator('[data-testid=decision] [data-testid^=mode-]').allTextContents();
}

/** The cards the name-a-card list shows now. */
async function shownNames() {
  return page.locator('[data-testid^=name-option-]').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card ?? ''));
}

/** Tabs until the control with `testid` has focus. @param {string} testid */
async function tabTo(testid) {
  for (let i = 0; i < 80; i++) {
    if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testid)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${testid} is not reachable with Tab`);
}

/** @param {string} lang */
async function language(lang) {
  await page.getByTestId('lang-select').selectOption(lang);
}

before(async () => {
  server = await startServer();
  chrome = await launch();
  const context = await chrome.browser.newContext({ viewport: { width: 1366, height: 768 }, hasTouch: true, reducedMotion: 'reduce' });
  page = await context.newPage();
  s = new Scripted(page);
  page.on('console', (m) => m.type() === 'error' && s.problems.push(m.text()));
  page.on('pageerror', (e) => s.problems.push(e.message));
  await s.open();
});
after(async () => {
  await chrome?.close();
  await server?.stop();
});

describe('decision widgets', { timeout: 120000 }, () => {
  // ----- the prompt kinds as the earlier cards ask them ----------------------------------

  test('Pawn: choose two different modes', async () => {
    const { n, reply } = await s.ask({ card: 'pawn', purpose: 'choose_modes', prompt: { kind: 'choose_modes', options: ['plus_card', 'plus_action', 'plus_buy', 'plus_coin'], min: 2, max: 2 } });
    assert.equal(await headline(), 'Pawn: Choose 2 different.');
    assert.deepEqual(await modeLabels(), ['+1 Card', '+1 Action', '+1 Buy', '+$1']);
    await shot('pawn-choose_modes');
    assert.ok(await page.getByTestId('confirm').isDisabled(), 'confirm waits for a legal choice');
    await page.getByTestId('mode-plus_card').click();
    assert.ok(await page.getByTestId('confirm').isDisabled(), 'one mode is not enough');
    await page.getByTestId('mode-plus_coin').click();
    await page.getByTestId('mode-plus_buy').click(); // a third is not taken
    assert.equal(await page.getByTestId('mode-plus_buy').getAttribute('aria-pressed'), 'false');
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'modes', modes: ['plus_card', 'plus_coin'] });
  });

  test('Workshop: an optional pile, answered with none', async () => {
    const { n, reply } = await s.ask({ card: 'workshop', purpose: 'gain', prompt: { kind: 'choose_pile', options: ['silver', 'village'], optional: true } });
    await shot('workshop-gain');
    assert.ok(await page.getByTestId('pile-option-village').isVisible());
    await page.getByTestId('pile-none').click();
    assertReply(await reply, n, { type: 'pile', card: null });
  });

  test('with Bridge in play a gain widget shows the costs now, as the Supply does', async () => {
    // Bridge played: every card costs $1 less this turn; the view carries the costs now.
    const supply = SUPPLY.map((p) => ({ ...p, cost: Math.max(0, p.cost - 1) }));
    const over = { supply, seats: [{ in_play: ['bridge'] }, {}] };
    const options = ['silver', 'village', 'workshop', 'smithy', 'militia', 'remodel'];
    const { n, reply } = await s.ask({ card: 'ironworks', purpose: 'gain', over, prompt: { kind: 'choose_pile', options, optional: false } });
    await shot('ironworks-gain-bridge');
    // Smithy, Militia and Remodel are printed at $4 and cost $3 now.
    for (const card of ['smithy', 'militia', 'remodel']) {
      // The name read out: the card's visible name and, hidden around it, its type and cost now.
      const label = await page.getByTestId(`pile-option-${card}`).evaluate((el) => [...el.querySelectorAll('.visually-hidden, .card-name')].map((x) => x.textContent).join(''));
      assert.match(label ?? '', /Costs 3$/, `${card}: ${label}`);
      assert.equal(await page.getByTestId(`pile-option-${card}`).locator('.cost').textContent(), '$3');
    }
    assert.equal(await page.getByTestId('pile-option-silver').locator('.cost').textContent(), '$2');
    await page.getByTestId('pile-option-smithy').click();
    assertReply(await reply, n, { type: 'pile', card: 'smithy' });
  });

  test('Chapel: choose 1 to 2 cards from the hand', async () => {
    const { n, reply } = await s.ask({ card: 'chapel', purpose: 'trash', prompt: { kind: 'choose_cards', zone: 'hand', options: ['copper', 'estate', 'copper'], min: 1, max: 2 } });
    await shot('chapel-trash');
    assert.ok(await page.getByTestId('confirm').isDisabled(), 'at least one card must be chosen');
    await page.getByTestId('option-0').click();
    await page.getByTestId('option-1').click();
    await page.getByTestId('option-2').click(); // over the maximum: not taken
    assert.equal(await page.getByTestId('option-2').getAttribute('aria-pressed'), 'false');
    await page.getByTestId('option-1').click(); // changed my mind
    await page.getByTestId('option-2').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['copper', 'copper'] });
  });

  test('Moat: reveal a Reaction, by touch', async () => {
    const { n, reply } = await s.ask({ card: 'moat', purpose: 'react', prompt: { kind: 'choose_cards', zone: 'hand', options: ['moat'], min: 0, max: 1 } });
    await shot('moat-react');
    await page.getByTestId('react-moat').tap();
    assertReply(await reply, n, { type: 'cards', cards: ['moat'] });
  });

  // ----- the cards of this release -------------------------------------------------------

  test('Library: set the drawn Action aside? — two buttons', async () => {
    const { n, reply } = await s.ask({
      card: 'library',
      purpose: 'set_aside',
      prompt: { kind: 'choose_cards', zone: 'hand', options: ['village'], min: 0, max: 1 },
      over: { hand: [...HAND, 'village'] },
    });
    assert.equal(await headline(), 'Library: Set Village aside?');
    assert.equal(await page.getByTestId('decision').getAttribute('data-single'), 'true');
    assert.match(await page.getByTestId('decision-card-text').textContent() ?? '', /Draw until you have 7 cards/);
    assert.equal(await page.getByTestId('yes').textContent(), 'Set Village aside');
    assert.equal(await page.getByTestId('no').textContent(), 'Keep it in your hand');
    assert.equal(await page.locator('[data-testid=decision] [data-testid^=option-]').count(), 0, 'no selection to make');
    await shot('library-set_aside');
    await page.getByTestId('yes').click();
    assertReply(await reply, n, { type: 'cards', cards: ['village'] });
  });

  test('Library: Enter alone never answers a yes/no-like question; keyboard "No" does', async () => {
    const { n, reply } = await s.ask({ card: 'library', purpose: 'set_aside', prompt: { kind: 'choose_cards', zone: 'hand', options: ['smithy'], min: 0, max: 1 } });
    await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
    await page.keyboard.press('Enter');
    await page.waitForTimeout(200);
    assert.equal(await page.getByTestId('decision').getAttribute('data-decision'), String(n), 'still asked');
    await tabTo('no');
    await page.keyboard.press('Enter');
    assertReply(await reply, n, { type: 'cards', cards: [] });
  });

  test("Spy: discard Bob's revealed card? — names Bob, in every language", async () => {
    const { n, reply } = await s.ask({
      card: 'spy',
      purpose: 'discard',
      about: 1,
      prompt: { kind: 'choose_cards', zone: 'revealed', options: ['gold'], min: 0, max: 1 },
      over: { edition: '1e', seats: [{ aside: ['estate'] }, { aside: ['gold'] }] },
    });
    assert.equal(await headline(), "Spy: Discard Bob's revealed Gold?");
    assert.equal(await page.getByTestId('decision').getAttribute('data-about'), '1');
    assert.match(await page.getByTestId('aside-1').textContent() ?? '', /Gold/, "Bob's revealed card is on the table");
    assert.match(await page.getByTestId('decision').textContent() ?? '', /from Bob's revealed cards/);
    assert.equal(await page.getByTestId('offered-0').getAttribute('data-card'), 'gold', 'the revealed card is shown in the widget');
    await shot('spy-discard');
    await language('hu');
    assert.equal(await headline(), 'Kém: Bob felfedett lapja: Arany. Eldobod?');
    await language('ru');
    assert.equal(await headline(), 'Шпион: Сбросить открытую карту игрока Bob — «Золото»?');
    await language('sv');
    assert.equal(await headline(), 'Spy: Slänga Bobs visade kort Guld?');
    assert.equal(await page.getByTestId('no').textContent(), 'Lägg tillbaka');
    await language('en');
    // By keyboard: Tab to "Put it back", Space.
    await tabTo('no');
    await page.keyboard.press('Space');
    assertReply(await reply, n, { type: 'cards', cards: [] });
  });

  test('Spy: discard your own revealed card? — by touch', async () => {
    const { n, reply } = await s.ask({
      card: 'spy',
      purpose: 'discard',
      prompt: { kind: 'choose_cards', zone: 'revealed', options: ['estate'], min: 0, max: 1 },
      over: { edition: '1e', seats: [{ aside: ['estate'] }, {}] },
    });
    assert.equal(await headline(), 'Spy: Discard your revealed Estate?');
    await shot('spy-discard-own');
    await page.getByTestId('yes').tap();
    assertReply(await reply, n, { type: 'cards', cards: ['estate'] });
  });

  test("Thief: which of Bob's Treasures is trashed?", async () => {
    const { n, reply } = await s.ask({
      card: 'thief',
      purpose: 'trash',
      about: 1,
      prompt: { kind: 'choose_cards', zone: 'revealed', options: ['silver', 'gold'], min: 1, max: 1 },
      over: { edition: '1e', seats: [{}, { aside: ['silver', 'gold'] }] },
    });
    assert.equal(await headline(), "Thief: Which of Bob's Treasures is trashed?");
    assert.match(await page.getByTestId('decision-count').textContent() ?? '', /Choose a card\. \(from Bob's revealed cards\)/);
    assert.ok(await page.getByTestId('confirm').isDisabled());
    await shot('thief-trash');
    await page.getByTestId('option-1').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['gold'] });
  });

  test('Thief: gain any of the trashed cards', async () => {
    const { n, reply } = await s.ask({
      card: 'thief',
      purpose: 'gain',
      prompt: { kind: 'choose_cards', zone: 'trash', options: ['gold', 'silver'], min: 0, max: 2 },
      over: { edition: '1e', trash: ['gold', 'silver'] },
    });
    assert.equal(await headline(), 'Thief: Gain any of the trashed cards.');
    assert.equal(await page.getByTestId('confirm').textContent(), 'Choose none');
    await shot('thief-gain');
    await page.getByTestId('option-0').click();
    await page.getByTestId('option-1').click();
    assert.equal(await page.getByTestId('confirm').textContent(), 'Confirm');
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['gold', 'silver'] });
  });

  test('Thief: gain the one trashed card? — two buttons', async () => {
    const { n, reply } = await s.ask({ card: 'thief', purpose: 'gain', prompt: { kind: 'choose_cards', zone: 'trash', options: ['silver'], min: 0, max: 1 }, over: { edition: '1e', trash: ['silver'] } });
    assert.equal(await headline(), 'Thief: Gain the trashed Silver?');
    await shot('thief-gain-one');
    await page.getByTestId('yes').click();
    assertReply(await reply, n, { type: 'cards', cards: ['silver'] });
  });

  test('Sentry: trash any of the top two cards', async () => {
    const { n, reply } = await s.ask({ card: 'sentry', purpose: 'trash', prompt: { kind: 'choose_cards', zone: 'deck', options: ['curse', 'gold'], min: 0, max: 2 } });
    assert.equal(await headline(), 'Sentry: Trash any of the cards from the top of your deck.');
    assert.match(await page.getByTestId('decision-count').textContent() ?? '', /from your deck/);
    await shot('sentry-trash');
    await page.getByTestId('option-0').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['curse'] });
  });

  test('Sentry: discard any of them, by keyboard', async () => {
    const { n, reply } = await s.ask({ card: 'sentry', purpose: 'discard', prompt: { kind: 'choose_cards', zone: 'deck', options: ['estate', 'gold'], min: 0, max: 2 } });
    assert.equal(await headline(), 'Sentry: Discard any of the cards from the top of your deck.');
    await shot('sentry-discard');
    await tabTo('option-0');
    await page.keyboard.press('Space');
    assert.equal(await page.getByTestId('option-0').getAttribute('aria-pressed'), 'true');
    await tabTo('confirm');
    await page.keyboard.press('Enter');
    assertReply(await reply, n, { type: 'cards', cards: ['estate'] });
  });

  test('Sentry: discard the one card left? — two buttons', async () => {
    const { n, reply } = await s.ask({ card: 'sentry', purpose: 'discard', prompt: { kind: 'choose_cards', zone: 'deck', options: ['copper'], min: 0, max: 1 } });
    assert.equal(await headline(), 'Sentry: Discard Copper from the top of your deck?');
    assert.equal(await page.getByTestId('no').textContent(), 'Put it back');
    await shot('sentry-discard-one');
    await page.getByTestId('yes').click();
    assertReply(await reply, n, { type: 'cards', cards: ['copper'] });
  });

  test('Sentry: put the rest back in order', async () => {
    const { n, reply } = await s.ask({ card: 'sentry', purpose: 'top_deck', prompt: { kind: 'order_cards', cards: ['gold', 'silver'] } });
    assert.equal(await headline(), 'Sentry: Put the rest back onto your deck in any order. The first one ends on top.');
    await shot('sentry-top_deck');
    await page.getByTestId('order-down-0').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['silver', 'gold'] });
  });

  test('Harbinger: put a card from the discard pile onto the deck? — copies shown once', async () => {
    const { n, reply } = await s.ask({
      card: 'harbinger',
      purpose: 'top_deck',
      prompt: { kind: 'choose_cards', zone: 'discard', options: ['copper', 'estate', 'copper', 'smithy', 'copper'], min: 0, max: 1 },
    });
    assert.equal(await headline(), 'Harbinger: Put a card from your discard pile onto your deck?');
    const shown = await page.locator('[data-testid=decision] [data-testid^=option-]').evaluateAll((els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card));
    assert.deepEqual(shown, ['copper', 'estate', 'smithy']);
    assert.match(await page.getByTestId('option-0').textContent() ?? '', /×3/);
    assert.equal(await page.getByTestId('confirm').textContent(), 'Choose none');
    await shot('harbinger-top_deck');
    await page.getByTestId('option-3').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['smithy'] });
  });

  test('Harbinger: choosing none', async () => {
    const { n, reply } = await s.ask({ card: 'harbinger', purpose: 'top_deck', prompt: { kind: 'choose_cards', zone: 'discard', options: ['copper', 'estate'], min: 0, max: 1 } });
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: [] });
  });

  test('Vassal: play the discarded Action? — two buttons', async () => {
    const { n, reply } = await s.ask({
      card: 'vassal',
      purpose: 'play',
      prompt: { kind: 'choose_cards', zone: 'discard', options: ['smithy'], min: 0, max: 1 },
      over: { seats: [{ discard_top: 'smithy' }, {}] },
    });
    assert.equal(await headline(), 'Vassal: Play the discarded Smithy?');
    assert.equal(await page.getByTestId('yes').textContent(), 'Play Smithy');
    await shot('vassal-play');
    await page.getByTestId('yes').click();
    assertReply(await reply, n, { type: 'cards', cards: ['smithy'] });
  });

  test('Chancellor: put your deck into your discard pile?', async () => {
    const { n, reply } = await s.ask({ card: 'chancellor', purpose: 'discard_deck', prompt: { kind: 'yes_no' }, over: { edition: '1e' } });
    assert.equal(await headline(), 'Chancellor: Put your deck into your discard pile?');
    await shot('chancellor-discard_deck');
    await tabTo('yes');
    await page.keyboard.press('Enter');
    assertReply(await reply, n, { type: 'yes_no', yes: true });
  });

  test('Artisan: gain a card to your hand (a pile), then put a card onto your deck', async () => {
    {
      const options = ['copper', 'silver', 'estate', 'duchy', 'curse', 'cellar', 'chapel', 'moat', 'village', 'workshop', 'militia', 'remodel', 'smithy', 'market', 'library'];
      const { n, reply } = await s.ask({ card: 'artisan', purpose: 'gain', prompt: { kind: 'choose_pile', options, optional: false } });
      assert.equal(await headline(), 'Artisan: Choose a card to gain.');
      assert.match(await page.getByTestId('decision-card-text').textContent() ?? '', /Gain a card to your hand costing up to \$5/);
      assert.equal(await page.getByTestId('pile-none').count(), 0, 'a gain that must happen');
      await shot('artisan-gain');
      await page.getByTestId('pile-option-market').click();
      assertReply(await reply, n, { type: 'pile', card: 'market' });
    }
    const hand = [...HAND, 'market'];
    const { n, reply } = await s.ask({ card: 'artisan', purpose: 'top_deck', prompt: { kind: 'choose_cards', zone: 'hand', options: hand, min: 1, max: 1 }, over: { hand } });
    assert.equal(await headline(), 'Artisan: Put a card from your hand onto your deck.');
    await shot('artisan-top_deck');
    await page.getByTestId('option-2').tap();
    await page.getByTestId('confirm').tap();
    assertReply(await reply, n, { type: 'cards', cards: ['silver'] });
  });

  test('Bandit: which Treasure do you trash?', async () => {
    const { n, reply } = await s.ask({
      card: 'bandit',
      purpose: 'trash',
      prompt: { kind: 'choose_cards', zone: 'revealed', options: ['silver', 'gold'], min: 1, max: 1 },
      over: { current: 1, seats: [{ aside: ['silver', 'gold'] }, { in_play: ['bandit'] }] },
    });
    assert.equal(await headline(), 'Bandit: Which Treasure do you trash?');
    assert.match(await page.getByTestId('aside-0').textContent() ?? '', /Silver.*Gold/);
    await shot('bandit-trash');
    await page.getByTestId('option-0').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['silver'] });
  });

  test('Bureaucrat: put a Victory card from your hand onto your deck', async () => {
    const hand = ['copper', 'estate', 'duchy', 'copper', 'silver'];
    const { n, reply } = await s.ask({ card: 'bureaucrat', purpose: 'top_deck', prompt: { kind: 'choose_cards', zone: 'hand', options: ['estate', 'duchy'], min: 1, max: 1 }, over: { current: 1, hand } });
    assert.equal(await headline(), 'Bureaucrat: Put a card from your hand onto your deck.');
    await shot('bureaucrat-top_deck');
    await page.getByTestId('option-0').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['estate'] });
  });

  test('Moneylender (2E): trash a Copper? — two buttons, and only the 2E text', async () => {
    const hand = ['copper', 'copper', 'estate', 'silver'];
    const { n, reply } = await s.ask({ card: 'moneylender', purpose: 'trash', prompt: { kind: 'choose_cards', zone: 'hand', options: ['copper', 'copper'], min: 0, max: 1 }, over: { hand } });
    assert.equal(await headline(), 'Moneylender: Trash Copper?');
    assert.equal(await page.getByTestId('decision-card-text').textContent(), 'You may trash a Copper from your hand for +$3.');
    await shot('moneylender-trash');
    await page.getByTestId('yes').click();
    assertReply(await reply, n, { type: 'cards', cards: ['copper'] });
  });

  test('Throne Room in a 1E game shows only the 1E text', async () => {
    const hand = ['smithy', 'village', 'copper'];
    const { n, reply } = await s.ask({ card: 'throne_room', purpose: 'play_twice', prompt: { kind: 'choose_cards', zone: 'hand', options: ['smithy', 'village'], min: 1, max: 1 }, over: { hand, edition: '1e' } });
    assert.equal(await page.getByTestId('decision-card-text').textContent(), 'Choose an Action card in your hand; play it twice.');
    // In every language: that language's 1E text only, marked with its language.
    for (const l of ['hu', 'ru', 'sv', 'en']) {
      await language(l);
      const text = page.getByTestId('decision-card-text');
      assert.equal(await text.textContent(), CARDS.throne_room.texts[l]['1e'], l);
      assert.equal(await text.getAttribute('lang'), l);
    }
    await page.getByTestId('option-1').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['village'] });
  });

  test('Throne Room over two different Actions: "Choose up to one card", in every language', async () => {
    const hand = ['smithy', 'village', 'copper'];
    const { n, reply } = await s.ask({ card: 'throne_room', purpose: 'play_twice', prompt: { kind: 'choose_cards', zone: 'hand', options: ['smithy', 'village'], min: 0, max: 1 }, over: { hand } });
    const count = async () => (await page.getByTestId('decision-count').textContent()) ?? '';
    assert.equal(await headline(), 'Throne Room: Play an Action card twice?');
    /** @type {Record<string, RegExp>} */
    const want = { hu: /^Legfeljebb egy lapot választhatsz\. /, ru: /^Выберите не больше одной карты\. /, sv: /^Välj högst ett kort\. /, en: /^Choose up to one card\. / };
    for (const [l, re] of Object.entries(want)) {
      await language(l);
      assert.match(await count(), re, l);
    }
    await shot('throne_room-play_twice-may');
    await page.getByTestId('option-0').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['smithy'] });
  });

  test('Throne Room (1E) must choose one: "Choose a card", in every language', async () => {
    const hand = ['smithy', 'village', 'copper'];
    const { n, reply } = await s.ask({ card: 'throne_room', purpose: 'play_twice', prompt: { kind: 'choose_cards', zone: 'hand', options: ['smithy', 'village'], min: 1, max: 1 }, over: { hand, edition: '1e' } });
    const count = async () => (await page.getByTestId('decision-count').textContent()) ?? '';
    assert.equal(await headline(), 'Throne Room: Choose a card to play twice.');
    /** @type {Record<string, RegExp>} */
    const want = { hu: /^Válassz egy lapot\. /, ru: /^Выберите одну карту\. /, sv: /^Välj ett kort\. /, en: /^Choose a card\. / };
    for (const [l, re] of Object.entries(want)) {
      await language(l);
      assert.match(await count(), re, l);
      assert.doesNotMatch(await headline(), /\{|cards|lapokat|карты\.|Välj kort/, `${l}: one card, not several`);
    }
    await page.getByTestId('option-1').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['village'] });
  });

  test('Mine in a 2E game shows only the 2E text, in every language; so does the card details dialog', async () => {
    const hand = ['copper', 'silver', 'estate'];
    const { n, reply } = await s.ask({ card: 'mine', purpose: 'trash', prompt: { kind: 'choose_cards', zone: 'hand', options: ['copper', 'silver'], min: 0, max: 1 }, over: { hand } });
    for (const l of ['en', 'hu', 'ru', 'sv']) {
      await language(l);
      assert.equal(await page.getByTestId('decision-card-text').textContent(), CARDS.mine.texts[l]['2e'], l);
      // The details of a Supply card, opened from its pile: the UI language's text.
      await page.getByTestId('pile-info-library').click();
      const details = page.getByTestId('card-info').locator('.cd-text');
      assert.equal(await details.textContent(), CARDS.library.texts[l], `${l} details`);
      assert.equal(await details.getAttribute('lang'), l);
      await page.getByTestId('card-info-close').click();
    }
    await language('hu');
    await shot('mine-trash-hu');
    await language('en');
    await page.getByTestId('option-1').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['silver'] });
  });

  test('Poacher: discard a card per empty pile', async () => {
    const { n, reply } = await s.ask({ card: 'poacher', purpose: 'discard', prompt: { kind: 'choose_cards', zone: 'hand', options: HAND, min: 2, max: 2 } });
    assert.equal(await headline(), 'Poacher: Choose cards to discard.');
    assert.match(await page.getByTestId('decision-count').textContent() ?? '', /Choose exactly 2\./);
    await shot('poacher-discard');
    await page.getByTestId('option-1').click();
    assert.ok(await page.getByTestId('confirm').isDisabled());
    await page.getByTestId('option-4').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['estate', 'chapel'] });
  });

  test('Feast: gain a card costing up to $5, from the Supply itself', async () => {
    const { n, reply } = await s.ask({ card: 'feast', purpose: 'gain', prompt: { kind: 'choose_pile', options: ['silver', 'duchy', 'village', 'smithy', 'market', 'library'], optional: false }, over: { edition: '1e' } });
    assert.match(await page.getByTestId('decision-card-text').textContent() ?? '', /Trash this card\. Gain a card costing up to \$5/);
    await shot('feast-gain');
    // The Supply piles on offer answer the question too.
    await page.getByTestId('pile-library').click();
    assertReply(await reply, n, { type: 'pile', card: 'library' });
  });

  test('at phone width a widget of revealed cards fits, and taps answer it', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    try {
      const { n, reply } = await s.ask({
        card: 'thief',
        purpose: 'trash',
        about: 1,
        prompt: { kind: 'choose_cards', zone: 'revealed', options: ['gold', 'silver'], min: 1, max: 1 },
        over: { edition: '1e', seats: [{}, { aside: ['gold', 'silver'] }] },
      });
      const { scroll, inner } = await page.evaluate(() => ({ scroll: /** @type {Element} */ (document.scrollingElement).scrollWidth, inner: window.innerWidth }));
      assert.ok(scroll <= inner, `page is ${scroll}px wide in a ${inner}px viewport`);
      const box = await page.getByTestId('decision').boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= 741, 'the decision is on screen without scrolling');
      await page.screenshot({ path: path.join(ARTIFACTS, 'widget-thief-trash-phone.png') });
      await page.getByTestId('option-0').tap();
      await page.getByTestId('confirm').tap();
      assertReply(await reply, n, { type: 'cards', cards: ['gold'] });
    } finally {
      await page.setViewportSize({ width: 1366, height: 768 });
    }
  });

  // ----- Intrigue: modes, passing, revealing, naming, placing ---------------------------

  test('Steward: choose one of three, by keyboard', async () => {
    const { n, reply } = await s.ask({ card: 'steward', purpose: 'choose_modes', prompt: { kind: 'choose_modes', options: ['plus_two_cards', 'plus_two_coins', 'trash_two'], min: 1, max: 1 } });
    assert.equal(await headline(), 'Steward: Choose one.');
    assert.match(await page.getByTestId('decision-card-text').textContent() ?? '', /Choose one: \+2 Cards; or \+\$2; or trash 2 cards from your hand\./);
    assert.deepEqual(await modeLabels(), ['+2 Cards', '+$2', 'Trash 2 cards from your hand']);
    await shot('steward-choose_modes');
    await page.getByTestId('mode-trash_two').click();
    await tabTo('mode-plus_two_coins');
    await page.keyboard.press('Space'); // one of: the new choice replaces the old
    assert.equal(await page.getByTestId('mode-trash_two').getAttribute('aria-pressed'), 'false');
    await tabTo('confirm');
    await page.keyboard.press('Enter');
    assertReply(await reply, n, { type: 'modes', modes: ['plus_two_coins'] });
    await language('hu');
    const again = await s.ask({ card: 'steward', purpose: 'choose_modes', prompt: { kind: 'choose_modes', options: ['plus_two_cards', 'plus_two_coins', 'trash_two'], min: 1, max: 1 } });
    assert.equal(await headline(), 'Intéző: Válassz egyet.');
    assert.deepEqual(await modeLabels(), ['+2 lap', '+$2', '2 lapot a szemétbe teszel a kezedből']);
    await language('en');
    await page.getByTestId('mode-plus_two_cards').click();
    await page.getByTestId('confirm').click();
    assertReply(await again.reply, again.n, { type: 'modes', modes: ['plus_two_cards'] });
  });

  test("Torturer: the victim chooses, and the question names the attacker (about), by touch", async () => {
    const { n, reply } = await s.ask({
      card: 'torturer',
      purpose: 'choose_modes',
      about: 1,
      prompt: { kind: 'choose_modes', options: ['discard_two', 'gain_curse'], min: 1, max: 1 },
      over: { current: 1, seats: [{}, { in_play: ['torturer'] }] },
    });
    assert.equal(await headline(), 'Torturer: Bob attacks you. Choose one.');
    assert.equal(await page.getByTestId('decision').getAttribute('data-about'), '1');
    assert.deepEqual(await modeLabels(), ['Discard 2 cards', 'Gain a Curse to your hand']);
    await shot('torturer-choose_modes');
    for (const [lang, head, curse] of [
      ['hu', 'Kínvallató: Bob megtámadott. Válassz egyet.', 'A kezedbe kapsz egy lapot: Átok'],
      ['ru', 'Torturer: Bob атакует вас. Выберите один вариант.', 'Получить «Проклятие» в руку'],
      ['sv', 'Torturer: Bob attackerar dig. Välj ett.', 'Få Förbannelse till handen'],
    ]) {
      await language(lang);
      assert.equal(await headline(), head);
      assert.equal(await page.getByTestId('mode-gain_curse').textContent(), curse);
    }
    await language('en');
    await page.getByTestId('mode-gain_curse').tap();
    await page.getByTestId('confirm').tap();
    assertReply(await reply, n, { type: 'modes', modes: ['gain_curse'] });
  });

  test('Minion: +$2, or discard your hand and draw 4 (the attack)', async () => {
    const { n, reply } = await s.ask({ card: 'minion', purpose: 'choose_modes', prompt: { kind: 'choose_modes', options: ['plus_two_coins', 'discard_and_draw'], min: 1, max: 1 } });
    assert.equal(await headline(), 'Minion: Choose one.');
    assert.deepEqual(await modeLabels(), ['+$2', 'Discard your hand, +4 Cards (attack)']);
    await shot('minion-choose_modes');
    await page.getByTestId('mode-discard_and_draw').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'modes', modes: ['discard_and_draw'] });
  });

  test('Courtier: reveal a card, then one choice per type it has', async () => {
    const hand = ['harem', 'copper', 'estate', 'courtier'];
    {
      const { n, reply } = await s.ask({ card: 'courtier', purpose: 'reveal', prompt: { kind: 'choose_cards', zone: 'hand', options: ['harem', 'copper', 'estate'], min: 1, max: 1 }, over: { hand } });
      assert.equal(await headline(), 'Courtier: Reveal a card from your hand.');
      await shot('courtier-reveal');
      await page.getByTestId('option-0').click();
      await page.getByTestId('confirm').click();
      assertReply(await reply, n, { type: 'cards', cards: ['harem'] });
    }
    const { n, reply } = await s.ask({
      card: 'courtier',
      purpose: 'choose_modes',
      prompt: { kind: 'choose_modes', options: ['plus_action', 'plus_buy', 'plus_three_coins', 'gain_gold'], min: 2, max: 2 },
      events: [{ type: 'revealed', seat: 0, cards: ['harem'] }],
      over: { hand },
    });
    assert.equal(await headline(), 'Courtier: Harem has 2 types: choose 2 different.');
    assert.deepEqual(await modeLabels(), ['+1 Action', '+1 Buy', '+$3', 'Gain a Gold']);
    await shot('courtier-choose_modes');
    await page.getByTestId('mode-gain_gold').click();
    await page.getByTestId('mode-plus_three_coins').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'modes', modes: ['plus_three_coins', 'gain_gold'] });
  });

  test('Masquerade: choose a card to pass to the next player', async () => {
    const hand = ['copper', 'estate', 'silver', 'curse'];
    const ask = () =>
      s.ask({ card: 'masquerade', purpose: 'pass', prompt: { kind: 'choose_cards', zone: 'hand', options: hand, min: 1, max: 1 }, over: { current: 1, hand, seats: [{ hand_count: 4 }, { in_play: ['masquerade'], hand_count: 6 }] } });
    {
      const { n, reply } = await ask();
      assert.equal(await headline(), 'Masquerade: Choose a card to pass to Bob.');
      await shot('masquerade-pass');
      await language('hu');
      assert.equal(await headline(), 'Álarcosbál: Válaszd ki a lapot, amelyet továbbadsz neki: Bob.');
      await language('en');
      await page.getByTestId('option-3').click();
      await page.getByTestId('confirm').click();
      assertReply(await reply, n, { type: 'cards', cards: ['curse'] });
    }
    // 2E: with no card in Bob's hand now, who receives is said as the rule says it.
    const { n, reply } = await s.ask({ card: 'masquerade', purpose: 'pass', prompt: { kind: 'choose_cards', zone: 'hand', options: hand, min: 1, max: 1 }, over: { hand, seats: [{ hand_count: 4 }, { hand_count: 0 }] } });
    assert.equal(await headline(), 'Masquerade: Choose a card to pass to the next player to your left who has cards in hand.');
    await page.getByTestId('option-1').click();
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'cards', cards: ['estate'] });
  });

  test('Wishing Well: name a card — every Supply card listed, found by typing', async () => {
    const options = SUPPLY.map((p) => p.card).sort();
    {
      const { n, reply } = await s.ask({ card: 'wishing_well', purpose: 'name', prompt: { kind: 'name_card', options } });
      assert.equal(await headline(), 'Wishing Well: Name a card.');
      assert.equal(await page.locator('[data-testid^=name-option-]').count(), options.length, 'every option listed');
      assert.ok(await page.getByTestId('confirm').isDisabled(), 'nothing is named until the player names it');
      await shot('wishing_well-name');
      await page.getByTestId('name-search').fill('mar');
      assert.deepEqual(await shownNames(), ['market']);
      await page.getByTestId('name-search').press('Enter'); // the only match is picked …
      assert.equal(await page.getByTestId('name-option-market').getAttribute('aria-pressed'), 'true');
      await shot('wishing_well-name-typed');
      await page.getByTestId('name-search').press('Enter'); // … and Enter again names it
      assertReply(await reply, n, { type: 'name', card: 'market' });
    }
    await language('hu');
    const { n, reply } = await s.ask({ card: 'wishing_well', purpose: 'name', prompt: { kind: 'name_card', options } });
    assert.equal(await headline(), 'Kívánságok kútja: Nevezz meg egy lapot.');
    await page.getByTestId('name-search').fill('atok'); // without the accent: Átok
    assert.deepEqual(await shownNames(), ['curse']);
    await page.getByTestId('name-search').fill('smi'); // English: Smithy (Kovácsműhely)
    assert.deepEqual(await shownNames(), ['smithy']);
    await page.getByTestId('name-search').fill('ar'); // Arany, Várárok … and in English Market, Cellar, Library
    const shown = await shownNames();
    assert.ok(shown.includes('gold') && shown.includes('moat') && shown.includes('market'), shown.join());
    assert.ok(!shown.includes('copper'), 'Réz / Copper does not match');
    await shot('wishing_well-name-hu');
    await page.getByTestId('name-option-gold').tap();
    assert.match(await page.getByTestId('decision').textContent() ?? '', /Megnevezett lap: Arany/);
    await language('en');
    await page.getByTestId('confirm').click();
    assertReply(await reply, n, { type: 'name', card: 'gold' });
  });

  test('Secret Passage: take a card, then choose its place in the deck by keyboard', async () => {
    const hand = ['gold', 'copper', 'estate', 'silver'];
    {
      const { n, reply } = await s.ask({ card: 'secret_passage', purpose: 'place_in_deck', prompt: { kind: 'choose_cards', zone: 'hand', options: hand, min: 1, max: 1 }, over: { hand } });
      assert.equal(await headline(), 'Secret Passage: Choose a card from your hand to put into your deck.');
      await shot('secret_passage-place_in_deck-card');
      await page.getByTestId('option-0').click();
      await page.getByTestId('confirm').click();
      assertReply(await reply, n, { type: 'cards', cards: ['gold'] });
    }
    const { n, reply } = await s.ask({
      card: 'secret_passage',
      purpose: 'place_in_deck',
      prompt: { kind: 'choose_number', min: 0, max: 5 },
      over: { hand: hand.slice(1), seats: [{ deck_count: 5 }, {}] },
    });
    assert.equal(await headline(), 'Secret Passage: Where in your deck does Gold go?');
    const places = await page.locator('[data-testid^=place-]').allTextContents();
    assert.deepEqual(places, ['Top of your deck', 'Under 1 card', 'Under 2 cards', 'Under 3 cards', 'Under 4 cards', 'Bottom of your deck (under 5 cards)']);
    assert.ok(await page.getByTestId('confirm').isDisabled(), 'no place is chosen for the player');
    await shot('secret_passage-place_in_deck');
    await tabTo('place-2');
    await page.keyboard.press('Space');
    assert.equal(await page.getByTestId('place-2').getAttribute('aria-pressed'), 'true');
    await tabTo('confirm');
    await page.keyboard.press('Enter');
    assertReply(await reply, n, { type: 'number', number: 2 });
  });

  test('Secret Passage: a deep deck lists the deeper places in a select; touch answers', async () => {
    const { n, reply } = await s.ask({ card: 'secret_passage', purpose: 'place_in_deck', prompt: { kind: 'choose_number', min: 0, max: 23 }, over: { seats: [{ deck_count: 23 }, {}] } });
    assert.equal(await headline(), 'Secret Passage: Where in your deck does the card go?');
    assert.equal(await page.locator('button[data-testid^=place-]').count(), 9, 'top, under 1 … 7, and bottom');
    await page.getByTestId('place-deep').selectOption('13');
    assert.match(await page.getByTestId('decision').textContent() ?? '', /Under 13 cards/);
    await shot('secret_passage-place_in_deck-deep');
    await page.getByTestId('place-23').tap(); // changed my mind: the bottom
    await page.getByTestId('confirm').tap();
    assertReply(await reply, n, { type: 'number', number: 23 });
  });

  test('a number from min to max (no card asks one yet but Secret Passage)', async () => {
    const { n, reply } = await s.ask({ purpose: 'gain', prompt: { kind: 'choose_number', min: 1, max: 4 } });
    assert.equal(await headline(), 'Choose a number from 1 to 4.');
    assert.equal(await page.getByTestId('number-input').inputValue(), '1');
    assert.ok(await page.getByTestId('number-down').isDisabled());
    await page.getByTestId('number-up').click();
    await page.getByTestId('number-up').click();
    await shot('number-gain');
    await page.getByTestId('number-input').fill('9');
    assert.ok(await page.getByTestId('confirm').isDisabled(), 'over the maximum');
    await page.getByTestId('number-input').fill('3');
    await page.getByTestId('number-input').press('Enter');
    assertReply(await reply, n, { type: 'number', number: 3 });
  });

  test('a Reaction question asked twice in a row: Secret Chamber, then Moat', async () => {
    const hand = ['secret_chamber', 'moat', 'copper', 'estate', 'copper'];
    const over = { current: 1, hand, seats: [{}, { in_play: ['militia'] }] };
    {
      const { n, reply } = await s.ask({
        card: 'militia',
        purpose: 'react',
        prompt: { kind: 'choose_cards', zone: 'hand', options: ['secret_chamber', 'moat'], min: 0, max: 1 },
        events: [{ type: 'played', seat: 1, card: 'militia' }],
        over: { ...over, edition: '1e' },
      });
      assert.equal(await headline(), 'Militia: Bob plays an Attack. Reveal a Reaction?');
      assert.match(await page.getByTestId('decision').textContent() ?? '', /put 2 cards from your hand onto your deck/, "each Reaction's text is shown");
      assert.equal(await page.getByTestId('react-none').textContent(), 'Reveal nothing');
      await shot('militia-react');
      await page.getByTestId('react-secret_chamber').click();
      assertReply(await reply, n, { type: 'cards', cards: ['secret_chamber'] });
    }
    const drawn = [...hand, 'gold', 'estate'];
    {
      const { n, reply } = await s.ask({
        card: 'secret_chamber',
        purpose: 'top_deck',
        prompt: { kind: 'choose_cards', zone: 'hand', options: drawn, min: 2, max: 2 },
        events: [
          { type: 'revealed', seat: 0, cards: ['secret_chamber'] },
          { type: 'drew', seat: 0, count: 2, cards: ['gold', 'estate'] },
        ],
        over: { ...over, edition: '1e', hand: drawn },
      });
      await page.getByTestId('option-3').click();
      await page.getByTestId('option-6').click();
      await page.getByTestId('confirm').click();
      assertReply(await reply, n, { type: 'cards', cards: ['estate', 'estate'] });
    }
    const { n, reply } = await s.ask({
      card: 'militia',
      purpose: 'react',
      prompt: { kind: 'choose_cards', zone: 'hand', options: ['moat'], min: 0, max: 1 },
      events: [{ type: 'top_decked', seat: 0, count: 2, cards: ['estate', 'estate'], private: true }],
      over: { ...over, edition: '1e' },
    });
    assert.equal(await headline(), 'Militia: Reveal another Reaction?');
    assert.equal(await page.getByTestId('react-secret_chamber').count(), 0, 'Secret Chamber is not offered twice');
    await shot('militia-react-again');
    await page.getByTestId('react-moat').click();
    assertReply(await reply, n, { type: 'cards', cards: ['moat'] });
  });

  // ----- the table around the decisions ------------------------------------------------

  test('an Action phase with nothing to play is answered at once with end_phase, never shown', async () => {
    // Watch for any decision panel, focus change or title mark while it is answered.
    await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      w.__shown = [];
      w.__titles = [];
      w.__observer = new MutationObserver(() => {
        const d = document.querySelector('[data-testid=decision]');
        if (d) w.__shown.push(d.getAttribute('data-kind'));
        w.__titles.push(document.title);
      });
      w.__observer.observe(document.body, { childList: true, subtree: true, attributes: true });
    });
    const n = ++s.decision;
    /** @type {Promise<any>} */
    const reply = new Promise((resolve) => (s.onReply = resolve));
    s.silent = true;
    s.events([{ type: 'turn_started', seat: 0, turn: 6 }, { type: 'phase_started', seat: 0, phase: 'action' }], view(n, { hand: ['copper', 'estate', 'copper', 'silver', 'estate'] }));
    s.send({ type: 'decision', decision: n, seat: 0, purpose: 'action_phase', prompt: { kind: 'action_phase', playable: [] } });
    assertReply(await reply, n, { type: 'end_phase' });
    // The page waits without naming anyone until the next frame (the view still names Hanna).
    await page.waitForSelector('[data-testid=waiting-neutral]');
    assert.equal((await page.getByTestId('decision-waiting').textContent())?.trim(), 'Waiting…');
    // The Buy phase that follows is asked and shown as usual.
    s.silent = false;
    const buy = await s.ask({ purpose: 'buy_phase', prompt: { kind: 'buy_phase', treasures: [], buyable: ['copper', 'curse'] }, over: { phase: 'buy', hand: ['estate', 'estate'] } });
    const seen = await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      w.__observer.disconnect();
      return { shown: w.__shown, titles: w.__titles };
    });
    assert.ok(!seen.shown.includes('action_phase'), `the empty Action phase was never shown: ${seen.shown}`);
    const before = seen.titles.slice(0, seen.titles.findIndex((/** @type {string} */ x) => x.startsWith('●')));
    assert.ok(before.every((/** @type {string} */ x) => !x.startsWith('●')), 'the title did not flash for it');
    await page.getByTestId('end-phase').click();
    assertReply(await buy.reply, buy.n, { type: 'end_phase' });
  });

  test('the Buy phase with nothing to play or buy is answered at once too', async () => {
    const n = ++s.decision;
    /** @type {Promise<any>} */
    const reply = new Promise((resolve) => (s.onReply = resolve));
    s.events([], view(n, { phase: 'buy', hand: ['estate'] }));
    s.send({ type: 'decision', decision: n, seat: 0, purpose: 'buy_phase', prompt: { kind: 'buy_phase', treasures: [], buyable: [] } });
    assertReply(await reply, n, { type: 'end_phase' });
    assert.equal(await page.locator('[data-testid=decision]').count(), 0, 'nothing was shown');
  });

  test('after a reply, the page waits without a name until a frame or a question comes', async () => {
    s.silent = true;
    const { n, reply } = await s.ask({ card: 'chancellor', purpose: 'discard_deck', prompt: { kind: 'yes_no' }, over: { edition: '1e' } });
    await page.getByTestId('no').click();
    assertReply(await reply, n, { type: 'yes_no', yes: false });
    // The last view still says the server waits for Hanna: no name, no stale question.
    await page.waitForSelector('[data-testid=waiting-neutral]');
    assert.equal(await page.locator('[data-testid=decision]').count(), 0);
    assert.doesNotMatch((await page.getByTestId('decision-waiting').textContent()) ?? '', /Hanna|Bob/);
    s.silent = false;
    // A frame that names Bob: now the page says whom it waits for.
    s.events([], view(null));
    await page.waitForSelector('[data-testid=waiting-for]');
    assert.match((await page.getByTestId('decision-waiting').textContent()) ?? '', /Waiting for Bob/);
    // A view that names this seat but asks it nothing: still no name.
    s.events([], view(null, { waiting_for: 0, decision: 950 }));
    await page.waitForSelector('[data-testid=waiting-neutral]');
  });

  // ----- no lost turns ----------------------------------------------------------------

  const BUY = { kind: 'buy_phase', treasures: ['copper', 'silver'], buyable: ['copper', 'curse'] };
  const BUY_OVER = { phase: 'buy', coins: 0, buys: 1 };

  test('ending the turn with Treasures unplayed asks once: "End turn with $4 unspent?"; E again ends it', async () => {
    const { n, reply } = await s.ask({ purpose: 'buy_phase', prompt: BUY, over: BUY_OVER });
    await page.getByTestId('end-phase').click();
    await page.waitForSelector('[data-testid=end-turn-confirm]');
    assert.equal(await headline(), 'End turn with $4 unspent?');
    assert.equal(await page.getByTestId('end-turn-detail').textContent(), '3 Treasures in your hand are not played yet.');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'end-turn-cancel', 'the safe answer has the focus');
    await shot('end-turn-question');
    await page.screenshot({ path: path.join(ARTIFACTS, 'end-turn-question-table.png') });
    // Keep buying: the question closes, nothing is sent.
    await page.getByTestId('end-turn-cancel').click();
    await page.waitForSelector('[data-testid=end-turn-confirm]', { state: 'detached' });
    assert.doesNotMatch(await headline(), /unspent/, 'back to the Buy phase');
    // E asks, E again ends the turn.
    await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
    await page.keyboard.press('e');
    await page.waitForSelector('[data-testid=end-turn-confirm]');
    await page.keyboard.press('e');
    assertReply(await reply, n, { type: 'end_phase' });
  });

  test('in every language the question names the money left', async () => {
    await s.ask({ purpose: 'buy_phase', prompt: BUY, over: BUY_OVER });
    await page.getByTestId('end-phase').click();
    for (const [lang, q] of /** @type {const} */ ([['hu', /\$4/], ['ru', /\$4/], ['sv', /\$4/]])) {
      await language(lang);
      assert.match(await headline(), q, lang);
      await page.screenshot({ path: path.join(ARTIFACTS, `end-turn-question-${lang}.png`) });
    }
    await language('en');
    await page.getByTestId('end-turn-cancel').click();
  });

  test('a pile affordable only with the Treasures in hand plays them, then buys it', async () => {
    const { n, reply } = await s.ask({ purpose: 'buy_phase', prompt: BUY, over: BUY_OVER });
    assert.match((await page.getByTestId('pile-smithy').textContent()) ?? '', /Play your Treasures and buy Smithy/);
    assert.ok(await page.locator('.pile.enabled [data-testid=pile-smithy]').count(), 'Smithy ($4) shows as buyable with the $4 in hand');
    assert.equal(await page.locator('.pile.enabled [data-testid=pile-gold]').count(), 0, 'Gold ($6) does not');
    await page.getByTestId('pile-smithy').click();
    assertReply(await reply, n, { type: 'play_all_treasures' });
    // The Treasures are played: the next Buy phase offers Smithy, and the page buys it.
    const next = await s.ask({
      purpose: 'buy_phase',
      prompt: { kind: 'buy_phase', treasures: [], buyable: ['copper', 'curse', 'silver', 'estate', 'cellar', 'chapel', 'smithy', 'village'] },
      over: { ...BUY_OVER, coins: 4, hand: ['estate', 'chapel'], seats: [{ in_play: ['copper', 'silver', 'copper'] }, {}] },
    }).catch(() => null);
    const frame = next ? await next.reply : null;
    assert.ok(frame);
    assert.deepEqual(frame.reply, { type: 'buy', card: 'smithy' });
  });

  test('a pile you cannot afford says why, as information', async () => {
    const { n, reply } = await s.ask({ purpose: 'buy_phase', prompt: BUY, over: BUY_OVER });
    await page.getByTestId('pile-gold').click();
    await page.waitForSelector('[data-testid=notice]');
    assert.equal(await page.getByTestId('notice').getAttribute('data-kind'), 'info');
    assert.match((await page.getByTestId('notice').textContent()) ?? '', /Gold costs \$6; you have \$0, \$4 with the Treasures in your hand\./);
    await page.getByTestId('notice').screenshot({ path: path.join(ARTIFACTS, 'notice-info.png') });
    // "Don't ask again" (also in the settings): End turn then ends at once.
    await page.getByTestId('end-phase').click();
    await page.getByTestId('end-turn-dont-ask').check();
    assert.equal(await page.evaluate(() => localStorage.getItem('dominion.askEndTurn')), '0');
    await page.getByTestId('end-turn-confirm').click();
    assertReply(await reply, n, { type: 'end_phase' });
    const again = await s.ask({ purpose: 'buy_phase', prompt: BUY, over: BUY_OVER });
    await page.getByTestId('end-phase').click();
    assertReply(await again.reply, again.n, { type: 'end_phase' });
    // The settings turn the question back on.
    await page.getByTestId('settings-button').click();
    await page.getByTestId('setting-ask-end-turn').check();
    assert.equal(await page.evaluate(() => localStorage.getItem('dominion.askEndTurn')), '1');
    await page.getByTestId('settings-close').click();
  });

  test('Undo is offered only when the server will allow it: not after a draw, yes after a harmless move', async () => {
    const hand = ['smithy', 'copper', 'estate', 'copper', 'silver'];
    // As the engine numbers them: 1000 × the questions answered so far.
    const thousands = () => {
      s.decision = (Math.floor(s.decision / 1000) + 1) * 1000 - 1;
    };
    thousands();
    const first = await s.ask({ purpose: 'action_phase', prompt: { kind: 'action_phase', playable: ['smithy'] }, over: { hand }, events: [{ type: 'turn_started', seat: 0, turn: 7 }, { type: 'phase_started', seat: 0, phase: 'action' }] });
    assert.equal(await page.getByTestId('undo').count(), 0, 'nothing to take back yet');
    await page.getByTestId('hand-card-0').click();
    assertReply(await first.reply, first.n, { type: 'play', card: 'smithy' });
    // Smithy drew three cards: that cannot be taken back, so no Undo.
    thousands();
    const drawn = ['copper', 'estate', 'copper', 'silver', 'gold', 'gold', 'estate'];
    const second = await s.ask({
      purpose: 'buy_phase',
      prompt: { kind: 'buy_phase', treasures: ['copper', 'silver', 'gold'], buyable: ['copper', 'curse'] },
      over: { phase: 'buy', actions: 0, hand: drawn, seats: [{ in_play: ['smithy'] }, {}] },
      events: [{ type: 'played', seat: 0, card: 'smithy' }, { type: 'drew', seat: 0, count: 3, cards: ['gold', 'gold', 'estate'] }, { type: 'phase_started', seat: 0, phase: 'buy' }],
    });
    assert.equal(await page.getByTestId('undo').count(), 0, 'no Undo after a draw');
    await page.getByTestId('play-all').click();
    assertReply(await second.reply, second.n, { type: 'play_all_treasures' });
    // Playing Treasures revealed nothing: Undo is offered.
    thousands();
    const third = await s.ask({
      purpose: 'buy_phase',
      prompt: { kind: 'buy_phase', treasures: [], buyable: ['copper', 'curse', 'silver', 'gold', 'province'] },
      over: { phase: 'buy', actions: 0, coins: 10, hand: ['estate', 'estate'], seats: [{ in_play: ['smithy', 'copper', 'copper', 'silver', 'gold', 'gold'] }, {}] },
      events: ['copper', 'copper', 'silver', 'gold', 'gold'].map((card) => ({ type: 'played', seat: 0, card })),
    });
    await page.waitForSelector('[data-testid=undo]');
    await page.getByTestId('pile-province').click();
    assertReply(await third.reply, third.n, { type: 'buy', card: 'province' });
  });

  test('the deck panel counts your cards, and only what is public of the others', async () => {
    /** The panel's count of each of your cards. */
    const mine = async () => {
      await page.getByTestId('decks-button').click();
      await page.waitForSelector('[data-testid=decks-panel]');
      /** @type {Record<string, number>} */
      const counts = await page.locator('[data-testid=decks-mine] li').evaluateAll((els) => Object.fromEntries(els.map((e) => [/** @type {HTMLElement} */ (e).dataset.card, Number(/** @type {HTMLElement} */ (e).dataset.count)])));
      return counts;
    };
    const before = await mine();
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=decks-panel]', { state: 'detached' });
    s.events(
      [
        { type: 'gained', seat: 0, card: 'silver', to: 'discard' },
        { type: 'gained', seat: 0, card: 'silver', to: 'discard' },
        { type: 'trashed', seat: 0, cards: ['copper', 'estate'] },
        { type: 'gained', seat: 1, card: 'gold', to: 'discard' },
        { type: 'trashed', seat: 1, cards: ['copper'] },
        { type: 'passed', seat: 1, to: 0, card: 'curse' },
        { type: 'passed', seat: 0, to: 1, card: 'estate' },
      ],
      view(null),
    );
    await page.waitForFunction(() => /passes Estate to Bob/.test(document.querySelector('[data-testid=log]')?.textContent ?? ''));
    const after = await mine();
    const delta = Object.fromEntries(['copper', 'silver', 'estate', 'curse'].map((c) => [c, (after[c] ?? 0) - (before[c] ?? 0)]));
    assert.deepEqual(delta, { copper: -1, silver: 2, estate: -2, curse: 1 });
    assert.match((await page.getByTestId('decks-seat-1').textContent()) ?? '', /Gained: .*Gold/);
    assert.match((await page.getByTestId('decks-lost-1').textContent()) ?? '', /Copper/);
    assert.match((await page.getByTestId('decks-lost-1').textContent()) ?? '', /Curse/);
    await page.getByTestId('decks-panel').screenshot({ path: path.join(ARTIFACTS, 'deck-panel.png') });
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=decks-panel]', { state: 'detached' });
  });

  test('while someone is asked about a Reaction, the page waits without a name', async () => {
    s.events([{ type: 'played', seat: 1, card: 'militia' }], view(null, { current: 1, waiting_for: undefined, decision: undefined }));
    await page.waitForSelector('[data-testid=waiting-neutral]');
    const text = (await page.getByTestId('decision-waiting').textContent()) ?? '';
    assert.equal(text.trim(), 'Waiting…');
    assert.doesNotMatch(text, /Bob|Hanna/);
    s.events([], view(null));
    await page.waitForSelector('[data-testid=waiting-neutral]', { state: 'detached' });
    assert.match(await page.getByTestId('decision-waiting').textContent() ?? '', /Waiting for Bob/);
  });

  test('the log tells the new events in words; others discard as a count and the new top', async () => {
    s.events(
      [
        { type: 'turn_started', seat: 1, turn: 4 },
        { type: 'phase_started', seat: 1, phase: 'action' },
        { type: 'played', seat: 1, card: 'militia' },
        { type: 'discarded', seat: 0, count: 2, cards: ['estate', 'copper'], top: 'copper', private: true },
        { type: 'played', seat: 1, card: 'cellar' },
        { type: 'discarded', seat: 1, count: 2, top: 'province', private: true },
        { type: 'drew', seat: 1, count: 2 },
        { type: 'played', seat: 1, card: 'sentry' },
        { type: 'looked_at', seat: 1, count: 2 },
        { type: 'played', seat: 1, card: 'chancellor' },
        { type: 'deck_discarded', seat: 1, count: 12 },
        { type: 'played', seat: 1, card: 'library' },
        { type: 'set_aside', seat: 1, cards: ['village'] },
        { type: 'discarded', seat: 1, count: 1, cards: ['village'], top: 'village', private: false },
        { type: 'played', seat: 1, card: 'adventurer' },
        { type: 'revealed', seat: 1, cards: ['estate', 'gold', 'silver'] },
        { type: 'put_in_hand', seat: 1, cards: ['gold', 'silver'] },
        { type: 'played', seat: 1, card: 'thief' },
        { type: 'revealed', seat: 0, cards: ['silver', 'copper'] },
        { type: 'trashed', seat: 0, cards: ['silver'] },
        { type: 'gained_from_trash', seat: 1, card: 'silver' },
        { type: 'played', seat: 1, card: 'wishing_well' },
        { type: 'named', seat: 1, card: 'gold' },
        { type: 'played', seat: 1, card: 'masquerade' },
        { type: 'passed', seat: 1, to: 0, card: 'curse' },
        { type: 'passed', seat: 0, to: 1, card: 'estate' },
        { type: 'phase_started', seat: 1, phase: 'buy' },
        { type: 'discarded', seat: 1, count: 3, top: 'thief', private: true },
        { type: 'drew', seat: 1, count: 5 },
        { type: 'turn_started', seat: 0, turn: 4 },
        { type: 'phase_started', seat: 0, phase: 'action' },
        { type: 'played', seat: 0, card: 'sentry' },
        { type: 'looked_at', seat: 0, count: 2, cards: ['gold', 'curse'] },
      ],
      view(null),
    );
    await page.waitForFunction(() => /looks at Gold/.test(document.querySelector('[data-testid=log]')?.textContent ?? ''));
    // Each turn's heading, then its lines.
    const lines = await page.locator('[data-testid=log] :is(h3, li)').allTextContents();
    const tail = lines.slice(lines.indexOf('Turn 4: Bob'));
    assert.equal(await page.locator('[data-testid=log] h3', { hasText: 'Turn 4: Bob' }).count(), 1, "Bob's turn has a heading");
    assert.deepEqual(tail, [
      'Turn 4: Bob',
      'Bob plays Militia.',
      'Hanna discards Estate and Copper.',
      'Bob plays Cellar.',
      'Bob discards 2 cards (Province on top).',
      'Bob draws 2 cards.',
      'Bob plays Sentry.',
      'Bob looks at the top 2 cards of their deck.',
      'Bob plays Chancellor.',
      'Bob puts their deck (12 cards) into their discard pile.',
      'Bob plays Library.',
      'Bob sets Village aside.',
      'Bob discards Village.',
      'Bob plays Adventurer.',
      'Bob reveals Estate, Gold, and Silver.',
      'Bob puts Gold and Silver into their hand.',
      'Bob plays Thief.',
      'Hanna reveals Silver and Copper.',
      'Hanna trashes Silver.',
      'Bob gains Silver from the trash.',
      'Bob plays Wishing Well.',
      'Bob names Gold.',
      'Bob plays Masquerade.',
      'Bob passes Curse to Hanna.',
      'Hanna passes Estate to Bob.',
      // Clean-up's discard is not told: it happens every turn.
      'Bob draws 5 cards.',
      'Turn 4: Hanna',
      'Hanna plays Sentry.',
      'Hanna looks at Gold and Curse on top of their deck.',
    ]);
    await page.getByTestId('log').screenshot({ path: path.join(ARTIFACTS, 'log-new-events.png') });
    await language('hu');
    const hu = await page.locator('[data-testid=log] li').allTextContents();
    for (const line of ['Bob eldob 2 lapot (felül: Tartomány).', 'Bob a szemétből kapja meg: Ezüst.', 'Bob félreteszi: Falu.', 'Hanna megnézi a paklija tetején: Arany és Átok.']) {
      assert.ok(hu.includes(line), `${line} in ${hu.join(' | ')}`);
    }
    await language('ru');
    const ru = await page.locator('[data-testid=log] li').allTextContents();
    assert.ok(ru.includes('Bob кладёт колоду (12 карт) в сброс.'), ru.join(' | '));
    await language('sv');
    const sv = await page.locator('[data-testid=log] li').allTextContents();
    assert.ok(sv.includes('Bob tar Guld och Silver till handen.'), sv.join(' | '));
    await language('en');
  });

  test('no frame broke the schema and the page logged no error', () => {
    assert.deepEqual(s.problems, []);
  });
});
