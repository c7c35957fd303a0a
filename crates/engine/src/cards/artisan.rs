//! Artisan (2E): Gain a card to your hand costing up to $5. Put a card from your hand
//! onto your deck.
//!
//! The bound is the card's cost now, never raised by coins. The card put back may be any
//! card in hand, the one just gained included; it goes face down, so others see only
//! that one card went onto the deck.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    if let Some(c) = cx.choose_pile(p, CardId::Artisan, Purpose::Gain, false, |st, c| {
        st.cost(c) <= 5
    })? {
        cx.gain(p, c, Destination::Hand);
    }
    let chosen = cx.choose_from_hand(p, CardId::Artisan, Purpose::TopDeck, |_| true, 1, 1)?;
    cx.topdeck_from_hand(p, &chosen, false);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Event, InvalidReply, Prompt, Purpose, Reply, Viewer, Zone};

    #[test]
    fn gains_up_to_five_to_hand_coins_in_play_do_not_raise_it_then_topdecks_the_gained_card() {
        let mut g = table(2)
            .hand(P0, &[Festival, Artisan, Copper, Estate])
            .deck(P0, &[Gold])
            .supply(Laboratory, 0)
            .start();
        g.play(Festival).play(Artisan);
        assert_eq!(g.coins(), 2);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Artisan), None, Purpose::Gain)
        );
        // Every pile costing up to $5 with cards left (Laboratory is empty), in Supply
        // order (the test table's Supply holds every card, in card order).
        let mut expected = costing_up_to(5);
        expected.retain(|c| *c != Laboratory);
        assert_eq!(
            r.prompt,
            Prompt::ChoosePile {
                options: expected,
                optional: false
            }
        );
        assert_eq!(
            g.reply(P0, Reply::Pile(Some(Gold))),
            Err(InvalidReply::NotAnOption("gold".into()))
        );
        g.ok(P0, Reply::Pile(Some(Market)));
        assert_eq!(g.hand(P0), vec![Copper, Estate, Market], "gained to hand");
        assert_eq!(g.supply(Market), 9);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Artisan), None, Purpose::TopDeck)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Estate, Market],
                min: 1,
                max: 1
            }
        );
        g.choose(P0, &[Market]);
        assert_eq!(g.hand(P0), vec![Copper, Estate]);
        assert_eq!(g.deck(P0), vec![Market, Gold]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Festival, Artisan]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.coins(), 2);

        // The card put onto the deck is secret: others see one card went there.
        let top = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::TopDecked { .. }))
            .unwrap();
        assert_eq!(
            top.for_viewer(Viewer::Player(P1)),
            Event::TopDecked {
                player: P0,
                count: 1,
                cards: None,
                private: true
            }
        );
        assert_eq!(top.for_viewer(Viewer::Player(P0)), *top);
    }

    #[test]
    fn with_an_otherwise_empty_hand_the_gained_card_goes_onto_the_deck_unasked() {
        let mut g = table(2).hand(P0, &[Artisan]).start();
        g.play(Artisan).ok(P0, Reply::Pile(Some(Silver)));
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.deck(P0), vec![Silver]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.supply(Silver), 39);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
    }

    #[test]
    fn may_put_back_a_card_other_than_the_gained_one() {
        let mut g = table(2)
            .hand(P0, &[Artisan, Province])
            .deck(P0, &[Copper])
            .start();
        g.play(Artisan).ok(P0, Reply::Pile(Some(Duchy)));
        g.choose(P0, &[Province]);
        assert_eq!(g.hand(P0), vec![Duchy]);
        assert_eq!(g.deck(P0), vec![Province, Copper]);
        assert_eq!(g.supply(Duchy), 7);
    }
}
