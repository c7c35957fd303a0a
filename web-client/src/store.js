// The client's whole state in one object, and a render scheduled after each change.

/** @typedef {import('./types.js').RoomSummary} RoomSummary */
/** @typedef {import('./types.js').GameView} GameView */
/** @typedef {import('./types.js').GameEvent} GameEvent */
/** @typedef {import('./types.js').DecisionRequest} DecisionRequest */
/** @typedef {import('./types.js').GameResult} GameResult */

/**
 * A chat line and its number in the room (`n`: what a report names; unknown for lines
 * whose place the page could not tell).
 * @typedef {import('./types.js').ChatLine} ChatEntry
 */

/**
 * @typedef {object} CreateForm
 * @property {string} name
 * @property {number} players
 * @property {string[]} seats   '' for an open seat, else a bot name; seats[0] is the creator
 * @property {'1e' | '2e'} edition
 * @property {import('./types.js').CardPool | null} pool   a random kingdom's pool; null: the edition's
 * @property {import('./types.js').CardSet | ''} sets   the one set a random kingdom draws from; '': every set
 * @property {'recommended' | 'random' | 'pick'} mode
 * @property {string} recommended
 * @property {string[]} picked
 * @property {string} search
 * @property {string} setFilter
 * @property {string} costFilter
 * @property {number} timer   0 for no limit
 * @property {boolean} spectatorChat   spectators may read and write the chat
 * @property {boolean} rated   a rated game (signed in, 2 to 4 seats)
 */

/**
 * @typedef {object} State
 * @property {import('./connection.js').ConnStatus} conn
 * @property {number} retryAt
 * @property {string} name
 * @property {RoomSummary[]} rooms
 * @property {{cards: string[], sets: import('./types.js').CardSet[], kingdoms: {id: string, name: string, cards: string[], edition?: string}[], bots: string[], levels: string[]}} meta
 * @property {CreateForm} create
 * @property {string | null} roomId         the room this page is in (seated or watching)
 * @property {RoomSummary | null} room
 * @property {number | null} seat
 * @property {boolean} spectating
 * @property {GameView | null} view
 * @property {number} nextEvent
 * @property {GameEvent[]} events
 * @property {DecisionRequest | null} decision
 * @property {number} decisionAt           when the decision arrived (ms), for its deadline
 * @property {number[]} selected            indices into a choose_cards/choose_modes prompt's options
 * @property {string[]} order               the current order for order_cards
 * @property {string} named                 the card chosen for name_card
 * @property {string} nameQuery             what is typed into name_card's search
 * @property {number | null} number         the number chosen for choose_number
 * @property {{decision: number, card?: string, purpose: import('./types.js').Purpose, reply: import('./types.js').Reply, mark: number, auto?: boolean} | null} answered
 *   this seat's last answer (Secret Passage names the card it places, Courtier the card it revealed),
 *   the number of the first event after it (`mark`), and whether the page gave it by itself
 * @property {boolean} sending
 * @property {number | null} confirmEnd   the Buy-phase decision whose "end turn with money left?" is open
 * @property {boolean} awaiting             this seat answered and no decision or frame came since:
 *   the page names nobody it waits for
 * @property {GameResult | null} result
 * @property {string | null} notice         a message for the person, cleared on the next action
 * @property {'error' | 'info' | 'success'} noticeKind   how the notice is styled (and announced)
 * @property {string | null} info           the card whose details are shown in the dialog
 * @property {string | null} hover          the card under the pointer or focus
 * @property {{seat: number, until: number, answered: boolean} | null} undo
 *   an open request to take back a move (this seat's or another's), until when (ms)
 * @property {ChatEntry[]} chat   the room's recent chat
 * @property {{oldest: number, first: number} | null} chatMore   earlier lines the room
 *   still keeps (numbers `oldest` up to `first`), which `chat_history` fetches
 * @property {string} chatDraft             the chat line being written
 * @property {import('./types.js').GameSummary[]} games   recent ended games (GET /api/games)
 * @property {string | null} invite         the room an invite link (`/#room=ID`) names
 * @property {string | null} copied         the room whose invite link was just copied
 * @property {boolean} confirmLeave         the "leave this game?" dialog is open
 * @property {boolean} logAll               the whole log is shown, not only its end
 * @property {import('./log.js').LogFilter} logFilter   whose lines the log shows
 * @property {boolean} roomsLoaded          the room list came at least once
 * @property {{from: string | null, room: string, seat: number} | null} rematch
 *   a rematch offered in room `from` (after its game) by `seat`, in the new room `room`
 * @property {{room: string | null, changes: import('./types.js').RatingChange[]} | null} ratingChanges
 *   what the rated game of room `room` did to its players' levels (`rating_changed`)
 */

/** @type {Set<() => void>} */
const listeners = new Set();
let scheduled = false;

/** @type {State} */
export const state = /** @type {any} */ ({});

/** Applies `fn` to the state and schedules one render. @param {(s: State) => void} [fn] */
export function update(fn) {
  if (fn) fn(state);
  if (!scheduled) {
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      for (const l of listeners) l();
    });
  }
}

/**
 * Sets the notice and its kind (an error unless said otherwise).
 * @param {State} s @param {string} text @param {'error' | 'info' | 'success'} [kind]
 */
export function notify(s, text, kind = 'error') {
  s.notice = text;
  s.noticeKind = kind;
}

/** Whether decisions cannot be answered now: a reply is on its way, or the connection is down. */
export function busy() {
  return state.sending || state.conn !== 'online';
}

/** @param {() => void} fn */
export function subscribe(fn) {
  listeners.add(fn);
}
