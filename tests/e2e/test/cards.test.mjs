// web-client/data/cards.json against the engine (the server's /api/cards): every card
// the engine has is described with the same cost, types, editions, set and English name,
// and has a text for each edition it was printed in.
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

test('every card has a text for each edition it was printed in, and names in hu and ru where given', () => {
  for (const [id, c] of Object.entries(CARDS)) {
    if (typeof c.text === 'string') {
      assert.ok(c.text.length > 0, id);
      assert.doesNotMatch(c.text, /\b[12]E:/, `${id}: one text per edition, not both in one string`);
    } else {
      assert.deepEqual(Object.keys(c.text).sort(), [...c.editions].sort(), `${id} has a text per edition`);
    }
    assert.ok(c.names.en, `${id} has an English name`);
  }
  for (const id of ['throne_room', 'mine', 'moneylender', 'bureaucrat']) {
    assert.equal(typeof CARDS[id].text, 'object', `${id}'s texts differ by edition`);
  }
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
