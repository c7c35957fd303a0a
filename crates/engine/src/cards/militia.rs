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
    use crate::{Event, Prompt, Purpose, Viewer, Zone};

    fn discard_prompt(options: Vec<crate::CardId>, n: u8) -> Prompt {
        Prompt::ChooseCards {
            zone: Zone::Hand,
            options,
            min: n,
            max: n,
        }
    }

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
            discard_prompt(vec![Copper, Copper, Gold, Estate, Estate], 2)
        );
        g.choose(P1, &[Estate, Estate]);
        assert_eq!(g.req().player, P2);
        assert_eq!(
            g.prompt(),
            &discard_prompt(vec![Silver, Silver, Silver, Duchy], 1)
        );
        g.choose(P2, &[Duchy]);
        assert_eq!(g.hand(P1), vec![Copper, Copper, Gold]);
        assert_eq!(g.discard_pile(P1), vec![Estate, Estate]);
        assert_eq!(g.hand(P2), vec![Silver, Silver, Silver]);
        assert_eq!(g.discard_pile(P2), vec![Duchy]);
        assert_eq!(g.req().player, P0);
    }

    #[test]
    fn from_seat_two_of_four_victims_discard_in_order_p3_p0_p1() {
        let mut g = table(4)
            .current(P2)
            .hand(P2, &[Militia])
            .hand(P3, &[Gold, Estate, Estate, Copper, Copper])
            .hand(P0, &[Duchy, Silver, Silver, Silver])
            .hand(P1, &[Curse, Estate, Copper, Copper, Copper, Copper])
            .start();
        g.play(Militia);
        assert_eq!(g.coins(), 2);
        let r = g.req();
        assert_eq!((r.player, r.purpose), (P3, Purpose::Discard));
        assert_eq!(
            r.prompt,
            discard_prompt(vec![Copper, Copper, Gold, Estate, Estate], 2)
        );
        g.choose(P3, &[Estate, Estate]);
        assert_eq!(g.req().player, P0);
        assert_eq!(
            g.prompt(),
            &discard_prompt(vec![Silver, Silver, Silver, Duchy], 1)
        );
        g.choose(P0, &[Duchy]);
        assert_eq!(g.req().player, P1);
        assert_eq!(
            g.prompt(),
            &discard_prompt(vec![Copper, Copper, Copper, Copper, Estate, Curse], 3)
        );
        g.choose(P1, &[Curse, Estate, Copper]);
        let r = g.req();
        assert_eq!((r.player, r.purpose), (P2, Purpose::BuyPhase));
        assert_eq!(g.hand(P3), vec![Copper, Copper, Gold]);
        assert_eq!(g.discard_pile(P3), vec![Estate, Estate]);
        assert_eq!(g.hand(P0), vec![Silver, Silver, Silver]);
        assert_eq!(g.discard_pile(P0), vec![Duchy]);
        assert_eq!(g.hand(P1), vec![Copper, Copper, Copper]);
        assert_eq!(g.discard_pile(P1), vec![Curse, Estate, Copper]);
        let order: Vec<_> = g
            .events()
            .iter()
            .filter_map(|e| match e {
                Event::Discarded { player, .. } => Some(*player),
                _ => None,
            })
            .collect();
        assert_eq!(order, vec![P3, P0, P1]);
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
        assert_eq!((g.discard_pile(P1), g.discard_pile(P2)), (vec![], vec![]));
        assert!(
            !g.events()
                .iter()
                .any(|e| matches!(e, Event::Discarded { .. }))
        );
        assert_eq!(g.coins(), 2);
    }

    #[test]
    fn a_victim_with_only_one_way_to_discard_is_not_asked() {
        let mut g = table(3)
            .hand(P0, &[Militia])
            .hand(P1, &[Copper, Copper, Copper, Copper])
            .hand(P2, &[Copper, Copper, Estate, Estate, Gold])
            .start();
        g.play(Militia);
        // P1 comes first but any Copper is the same answer: the first question is P2's.
        assert_eq!(g.req().player, P2);
        assert!(g.replies().iter().all(|(p, _)| *p == P0));
        assert_eq!(g.hand(P1), vec![Copper, Copper, Copper]);
        assert_eq!(g.discard_pile(P1), vec![Copper]);
    }

    #[test]
    fn others_see_only_how_many_were_discarded_and_the_new_top() {
        let mut g = table(3)
            .hand(P0, &[Militia])
            .hand(P1, &[Copper, Copper, Estate, Duchy, Gold])
            .discard(P1, &[Province])
            .start();
        g.play(Militia).choose(P1, &[Duchy, Gold]);
        assert_eq!(g.discard_pile(P1), vec![Province, Duchy, Gold]);
        let discarded = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::Discarded { .. }))
            .unwrap();
        assert_eq!(
            discarded.for_viewer(Viewer::Player(P1)),
            Event::Discarded {
                player: P1,
                count: 2,
                cards: Some(vec![Duchy, Gold].into()),
                top: Some(Gold),
                private: true,
            }
        );
        for viewer in [Viewer::Player(P0), Viewer::Player(P2), Viewer::Spectator] {
            assert_eq!(
                discarded.for_viewer(viewer),
                Event::Discarded {
                    player: P1,
                    count: 2,
                    cards: None,
                    top: Some(Gold),
                    private: true,
                },
                "{viewer:?}"
            );
        }
    }
}
