//! Workshop: Gain a card costing up to $4.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    if let Some(c) = cx.choose_pile(p, CardId::Workshop, Purpose::Gain, false, |st, c| {
        st.cost(c) <= 4
    })? {
        cx.gain(p, c, Destination::Discard);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Prompt, Purpose, Reply};

    #[test]
    fn gains_up_to_four_from_the_supply_and_coins_do_not_raise_the_bound() {
        let mut g = table(2)
            .hand(P0, &[Festival, Workshop])
            .supply(Silver, 0)
            .start();
        g.play(Festival).play(Workshop);
        assert_eq!(g.coins(), 2);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.purpose),
            (P0, Some(Workshop), Purpose::Gain)
        );
        let mut options = costing_up_to(4);
        options.retain(|c| *c != Silver);
        assert_eq!(
            r.prompt,
            Prompt::ChoosePile {
                options,
                optional: false
            }
        );
        g.ok(P0, Reply::Pile(Some(Smithy)));
        assert_eq!(g.discard_pile(P0), vec![Smithy]);
        assert_eq!(g.supply(Smithy), 9);
        assert_eq!(g.in_play(P0), vec![Festival, Workshop]);
    }

    #[test]
    fn with_nothing_costing_up_to_four_left_it_gains_nothing() {
        let mut g = table(2)
            .hand(P0, &[Workshop, Copper])
            .empty_piles_costing_up_to(4)
            .start();
        g.play(Workshop);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Workshop]);
    }
}
