//! Baron: +1 Buy. You may discard an Estate for +$4. If you don't, gain an Estate.
//!
//! Discarding is optional even with an Estate in hand; without a discard the Estate
//! gain is not optional (nothing is gained if the pile is empty).

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.plus_buys(1);
    let estate = cx.choose_from_hand(
        p,
        CardId::Baron,
        Purpose::Discard,
        |c| c == CardId::Estate,
        0,
        1,
    )?;
    if estate.is_empty() {
        cx.gain(p, CardId::Estate, Destination::Discard);
    } else {
        cx.discard_from_hand(p, &estate);
        cx.plus_coins(4);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Prompt, Purpose, Request, Zone};

    fn ask(n: usize) -> Request {
        Request {
            player: P0,
            card: Some(Baron),
            about: None,
            purpose: Purpose::Discard,
            prompt: Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Estate; n],
                min: 0,
                max: 1,
            },
        }
    }

    #[test]
    fn discarding_an_estate_gives_four_coins() {
        let mut g = table(2)
            .hand(P0, &[Baron, Estate, Estate, Copper])
            .discard(P0, &[Gold])
            .start();
        g.play(Baron);
        assert_eq!(g.buys(), 2);
        assert_eq!(g.req(), &ask(2));
        g.choose(P0, &[Estate]);
        assert_eq!(g.coins(), 4);
        assert_eq!(g.hand(P0), vec![Copper, Estate]);
        assert_eq!(g.discard_pile(P0), vec![Gold, Estate]);
        assert_eq!(g.supply(Estate), 8, "no Estate gained");
        assert_eq!(g.in_play(P0), vec![Baron]);
    }

    #[test]
    fn declining_gains_an_estate() {
        let mut g = table(2).hand(P0, &[Baron, Estate, Copper]).start();
        g.play(Baron);
        assert_eq!(g.req(), &ask(1));
        g.choose(P0, &[]);
        assert_eq!((g.coins(), g.buys()), (0, 2));
        assert_eq!(g.hand(P0), vec![Copper, Estate]);
        assert_eq!(g.discard_pile(P0), vec![Estate]);
        assert_eq!(g.supply(Estate), 7);
    }

    #[test]
    fn without_an_estate_in_hand_gains_one_unasked() {
        let mut g = table(2).hand(P0, &[Baron, Copper]).start();
        g.play(Baron);
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
        assert_eq!(g.discard_pile(P0), vec![Estate]);
        assert_eq!(g.supply(Estate), 7);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!((g.coins(), g.buys()), (0, 2));
    }

    #[test]
    fn with_no_estates_left_gains_nothing() {
        let mut g = table(2)
            .hand(P0, &[Baron, Copper])
            .supply(Estate, 0)
            .start();
        g.play(Baron);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!((g.coins(), g.buys()), (0, 2));
    }

    #[test]
    fn great_hall_is_not_an_estate() {
        let mut g = table(2).hand(P0, &[Baron, GreatHall, Duchy]).start();
        g.play(Baron);
        assert_eq!(g.hand(P0), vec![Duchy, GreatHall]);
        assert_eq!(g.discard_pile(P0), vec![Estate]);
        assert_eq!(g.coins(), 0);
    }
}
