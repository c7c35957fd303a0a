// Leaving a game in progress asks first, in the page: the seat goes to a bot (the lobby
// can bring the player back to it). Leaving a waiting room or a finished game does not ask.
import { h } from './dom.js';
import { t } from './i18n/index.js';
import { leaveRoom } from './session.js';
import { state, update } from './store.js';

/** Leaves now, or asks first when a seated player would leave a game in progress. */
export function requestLeave() {
  if (!state.spectating && state.room?.status === 'playing' && !state.view?.game_over) {
    update((s) => {
      s.confirmLeave = true;
    });
  } else {
    leaveRoom();
  }
}

function stay() {
  update((s) => {
    s.confirmLeave = false;
  });
}

export function leaveDialog() {
  if (!state.confirmLeave) return null;
  return h(
    'div',
    { class: 'modal-backdrop', onclick: (/** @type {Event} */ e) => e.target === e.currentTarget && stay() },
    h(
      'div',
      {
        class: 'modal confirm-leave',
        role: 'alertdialog',
        'aria-modal': 'true',
        'aria-labelledby': 'leave-h',
        'aria-describedby': 'leave-p',
        'data-testid': 'leave-dialog',
        onkeydown: (/** @type {KeyboardEvent} */ e) => e.key === 'Escape' && stay(),
      },
      h('h2', { id: 'leave-h' }, t('leave.heading')),
      h('p', { id: 'leave-p' }, t('leave.body')),
      h(
        'div',
        { class: 'choice-row' },
        h('button', { type: 'button', class: 'btn', 'data-testid': 'leave-stay', 'data-autofocus': '', onclick: stay }, t('leave.stay')),
        h(
          'button',
          {
            type: 'button',
            class: 'btn danger',
            'data-testid': 'leave-confirm',
            onclick: () => {
              stay();
              leaveRoom();
            },
          },
          t('leave.confirm'),
        ),
      ),
    ),
  );
}
