//! Festival: +2 Actions, +1 Buy, +$2.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    cx.plus_actions(2);
    cx.plus_buys(1);
    cx.plus_coins(2);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;

    #[test]
    fn two_actions_buy_and_two_coins_no_cards() {
        let mut g = table(2)
            .hand(P0, &[Festival, Market])
            .deck(P0, &[Gold, Copper])
            .start();
        g.play(Festival);
        assert_eq!((g.actions(), g.buys(), g.coins()), (2, 2, 2));
        assert_eq!(g.hand(P0), vec![Market]);
        g.play(Market);
        assert_eq!((g.actions(), g.buys(), g.coins()), (2, 3, 3));
        assert_eq!(g.hand(P0), vec![Gold]);
    }
}
