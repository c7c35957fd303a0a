//! Merchant (2E): +1 Card, +1 Action. The first time you play a Silver this turn, +$1.
//! The bonus is paid by Silver (see `basic::silver`), once per Merchant play.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(1);
    cx.st.turn.merchants += 1;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::Reply;
    use crate::card::CardId::*;
    use crate::cards::testkit::*;

    #[test]
    fn plus_one_only_on_the_first_silver() {
        let mut g = table(2)
            .hand(P0, &[Merchant, Silver, Silver])
            .deck(P0, &[Copper, Gold])
            .start();
        g.play(Merchant);
        assert_eq!((g.actions(), g.hand(P0)), (1, vec![Copper, Silver, Silver]));
        assert_eq!(g.deck(P0), vec![Gold]);
        g.play(Silver);
        assert_eq!(g.coins(), 3);
        g.play(Silver);
        assert_eq!(g.coins(), 5, "a second Silver gives nothing extra");
        g.play(Copper);
        assert_eq!(g.coins(), 6);
        assert_eq!(g.in_play(P0), vec![Merchant, Silver, Silver, Copper]);
    }

    #[test]
    fn each_merchant_played_adds_one_to_the_first_silver() {
        let mut g = table(2)
            .hand(P0, &[Merchant, Merchant, Silver, Silver])
            .deck(P0, &[Copper, Copper])
            .start();
        g.play(Merchant).play(Merchant);
        g.ok(P0, Reply::PlayAllTreasures);
        assert_eq!(g.coins(), (2 + 2) + 2 + 1 + 1);
    }

    #[test]
    fn throne_room_merchant_gives_two_on_the_first_silver() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Merchant, Silver])
            .deck(P0, &[Copper, Silver])
            .start();
        g.play(ThroneRoom).choose(P0, &[Merchant]);
        assert_eq!(g.actions(), 2);
        assert_eq!(g.hand(P0), vec![Copper, Silver, Silver]);
        // No Action left in hand: the Action phase ends by itself.
        g.ok(P0, Reply::PlayAllTreasures);
        assert_eq!(
            g.coins(),
            2 + 2 + 1 + 2,
            "Silver 2+2 bonus, Copper 1, Silver 2"
        );
    }
}
