//! Moat: +2 Cards. Its Reaction (unaffected by an Attack) is in `cards::react`.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 2);
    Ok(())
}
