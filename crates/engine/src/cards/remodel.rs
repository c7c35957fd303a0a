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
    use crate::{InvalidReply, Prompt, Reply};

    #[test]
    fn may_gain_a_cheaper_card_but_not_one_over_the_bound() {
        let mut g = table(2).hand(P0, &[Remodel, Gold, Estate]).start();
        g.play(Remodel).choose(P0, &[Estate]);
        let Prompt::ChoosePile { options, optional } = g.prompt().clone() else {
            panic!()
        };
        assert!(!optional);
        assert!(
            options.contains(&Silver) && options.contains(&Smithy) && options.contains(&Copper)
        );
        assert!(!options.contains(&Duchy), "Duchy costs 5 > 2 + 2");
        assert!(
            options.contains(&Estate),
            "a copy of the trashed card is allowed"
        );
        assert_eq!(
            g.reply(P0, Reply::Pile(Some(Duchy))),
            Err(InvalidReply::NotAnOption("duchy".into()))
        );
        g.ok(P0, Reply::Pile(Some(Copper)));
        assert_eq!(g.discard(P0), vec![Copper]);
        assert_eq!(g.trash(), vec![Estate]);
        assert_eq!(g.hand(P0), vec![Gold]);
    }

    #[test]
    fn gold_into_province() {
        let mut g = table(2).hand(P0, &[Remodel, Gold]).start();
        g.play(Remodel);
        assert_eq!(g.trash(), vec![Gold], "one card in hand: forced");
        g.ok(P0, Reply::Pile(Some(Province)));
        assert_eq!(g.discard(P0), vec![Province]);
    }
}
