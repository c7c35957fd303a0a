//! Trading Post: Trash 2 cards from your hand. If you did, gain a Silver to your hand.
//!
//! "Trash 2" is exactly 2 whenever the hand has them; a hand of 1 trashes that one and
//! gains nothing (the 1E rulebook). Two trashed with no Silver left: nothing gained.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let trashed = cx.choose_from_hand(p, CardId::TradingPost, Purpose::Trash, |_| true, 2, 2)?;
    cx.trash_from_hand(p, &trashed);
    if trashed.len() == 2 {
        cx.gain(p, CardId::Silver, Destination::Hand);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{InvalidReply, Prompt, Purpose, Reply, Zone};

    #[test]
    fn trashes_exactly_two_and_gains_a_silver_to_hand() {
        let mut g = table(2)
            .hand(P0, &[TradingPost, Estate, Copper, Curse])
            .start();
        g.play(TradingPost);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(TradingPost), None, Purpose::Trash)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Estate, Curse],
                min: 2,
                max: 2
            }
        );
        assert_eq!(
            g.reply(P0, Reply::Cards(vec![Curse])),
            Err(InvalidReply::WrongCount {
                got: 1,
                min: 2,
                max: 2
            })
        );
        g.choose(P0, &[Estate, Curse]);
        assert_eq!(g.trash(), vec![Estate, Curse]);
        assert_eq!(g.hand(P0), vec![Copper, Silver]);
        assert_eq!(g.supply(Silver), 39);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![TradingPost]);
        // The Silver in hand can be played this turn.
        assert_eq!(
            g.prompt(),
            &Prompt::BuyPhase {
                treasures: vec![Copper, Silver],
                buyable: costing_up_to(0)
            }
        );
    }

    #[test]
    fn with_one_card_trashes_it_and_gains_nothing() {
        let mut g = table(2).hand(P0, &[TradingPost, Gold]).start();
        g.play(TradingPost);
        assert_eq!(g.trash(), vec![Gold], "forced: asked nothing");
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.supply(Silver), 40);
        assert_eq!(g.discard_pile(P0), vec![]);
    }

    #[test]
    fn with_no_silver_left_the_two_are_still_trashed() {
        let mut g = table(2)
            .hand(P0, &[TradingPost, Estate, Estate])
            .supply(Silver, 0)
            .start();
        g.play(TradingPost);
        assert_eq!(g.trash(), vec![Estate, Estate], "two alike: forced");
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.discard_pile(P0), vec![]);
    }

    #[test]
    fn with_an_empty_hand_nothing_happens() {
        let mut g = table(2).hand(P0, &[TradingPost]).start();
        g.play(TradingPost);
        assert_eq!((g.trash(), g.hand(P0)), (vec![], vec![]));
        assert_eq!(g.supply(Silver), 40);
    }
}
