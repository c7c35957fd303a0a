//! Festival: +2 Actions, +1 Buy, +$2.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    cx.plus_actions(2);
    cx.plus_buys(1);
    cx.plus_coins(2);
    Ok(())
}
