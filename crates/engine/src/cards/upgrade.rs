//! Upgrade: +1 Card, +1 Action. Trash a card from your hand. Gain a card costing exactly
//! $1 more than it.
//!
//! The card is drawn first, so it may be the one trashed. Trashing is mandatory when the
//! hand has a card. "Exactly $1 more" compares costs now (`st.cost`): under Bridge a
//! Copper still costs $0 while an Estate costs $1, so Copper becomes an Estate (the 1E
//! rulebook's example). No card of that cost left in the Supply: nothing is gained.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(1);
    let Some(&trashed) = cx
        .choose_from_hand(p, CardId::Upgrade, Purpose::Trash, |_| true, 1, 1)?
        .first()
    else {
        return Ok(());
    };
    cx.trash_from_hand(p, &[trashed]);
    let target = cx.st.cost(trashed) + 1;
    if let Some(c) = cx.choose_pile(p, CardId::Upgrade, Purpose::Gain, false, |st, c| {
        st.cost(c) == target
    })? {
        cx.gain(p, c, Destination::Discard);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::{self, *};
    use crate::cards::testkit::*;
    use crate::ctx::Play;
    use crate::state::State;
    use crate::{InvalidReply, Prompt, Purpose, Reply, Request, Zone};

    fn costing_exactly(cost: u8) -> Vec<CardId> {
        CardId::all().filter(|c| c.base_cost() == cost).collect()
    }

    #[test]
    fn draws_first_then_trashes_and_gains_a_card_costing_exactly_one_more() {
        let mut g = table(2)
            .hand(P0, &[Upgrade, Copper])
            .deck(P0, &[Estate, Gold])
            .start();
        g.play(Upgrade);
        assert_eq!(g.hand(P0), vec![Copper, Estate], "+1 Card first");
        assert_eq!(g.actions(), 1);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Upgrade), None, Purpose::Trash)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Estate],
                min: 1,
                max: 1
            }
        );
        g.choose(P0, &[Estate]);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Upgrade), None, Purpose::Gain)
        );
        // Exactly $3: neither the $2 copy nor anything cheaper or dearer.
        assert_eq!(
            r.prompt,
            Prompt::ChoosePile {
                options: costing_exactly(3),
                optional: false
            }
        );
        assert!(costing_exactly(3).contains(&Silver));
        assert_eq!(
            g.reply(P0, Reply::Pile(Some(Estate))),
            Err(InvalidReply::NotAnOption("estate".into()))
        );
        g.ok(P0, Reply::Pile(Some(Silver)));
        assert_eq!(g.trash(), vec![Estate]);
        assert_eq!(g.discard_pile(P0), vec![Silver]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.in_play(P0), vec![Upgrade]);
        assert_eq!(g.supply(Silver), 39);
    }

    #[test]
    fn no_card_of_that_cost_gains_nothing_but_the_card_is_trashed() {
        // Nothing costs $1 (Copper) or $7 (Gold).
        for c in [Copper, Gold] {
            let mut g = table(2).hand(P0, &[Upgrade]).deck(P0, &[c]).start();
            g.play(Upgrade);
            assert_eq!(g.trash(), vec![c], "the drawn card, the only one: forced");
            assert_eq!((g.hand(P0), g.discard_pile(P0)), (vec![], vec![]));
            g.end_actions();
            assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        }
        // Cards of that cost exist but their piles are empty.
        let mut g = table(2)
            .hand(P0, &[Upgrade, Curse])
            .empty_piles_costing_up_to(2)
            .start();
        g.play(Upgrade);
        assert_eq!(g.trash(), vec![Curse]);
        assert_eq!(g.discard_pile(P0), vec![]);
    }

    #[test]
    fn with_an_empty_hand_after_drawing_nothing_happens() {
        let mut g = table(2).hand(P0, &[Upgrade]).start();
        g.play(Upgrade);
        assert_eq!(g.actions(), 1);
        assert_eq!((g.trash(), g.discard_pile(P0)), (vec![], vec![]));
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
    }

    /// Bridge's reduction set directly (the turn state Bridge leaves), played outside a
    /// turn: Copper stays at $0 while the $2 cards cost $1.
    fn under_bridge(t: Table) -> (Result<(), Box<Request>>, State) {
        let (res, st, _) = t.with_ctx(|cx| {
            cx.st.turn.cost_reduction = 1;
            let play = Play {
                card: Upgrade,
                id: 0,
                immune: 0,
            };
            super::play(cx, &play)
                .map_err(|_| Box::new(cx.suspended.take().expect("suspended at a question")))
        });
        (res, st)
    }

    #[test]
    fn under_bridge_copper_becomes_a_card_costing_one_such_as_an_estate() {
        let (res, st) = under_bridge(table(2).hand(P0, &[Copper]));
        assert_eq!(st.trash, vec![Copper]);
        let r = res.expect_err("asks which card");
        assert_eq!(
            (r.player, r.card, r.purpose),
            (P0, Some(Upgrade), Purpose::Gain)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChoosePile {
                options: costing_exactly(2),
                optional: false
            }
        );
        assert!(costing_exactly(2).contains(&Estate));

        // Estate the only one left: gained unasked.
        let (res, st) = under_bridge(
            table(2)
                .hand(P0, &[Copper])
                .empty_piles_costing_up_to(2)
                .supply(Estate, 8),
        );
        assert!(res.is_ok());
        assert_eq!(st.trash, vec![Copper]);
        assert_eq!(st.player(P0).discard, vec![Estate]);
        assert_eq!(st.player(P0).hand, vec![]);
        assert_eq!(st.supply_count(Estate), 7);
    }
}
