//! Witch: +2 Cards. Each other player gains a Curse (in turn order, while any are left).

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::event::Destination;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 2);
    cx.each_victim(play, |cx, v| {
        cx.gain(v, CardId::Curse, Destination::Discard);
        Ok(())
    })
}
