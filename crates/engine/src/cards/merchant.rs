//! Merchant (2E): +1 Card, +1 Action. The first time you play a Silver this turn, +$1.
//! The bonus is paid by Silver (see `basic::silver`), once per Merchant play.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(1);
    cx.st.turn.merchants += 1;
    Ok(())
}
