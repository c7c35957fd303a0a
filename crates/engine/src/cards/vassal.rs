//! Vassal (2E only): +$2. Discard the top card of your deck. If it is an Action card, you
//! may play it.
//!
//! The card is revealed (shuffling if the deck is empty) and discarded in the open; only
//! then is the player asked whether to play it, from the top of the discard pile. Playing
//! it is optional and uses no Action, so it works even with no Actions left.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res, To};
use crate::decision::{Purpose, Zone};
use crate::turn;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.plus_coins(2);
    let Some(&card) = cx.reveal_from_deck(p, 1).first() else {
        return Ok(());
    };
    cx.from_aside(p, &[card], To::Discard);
    if card.is_action() {
        let chosen = cx.choose_cards(
            p,
            CardId::Vassal,
            Purpose::Play,
            Zone::Discard,
            vec![card],
            0,
            1,
        )?;
        if !chosen.is_empty() {
            turn::play_from_discard(cx, card)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::{self, *};
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Request, Viewer, Zone};

    fn play_ask(card: CardId) -> Request {
        Request {
            player: P0,
            card: Some(Vassal),
            about: None,
            purpose: Purpose::Play,
            prompt: Prompt::ChooseCards {
                zone: Zone::Discard,
                options: vec![card],
                min: 0,
                max: 1,
            },
        }
    }

    #[test]
    fn discards_a_non_action_in_public_without_asking() {
        let mut g = table(2)
            .hand(P0, &[Vassal, Copper])
            .deck(P0, &[Gold, Estate])
            .discard(P0, &[Duchy])
            .start();
        g.play(Vassal);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.coins(), 2);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.deck(P0), vec![Estate]);
        assert_eq!(g.discard_pile(P0), vec![Duchy, Gold]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Vassal]);
        let seen: Vec<Event> = g
            .events()
            .iter()
            .skip_while(|e| !matches!(e, Event::Played { .. }))
            .skip(1)
            .take(2)
            .map(|e| e.for_viewer(Viewer::Player(P1)))
            .collect();
        assert_eq!(
            seen,
            vec![
                Event::Revealed {
                    player: P0,
                    cards: vec![Gold]
                },
                Event::Discarded {
                    player: P0,
                    count: 1,
                    cards: Some(vec![Gold].into()),
                    top: Some(Gold),
                    private: false
                },
            ]
        );
    }

    #[test]
    fn plays_a_discarded_smithy_with_no_actions_left() {
        let mut g = table(2)
            .hand(P0, &[Vassal])
            .deck(P0, &[Smithy, Copper, Silver, Gold, Estate])
            .discard(P0, &[Duchy])
            .start();
        g.play(Vassal);
        assert_eq!(g.actions(), 0);
        assert_eq!(g.req(), &play_ask(Smithy));
        assert_eq!(
            g.discard_pile(P0),
            vec![Duchy, Smithy],
            "discarded before asking"
        );
        g.choose(P0, &[Smithy]);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.actions(), 0, "no Action used");
        assert_eq!(g.coins(), 2);
        assert_eq!(g.hand(P0), vec![Copper, Silver, Gold]);
        assert_eq!(g.deck(P0), vec![Estate]);
        assert_eq!(g.discard_pile(P0), vec![Duchy]);
        assert_eq!(g.in_play(P0), vec![Vassal, Smithy]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.state().turn.actions_played, 2);
    }

    #[test]
    fn playing_is_optional() {
        let mut g = table(2)
            .hand(P0, &[Vassal])
            .deck(P0, &[Smithy, Copper])
            .start();
        g.play(Vassal);
        assert_eq!(g.req(), &play_ask(Smithy));
        g.choose(P0, &[]);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.deck(P0), vec![Copper]);
        assert_eq!(g.discard_pile(P0), vec![Smithy]);
        assert_eq!(g.in_play(P0), vec![Vassal]);
        assert_eq!(g.coins(), 2);
    }

    #[test]
    fn a_played_village_gives_its_two_actions() {
        let mut g = table(2)
            .hand(P0, &[Vassal, Smithy])
            .deck(P0, &[Village, Gold, Copper])
            .start();
        g.play(Vassal).choose(P0, &[Village]);
        assert_eq!(g.actions(), 2, "0 after Vassal, +2 from the Village");
        assert_eq!(g.hand(P0), vec![Gold, Smithy]);
        assert_eq!(g.deck(P0), vec![Copper]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Vassal, Village]);
        assert_eq!(
            g.prompt(),
            &Prompt::ActionPhase {
                playable: vec![Smithy]
            }
        );
    }

    #[test]
    fn shuffles_when_the_deck_is_empty_and_does_nothing_with_no_cards() {
        let mut g = table(2).hand(P0, &[Vassal]).discard(P0, &[Smithy]).start();
        g.play(Vassal);
        assert_eq!(g.req(), &play_ask(Smithy));
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard_pile(P0), vec![Smithy]);

        let mut g = table(2).hand(P0, &[Vassal]).start();
        g.play(Vassal);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.coins(), 2);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Vassal]);
    }

    #[test]
    fn a_vassal_may_play_another_vassal() {
        let mut g = table(2)
            .hand(P0, &[Vassal])
            .deck(P0, &[Vassal, Gold, Copper])
            .start();
        g.play(Vassal).choose(P0, &[Vassal]);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.coins(), 4);
        assert_eq!(g.in_play(P0), vec![Vassal, Vassal]);
        assert_eq!(g.discard_pile(P0), vec![Gold]);
        assert_eq!(g.deck(P0), vec![Copper]);
    }

    #[test]
    fn under_throne_room_each_play_discards_a_card() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Vassal])
            .deck(P0, &[Village, Smithy, Copper, Gold])
            .start();
        g.play(ThroneRoom).choose(P0, &[Vassal]);
        // First Vassal: Village, played (draws the Smithy, +2 Actions).
        assert_eq!(g.req(), &play_ask(Village));
        g.choose(P0, &[Village]);
        // Second Vassal: the Copper, discarded.
        assert_eq!(g.coins(), 4);
        assert_eq!(g.actions(), 2);
        assert_eq!(g.hand(P0), vec![Smithy]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.discard_pile(P0), vec![Copper]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Vassal, Village]);
        assert_eq!(
            g.prompt(),
            &Prompt::ActionPhase {
                playable: vec![Smithy]
            }
        );
    }
}
