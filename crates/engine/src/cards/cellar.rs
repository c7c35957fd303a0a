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

    #[test]
    fn draws_after_discarding_and_reshuffles_the_discards() {
        let mut g = table(2)
            .hand(P0, &[Cellar, Estate, Estate, Copper, Copper])
            .deck(P0, &[Silver])
            .start();
        g.play(Cellar);
        // Cellar itself is in play, so it is not offered.
        assert_eq!(
            g.prompt(),
            &crate::Prompt::ChooseCards {
                zone: crate::Zone::Hand,
                options: vec![Copper, Copper, Estate, Estate],
                min: 0,
                max: 4
            }
        );
        g.choose(P0, &[Estate, Estate]);
        // Silver from the deck, then the deck is empty: the two Estates just discarded
        // are shuffled into a new deck and one is drawn.
        assert_eq!(g.hand(P0), vec![Copper, Copper, Silver, Estate]);
        assert_eq!(g.deck(P0), vec![Estate]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Cellar]);
        assert_eq!(g.actions(), 1);
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
    }
}
