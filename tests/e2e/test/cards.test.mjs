// web-client/data/cards.json against the engine (the server's /api/cards): every card
// the engine has is described with the same cost, types, editions, set and English name,
// and has a rules text in every language for each edition it was printed in.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, startServer } from '../lib/server.mjs';

const CARDS = JSON.parse(fs.readFileSync(path.join(ROOT, 'web-client/data/cards.json'), 'utf8')).cards;

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

test("cards.json agrees with the engine's cards", async () => {
  /** @type {{id: string, name: string, cost: number, types: string[], kingdom: boolean, editions: string[], set?: string}[]} */
  const engine = await (await fetch(`${server.url}/api/cards`)).json();
  assert.ok(engine.length >= 33, `the engine has Base: ${engine.length} cards`);
  for (const c of engine) {
    const mine = CARDS[c.id];
    assert.ok(mine, `${c.id} is in cards.json`);
    assert.deepEqual(
      { cost: mine.cost, types: [...mine.types].sort(), editions: [...mine.editions].sort(), kingdom: mine.set !== 'basic', set: mine.set, en: mine.names.en },
      { cost: c.cost, types: [...c.types].sort(), editions: [...c.editions].sort(), kingdom: c.kingdom, set: c.set ?? 'basic', en: c.name },
      c.id,
    );
  }
});

const LANGS = ['en', 'hu', 'ru', 'sv'];

/**
 * Every (language, edition) text a card shows, as `{lang, edition, text}`; a string
 * serves every edition the card was printed in.
 * @param {any} c
 */
function shownTexts(c) {
  return LANGS.flatMap((lang) => {
    const t = c.texts?.[lang];
    return c.editions.map((/** @type {string} */ edition) => ({ lang, edition, text: typeof t === 'string' ? t : t?.[edition] }));
  });
}

test('every card has a rules text in every language for each edition it was printed in, and only those', () => {
  const problems = [];
  for (const [id, c] of Object.entries(CARDS)) {
    assert.deepEqual(Object.keys(c.texts ?? {}).sort(), LANGS, `${id} has texts in exactly ${LANGS.join(', ')}`);
    for (const lang of LANGS) {
      const t = c.texts[lang];
      if (typeof t === 'string') {
        if (!t.trim()) problems.push(`${id} ${lang}: empty`);
        if (/\b[12]E:/.test(t)) problems.push(`${id} ${lang}: both editions in one string`);
      } else if (t && typeof t === 'object') {
        // Per edition: exactly the editions the card was printed in.
        const eds = Object.keys(t).sort();
        if (JSON.stringify(eds) !== JSON.stringify([...c.editions].sort())) problems.push(`${id} ${lang}: texts for ${eds} but printed in ${c.editions}`);
        for (const e of eds) if (typeof t[e] !== 'string' || !t[e].trim()) problems.push(`${id} ${lang} ${e}: empty`);
        if (eds.length > 1 && t[eds[0]] === t[eds[1]]) problems.push(`${id} ${lang}: the same text twice, write it once`);
      } else {
        problems.push(`${id} ${lang}: no text`);
      }
    }
    // Where the English printings differ, every language's do: no language shows one
    // edition's text in a game of the other.
    if (typeof c.texts.en === 'object' && LANGS.some((l) => typeof c.texts[l] !== 'object')) problems.push(`${id}: English differs by edition, every language must too`);
  }
  assert.deepEqual(problems, []);
  for (const id of ['throne_room', 'mine', 'moneylender', 'bureaucrat', 'masquerade']) {
    for (const lang of LANGS) assert.equal(typeof CARDS[id].texts[lang], 'object', `${id}'s ${lang} texts differ by edition`);
  }
  for (const [id, c] of Object.entries(CARDS)) assert.ok(c.names.en, `${id} has an English name`);
});

test("translated texts are translations: not the English, with the language's VP and no English rules words", () => {
  /** @type {Record<string, string>} */
  const VP = { hu: 'GyP', ru: 'ПО', sv: 'SP' };
  // Rules words of the English texts; the other languages write their own terms. English
  // card names may appear (the fallback where a rulebook gives no name).
  const ENGLISH = /\b(Cards?|Actions?|Buy|Trash|Discard|Gain|Reveal|Victory|Treasure|each|other|player|your|from|the)\b/;
  const NAMES = new RegExp(`\\b(${Object.values(CARDS).map((x) => x.names.en).join('|')})\\b`, 'g');
  const problems = [];
  for (const c of Object.values(CARDS)) {
    const shown = shownTexts(c);
    for (const { lang, edition, text = '' } of shown) {
      if (lang === 'en') continue;
      const where = `${c.names.en} ${lang} ${edition}`;
      const en = shown.find((x) => x.lang === 'en' && x.edition === edition)?.text ?? '';
      // "$2" is the same everywhere; a text with words must differ from the English.
      if (/\p{L}{2}/u.test(en) && text === en) problems.push(`${where}: the English text`);
      if (/\bVP\b/.test(text)) problems.push(`${where}: "VP" untranslated`);
      if (/\bVP\b/.test(en) && !text.includes(VP[lang])) problems.push(`${where}: no ${VP[lang]}`);
      const m = text.replace(NAMES, '').match(ENGLISH);
      if (m) problems.push(`${where}: the English word "${m[0]}"`);
    }
  }
  assert.deepEqual(problems, []);
});

test('every card name in hu and ru is as the rulebooks give it', () => {
  // The 16 cards of this release, with the rulebooks' names.
  const names = {
    adventurer: ['Kalandozó', 'Искатель приключений'],
    artisan: ['Kézműves', undefined],
    bandit: ['Rabló', undefined],
    bureaucrat: ['Hivatalnok', 'Чиновник'],
    chancellor: ['Kancellár', 'Канцлер'],
    feast: ['Lakoma', 'Пир'],
    gardens: [{ '1e': 'Liget', '2e': 'Park' }, 'Сады'],
    harbinger: ['Hírvivő', undefined],
    library: ['Könyvtár', 'Библиотека'],
    moneylender: ['Uzsorás', 'Ростовщик'],
    poacher: ['Vadorzó', undefined],
    sentry: ['Őrszem', undefined],
    spy: ['Kém', 'Шпион'],
    thief: ['Tolvaj', 'Вор'],
    vassal: ['Vazallus', undefined],
    woodcutter: ['Favágó', 'Лесоруб'],
  };
  for (const [id, [hu, ru]] of Object.entries(names)) {
    assert.deepEqual([CARDS[id].names.hu, CARDS[id].names.ru], [hu, ru], id);
  }
});

test('every language is complete: each card has a name in hu, ru and sv, or is listed as untranslated there with what was checked', () => {
  const data = JSON.parse(fs.readFileSync(path.join(ROOT, 'web-client/data/cards.json'), 'utf8'));
  const problems = [];
  for (const lang of ['hu', 'ru', 'sv']) {
    assert.ok(data._sources?.[lang]?.length > 20, `${lang}: the names' source is named`);
    const untranslated = data._untranslated?.[lang];
    assert.ok(untranslated && untranslated.checked?.length > 20 && Array.isArray(untranslated.cards), `${lang}: _untranslated says what was checked`);
    const listed = new Set(untranslated.cards);
    for (const [id, c] of Object.entries(CARDS)) {
      const name = c.names[lang];
      const named = typeof name === 'string' ? name.trim() !== '' : Boolean(name && Object.values(name).every((n) => typeof n === 'string' && n.trim()));
      if (!named && !listed.has(id)) problems.push(`${lang} ${id}: no name, and not listed as untranslated`);
      if (named && listed.has(id)) problems.push(`${lang} ${id}: named "${JSON.stringify(name)}" but listed as untranslated`);
      if (named && JSON.stringify(name) === JSON.stringify(c.names.en) && lang !== 'sv') problems.push(`${lang} ${id}: the English name`);
    }
    for (const id of listed) if (!CARDS[id]) problems.push(`${lang}: ${id} listed but no such card`);
  }
  assert.deepEqual(problems, []);
});
