//! Bridge: +1 Buy, +$1. This turn, cards (everywhere) cost $1 less, but not less than $0.
//!
//! Each play adds 1 to the turn's cost reduction, read by `State::cost` (never below 0),
//! which every cost comparison uses: buying and every "costing up to" gain. So Bridges
//! stack, and Throne Room + Bridge takes $2 off.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    cx.plus_buys(1);
    cx.plus_coins(1);
    cx.st.turn.cost_reduction += 1;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::{self, *};
    use crate::cards::testkit::*;
    use crate::{Prompt, Purpose, Reply};

    fn buyable(g: &crate::Game) -> Vec<CardId> {
        let Prompt::BuyPhase { buyable, .. } = g.prompt().clone() else {
            panic!("{:?}", g.prompt())
        };
        buyable
    }

    #[test]
    fn plus_buy_plus_coin_and_buying_costs_one_less() {
        let mut g = table(2).hand(P0, &[Bridge, Copper, Copper, Copper]).start();
        g.play(Bridge);
        assert_eq!((g.buys(), g.coins(), g.actions()), (2, 1, 0));
        assert_eq!(g.state().turn.cost_reduction, 1);
        g.ok(P0, Reply::PlayAllTreasures);
        assert_eq!(g.coins(), 4);
        assert_eq!(g.state().cost(Duchy), 4);
        assert_eq!(g.state().cost(Copper), 0, "never below $0");
        assert_eq!(
            buyable(&g),
            CardId::all()
                .filter(|c| c.base_cost() <= 5)
                .collect::<Vec<_>>()
        );
        g.ok(P0, Reply::Buy(Duchy));
        assert_eq!(g.coins(), 0, "paid $4 for the Duchy");
        assert_eq!(g.buys(), 1);
        assert_eq!(g.discard_pile(P0), vec![Duchy]);
        // With $0 left, everything printed at $0 or $1 is free now.
        assert_eq!(
            buyable(&g),
            CardId::all()
                .filter(|c| c.base_cost() <= 1)
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn two_bridges_stack() {
        let mut g = table(2)
            .hand(P0, &[Village, Bridge, Bridge])
            .deck(P0, &[Estate])
            .start();
        g.play(Village).play(Bridge).play(Bridge);
        assert_eq!((g.buys(), g.coins()), (3, 2));
        assert_eq!(g.state().cost(Gold), 4);
        assert_eq!(g.state().cost(Estate), 0);
        assert_eq!(
            buyable(&g),
            CardId::all()
                .filter(|c| c.base_cost() <= 4)
                .collect::<Vec<_>>(),
            "$4 costs $2 now"
        );
        g.ok(P0, Reply::Buy(Silver));
        assert_eq!(g.coins(), 1);
    }

    #[test]
    fn throne_room_bridge_takes_two_off() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Bridge, Silver, Silver])
            .start();
        g.play(ThroneRoom).choose(P0, &[Bridge]);
        assert_eq!((g.buys(), g.coins()), (3, 2));
        assert_eq!(g.state().turn.cost_reduction, 2);
        g.ok(P0, Reply::PlayAllTreasures);
        assert_eq!(g.coins(), 6);
        g.ok(P0, Reply::Buy(Province));
        assert_eq!(g.coins(), 0);
        assert_eq!(g.supply(Province), 7);
    }

    #[test]
    fn lowers_the_bound_of_a_gain_costing_up_to() {
        let mut g = table(2)
            .hand(P0, &[Village, Bridge, Workshop])
            .deck(P0, &[Estate])
            .start();
        g.play(Village).play(Bridge).play(Workshop);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Workshop), None, Purpose::Gain)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChoosePile {
                options: costing_up_to(5),
                optional: false
            }
        );
        g.ok(P0, Reply::Pile(Some(Laboratory)));
        assert_eq!(g.discard(P0), vec![Laboratory]);
    }

    #[test]
    fn the_reduction_lasts_only_this_turn() {
        let mut g = table(2).hand(P0, &[Bridge]).deck(P0, &[Copper; 5]).start();
        g.play(Bridge).ok(P0, Reply::EndPhase);
        assert_eq!(g.state().current, P1);
        assert_eq!(g.state().turn.cost_reduction, 0);
        assert_eq!(g.state().cost(Gold), 6);
    }
}
