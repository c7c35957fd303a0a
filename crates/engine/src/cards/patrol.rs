//! Patrol (2E): +3 Cards. Reveal the top 4 cards of your deck. Put the Victory cards and
//! Curses into your hand. Put the rest back in any order.
//!
//! As Scout: the cards are drawn first, then revealed one at a time into the set-aside
//! zone (a short deck shuffles the discard pile without them); Action–Victory and
//! Treasure–Victory cards go to hand; everyone saw the cards, but the order they go back
//! in is the player's secret: others see only how many.

use crate::card::{CardId, Types};
use crate::ctx::{Ask, Ctx, Play, Res, To};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 3);
    let (taken, rest): (Vec<CardId>, Vec<CardId>) = cx
        .reveal_from_deck(p, 4)
        .into_iter()
        .partition(|c| c.is(Types::VICTORY | Types::CURSE));
    cx.from_aside(p, &taken, To::Hand);
    let back = cx.order(Ask::new(p, CardId::Patrol, Purpose::TopDeck), rest)?;
    cx.aside_to_deck_secretly(p, &back);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Reply, Viewer};

    #[test]
    fn draws_three_then_takes_victory_cards_and_curses_and_puts_the_rest_back_secretly() {
        let mut g = table(2)
            .hand(P0, &[Patrol])
            .deck(
                P0,
                &[Copper, Copper, Smithy, Silver, Curse, Mill, Gold, Province],
            )
            .start();
        let n = g.events().len();
        g.play(Patrol);
        assert_eq!(g.actions(), 0);
        assert_eq!(
            g.hand(P0),
            vec![Copper, Copper, Curse, Smithy, Mill],
            "3 drawn, then the Curse and Mill (Action–Victory) revealed"
        );
        assert_eq!(g.aside(P0), vec![Silver, Gold]);
        assert_eq!(g.deck(P0), vec![Province]);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Patrol), None, Purpose::TopDeck)
        );
        assert_eq!(
            r.prompt,
            Prompt::OrderCards {
                cards: vec![Silver, Gold]
            }
        );
        assert!(g.reply(P0, Reply::Cards(vec![Gold, Gold])).is_err());
        g.choose(P0, &[Gold, Silver]);
        assert_eq!(g.deck(P0), vec![Gold, Silver, Province]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.hand(P0), vec![Copper, Copper, Curse, Smithy, Mill]);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Patrol]);

        let seen: Vec<Event> = g
            .events_since(n)
            .iter()
            .skip_while(|e| !matches!(e, Event::Played { .. }))
            .skip(1)
            .take(4)
            .map(|e| e.for_viewer(Viewer::Player(P1)))
            .collect();
        assert_eq!(
            seen,
            vec![
                Event::Drew {
                    player: P0,
                    count: 3,
                    cards: None
                },
                Event::Revealed {
                    player: P0,
                    cards: vec![Silver, Curse, Mill, Gold]
                },
                Event::PutInHand {
                    player: P0,
                    cards: vec![Curse, Mill]
                },
                Event::TopDecked {
                    player: P0,
                    count: 2,
                    cards: None,
                    private: true
                },
            ]
        );
        assert_eq!(
            g.events()
                .iter()
                .rfind(|e| matches!(e, Event::TopDecked { .. }))
                .map(|e| e.for_viewer(Viewer::Player(P0))),
            Some(Event::TopDecked {
                player: P0,
                count: 2,
                cards: Some(vec![Gold, Silver].into()),
                private: true
            })
        );
    }

    #[test]
    fn a_short_deck_shuffles_without_the_revealed_cards() {
        let mut g = table(2)
            .hand(P0, &[Patrol])
            .deck(P0, &[Copper, Copper, Copper, Village, Estate])
            .discard(P0, &[Harem])
            .start();
        g.play(Patrol);
        assert!(g.events().contains(&Event::Shuffled { player: P0 }));
        // Village, Estate, then the shuffled Harem: nothing more to reveal.
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.hand(P0), vec![Copper, Copper, Copper, Estate, Harem]);
        assert_eq!(g.deck(P0), vec![Village]);
        assert_eq!((g.discard_pile(P0), g.aside(P0)), (vec![], vec![]));
    }

    #[test]
    fn nothing_left_to_reveal_after_drawing() {
        let mut g = table(2)
            .hand(P0, &[Patrol])
            .deck(P0, &[Estate, Curse])
            .start();
        g.play(Patrol);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.hand(P0), vec![Estate, Curse]);
        assert_eq!((g.deck(P0), g.aside(P0)), (vec![], vec![]));
        assert!(
            !g.events()
                .iter()
                .any(|e| matches!(e, Event::Revealed { .. }))
        );
    }
}
