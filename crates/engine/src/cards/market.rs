//! Market: +1 Card, +1 Action, +1 Buy, +$1.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(1);
    cx.plus_buys(1);
    cx.plus_coins(1);
    Ok(())
}
