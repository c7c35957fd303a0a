//! Bureaucrat (Attack): Gain a Silver onto your deck. Each other player reveals a
//! Victory card from their hand and puts it onto their deck (or reveals a hand with no
//! Victory cards).
//!
//! A card put onto an empty deck becomes the whole deck (no shuffle). A hand without
//! Victory cards is revealed sorted, so its order tells nothing about how it was drawn;
//! an empty hand has nothing to reveal (its size is public anyway).

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    let p = cx.current();
    cx.gain(p, CardId::Silver, Destination::Deck);
    cx.each_victim(play, |cx, v| {
        if cx.st.player(v).hand.iter().any(|c| c.is_victory()) {
            let chosen = cx.choose_from_hand(
                v,
                CardId::Bureaucrat,
                Purpose::TopDeck,
                CardId::is_victory,
                1,
                1,
            )?;
            cx.reveal(v, &chosen);
            cx.topdeck_from_hand(v, &chosen, true);
        } else {
            let mut hand = cx.st.player(v).hand.clone();
            hand.sort();
            if !hand.is_empty() {
                cx.reveal(v, &hand);
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::{self, *};
    use crate::cards::testkit::*;
    use crate::{Destination, Event, PlayerId, Prompt, Purpose, Request, Viewer, Zone};

    fn topdeck_ask(v: PlayerId, options: Vec<CardId>) -> Request {
        Request {
            player: v,
            card: Some(Bureaucrat),
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

    /// The events after the Bureaucrat was played that concern the victims.
    fn victim_events(g: &crate::Game) -> Vec<Event> {
        g.events()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Revealed { .. } | Event::TopDecked { .. } | Event::Gained { .. }
                )
            })
            .cloned()
            .collect()
    }

    #[test]
    fn victims_in_turn_order_from_the_attackers_left() {
        // Player 2 attacks: victims are 3, 0, 1 in that order.
        let mut g = table(4)
            .current(P2)
            .hand(P2, &[Bureaucrat, Copper])
            .deck(P2, &[Gold])
            .hand(P3, &[Estate, Duchy, Copper])
            .deck(P3, &[Copper])
            .hand(P0, &[Silver, Copper])
            .deck(P0, &[Gold])
            .hand(P1, &[Province, Silver, Gardens])
            .start();
        g.play(Bureaucrat);
        // The Silver is already on the attacker's deck; player 3 is asked first.
        assert_eq!(g.deck(P2), vec![Silver, Gold]);
        assert_eq!(g.supply(Silver), 39);
        assert_eq!(g.req(), &topdeck_ask(P3, vec![Estate, Duchy]));
        assert_eq!(g.deck(P1), vec![], "player 1 not yet touched");
        g.choose(P3, &[Duchy]);
        // Player 0 has no Victory card and reveals the hand; then player 1 is asked.
        assert_eq!(g.req(), &topdeck_ask(P1, vec![Province, Gardens]));
        g.choose(P1, &[Gardens]);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.req().player, P2);

        assert_eq!(g.hand(P3), vec![Copper, Estate]);
        assert_eq!(g.deck(P3), vec![Duchy, Copper]);
        assert_eq!(g.discard(P3), vec![]);
        assert_eq!(g.hand(P0), vec![Copper, Silver]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.discard(P0), vec![]);
        // An empty deck becomes just the Victory card.
        assert_eq!(g.hand(P1), vec![Silver, Province]);
        assert_eq!(g.deck(P1), vec![Gardens]);
        assert_eq!(g.discard(P1), vec![]);
        assert_eq!(g.hand(P2), vec![Copper]);
        assert_eq!(g.in_play(P2), vec![Bureaucrat]);
        assert_eq!(g.coins(), 0);

        let topdecked = |player, c| Event::TopDecked {
            player,
            count: 1,
            cards: Some(vec![c].into()),
            private: false,
        };
        let revealed = |player, cards: &[CardId]| Event::Revealed {
            player,
            cards: cards.to_vec(),
        };
        let expected = vec![
            Event::Gained {
                player: P2,
                card: Silver,
                to: Destination::Deck,
            },
            revealed(P3, &[Duchy]),
            topdecked(P3, Duchy),
            revealed(P0, &[Copper, Silver]),
            revealed(P1, &[Gardens]),
            topdecked(P1, Gardens),
        ];
        assert_eq!(victim_events(&g), expected);
        // All of it is public: another player sees exactly the same.
        let seen: Vec<Event> = victim_events(&g)
            .iter()
            .map(|e| e.for_viewer(Viewer::Player(P0)))
            .collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn silver_onto_an_empty_deck_and_a_forced_victory_card() {
        let mut g = table(2)
            .hand(P0, &[Bureaucrat])
            .discard(P0, &[Copper, Estate])
            .hand(P1, &[Estate, Estate, Copper])
            .deck(P1, &[Gold, Silver])
            .start();
        g.play(Bureaucrat);
        // One kind of Victory card: nothing to choose, so not asked.
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.deck(P0), vec![Silver], "the Silver is the whole deck");
        assert_eq!(g.discard_pile(P0), vec![Copper, Estate], "no shuffle");
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.supply(Silver), 39);
        assert_eq!(g.hand(P1), vec![Copper, Estate]);
        assert_eq!(g.deck(P1), vec![Estate, Gold, Silver]);
        assert_eq!(g.discard(P1), vec![]);
        assert!(
            !g.events()
                .iter()
                .any(|e| matches!(e, Event::Shuffled { .. }))
        );
    }

    #[test]
    fn with_no_silver_left_the_attack_still_happens() {
        let mut g = table(2)
            .hand(P0, &[Bureaucrat])
            .deck(P0, &[Gold])
            .hand(P1, &[Duchy])
            .supply(Silver, 0)
            .start();
        g.play(Bureaucrat);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.supply(Silver), 0);
        assert_eq!(g.hand(P1), vec![]);
        assert_eq!(g.deck(P1), vec![Duchy]);
    }

    #[test]
    fn an_empty_hand_reveals_nothing() {
        let mut g = table(2).hand(P0, &[Bureaucrat]).deck(P1, &[Estate]).start();
        g.play(Bureaucrat);
        assert_eq!(g.deck(P1), vec![Estate]);
        assert_eq!(g.hand(P1), vec![]);
        assert!(
            !g.events()
                .iter()
                .any(|e| matches!(e, Event::Revealed { player, .. } if *player == P1))
        );
    }

    #[test]
    fn moat_protects_its_holder_only_and_the_attacker_still_gains() {
        let mut g = table(3)
            .hand(P0, &[Bureaucrat])
            .hand(P1, &[Moat, Estate])
            .hand(P2, &[Moat, Duchy])
            .start();
        g.play(Bureaucrat);
        assert_eq!(
            g.req(),
            &Request {
                player: P1,
                card: Some(Bureaucrat),
                about: None,
                purpose: Purpose::React,
                prompt: Prompt::ChooseCards {
                    zone: Zone::Hand,
                    options: vec![Moat],
                    min: 0,
                    max: 1
                }
            }
        );
        g.choose(P1, &[Moat]);
        assert_eq!(g.req().player, P2);
        assert_eq!(g.req().purpose, Purpose::React);
        g.choose(P2, &[]);
        // Player 2's only Victory card goes on their deck, forced; player 1 keeps theirs.
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.hand(P1), vec![Estate, Moat]);
        assert_eq!(g.deck(P1), vec![]);
        assert_eq!(g.hand(P2), vec![Moat]);
        assert_eq!(g.deck(P2), vec![Duchy]);
        assert_eq!(g.deck(P0), vec![Silver]);
        assert_eq!(g.supply(Silver), 39);
    }

    #[test]
    fn throne_room_gains_two_silvers_and_takes_two_victory_cards() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Bureaucrat])
            .deck(P0, &[Gold])
            .hand(P1, &[Estate, Province, Copper])
            .start();
        g.play(ThroneRoom).choose(P0, &[Bureaucrat]);
        assert_eq!(g.req(), &topdeck_ask(P1, vec![Estate, Province]));
        g.choose(P1, &[Estate]);
        // The second play: only the Province is left, so it goes without asking.
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.deck(P0), vec![Silver, Silver, Gold]);
        assert_eq!(g.supply(Silver), 38);
        assert_eq!(g.hand(P1), vec![Copper]);
        assert_eq!(g.deck(P1), vec![Province, Estate]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Bureaucrat]);
    }
}
