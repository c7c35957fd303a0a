//! Mine. 1E: Trash a Treasure from your hand; gain a Treasure costing up to $3 more, to
//! your hand. 2E: the same, but trashing is optional ("you may").

use crate::card::{CardId, Edition};
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let min = if cx.st.edition == Edition::First {
        1
    } else {
        0
    };
    let chosen =
        cx.choose_from_hand(p, CardId::Mine, Purpose::Trash, CardId::is_treasure, min, 1)?;
    let Some(&trashed) = chosen.first() else {
        return Ok(());
    };
    cx.trash_from_hand(p, &[trashed]);
    let bound = cx.st.cost(trashed) + 3;
    let pick = |st: &crate::state::State, c: CardId| c.is_treasure() && st.cost(c) <= bound;
    if let Some(c) = cx.choose_pile(p, CardId::Mine, Purpose::Gain, false, pick)? {
        cx.gain(p, c, Destination::Hand);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{Prompt, Purpose, Reply, Zone};

    #[test]
    fn gains_a_treasure_up_to_three_more_into_hand() {
        let mut g = table(2).hand(P0, &[Mine, Silver, Estate]).start();
        g.play(Mine);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.purpose),
            (P0, Some(Mine), Purpose::Trash)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Silver],
                min: 0,
                max: 1
            }
        );
        g.choose(P0, &[Silver]);
        // Only Treasures costing up to $6 are offered (Harem is one too); no Victory
        // cards.
        assert_eq!(
            g.prompt(),
            &Prompt::ChoosePile {
                options: vec![Copper, Silver, Gold, Harem],
                optional: false
            }
        );
        assert!(g.reply(P0, Reply::Pile(Some(Duchy))).is_err());
        g.ok(P0, Reply::Pile(Some(Gold)));
        assert_eq!(g.hand(P0), vec![Gold, Estate]);
        assert_eq!(g.trash(), vec![Silver]);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.supply(Gold), 29);
    }

    #[test]
    fn may_gain_a_treasure_costing_the_same_or_less() {
        let mut g = table(2).hand(P0, &[Mine, Gold]).start();
        g.play(Mine).choose(P0, &[Gold]);
        g.ok(P0, Reply::Pile(Some(Silver)));
        assert_eq!(g.hand(P0), vec![Silver]);
        assert_eq!(g.trash(), vec![Gold]);
        assert_eq!((g.supply(Silver), g.supply(Gold)), (39, 30));
    }

    #[test]
    fn coins_do_not_raise_the_bound_and_empty_piles_are_not_offered() {
        let mut g = table(2)
            .hand(P0, &[Festival, Mine, Copper])
            .supply(Copper, 0)
            .start();
        g.play(Festival).play(Mine).choose(P0, &[Copper]);
        // Up to $3 despite the $2 from Festival, and no Copper left: Silver is the only
        // option, so it is gained without a question.
        assert_eq!(g.coins(), 2);
        assert_eq!(g.hand(P0), vec![Silver]);
        assert_eq!(g.trash(), vec![Copper]);
        assert_eq!(g.supply(Silver), 39);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
    }

    #[test]
    fn second_edition_trashing_is_optional_first_edition_is_not() {
        let mut g = table(2).hand(P0, &[Mine, Copper]).start();
        g.play(Mine).choose(P0, &[]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.trash(), vec![]);

        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Mine, Copper, Copper])
            .start();
        g.play(Mine);
        // One kind of Treasure and exactly one must be trashed: forced, not asked.
        assert_eq!(g.trash(), vec![Copper]);
        assert_eq!(
            g.prompt(),
            &Prompt::ChoosePile {
                options: vec![Copper, Silver],
                optional: false
            }
        );
        g.ok(P0, Reply::Pile(Some(Silver)));
        assert_eq!(g.hand(P0), vec![Copper, Silver], "1E: to hand as well");
        assert_eq!(g.discard_pile(P0), vec![]);
    }

    #[test]
    fn with_no_treasure_in_hand_it_does_nothing() {
        for edition in [Edition::Second, Edition::First] {
            let mut g = table(2).edition(edition).hand(P0, &[Mine, Estate]).start();
            g.play(Mine);
            assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
            assert_eq!(g.hand(P0), vec![Estate]);
            assert_eq!((g.trash(), g.discard_pile(P0)), (vec![], vec![]));
        }
    }
}
