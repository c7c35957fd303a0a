//! Chapel: Trash up to 4 cards from your hand.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let chosen = cx.choose_from_hand(p, CardId::Chapel, Purpose::Trash, |_| true, 0, 4)?;
    cx.trash_from_hand(p, &chosen);
    Ok(())
}
