// Browser tests of what players do around the game: chat in the waiting room and at the
// table (shown as text), the invite link, the host's bots, the kingdom's texts, leaving
// a game (asked first), resuming from the lobby, the whole log after a reload and for a
// late spectator, grouped Treasure lines, and the lobby's recent games.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { enterLobby, createRoom, endPhase, startGame, waitPast } from '../lib/play.mjs';
import { startServer } from '../lib/server.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;

/** @param {{rec: {invalid: string[], errors: string[]}}} p @param {RegExp} [allowErrors] */
function assertClean({ rec }, allowErrors) {
  assert.deepEqual(rec.invalid, [], 'every frame matches the protocol schema');
  const errors = allowErrors ? rec.errors.filter((e) => !allowErrors.test(e)) : rec.errors;
  assert.deepEqual(errors, [], 'no console errors');
}

/** @param {import('playwright-core').Page} page @param {string} name */
async function screenshot(page, name) {
  await page.screenshot({ path: path.join(ARTIFACTS, name), fullPage: true });
}

const PHONE = { width: 375, height: 740 };

/** @param {import('playwright-core').Page} page */
async function noHorizontalOverflow(page) {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: /** @type {Element} */ (document.scrollingElement).scrollWidth,
    inner: window.innerWidth,
  }));
  assert.ok(scroll <= inner, `page is ${scroll}px wide in a ${inner}px viewport`);
}

/** Waits until `cond()` holds (checked every 50 ms, for at most 10 s). @param {() => boolean} cond */
async function until(cond) {
  const deadline = Date.now() + 10000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${cond}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The last message of a type a page received. @param {any[]} frames @param {string} type */
function last(frames, type) {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].type === type) return frames[i];
  return undefined;
}

/**
 * Plays a whole game against a `big_money` bot over the page's own WebSocket (no UI):
 * Treasures, then Province, Gold or Silver. Returns the room id.
 * @param {import('playwright-core').Page} page @param {string} name
 */
async function playSocketGame(page, name) {
  return page.evaluate(
    (name) =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://${location.host}/ws`);
        let id = 0;
        let room = '';
        const send = (/** @type {any} */ m) => ws.send(JSON.stringify({ ...m, id: ++id }));
        ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', protocol: 1 }));
        ws.onmessage = (ev) => {
          const m = JSON.parse(ev.data);
          if (m.type === 'welcome') {
            send({ type: 'create_room', settings: { kingdom: { type: 'recommended', id: 'base_2e/first_game' }, seats: [{ type: 'open' }, { type: 'bot', bot: 'big_money' }] } });
          } else if (m.type === 'room_created') {
            room = m.room.id;
            send({ type: 'take_seat', room, name });
          } else if (m.type === 'seated') {
            id = Math.max(id, m.last_command);
            send({ type: 'start' });
          } else if (m.type === 'decision') {
            const p = m.prompt;
            let reply = { type: 'end_phase' };
            if (p.kind === 'buy_phase') {
              const want = ['province', 'gold', 'silver'].find((c) => p.buyable.includes(c));
              if (p.treasures.length) reply = { type: 'play_all_treasures' };
              else if (want) reply = { type: 'buy', card: want };
            } else if (p.kind === 'choose_cards') {
              reply = { type: 'cards', cards: p.options.slice(0, p.min) };
            }
            send({ type: 'reply', decision: m.decision, reply });
          } else if (m.type === 'game_over') {
            ws.close();
            resolve(room);
          } else if (m.type === 'error') {
            reject(new Error(JSON.stringify(m)));
          }
        };
      }),
    name,
  );
}

before(async () => {
  server = await startServer();
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
  await server?.stop();
});

describe('chat, seats, leaving, history', { timeout: 600000 }, () => {
  test('the waiting room: invite link, the host puts bots in seats, the kingdom with its texts, chat as text in the room and the game', async () => {
    const anna = await openPage(chrome.browser);
    await enterLobby(anna.page, server.url, 'Anna');
    await createRoom(anna.page, { players: 3, seats: ['', '', 'big_money'] });
    const room = last(anna.rec.received, 'seated').room;
    // No name given: the server names the room by its host and kingdom.
    await anna.page.waitForFunction(() => document.querySelector('#wait-h')?.textContent === 'Anna — First Game');
    // The kingdom, each card with its text.
    const cellar = await anna.page.getByTestId('wait-card-cellar').textContent();
    assert.match(cellar ?? '', /Cellar.*Discard any number of cards/);
    assert.equal(await anna.page.locator('[data-testid^="wait-card-"]').count(), 10);
    // The host's seat controls: open the bot's seat, then put a Smithy bot back.
    const seat2 = () => last(anna.rec.received, 'room')?.room.seats[2].occupant;
    await anna.page.getByTestId('wait-seat-select-2').selectOption('');
    await until(() => seat2()?.type === 'empty');
    await anna.page.getByTestId('wait-seat-select-2').selectOption('smithy');
    await until(() => seat2()?.bot === 'smithy');
    assert.equal(await anna.page.getByTestId('wait-seat-select-2').inputValue(), 'smithy');
    assert.deepEqual(last(anna.rec.sent, 'set_seat'), { type: 'set_seat', id: last(anna.rec.sent, 'set_seat').id, seat: 2, occupant: { type: 'bot', bot: 'smithy' } });
    assert.equal(await anna.page.getByTestId('wait-seat-select-1').count(), 1, 'an open seat can get a bot');
    assert.equal(await anna.page.getByTestId('wait-seat-select-0').count(), 0, "a player's seat cannot");

    // Bob opens the invite link: it offers the free seat.
    const link = await anna.page.getByTestId('invite-link').inputValue();
    assert.equal(link, `${server.url}/#room=${room}`);
    // Bob is on a phone, in Swedish.
    const bob = await openPage(chrome.browser, { locale: 'sv-SE', viewport: PHONE, hasTouch: true, isMobile: true });
    await bob.page.goto(link);
    await bob.page.waitForSelector('[data-testid=conn-status][data-status=online]');
    await bob.page.getByTestId('name-input').fill('Bob');
    await bob.page.waitForSelector('[data-testid=invite-offer]');
    // The room's name as the client composes it, in Bob's language.
    assert.match(await bob.page.getByTestId('invite-offer').textContent() ?? '', /Anna — Första spelet/);
    await bob.page.getByTestId('invite-take').click();
    await bob.page.waitForSelector('[data-testid=waiting-room]');
    assert.equal(last(bob.rec.received, 'seated').seat, 1);
    assert.equal(await bob.page.evaluate(() => location.hash), '', 'the invite is used up');
    assert.equal(await bob.page.locator('[data-testid^="wait-seat-select-"]').count(), 0, 'only the host changes seats');
    assert.match(await bob.page.getByTestId('wait-seat-2').textContent() ?? '', /Smithy-strategi/);
    assert.match(await bob.page.getByTestId('wait-seat-0').textContent() ?? '', /Anna — värd/);
    await noHorizontalOverflow(bob.page);

    // Chat, with markup that must stay text.
    const evil = '<img src=x onerror="window.pwned=1"> hej <b>Anna</b>';
    await bob.page.getByTestId('chat-input').fill(evil);
    await bob.page.getByTestId('chat-send').click();
    await anna.page.waitForFunction(() => document.querySelector('[data-testid="chat-lines"]')?.textContent?.includes('hej'));
    const shown = await anna.page.getByTestId('chat-lines').evaluate((el) => ({ text: el.textContent, imgs: el.querySelectorAll('img, b').length }));
    assert.ok(shown.text?.includes(evil), `shown as written: ${shown.text}`);
    assert.equal(shown.imgs, 0, 'no element made from a message');
    assert.equal(await anna.page.evaluate(() => /** @type {any} */ (window).pwned), undefined);
    assert.equal(await bob.page.getByTestId('chat-input').inputValue(), '', 'the sent line is cleared');
    await anna.page.getByTestId('chat-input').fill('Välkommen, Bob! 🙂');
    await anna.page.getByTestId('chat-input').press('Enter');
    await bob.page.waitForFunction(() => document.querySelector('[data-testid="chat-lines"]')?.textContent?.includes('Välkommen'));
    await screenshot(anna.page, 'waiting-room.png');

    // A spectator of a room without spectator chat sees no chat.
    const eve = await openPage(chrome.browser);
    await enterLobby(eve.page, server.url, 'Eve');
    await eve.page.getByTestId(`watch-${room}`).click();
    await eve.page.waitForSelector('[data-testid=waiting-room]');
    assert.equal(await eve.page.getByTestId('chat').count(), 0);
    assert.equal(last(eve.rec.sent, 'spectate').name, 'Eve');

    // In the game the chat goes on beside the table, with what was said before.
    await startGame(anna.page);
    await bob.page.waitForSelector('[data-testid=table]');
    await anna.page.waitForSelector('[data-testid=table] [data-testid=chat]');
    // On the phone the chat is one of the tabs below the table.
    await bob.page.getByTestId('tab-chat').click();
    await bob.page.waitForSelector('[data-testid=table] [data-testid=chat]');
    await noHorizontalOverflow(bob.page);
    assert.match(await anna.page.getByTestId('chat-lines').textContent() ?? '', /hej.*Välkommen/s);
    // Bob's budget (5 lines per 10 s) refills fully first, whatever he wrote in the
    // waiting room: the burst below then hits the limit exactly at its sixth line.
    await bob.page.waitForTimeout(10_500);
    await bob.page.getByTestId('chat-input').fill('lycka till');
    await bob.page.getByTestId('chat-send').click();
    await anna.page.waitForFunction(() => document.querySelector('[data-testid="chat-lines"]')?.textContent?.includes('lycka till'));
    // Too fast: the sixth line within 10 s is refused with a notice, and nothing closes.
    for (let i = 0; i < 4; i++) {
      await bob.page.getByTestId('chat-input').fill(`rad ${i}`);
      await bob.page.getByTestId('chat-send').click();
      await bob.page.waitForFunction((i) => document.querySelector('[data-testid="chat-lines"]')?.textContent?.includes(`rad ${i}`), i);
    }
    await bob.page.getByTestId('chat-input').fill('för snabbt');
    await bob.page.getByTestId('chat-send').click();
    await bob.page.waitForSelector('[data-testid=notice]');
    assert.match(await bob.page.getByTestId('notice').textContent() ?? '', /för snabbt: vänta/);
    assert.equal(await bob.page.getByTestId('chat-input').inputValue(), 'för snabbt', 'the refused line is kept to send again');
    assert.equal(await bob.page.getByTestId('conn-status').getAttribute('data-status'), 'online');
    await screenshot(anna.page, 'chat.png');
    for (const p of [anna, bob, eve]) {
      assertClean(p);
      await p.context.close();
    }
  });

  test('the host removes a player before the start: the player is told, back in the lobby, and kept out', async () => {
    const anna = await openPage(chrome.browser);
    await enterLobby(anna.page, server.url, 'Anna');
    await createRoom(anna.page, { players: 2, seats: ['', ''] });
    const room = last(anna.rec.received, 'seated').room;
    const link = await anna.page.getByTestId('invite-link').inputValue();
    // Bob reads Hungarian.
    const bob = await openPage(chrome.browser, { locale: 'hu-HU' });
    await bob.page.goto(link);
    await bob.page.waitForSelector('[data-testid=conn-status][data-status=online]');
    await bob.page.getByTestId('name-input').fill('Bob');
    await bob.page.waitForSelector('[data-testid=invite-offer]');
    await bob.page.getByTestId('invite-take').click();
    await bob.page.waitForSelector('[data-testid=waiting-room]');
    assert.equal(await bob.page.locator('[data-testid^="wait-remove-"]').count(), 0, 'only the host removes');
    // The host's button names whom it removes.
    const remove = anna.page.getByTestId('wait-remove-1');
    await remove.waitFor();
    assert.equal(await remove.getAttribute('aria-label'), 'Remove Bob from this room');
    assert.equal(await anna.page.getByTestId('wait-remove-0').count(), 0, 'not the host themself');
    await remove.click();
    assert.deepEqual(last(anna.rec.sent, 'remove').who, { type: 'seat', seat: 1 });
    await until(() => last(anna.rec.received, 'room')?.room.seats[1].occupant.type === 'empty');
    // Bob is told in his language and is back in the lobby.
    await bob.page.waitForSelector('[data-testid=lobby]');
    assert.equal(last(bob.rec.received, 'removed').room, room);
    assert.match(await bob.page.getByTestId('notice').textContent() ?? '', /házigazda eltávolított/);
    // Back through the link: refused, with the reason.
    await bob.page.goto(`${server.url}/#room=${room}`);
    await bob.page.reload();
    await bob.page.waitForSelector('[data-testid=conn-status][data-status=online]');
    await bob.page.getByTestId('name-input').fill('Robert');
    await bob.page.waitForSelector('[data-testid=invite-offer]');
    await bob.page.getByTestId('invite-take').click();
    await bob.page.waitForSelector('[data-testid=notice]');
    assert.match(await bob.page.getByTestId('notice').textContent() ?? '', /eltávolított onnan/);
    assert.equal(last(bob.rec.received, 'error').code, 'removed_by_host');
    for (const p of [anna, bob]) {
      assertClean(p);
      await p.context.close();
    }
  });

  test('leaving a game asks first; the lobby lists the unfinished game and resumes it, with the whole log', async () => {
    const p = await openPage(chrome.browser);
    await enterLobby(p.page, server.url, 'Anna');
    await createRoom(p.page, { players: 2, seats: ['', 'big_money'] });
    const room = last(p.rec.received, 'seated').room;
    await startGame(p.page);
    await p.page.waitForSelector('[data-testid=decision]');
    // Leave → the dialog; Stay keeps the game; Escape too.
    await p.page.getByTestId('leave-room').click();
    await p.page.waitForSelector('[data-testid=leave-dialog]');
    assert.match(await p.page.getByTestId('leave-dialog').textContent() ?? '', /A bot will play your seat/);
    await p.page.getByTestId('leave-stay').click();
    assert.equal(await p.page.getByTestId('leave-dialog').count(), 0);
    assert.equal(last(p.rec.sent, 'leave'), undefined, 'nothing was sent');
    await p.page.getByTestId('leave-room').click();
    await p.page.keyboard.press('Escape');
    assert.equal(await p.page.getByTestId('leave-dialog').count(), 0);
    await p.page.getByTestId('leave-room').click();
    await p.page.getByTestId('leave-confirm').click();
    await p.page.waitForSelector('[data-testid=lobby]');
    assert.ok(last(p.rec.sent, 'leave'));
    // The lobby offers the game back; the bot plays meanwhile.
    await p.page.waitForSelector(`[data-testid=resume-game-${room}]`);
    await p.page.waitForFunction((room) => document.querySelector(`[data-testid=room-${room}]`)?.textContent?.includes('bot is playing'), room);
    await p.page.getByTestId(`resume-game-${room}`).click();
    await p.page.waitForSelector('[data-testid=table]');
    const resume = last(p.rec.sent, 'resume');
    assert.equal(resume.room, room);
    // Its log was dropped on leaving: the whole game comes back by history.
    await p.page.waitForFunction(() => document.querySelector('[data-testid="log"]')?.textContent?.includes('The game begins.'));
    assert.ok(p.rec.sent.some((m) => m.type === 'history' && m.from === 0), 'history asked from the start');
    // A reload with nothing stored fetches it again.
    await p.page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('dominion.log.')).forEach((k) => localStorage.removeItem(k)));
    await p.page.reload();
    await p.page.waitForSelector('[data-testid=table]');
    await p.page.waitForFunction(() => document.querySelector('[data-testid="log"]')?.textContent?.includes('The game begins.'));
    assertClean(p);
    await p.context.close();
  });

  test('a spectator arriving mid-game gets the whole log; repeated Treasures are one line in every language', async () => {
    const anna = await openPage(chrome.browser);
    await enterLobby(anna.page, server.url, 'Anna');
    await createRoom(anna.page, { players: 2, seats: ['', 'big_money'] });
    const room = last(anna.rec.received, 'seated').room;
    await startGame(anna.page);
    // A few turns: play all Treasures, buy nothing, end the turn.
    // In the first turn one Copper is played alone before the rest, so its line is
    // extended by a later frame (log.js keeps the older lines and rebuilds only this one).
    let n = -1;
    let single = false;
    for (let turns = 0; turns < 4; ) {
      await waitPast(anna.page, n);
      const d = last(anna.rec.received, 'decision');
      n = d.decision;
      if (d.prompt.kind === 'buy_phase' && d.prompt.treasures.length) {
        const coppers = anna.page.locator('[data-testid=hand] .card.enabled[data-card=copper]');
        if (!single && (await coppers.count()) >= 2) {
          single = true;
          await coppers.first().click();
        } else {
          await anna.page.getByTestId('play-all').click();
        }
      } else {
        await endPhase(anna.page);
        if (d.prompt.kind === 'buy_phase') turns++;
      }
    }
    await waitPast(anna.page, n);
    assert.ok(single, 'a Copper was played alone');
    // The log as it grew, frame by frame (older lines kept, not rebuilt).
    const grown = await anna.page.getByTestId('log').innerText();
    const grouped = await anna.page.locator('[data-testid=log] li', { hasText: /Anna plays \d Treasures: / }).first().textContent();
    assert.match(grouped ?? '', /^Anna plays ([2-5]) Treasures: (\d × )?Copper/);
    assert.equal(await anna.page.locator('[data-testid=log] li', { hasText: /^Anna plays Copper\.$/ }).count(), 0, 'no line per Copper');
    // Russian has three plural forms, Hungarian the singular after numbers.
    const line = async (/** @type {string} */ lang) => {
      await anna.page.getByTestId('lang-select').selectOption(lang);
      return (await anna.page.locator('[data-testid=log] li.lk-play').allTextContents()).filter((t) => /\d/.test(t));
    };
    const ru = await line('ru');
    assert.ok(ru.some((t) => /играет (5 сокровищ|[234] сокровища):/.test(t)), ru.join('\n'));
    const hu = await line('hu');
    assert.ok(hu.some((t) => /kijátszik [2-5] kincset:/.test(t)), hu.join('\n'));
    const sv = await line('sv');
    assert.ok(sv.some((t) => /spelar [2-5] skatter:/.test(t)), sv.join('\n'));
    await anna.page.getByTestId('lang-select').selectOption('en');
    // Built again from nothing in another language and back, it reads the same.
    assert.equal(await anna.page.getByTestId('log').innerText(), grown, 'the log grown a frame at a time is the log built at once');

    // A spectator now: a snapshot, then the history before it; its log starts at the start.
    const eve = await openPage(chrome.browser);
    await enterLobby(eve.page, server.url, 'Eve');
    await eve.page.getByTestId(`watch-${room}`).click();
    await eve.page.waitForSelector('[data-testid=table]');
    await eve.page.waitForFunction(() => document.querySelector('[data-testid="log"]')?.textContent?.includes('The game begins.'));
    const snapshot = last(eve.rec.received, 'snapshot');
    const pages = eve.rec.received.filter((m) => m.type === 'history');
    assert.equal(pages.reduce((n, m) => n + m.events.length, 0), snapshot.next_event, 'every event before the snapshot');
    // No hidden card reached the spectator: nobody's draws carry cards.
    for (const m of pages) {
      for (const e of m.events) {
        if (e.type === 'drew' || (e.type === 'discarded' && e.private)) assert.equal(e.cards, undefined, JSON.stringify(e));
      }
    }
    const annaLines = await anna.page.locator('[data-testid=log] li').allTextContents();
    const eveLines = await eve.page.locator('[data-testid=log] li').allTextContents();
    assert.equal(eveLines[0], annaLines[0]);
    assert.ok(eveLines.length >= 20, `${eveLines.length} lines`);
    for (const p of [anna, eve]) {
      assertClean(p);
      await p.context.close();
    }
  });

  test('the lobby hides finished rooms and lists recent games with players, scores and a replay link', async () => {
    const player = await openPage(chrome.browser);
    await player.page.goto(server.url);
    await player.page.waitForSelector('[data-testid=conn-status][data-status=online]');
    const room = await playSocketGame(player.page, 'Zoé');
    const p = await openPage(chrome.browser);
    await enterLobby(p.page, server.url, 'Anna');
    // Zoé's game is not Anna's: it is among the others' games, folded away until asked for.
    await p.page.getByTestId('recent-others-toggle').click();
    await p.page.waitForSelector(`[data-testid=recent-${room}]`);
    const rooms = await (await fetch(`${server.url}/api/rooms`)).json();
    assert.equal(rooms.find((/** @type {any} */ r) => r.id === room)?.status, 'finished', 'the room is still there, finished');
    assert.equal(await p.page.getByTestId(`room-${room}`).count(), 0, 'but not among the rooms to join');
    const games = await (await fetch(`${server.url}/api/games`)).json();
    const game = games.find((/** @type {any} */ g) => g.room === room);
    const text = await p.page.getByTestId(`recent-${room}`).textContent();
    assert.match(text ?? '', /Zoé/);
    assert.match(text ?? '', /Big Money bot/);
    for (const s of game.scores) assert.ok(text?.includes(String(s.vp)), `score ${s.vp} in ${text}`);
    assert.match(text ?? '', /Cellar, Moat/);
    assert.equal(await p.page.getByTestId(`replay-${room}`).getAttribute('href'), `/replay/${room}`);
    await screenshot(p.page, 'lobby-recent.png');
    for (const x of [player, p]) {
      assertClean(x);
      await x.context.close();
    }
  });
});
