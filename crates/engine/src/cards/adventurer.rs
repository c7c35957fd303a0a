//! Adventurer (1E only): Reveal cards from your deck until you reveal 2 Treasures. Put
//! those into your hand and discard the other revealed cards.
//!
//! Cards are revealed one at a time into the set-aside zone, so a reshuffle in the middle
//! never takes in the cards already revealed (the rulebook's ruling); they are discarded
//! only at the end. When the deck and discard pile run out first, the Treasures found are
//! all the player gets.

use crate::ctx::{Ctx, Play, Res, To};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let (mut treasures, mut others) = (Vec::new(), Vec::new());
    while treasures.len() < 2 {
        let Some(&c) = cx.reveal_from_deck(p, 1).first() else {
            break;
        };
        if c.is_treasure() {
            treasures.push(c);
        } else {
            others.push(c);
        }
    }
    cx.from_aside(p, &treasures, To::Hand);
    cx.from_aside(p, &others, To::Discard);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Viewer};

    fn shuffles(g: &crate::Game) -> usize {
        g.events()
            .iter()
            .filter(|e| matches!(e, Event::Shuffled { .. }))
            .count()
    }

    #[test]
    fn stops_at_the_second_treasure_and_discards_the_rest_in_public() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Adventurer, Estate])
            .deck(P0, &[Estate, Copper, Smithy, Gold, Silver])
            .discard(P0, &[Duchy])
            .start();
        g.play(Adventurer);
        assert!(
            matches!(g.prompt(), Prompt::BuyPhase { .. }),
            "no decisions"
        );
        assert_eq!(g.hand(P0), vec![Copper, Gold, Estate]);
        assert_eq!(g.deck(P0), vec![Silver]);
        assert_eq!(g.discard_pile(P0), vec![Duchy, Estate, Smithy]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Adventurer]);
        assert_eq!(shuffles(&g), 0);
        // Everything revealed is public, and so are the moves out of the revealed zone.
        let tail: Vec<Event> = g
            .events()
            .iter()
            .skip_while(|e| !matches!(e, Event::Played { .. }))
            .skip(1)
            .take(6)
            .map(|e| e.for_viewer(Viewer::Player(P1)))
            .collect();
        let revealed = |c| Event::Revealed {
            player: P0,
            cards: vec![c],
        };
        assert_eq!(
            tail,
            vec![
                revealed(Estate),
                revealed(Copper),
                revealed(Smithy),
                revealed(Gold),
                Event::PutInHand {
                    player: P0,
                    cards: vec![Copper, Gold]
                },
                Event::Discarded {
                    player: P0,
                    count: 2,
                    cards: Some(vec![Estate, Smithy].into()),
                    top: Some(Smithy),
                    private: false
                },
            ]
        );
    }

    #[test]
    fn revealed_cards_are_not_shuffled_into_the_new_deck() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Adventurer])
            .deck(P0, &[Estate, Copper, Province])
            .discard(P0, &[Silver])
            .start();
        g.play(Adventurer);
        // The deck ran out after Province: only the Silver was shuffled into a new deck;
        // Estate and Province stayed revealed and were discarded at the end.
        assert_eq!(shuffles(&g), 1);
        assert_eq!(g.hand(P0), vec![Copper, Silver]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard_pile(P0), vec![Estate, Province]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Adventurer]);
    }

    #[test]
    fn with_too_few_treasures_takes_what_was_found() {
        // One Treasure in deck and discard together: reveal everything, take the one.
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Adventurer])
            .deck(P0, &[Copper, Estate])
            .discard(P0, &[Duchy])
            .start();
        g.play(Adventurer);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard_pile(P0), vec![Estate, Duchy]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(
            shuffles(&g),
            1,
            "once: the revealed Estate is not reshuffled"
        );

        // No Treasure at all, and an empty deck and discard pile: nothing happens.
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Adventurer, Copper])
            .deck(P0, &[Curse])
            .start();
        g.play(Adventurer);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.discard_pile(P0), vec![Curse]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.aside(P0), vec![]);
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Adventurer])
            .start();
        g.play(Adventurer);
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
    }

    #[test]
    fn throne_room_finds_four_treasures_in_two_rounds() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[ThroneRoom, Adventurer])
            .deck(P0, &[Copper, Estate, Silver, Village, Gold, Copper, Silver])
            .start();
        g.play(ThroneRoom);
        assert_eq!(g.hand(P0), vec![Copper, Copper, Silver, Gold]);
        assert_eq!(g.deck(P0), vec![Silver]);
        assert_eq!(g.discard_pile(P0), vec![Estate, Village]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Adventurer]);
        assert_eq!(g.aside(P0), vec![]);
    }
}
