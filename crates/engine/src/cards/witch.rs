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
    use crate::{Destination, Event};

    #[test]
    fn curses_go_in_turn_order_from_the_attackers_left_while_they_last() {
        // Witch played by P2 of 4 with 2 Curses left: P3 and P0 get them, P1 none.
        let mut g = table(4)
            .current(P2)
            .hand(P2, &[Witch])
            .deck(P2, &[Copper, Silver, Gold])
            .supply(Curse, 2)
            .start();
        g.play(Witch);
        assert_eq!(g.discard_pile(P3), vec![Curse]);
        assert_eq!(g.discard_pile(P0), vec![Curse]);
        assert_eq!(g.discard_pile(P1), vec![], "none left for the last victim");
        assert_eq!(g.supply(Curse), 0);
        assert_eq!(g.hand(P2), vec![Copper, Silver], "Witch still draws 2");
        assert_eq!(g.deck(P2), vec![Gold]);
        assert_eq!(g.in_play(P2), vec![Witch]);
        let gains: Vec<_> = g
            .events()
            .iter()
            .filter_map(|e| match e {
                Event::Gained { player, card, to } => Some((*player, *card, *to)),
                _ => None,
            })
            .collect();
        assert_eq!(
            gains,
            vec![
                (P3, Curse, Destination::Discard),
                (P0, Curse, Destination::Discard)
            ]
        );
    }

    #[test]
    fn with_no_curses_left_nobody_gains_one_and_witch_still_draws_two() {
        let mut g = table(3)
            .hand(P0, &[Witch])
            .deck(P0, &[Gold, Gold, Estate])
            .supply(Curse, 0)
            .start();
        g.play(Witch);
        assert_eq!(g.hand(P0), vec![Gold, Gold]);
        assert_eq!(g.deck(P0), vec![Estate]);
        assert_eq!((g.discard_pile(P1), g.discard_pile(P2)), (vec![], vec![]));
        assert_eq!(g.supply(Curse), 0);
    }
}
