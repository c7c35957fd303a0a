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
    use crate::{Prompt, Reply};

    #[test]
    fn gains_up_to_four_from_the_supply_and_coins_do_not_raise_the_bound() {
        let mut g = table(2)
            .hand(P0, &[Festival, Workshop])
            .supply(Silver, 0)
            .start();
        g.play(Festival).play(Workshop);
        assert_eq!(g.coins(), 2);
        let Prompt::ChoosePile { options, .. } = g.prompt().clone() else {
            panic!()
        };
        assert!(options.contains(&Smithy) && options.contains(&Estate));
        assert!(!options.contains(&Silver), "empty pile");
        assert!(!options.contains(&Festival), "costs 5");
        g.ok(P0, Reply::Pile(Some(Smithy)));
        assert_eq!(g.discard(P0), vec![Smithy]);
        assert_eq!(g.supply(Smithy), 9);
    }
}
