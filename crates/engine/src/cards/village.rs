//! Village: +1 Card, +2 Actions.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(2);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;

    #[test]
    fn plus_card_plus_two_actions() {
        let mut g = table(2)
            .hand(P0, &[Village, Smithy])
            .deck(P0, &[Copper, Silver, Gold, Estate])
            .start();
        g.play(Village);
        assert_eq!((g.actions(), g.hand(P0)), (2, vec![Copper, Smithy]));
        g.play(Smithy);
        assert_eq!(
            (g.actions(), g.hand(P0)),
            (1, vec![Copper, Silver, Gold, Estate])
        );
    }
}
