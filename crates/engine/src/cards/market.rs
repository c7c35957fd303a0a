//! Market: +1 Card, +1 Action, +1 Buy, +$1.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(1);
    cx.plus_buys(1);
    cx.plus_coins(1);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;

    #[test]
    fn card_action_buy_and_coin() {
        let mut g = table(2)
            .hand(P0, &[Market])
            .deck(P0, &[Gold, Estate])
            .start();
        g.play(Market);
        assert_eq!((g.actions(), g.buys(), g.coins()), (1, 2, 1));
        assert_eq!(g.hand(P0), vec![Gold]);
        assert_eq!(g.deck(P0), vec![Estate]);
        assert_eq!(g.in_play(P0), vec![Market]);
    }
}
