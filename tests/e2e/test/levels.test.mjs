// The three bot levels in the lobby, against the real server (`--bot-think-ms 5`, so the
// searching bot answers quickly): the seat choice offers the levels first, in a group of
// their own named in the page's language, the reference bots after them in a second
// group; and a game against each level is created and played to the end through the
// page, the level's name shown for its seat. Screenshot: lobby-levels-<lang>.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from '../lib/browser.mjs';
import { Policy, createRoom, enterLobby, playToEnd, startGame } from '../lib/play.mjs';
import { startServer } from '../lib/server.mjs';
import en from '../../../web-client/src/i18n/en.js';
import hu from '../../../web-client/src/i18n/hu.js';
import ru from '../../../web-client/src/i18n/ru.js';
import sv from '../../../web-client/src/i18n/sv.js';

const LEVELS = ['easy', 'standard', 'search'];
/** @type {Record<string, {locale: string, strings: Record<string, any>}>} */
const LANGS = {
  en: { locale: 'en-US', strings: en },
  hu: { locale: 'hu-HU', strings: hu },
  ru: { locale: 'ru-RU', strings: ru },
  sv: { locale: 'sv-SE', strings: sv },
};

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;

before(async () => {
  server = await startServer(['--bot-think-ms', '5']);
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
  await server?.stop();
});

/** @param {{rec: {invalid: string[], errors: string[]}}} p */
function assertClean(p) {
  assert.deepEqual(p.rec.invalid, [], 'every frame matches the protocol schema');
  assert.deepEqual(p.rec.errors, [], 'no console errors');
}

describe('bot levels', { timeout: 900000 }, () => {
  test('the server names its levels, weakest first', async () => {
    const res = await fetch(`${server.url}/api/bot-levels`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), LEVELS);
  });

  for (const [lang, { locale, strings }] of Object.entries(LANGS)) {
    test(`the lobby offers the three levels first, in ${lang}`, async () => {
      const p = await openPage(chrome.browser, { locale });
      const { page } = p;
      await enterLobby(page, server.url, 'Lea');
      assert.equal(await page.getByTestId('lang-select').inputValue(), lang);
      const select = page.getByTestId('seat-select-1');
      await select.locator('optgroup').first().waitFor({ state: 'attached' });
      const groups = await select.locator('optgroup').evaluateAll((els) =>
        els.map((g) => ({
          label: g.getAttribute('label'),
          options: [...g.querySelectorAll('option')].map((o) => ({ value: o.value, text: o.textContent })),
        })),
      );
      assert.equal(groups.length, 2);
      assert.equal(groups[0].label, strings['create.bot_levels']);
      assert.deepEqual(
        groups[0].options,
        LEVELS.map((b) => ({ value: b, text: strings[`bot.${b}`] })),
      );
      assert.equal(groups[1].label, strings['create.reference_bots']);
      const reference = groups[1].options.map((o) => o.value);
      assert.ok(reference.includes('big_money') && reference.includes('witch'), `${reference}`);
      assert.ok(!reference.some((b) => LEVELS.includes(b)), 'a level is not listed twice');
      // The open seat comes first; the card-aware level is the default bot.
      const values = await select.locator('option').evaluateAll((els) => els.map((o) => /** @type {HTMLOptionElement} */ (o).value));
      assert.deepEqual(values.slice(0, 4), ['', ...LEVELS]);
      assert.equal(await select.inputValue(), 'standard');
      await page.screenshot({ path: path.join(ARTIFACTS, `lobby-levels-${lang}.png`) });
      assertClean(p);
      await p.context.close();
    });
  }

  for (const level of LEVELS) {
    test(`a game against the ${level} level is played to the end through the page`, { timeout: 300000 }, async () => {
      const p = await openPage(chrome.browser, { viewport: { width: 1366, height: 768 } });
      const { page } = p;
      await enterLobby(page, server.url, 'Lea');
      await createRoom(page, { seats: ['', level] });
      // The waiting room names the seat by its level.
      assert.match(await page.getByTestId('waiting-room').textContent() ?? '', new RegExp(en[`bot.${level}`].replace(/[()]/g, '\\$&')));
      await startGame(page);
      await playToEnd(page, new Policy());
      await page.waitForSelector('[data-testid=end-screen]');
      const over = [...p.rec.received].reverse().find((m) => m.type === 'game_over');
      assert.ok(over, 'the server announced the end');
      assert.ok(over.replies.some((/** @type {any} */ r) => r.seat === 1), 'the bot answered decisions');
      assert.match(await page.getByTestId('end-screen').textContent() ?? '', new RegExp(en[`bot.${level}`].replace(/[()]/g, '\\$&')));
      assertClean(p);
      await p.context.close();
    });
  }
});
