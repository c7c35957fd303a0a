//! Mine. 1E: Trash a Treasure from your hand; gain a Treasure costing up to $3 more, to
//! your hand. 2E: the same, but trashing is optional ("you may").

use crate::card::{CardId, Edition};
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let min = if cx.st.edition == Edition::First { 1 } else { 0 };
    let chosen = cx.choose_from_hand(p, CardId::Mine, Purpose::Trash, CardId::is_treasure, min, 1)?;
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
