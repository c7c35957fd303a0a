//! The basic Treasures. Victory cards and Curses do nothing when played (they cannot be).

use crate::ctx::{Ctx, Res};

/// Copper: $1, plus whatever Coppersmiths played this turn add.
pub fn copper(cx: &mut Ctx) -> Res {
    cx.plus_coins(1 + cx.st.turn.copper_bonus);
    Ok(())
}

/// Silver: $2, plus +$1 per Merchant played this turn if it is the first Silver.
pub fn silver(cx: &mut Ctx) -> Res {
    cx.plus_coins(2);
    let t = &mut cx.st.turn;
    if !t.silver_played {
        t.silver_played = true;
        t.coins += t.merchants;
    }
    Ok(())
}

pub fn gold(cx: &mut Ctx) -> Res {
    cx.plus_coins(3);
    Ok(())
}
