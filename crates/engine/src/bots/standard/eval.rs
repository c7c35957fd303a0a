//! Small valuations the decision modules share: how bad a card is to hold, what a
//! hand is worth in coins, whether it is late in the game.

use super::buy::Status;
use super::roles::{Kind, role};
use crate::card::{CardId, Types};
use crate::view::{Observation, money_value};

/// A Victory card with no other type, or a Curse: dead in hand.
pub fn is_dead(c: CardId) -> bool {
    c.types() == Types::VICTORY || c == CardId::Curse
}

/// Whether `c` uses up the turn's Action when played.
pub fn is_terminal(c: CardId) -> bool {
    c.is_action() && role(c).kind == Kind::Terminal
}

/// Coins a card in hand adds when played in the Buy phase.
pub fn coin_value(c: CardId) -> u32 {
    if c.is_treasure() { money_value(c) } else { 0 }
}

/// The coins it will have this turn: those it has plus the Treasures in its hand.
pub fn coins_this_turn(obs: &Observation) -> u32 {
    obs.coins() + obs.hand().iter().map(|c| coin_value(*c)).sum::<u32>()
}

/// Late game: Duchies are worth more than Gold now, so Victory cards are kept.
pub fn late(st: &Status) -> bool {
    st.left() <= st.duchy_gold
}

/// How much the bot wants to keep `c` in its deck (higher: keep), in rough coins.
/// Drives trashing, discarding and passing: the lowest go first.
pub fn keep_value(st: &Status, c: CardId) -> i32 {
    use CardId::*;
    let late = late(st);
    match c {
        Curse => -10,
        Estate if late => 2,
        Estate => -5,
        Duchy if late => 5,
        Duchy => -3,
        Province => 8,
        Gardens | Duke => 2,
        Copper if late => 2,
        Copper => 1,
        c if c.is_treasure() => 2 * coin_value(c) as i32,
        c => 2 + i32::from(role(c).money / 20) + i32::from(c.base_cost()) / 2,
    }
}

/// Whether the bot may thin `c` away when trashing is optional (Chapel, Sentry,
/// Masquerade): junk always, Copper early while the deck keeps enough money.
pub fn thin(st: &Status, c: CardId, coppers_chosen: u32) -> bool {
    match c {
        CardId::Curse => true,
        CardId::Estate => !late(st),
        CardId::Copper => !late(st) && st.money().saturating_sub(coppers_chosen + 1) >= 10,
        _ => false,
    }
}

/// A victim's discard order (Militia, Torturer, Minion, Diplomat): dead cards, then
/// Coppers, then a second terminal it could not play, then the cheapest.
pub fn victim_rank(hand: &[CardId], c: CardId) -> (u8, i32) {
    if is_dead(c) {
        return (0, 0);
    }
    if c == CardId::Copper {
        return (1, 0);
    }
    let terminals = hand.iter().filter(|h| is_terminal(**h)).count();
    if is_terminal(c) && terminals >= 2 {
        return (2, i32::from(role(c).money));
    }
    let worth = if c.is_treasure() {
        3 * coin_value(c) as i32
    } else {
        i32::from(c.base_cost()) + 2
    };
    (3, worth)
}

/// Cards ordered best-to-draw first (Sentry, Patrol, Scout put-backs): the most
/// valuable Treasure or Action, dead cards last.
pub fn draw_rank(c: CardId) -> (bool, std::cmp::Reverse<u8>) {
    (is_dead(c), std::cmp::Reverse(c.base_cost()))
}

/// `options` sorted by `key`, lowest first.
pub fn sorted_by<K: Ord>(options: &[CardId], key: impl Fn(CardId) -> K) -> Vec<CardId> {
    let mut v = options.to_vec();
    v.sort_by_key(|c| key(*c));
    v
}
