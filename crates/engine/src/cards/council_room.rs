//! Council Room: +4 Cards, +1 Buy. Each other player draws a card.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 4);
    cx.plus_buys(1);
    cx.each_other(|cx, o| {
        cx.draw(o, 1);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;

    #[test]
    fn draws_four_plus_buy_and_others_draw_one() {
        let mut g = table(3)
            .hand(P0, &[CouncilRoom])
            .deck(P0, &[Copper, Copper, Silver, Gold, Estate])
            .deck(P1, &[Gold])
            .deck(P2, &[])
            .discard(P2, &[Duchy])
            .start();
        g.play(CouncilRoom);
        assert_eq!(g.hand(P0), vec![Copper, Copper, Silver, Gold]);
        assert_eq!(g.deck(P0), vec![Estate]);
        assert_eq!(g.buys(), 2);
        assert_eq!(g.hand(P1), vec![Gold]);
        assert_eq!(g.hand(P2), vec![Duchy], "reshuffled to draw");
    }
}
