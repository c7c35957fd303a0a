//! Shanty Town: +2 Actions. Reveal your hand. If you have no Action cards in hand, +2
//! Cards.
//!
//! The check is made once, on the revealed hand: the 2 cards are drawn together even if
//! the first is an Action. Action–Victory cards (Great Hall, Nobles) are Action cards.
//! An empty hand is not revealed (there is nothing to show) and draws 2.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.plus_actions(2);
    let mut hand = cx.st.player(p).hand.clone();
    hand.sort();
    if !hand.is_empty() {
        cx.reveal(p, &hand);
    }
    if !hand.iter().copied().any(CardId::is_action) {
        cx.draw(p, 2);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::Event;
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;

    #[test]
    fn reveals_a_hand_without_actions_and_draws_two_even_if_the_first_is_an_action() {
        let mut g = table(2)
            .hand(P0, &[ShantyTown, Estate, Copper])
            .deck(P0, &[Smithy, Gold, Silver])
            .start();
        let n = g.events().len();
        g.play(ShantyTown);
        assert_eq!(g.actions(), 2);
        assert_eq!(g.hand(P0), vec![Copper, Gold, Estate, Smithy]);
        assert_eq!(g.deck(P0), vec![Silver]);
        assert_eq!(g.in_play(P0), vec![ShantyTown]);
        assert_eq!(
            g.events_since(n)[..3],
            [
                Event::Played {
                    player: P0,
                    card: ShantyTown
                },
                Event::Revealed {
                    player: P0,
                    cards: vec![Copper, Estate]
                },
                Event::Drew {
                    player: P0,
                    count: 2,
                    cards: Some(vec![Smithy, Gold].into())
                },
            ]
        );
    }

    #[test]
    fn an_action_in_hand_means_no_cards() {
        let mut g = table(2)
            .hand(P0, &[ShantyTown, Copper, Village])
            .deck(P0, &[Gold, Silver])
            .start();
        g.play(ShantyTown);
        assert_eq!(g.actions(), 2);
        assert_eq!(g.hand(P0), vec![Copper, Village]);
        assert_eq!(g.deck(P0), vec![Gold, Silver]);
        assert!(g.events().contains(&Event::Revealed {
            player: P0,
            cards: vec![Copper, Village]
        }));
    }

    #[test]
    fn great_hall_and_nobles_in_hand_are_action_cards() {
        for card in [GreatHall, Nobles] {
            let mut g = table(2)
                .edition(Edition::First)
                .hand(P0, &[ShantyTown, card, Estate])
                .deck(P0, &[Gold, Silver])
                .start();
            g.play(ShantyTown);
            assert_eq!(g.actions(), 2);
            let mut hand = vec![Estate, card];
            hand.sort();
            assert_eq!(g.hand(P0), hand, "{card}");
            assert_eq!(g.deck(P0), vec![Gold, Silver]);
        }
    }

    #[test]
    fn a_treasure_victory_card_is_not_an_action() {
        let mut g = table(2)
            .hand(P0, &[ShantyTown, Harem])
            .deck(P0, &[Gold, Silver])
            .start();
        g.play(ShantyTown);
        assert_eq!(g.hand(P0), vec![Silver, Gold, Harem]);
    }

    #[test]
    fn an_empty_hand_draws_two_and_shows_nothing() {
        let mut g = table(2)
            .hand(P0, &[ShantyTown])
            .deck(P0, &[Gold])
            .discard(P0, &[Copper])
            .start();
        g.play(ShantyTown);
        assert_eq!(g.hand(P0), vec![Copper, Gold]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard(P0), vec![]);
        assert!(
            !g.events()
                .iter()
                .any(|e| matches!(e, Event::Revealed { .. }))
        );
    }
}
