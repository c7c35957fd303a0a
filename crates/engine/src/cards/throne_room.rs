//! Throne Room. 1E: Choose an Action card in your hand; play it twice.
//! 2E: You may play an Action card from your hand twice.
//!
//! Nothing here knows which card is being doubled: the second play simply resolves the
//! same card again, finishing the first play before the second.

use crate::card::{CardId, Edition};
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Event;
use crate::turn;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let min = if cx.st.edition == Edition::First {
        1
    } else {
        0
    };
    let chosen = cx.choose_from_hand(
        p,
        CardId::ThroneRoom,
        Purpose::PlayTwice,
        CardId::is_action,
        min,
        1,
    )?;
    if let Some(&card) = chosen.first() {
        let inner = turn::put_in_play(cx, card);
        turn::resolve(cx, inner)?;
        cx.emit(|| Event::PlayedAgain { player: p, card });
        turn::resolve(cx, inner)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::state::Phase;
    use crate::{Event, InvalidReply, Prompt, Purpose, Reply, Zone};

    fn hand_prompt(options: Vec<crate::CardId>, min: u8, max: u8) -> Prompt {
        Prompt::ChooseCards {
            zone: Zone::Hand,
            options,
            min,
            max,
        }
    }

    #[test]
    fn the_chosen_card_is_played_twice_and_the_second_play_uses_no_action() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Smithy, Village])
            .deck(P0, &[Copper, Silver, Gold, Estate, Duchy, Province, Curse])
            .start();
        g.play(ThroneRoom);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.purpose),
            (P0, Some(ThroneRoom), Purpose::PlayTwice)
        );
        assert_eq!(r.prompt, hand_prompt(vec![Village, Smithy], 0, 1));
        let n = g.events().len();
        g.choose(P0, &[Smithy]);
        assert_eq!(
            g.events_since(n),
            vec![
                Event::Played {
                    player: P0,
                    card: Smithy
                },
                Event::Drew {
                    player: P0,
                    count: 3,
                    cards: Some(vec![Copper, Silver, Gold].into())
                },
                Event::PlayedAgain {
                    player: P0,
                    card: Smithy
                },
                Event::Drew {
                    player: P0,
                    count: 3,
                    cards: Some(vec![Estate, Duchy, Province].into())
                },
                Event::PhaseStarted {
                    player: P0,
                    phase: Phase::Buy
                },
            ]
        );
        // Throne Room took the only Action; Smithy twice took none, so Village stays.
        assert_eq!(g.actions(), 0);
        assert_eq!(
            g.hand(P0),
            vec![Copper, Silver, Gold, Estate, Duchy, Province, Village]
        );
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Smithy]);
        assert_eq!(g.deck(P0), vec![Curse]);
        assert_eq!(g.state().turn.actions_played, 3);
    }

    #[test]
    fn the_first_play_finishes_before_the_second_starts() {
        // Throne Room + Cellar: the second Cellar offers the cards the first one drew.
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Cellar, Estate, Estate, Copper])
            .deck(P0, &[Gold, Silver, Duchy, Province])
            .start();
        g.play(ThroneRoom).choose(P0, &[Cellar]);
        assert_eq!(g.prompt(), &hand_prompt(vec![Copper, Estate, Estate], 0, 3));
        g.choose(P0, &[Estate, Estate]);
        assert_eq!(g.prompt(), &hand_prompt(vec![Copper, Silver, Gold], 0, 3));
        g.choose(P0, &[Copper]);
        assert_eq!(g.hand(P0), vec![Silver, Gold, Duchy]);
        assert_eq!(g.deck(P0), vec![Province]);
        assert_eq!(g.discard_pile(P0), vec![Estate, Estate, Copper]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Cellar]);
        assert_eq!(g.actions(), 2, "1 - 1 for Throne Room + 1 + 1");
    }

    #[test]
    fn a_throne_roomed_militia_finishes_its_attack_before_attacking_again() {
        let mut g = table(3)
            .hand(P0, &[ThroneRoom, Militia])
            .hand(P1, &[Copper, Copper, Estate, Estate, Gold])
            .hand(P2, &[Silver, Silver, Silver, Silver])
            .start();
        g.play(ThroneRoom);
        // 2E: optional, so even a lone Militia is asked for.
        g.choose(P0, &[Militia]);
        // First play: +$2, P1 chooses, P2's single kind of card is discarded unasked.
        assert_eq!(g.coins(), 2);
        assert_eq!(g.req().player, P1);
        assert_eq!(g.hand(P2), vec![Silver; 4], "P2 after P1");
        g.choose(P1, &[Estate, Gold]);
        // Second play: +$2 again; both hands are at 3, so nobody discards more.
        assert_eq!(g.coins(), 4);
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
        assert_eq!(g.hand(P1), vec![Copper, Copper, Estate]);
        assert_eq!(g.discard_pile(P1), vec![Estate, Gold]);
        assert_eq!(g.hand(P2), vec![Silver; 3]);
        assert_eq!(g.discard_pile(P2), vec![Silver]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Militia]);
    }

    #[test]
    fn on_a_plus_one_action_card_leaves_two_actions() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Market, Copper])
            .deck(P0, &[Silver, Gold, Estate])
            .start();
        g.play(ThroneRoom).choose(P0, &[Market]);
        assert_eq!(g.actions(), 2, "1 - 1 for Throne Room + 1 + 1");
        assert_eq!(g.buys(), 3);
        assert_eq!(g.coins(), 2);
        assert_eq!(g.hand(P0), vec![Copper, Silver, Gold]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Market]);
        assert_eq!(g.deck(P0), vec![Estate]);
    }

    #[test]
    fn throne_room_on_throne_room_plays_two_cards_twice_each() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, ThroneRoom, Smithy, Village, Estate])
            .deck(P0, &[Copper; 9])
            .start();
        g.play(ThroneRoom);
        assert_eq!(
            g.prompt(),
            &hand_prompt(vec![Village, Smithy, ThroneRoom], 0, 1)
        );
        g.choose(P0, &[ThroneRoom]);
        // The second Throne Room's first play: choose Village, played twice.
        assert_eq!(g.prompt(), &hand_prompt(vec![Village, Smithy], 0, 1));
        g.choose(P0, &[Village]);
        // Its second play: Village is in play now, so only Smithy can be chosen.
        assert_eq!(g.prompt(), &hand_prompt(vec![Smithy], 0, 1));
        g.choose(P0, &[Smithy]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, ThroneRoom, Village, Smithy]);
        assert_eq!(g.actions(), 4, "0 after Throne Room, +2 +2 from Village");
        // 2 (Village ×2) + 6 (Smithy ×2) = 8 cards drawn; Estate stays.
        let mut hand = vec![Copper; 8];
        hand.push(Estate);
        assert_eq!(g.hand(P0), hand);
        assert_eq!(g.deck(P0), vec![Copper]);
        // Each resolution counts (the Conspirator ruling): the first Throne Room once, the
        // second Throne Room twice (it was played twice), Village twice, Smithy twice.
        assert_eq!(g.state().turn.actions_played, 7);
    }

    #[test]
    fn throne_room_on_throne_room_never_plays_one_card_four_times() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, ThroneRoom, Smithy])
            .deck(P0, &[Copper; 15])
            .start();
        g.play(ThroneRoom).choose(P0, &[ThroneRoom]);
        g.choose(P0, &[Smithy]);
        // The second Throne Room's second play finds no Action in hand: it does nothing.
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
        assert_eq!(
            g.hand(P0),
            vec![Copper; 6],
            "Smithy played twice, not 4 times"
        );
        assert_eq!(g.deck(P0), vec![Copper; 9]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, ThroneRoom, Smithy]);
    }

    #[test]
    fn second_edition_is_optional_first_edition_is_not() {
        let mut g = table(2).hand(P0, &[ThroneRoom, Smithy]).start();
        g.play(ThroneRoom);
        assert_eq!(g.prompt(), &hand_prompt(vec![Smithy], 0, 1));
        g.choose(P0, &[]);
        assert_eq!(g.hand(P0), vec![Smithy]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom]);
        assert!(
            matches!(g.prompt(), Prompt::BuyPhase { .. }),
            "no actions left"
        );

        // 1E: with one Action in hand the choice is forced, so it is not even asked.
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[ThroneRoom, Smithy])
            .deck(P0, &[Copper; 6])
            .start();
        g.play(ThroneRoom);
        assert_eq!(g.hand(P0), vec![Copper; 6]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Smithy]);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert!(g.reply(P0, Reply::EndPhase).is_ok());

        // 1E with two: one must be chosen.
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[ThroneRoom, Smithy, Village])
            .start();
        g.play(ThroneRoom);
        assert_eq!(g.prompt(), &hand_prompt(vec![Village, Smithy], 1, 1));
        assert_eq!(
            g.reply(P0, Reply::Cards(vec![])),
            Err(InvalidReply::WrongCount {
                got: 0,
                min: 1,
                max: 1
            })
        );
    }

    #[test]
    fn with_no_action_in_hand_it_may_still_be_played_and_does_nothing() {
        for edition in [Edition::Second, Edition::First] {
            let mut g = table(2)
                .edition(edition)
                .hand(P0, &[ThroneRoom, Copper])
                .start();
            assert_eq!(
                g.prompt(),
                &Prompt::ActionPhase {
                    playable: vec![ThroneRoom]
                }
            );
            g.play(ThroneRoom);
            assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
            assert_eq!(g.hand(P0), vec![Copper]);
            assert_eq!(g.in_play(P0), vec![ThroneRoom]);
        }
    }
}
