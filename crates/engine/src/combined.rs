//! Buy-phase moves answered at the Action-phase decision: **Play all Treasures**, and a
//! **Buy** that plays them all first.
//!
//! A money turn is three decisions — end the Action phase, play the Treasures, buy — and
//! every one of them is a reply to validate, number, store, send to each viewer and
//! acknowledge. Answered at the Action-phase decision, `PlayAllTreasures` ends the Action
//! phase and plays every Treasure in hand; `Buy(card)` does the same and then buys
//! `card`. The turn then goes on exactly as after those replies one by one: the same
//! events, the same state, the same questions after (a second Buy is asked as usual).
//! Nothing is hidden by it: the Treasures are played and the card bought in sight of
//! everyone, as they would have been; the replies it stands for stay valid too.
//!
//! **Checked before anything moves.** A Buy must be affordable with the coins of every
//! Treasure in hand, so those coins are worked out from the state without playing them
//! ([`coins_after_treasures`]): this restates what the Treasures of Base and Intrigue do
//! (`cards/basic.rs`, Harem — coins only, none looks at the hand or asks), with
//! Coppersmith's and Merchant's bonuses. Playing them checks it (a debug assertion at
//! every combined move, so every test game with a Merchant or Coppersmith does), and
//! a future Treasure whose coins cannot be known before it is played must make
//! [`check`] refuse a Buy answered with it in hand.
//!
//! **No new rules version** (`crate::rules`): these replies were refused before, so no
//! stored game plays differently; an earlier engine refuses them on replay, which is
//! why a server lets its bots make them only when no earlier release may read the game
//! (docs/storage.md).
//!
//! A move that is not a combined one is left to [`crate::decision::Prompt::validate`]
//! unchanged, so its results and errors are as before; `validate` below is the one check
//! both `Game::answer` and an agent's answer in a simulation go through.

use crate::afford::{self, Affordable};
use crate::card::{CARD_COUNT, CARD_IDS, CardId};
use crate::decision::{InvalidReply, Prompt, Reply, Request};
use crate::state::{PlayerId, State};

/// Checks `reply` to `req`: a combined move against the state, any other against the
/// prompt (`Prompt::validate`, unchanged).
#[inline(always)]
pub(crate) fn validate(
    st: &State,
    afford: &Affordable,
    req: &Request,
    reply: &Reply,
) -> Result<(), InvalidReply> {
    if is_combined_move(&req.prompt, reply) {
        check(st, afford, req.player, reply)
    } else {
        req.prompt.validate(reply)
    }
}

/// Whether `reply` answers `prompt` with a Buy-phase move from the Action phase: one the
/// game checks against the state rather than the prompt ([`Game::check`](crate::Game::check)).
#[inline(always)]
pub fn is_combined_move(prompt: &Prompt, reply: &Reply) -> bool {
    matches!(reply, Reply::PlayAllTreasures | Reply::Buy(_))
        && matches!(prompt, Prompt::ActionPhase { .. })
}

/// Whether `p` (whose Action-phase decision it is) may answer with combined move
/// `reply`: Play all Treasures with a Treasure in hand; a Buy of a card left in the
/// Supply that the coins after every Treasure is played afford. Inlined: a recorded
/// money game checks one such move a turn.
#[inline(always)]
pub(crate) fn check(
    st: &State,
    afford: &Affordable,
    p: PlayerId,
    reply: &Reply,
) -> Result<(), InvalidReply> {
    match *reply {
        Reply::Buy(card) => {
            let budget = coins_after_treasures(st, p) + st.turn.cost_reduction;
            let pile = afford.pile(&st.supply, card);
            if pile.is_some_and(|pile| afford::affords(pile, budget)) {
                Ok(())
            } else {
                Err(InvalidReply::NotAnOption(format!(
                    "{card} (not in the Supply, or more than every Treasure in hand brings)"
                )))
            }
        }
        Reply::PlayAllTreasures if st.player(p).hand.iter().any(|c| c.is_treasure()) => Ok(()),
        Reply::PlayAllTreasures => Err(InvalidReply::NotAnOption(
            "play_all_treasures (no Treasure in hand)".into(),
        )),
        _ => Err(InvalidReply::WrongKind {
            expected: "action_phase",
        }),
    }
}

/// What each card brings when played as a Treasure, before any bonus (a table lookup
/// per card in hand: the `match` is a chain of comparisons).
static TREASURE_COINS: [u8; CARD_COUNT] = {
    let mut t = [0; CARD_COUNT];
    let mut i = 0;
    while i < CARD_COUNT {
        t[i] = match CARD_IDS[i] {
            CardId::Copper => 1,
            CardId::Silver | CardId::Harem => 2,
            CardId::Gold => 3,
            _ => 0,
        };
        i += 1;
    }
    t
};

/// The coins `p` has once every Treasure in hand is played this turn (see the module
/// docs): the coins now, each Treasure's coins, Coppersmith's bonus on each Copper and
/// Merchant's on the turn's first Silver. The hand is looked at again only for a bonus
/// this turn has (most have none).
pub(crate) fn coins_after_treasures(st: &State, p: PlayerId) -> u32 {
    let t = &st.turn;
    let hand = &st.player(p).hand;
    let mut coins = t.coins;
    for &c in hand {
        coins += u32::from(TREASURE_COINS[c as usize]);
    }
    if t.copper_bonus > 0 {
        let coppers = hand.iter().filter(|&&c| c == CardId::Copper).count() as u32;
        coins += coppers * t.copper_bonus;
    }
    if t.merchants > 0 && !t.silver_played && hand.contains(&CardId::Silver) {
        coins += t.merchants;
    }
    coins
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::{self, *};
    use crate::cards::testkit::*;
    use crate::game::Game;
    use crate::{Event, InvalidReply, Prompt, Reply};

    /// What a refused reply must leave as it was: the state, the events, the question.
    fn unchanged(g: &Game) -> (u64, usize, Option<crate::Request>) {
        (g.state_hash(), g.events().len(), g.pending().cloned())
    }

    /// Plays `combined` at the Action-phase decision of a turn with `hand`, and `split`
    /// (the moves it stands for) from the same position: the same events, the same
    /// state, the same next question. Returns the combined game and its new events.
    fn as_split(hand: &[CardId], combined: Reply, split: &[Reply]) -> (Game, Vec<Event>) {
        let mut one = table(2).hand(P0, hand).start();
        let mut other = table(2).hand(P0, hand).start();
        let start = one.events().len();
        assert!(matches!(one.prompt(), Prompt::ActionPhase { .. }));
        one.reply(P0, combined).unwrap();
        for r in split {
            other.reply(P0, r.clone()).unwrap();
        }
        assert_eq!(one.events_since(start), other.events_since(start));
        assert_eq!(one.state_hash(), other.state_hash());
        assert_eq!(one.pending(), other.pending());
        let events = one.events_since(start);
        (one, events)
    }

    /// Buy(Gold) at the Action-phase decision is exactly "end the phase, play all
    /// Treasures, buy Gold".
    #[test]
    fn a_buy_from_the_action_phase_is_the_three_moves_it_stands_for() {
        let hand = [Silver, Copper, Estate, Silver, Copper];
        let split = [Reply::EndPhase, Reply::PlayAllTreasures, Reply::Buy(Gold)];
        let (_, events) = as_split(&hand, Reply::Buy(Gold), &split);
        let played = events
            .iter()
            .filter(|e| matches!(e, Event::Played { .. }))
            .count();
        assert_eq!(played, 4);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Bought { card: Gold, .. }))
        );
    }

    /// Play all Treasures from the Action phase is "end it, play them": the Buy phase
    /// is asked next with the coins of the Treasures and none left to play.
    #[test]
    fn play_all_treasures_from_the_action_phase_ends_it() {
        let hand = [Gold, Copper, Estate, Village, Copper];
        let split = [Reply::EndPhase, Reply::PlayAllTreasures];
        let (one, _) = as_split(&hand, Reply::PlayAllTreasures, &split);
        assert_eq!(one.coins(), 5);
        assert_eq!(one.hand(P0), vec![Estate, Village]);
        let Prompt::BuyPhase { treasures, .. } = one.prompt() else {
            panic!("{:?}", one.prompt())
        };
        assert!(treasures.is_empty());
    }

    /// Merchant's +$1 on the first Silver counts toward what a Buy may cost: $5 buys a
    /// Duchy; a Gold ($6) is refused and changes nothing.
    #[test]
    fn merchants_bonus_counts_and_one_coin_more_is_refused() {
        let mut g = table(2)
            .hand(P0, &[Merchant, Silver, Silver, Estate, Estate])
            .deck(P0, &[Estate])
            .kingdom(&[Merchant])
            .start();
        g.play(Merchant);
        // Merchant gave an Action back: the Action phase is asked again.
        assert_eq!(g.prompt(), &Prompt::ActionPhase { playable: vec![] });
        let before = unchanged(&g);
        assert!(matches!(
            g.reply(P0, Reply::Buy(Gold)),
            Err(InvalidReply::NotAnOption(_))
        ));
        assert_eq!(unchanged(&g), before);
        let start = g.events().len();
        g.reply(P0, Reply::Buy(Duchy)).unwrap();
        let played: Vec<_> = g
            .events_since(start)
            .into_iter()
            .filter_map(|e| match e {
                Event::Played { card, .. } => Some(card),
                Event::Bought { card, .. } => Some(card),
                _ => None,
            })
            .collect();
        assert_eq!(played, vec![Silver, Silver, Duchy]);
    }

    /// Coppersmith's +$1 per Copper counts: three Coppers after one bring $6.
    #[test]
    fn coppersmiths_bonus_counts() {
        let mut g = table(2)
            .hand(P0, &[Village, Coppersmith, Copper, Copper, Copper])
            .deck(P0, &[Estate])
            .kingdom(&[Village, Coppersmith])
            .start();
        g.play(Village);
        g.play(Coppersmith);
        assert_eq!(super::coins_after_treasures(g.state(), P0), 6);
        let start = g.events().len();
        g.reply(P0, Reply::Buy(Gold)).unwrap();
        assert!(
            g.events_since(start)
                .iter()
                .any(|e| matches!(e, Event::Bought { card: Gold, .. }))
        );
    }

    /// Play all Treasures needs a Treasure in hand, a Buy a card left in the Supply
    /// within the coins; each refusal changes nothing. A Buy-phase move needs no
    /// Treasure (a $0 Copper), and the Buy phase's own Buy still plays none.
    #[test]
    fn refused_combined_moves_change_nothing() {
        let mut g = table(2).hand(P0, &[Estate; 5]).kingdom(&[Village]).start();
        let before = unchanged(&g);
        assert!(matches!(
            g.reply(P0, Reply::PlayAllTreasures),
            Err(InvalidReply::NotAnOption(_))
        ));
        assert!(g.reply(P0, Reply::Buy(Silver)).is_err());
        assert!(
            g.reply(P0, Reply::Buy(Smithy)).is_err(),
            "not in this Supply"
        );
        assert_eq!(unchanged(&g), before);
        g.reply(P0, Reply::Buy(Copper)).unwrap();

        let mut g = table(2)
            .hand(P0, &[Gold, Gold, Estate, Estate, Estate])
            .supply(Gold, 0)
            .start();
        let before = unchanged(&g);
        assert!(g.reply(P0, Reply::Buy(Gold)).is_err(), "an empty pile");
        assert_eq!(unchanged(&g), before);
        g.end_actions();
        // In the Buy phase a Buy plays no Treasure: $0 buys a Copper, the Golds stay.
        let start = g.events().len();
        g.reply(P0, Reply::Buy(Copper)).unwrap();
        let events = g.events_since(start);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Bought { card: Copper, .. }))
        );
        assert!(!events.iter().any(|e| matches!(e, Event::Played { .. })));
    }
}
