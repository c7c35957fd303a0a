// A reply in a few words, without who gave it ("buy Province", "end the phase"): what the
// Hint says the Hard bot would do and what the game review shows as the answer given and
// the better one. The replay's sentences ("Ann buys Province.") are in replay.js.
import { cardName, groupedNames } from './cards.js';
import { modeText } from './decision.js';
import { list, t } from './i18n/index.js';

/** @param {import('./types.js').Reply} r */
export function replyPhrase(r) {
  switch (r.type) {
    case 'play':
      return t('reply.play', { card: cardName(r.card) });
    case 'play_all_treasures':
      return t('reply.play_all_treasures');
    case 'buy':
      return t('reply.buy', { card: cardName(r.card) });
    case 'end_phase':
      return t('reply.end_phase');
    case 'cards':
      return r.cards.length ? t('reply.cards', { cards: list(groupedNames(r.cards)) }) : t('reply.cards_none');
    case 'pile':
      return r.card ? t('reply.pile', { card: cardName(r.card) }) : t('reply.pile_none');
    case 'modes':
      return t('reply.modes', { modes: list(r.modes.map(modeText)) });
    case 'yes_no':
      return t(r.yes ? 'reply.yes' : 'reply.no');
    case 'name':
      return t('reply.name', { card: cardName(r.card) });
    case 'number':
      return t('reply.number', { number: r.number });
    default:
      return t('reply.cards_none');
  }
}
