// Taking back a move: the Undo button while it is this seat's decision, the question to
// the other players when someone asks, and how it ended. The server decides whether a
// move may be taken back (within your turn, nothing revealed since) and says why not.
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { seatName } from './names.js';
import { answerUndo, requestUndo } from './session.js';
import { busy, state } from './store.js';

/** The undo controls for the table, or null when there is nothing to show. */
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
  const mine = state.decision && state.decision.seat === state.seat;
  if (!mine) return null;
  return h(
    'div',
    { class: 'undo-row' },
    h(
      'button',
      { type: 'button', class: 'btn small', 'data-testid': 'undo', disabled: busy(), 'aria-keyshortcuts': 'U', title: t('undo.hint'), onclick: () => requestUndo() },
      t('undo.button'),
    ),
  );
}
