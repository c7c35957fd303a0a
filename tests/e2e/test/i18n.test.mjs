// Unit tests of the client's translations, run in Node (no browser needed; the server
// only answers which bots it has).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, startServer } from '../lib/server.mjs';
import en from '../../../web-client/src/i18n/en.js';
import hu from '../../../web-client/src/i18n/hu.js';
import ru from '../../../web-client/src/i18n/ru.js';
import sv from '../../../web-client/src/i18n/sv.js';
import { botLabel } from '../../../web-client/src/names.js';

const LANGS = { hu, ru, sv };
const CARDS = JSON.parse(fs.readFileSync(path.join(ROOT, 'web-client/data/cards.json'), 'utf8')).cards;

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

test('every language has exactly the English keys', () => {
  const keys = Object.keys(en).sort();
  for (const [lang, strings] of Object.entries(LANGS)) {
    const have = Object.keys(strings).sort();
    const missing = keys.filter((k) => !(k in strings));
    const extra = have.filter((k) => !(k in en));
    assert.deepEqual({ lang, missing, extra }, { lang, missing: [], extra: [] });
  }
});

test('every string keeps the parameters of the English one', () => {
  const params = (/** @type {any} */ v) =>
    [...new Set(JSON.stringify(v).match(/\{\w+\}/g) ?? [])].filter((p) => p !== '{n}').sort();
  for (const [lang, strings] of Object.entries(LANGS)) {
    for (const [key, value] of Object.entries(en)) {
      assert.deepEqual(params(strings[key]), params(value), `${lang} ${key}`);
    }
  }
});

test("plural entries cover each language's plural categories", () => {
  for (const [lang, strings] of Object.entries({ en, ...LANGS })) {
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const [key, value] of Object.entries(strings)) {
      assert.equal(typeof value === 'object', typeof en[key] === 'object', `${lang} ${key}: plural in one language only`);
      if (typeof value !== 'object') continue;
      for (const c of categories) assert.ok(c in value, `${lang} ${key} lacks the plural form "${c}"`);
    }
  }
});

test('no string is left empty or untranslated by accident', () => {
  const same = [];
  for (const [lang, strings] of Object.entries(LANGS)) {
    for (const [key, value] of Object.entries(strings)) {
      assert.match(JSON.stringify(value), /[\p{L}\p{N}]/u, `${lang} ${key} is empty`);
      if (JSON.stringify(value) === JSON.stringify(en[key]) && /[a-z]{4}/.test(JSON.stringify(value))) same.push(`${lang} ${key}`);
    }
  }
  // A few words are the same in English and Swedish (Lobby, Attack, Silver, Bot …).
  assert.ok(same.length < 12, `suspiciously many strings equal to English:\n${same.join('\n')}`);
});

test('every literal key the client looks up exists', () => {
  const src = path.join(ROOT, 'web-client/src');
  const missing = [];
  for (const f of fs.readdirSync(src).filter((x) => x.endsWith('.js'))) {
    const code = fs.readFileSync(path.join(src, f), 'utf8');
    for (const m of code.matchAll(/\bt\('([^'`]+)'/g)) if (!(m[1] in en)) missing.push(`${f}: ${m[1]}`);
  }
  assert.deepEqual(missing, []);
});

test("every bot the server offers has a name in every language, unlike any card's or other bot's", async () => {
  /** @type {string[]} */
  const bots = await (await fetch(`${server.url}/api/bots`)).json();
  assert.ok(bots.length >= 28, `the server has its bots: ${bots}`);
  const problems = [];
  for (const [lang, strings] of Object.entries({ en, ...LANGS })) {
    const cardNames = new Set(Object.values(CARDS).flatMap((c) => [c.names.en, c.names[lang]].flatMap((n) => (n && typeof n === 'object' ? Object.values(n) : [n]))));
    const seen = new Map();
    for (const bot of bots) {
      /** @type {any} */
      const name = strings[`bot.${bot}`];
      if (typeof name !== 'string' || !name.trim()) {
        problems.push(`${lang}: no name for the bot "${bot}"`);
        continue;
      }
      if (cardNames.has(name)) problems.push(`${lang} bot.${bot}: "${name}" is a card's name`);
      if (name.replace(/\s+/g, ' ').toLowerCase() === bot.replace(/_/g, ' ')) problems.push(`${lang} bot.${bot}: the raw id`);
      if (seen.has(name)) problems.push(`${lang}: bots ${seen.get(name)} and ${bot} are both "${name}"`);
      seen.set(name, bot);
    }
    // No name for a bot the server does not have (a renamed bot leaves none behind).
    for (const key of Object.keys(strings).filter((k) => k.startsWith('bot.'))) {
      if (!bots.includes(key.slice(4))) problems.push(`${lang} ${key}: no such bot`);
    }
  }
  assert.deepEqual(problems, []);
});

test('a bot is named by its string; an id the client does not know yet reads "Bot (id)"', () => {
  assert.equal(botLabel('militia'), 'Militia strategy bot');
  assert.equal(botLabel('big_money'), 'Big Money bot');
  assert.equal(botLabel('some_future_bot'), 'Bot (some future bot)');
});
