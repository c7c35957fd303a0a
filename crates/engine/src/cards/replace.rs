//! Replace (2E, Attack): Trash a card from your hand. Gain a card costing up to $2 more
//! than it. If the gained card is an Action or Treasure, put it onto your deck; if it is
//! a Victory card, each other player gains a Curse.
//!
//! Types are checked each on its own: an Action–Victory card (Mill, Great Hall, Nobles)
//! or Harem goes onto the deck and gives Curses. Reactions come before anything (Moat
//! then spares its holder only the Curse). With no card in hand nothing happens.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    let me = cx.current();
    let Some(&trashed) = cx
        .choose_from_hand(me, CardId::Replace, Purpose::Trash, |_| true, 1, 1)?
        .first()
    else {
        return Ok(());
    };
    cx.trash_from_hand(me, &[trashed]);
    let bound = cx.st.cost(trashed) + 2;
    let Some(gained) = cx.choose_pile(me, CardId::Replace, Purpose::Gain, false, |st, c| {
        st.cost(c) <= bound
    })?
    else {
        return Ok(());
    };
    let to = if gained.is_action() || gained.is_treasure() {
        Destination::Deck
    } else {
        Destination::Discard
    };
    cx.gain(me, gained, to);
    if gained.is_victory() {
        cx.each_victim(play, |cx, v| {
            cx.gain(v, CardId::Curse, Destination::Discard);
            Ok(())
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Destination, Event, Prompt, Purpose, Reply, Zone};

    #[test]
    fn a_victory_card_gained_gives_curses_in_turn_order_and_moat_spares_only_the_curse() {
        let mut g = table(4)
            .current(P2)
            .hand(P2, &[Replace, Silver, Copper])
            .deck(P2, &[Gold])
            .hand(P0, &[Moat])
            .supply(Curse, 1)
            .start();
        g.play(Replace);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Replace), None, Purpose::React)
        );
        g.choose(P0, &[Moat]);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P2, Some(Replace), None, Purpose::Trash)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Silver],
                min: 1,
                max: 1
            }
        );
        g.choose(P2, &[Silver]);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P2, Some(Replace), None, Purpose::Gain)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChoosePile {
                options: costing_up_to(5),
                optional: false
            }
        );
        g.ok(P2, Reply::Pile(Some(Duchy)));
        // A Victory card: to the discard pile. P3 takes the last Curse, P0 revealed
        // Moat, P1 finds none left.
        assert_eq!(g.discard(P2), vec![Duchy]);
        assert_eq!(g.deck(P2), vec![Gold]);
        assert_eq!(g.hand(P2), vec![Copper]);
        assert_eq!(g.trash(), vec![Silver]);
        assert_eq!(g.in_play(P2), vec![Replace]);
        assert_eq!(g.discard(P3), vec![Curse]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.hand(P0), vec![Moat]);
        assert_eq!(g.discard(P1), vec![]);
        assert_eq!(g.supply(Curse), 0);
        assert_eq!(g.supply(Duchy), 11);
        assert_eq!(g.req().player, P2);
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
    }

    #[test]
    fn an_action_or_treasure_goes_onto_the_deck_and_gives_no_curse() {
        for gained in [Smithy, Silver] {
            let mut g = table(3)
                .hand(P0, &[Replace, Estate, Copper])
                .deck(P0, &[Gold])
                .start();
            g.play(Replace).choose(P0, &[Estate]);
            g.ok(P0, Reply::Pile(Some(gained)));
            assert_eq!(g.deck(P0), vec![gained, Gold], "{gained}");
            assert_eq!(g.discard(P0), vec![]);
            assert_eq!(g.trash(), vec![Estate]);
            assert_eq!(g.hand(P0), vec![Copper]);
            assert_eq!((g.discard(P1), g.discard(P2)), (vec![], vec![]));
            assert!(g.events().contains(&Event::Gained {
                player: P0,
                card: gained,
                to: Destination::Deck
            }));
        }
    }

    #[test]
    fn an_action_victory_card_goes_onto_the_deck_and_gives_curses() {
        let mut g = table(3).hand(P0, &[Replace, Silver]).start();
        g.play(Replace);
        g.ok(P0, Reply::Pile(Some(Mill)));
        assert_eq!(g.deck(P0), vec![Mill]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.trash(), vec![Silver]);
        assert_eq!(g.discard(P1), vec![Curse]);
        assert_eq!(g.discard(P2), vec![Curse]);
        assert_eq!(g.supply(Curse), 18);
    }

    #[test]
    fn a_curse_gained_goes_to_the_discard_pile_and_with_no_card_nothing_happens() {
        let mut g = table(2).hand(P0, &[Replace, Copper]).start();
        g.play(Replace);
        // Copper is the only card: trashed unasked; up to $2.
        assert_eq!(g.trash(), vec![Copper]);
        g.ok(P0, Reply::Pile(Some(Curse)));
        assert_eq!(g.discard(P0), vec![Curse]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard(P1), vec![]);
        assert_eq!(g.supply(Curse), 9);

        let mut g = table(2).hand(P0, &[Replace]).start();
        g.play(Replace);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.trash(), vec![]);
        assert_eq!((g.discard(P0), g.deck(P0)), (vec![], vec![]));
    }
}
