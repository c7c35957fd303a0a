//! Militia: +$2. Each other player discards down to 3 cards in hand.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    cx.plus_coins(2);
    cx.each_victim(play, |cx, v| {
        let excess = cx.st.player(v).hand.len().saturating_sub(3);
        let chosen = cx.choose_from_hand(v, CardId::Militia, Purpose::Discard, |_| true, excess, excess)?;
        cx.discard_from_hand(v, &chosen);
        Ok(())
    })
}
