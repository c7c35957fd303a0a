// The server's public HTTP endpoints: which cards are implemented, the recommended
// kingdoms whose cards all exist, and the bots.

/** @param {string} path */
async function getJson(path) {
  const res = await fetch(path, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res.json();
}

/** @param {any} v @param {string} field */
function listOf(v, field) {
  if (Array.isArray(v)) return v;
  if (v && Array.isArray(v[field])) return v[field];
  return [];
}

/**
 * `sets` are the sets of the server's kingdom cards, in its order: what a random kingdom
 * may be drawn from.
 * `levels` are the bots offered as levels, weakest first (`GET /api/bot-levels`; empty
 * from a server without levels); the other `bots` are reference bots.
 * @returns {Promise<{cards: string[], sets: import('./types.js').CardSet[], kingdoms: {id: string, name: string, cards: string[], edition?: string}[], bots: string[], levels: string[]}>}
 */
export async function loadMeta() {
  const [cards, kingdoms, bots, levels] = await Promise.all([
    getJson('/api/cards'),
    getJson('/api/kingdoms'),
    getJson('/api/bots'),
    getJson('/api/bot-levels').catch(() => []),
  ]);
  const cardList = listOf(cards, 'cards');
  return {
    sets: [...new Set(cardList.map((c) => (typeof c === 'object' && typeof c.set === 'string' ? c.set : null)).filter((s) => s !== null))],
    cards: cardList
      .filter((c) => typeof c === 'string' || c.implemented !== false)
      .map((c) => (typeof c === 'string' ? c : (c.id ?? c.key))),
    kingdoms: listOf(kingdoms, 'kingdoms').map((k) => ({
      id: k.id,
      name: k.name ?? k.id,
      cards: k.cards ?? [],
      edition: k.edition,
    })),
    bots: listOf(bots, 'bots').map((b) => (typeof b === 'string' ? b : b.name)),
    levels: listOf(levels, 'levels').filter((b) => typeof b === 'string'),
  };
}
