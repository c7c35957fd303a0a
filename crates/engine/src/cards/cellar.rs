//! Cellar: +1 Action. Discard any number of cards, then draw that many.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.plus_actions(1);
    let n = cx.st.player(p).hand.len();
    // All discards are chosen first and discarded at once; only then is anything drawn,
    // so a reshuffle during the draw includes them.
    let chosen = cx.choose_from_hand(p, CardId::Cellar, Purpose::Discard, |_| true, 0, n)?;
    cx.discard_from_hand(p, &chosen);
    cx.draw(p, chosen.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Event, InvalidReply, Prompt, Reply, Viewer, Zone};

    #[test]
    fn draws_after_discarding_and_reshuffles_the_discards() {
        let mut g = table(2)
            .hand(P0, &[Cellar, Estate, Estate, Copper, Copper])
            .deck(P0, &[Silver])
            .start();
        g.play(Cellar);
        // Cellar itself is in play, so it is not offered and cannot be discarded.
        assert_eq!(
            g.prompt(),
            &Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Copper, Estate, Estate],
                min: 0,
                max: 4
            }
        );
        assert_eq!(
            g.reply(P0, Reply::Cards(vec![Cellar])),
            Err(InvalidReply::NotAnOption("cellar".into()))
        );
        g.choose(P0, &[Estate, Estate]);
        // Silver from the deck, then the deck is empty: the two Estates just discarded
        // are shuffled into a new deck and one is drawn.
        assert_eq!(g.hand(P0), vec![Copper, Copper, Silver, Estate]);
        assert_eq!(g.deck(P0), vec![Estate]);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Cellar]);
        assert_eq!(g.actions(), 1);
    }

    #[test]
    fn all_discards_are_chosen_first_and_discarded_at_once_then_drawn() {
        let mut g = table(2)
            .hand(P0, &[Cellar, Estate, Duchy, Copper])
            .deck(P0, &[Gold, Silver, Province])
            .discard(P0, &[Curse])
            .start();
        g.play(Cellar);
        let n = g.events().len();
        g.choose(P0, &[Duchy, Estate]);
        let discarded = Event::Discarded {
            player: P0,
            count: 2,
            cards: Some(vec![Duchy, Estate].into()),
            top: Some(Estate),
            private: true,
        };
        let after = g.events_since(n);
        assert_eq!(
            after[..2],
            [
                discarded.clone(),
                Event::Drew {
                    player: P0,
                    count: 2,
                    cards: Some(vec![Gold, Silver].into())
                }
            ]
        );
        // Others learn how many and the new top, not the cards; the discarder sees them.
        assert_eq!(after[0].for_viewer(Viewer::Player(P0)), discarded);
        for viewer in [Viewer::Player(P1), Viewer::Spectator] {
            assert_eq!(
                after[0].for_viewer(viewer),
                Event::Discarded {
                    player: P0,
                    count: 2,
                    cards: None,
                    top: Some(Estate),
                    private: true,
                }
            );
        }
        assert_eq!(g.hand(P0), vec![Copper, Silver, Gold]);
        assert_eq!(g.deck(P0), vec![Province]);
        assert_eq!(g.discard_pile(P0), vec![Curse, Duchy, Estate]);
    }

    #[test]
    fn a_shuffle_during_the_draw_takes_in_the_cards_just_discarded() {
        let mut g = table(2)
            .hand(P0, &[Cellar, Estate, Estate, Gold])
            .discard(P0, &[Estate])
            .start();
        g.play(Cellar).choose(P0, &[Estate, Estate]);
        // The deck was empty: the old Estate and the two just discarded form the new deck.
        assert_eq!(g.hand(P0), vec![Gold, Estate, Estate]);
        assert_eq!(g.deck(P0), vec![Estate]);
        assert_eq!(g.discard_pile(P0), vec![]);
    }

    #[test]
    fn discarding_nothing_draws_nothing() {
        let mut g = table(2)
            .hand(P0, &[Cellar, Copper])
            .deck(P0, &[Gold])
            .start();
        g.play(Cellar).choose(P0, &[]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.actions(), 1);
    }
}
