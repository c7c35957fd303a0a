// The Hint: in an unrated game where every other seat is a bot, the player may ask what
// the Hard bot (the searching bot) would answer to their pending decision. The server
// thinks from this player's own view of the game only, within its thinking budget, and
// answers this player alone; a rated game or one with another person is refused there
// too, so the button is only a convenience.
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { replyPhrase } from './replies.js';
import { command } from './session.js';
import { busy, state, update } from './store.js';

/**
 * The hint asked for or received, for decision `decision` (shown only while that
 * decision is pending).
 * @type {{decision: number, reply: import('./types.js').Reply | null} | null}
 */
let hint = null;

/** Whether this seat may ask for a hint now (the server decides again). */
export function canHint() {
  const d = state.decision;
  if (state.spectating || state.seat == null || !state.view || state.view.game_over || !d) return false;
  if (d.seat !== state.seat || state.room?.settings.rated) return false;
  const seats = state.room?.seats ?? [];
  return seats.length > 1 && seats.every((s) => s.seat === state.seat || s.occupant.type === 'bot');
}

/**
 * Asks the server what the Hard bot would do here. The server acknowledges at once and
 * sends the `hint` when it has thought ([`hintArrived`]); a refusal says why in a notice.
 */
export async function askHint() {
  const d = state.decision;
  if (!d || !canHint() || (hint && hint.decision === d.decision)) return;
  hint = { decision: d.decision, reply: null };
  update();
  const answer = await command({ type: 'hint' });
  if (answer?.type === 'hint') {
    hintArrived(answer);
  } else if (!answer && hint?.decision === d.decision && hint.reply == null) {
    hint = null; // refused or dropped: may be asked again
    update();
  }
}

/**
 * The server could not think the hint it acknowledged (an unsolicited `hint_unavailable`
 * error): the button is offered again instead of waiting on "Thinking…".
 */
export function hintFailed() {
  if (hint && hint.reply == null) {
    hint = null;
    update();
  }
}

/** The server's `hint`. @param {{decision: number, reply: import('./types.js').Reply}} msg */
export function hintArrived(msg) {
  hint = { decision: msg.decision, reply: msg.reply };
  update();
}

/** The Hint button (status bar), while a hint may be asked for. */
export function hintButton() {
  if (!canHint()) return null;
  const thinking = hint != null && hint.decision === state.decision?.decision && hint.reply == null;
  return h(
    'button',
    {
      type: 'button',
      class: 'btn small hint-button',
      'data-testid': 'hint',
      disabled: busy() || thinking,
      'aria-keyshortcuts': 'H',
      title: t('hint.title'),
      onclick: () => askHint(),
    },
    thinking ? t('hint.thinking') : t('hint.button'),
  );
}

/** What the Hard bot would do, under the status bar, while its decision is pending. */
export function hintLine() {
  const d = state.decision;
  if (!hint || !hint.reply || !d || hint.decision !== d.decision) return null;
  return h('p', { class: 'panel hint-line', role: 'status', 'data-testid': 'hint-text' }, t('hint.would', { what: replyPhrase(hint.reply) }));
}
