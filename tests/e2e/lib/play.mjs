// Drives the page like a person: reads what is on screen, clicks. A simple policy
// plays actions, plays all treasures, buys the best affordable card from a preference
// list, and answers every other decision minimally but legally.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './server.mjs';

const CARDS = JSON.parse(fs.readFileSync(path.join(ROOT, 'web-client/data/cards.json'), 'utf8')).cards;
const cost = (/** @type {string} */ c) => CARDS[c]?.cost ?? 0;
const isType = (/** @type {string} */ c, /** @type {string} */ t) => (CARDS[c]?.types ?? []).includes(t);

export const STEP_TIMEOUT = 30000;

/**
 * How often a wait for the page's next decision looks (ms). Not Playwright's default,
 * `raf`: that asks for an animation frame again and again until the condition holds, so
 * Chromium composites a frame every 16 ms for as long as a bot thinks or a reply travels,
 * in software rendering and in three processes.
 */
export const POLL_MS = 20;

/**
 * Clicks "End Actions" or "End turn"; when the page asks whether to end the turn with
 * money left ("End turn with $3 unspent?"), says yes.
 * @param {import('playwright-core').Page} page
 */
export async function endPhase(page) {
  await page.getByTestId('end-phase').click();
  const confirm = page.getByTestId('end-turn-confirm');
  if (await confirm.count()) await confirm.click();
}

/** Opens the lobby and sets the display name. @param {import('playwright-core').Page} page @param {string} url @param {string} name */
export async function enterLobby(page, url, name) {
  await page.goto(url);
  await page.waitForSelector('[data-testid=conn-status][data-status=online]');
  await page.waitForSelector('[data-testid=recommended-select] option', { state: 'attached' });
  await page.getByTestId('name-input').fill(name);
}

/**
 * Fills the create form and creates the room; waits for the waiting room.
 * @param {import('playwright-core').Page} page
 * @param {{players?: number, seats?: string[], kingdom?: string, cards?: string[], edition?: '1e' | '2e', roomName?: string, timer?: number}} opts
 *   seats[i] for i ≥ 1: a bot name or '' for open; `cards`: ten cards picked by hand instead of a recommended kingdom;
 *   `timer`: seconds per decision
 */
export async function createRoom(page, opts = {}) {
  const players = opts.players ?? 2;
  await page.getByTestId('players-select').selectOption(String(players));
  for (let i = 1; i < players; i++) {
    await page.getByTestId(`seat-select-${i}`).selectOption(opts.seats?.[i] ?? 'big_money');
  }
  if (opts.roomName) await page.getByTestId('room-name-input').fill(opts.roomName);
  if (opts.edition) await page.getByTestId(`edition-${opts.edition}`).check();
  if (opts.cards) {
    await page.getByTestId('kingdom-pick').check();
    for (const card of opts.cards) await page.getByTestId(`pick-card-${card}`).check();
  } else {
    await page.getByTestId('kingdom-recommended').check();
    await page.getByTestId('recommended-select').selectOption(opts.kingdom ?? 'base_2e/first_game');
  }
  if (opts.timer) await page.getByTestId('timer-select').selectOption(String(opts.timer));
  await page.getByTestId('create-submit').click();
  await page.waitForSelector('[data-testid=waiting-room]');
}

/** @param {import('playwright-core').Page} page */
export async function startGame(page) {
  await page.getByTestId('start-game').click();
  await page.waitForSelector('[data-testid=table]');
}

/** What the page shows about the pending decision. @param {import('playwright-core').Page} page */
export function readScreen(page) {
  return page.evaluate(() => {
    const d = /** @type {HTMLElement | null} */ (document.querySelector('[data-testid=decision]'));
    const end = document.querySelector('[data-testid=end-screen]');
    const num = (/** @type {string | undefined} */ v) => (v === undefined ? undefined : Number(v));
    return {
      end: Boolean(end),
      decision: d
        ? {
            kind: d.dataset.kind ?? '',
            number: Number(d.dataset.decision),
            purpose: d.dataset.purpose ?? '',
            card: d.dataset.card,
            min: num(d.dataset.min),
            max: num(d.dataset.max),
            // Each option with the control that chooses it: in the widget (copies of one
            // card may be shown once when only one is to be chosen), or, for a question
            // about the hand's cards, the cards in the hand.
            options: [...document.querySelectorAll('[data-testid=decision] [data-testid^="option-"], [data-testid=hand] [data-testid^="option-"]')].map((b) => ({
              card: /** @type {HTMLElement} */ (b).dataset.card ?? '',
              testid: /** @type {HTMLElement} */ (b).dataset.testid ?? '',
            })),
            // A "may" over one card: the card, answered by the yes / no buttons.
            single: d.dataset.single ? (d.querySelector('[data-testid=offered-0]')?.getAttribute('data-card') ?? '') : null,
            about: num(d.dataset.about),
            pileOptions: [...d.querySelectorAll('[data-testid^="pile-option-"]')].map((b) => /** @type {HTMLElement} */ (b).dataset.card ?? ''),
            react: [...d.querySelectorAll('[data-testid^="react-"]')].map((b) => /** @type {HTMLElement} */ (b).dataset.testid ?? ''),
            playAll: Boolean(d.querySelector('[data-testid=play-all]:not([disabled])')),
            pileNone: Boolean(d.querySelector('[data-testid=pile-none]')),
          }
        : null,
      hand: [...document.querySelectorAll('[data-testid=hand] .card')].map((b) => ({
        card: /** @type {HTMLElement} */ (b).dataset.card ?? '',
        testid: /** @type {HTMLElement} */ (b).dataset.testid ?? '',
        enabled: b.classList.contains('enabled'),
      })),
      buyable: [...document.querySelectorAll('.pile.enabled .pile-main')].map((b) => /** @type {HTMLElement} */ (b).dataset.card ?? ''),
      coins: Number(document.querySelector('[data-testid=count-coins] strong')?.textContent?.replace('$', '') ?? 0),
      provincesLeft: Number(
        document.querySelector('[data-testid=pile-province] .pile-count')?.textContent?.replace(/\D/g, '') || 0,
      ),
    };
  });
}

// Cards that give an Action back first, then the rest.
const ACTION_ORDER = [
  'village', 'market', 'cellar', 'merchant', 'festival', 'laboratory', 'sentry', 'spy', 'harbinger', 'poacher',
  'militia', 'witch', 'bandit', 'thief', 'smithy', 'library', 'council_room', 'artisan', 'adventurer', 'bureaucrat',
  'remodel', 'mine', 'moneylender', 'vassal', 'chancellor', 'woodcutter', 'feast', 'workshop', 'moat', 'throne_room', 'chapel',
];

/** Trash/discard preference: worst cards first. @param {string} c */
function junk(c) {
  if (isType(c, 'curse')) return 0;
  if (isType(c, 'victory') && !isType(c, 'treasure') && !isType(c, 'action')) return 1;
  if (c === 'copper') return 2;
  return 3 + cost(c);
}

export class Policy {
  /**
   * @param {string[]} [favourites]  kingdom cards to buy two of, when affordable, before the rest
   * @param {{ beforeTreasure?: boolean }} [options]  beforeTreasure: the favourites also come
   *   before Gold and Province, for a test that must see them played in one game (bought at
   *   exactly their cost only, a 5-cost favourite could go a whole game unbought)
   */
  constructor(favourites = [], { beforeTreasure = false } = {}) {
    this.favourites = favourites;
    this.beforeTreasure = beforeTreasure;
    /** @type {Record<string, number>} */
    this.bought = {};
    /** @type {Record<string, number>} */
    this.answered = {};
  }

  /** @param {number} coins @param {string[]} buyable @param {number} provincesLeft */
  chooseBuy(coins, buyable, provincesLeft) {
    const can = new Set(buyable);
    const want = [];
    const favourites = () => {
      for (const f of this.favourites) if (coins >= cost(f) && (this.bought[f] ?? 0) < 2) want.push(f);
    };
    if (this.beforeTreasure) favourites();
    if (coins >= 8) want.push('province');
    if (coins >= 6) want.push('gold');
    if (!this.beforeTreasure) favourites();
    if (coins >= 5 && provincesLeft <= 4) want.push('duchy');
    if (coins >= 5 && !this.bought.market) want.push('market');
    if (coins >= 4 && !this.bought.militia) want.push('militia');
    if (coins >= 4 && !this.bought.remodel) want.push('remodel');
    if (coins >= 3) want.push('silver');
    if (coins >= 2 && !this.bought.cellar) want.push('cellar');
    if (coins >= 2 && provincesLeft <= 2) want.push('estate');
    return want.find((c) => can.has(c)) ?? null;
  }

  /**
   * Takes one decision on the page and waits until the next one (or the end).
   * @param {import('playwright-core').Page} page
   * @returns {Promise<'end' | 'acted'>}
   */
  async step(page) {
    await page.waitForSelector('[data-testid=decision], [data-testid=end-screen]', { timeout: STEP_TIMEOUT });
    const s = await readScreen(page);
    if (s.end) return 'end';
    const d = s.decision;
    if (!d) return 'acted';
    this.answered[d.kind] = (this.answered[d.kind] ?? 0) + 1;
    if (d.card) this.answered[`${d.kind}:${d.card}`] = (this.answered[`${d.kind}:${d.card}`] ?? 0) + 1;
    const click = (/** @type {string} */ id) => page.getByTestId(id).click();

    switch (d.kind) {
      case 'action_phase': {
        const playable = s.hand.filter((c) => c.enabled);
        playable.sort((a, b) => rank(a.card) - rank(b.card));
        if (playable.length) await click(playable[0].testid);
        else await endPhase(page);
        break;
      }
      case 'buy_phase': {
        if (d.playAll) {
          await click('play-all');
          break;
        }
        const pick = this.chooseBuy(s.coins, s.buyable, s.provincesLeft);
        if (pick) {
          this.bought[pick] = (this.bought[pick] ?? 0) + 1;
          await click(`pile-${pick}`);
        } else {
          await endPhase(page);
        }
        break;
      }
      case 'choose_cards': {
        if (d.react.length) {
          await click(d.react[0] === 'react-none' && d.react.length > 1 ? d.react[1] : d.react[0]);
          break;
        }
        if (d.single) {
          await click(yesToOne(d.purpose, d.single, d.about !== undefined) ? 'yes' : 'no');
          break;
        }
        const min = d.min ?? 0;
        const max = d.max ?? 0;
        const idx = d.options.map((o) => ({ c: o.card, i: o.testid }));
        let chosen = [];
        if (d.purpose === 'discard' || d.purpose === 'trash') {
          idx.sort((a, b) => junk(a.c) - junk(b.c));
          // Cellar: discard the Victory cards; Militia: exactly what is asked; Remodel, Mine: one.
          const bad = idx.filter((x) => junk(x.c) <= (d.purpose === 'trash' ? 2 : 1));
          chosen = bad.slice(0, max);
          if (chosen.length < min) chosen = idx.slice(0, min);
        } else {
          chosen = idx.slice(0, Math.max(min, Math.min(1, max)));
        }
        for (const { i } of chosen) await click(i);
        await click('confirm');
        break;
      }
      case 'choose_pile': {
        const options = [...d.pileOptions].filter((c) => c !== 'curse').sort((a, b) => cost(b) - cost(a));
        if (options.length) await click(`pile-option-${options[0]}`);
        else if (d.pileNone) await click('pile-none');
        else await click(`pile-option-${d.pileOptions[0]}`);
        break;
      }
      case 'choose_modes': {
        for (let i = 0; i < (d.min ?? 1); i++) {
          const modes = await page.locator('[data-testid^="mode-"]').all();
          await modes[i].click();
        }
        await click('confirm');
        break;
      }
      case 'yes_no':
        await click('yes');
        break;
      case 'order_cards':
        await click('confirm');
        break;
      case 'name_card':
        // Nothing is preselected: name the first card listed.
        await page.locator('[data-testid^="name-option-"]').first().click();
        await click('confirm');
        break;
      case 'choose_number':
        // Secret Passage: the top of the deck; any other number: the one offered first.
        if (d.purpose === 'place_in_deck') await click('place-0');
        await click('confirm');
        break;
      default:
        throw new Error(`unknown decision kind ${d.kind}`);
    }
    await waitPast(page, d.number);
    return 'acted';
  }
}

/**
 * Whether to say yes to a "may" over one card: rid yourself of junk, keep good cards
 * on other players' decks away from them, take what is offered otherwise.
 * @param {string} purpose @param {string} card @param {boolean} others  the card is another player's
 */
function yesToOne(purpose, card, others) {
  if (purpose === 'discard' || purpose === 'trash') return others ? junk(card) > 2 : junk(card) <= (purpose === 'trash' ? 2 : 1);
  return purpose !== 'top_deck';
}

/** @param {string} c */
function rank(c) {
  const i = ACTION_ORDER.indexOf(c);
  return i < 0 ? 99 : i;
}

/**
 * Waits until the page shows a decision numbered above `n`, or the end screen.
 * @param {import('playwright-core').Page} page @param {number} n
 */
export async function waitPast(page, n) {
  await page.waitForFunction(
    (n) => {
      if (document.querySelector('[data-testid=end-screen]')) return true;
      const d = /** @type {HTMLElement | null} */ (document.querySelector('[data-testid=decision]'));
      return Boolean(d && Number(d.dataset.decision) > n);
    },
    n,
    { timeout: STEP_TIMEOUT, polling: POLL_MS },
  );
}

/**
 * Plays until the end screen. `onStep` may look at the page between decisions.
 * @param {import('playwright-core').Page} page @param {Policy} policy
 * @param {(step: number) => Promise<void>} [onStep]
 */
export async function playToEnd(page, policy, onStep) {
  for (let i = 0; i < 1500; i++) {
    if ((await policy.step(page)) === 'end') return i;
    if (onStep) await onStep(i);
  }
  throw new Error('the game did not end within 1500 decisions');
}
