//! Harbinger (2E only): +1 Card, +1 Action. Look through your discard pile; you may put
//! a card from it onto your deck.
//!
//! The card is drawn first, so a reshuffle it causes empties the discard pile before the
//! player looks through it. The pile's order does not matter (the 2E rulebook), so it is
//! offered sorted. Which card goes onto the deck is private: others see that one did.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::{Purpose, Zone};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(1);
    let mut options = cx.st.player(p).discard.clone();
    options.sort();
    let chosen = cx.choose_cards(
        p,
        CardId::Harbinger,
        Purpose::TopDeck,
        Zone::Discard,
        options,
        0,
        1,
    )?;
    if let Some(&card) = chosen.first() {
        cx.discard_to_deck(p, card);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::{self, *};
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Request, Viewer, Zone};

    fn topdeck_ask(options: Vec<CardId>) -> Request {
        Request {
            player: P0,
            card: Some(Harbinger),
            about: None,
            purpose: Purpose::TopDeck,
            prompt: Prompt::ChooseCards {
                zone: Zone::Discard,
                options,
                min: 0,
                max: 1,
            },
        }
    }

    #[test]
    fn puts_a_chosen_discard_onto_the_deck_privately() {
        let mut g = table(2)
            .hand(P0, &[Harbinger, Estate])
            .deck(P0, &[Copper, Silver])
            .discard(P0, &[Gold, Estate, Gold, Village])
            .start();
        g.play(Harbinger);
        assert_eq!(g.hand(P0), vec![Copper, Estate]);
        assert_eq!(g.actions(), 1);
        assert_eq!(g.req(), &topdeck_ask(vec![Gold, Gold, Estate, Village]));
        g.choose(P0, &[Gold]);
        assert_eq!(g.deck(P0), vec![Gold, Silver]);
        // The lowest Gold moved (copies are alike; see `Ctx::discard_to_deck`).
        assert_eq!(g.discard_pile(P0), vec![Estate, Gold, Village]);
        assert_eq!(g.hand(P0), vec![Copper, Estate]);
        assert_eq!(g.in_play(P0), vec![Harbinger]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.actions(), 1);
        assert_eq!(g.coins(), 0);

        let ev = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::TopDecked { .. }))
            .unwrap();
        assert_eq!(
            ev.for_viewer(Viewer::Player(P0)),
            Event::TopDecked {
                player: P0,
                count: 1,
                cards: Some(vec![Gold].into()),
                private: true
            }
        );
        assert_eq!(
            ev.for_viewer(Viewer::Player(P1)),
            Event::TopDecked {
                player: P0,
                count: 1,
                cards: None,
                private: true
            }
        );
        assert_eq!(
            ev.for_viewer(Viewer::Spectator),
            ev.for_viewer(Viewer::Player(P1))
        );
    }

    /// With Silver, Estate, Silver (top) in the discard pile, the public top stays a
    /// Silver whichever card goes onto the deck: nobody learns which one did. Under rules
    /// 1 the top Silver moved, uncovering the Estate, so everyone could tell.
    #[test]
    fn the_public_top_does_not_tell_which_card_went_onto_the_deck() {
        let top_after = |rules: u32, card: CardId| {
            let mut g = table(2)
                .rules(rules)
                .hand(P0, &[Harbinger])
                .deck(P0, &[Copper, Copper])
                .discard(P0, &[Silver, Estate, Silver])
                .start();
            g.play(Harbinger).choose(P0, &[card]);
            assert_eq!(g.deck(P0), vec![card, Copper]);
            let seen = g.view(Viewer::Player(P1)).seats[0].clone();
            (g.discard_pile(P0), seen.discard_top, seen.discard_count)
        };
        assert_eq!(
            top_after(2, Silver),
            (vec![Estate, Silver], Some(Silver), 2)
        );
        assert_eq!(
            top_after(2, Estate),
            (vec![Silver, Silver], Some(Silver), 2)
        );
        // Rules 1 (stored games keep it): the top told which.
        assert_eq!(top_after(1, Silver).1, Some(Estate));
        assert_eq!(top_after(1, Estate).1, Some(Silver));
    }

    /// The only copy of a card on top must come from the top: that it left is public.
    #[test]
    fn a_card_found_only_on_top_uncovers_the_next() {
        let mut g = table(2)
            .hand(P0, &[Harbinger])
            .deck(P0, &[Copper, Copper])
            .discard(P0, &[Silver, Estate, Gold])
            .start();
        g.play(Harbinger).choose(P0, &[Gold]);
        assert_eq!(g.discard_pile(P0), vec![Silver, Estate]);
        assert_eq!(g.deck(P0), vec![Gold, Copper]);
    }

    #[test]
    fn putting_a_card_back_is_optional() {
        let mut g = table(2)
            .hand(P0, &[Harbinger])
            .deck(P0, &[Copper, Silver])
            .discard(P0, &[Gold])
            .start();
        g.play(Harbinger);
        assert_eq!(g.req(), &topdeck_ask(vec![Gold]));
        g.choose(P0, &[]);
        assert_eq!(g.deck(P0), vec![Silver]);
        assert_eq!(g.discard_pile(P0), vec![Gold]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert!(
            !g.events()
                .iter()
                .any(|e| matches!(e, Event::TopDecked { .. }))
        );
    }

    #[test]
    fn draws_first_so_a_reshuffle_leaves_nothing_to_look_through() {
        let mut g = table(2).hand(P0, &[Harbinger]).discard(P0, &[Gold]).start();
        g.play(Harbinger);
        // The Gold was shuffled into the deck and drawn; the empty pile is not asked about.
        g.end_actions();
        assert_eq!(
            g.prompt(),
            &Prompt::BuyPhase {
                treasures: vec![Gold],
                buyable: vec![Copper, Curse]
            }
        );
        assert_eq!(g.hand(P0), vec![Gold]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.actions(), 1);
    }

    #[test]
    fn under_throne_room_the_second_play_draws_the_card_put_back() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Harbinger])
            .deck(P0, &[Copper, Estate])
            .discard(P0, &[Gold, Silver])
            .start();
        g.play(ThroneRoom).choose(P0, &[Harbinger]);
        assert_eq!(g.req(), &topdeck_ask(vec![Silver, Gold]));
        g.choose(P0, &[Gold]);
        // Second play: draws the Gold just put back, then may put back the Silver.
        assert_eq!(g.hand(P0), vec![Copper, Gold]);
        assert_eq!(g.req(), &topdeck_ask(vec![Silver]));
        g.choose(P0, &[Silver]);
        assert_eq!(g.deck(P0), vec![Silver, Estate]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.actions(), 2);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Harbinger]);
    }
}
