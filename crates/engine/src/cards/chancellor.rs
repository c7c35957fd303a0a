//! Chancellor (1E only): +$2. You may immediately put your deck into your discard pile.
//!
//! The choice is made at once, before anything else happens (the rulebook's ruling), and
//! without looking through the deck: it moves unseen, its order kept. With no deck there
//! is nothing to decide, so nothing is asked.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.plus_coins(2);
    if !cx.st.player(p).deck.is_empty() && cx.yes_no(p, CardId::Chancellor, Purpose::DiscardDeck)? {
        cx.deck_to_discard(p);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Reply, Request, Viewer};

    fn asked() -> Request {
        Request {
            player: P0,
            card: Some(Chancellor),
            about: None,
            purpose: Purpose::DiscardDeck,
            prompt: Prompt::YesNo,
        }
    }

    #[test]
    fn yes_puts_the_deck_on_the_discard_pile_in_its_order_unseen() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Chancellor, Copper])
            .deck(P0, &[Gold, Estate, Silver])
            .discard(P0, &[Duchy])
            .start();
        g.play(Chancellor);
        // Asked at once, before the turn goes on, with the deck untouched.
        assert_eq!(g.req(), &asked());
        assert_eq!(g.coins(), 2);
        assert_eq!(g.deck(P0), vec![Gold, Estate, Silver]);
        g.ok(P0, Reply::YesNo(true));
        assert_eq!(g.deck(P0), vec![]);
        // The old deck lies on the old discard pile, its top card (Gold) now on top.
        assert_eq!(g.discard_pile(P0), vec![Duchy, Silver, Estate, Gold]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.in_play(P0), vec![Chancellor]);
        assert_eq!(g.coins(), 2);
        assert_eq!(g.actions(), 0);
        let ev = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::DeckDiscarded { .. }))
            .unwrap();
        assert_eq!(
            ev,
            &Event::DeckDiscarded {
                player: P0,
                count: 3,
                top: Some(Gold)
            }
        );
        // Nobody sees the cards but the one now on top of the face-up discard pile.
        assert!(!ev.has_private_part(), "no one sees more, not even P0");
        assert_eq!(ev.for_viewer(Viewer::Player(P1)), *ev);
    }

    #[test]
    fn no_keeps_the_deck() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Chancellor])
            .deck(P0, &[Gold, Estate])
            .discard(P0, &[Duchy])
            .start();
        g.play(Chancellor).ok(P0, Reply::YesNo(false));
        assert_eq!(g.deck(P0), vec![Gold, Estate]);
        assert_eq!(g.discard_pile(P0), vec![Duchy]);
        assert_eq!(g.coins(), 2);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
    }

    #[test]
    fn with_an_empty_deck_nothing_is_asked_even_with_a_discard_pile() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Chancellor, Copper])
            .discard(P0, &[Duchy, Gold])
            .start();
        g.play(Chancellor);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.coins(), 2);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard_pile(P0), vec![Duchy, Gold]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert!(
            !g.events()
                .iter()
                .any(|e| matches!(e, Event::Shuffled { .. })),
            "nothing was drawn, so nothing is shuffled"
        );
    }

    #[test]
    fn under_throne_room_asks_twice_only_while_there_is_a_deck() {
        // No, then yes: two questions, +$4.
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[ThroneRoom, Chancellor])
            .deck(P0, &[Gold, Estate])
            .start();
        g.play(ThroneRoom);
        assert_eq!(g.req(), &asked());
        assert_eq!(g.coins(), 2);
        g.ok(P0, Reply::YesNo(false));
        assert_eq!(g.req(), &asked());
        assert_eq!(g.coins(), 4);
        g.ok(P0, Reply::YesNo(true));
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard_pile(P0), vec![Estate, Gold]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Chancellor]);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));

        // Yes at once: the second play finds no deck and asks nothing.
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[ThroneRoom, Chancellor])
            .deck(P0, &[Gold, Estate])
            .start();
        g.play(ThroneRoom).ok(P0, Reply::YesNo(true));
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.coins(), 4);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard_pile(P0), vec![Estate, Gold]);
    }
}
