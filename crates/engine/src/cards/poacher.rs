//! Poacher (2E): +1 Card, +1 Action, +$1. Discard a card per empty Supply pile.
//!
//! Every Supply pile counts, Curse and Copper included. The card is drawn before
//! discarding; with fewer cards in hand than empty piles the whole hand is discarded
//! (the bounds are clamped to the hand, so that is not even asked).

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(1);
    cx.plus_coins(1);
    let n = cx.st.empty_piles();
    let chosen = cx.choose_from_hand(p, CardId::Poacher, Purpose::Discard, |_| true, n, n)?;
    cx.discard_from_hand(p, &chosen);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Prompt, Purpose, Zone};

    #[test]
    fn with_no_empty_pile_discards_nothing() {
        let mut g = table(2)
            .hand(P0, &[Poacher, Copper, Estate])
            .deck(P0, &[Silver, Gold])
            .start();
        g.play(Poacher);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.hand(P0), vec![Copper, Silver, Estate]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Poacher]);
        assert_eq!((g.actions(), g.coins(), g.buys()), (1, 1, 1));
    }

    #[test]
    fn discards_one_per_empty_pile_curse_and_copper_included_after_drawing() {
        let mut g = table(2)
            .hand(P0, &[Poacher, Estate, Silver, Gold])
            .deck(P0, &[Duchy])
            .supply(Curse, 0)
            .supply(Copper, 0)
            .start();
        g.play(Poacher);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Poacher), None, Purpose::Discard)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Silver, Gold, Estate, Duchy],
                min: 2,
                max: 2
            }
        );
        g.choose(P0, &[Estate, Duchy]);
        assert_eq!(g.hand(P0), vec![Silver, Gold]);
        assert_eq!(g.discard(P0), vec![Estate, Duchy]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Poacher]);
        assert_eq!((g.actions(), g.coins()), (1, 1));
    }

    #[test]
    fn with_too_few_cards_discards_the_whole_hand() {
        let mut g = table(2)
            .hand(P0, &[Poacher, Estate])
            .deck(P0, &[Silver])
            .supply(Curse, 0)
            .supply(Village, 0)
            .supply(Smithy, 0)
            .start();
        g.play(Poacher);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }), "not asked");
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.discard(P0), vec![Silver, Estate]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!((g.actions(), g.coins()), (1, 1));
    }
}
