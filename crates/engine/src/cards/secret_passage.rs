//! Secret Passage (2E): +2 Cards, +1 Action. Take a card from your hand and put it
//! anywhere in your deck.
//!
//! Asked in two steps: which card (any card in hand, a drawn one or not), then how many
//! cards of the deck go above it — 0 puts it on top, the deck's size at the bottom. An
//! empty deck asks nothing: the card becomes the deck. Others see that one card went into
//! the deck, not which (it came from the hand unrevealed).

use crate::card::CardId;
use crate::ctx::{Ask, Ctx, Play, Res};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 2);
    cx.plus_actions(1);
    let Some(&card) = cx
        .choose_from_hand(p, CardId::SecretPassage, Purpose::TopDeck, |_| true, 1, 1)?
        .first()
    else {
        return Ok(());
    };
    let deck_len = cx.st.player(p).deck.len() as u32;
    let ask = Ask::new(p, CardId::SecretPassage, Purpose::PlaceInDeck);
    let above = cx.choose_number(ask, 0, deck_len)?;
    cx.hand_into_deck(p, card, above as usize);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Reply, Viewer, Zone};

    fn started() -> crate::Game {
        let mut g = table(2)
            .hand(P0, &[SecretPassage, Estate])
            .deck(P0, &[Copper, Gold, Silver, Duchy, Province])
            .start();
        g.play(SecretPassage);
        g
    }

    #[test]
    fn draws_two_then_asks_which_card_and_how_deep() {
        let mut g = started();
        assert_eq!(g.hand(P0), vec![Copper, Gold, Estate], "+2 Cards first");
        assert_eq!(g.actions(), 1);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(SecretPassage), None, Purpose::TopDeck)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Gold, Estate],
                min: 1,
                max: 1
            }
        );
        g.choose(P0, &[Gold]);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(SecretPassage), None, Purpose::PlaceInDeck)
        );
        assert_eq!(r.prompt, Prompt::ChooseNumber { min: 0, max: 3 });
        assert_eq!(g.hand(P0), vec![Copper, Gold, Estate], "not moved yet");
        assert!(g.reply(P0, Reply::Number(4)).is_err());
        let n = g.events().len();
        g.ok(P0, Reply::Number(1));
        assert_eq!(g.deck(P0), vec![Silver, Gold, Duchy, Province]);
        assert_eq!(g.hand(P0), vec![Copper, Estate]);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![SecretPassage]);
        // Others see one card go into the deck, not which.
        let ev = &g.events_since(n)[0];
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
            ev.for_viewer(Viewer::Player(P0)),
            Event::TopDecked {
                player: P0,
                count: 1,
                cards: Some(vec![Gold].into()),
                private: true
            }
        );
    }

    #[test]
    fn zero_is_the_top_and_the_deck_size_the_bottom() {
        let mut g = started();
        g.choose(P0, &[Estate]).ok(P0, Reply::Number(0));
        assert_eq!(g.deck(P0), vec![Estate, Silver, Duchy, Province]);
        assert_eq!(g.hand(P0), vec![Copper, Gold]);

        let mut g = started();
        g.choose(P0, &[Estate]).ok(P0, Reply::Number(3));
        assert_eq!(g.deck(P0), vec![Silver, Duchy, Province, Estate]);
        assert_eq!(g.hand(P0), vec![Copper, Gold]);
    }

    #[test]
    fn an_empty_deck_becomes_the_card_unasked() {
        let mut g = table(2)
            .hand(P0, &[SecretPassage, Estate])
            .deck(P0, &[Copper])
            .start();
        g.play(SecretPassage).choose(P0, &[Copper]);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.deck(P0), vec![Copper]);
        assert_eq!(g.hand(P0), vec![Estate]);
    }

    #[test]
    fn with_an_empty_hand_nothing_is_placed() {
        let mut g = table(2).hand(P0, &[SecretPassage]).start();
        g.play(SecretPassage);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!((g.hand(P0), g.deck(P0)), (vec![], vec![]));
        assert_eq!(g.actions(), 1);
    }
}
