//! Militia: +$2. Each other player discards down to 3 cards in hand.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    cx.plus_coins(2);
    cx.each_victim(play, |cx, v| {
        let excess = cx.st.player(v).hand.len().saturating_sub(3);
        let chosen = cx.choose_from_hand(
            v,
            CardId::Militia,
            Purpose::Discard,
            |_| true,
            excess,
            excess,
        )?;
        cx.discard_from_hand(v, &chosen);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Prompt, Purpose, Zone};

    #[test]
    fn victims_discard_down_to_three_in_turn_order() {
        let mut g = table(3)
            .hand(P0, &[Militia])
            .hand(P1, &[Copper, Copper, Estate, Estate, Gold])
            .hand(P2, &[Silver, Silver, Silver, Duchy])
            .start();
        g.play(Militia);
        assert_eq!(g.coins(), 2);
        // Player 1 (left of the attacker) first, must discard exactly 2.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.purpose),
            (P1, Some(Militia), Purpose::Discard)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Copper, Gold, Estate, Estate],
                min: 2,
                max: 2
            }
        );
        g.choose(P1, &[Estate, Estate]);
        assert_eq!(g.req().player, P2);
        g.choose(P2, &[Duchy]);
        assert_eq!(g.hand(P1), vec![Copper, Copper, Gold]);
        assert_eq!(g.discard(P1), vec![Estate, Estate]);
        assert_eq!(g.hand(P2), vec![Silver, Silver, Silver]);
        assert_eq!(g.discard(P2), vec![Duchy]);
        assert_eq!(g.req().player, P0);
    }

    #[test]
    fn victims_with_three_or_fewer_cards_discard_nothing() {
        let mut g = table(3)
            .hand(P0, &[Militia])
            .hand(P1, &[Copper, Copper, Estate])
            .hand(P2, &[Gold])
            .start();
        g.play(Militia);
        assert_eq!(g.req().player, P0, "nobody else is asked");
        assert_eq!(g.hand(P1), vec![Copper, Copper, Estate]);
        assert_eq!(g.hand(P2), vec![Gold]);
        assert_eq!(g.coins(), 2);
    }
}
