//! Scout (1E): +1 Action. Reveal the top 4 cards of your deck. Put the revealed Victory
//! cards into your hand. Put the other cards back on top in any order.
//!
//! The cards are revealed one at a time into the set-aside zone (a short deck shuffles
//! the discard pile without them). Victory cards include Action–Victory and
//! Treasure–Victory cards; a Curse is not one and goes back. Everyone saw the cards, but
//! the order they go back in is the player's secret: others see only how many.

use crate::card::CardId;
use crate::ctx::{Ask, Ctx, Play, Res, To};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.plus_actions(1);
    let (victory, rest): (Vec<CardId>, Vec<CardId>) = cx
        .reveal_from_deck(p, 4)
        .into_iter()
        .partition(|c| c.is_victory());
    cx.from_aside(p, &victory, To::Hand);
    let back = cx.order(Ask::new(p, CardId::Scout, Purpose::TopDeck), rest)?;
    cx.aside_to_deck_secretly(p, &back);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Viewer};

    fn first() -> Table {
        table(2).edition(Edition::First)
    }

    #[test]
    fn victory_cards_to_hand_and_the_rest_back_in_a_secret_order() {
        let mut g = first()
            .hand(P0, &[Scout, Silver])
            .deck(P0, &[Estate, Copper, GreatHall, Curse, Gold])
            .start();
        let n = g.events().len();
        g.play(Scout);
        assert_eq!(g.actions(), 1);
        // Victory cards, Action–Victory included, are in hand already; the Curse waits.
        assert_eq!(g.hand(P0), vec![Silver, Estate, GreatHall]);
        assert_eq!(g.aside(P0), vec![Copper, Curse]);
        assert_eq!(g.deck(P0), vec![Gold]);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Scout), None, Purpose::TopDeck)
        );
        assert_eq!(
            r.prompt,
            Prompt::OrderCards {
                cards: vec![Copper, Curse]
            }
        );
        assert!(g.reply(P0, crate::Reply::Cards(vec![Curse])).is_err());
        g.choose(P0, &[Curse, Copper]);
        assert_eq!(g.deck(P0), vec![Curse, Copper, Gold]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.hand(P0), vec![Silver, Estate, GreatHall]);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Scout]);

        // What was revealed and taken is public; the order put back is not.
        let seen: Vec<Event> = g
            .events_since(n)
            .iter()
            .skip_while(|e| !matches!(e, Event::Played { .. }))
            .skip(1)
            .map(|e| e.for_viewer(Viewer::Player(P1)))
            .collect();
        assert_eq!(
            seen,
            vec![
                Event::Revealed {
                    player: P0,
                    cards: vec![Estate, Copper, GreatHall, Curse]
                },
                Event::PutInHand {
                    player: P0,
                    cards: vec![Estate, GreatHall]
                },
                Event::TopDecked {
                    player: P0,
                    count: 2,
                    cards: None,
                    private: true
                },
            ]
        );
        let back = g
            .events()
            .iter()
            .rfind(|e| matches!(e, Event::TopDecked { .. }))
            .unwrap();
        assert_eq!(
            back.for_viewer(Viewer::Player(P0)),
            Event::TopDecked {
                player: P0,
                count: 2,
                cards: Some(vec![Curse, Copper].into()),
                private: true
            }
        );
    }

    #[test]
    fn a_short_deck_shuffles_without_the_revealed_cards() {
        let mut g = first()
            .hand(P0, &[Scout])
            .deck(P0, &[Copper, Estate])
            .discard(P0, &[Harem])
            .start();
        g.play(Scout);
        assert!(g.events().contains(&Event::Shuffled { player: P0 }));
        // Three cards in all: Harem (Treasure–Victory) to hand, the Copper back unasked.
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.hand(P0), vec![Estate, Harem]);
        assert_eq!(g.deck(P0), vec![Copper]);
        assert_eq!((g.discard_pile(P0), g.aside(P0)), (vec![], vec![]));
    }

    #[test]
    fn nothing_to_order_asks_nothing() {
        // All Victory cards.
        let mut g = first()
            .hand(P0, &[Scout])
            .deck(P0, &[Duchy, Estate, Province, Estate, Copper])
            .start();
        g.play(Scout);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.hand(P0), vec![Estate, Estate, Duchy, Province]);
        assert_eq!(g.deck(P0), vec![Copper]);
        // Identical cards back.
        let mut g = first()
            .hand(P0, &[Scout])
            .deck(P0, &[Curse, Estate, Curse, Curse])
            .start();
        g.play(Scout);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.hand(P0), vec![Estate]);
        assert_eq!(g.deck(P0), vec![Curse, Curse, Curse]);
        // An empty deck and discard pile.
        let mut g = first().hand(P0, &[Scout]).start();
        g.play(Scout);
        assert_eq!((g.hand(P0), g.deck(P0)), (vec![], vec![]));
        assert_eq!(g.actions(), 1);
    }
}
