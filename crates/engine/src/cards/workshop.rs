//! Workshop: Gain a card costing up to $4.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    if let Some(c) = cx.choose_pile(p, CardId::Workshop, Purpose::Gain, false, |st, c| st.cost(c) <= 4)? {
        cx.gain(p, c, Destination::Discard);
    }
    Ok(())
}
