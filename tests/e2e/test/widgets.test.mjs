// Every decision widget, including the kinds no implemented card asks yet (choose
// modes, order cards, yes/no, name a card, an optional pile). The page is the real
// client served by the real server, but its WebSocket is answered by a scripted server
// in the test (playwright's routeWebSocket) that asks each kind in turn. Every frame
// either side sends is validated against the committed protocol schema.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import path from 'node:path';
import { ARTIFACTS, launch, validateClient, validateServer } from '../lib/browser.mjs';
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

const KINGDOM = ['cellar', 'chapel', 'moat', 'village', 'workshop', 'militia', 'remodel', 'smithy', 'market', 'mine'];
const SUPPLY = ['copper', 'silver', 'gold', 'estate', 'duchy', 'province', 'curse', ...KINGDOM].map((card) => ({ card, count: 10, cost: 3 }));
const HAND = ['copper', 'estate', 'silver', 'copper', 'chapel'];

/** @param {number} decision */
function view(decision) {
  return {
    seat: 0,
    edition: '2e',
    kingdom: KINGDOM,
    supply: SUPPLY,
    trash: [],
    seats: [0, 1].map((seat) => ({ seat, hand_count: 5, deck_count: 5, discard_count: 0, in_play: [], aside: [], vp: 3, turns: 1 })),
    hand: HAND,
    current: 0,
    phase: 'action',
    actions: 1,
    buys: 1,
    coins: 0,
    turn_count: 1,
    waiting_for: 0,
    decision,
    game_over: false,
  };
}

const ROOM = {
  id: 'mock',
  name: 'Scripted table',
  status: 'lobby',
  settings: { kingdom: { type: 'cards', cards: KINGDOM }, edition: '2e', seats: [{ type: 'open' }, { type: 'bot', bot: 'big_money' }] },
  seats: [
    { seat: 0, occupant: { type: 'empty' } },
    { seat: 1, occupant: { type: 'bot', bot: 'big_money' } },
  ],
  spectators: 0,
};
const SEATED_ROOM = { ...ROOM, status: 'playing', seats: [{ seat: 0, occupant: { type: 'human', name: 'Hanna', connected: true } }, ROOM.seats[1]] };

/**
 * The questions, and how a person answers each on the page.
 * @type {{card: string, purpose: string, prompt: any, act: (page: import('playwright-core').Page) => Promise<void>, expect: any}[]}
 */
const SCRIPT = [
  {
    card: 'pawn',
    purpose: 'choose_modes',
    prompt: { kind: 'choose_modes', options: ['plus_card', 'plus_action', 'plus_buy', 'plus_coin'], min: 2, max: 2 },
    act: async (page) => {
      assert.ok(await page.getByTestId('confirm').isDisabled(), 'confirm waits for a legal choice');
      await page.getByTestId('mode-plus_card').click();
      assert.ok(await page.getByTestId('confirm').isDisabled(), 'one mode is not enough');
      await page.getByTestId('mode-plus_coin').click();
      await page.getByTestId('mode-plus_buy').click(); // a third is not taken
      assert.equal(await page.getByTestId('mode-plus_buy').getAttribute('aria-pressed'), 'false');
      await page.getByTestId('confirm').click();
    },
    expect: { type: 'modes', modes: ['plus_card', 'plus_coin'] },
  },
  {
    card: 'sentry',
    purpose: 'top_deck',
    prompt: { kind: 'order_cards', cards: ['gold', 'copper', 'estate'] },
    act: async (page) => {
      await page.getByTestId('order-down-0').click(); // gold below copper
      await page.getByTestId('order-up-2').click(); // estate above gold
      await page.getByTestId('confirm').click();
    },
    expect: { type: 'cards', cards: ['copper', 'estate', 'gold'] },
  },
  {
    card: 'chancellor',
    purpose: 'discard',
    prompt: { kind: 'yes_no' },
    act: async (page) => {
      // By keyboard: the first control has focus; Tab to "No", Space.
      await page.getByTestId('yes').focus();
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'no');
      await page.keyboard.press('Space');
    },
    expect: { type: 'yes_no', yes: false },
  },
  {
    card: 'wishing_well',
    purpose: 'gain',
    prompt: { kind: 'name_card', options: ['copper', 'silver', 'gold', 'village', 'market'] },
    act: async (page) => {
      await page.getByTestId('name-select').selectOption('gold');
      await page.getByTestId('confirm').click();
    },
    expect: { type: 'name', card: 'gold' },
  },
  {
    card: 'workshop',
    purpose: 'gain',
    prompt: { kind: 'choose_pile', options: ['silver', 'village'], optional: true },
    act: async (page) => {
      assert.ok(await page.getByTestId('pile-option-village').isVisible());
      await page.getByTestId('pile-none').click();
    },
    expect: { type: 'pile', card: null },
  },
  {
    card: 'chapel',
    purpose: 'trash',
    prompt: { kind: 'choose_cards', zone: 'hand', options: ['copper', 'estate', 'copper'], min: 1, max: 2 },
    act: async (page) => {
      assert.ok(await page.getByTestId('confirm').isDisabled(), 'at least one card must be chosen');
      await page.getByTestId('option-0').click();
      await page.getByTestId('option-1').click();
      await page.getByTestId('option-2').click(); // over the maximum: not taken
      assert.equal(await page.getByTestId('option-2').getAttribute('aria-pressed'), 'false');
      await page.getByTestId('option-1').click(); // changed my mind
      await page.getByTestId('option-2').click();
      await page.getByTestId('confirm').click();
    },
    expect: { type: 'cards', cards: ['copper', 'copper'] },
  },
  {
    card: 'moat',
    purpose: 'react',
    prompt: { kind: 'choose_cards', zone: 'hand', options: ['moat'], min: 0, max: 1 },
    act: async (page) => {
      await page.getByTestId('react-moat').tap();
    },
    expect: { type: 'cards', cards: ['moat'] },
  },
];

test('every decision widget answers legally, by mouse, touch and keyboard', { timeout: 60000 }, async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 1024, height: 800 }, hasTouch: true });
  const page = await context.newPage();
  /** @type {string[]} */
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  /** @type {any[]} */
  const replies = [];
  let step = 0;
  let seated = false;
  let done = /** @type {(v?: unknown) => void} */ (() => {});
  const finished = new Promise((r) => (done = r));

  await page.routeWebSocket(/\/ws$/, (ws) => {
    const send = (/** @type {any} */ msg) => {
      if (!validateServer(msg)) problems.push(`the scripted server sent an invalid ${msg.type}`);
      ws.send(JSON.stringify(msg));
    };
    const ask = () => {
      const q = SCRIPT[step];
      send({ type: 'decision', decision: step, seat: 0, card: q.card, purpose: q.purpose, prompt: q.prompt });
    };
    ws.onMessage((text) => {
      const msg = JSON.parse(String(text));
      if (!validateClient(msg)) problems.push(`the page sent an invalid frame: ${text}`);
      switch (msg.type) {
        case 'hello':
          send({ type: 'welcome', protocol: 1, server: 'scripted', limits: { max_message_bytes: 65536, rate_messages: 100, rate_window_ms: 20000, heartbeat_ms: 20000, idle_timeout_ms: 60000 } });
          break;
        case 'list_rooms':
          send({ type: 'room_list', re: msg.id, rooms: [seated ? SEATED_ROOM : ROOM] });
          break;
        case 'take_seat':
          seated = true;
          send({ type: 'seated', re: msg.id, room: 'mock', seat: 0, token: 'mock-token-0123456789abcdef', last_command: msg.id });
          send({ type: 'room', room: SEATED_ROOM });
          send({ type: 'snapshot', next_event: 0, view: view(0) });
          ask();
          break;
        case 'reply':
          if (msg.decision !== step) problems.push(`reply names decision ${msg.decision}, not ${step}`);
          replies.push(msg.reply);
          send({ type: 'ack', re: msg.id });
          step++;
          send({ type: 'events', first: step - 1, events: [{ type: 'played', seat: 0, card: SCRIPT[step - 1].card }], view: view(step) });
          if (step < SCRIPT.length) ask();
          else done();
          break;
        case 'ping':
          send({ type: 'pong', re: msg.id });
          break;
        default:
          send({ type: 'ack', re: msg.id });
      }
    });
  });

  await page.goto(server.url);
  await page.getByTestId('name-input').fill('Hanna');
  await page.getByTestId('join-mock-0').click();
  for (let i = 0; i < SCRIPT.length; i++) {
    await page.waitForSelector(`[data-testid=decision][data-decision="${i}"]`);
    assert.equal(await page.getByTestId('decision').getAttribute('data-kind'), SCRIPT[i].prompt.kind);
    await page.getByTestId('decision').screenshot({ path: path.join(ARTIFACTS, `widget-${i}-${SCRIPT[i].prompt.kind}.png`) });
    await SCRIPT[i].act(page);
  }
  await finished;
  assert.deepEqual(replies, SCRIPT.map((q) => q.expect));
  assert.match(await page.getByTestId('log').textContent() ?? '', /Hanna plays Moat\./);
  assert.deepEqual(problems, []);
  await context.close();
});
