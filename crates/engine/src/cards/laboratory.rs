//! Laboratory: +2 Cards, +1 Action.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 2);
    cx.plus_actions(1);
    Ok(())
}
