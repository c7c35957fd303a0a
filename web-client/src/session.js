// What the page does with the server: joining, watching, resuming after a reload or a
// lost connection (the seat token is kept in localStorage), and folding server
// messages into the state.
import { matchLost, onMatchMessage } from './automatch.js';
import { accountName, onSignedOut, onWelcome } from './account.js';
import { Connection } from './connection.js';
import { setCurrentCosts, setEdition } from './cards.js';
import { t } from './i18n/index.js';
import { seatName } from './names.js';
import { busy, state, update, notify } from './store.js';
import { onInvited } from './friends.js';
import { hintArrived, hintFailed } from './hint.js';

/** @typedef {import('./types.js').ServerMessage} ServerMessage */
/** @typedef {import('./types.js').Reply} Reply */

const SEAT_KEY = 'dominion.seat';
/** Every seat this browser holds a token for, by room: the lobby offers to resume them. */
const KEPT_KEY = 'dominion.seats';
const LOG_PREFIX = 'dominion.log.';
const MAX_STORED_EVENTS = 1500;
/** Chat lines kept on the page (the server sends the last 100 on arrival). */
const MAX_CHAT = 200;

/** @type {Connection} */
let conn;

/** @returns {{room: string, token: string, seat: number} | null} */
export function storedSeat() {
  try {
    const v = JSON.parse(localStorage.getItem(SEAT_KEY) ?? 'null');
    return v && typeof v.room === 'string' && typeof v.token === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** @param {{room: string, token: string, seat: number} | null} v */
function storeSeat(v) {
  try {
    if (v) localStorage.setItem(SEAT_KEY, JSON.stringify(v));
    else localStorage.removeItem(SEAT_KEY);
  } catch {
    /* ignore */
  }
  if (v) keep(v);
}

/**
 * The seats this browser keeps tokens for, by room.
 * @returns {Record<string, {room: string, token: string, seat: number}>}
 */
export function keptSeats() {
  /** @type {Record<string, {room: string, token: string, seat: number}>} */
  const out = {};
  try {
    const v = JSON.parse(localStorage.getItem(KEPT_KEY) ?? '{}');
    for (const [room, s] of Object.entries(v && typeof v === 'object' ? v : {})) {
      if (s && typeof s.token === 'string' && typeof s.seat === 'number') out[room] = { room, token: s.token, seat: s.seat };
    }
  } catch {
    /* ignore */
  }
  const current = storedSeat();
  if (current && !out[current.room]) out[current.room] = current;
  return out;
}

/** @param {Record<string, {room: string, token: string, seat: number}>} all */
function saveKept(all) {
  try {
    localStorage.setItem(KEPT_KEY, JSON.stringify(all));
  } catch {
    /* ignore */
  }
}

/** @param {{room: string, token: string, seat: number}} v */
function keep(v) {
  saveKept({ ...keptSeats(), [v.room]: v });
}

/** Forgets the token of `room` (its seat was freed, its game is over, or it is gone). @param {string} room */
export function forgetSeat(room) {
  const all = keptSeats();
  delete all[room];
  saveKept(all);
  if (storedSeat()?.room === room) storeSeat(null);
}

/** @param {string} room */
function loadLog(room) {
  try {
    const v = JSON.parse(localStorage.getItem(LOG_PREFIX + room) ?? 'null');
    if (v && Array.isArray(v.events) && typeof v.next === 'number') return v;
  } catch {
    /* ignore */
  }
  return null;
}

function saveLog() {
  if (!state.roomId || state.spectating) return;
  try {
    localStorage.setItem(
      LOG_PREFIX + state.roomId,
      JSON.stringify({ next: state.nextEvent, events: state.events.slice(-MAX_STORED_EVENTS) }),
    );
  } catch {
    /* full or unavailable: the log is a convenience */
  }
}

/** @param {string} room */
function dropLog(room) {
  try {
    localStorage.removeItem(LOG_PREFIX + room);
  } catch {
    /* ignore */
  }
}

export function startSession() {
  conn = new Connection({
    onStatus: (status, retryAt) => update((s) => {
      s.conn = status;
      s.retryAt = retryAt ?? 0;
    }),
    onReady: (welcome) => {
      onWelcome(welcome);
      onReady();
    },
    onMessage: (msg) => onMessage(msg),
    onSignedOut: (reason) => onSignedOut(reason),
  });
  readInvite();
  window.addEventListener('hashchange', () => {
    readInvite();
    update();
    // The offer shows the room as the list has it: a fresh list, not the last poll's.
    if (state.invite && !state.roomId && state.conn === 'online') refreshRooms();
  });
  const seat = storedSeat();
  if (seat) {
    const log = loadLog(seat.room);
    update((s) => {
      s.roomId = seat.room;
      s.seat = seat.seat;
      if (log) {
        s.events = log.events;
        s.nextEvent = log.next;
      }
    });
  }
  conn.open();
  setInterval(() => {
    if (!state.roomId && state.conn === 'online' && document.visibilityState !== 'hidden') refreshRooms();
  }, 3000);
  refreshGames();
  setInterval(() => {
    if (!state.roomId && document.visibilityState !== 'hidden') refreshGames();
  }, 15000);
}

/** An invite link (`/#room=ID`) names the room to offer. */
function readInvite() {
  const m = /^#room=([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
  update((s) => {
    s.invite = m ? m[1] : null;
  });
}

/** Forgets the invite once it is used or declined (and drops it from the address). */
export function clearInvite() {
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  update((s) => {
    s.invite = null;
  });
}

/** The link that opens this page on room `id`. @param {string} id */
export function inviteLink(id) {
  return `${location.origin}/#room=${id}`;
}

/** The recent ended games (`GET /api/games`), for the lobby. */
export async function refreshGames() {
  try {
    const res = await fetch('/api/games?limit=10', { headers: { accept: 'application/json' } });
    if (!res.ok) return;
    const games = await res.json();
    if (Array.isArray(games)) update((s) => {
      s.games = games;
    });
  } catch {
    /* offline: the indicator says so */
  }
}

export function retryNow() {
  conn.retryNow();
}

/** Connects again at once (the page signed in or out). */
export function reconnect() {
  if (conn) conn.reconnect();
}

/** Takes the seat back in this tab after another tab took it. */
export function takeBack() {
  conn.open();
}

async function onReady() {
  // A new connection: any automatch queue entry of the old one is gone.
  matchLost();
  const seat = storedSeat();
  const invited = state.invite ? keptSeats()[state.invite] : null;
  if (invited && !state.roomId) {
    // An invite to a room this browser already sits in: back to that seat.
    clearInvite();
    await resumeRoom(invited.room);
  } else if (seat && (state.roomId === seat.room || !state.roomId)) {
    await resume(seat);
  } else if (state.roomId && state.spectating) {
    await spectate(state.roomId);
  } else {
    await refreshRooms();
  }
}

/** @param {{room: string, token: string, seat: number}} seat */
async function resume(seat) {
  const cmd = { type: 'resume', room: seat.room, token: seat.token };
  if (state.nextEvent > 0 && state.events.length) Object.assign(cmd, { last_event: state.nextEvent - 1 });
  let answer;
  try {
    answer = await conn.request(cmd);
  } catch {
    return; // dropped again; the next `welcome` retries
  }
  if (answer.type === 'seated') {
    conn.bumpId(answer.last_command);
    update((s) => {
      s.roomId = answer.room;
      s.seat = answer.seat;
      s.spectating = false;
    });
    await refreshRooms();
    fillHistory();
  } else if (answer.type === 'error') {
    if (answer.code === 'bad_token' || answer.code === 'unknown_room') {
      forgetSeat(seat.room);
      dropLog(seat.room);
      resetRoom();
      update((s) => {
        notify(s, t(`err.${answer.code}`));
      });
      await refreshRooms();
    } else if (answer.code === 'already_in_room') {
      // This connection already holds the seat (a resume raced a reconnect): fine.
    } else {
      showError(answer);
    }
  }
}

function resetRoom() {
  update((s) => {
    s.roomId = null;
    s.room = null;
    s.seat = null;
    s.spectating = false;
    s.view = null;
    s.nextEvent = 0;
    s.events = [];
    s.decision = null;
    s.result = null;
    s.sending = false;
    s.awaiting = false;
    s.selected = [];
    s.order = [];
    s.answered = null;
    s.undo = null;
    s.chat = [];
    s.chatMore = null;
    s.confirmLeave = false;
  });
  setEdition(state.create.edition);
  setCurrentCosts(null);
}

export async function refreshRooms() {
  try {
    const answer = await conn.request({ type: 'list_rooms' });
    if (answer.type === 'room_list') {
      update((s) => {
        s.rooms = answer.rooms;
        s.roomsLoaded = true;
        const mine = s.roomId ? answer.rooms.find((r) => r.id === s.roomId) : null;
        if (mine) s.room = mine;
      });
      // Tokens of rooms that closed, or whose game is over, resume nothing any more.
      for (const room of Object.keys(keptSeats())) {
        const r = answer.rooms.find((x) => x.id === room);
        if ((!r || r.status === 'finished' || r.status === 'broken') && room !== state.roomId) forgetSeat(room);
      }
    }
  } catch {
    /* offline: the indicator says so */
  }
}

/** @param {ServerMessage & {type: 'error'}} err */
function showError(err) {
  const key = `err.${err.code}`;
  const localized = t(key, { message: err.message });
  update((s) => {
    notify(s, localized !== key ? localized : t('err.refused', { message: err.message }));
  });
}

/**
 * Sends a command and returns its answer, a refusal included, for a caller that shows
 * it in place; null when the connection failed.
 * @param {Record<string, any>} command
 * @returns {Promise<ServerMessage | null>}
 */
export async function ask(command) {
  try {
    return await conn.request(command);
  } catch {
    return null;
  }
}

/**
 * Sends a command and handles a refusal by showing it.
 * @param {Record<string, any>} command
 * @returns {Promise<ServerMessage | null>}
 */
export async function command(command) {
  update((s) => {
    s.notice = null;
  });
  try {
    const answer = await conn.request(command);
    if (answer.type === 'error') {
      showError(answer);
      return null;
    }
    return answer;
  } catch {
    update((s) => {
      notify(s, t('err.network'));
    });
    return null;
  }
}

/** @param {import('./types.js').RoomSettings} settings @param {string} name */
export async function createRoom(settings, name) {
  const created = await command({ type: 'create_room', settings });
  if (!created || created.type !== 'room_created') return;
  const seat = settings.seats.findIndex((x) => x.type === 'open');
  await takeSeat(created.room.id, seat >= 0 ? seat : undefined, name);
}

/** @param {string} room @param {number | undefined} seat @param {string} name */
export async function takeSeat(room, seat, name) {
  // Signed in, the seat takes the account's name (the server ignores any other).
  const cmd = { type: 'take_seat', room, name: accountName() ?? name };
  if (seat != null) Object.assign(cmd, { seat });
  const answer = await command(cmd);
  if (!answer || answer.type !== 'seated') return;
  conn.bumpId(answer.last_command);
  storeSeat({ room: answer.room, token: answer.token, seat: answer.seat });
  dropLog(answer.room);
  resetRoom();
  // An invite to this room is used up: it leaves the address as the room opens, not
  // after the room list below comes back.
  if (state.invite === answer.room) clearInvite();
  update((s) => {
    s.roomId = answer.room;
    s.seat = answer.seat;
    s.room = s.rooms.find((r) => r.id === answer.room) ?? null;
  });
  await refreshRooms();
}

/** @param {string} room */
export async function spectate(room) {
  const name = accountName() ?? state.name.trim();
  /** @type {Record<string, any>} */
  const cmd = { type: 'spectate', room };
  if (name && name.length <= 32) cmd.name = name;
  let answer = await command(cmd);
  if (!answer && cmd.name) answer = await command({ type: 'spectate', room }); // a name the server refuses: watch unnamed
  if (!answer || answer.type !== 'spectating') return;
  const keepLog = state.roomId === room && state.spectating;
  if (!keepLog) resetRoom();
  if (state.invite === room) clearInvite();
  update((s) => {
    s.roomId = room;
    s.spectating = true;
    s.room = s.rooms.find((r) => r.id === room) ?? null;
  });
  fillHistory();
}

/** Resumes the stored seat from the lobby's "return to your game". */
export async function resumeStored() {
  const seat = storedSeat();
  if (!seat) return;
  await resumeRoom(seat.room);
}

/** Resumes the kept seat of `room` (the lobby's list of unfinished games). @param {string} room */
export async function resumeRoom(room) {
  const seat = keptSeats()[room];
  if (!seat) return;
  storeSeat(seat);
  const log = loadLog(seat.room);
  resetRoom();
  update((s) => {
    s.roomId = seat.room;
    s.seat = seat.seat;
    if (log) {
      s.events = log.events;
      s.nextEvent = log.next;
    }
  });
  await resume(seat);
}

/**
 * Enters the room the automatch seated us in (`match_found`): the seat kept like any
 * other, then resumed; seat 0's page starts the game (every seat is filled already).
 * @param {{room: string, token: string, seat: number}} seat
 */
export async function enterMatch(seat) {
  storeSeat(seat);
  await resumeRoom(seat.room);
  if (seat.seat === 0 && state.roomId === seat.room && state.room?.status === 'lobby') await startGame();
}

export async function startGame() {
  await command({ type: 'start' });
}

/**
 * "Play": a game against one bot at once — a random kingdom of the edition, the room
 * created, the seat taken and the game started.
 * @param {string} name @param {string} bot @param {'1e' | '2e'} edition
 */
export async function quickPlay(name, bot, edition) {
  /** @type {import('./types.js').RoomSettings} */
  const settings = { kingdom: { type: 'random', pool: edition }, edition, seats: [{ type: 'open' }, { type: 'bot', bot }] };
  await createRoom(settings, name);
  if (state.roomId && !state.view && state.room?.status !== 'playing') await startGame();
}

/**
 * Leaves the room (frees the seat before the game; after it, just goes back). During a
 * game a bot plays the seat and its token is kept, so the lobby can offer it again.
 */
export async function leaveRoom() {
  const room = state.roomId;
  const midGame = !state.spectating && state.room?.status === 'playing';
  if (state.conn === 'online') await command({ type: 'leave' });
  if (room) dropLog(room);
  if (room && !midGame && !state.spectating) forgetSeat(room);
  storeSeat(null);
  resetRoom();
  update((s) => {
    s.notice = null;
  });
  await refreshRooms();
}

/** Puts a bot in a seat, or opens a bot's seat (the host, before the start). @param {number} seat @param {string} bot  '' for open */
export async function setSeat(seat, bot) {
  await command({ type: 'set_seat', seat, occupant: bot ? { type: 'bot', bot } : { type: 'open' } });
}

/** Takes the player in `seat` out of the room (the host, before the start). @param {number} seat */
export async function removeSeat(seat) {
  await command({ type: 'remove', who: { type: 'seat', seat } });
}

/** Says `text` in the room's chat; true when the server took it. @param {string} text */
export async function sendChat(text) {
  const answer = await command({ type: 'chat', text });
  return answer?.type === 'ack';
}

let loadingChat = false;

/** Fetches the room's chat lines before the ones this page holds (one page, 8 KiB). */
export async function loadEarlierChat() {
  const more = state.chatMore;
  if (!more || loadingChat) return;
  loadingChat = true;
  try {
    const answer = await command({ type: 'chat_history', from: more.oldest, to: more.first });
    if (answer?.type !== 'chat_history') return;
    update((s) => {
      if (s.chatMore !== more) return; // the room changed meanwhile
      s.chat = [...answer.lines, ...s.chat].slice(-MAX_CHAT);
      s.chatMore = answer.lines.length && answer.first > more.oldest
        ? { oldest: more.oldest, first: answer.first }
        : null;
    });
  } finally {
    loadingChat = false;
  }
}

let filling = false;

/**
 * Fetches the events before the ones this page holds (a spectator's or a reloaded
 * page's log starts with the snapshot), page by page, so the log shows the whole game.
 */
async function fillHistory() {
  if (filling) return;
  filling = true;
  try {
    // A snapshot that lands meanwhile moves the target: aim again (a few times at most).
    for (let attempt = 0; attempt < 3; attempt++) {
      const room = state.roomId;
      // The held events are numbered contiguously up to nextEvent: the first one held is
      // nextEvent - events.length, and everything before it is missing.
      const want = state.nextEvent - state.events.length;
      if (!room || want <= 0) return;
      /** @type {import('./types.js').GameEvent[]} */
      let older = [];
      while (older.length < want) {
        const page = await conn.request({ type: 'history', from: older.length, to: want });
        if (page.type !== 'history' || page.first !== older.length || state.roomId !== room) return;
        if (!page.events.length) break;
        older = older.concat(page.events);
      }
      if (older.length === want && state.nextEvent - state.events.length === want) {
        update((s) => {
          s.events = older.concat(s.events);
        });
        saveLog();
        return;
      }
    }
  } catch {
    /* dropped: the next resume asks again */
  } finally {
    filling = false;
  }
}

/** Answers the pending decision. @param {Reply} reply */
export async function answer(reply) {
  const d = state.decision;
  if (!d || busy()) return;
  update((s) => {
    s.sending = true;
    s.awaiting = true;
    s.answered = { decision: d.decision, card: d.card, purpose: d.purpose, reply, mark: s.nextEvent };
  });
  const result = await command({ type: 'reply', decision: d.decision, reply });
  update((s) => {
    s.sending = false;
    // On success the next `events`/`decision` replace the prompt; on a stale decision
    // the server sends the current one again after a resume, so drop ours.
    if (result && s.decision?.decision === d.decision) s.decision = null;
  });
}

/**
 * Whether a question has only one answer, which the page gives by itself: the Action
 * phase with no Action to play (the server asks it every turn while Actions remain, so
 * that the pause does not tell the others what the hand holds), or the Buy phase with
 * nothing to play and nothing to buy.
 * @param {import('./types.js').DecisionRequest} d
 */
export function nothingToDecide(d) {
  const p = d.prompt;
  if (p.kind === 'action_phase') return p.playable.length === 0;
  if (p.kind === 'buy_phase') return p.treasures.length === 0 && p.buyable.length === 0;
  return false;
}

/** The decision last answered by itself (a resume may send the same one again). */
let skipped = -1;

/**
 * Ends the phase for a question with nothing to decide, without showing it: the page
 * shows the neutral "waiting" until the next decision or frame.
 * @param {import('./types.js').DecisionRequest} d
 */
async function skip(d) {
  if (skipped === d.decision) return;
  skipped = d.decision;
  update((s) => {
    // A question shown before (this seat's previous one) is over.
    s.decision = null;
    s.awaiting = true;
    s.answered = { decision: d.decision, purpose: d.purpose, reply: { type: 'end_phase' }, mark: s.nextEvent, auto: true };
  });
  try {
    const result = await conn.request({ type: 'reply', decision: d.decision, reply: { type: 'end_phase' } });
    // A refusal (the decision went stale over a reconnect) needs no word: the server
    // asks again, and that question is answered the same way.
    if (result.type === 'error') skipped = -1;
  } catch {
    skipped = -1; // dropped: the resume sends the decision again
  }
}

/** Asks to take back this seat's last move. */
export async function requestUndo() {
  await command({ type: 'undo' });
}

/** Answers another player's request to take back their move. @param {boolean} accept */
export async function answerUndo(accept) {
  update((s) => {
    if (s.undo) s.undo.answered = true;
  });
  const ok = await command({ type: 'undo_answer', accept });
  if (!ok) {
    update((s) => {
      if (s.undo) s.undo.answered = false;
    });
  }
}

/** @param {ServerMessage} msg */
function onMessage(msg) {
  switch (msg.type) {
    case 'room':
      update((s) => {
        if (msg.room.id === s.roomId) {
          s.room = msg.room;
          // Before the game's first view, the room's setting says which texts to show.
          if (!s.view) setEdition(msg.room.settings.edition ?? '2e');
        }
        const i = s.rooms.findIndex((r) => r.id === msg.room.id);
        if (i >= 0) s.rooms[i] = msg.room;
      });
      break;
    case 'snapshot':
      update((s) => {
        s.awaiting = false;
        // A snapshot numbering events below what this page has means moves were taken
        // back: their events are gone from the game, so from the log too.
        const gone = s.nextEvent - msg.next_event;
        if (gone > 0) s.events = s.events.slice(0, Math.max(0, s.events.length - gone));
        setView(s, msg.view);
        // A snapshot skips what came between: the log starts again from it (and the
        // history before it is fetched).
        if (msg.next_event !== s.nextEvent) s.events = [];
        s.nextEvent = msg.next_event;
      });
      saveLog();
      if (state.roomId) fillHistory();
      break;
    case 'events':
      update((s) => {
        s.awaiting = false;
        const skip = Math.max(0, s.nextEvent - msg.first);
        const fresh = msg.events.slice(skip);
        // Events must stay contiguous: a gap (never expected) restarts the log there.
        if (msg.first > s.nextEvent) s.events = [];
        s.events = s.events.concat(fresh);
        s.nextEvent = Math.max(s.nextEvent, msg.first + msg.events.length);
        setView(s, msg.view);
      });
      saveLog();
      break;
    case 'decision':
      if (state.seat === msg.seat && !state.spectating && nothingToDecide(msg)) {
        // Asked every turn (so that others cannot tell from the pause whether this player
        // holds an Action), but with nothing to play: answered at once, never shown.
        skip(msg);
        break;
      }
      update((s) => {
        if (s.seat !== msg.seat || s.spectating) return;
        s.awaiting = false;
        const same = s.decision?.decision === msg.decision;
        s.decision = msg;
        s.decisionAt = Date.now();
        s.sending = false;
        if (!same) {
          s.selected = [];
          s.order = msg.prompt.kind === 'order_cards' ? [...msg.prompt.cards] : [];
          // A named card or a place in the deck is never preselected: a stray Enter
          // must not answer for the player.
          s.named = '';
          s.nameQuery = '';
          s.number = msg.prompt.kind === 'choose_number' && msg.purpose !== 'place_in_deck' ? msg.prompt.min : null;
        }
      });
      break;
    case 'game_over':
      update((s) => {
        s.result = msg;
        s.decision = null;
      });
      break;
    case 'undo_requested':
      update((s) => {
        s.undo = { seat: msg.seat, until: Date.now() + msg.seconds * 1000, answered: false };
      });
      break;
    case 'undo_result':
      update((s) => {
        s.undo = null;
        const name = seatName(s, msg.seat);
        if (msg.outcome === 'done') {
          notify(s, msg.seat === s.seat ? t('undo.done_self') : t('undo.done_other', { name }), 'success');
        } else if (msg.seat === s.seat || msg.by === s.seat) {
          const by = msg.by != null ? seatName(s, msg.by) : '';
          notify(s, t(`undo.${msg.outcome}`, { name: by }), 'info');
        }
      });
      break;
    case 'chat':
      update((s) => {
        // Each line carries its number in the room (a report names its line by it).
        s.chat = [...s.chat, { n: msg.n, from: msg.from, text: msg.text, at: msg.at }];
        if (s.chat.length > MAX_CHAT) {
          s.chat = s.chat.slice(-MAX_CHAT);
          s.chatMore = null; // what was before is out of reach anyway
        }
      });
      break;
    case 'chat_log':
      update((s) => {
        s.chat = msg.lines.slice(-MAX_CHAT);
        // The latest lines that fit the server's page; the earlier ones on request.
        s.chatMore = msg.first != null && msg.oldest != null && msg.oldest < msg.first
          ? { oldest: msg.oldest, first: msg.first }
          : null;
      });
      break;
    case 'rating_changed':
      update((s) => {
        s.ratingChanges = { room: s.roomId, changes: msg.changes };
      });
      break;
    case 'rematch':
      update((s) => {
        s.rematch = { from: s.roomId, room: msg.room, seat: msg.seat };
      });
      break;
    case 'removed':
      if (msg.room === state.roomId) {
        // The host took us out before the start: the seat is gone, and so is the room.
        dropLog(msg.room);
        forgetSeat(msg.room);
        storeSeat(null);
        resetRoom();
        update((s) => {
          notify(s, t('wait.removed'), 'info');
        });
        refreshRooms();
      }
      break;
    case 'invited':
      onInvited(msg);
      break;
    case 'hint':
      hintArrived(msg);
      break;
    case 'error':
      if (msg.code === 'hint_unavailable') hintFailed();
      showError(msg);
      break;
    default:
      // Automatch frames (automatch.js); messages of a later protocol version are ignored.
      onMatchMessage(msg);
      break;
  }
}

/** @param {import('./store.js').State} s @param {import('./types.js').GameView} view */
function setView(s, view) {
  s.view = view;
  setEdition(view.edition);
  setCurrentCosts(view.supply);
  if (s.decision && (view.decision !== s.decision.decision || view.waiting_for !== s.seat)) {
    s.decision = null;
  }
}
