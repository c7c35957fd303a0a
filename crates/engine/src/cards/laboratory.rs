//! Laboratory: +2 Cards, +1 Action.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 2);
    cx.plus_actions(1);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;

    #[test]
    fn two_cards_one_action() {
        let mut g = table(2)
            .hand(P0, &[Laboratory])
            .deck(P0, &[Gold, Copper, Estate])
            .start();
        g.play(Laboratory);
        assert_eq!(
            (g.actions(), g.hand(P0), g.deck(P0)),
            (1, vec![Copper, Gold], vec![Estate])
        );
    }
}
