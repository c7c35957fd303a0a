//! Feast (1E): Trash this card. Gain a card costing up to $5.
//!
//! Feast moves itself, so it trashes *its own* copy through the play number
//! (`Ctx::trash_from_play`): under Throne Room the second resolution finds it gone, trashes
//! nothing, and still gains — one Feast trashed, two cards gained, as the rulebook says.
//! The gain does not depend on the trashing having happened.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    let p = cx.current();
    cx.trash_from_play(play);
    if let Some(c) = cx.choose_pile(p, CardId::Feast, Purpose::Gain, false, |st, c| {
        st.cost(c) <= 5
    })? {
        cx.gain(p, c, Destination::Discard);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{Prompt, Purpose, Reply};

    #[test]
    fn trashes_itself_and_gains_a_card_up_to_five() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Feast, Copper])
            .start();
        g.play(Feast);
        assert_eq!(g.in_play(P0), vec![], "Feast left play");
        assert_eq!(g.trash(), vec![Feast]);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.purpose),
            (P0, Some(Feast), Purpose::Gain)
        );
        let Prompt::ChoosePile { options, optional } = g.prompt().clone() else {
            panic!("{:?}", g.prompt())
        };
        assert!(!optional);
        assert!(options.contains(&Duchy) && options.contains(&Laboratory));
        assert!(!options.contains(&Gold) && !options.contains(&Adventurer));
        assert!(g.reply(P0, Reply::Pile(Some(Gold))).is_err());
        g.ok(P0, Reply::Pile(Some(Duchy)));
        assert_eq!(g.discard(P0), vec![Duchy]);
        assert_eq!(g.supply(Duchy), 7);
        assert_eq!(g.hand(P0), vec![Copper]);
    }

    #[test]
    fn coins_in_play_do_not_raise_the_bound() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Festival, Feast])
            .start();
        g.play(Festival).play(Feast);
        assert_eq!(g.coins(), 2);
        let Prompt::ChoosePile { options, .. } = g.prompt().clone() else {
            panic!()
        };
        assert!(options.iter().all(|c| c.base_cost() <= 5));
    }

    #[test]
    fn throne_room_feast_trashes_it_once_and_gains_two_cards() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[ThroneRoom, Feast, Feast])
            .start();
        // 1E Throne Room must choose; both choices are Feast, so it is not even asked.
        g.play(ThroneRoom);
        assert_eq!(g.trash(), vec![Feast], "the first resolution trashes it");
        g.ok(P0, Reply::Pile(Some(Laboratory)));
        assert_eq!(
            g.trash(),
            vec![Feast],
            "the second finds it gone: still one"
        );
        assert_eq!(g.req().purpose, Purpose::Gain, "but still gains");
        g.ok(P0, Reply::Pile(Some(Market)));
        assert_eq!(g.in_play(P0), vec![ThroneRoom]);
        assert_eq!(g.hand(P0), vec![Feast], "the other Feast is untouched");
        assert_eq!(g.discard(P0), vec![Laboratory, Market]);
    }

    #[test]
    fn a_second_feast_played_after_a_throne_roomed_one_is_trashed_too() {
        // Two Feasts in play are the same card id; the play number keeps them apart:
        // the first Feast's second resolution must not trash the other Feast.
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[ThroneRoom, ThroneRoom, Feast, Feast])
            .start();
        g.play(ThroneRoom).choose(P0, &[ThroneRoom]);
        // The inner Throne Room's first play: Feast twice (the only choice: not asked).
        g.ok(P0, Reply::Pile(Some(Silver)));
        assert_eq!(g.trash(), vec![Feast]);
        assert_eq!(g.hand(P0), vec![Feast]);
        g.ok(P0, Reply::Pile(Some(Silver)));
        // Its second play: the other Feast, twice; it is trashed at once, and only once.
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.trash(), vec![Feast, Feast]);
        g.ok(P0, Reply::Pile(Some(Village)));
        assert_eq!(g.trash(), vec![Feast, Feast]);
        g.ok(P0, Reply::Pile(Some(Village)));
        assert_eq!(g.trash(), vec![Feast, Feast]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, ThroneRoom]);
        assert_eq!(g.discard(P0), vec![Silver, Silver, Village, Village]);
        assert_eq!(g.state().turn.left_play.len(), 2);
    }
}
