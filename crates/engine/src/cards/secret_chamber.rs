//! Secret Chamber (1E, Action–Reaction): Discard any number of cards; +$1 per card
//! discarded. When another player plays an Attack, you may reveal this from your hand:
//! +2 Cards, then put 2 cards from your hand onto your deck.
//!
//! Played as an Action only the first part happens. As a Reaction it never makes its
//! holder unaffected; any 2 cards may go back (itself included), in the order chosen
//! (asked only when the two differ), and others see only that 2 cards went back. Further
//! Reactions, including one just drawn, are offered afterwards by `turn::reactions`.

use crate::card::CardId;
use crate::ctx::{Ask, Ctx, Play, Res};
use crate::decision::Purpose;
use crate::state::PlayerId;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let n = cx.st.player(p).hand.len();
    let chosen = cx.choose_from_hand(p, CardId::SecretChamber, Purpose::Discard, |_| true, 0, n)?;
    cx.discard_from_hand(p, &chosen);
    cx.plus_coins(chosen.len() as u32);
    Ok(())
}

/// Revealed against an Attack: +2 Cards, then 2 cards from hand onto the deck. Returns
/// false: it does not make `who` unaffected.
pub fn react(cx: &mut Ctx, who: PlayerId) -> Res<bool> {
    cx.draw(who, 2);
    let mut back =
        cx.choose_from_hand(who, CardId::SecretChamber, Purpose::TopDeck, |_| true, 2, 2)?;
    if back.len() == 2 && back[0] != back[1] {
        back = cx.order(Ask::new(who, CardId::SecretChamber, Purpose::TopDeck), back)?;
    }
    // `order` lists the top card first; `topdeck_from_hand` puts its last card on top.
    back.reverse();
    cx.topdeck_from_hand(who, &back, false);
    Ok(false)
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{CardId, Event, Prompt, Purpose, Viewer, Zone};

    fn hand_prompt(options: Vec<CardId>, min: u8, max: u8) -> Prompt {
        Prompt::ChooseCards {
            zone: Zone::Hand,
            options,
            min,
            max,
        }
    }

    #[test]
    fn as_an_action_discards_any_number_for_a_coin_each() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[SecretChamber, Estate, Curse, Gold])
            .deck(P0, &[Silver])
            .start();
        g.play(SecretChamber);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(SecretChamber), None, Purpose::Discard)
        );
        assert_eq!(r.prompt, hand_prompt(vec![Gold, Estate, Curse], 0, 3));
        g.choose(P0, &[Estate, Curse]);
        assert_eq!(g.coins(), 2);
        assert_eq!(g.hand(P0), vec![Gold]);
        assert_eq!(g.discard_pile(P0), vec![Estate, Curse]);
        assert_eq!(
            g.deck(P0),
            vec![Silver],
            "its Reaction does nothing when played"
        );
        assert_eq!(g.in_play(P0), vec![SecretChamber]);
        assert_eq!(g.actions(), 0);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
    }

    #[test]
    fn as_an_action_discarding_nothing_gives_nothing() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[SecretChamber, Copper])
            .start();
        g.play(SecretChamber).choose(P0, &[]);
        assert_eq!(g.coins(), 0);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.discard(P0), vec![]);
    }

    #[test]
    fn reacting_draws_a_moat_which_is_then_revealed_too() {
        let mut g = table(4)
            .edition(Edition::First)
            .current(P2)
            .hand(P2, &[Militia])
            .hand(P3, &[SecretChamber, Copper, Copper, Estate, Estate])
            .deck(P3, &[Moat, Gold, Silver])
            .hand(P0, &[Duchy, Duchy, Duchy, Copper])
            .hand(P1, &[Moat, Silver, Silver, Silver])
            .start();
        g.play(Militia);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P3, Some(Militia), None, Purpose::React)
        );
        assert_eq!(r.prompt, hand_prompt(vec![SecretChamber], 0, 1));
        g.choose(P3, &[SecretChamber]);
        assert_eq!(
            g.hand(P3),
            vec![Copper, Copper, Gold, Estate, Estate, Moat, SecretChamber],
            "+2 Cards"
        );
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P3, Some(SecretChamber), None, Purpose::TopDeck)
        );
        assert_eq!(
            r.prompt,
            hand_prompt(
                vec![Copper, Copper, Gold, Estate, Estate, Moat, SecretChamber],
                2,
                2
            )
        );
        g.choose(P3, &[Estate, SecretChamber]);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P3, Some(SecretChamber), None, Purpose::TopDeck)
        );
        assert_eq!(
            r.prompt,
            Prompt::OrderCards {
                cards: vec![Estate, SecretChamber]
            }
        );
        g.choose(P3, &[SecretChamber, Estate]);
        assert_eq!(g.deck(P3), vec![SecretChamber, Estate, Silver]);
        // Then the Moat just drawn is offered (Secret Chamber, used, is not).
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P3, Some(Militia), None, Purpose::React)
        );
        assert_eq!(r.prompt, hand_prompt(vec![Moat], 0, 1));
        assert_eq!(g.coins(), 0, "the Attack has not resolved yet");
        g.choose(P3, &[Moat]);
        // P0 holds no Reaction; P1 declines its Moat.
        let r = g.req();
        assert_eq!((r.player, r.purpose), (P1, Purpose::React));
        g.choose(P1, &[]);
        assert_eq!(g.coins(), 2);
        // P3 is unaffected; P0 and P1 discard down to 3.
        let r = g.req();
        assert_eq!((r.player, r.purpose), (P0, Purpose::Discard));
        g.choose(P0, &[Copper]);
        g.choose(P1, &[Moat]);
        assert_eq!(g.hand(P3), vec![Copper, Copper, Gold, Estate, Moat]);
        assert_eq!(g.deck(P3), vec![SecretChamber, Estate, Silver]);
        assert_eq!(g.discard(P3), vec![]);
        assert_eq!(g.hand(P0), vec![Duchy, Duchy, Duchy]);
        assert_eq!(g.hand(P1), vec![Silver, Silver, Silver]);
        assert_eq!(g.discard(P1), vec![Moat]);
        assert!(g.events().contains(&Event::Blocked {
            player: P3,
            by: Moat
        }));
        assert!(!g.events().iter().any(|e| matches!(
            e,
            Event::Blocked {
                by: SecretChamber,
                ..
            }
        )));
        // Others see that 2 cards went back, not which.
        let back = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::TopDecked { .. }))
            .unwrap();
        assert_eq!(
            back.for_viewer(Viewer::Player(P2)),
            Event::TopDecked {
                player: P3,
                count: 2,
                cards: None,
                private: true
            }
        );
        assert_eq!(
            back.for_viewer(Viewer::Player(P3)),
            Event::TopDecked {
                player: P3,
                count: 2,
                cards: Some(vec![Estate, SecretChamber].into()),
                private: true
            }
        );
    }

    #[test]
    fn may_react_to_an_attack_that_would_not_hurt_and_two_alike_need_no_order() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Militia])
            .hand(P1, &[SecretChamber, Copper])
            .deck(P1, &[Copper, Gold])
            .start();
        g.play(Militia).choose(P1, &[SecretChamber]);
        assert_eq!(
            g.prompt(),
            &hand_prompt(vec![Copper, Copper, Gold, SecretChamber], 2, 2)
        );
        g.choose(P1, &[Copper, Copper]);
        // No order question, and no further Reaction to offer: the Attack resolves.
        assert_eq!(g.req().player, P0);
        assert_eq!(g.coins(), 2);
        assert_eq!(g.hand(P1), vec![Gold, SecretChamber]);
        assert_eq!(g.deck(P1), vec![Copper, Copper]);
        assert_eq!(g.discard(P1), vec![]);
    }

    #[test]
    fn with_an_empty_deck_draws_what_there_is_and_puts_back_what_it_can() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Witch])
            .hand(P1, &[SecretChamber])
            .start();
        g.play(Witch).choose(P1, &[SecretChamber]);
        // One card in hand: it goes back unasked, and the Curse still comes.
        assert_eq!(g.req().player, P0);
        assert_eq!(g.hand(P1), vec![]);
        assert_eq!(g.deck(P1), vec![SecretChamber]);
        assert_eq!(g.discard(P1), vec![Curse]);
    }
}
