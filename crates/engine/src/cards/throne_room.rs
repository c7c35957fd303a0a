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
    use crate::{Prompt, Reply};

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
            .deck(
                P0,
                &[
                    Copper, Copper, Copper, Copper, Copper, Copper, Copper, Copper, Copper,
                ],
            )
            .start();
        g.play(ThroneRoom).choose(P0, &[ThroneRoom]);
        // The second Throne Room's first play: choose Village, played twice.
        assert_eq!(
            g.prompt(),
            &Prompt::ChooseCards {
                zone: crate::Zone::Hand,
                options: vec![Village, Smithy],
                min: 0,
                max: 1
            }
        );
        g.choose(P0, &[Village]);
        // Its second play: Village is in play now, so choose Smithy, played twice.
        g.choose(P0, &[Smithy]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, ThroneRoom, Village, Smithy]);
        assert_eq!(g.actions(), 4, "0 after Throne Room, +2 +2 from Village");
        // 2 (Village ×2) + 6 (Smithy ×2) = 8 cards drawn; Estate stays.
        assert_eq!(g.hand(P0).len(), 9);
        assert_eq!(g.deck(P0).len(), 1);
        // Each resolution counts (the Conspirator ruling): the first Throne Room once, the
        // second Throne Room twice (it was played twice), Village twice, Smithy twice.
        assert_eq!(g.state().turn.actions_played, 7);
    }

    #[test]
    fn second_edition_is_optional_first_edition_is_not() {
        let mut g = table(2).hand(P0, &[ThroneRoom, Smithy]).start();
        g.play(ThroneRoom);
        assert_eq!(
            g.prompt(),
            &Prompt::ChooseCards {
                zone: crate::Zone::Hand,
                options: vec![Smithy],
                min: 0,
                max: 1
            }
        );
        g.choose(P0, &[]);
        assert_eq!(g.hand(P0), vec![Smithy]);
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
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert!(g.reply(P0, Reply::EndPhase).is_ok());
    }

    #[test]
    fn with_no_action_in_hand_does_nothing() {
        let mut g = table(2).hand(P0, &[ThroneRoom, Copper]).start();
        g.play(ThroneRoom);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.hand(P0), vec![Copper]);
    }
}
