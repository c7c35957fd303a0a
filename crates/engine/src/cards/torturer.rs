//! Torturer (Attack): +3 Cards. Each other player chooses one: they discard 2 cards; or
//! they gain a Curse to their hand.
//!
//! Victims choose in turn order from your left, each choosing and resolving before the
//! next (the Curses run out in that order). Either option may be chosen even if it
//! cannot be done fully: with fewer than 2 cards they discard what they have; with no
//! Curses left they gain nothing.

use crate::card::CardId;
use crate::ctx::{Ask, Ctx, Play, Res};
use crate::decision::{Mode, Purpose};
use crate::event::Destination;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    let me = cx.current();
    cx.draw(me, 3);
    cx.each_victim(play, |cx, v| {
        let ask = Ask::new(v, CardId::Torturer, Purpose::ChooseModes);
        let modes = cx.modes(ask, vec![Mode::DiscardTwo, Mode::GainCurse], 1, 1)?;
        if modes.contains(&Mode::GainCurse) {
            cx.gain(v, CardId::Curse, Destination::Hand);
        } else {
            let chosen =
                cx.choose_from_hand(v, CardId::Torturer, Purpose::Discard, |_| true, 2, 2)?;
            cx.discard_from_hand(v, &chosen);
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Destination, Event, Mode, Prompt, Purpose, Reply, Zone};

    fn choice() -> Prompt {
        Prompt::ChooseModes {
            options: vec![Mode::DiscardTwo, Mode::GainCurse],
            min: 1,
            max: 1,
        }
    }

    #[test]
    fn victims_choose_in_turn_order_and_the_curse_goes_to_hand() {
        let mut g = table(4)
            .current(P2)
            .hand(P2, &[Torturer])
            .deck(P2, &[Gold, Silver, Copper, Estate])
            .hand(P3, &[Copper, Estate, Silver])
            .hand(P0, &[Moat, Gold])
            .hand(P1, &[Duchy, Estate, Copper])
            .supply(Curse, 1)
            .start();
        g.play(Torturer);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Torturer), None, Purpose::React)
        );
        g.choose(P0, &[Moat]);
        assert_eq!(g.hand(P2), vec![Copper, Silver, Gold], "+3 Cards");
        assert_eq!(g.deck(P2), vec![Estate]);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P3, Some(Torturer), None, Purpose::ChooseModes)
        );
        assert_eq!(r.prompt, choice());
        g.ok(P3, Reply::Modes(vec![Mode::GainCurse]));
        assert_eq!(g.hand(P3), vec![Copper, Silver, Estate, Curse]);
        assert_eq!(g.supply(Curse), 0);
        // P0 revealed Moat; P1 next.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P1, Some(Torturer), None, Purpose::ChooseModes)
        );
        assert_eq!(r.prompt, choice());
        g.ok(P1, Reply::Modes(vec![Mode::DiscardTwo]));
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P1, Some(Torturer), None, Purpose::Discard)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Estate, Duchy],
                min: 2,
                max: 2
            }
        );
        g.choose(P1, &[Duchy, Estate]);
        assert_eq!(g.hand(P3), vec![Copper, Silver, Estate, Curse]);
        assert_eq!(g.discard(P3), vec![]);
        assert_eq!(g.hand(P0), vec![Gold, Moat]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.hand(P1), vec![Copper]);
        assert_eq!(g.discard_pile(P1), vec![Duchy, Estate]);
        assert_eq!(g.in_play(P2), vec![Torturer]);
        assert!(g.events().contains(&Event::Gained {
            player: P3,
            card: Curse,
            to: Destination::Hand
        }));
        assert_eq!(g.req().player, P2);
    }

    #[test]
    fn the_curse_may_be_chosen_with_none_left_and_then_nothing_happens() {
        let mut g = table(3)
            .hand(P0, &[Torturer])
            .hand(P1, &[Copper, Estate])
            .hand(P2, &[Silver, Estate])
            .supply(Curse, 1)
            .start();
        g.play(Torturer);
        g.ok(P1, Reply::Modes(vec![Mode::GainCurse]));
        assert_eq!(g.hand(P1), vec![Copper, Estate, Curse]);
        assert_eq!(g.req().player, P2);
        assert_eq!(g.prompt(), &choice(), "still offered with no Curse left");
        g.ok(P2, Reply::Modes(vec![Mode::GainCurse]));
        assert_eq!(g.hand(P2), vec![Silver, Estate]);
        assert_eq!(g.discard(P2), vec![]);
        assert_eq!(g.supply(Curse), 0);
        assert_eq!(g.req().player, P0);
    }

    #[test]
    fn discarding_with_one_card_discards_it_and_with_none_nothing() {
        let mut g = table(3).hand(P0, &[Torturer]).hand(P1, &[Gold]).start();
        g.play(Torturer);
        g.ok(P1, Reply::Modes(vec![Mode::DiscardTwo]));
        // The single card is discarded unasked.
        assert_eq!(g.hand(P1), vec![]);
        assert_eq!(g.discard(P1), vec![Gold]);
        assert_eq!(g.req().player, P2);
        assert_eq!(g.prompt(), &choice());
        g.ok(P2, Reply::Modes(vec![Mode::DiscardTwo]));
        assert_eq!((g.hand(P2), g.discard(P2)), (vec![], vec![]));
        assert_eq!(g.supply(Curse), 20);
        assert_eq!(g.req().player, P0);
    }
}
