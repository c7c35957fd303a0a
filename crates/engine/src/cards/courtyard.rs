//! Courtyard: +3 Cards. Put a card from your hand onto your deck.
//!
//! The card put back may be any card in hand, not only one just drawn. It is not
//! revealed: others see only that one card went onto the deck.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 3);
    let back = cx.choose_from_hand(p, CardId::Courtyard, Purpose::TopDeck, |_| true, 1, 1)?;
    cx.topdeck_from_hand(p, &back, false);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::{self, *};
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Request, Viewer, Zone};

    fn ask(options: Vec<CardId>) -> Request {
        Request {
            player: P0,
            card: Some(Courtyard),
            about: None,
            purpose: Purpose::TopDeck,
            prompt: Prompt::ChooseCards {
                zone: Zone::Hand,
                options,
                min: 1,
                max: 1,
            },
        }
    }

    #[test]
    fn draws_three_and_puts_a_drawn_card_back_secretly() {
        let mut g = table(2)
            .hand(P0, &[Courtyard, Copper])
            .deck(P0, &[Silver, Gold, Estate, Duchy])
            .start();
        g.play(Courtyard);
        assert_eq!(g.req(), &ask(vec![Copper, Silver, Gold, Estate]));
        assert_eq!(g.deck(P0), vec![Duchy]);
        g.choose(P0, &[Gold]);
        assert_eq!(g.hand(P0), vec![Copper, Silver, Estate]);
        assert_eq!(g.deck(P0), vec![Gold, Duchy]);
        assert_eq!(g.in_play(P0), vec![Courtyard]);
        assert_eq!(g.discard(P0), vec![]);
        let put = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::TopDecked { .. }))
            .unwrap()
            .clone();
        assert_eq!(
            put.for_viewer(Viewer::Player(P1)),
            Event::TopDecked {
                player: P0,
                count: 1,
                cards: None,
                private: true
            }
        );
        assert_eq!(
            put.for_viewer(Viewer::Player(P0)),
            Event::TopDecked {
                player: P0,
                count: 1,
                cards: Some(vec![Gold].into()),
                private: true
            }
        );
    }

    #[test]
    fn the_card_put_back_may_be_one_that_was_in_hand_before() {
        let mut g = table(2)
            .hand(P0, &[Courtyard, Province])
            .deck(P0, &[Silver, Gold, Gold])
            .start();
        g.play(Courtyard);
        assert_eq!(g.req(), &ask(vec![Silver, Gold, Gold, Province]));
        g.choose(P0, &[Province]);
        assert_eq!(g.hand(P0), vec![Silver, Gold, Gold]);
        assert_eq!(g.deck(P0), vec![Province]);
    }

    #[test]
    fn with_a_short_deck_draws_what_there_is_then_must_still_put_one_back() {
        let mut g = table(2).hand(P0, &[Courtyard]).deck(P0, &[Copper]).start();
        // One card in hand: putting it back is forced, so not asked.
        g.play(Courtyard);
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.deck(P0), vec![Copper]);
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
    }

    #[test]
    fn with_nothing_to_draw_and_an_empty_hand_does_nothing() {
        let mut g = table(2).hand(P0, &[Courtyard]).start();
        g.play(Courtyard);
        assert_eq!((g.hand(P0), g.deck(P0)), (vec![], vec![]));
        assert!(
            !g.events()
                .iter()
                .any(|e| matches!(e, Event::TopDecked { .. }))
        );
    }
}
