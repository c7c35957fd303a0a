//! Swindler (Attack): +$2. Each other player trashes the top card of their deck and
//! gains a card with the same cost that you choose.
//!
//! Victims in turn order from your left; one whose deck is empty shuffles, and one with
//! no cards at all trashes and gains nothing. The cost is the cost now (Bridge lowers
//! both sides alike). You choose among the Supply piles with cards left of exactly that
//! cost — the trashed card's own pile included, a Curse for a $0 card — and when there
//! is none the victim gains nothing. The request names the victim (`about`).

use crate::card::CardId;
use crate::ctx::{Ask, Ctx, Play, Res, To};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    let me = cx.current();
    cx.plus_coins(2);
    cx.each_victim(play, |cx, v| {
        let Some(&top) = cx.reveal_from_deck(v, 1).first() else {
            return Ok(());
        };
        cx.from_aside(v, &[top], To::Trash);
        let cost = cx.st.cost(top);
        let ask = Ask::new(me, CardId::Swindler, Purpose::Gain).about(v);
        if let Some(c) = cx.choose_pile_about(ask, false, |st, c| st.cost(c) == cost)? {
            cx.gain(v, c, Destination::Discard);
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{CardId, Event, Game, Kingdom, Prompt, Purpose, Reply, Setup};

    fn costing(cost: u8) -> Vec<CardId> {
        CardId::all().filter(|c| c.base_cost() == cost).collect()
    }

    fn pile(options: Vec<CardId>) -> Prompt {
        Prompt::ChoosePile {
            options,
            optional: false,
        }
    }

    /// The table's state with a Bridge in play: every card costs $1 less this turn.
    fn with_bridge(t: Table) -> Game {
        let ((), mut st, _) = t.with_ctx(|_| ());
        let p = st.current;
        st.turn.cost_reduction = 1;
        st.player_mut(p).in_play.push(Bridge);
        let setup = Setup {
            players: st.num_players() as u8,
            kingdom: Kingdom::Random,
            edition: st.edition,
        };
        Game::from_state_for_tests(&setup, st)
    }

    #[test]
    fn you_choose_a_card_of_the_same_cost_for_each_victim_in_turn_order() {
        let mut g = table(4)
            .current(P2)
            .hand(P2, &[Swindler])
            .deck(P3, &[Silver, Estate])
            .hand(P0, &[Moat])
            .deck(P0, &[Gold])
            .discard(P1, &[Copper])
            .start();
        g.play(Swindler);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Swindler), None, Purpose::React)
        );
        g.choose(P0, &[Moat]);
        assert_eq!(g.coins(), 2);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P2, Some(Swindler), Some(P3), Purpose::Gain)
        );
        assert_eq!(r.prompt, pile(costing(3)));
        assert!(costing(3).contains(&Silver), "the same card is allowed");
        assert_eq!(g.trash(), vec![Silver]);
        assert_eq!(g.deck(P3), vec![Estate]);
        g.ok(P2, Reply::Pile(Some(Village)));
        // P0 revealed Moat; P1 shuffles its discard pile and trashes the Copper.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P2, Some(Swindler), Some(P1), Purpose::Gain)
        );
        assert_eq!(r.prompt, pile(vec![Copper, Curse]));
        assert!(g.events().contains(&Event::Shuffled { player: P1 }));
        g.ok(P2, Reply::Pile(Some(Curse)));

        assert_eq!(g.trash(), vec![Copper, Silver]);
        assert_eq!(g.deck(P3), vec![Estate]);
        assert_eq!(g.discard(P3), vec![Village]);
        assert_eq!(g.hand(P0), vec![Moat]);
        assert_eq!(g.deck(P0), vec![Gold], "protected by Moat");
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.deck(P1), vec![]);
        assert_eq!(g.discard(P1), vec![Curse]);
        for p in [P0, P1, P2, P3] {
            assert_eq!(g.aside(p), vec![]);
        }
        assert_eq!(g.discard(P2), vec![], "you gain nothing");
        assert_eq!(g.in_play(P2), vec![Swindler]);
        assert_eq!((g.supply(Village), g.supply(Curse)), (9, 29));
        let trashed: Vec<_> = g
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Trashed { .. }))
            .cloned()
            .collect();
        assert_eq!(
            trashed,
            vec![
                Event::Trashed {
                    player: P3,
                    cards: vec![Silver]
                },
                Event::Trashed {
                    player: P1,
                    cards: vec![Copper]
                }
            ]
        );
        assert_eq!(g.req().player, P2);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
    }

    #[test]
    fn the_same_card_may_be_given_back() {
        let mut g = table(2).hand(P0, &[Swindler]).deck(P1, &[Duchy]).start();
        g.play(Swindler).ok(P0, Reply::Pile(Some(Duchy)));
        assert_eq!(g.trash(), vec![Duchy]);
        assert_eq!(g.discard(P1), vec![Duchy]);
        assert_eq!(g.supply(Duchy), 7);
    }

    #[test]
    fn with_no_card_of_that_cost_left_nothing_is_gained_and_nothing_asked() {
        let t = table(2).hand(P0, &[Swindler]).deck(P1, &[Duchy]);
        let mut g = costing(5)
            .into_iter()
            .fold(t, |t, c| t.supply(c, 0))
            .start();
        g.play(Swindler);
        assert_eq!(g.req().player, P0);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.trash(), vec![Duchy]);
        assert_eq!(g.deck(P1), vec![]);
        assert_eq!(g.discard(P1), vec![]);
        assert_eq!(g.coins(), 2);
    }

    #[test]
    fn a_victim_with_no_cards_trashes_and_gains_nothing() {
        let mut g = table(2).hand(P0, &[Swindler]).start();
        g.play(Swindler);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.discard(P1), vec![]);
        assert_eq!(g.coins(), 2);
    }

    #[test]
    fn under_bridge_the_costs_compared_are_the_costs_now() {
        // Silver costs $2 under Bridge: the offered cards are those printed at $3.
        let mut g = with_bridge(table(2).hand(P0, &[Swindler]).deck(P1, &[Silver]));
        g.play(Swindler);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Swindler), Some(P1), Purpose::Gain)
        );
        assert_eq!(r.prompt, pile(costing(3)));
        g.ok(P0, Reply::Pile(Some(Swindler)));
        assert_eq!(g.discard(P1), vec![Swindler]);
        assert_eq!(g.trash(), vec![Silver]);

        // An Estate costs $1 now, as do the cards printed at $2.
        let mut g = with_bridge(table(2).hand(P0, &[Swindler]).deck(P1, &[Estate]));
        g.play(Swindler);
        assert_eq!(g.prompt(), &pile(costing(2)));

        // A Copper still costs $0, never less: a Copper or a Curse.
        let mut g = with_bridge(table(2).hand(P0, &[Swindler]).deck(P1, &[Copper]));
        g.play(Swindler);
        assert_eq!(g.prompt(), &pile(vec![Copper, Curse]));
    }
}
