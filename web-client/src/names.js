// Display names of seats, from the room's occupants.
import { h } from './dom.js';
import { has, t } from './i18n/index.js';

/**
 * A bot's readable name in the UI language ("Militia strategy bot") from the id the
 * server sends; an id the client does not know yet reads "Bot (id)".
 * @param {string} bot
 */
export function botLabel(bot) {
  return has(`bot.${bot}`) ? t(`bot.${bot}`) : t('common.bot', { bot: bot.replace(/_/g, ' ') });
}

/**
 * The mark of a seat a bot account holds (a program playing through an API token), shown
 * wherever the seat's player is named; null for people and guests.
 * @param {import('./types.js').Occupant} occ
 */
export function botAccountMark(occ) {
  if (occ.type !== 'human' || occ.account !== 'bot') return null;
  return h('span', { class: 'bot bot-account', title: t('room.bot_account'), 'data-testid': 'bot-account' }, ` ⚙ ${t('room.bot_account')}`);
}

/**
 * A seated account's level ("level 23") beside its name in the lobby and the waiting
 * room: the pool the room would be rated in (docs/protocol.md); null for guests.
 * @param {import('./types.js').Occupant} occ
 */
export function levelMark(occ) {
  if (occ.type !== 'human' || occ.level == null) return null;
  return h('span', { class: 'muted seat-level', 'data-testid': 'seat-level' }, ` (${t('match.level', { level: occ.level })})`);
}

/**
 * @param {import('./store.js').State} s @param {number} seat
 */
export function seatName(s, seat) {
  const occ = s.room?.seats.find((x) => x.seat === seat)?.occupant;
  if (occ?.type === 'human') return occ.name;
  if (occ?.type === 'bot') return botLabel(occ.bot);
  const deck = s.result?.decks.find((d) => d.seat === seat);
  if (deck) return deck.name;
  return t('common.seat', { n: seat + 1 });
}
