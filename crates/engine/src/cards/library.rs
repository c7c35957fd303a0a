//! Library: Draw until you have 7 cards in hand, skipping any Action cards you choose
//! to; set those aside, discarding them afterwards.
//!
//! Cards are drawn one at a time, and each Action is offered as it is drawn (skipping is
//! optional; nothing else may be skipped). Set-aside cards sit in the public set-aside
//! zone, so a reshuffle during the draw never takes them in; they are discarded when
//! drawing stops (7 in hand, or nothing left to draw). With 7 or more in hand nothing is
//! drawn.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res, To};
use crate::decision::{Purpose, Zone};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    while cx.st.player(p).hand.len() < 7 {
        if cx.draw(p, 1) == 0 {
            break;
        }
        let card = *cx.st.player(p).hand.last().expect("a card was just drawn");
        if card.is_action() {
            let skip = cx.choose_cards(
                p,
                CardId::Library,
                Purpose::SetAside,
                Zone::Hand,
                vec![card],
                0,
                1,
            )?;
            if !skip.is_empty() {
                cx.set_aside_from_hand(p, card);
            }
        }
    }
    cx.all_from_aside(p, To::Discard);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::{self, *};
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Request, Viewer, Zone};

    fn skip_ask(card: CardId) -> Request {
        Request {
            player: P0,
            card: Some(Library),
            about: None,
            purpose: Purpose::SetAside,
            prompt: Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![card],
                min: 0,
                max: 1,
            },
        }
    }

    fn shuffles(g: &crate::Game) -> usize {
        g.events()
            .iter()
            .filter(|e| matches!(e, Event::Shuffled { .. }))
            .count()
    }

    #[test]
    fn draws_one_at_a_time_to_seven_offering_only_actions() {
        let mut g = table(2)
            .hand(P0, &[Library, Copper, Copper, Estate])
            .deck(P0, &[Silver, Village, Smithy, Gold, Copper, Estate, Duchy])
            .discard(P0, &[Province])
            .start();
        g.play(Library);
        // Silver was drawn without a question; Village is offered as soon as it is drawn.
        assert_eq!(g.req(), &skip_ask(Village));
        assert_eq!(g.hand(P0), vec![Copper, Copper, Silver, Estate, Village]);
        assert_eq!(g.deck(P0), vec![Smithy, Gold, Copper, Estate, Duchy]);
        g.choose(P0, &[Village]);
        assert_eq!(g.aside(P0), vec![Village]);
        assert_eq!(g.req(), &skip_ask(Smithy));
        g.choose(P0, &[]);
        // Smithy kept (5 in hand), then Gold and Copper make 7.
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(
            g.hand(P0),
            vec![Copper, Copper, Copper, Silver, Gold, Estate, Smithy]
        );
        assert_eq!(g.deck(P0), vec![Estate, Duchy]);
        assert_eq!(g.discard_pile(P0), vec![Province, Village]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Library]);
        assert_eq!(shuffles(&g), 0);

        // What the opponent sees: each draw as a count only; the skipped card in public.
        let seen: Vec<Event> = g
            .events()
            .iter()
            .skip_while(|e| !matches!(e, Event::Played { .. }))
            .skip(1)
            .take(8)
            .map(|e| e.for_viewer(Viewer::Player(P1)))
            .collect();
        let hidden_draw = Event::Drew {
            player: P0,
            count: 1,
            cards: None,
        };
        assert_eq!(
            seen,
            vec![
                hidden_draw.clone(),
                hidden_draw.clone(),
                Event::SetAside {
                    player: P0,
                    cards: vec![Village]
                },
                hidden_draw.clone(),
                hidden_draw.clone(),
                hidden_draw.clone(),
                Event::Discarded {
                    player: P0,
                    count: 1,
                    cards: Some(vec![Village].into()),
                    top: Some(Village),
                    private: false
                },
                Event::PhaseStarted {
                    player: P0,
                    phase: crate::Phase::Buy
                },
            ]
        );
        // The drawer sees their own cards.
        let first_draw = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::Drew { .. }))
            .unwrap();
        assert_eq!(
            first_draw.for_viewer(Viewer::Player(P0)),
            Event::Drew {
                player: P0,
                count: 1,
                cards: Some(vec![Silver].into())
            }
        );
    }

    #[test]
    fn set_aside_cards_are_not_shuffled_in_when_the_deck_runs_out() {
        let mut g = table(2)
            .hand(P0, &[Library])
            .deck(P0, &[Village, Copper])
            .discard(P0, &[Silver])
            .start();
        g.play(Library);
        assert_eq!(g.req(), &skip_ask(Village));
        g.choose(P0, &[Village]);
        // Copper, then the deck is empty: only the Silver is shuffled into a new deck;
        // the Village stays set aside. Nothing is left after the Silver: 2 cards, not 7.
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(shuffles(&g), 1);
        assert_eq!(g.hand(P0), vec![Copper, Silver]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard_pile(P0), vec![Village]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Library]);
    }

    #[test]
    fn with_seven_or_more_in_hand_draws_nothing() {
        for extra in [7, 8] {
            let mut hand = vec![Library];
            hand.extend(std::iter::repeat_n(Copper, extra));
            let mut g = table(2).hand(P0, &hand).deck(P0, &[Gold, Village]).start();
            g.play(Library);
            assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
            assert_eq!(g.hand(P0), vec![Copper; extra]);
            assert_eq!(g.deck(P0), vec![Gold, Village]);
            assert_eq!(g.discard(P0), vec![]);
            assert!(
                !g.events().iter().any(|e| matches!(e, Event::Drew { .. })),
                "{extra} in hand"
            );
        }
    }

    #[test]
    fn with_no_cards_left_draws_what_there_is_and_stops() {
        let mut g = table(2)
            .hand(P0, &[Library, Copper])
            .deck(P0, &[Estate])
            .start();
        g.play(Library);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.hand(P0), vec![Copper, Estate]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.aside(P0), vec![]);
    }

    #[test]
    fn throne_room_the_first_plays_set_aside_cards_are_discarded_before_the_second() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Library])
            .deck(P0, &[Copper, Village, Copper])
            .start();
        g.play(ThroneRoom).choose(P0, &[Library]);
        // First Library: Copper, Village (skipped), Copper; then nothing left anywhere.
        assert_eq!(g.req(), &skip_ask(Village));
        g.choose(P0, &[Village]);
        // The first play ended by discarding the Village; the second play finds the deck
        // empty, shuffles the Village in and draws it, and may skip it again.
        assert_eq!(g.req(), &skip_ask(Village));
        assert_eq!(shuffles(&g), 1);
        assert_eq!(g.hand(P0), vec![Copper, Copper, Village]);
        assert_eq!(g.discard(P0), vec![]);
        g.choose(P0, &[]);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.hand(P0), vec![Copper, Copper, Village]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Library]);
    }
}
