// Boots the client: language, card data, server metadata, the session, and one render
// of the whole page after every state change (patched in place, see dom.js).
import { h, patch } from './dom.js';
import { loadCards } from './cards.js';
import { loadMeta } from './api.js';
import { infoDialog, showInfo } from './cardview.js';
import { chatAtBottom, scrollChat } from './chat.js';
import { confirm, secondsLeft } from './decision.js';
import { leaveDialog } from './leave.js';
import { LANGUAGES, initialLang, setLang, t } from './i18n/index.js';
import { defaultCreateForm, lobbyView, rememberedName } from './lobby.js';
import { replayId, replayView, startReplay } from './replay.js';
import { accountDialogShown, authDialog, checkMe, reportDialog } from './account.js';
import { profileName, profileView, startProfile } from './profile.js';
import { invitedNotices, loadFriends, startFriends } from './friends.js';
import { matchOverlay } from './automatch.js';
import { isLeaderboard, leaderboardView, startLeaderboard } from './leaderboard.js';
import { answer, requestUndo, retryNow, startSession, takeBack } from './session.js';
import { confirmingEnd, continuePendingBuy, endPhase } from './buying.js';
import { settingsButton, settingsDialog, settingsShown, toggleSettings } from './settings.js';
import { canUndo } from './undo.js';
import { askHint, canHint } from './hint.js';
import { deckDialog, deckShown, toggleDeck } from './deck.js';
import { busy, state, subscribe, update, notify } from './store.js';
import { autoplayTreasures, drawerOpen, focusSupply, helpDialog, helpShown, openDrawer, playableInHand, tableView, toggleHelp } from './table.js';

function connIndicator() {
  const s = state.conn;
  let text;
  let cls;
  let action = null;
  if (s === 'online') {
    text = t('conn.online');
    cls = 'ok';
  } else if (s === 'connecting') {
    text = state.retryAt ? t('conn.retrying') : t('conn.connecting');
    cls = state.retryAt ? 'down' : 'wait';
  } else if (s === 'down') {
    const secs = Math.max(0, Math.ceil((state.retryAt - Date.now()) / 1000));
    text = secs > 0 ? t('conn.down', { s: secs }) : t('conn.retrying');
    cls = 'down';
    action = h('button', { type: 'button', class: 'btn small', 'data-testid': 'retry-now', onclick: () => retryNow() }, t('conn.retry_now'));
  } else if (s === 'replaced') {
    text = t('conn.replaced');
    cls = 'down';
    action = h('button', { type: 'button', class: 'btn small', 'data-testid': 'take-back', onclick: () => takeBack() }, t('conn.take_back'));
  } else {
    text = t('conn.unsupported');
    cls = 'down';
  }
  return h(
    'div',
    { class: ['conn', `conn-${cls}`], role: 'status', 'data-testid': 'conn-status', 'data-status': s },
    h('span', { class: 'conn-dot', 'aria-hidden': 'true' }, cls === 'ok' ? '●' : cls === 'wait' ? '◌' : '⚠'),
    ' ',
    h('span', { class: 'conn-text' }, text),
    action ? [' ', action] : null,
  );
}

function header() {
  return h(
    'header',
    { class: 'top' },
    h('a', { class: 'skip', href: '#main' }, t('app.skip')),
    h('span', { class: 'brand' }, t('app.title')),
    replayId() || profileName() || isLeaderboard() ? null : connIndicator(),
    replayId() || profileName() || isLeaderboard() ? null : settingsButton(),
    h(
      'label',
      { class: 'lang' },
      h('span', { class: 'visually-hidden' }, t('app.language')),
      h(
        'select',
        {
          'data-testid': 'lang-select',
          'aria-label': t('app.language'),
          value: document.documentElement.lang,
          onchange: (/** @type {any} */ e) => {
            setLang(e.target.value);
            update();
          },
        },
        LANGUAGES.map((l) => h('option', { value: l.code, lang: l.code }, l.label)),
      ),
    ),
  );
}

function notice() {
  if (!state.notice) return null;
  const kind = state.noticeKind ?? 'error';
  // An error interrupts; information and success are announced politely.
  return h(
    'div',
    { class: ['notice', `notice-${kind}`], role: kind === 'error' ? 'alert' : 'status', 'data-testid': 'notice', 'data-kind': kind },
    h('span', { class: 'notice-mark', 'aria-hidden': 'true' }, kind === 'error' ? '⚠' : kind === 'success' ? '✓' : 'ℹ'),
    h('span', {}, state.notice),
    h('button', { type: 'button', class: 'btn small', 'aria-label': t('common.close'), onclick: () => update((s) => {
      s.notice = null;
    }) }, '×'),
  );
}

function view() {
  return [
    header(),
    notice(),
    invitedNotices(),
    replayId() ? null : matchOverlay(),
    h('main', { id: 'main', tabindex: -1 }, replayId() ? replayView() : profileName() ? profileView() : isLeaderboard() ? leaderboardView() : state.roomId ? tableView() : lobbyView()),
    state.roomId && !replayId() ? helpDialog() : null,
    infoDialog(),
    leaveDialog(),
    settingsDialog(),
    state.roomId && !replayId() ? deckDialog() : null,
    authDialog(),
    reportDialog(),
  ];
}

const app = /** @type {HTMLElement} */ (document.getElementById('app'));
let lastDecision = -1;
/** The screen shown last (lobby, waiting room, table, end, replay): a new one opens at its top. */
let lastScreen = '';

function screen() {
  if (replayId()) return 'replay';
  if (profileName()) return 'profile';
  if (isLeaderboard()) return 'leaderboard';
  if (!state.roomId) return 'lobby';
  if (!state.view) return 'waiting';
  return state.view.game_over ? 'end' : 'table';
}

function render() {
  const active = document.activeElement;
  const log = app.querySelector('[data-testid="log"]');
  const atBottom = !log || log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const chatBottom = chatAtBottom(app);
  patch(app, view());
  const now = screen();
  if (now !== lastScreen) {
    lastScreen = now;
    window.scrollTo(0, 0);
  }
  scrollChat(app, chatBottom);
  const logAfter = app.querySelector('[data-testid="log"]');
  if (logAfter && atBottom) {
    // Kept at its newest line, now and once the layout has settled (a panel beside it may
    // change its height in the same frame).
    logAfter.scrollTop = logAfter.scrollHeight;
    requestAnimationFrame(() => {
      logAfter.scrollTop = logAfter.scrollHeight;
    });
  }
  document.title = state.decision ? `● ${t('app.title')}` : t('app.title');
  // A new decision: when focus was lost (the clicked control went away), move it to
  // the decision's first control so keyboard players can go on.
  const d = state.decision?.decision ?? -1;
  if (d !== lastDecision) {
    lastDecision = d;
    if (d >= 0 && (!document.activeElement || document.activeElement === document.body || !app.contains(active))) {
      // A question about the hand's cards starts at the first card offered in the hand.
      const first =
        app.querySelector('[data-testid=hand] [data-testid^="option-"]') ??
        app.querySelector('[data-testid="decision"] button:not([disabled]), [data-testid="decision"] select');
      if (first instanceof HTMLElement) first.focus({ preventScroll: true });
    }
  }
  // A dialog (card details, keyboard help) takes the focus while it is open.
  const modal = [...app.querySelectorAll('.modal')].pop();
  if (modal && !modal.contains(document.activeElement)) {
    const modalBtn = modal.querySelector('[data-autofocus]');
    if (modalBtn instanceof HTMLElement) modalBtn.focus();
  }
  // A pile clicked before the Treasures were played: buy it now they are.
  continuePendingBuy();
  // The Buy phase starts with every Treasure played, when the person chose so.
  autoplayTreasures();
  // The "end turn with money left?" question takes the focus (its safe answer).
  if (confirmingEnd() && !app.querySelector('[data-testid=decision]')?.contains(document.activeElement)) {
    const keep = app.querySelector('[data-testid=end-turn-cancel]');
    if (keep instanceof HTMLElement) keep.focus({ preventScroll: true });
  }
}

function onKey(/** @type {KeyboardEvent} */ e) {
  const target = /** @type {HTMLElement} */ (e.target);
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (target.closest('input, select, textarea')) return;
  if (settingsShown()) {
    if (e.key === 'Escape') toggleSettings(false);
    return;
  }
  if (accountDialogShown()) return;
  if (deckShown()) {
    if (e.key === 'Escape') toggleDeck(false);
    return;
  }
  if (e.key === 'Escape' && (state.info || state.confirmLeave)) {
    update((s) => {
      s.info = null;
      s.confirmLeave = false;
    });
    return;
  }
  if (state.confirmLeave) return;
  if (!state.view) return;
  // At the table (see the help, `?`): keys that need no pending decision.
  if (e.key === 'Escape' && (helpShown() || drawerOpen())) {
    if (helpShown()) toggleHelp(false);
    else openDrawer(null);
    return;
  }
  if (e.key === '?') {
    e.preventDefault();
    toggleHelp();
    return;
  }
  if (helpShown() || state.info) return;
  const key = e.key.toLowerCase();
  if (key === 'b' && !state.spectating) {
    e.preventDefault();
    focusSupply();
    return;
  }
  if (key === 'i') {
    // The details of the focused card or pile.
    const card = target.closest('[data-card]')?.getAttribute('data-card');
    if (card) {
      e.preventDefault();
      showInfo(card);
    }
    return;
  }
  const d = state.decision;
  if (!d || busy()) return;
  const p = d.prompt;
  if (/^[1-9]$/.test(e.key) && (p.kind === 'action_phase' || p.kind === 'buy_phase')) {
    // The n-th card that can be played now, in hand order (numbered on the cards).
    const pick = playableInHand()[Number(e.key) - 1];
    if (pick) {
      e.preventDefault();
      answer({ type: 'play', card: pick.card });
    }
  } else if (key === 't' && p.kind === 'buy_phase' && p.treasures.length) {
    e.preventDefault();
    answer({ type: 'play_all_treasures' });
  } else if (key === 'e' && (p.kind === 'action_phase' || p.kind === 'buy_phase')) {
    e.preventDefault();
    endPhase();
  } else if (key === 'u' && d.seat === state.seat && !state.undo && canUndo()) {
    e.preventDefault();
    requestUndo();
  } else if (key === 'h' && canHint()) {
    e.preventDefault();
    askHint();
  } else if (e.key === 'Enter' && target === document.body) {
    e.preventDefault();
    confirm();
  }
}

async function boot() {
  setLang(initialLang(), false);
  Object.assign(state, {
    conn: 'connecting',
    retryAt: 0,
    name: rememberedName(),
    rooms: [],
    meta: { cards: [], sets: [], kingdoms: [], bots: [], levels: [] },
    create: defaultCreateForm(),
    roomId: null,
    room: null,
    seat: null,
    spectating: false,
    view: null,
    nextEvent: 0,
    events: [],
    decision: null,
    decisionAt: 0,
    selected: [],
    order: [],
    named: '',
    nameQuery: '',
    number: null,
    answered: null,
    sending: false,
    awaiting: false,
    confirmEnd: null,
    result: null,
    notice: null,
    noticeKind: 'error',
    info: null,
    hover: null,
    undo: null,
    chat: [],
    chatMore: null,
    chatDraft: '',
    games: [],
    invite: null,
    copied: null,
    confirmLeave: false,
    logAll: false,
    logFilter: 'all',
    roomsLoaded: false,
    rematch: null,
    ratingChanges: null,
  });
  subscribe(render);
  document.addEventListener('keydown', onKey);
  try {
    await loadCards();
  } catch {
    /* names fall back to ids */
  }
  render();
  if (replayId()) startReplay();
  else if (profileName()) startProfile();
  else if (isLeaderboard()) startLeaderboard();
  else {
    startSession();
    checkMe().then(() => loadFriends());
    startFriends();
  }
  loadMeta()
    .then((meta) => update((s) => {
      s.meta = meta;
      if (meta.bots.length && !meta.bots.includes(s.create.seats[1])) {
        // The card-aware level by default; a server without levels gets Big Money.
        const preferred = ['standard', 'big_money'].find((b) => meta.bots.includes(b)) ?? meta.bots[0];
        s.create.seats = s.create.seats.map((b, i) => (i === 0 ? '' : preferred));
      }
      if (!meta.kingdoms.some((k) => k.id === s.create.recommended) && meta.kingdoms[0]) s.create.recommended = meta.kingdoms[0].id;
    }))
    .catch(() => update((s) => {
      notify(s, t('err.network'));
    }));
  // Countdowns (reconnect, decision deadline) tick once a second.
  setInterval(() => {
    if (state.conn === 'down' || secondsLeft() != null || state.undo) update();
  }, 1000);
}

boot();
