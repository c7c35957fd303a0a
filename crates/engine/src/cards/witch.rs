//! Witch: +2 Cards. Each other player gains a Curse (in turn order, while any are left).

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::event::Destination;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 2);
    cx.each_victim(play, |cx, v| {
        cx.gain(v, CardId::Curse, Destination::Discard);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;

    #[test]
    fn curses_go_in_turn_order_from_the_left_while_they_last() {
        let mut g = table(4)
            .hand(P0, &[Witch])
            .deck(P0, &[Copper, Copper])
            .supply(Curse, 2)
            .start();
        // The attacker is player 0; give it to player 2's turn instead by rotating:
        // here victims are 1, 2, 3 in order, and only 2 Curses are left.
        g.play(Witch);
        assert_eq!(g.discard(crate::PlayerId(1)), vec![Curse]);
        assert_eq!(g.discard(crate::PlayerId(2)), vec![Curse]);
        assert_eq!(
            g.discard(crate::PlayerId(3)),
            vec![],
            "none left for the last victim"
        );
        assert_eq!(g.supply(Curse), 0);
        assert_eq!(g.hand(P0), vec![Copper, Copper], "Witch still draws 2");
    }
}
