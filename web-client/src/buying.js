// No lost turns: ending the Buy phase with money left asks first (once; "don't ask
// again" is a setting), a pile affordable with the Treasures still in hand plays them
// and buys it, and a pile that cannot be bought says why.
import { cardName, treasureValue } from './cards.js';
import { t } from './i18n/index.js';
import { answer } from './session.js';
import { busy, notify, state, update } from './store.js';

const ASK_KEY = 'dominion.askEndTurn';
/** @type {boolean | null} */
let ask = null;

/** Whether ending a turn with money left asks first (on unless turned off; remembered). */
export function askEndTurn() {
  if (ask == null) {
    try {
      ask = localStorage.getItem(ASK_KEY) !== '0';
    } catch {
      ask = true;
    }
  }
  return ask;
}

/** @param {boolean} on */
export function setAskEndTurn(on) {
  ask = on;
  try {
    localStorage.setItem(ASK_KEY, on ? '1' : '0');
  } catch {
    /* storage may be unavailable */
  }
  update();
}

/** The pending Buy phase's prompt, when it is this seat's. */
function buyPrompt() {
  const d = state.decision;
  return d && d.prompt.kind === 'buy_phase' ? d.prompt : null;
}

/** The hand's Treasures that may still be played now, in hand order. */
export function unplayedTreasures() {
  const p = buyPrompt();
  if (!p || !p.treasures.length) return [];
  const can = new Set(p.treasures);
  return (state.view?.hand ?? []).filter((c) => can.has(c));
}

/** The coins there are to spend: those made so far and the unplayed Treasures' values. */
export function moneyWithHand() {
  return (state.view?.coins ?? 0) + unplayedTreasures().reduce((n, c) => n + treasureValue(c), 0);
}

/**
 * What ending the Buy phase now would leave unused, or null when nothing: Treasures not
 * played, or coins and a Buy that could still buy a card costing more than $0.
 * @returns {{money: number, treasures: number} | null}
 */
export function leftOver() {
  const v = state.view;
  const p = buyPrompt();
  if (!v || !p || v.buys < 1) return null;
  const treasures = unplayedTreasures().length;
  const money = moneyWithHand();
  if (money <= 0) return null;
  const spendable = v.supply.some((pile) => pile.count > 0 && pile.cost > 0 && pile.cost <= money);
  return treasures || spendable ? { money, treasures } : null;
}

/** Whether the "end turn with money left?" question is open for the pending decision. */
export function confirmingEnd() {
  const d = state.decision;
  return Boolean(d && state.confirmEnd === d.decision && d.prompt.kind === 'buy_phase');
}

/**
 * Ends the Action phase, or the turn: with money left the question is asked first, and
 * asking again (the button or E once more) ends it.
 */
export function endPhase() {
  const d = state.decision;
  if (!d || busy()) return;
  if (d.prompt.kind === 'buy_phase' && !confirmingEnd() && askEndTurn() && leftOver()) {
    update((s) => {
      s.confirmEnd = d.decision;
    });
    return;
  }
  answer({ type: 'end_phase' });
}

/** Closes the question without ending the turn. */
export function keepPlaying() {
  update((s) => {
    s.confirmEnd = null;
  });
}

/** A buy waiting for the Treasures played on its behalf: the decision it was asked at. */
let pendingBuy = /** @type {{decision: number, card: string} | null} */ (null);

/**
 * Whether clicking `card`'s pile plays the Treasures in hand and buys it: the Buy phase,
 * and the pile affordable only with them.
 * @param {string} card
 */
export function buysWithTreasures(card) {
  const p = buyPrompt();
  const pile = state.view?.supply.find((x) => x.card === card);
  if (!p || !pile || p.buyable.includes(card) || !pile.count || !unplayedTreasures().length) return false;
  return pile.cost <= moneyWithHand() && (state.view?.buys ?? 0) > 0;
}

/** Why `card` cannot be bought now, in words. @param {string} card */
export function whyNot(card) {
  const v = state.view;
  const pile = v?.supply.find((x) => x.card === card);
  const name = cardName(card);
  if (!v || !pile) return t('buy.not_now', { card: name });
  if (!pile.count) return t('buy.empty', { card: name });
  if (v.buys < 1) return t('buy.no_buys', { card: name });
  const money = moneyWithHand();
  if (money !== v.coins) return t('buy.cannot_afford_hand', { card: name, cost: pile.cost, coins: v.coins, total: money });
  return t('buy.cannot_afford', { card: name, cost: pile.cost, coins: v.coins });
}

/**
 * A click on a Supply pile in this seat's Buy phase: buys it, or plays the Treasures and
 * then buys it, or says why it cannot be bought. Returns false when it is not the Buy
 * phase (the caller shows the card's text).
 * @param {string} card
 */
export function clickPile(card) {
  const d = state.decision;
  const p = buyPrompt();
  if (!d || !p) return false;
  if (busy()) return true;
  if (p.buyable.includes(card)) {
    answer({ type: 'buy', card });
  } else if (buysWithTreasures(card)) {
    pendingBuy = { decision: d.decision, card };
    answer({ type: 'play_all_treasures' });
  } else {
    update((s) => notify(s, whyNot(card), 'info'));
  }
  return true;
}

/**
 * After the Treasures were played for a buy: buys the card when the next Buy-phase
 * question offers it, else says why not. Called after every render.
 */
export function continuePendingBuy() {
  const d = state.decision;
  if (!pendingBuy || !d || busy() || d.decision <= pendingBuy.decision) return;
  const card = pendingBuy.card;
  pendingBuy = null;
  if (d.prompt.kind !== 'buy_phase') return;
  if (d.prompt.buyable.includes(card)) answer({ type: 'buy', card });
  else update((s) => notify(s, whyNot(card), 'info'));
}

/** Whether a buy is waiting for its Treasures (autoplay must not answer meanwhile). */
export function buyPending() {
  return pendingBuy != null;
}
