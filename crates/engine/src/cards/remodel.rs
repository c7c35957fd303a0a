//! Remodel: Trash a card from your hand. Gain a card costing up to $2 more than it.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let Some(&trashed) = cx.choose_from_hand(p, CardId::Remodel, Purpose::Trash, |_| true, 1, 1)?.first() else {
        return Ok(());
    };
    cx.trash_from_hand(p, &[trashed]);
    let bound = cx.st.cost(trashed) + 2;
    if let Some(c) = cx.choose_pile(p, CardId::Remodel, Purpose::Gain, false, |st, c| st.cost(c) <= bound)? {
        cx.gain(p, c, Destination::Discard);
    }
    Ok(())
}
