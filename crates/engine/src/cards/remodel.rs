//! Remodel: Trash a card from your hand. Gain a card costing up to $2 more than it.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let Some(&trashed) = cx
        .choose_from_hand(p, CardId::Remodel, Purpose::Trash, |_| true, 1, 1)?
        .first()
    else {
        return Ok(());
    };
    cx.trash_from_hand(p, &[trashed]);
    let bound = cx.st.cost(trashed) + 2;
    if let Some(c) = cx.choose_pile(p, CardId::Remodel, Purpose::Gain, false, |st, c| {
        st.cost(c) <= bound
    })? {
        cx.gain(p, c, Destination::Discard);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{InvalidReply, Prompt, Purpose, Reply};

    #[test]
    fn may_gain_a_cheaper_card_or_a_copy_but_not_one_over_the_bound() {
        let mut g = table(2).hand(P0, &[Remodel, Gold, Estate]).start();
        g.play(Remodel);
        assert_eq!(g.req().purpose, Purpose::Trash);
        g.choose(P0, &[Estate]);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.purpose),
            (P0, Some(Remodel), Purpose::Gain)
        );
        // Up to $4: a copy of the Estate and cheaper cards included, Duchy ($5) not.
        assert_eq!(
            r.prompt,
            Prompt::ChoosePile {
                options: costing_up_to(4),
                optional: false
            }
        );
        assert!(costing_up_to(4).contains(&Estate) && !costing_up_to(4).contains(&Duchy));
        assert_eq!(
            g.reply(P0, Reply::Pile(Some(Duchy))),
            Err(InvalidReply::NotAnOption("duchy".into()))
        );
        g.ok(P0, Reply::Pile(Some(Copper)));
        assert_eq!(g.discard_pile(P0), vec![Copper]);
        assert_eq!(g.trash(), vec![Estate]);
        assert_eq!(g.hand(P0), vec![Gold]);
        assert_eq!(g.in_play(P0), vec![Remodel]);
    }

    #[test]
    fn gold_into_province() {
        let mut g = table(2).hand(P0, &[Remodel, Gold]).start();
        g.play(Remodel);
        assert_eq!(g.trash(), vec![Gold], "one card in hand: forced");
        g.ok(P0, Reply::Pile(Some(Province)));
        assert_eq!(g.discard_pile(P0), vec![Province]);
        assert_eq!(g.supply(Province), 7);
    }

    #[test]
    fn coins_do_not_raise_the_bound_and_only_supply_piles_with_cards_are_offered() {
        let mut g = table(2)
            .hand(P0, &[Festival, Remodel, Estate, Copper])
            .supply(Silver, 0)
            .start();
        g.play(Festival).play(Remodel).choose(P0, &[Estate]);
        assert_eq!(g.coins(), 2);
        let mut options = costing_up_to(4);
        options.retain(|c| *c != Silver);
        assert_eq!(
            g.prompt(),
            &Prompt::ChoosePile {
                options,
                optional: false
            }
        );
    }

    #[test]
    fn with_an_empty_hand_it_does_nothing() {
        let mut g = table(2).hand(P0, &[Remodel]).start();
        g.play(Remodel);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!((g.trash(), g.discard_pile(P0)), (vec![], vec![]));
        assert_eq!(g.in_play(P0), vec![Remodel]);
    }

    #[test]
    fn with_nothing_left_to_gain_the_card_is_still_trashed() {
        let mut g = table(2)
            .hand(P0, &[Remodel, Curse, Copper])
            .empty_piles_costing_up_to(2)
            .start();
        g.play(Remodel).choose(P0, &[Curse]);
        assert_eq!(g.trash(), vec![Curse]);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
    }
}
