// Taking back a move: the Undo button while it is this seat's decision, the question to
// the other players when someone asks, and how it ended. The server decides whether a
// move may be taken back (within your turn, nothing revealed since) and says why not.
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { seatName } from './names.js';
import { answerUndo, requestUndo } from './session.js';
import { busy, state } from './store.js';

/** An open undo request: the question to the others, or the asker's wait (overlays). */
export function undoBar() {
  if (state.spectating || state.seat == null || !state.view || state.view.game_over) return null;
  const u = state.undo;
  if (u && u.seat !== state.seat) {
    const left = Math.max(0, Math.ceil((u.until - Date.now()) / 1000));
    return h(
      'div',
      { class: 'panel undo-ask', role: 'alertdialog', 'aria-live': 'assertive', 'data-testid': 'undo-ask' },
      h('p', null, t('undo.asks', { name: seatName(state, u.seat), s: left })),
      u.answered
        ? h('p', { class: 'muted' }, t('undo.answered'))
        : h(
            'div',
            { class: 'row' },
            h('button', { type: 'button', class: 'btn primary', 'data-testid': 'undo-accept', onclick: () => answerUndo(true) }, t('undo.accept')),
            h('button', { type: 'button', class: 'btn', 'data-testid': 'undo-refuse', onclick: () => answerUndo(false) }, t('undo.refuse')),
          ),
    );
  }
  if (u && u.seat === state.seat) {
    return h('p', { class: 'panel undo-wait', 'aria-live': 'polite', 'data-testid': 'undo-waiting' }, t('undo.waiting'));
  }
  return null;
}

/**
 * The Undo button, in the status bar (it takes no room of its own on a full table):
 * while it is this seat's decision and no request is open.
 */
export function undoButton() {
  if (state.spectating || state.seat == null || !state.view || state.view.game_over || state.undo) return null;
  const mine = state.decision && state.decision.seat === state.seat;
  if (!mine || !movedThisTurn()) return null;
  return h(
    'button',
    { type: 'button', class: 'btn small undo-button', 'data-testid': 'undo', disabled: busy(), 'aria-keyshortcuts': 'U', title: t('undo.hint'), onclick: () => requestUndo() },
    t('undo.button'),
  );
}

/** Moves whose events show something this seat did that might be taken back. */
const MOVES = new Set(['played', 'played_again', 'bought', 'gained', 'trashed', 'discarded', 'top_decked']);

/**
 * Whether this seat did something in its turn so far (the events since its turn began):
 * before that there is nothing to take back, so no button. The server still decides.
 */
function movedThisTurn() {
  const events = state.events;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = /** @type {any} */ (events[i]);
    if (e.type === 'turn_started') return false;
    if (e.seat === state.seat && MOVES.has(e.type)) return true;
  }
  return false;
}
