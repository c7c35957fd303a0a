//! Wishing Well: +1 Card, +1 Action. Name a card, then reveal the top card of your deck.
//! If you named it, put it into your hand (otherwise it stays on top).
//!
//! A card name, not a type, is named: any card of this game's Supply (empty piles
//! included: the card still exists), offered in card order. The name is asked even
//! when the deck and discard pile are empty, as the card says; then nothing is revealed.
//! A card that does not match goes back on top, in public (it was revealed). The name
//! is said aloud: everyone is told it.

use crate::card::CardId;
use crate::ctx::{Ask, Ctx, Play, Res, To};
use crate::decision::Purpose;
use crate::event::Event;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(1);
    let mut options: Vec<CardId> = cx.st.supply.iter().map(|pile| pile.card).collect();
    options.sort();
    let named = cx.name_card(Ask::new(p, CardId::WishingWell, Purpose::Name), options)?;
    cx.emit(|| Event::Named {
        player: p,
        card: named,
    });
    for c in cx.reveal_from_deck(p, 1) {
        let to = if c == named { To::Hand } else { To::Deck };
        cx.from_aside(p, &[c], to);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::{self, *};
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Reply, Request};

    fn ask() -> Request {
        let mut options: Vec<CardId> = CardId::all().collect();
        options.sort();
        Request {
            player: P0,
            card: Some(WishingWell),
            about: None,
            purpose: Purpose::Name,
            prompt: Prompt::NameCard { options },
        }
    }

    #[test]
    fn a_match_goes_to_hand() {
        let mut g = table(2)
            .hand(P0, &[WishingWell])
            .deck(P0, &[Copper, Gold, Estate])
            .supply(Gold, 0)
            .start();
        g.play(WishingWell);
        assert_eq!(g.hand(P0), vec![Copper], "+1 Card before naming");
        assert_eq!(g.actions(), 1);
        assert_eq!(g.req(), &ask(), "an empty pile's card may still be named");
        let n = g.events().len();
        g.ok(P0, Reply::Name(Gold));
        assert_eq!(g.hand(P0), vec![Copper, Gold]);
        assert_eq!(g.deck(P0), vec![Estate]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![WishingWell]);
        assert_eq!(
            g.events_since(n)[..3],
            [
                Event::Named {
                    player: P0,
                    card: Gold
                },
                Event::Revealed {
                    player: P0,
                    cards: vec![Gold]
                },
                Event::PutInHand {
                    player: P0,
                    cards: vec![Gold]
                },
            ]
        );
    }

    #[test]
    fn no_match_stays_on_top() {
        let mut g = table(2)
            .hand(P0, &[WishingWell])
            .deck(P0, &[Copper, Gold, Estate])
            .start();
        g.play(WishingWell);
        assert_eq!(g.req(), &ask());
        g.ok(P0, Reply::Name(Silver));
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.deck(P0), vec![Gold, Estate]);
        assert_eq!(g.aside(P0), vec![]);
        assert_eq!(g.discard(P0), vec![]);
        assert!(g.events().contains(&Event::Revealed {
            player: P0,
            cards: vec![Gold]
        }));
    }

    #[test]
    fn the_revealed_card_may_come_from_a_shuffle() {
        let mut g = table(2)
            .hand(P0, &[WishingWell])
            .deck(P0, &[Copper])
            .discard(P0, &[Duchy])
            .start();
        g.play(WishingWell).ok(P0, Reply::Name(Duchy));
        assert!(g.events().contains(&Event::Shuffled { player: P0 }));
        assert_eq!(g.hand(P0), vec![Copper, Duchy]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard(P0), vec![]);
    }

    #[test]
    fn with_no_cards_left_reveals_nothing() {
        let mut g = table(2).hand(P0, &[WishingWell]).start();
        g.play(WishingWell);
        assert_eq!(g.req(), &ask());
        g.ok(P0, Reply::Name(Gold));
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.aside(P0), vec![]);
        assert!(
            !g.events()
                .iter()
                .any(|e| matches!(e, Event::Revealed { .. }))
        );
    }
}
