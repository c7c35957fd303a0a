//! Council Room: +4 Cards, +1 Buy. Each other player draws a card.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 4);
    cx.plus_buys(1);
    cx.each_other(|cx, o| {
        cx.draw(o, 1);
        Ok(())
    })
}
