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
 * only when the server will allow it.
 */
export function undoButton() {
  if (state.spectating || state.seat == null || !state.view || state.view.game_over || state.undo) return null;
  if (!canUndo()) return null;
  return h(
    'button',
    { type: 'button', class: 'btn small undo-button', 'data-testid': 'undo', disabled: busy(), 'aria-keyshortcuts': 'U', title: t('undo.hint'), onclick: () => requestUndo() },
    t('undo.button'),
  );
}

/**
 * Events that taught nobody anything new: a move whose events are only these may be taken
 * back (the engine's rule, `game/undo.rs`). A draw, a shuffle, a reveal, a look at the
 * deck, a pass, a blocked Attack or a new turn end the chance.
 * @param {import('./types.js').GameEvent} e
 */
function harmless(e) {
  switch (e.type) {
    case 'phase_started':
    case 'played':
    case 'played_again':
    case 'bought':
    case 'gained':
    case 'gained_from_trash':
    case 'trashed':
      return true;
    case 'discarded':
    case 'top_decked':
      return e.private === true;
    default:
      return false;
  }
}

/**
 * Whether the server will let this seat take back its last move now: the pending
 * decision is this seat's and follows its own last reply directly (nobody else was asked
 * between), that reply was not one the page gave by itself, and its events (this turn's)
 * revealed nothing. The server still decides.
 *
 * Decisions are numbered 1000 × (questions answered so far, Reaction questions aside),
 * so the one right after this seat's reply is the next multiple of 1000.
 */
export function canUndo() {
  const d = state.decision;
  const a = state.answered;
  if (!d || d.seat !== state.seat || !a || a.auto || d.decision !== (Math.floor(a.decision / 1000) + 1) * 1000) return false;
  const first = state.nextEvent - state.events.length;
  if (a.mark < first) return false;
  const since = state.events.slice(a.mark - first);
  return since.length > 0 && since.every(harmless);
}
