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
    use crate::Event;
    use crate::card::CardId::*;
    use crate::cards::testkit::*;

    #[test]
    fn draws_four_plus_buy_and_others_draw_one() {
        let mut g = table(3)
            .hand(P0, &[CouncilRoom])
            .deck(P0, &[Copper, Copper, Silver, Gold, Estate])
            .deck(P1, &[Gold, Silver])
            .discard(P2, &[Duchy])
            .start();
        g.play(CouncilRoom);
        assert_eq!(g.hand(P0), vec![Copper, Copper, Silver, Gold]);
        assert_eq!(g.deck(P0), vec![Estate]);
        assert_eq!(g.in_play(P0), vec![CouncilRoom]);
        assert_eq!((g.buys(), g.actions()), (2, 0));
        assert_eq!(g.hand(P1), vec![Gold]);
        assert_eq!(g.deck(P1), vec![Silver]);
        assert_eq!(g.hand(P2), vec![Duchy], "reshuffled to draw");
        assert_eq!((g.deck(P2), g.discard_pile(P2)), (vec![], vec![]));
    }

    #[test]
    fn from_seat_two_of_four_the_others_draw_in_order_p3_p0_p1() {
        let mut g = table(4)
            .current(P2)
            .hand(P2, &[CouncilRoom])
            .deck(P2, &[Copper, Copper, Copper, Copper])
            .deck(P3, &[Gold])
            .deck(P0, &[Silver])
            .deck(P1, &[Estate])
            .start();
        g.play(CouncilRoom);
        let draws: Vec<_> = g
            .events()
            .iter()
            .filter_map(|e| match e {
                Event::Drew { player, cards, .. } => {
                    Some((*player, cards.clone().unwrap().to_vec()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            draws,
            vec![
                (P2, vec![Copper; 4]),
                (P3, vec![Gold]),
                (P0, vec![Silver]),
                (P1, vec![Estate])
            ]
        );
        assert_eq!(g.hand(P2), vec![Copper; 4]);
        assert_eq!(g.hand(P3), vec![Gold]);
        assert_eq!(g.hand(P0), vec![Silver]);
        assert_eq!(g.hand(P1), vec![Estate]);
        assert_eq!(g.buys(), 2);
    }
}
