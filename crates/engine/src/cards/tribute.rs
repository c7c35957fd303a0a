//! Tribute (1E): The player to your left reveals then discards the top 2 cards of their
//! deck. For each differently named card revealed: Action → +2 Actions; Treasure → +$2;
//! Victory → +2 Cards (each type that applies).
//!
//! The cards are revealed one at a time into the neighbour's set-aside zone, so a short
//! deck shuffles the discard pile without the card already revealed; fewer cards in deck
//! and discard pile: only those. They are discarded in the open before the bonuses.
//! Two cards of one name give one bonus set; a two-type card gives both (Harem: +$2 and
//! +2 Cards); a Curse gives nothing. Not an Attack: no Reaction stops it.

use crate::ctx::{Ctx, Play, Res, To};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let me = cx.current();
    let Some(left) = cx.st.others(me).next() else {
        return Ok(());
    };
    let revealed = cx.reveal_from_deck(left, 2);
    cx.from_aside(left, &revealed, To::Discard);
    let mut names = revealed;
    names.sort();
    names.dedup();
    for c in names {
        if c.is_action() {
            cx.plus_actions(2);
        }
        if c.is_treasure() {
            cx.plus_coins(2);
        }
        if c.is_victory() {
            cx.draw(me, 2);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Viewer};

    fn first() -> Table {
        table(2).edition(Edition::First)
    }

    #[test]
    fn copper_and_harem_give_four_coins_and_two_cards() {
        let mut g = first()
            .hand(P0, &[Tribute])
            .deck(P0, &[Estate, Gold, Duchy])
            .deck(P1, &[Copper, Harem, Silver])
            .discard(P1, &[Curse])
            .start();
        let n = g.events().len();
        g.play(Tribute);
        assert!(
            matches!(g.prompt(), Prompt::BuyPhase { .. }),
            "no decisions"
        );
        assert_eq!(g.coins(), 4);
        assert_eq!(g.actions(), 0);
        assert_eq!(g.hand(P0), vec![Gold, Estate]);
        assert_eq!(g.deck(P0), vec![Duchy]);
        assert_eq!(g.deck(P1), vec![Silver]);
        assert_eq!(g.discard_pile(P1), vec![Curse, Copper, Harem]);
        assert_eq!(g.aside(P1), vec![]);
        assert_eq!(g.hand(P1), vec![]);
        assert_eq!(g.in_play(P0), vec![Tribute]);
        // The revealed cards and their discard are public.
        let seen: Vec<Event> = g
            .events_since(n)
            .iter()
            .filter(|e| matches!(e, Event::Revealed { .. } | Event::Discarded { .. }))
            .map(|e| e.for_viewer(Viewer::Player(P0)))
            .collect();
        assert_eq!(
            seen,
            vec![
                Event::Revealed {
                    player: P1,
                    cards: vec![Copper, Harem]
                },
                Event::Discarded {
                    player: P1,
                    count: 2,
                    cards: Some(vec![Copper, Harem].into()),
                    top: Some(Harem),
                    private: false
                },
            ]
        );
    }

    #[test]
    fn two_cards_of_one_name_give_one_bonus() {
        let mut g = first()
            .hand(P0, &[Tribute])
            .deck(P1, &[Copper, Copper, Estate])
            .start();
        g.play(Tribute);
        assert_eq!((g.coins(), g.actions()), (2, 0));
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.discard_pile(P1), vec![Copper, Copper]);
        assert_eq!(g.deck(P1), vec![Estate]);
    }

    #[test]
    fn curses_give_nothing_and_action_victory_gives_actions_and_cards() {
        let mut g = first()
            .hand(P0, &[Tribute])
            .deck(P0, &[Silver, Gold])
            .deck(P1, &[Curse, Curse])
            .start();
        g.play(Tribute);
        assert_eq!((g.coins(), g.actions()), (0, 0));
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.deck(P0), vec![Silver, Gold]);
        assert_eq!(g.discard_pile(P1), vec![Curse, Curse]);

        let mut g = first()
            .hand(P0, &[Tribute])
            .deck(P0, &[Silver, Gold])
            .deck(P1, &[GreatHall, Curse])
            .start();
        g.play(Tribute);
        assert_eq!((g.coins(), g.actions()), (0, 2));
        assert_eq!(g.hand(P0), vec![Silver, Gold]);
        assert_eq!(g.discard_pile(P1), vec![GreatHall, Curse]);
    }

    #[test]
    fn a_short_deck_shuffles_without_the_card_already_revealed() {
        let mut g = first()
            .hand(P0, &[Tribute])
            .deck(P1, &[Smithy])
            .discard(P1, &[Gold])
            .start();
        g.play(Tribute);
        assert_eq!(
            g.events()
                .iter()
                .filter(|e| **e == Event::Shuffled { player: P1 })
                .count(),
            1
        );
        // Smithy was not shuffled in: the new deck was the Gold alone.
        assert_eq!(g.discard_pile(P1), vec![Smithy, Gold]);
        assert_eq!((g.deck(P1), g.aside(P1)), (vec![], vec![]));
        assert_eq!((g.coins(), g.actions()), (2, 2));
    }

    #[test]
    fn with_fewer_cards_only_those_count() {
        let mut g = first().hand(P0, &[Tribute]).deck(P1, &[Village]).start();
        g.play(Tribute);
        assert_eq!((g.coins(), g.actions()), (0, 2));
        assert_eq!(g.discard_pile(P1), vec![Village]);

        let mut g = first().hand(P0, &[Tribute]).start();
        g.play(Tribute);
        assert_eq!((g.coins(), g.actions()), (0, 0));
        assert_eq!((g.discard_pile(P1), g.deck(P1)), (vec![], vec![]));
    }

    #[test]
    fn it_is_the_player_to_the_left_and_moat_does_not_stop_it() {
        let mut g = table(3)
            .edition(Edition::First)
            .current(P2)
            .hand(P2, &[Tribute])
            .hand(P0, &[Moat])
            .deck(P0, &[Silver, Village])
            .deck(P1, &[Estate, Estate])
            .start();
        g.play(Tribute);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }), "no Moat");
        assert_eq!((g.coins(), g.actions()), (2, 2));
        assert_eq!(g.discard_pile(P0), vec![Silver, Village]);
        assert_eq!(g.hand(P0), vec![Moat]);
        assert_eq!(g.deck(P1), vec![Estate, Estate]);
    }
}
