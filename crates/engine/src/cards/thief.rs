//! Thief (1E, Attack): Each other player reveals the top 2 cards of their deck. If they
//! revealed any Treasures, they trash one of them that you choose. You may gain any or
//! all of these trashed cards. They discard the other revealed cards.
//!
//! Victims go in turn order from your left; you choose for each (two of a kind, or a
//! single Treasure, is no choice and is not asked). Only after every victim do you choose
//! which of the cards this play trashed to gain (to your discard pile): the cards wait
//! in the trash meanwhile, so `trashed` only names them.

use crate::card::CardId;
use crate::ctx::{Ask, Ctx, Play, Res, To};
use crate::decision::{Purpose, Zone};

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    let me = cx.current();
    let mut trashed = Vec::new();
    cx.each_victim(play, |cx, v| {
        let revealed = cx.reveal_from_deck(v, 2);
        let treasures: Vec<CardId> = revealed.into_iter().filter(|c| c.is_treasure()).collect();
        if !treasures.is_empty() {
            let ask = Ask::new(me, CardId::Thief, Purpose::Trash).about(v);
            let chosen = cx.pick(ask, Zone::Revealed, treasures, 1, 1)?;
            cx.from_aside(v, &chosen, To::Trash);
            trashed.extend(chosen);
        }
        cx.all_from_aside(v, To::Discard);
        Ok(())
    })?;
    let n = trashed.len();
    let gained = cx.choose_cards(me, CardId::Thief, Purpose::Gain, Zone::Trash, trashed, 0, n)?;
    for c in gained {
        cx.gain_from_trash(me, c);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Viewer, Zone};

    #[test]
    fn you_choose_each_victims_treasure_in_turn_order_then_gain_any_of_them() {
        let mut g = table(4)
            .edition(Edition::First)
            .current(P2)
            .hand(P2, &[Thief])
            .trash(&[Silver])
            .deck(P3, &[Silver, Gold, Estate])
            .hand(P0, &[Moat])
            .deck(P0, &[Gold, Gold])
            .deck(P1, &[Estate, Copper])
            .start();
        g.play(Thief);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Thief), None, Purpose::React)
        );
        g.choose(P0, &[Moat]);
        // Player 3 (your left) first; you choose which of their Treasures is trashed.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P2, Some(Thief), Some(P3), Purpose::Trash)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Revealed,
                options: vec![Silver, Gold],
                min: 1,
                max: 1
            }
        );
        assert_eq!(g.aside(P3), vec![Silver, Gold]);
        assert_eq!(g.deck(P1), vec![Estate, Copper], "not revealed yet");
        g.choose(P2, &[Gold]);
        // Player 0 revealed Moat; player 1's single Treasure is trashed unasked. Then you
        // are offered exactly the cards this play trashed (not the Silver already there).
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P2, Some(Thief), None, Purpose::Gain)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Trash,
                options: vec![Gold, Copper],
                min: 0,
                max: 2
            }
        );
        assert_eq!(g.trash(), vec![Copper, Silver, Gold]);
        assert_eq!(g.discard(P1), vec![Estate]);
        g.choose(P2, &[Gold]);

        assert_eq!(g.discard(P2), vec![Gold]);
        assert_eq!(g.hand(P2), vec![]);
        assert_eq!(g.in_play(P2), vec![Thief]);
        assert_eq!(g.trash(), vec![Copper, Silver]);
        assert_eq!(g.deck(P3), vec![Estate]);
        assert_eq!(g.discard(P3), vec![Silver]);
        assert_eq!(g.hand(P0), vec![Moat]);
        assert_eq!(g.deck(P0), vec![Gold, Gold], "protected by Moat");
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.deck(P1), vec![]);
        assert_eq!(g.discard(P1), vec![Estate]);
        for p in [P0, P1, P2, P3] {
            assert_eq!(g.aside(p), vec![]);
        }
        assert_eq!(g.supply(Gold), 30, "gained from the trash, not the Supply");
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));

        // Revealed cards are public.
        for e in g
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Revealed { player, .. } if *player != P0))
        {
            assert_eq!(e.for_viewer(Viewer::Player(P0)), *e);
        }
        assert!(g.events().contains(&Event::Revealed {
            player: P1,
            cards: vec![Estate, Copper]
        }));
        assert!(g.events().contains(&Event::GainedFromTrash {
            player: P2,
            card: Gold
        }));
    }

    #[test]
    fn no_treasure_discards_both_and_nothing_trashed_means_nothing_to_gain() {
        let mut g = table(3)
            .edition(Edition::First)
            .hand(P0, &[Thief])
            .deck(P1, &[Estate, Duchy])
            .start();
        g.play(Thief);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.deck(P1), vec![]);
        assert_eq!(g.discard(P1), vec![Estate, Duchy]);
        assert_eq!(g.deck(P2), vec![], "no cards: reveals nothing");
        assert_eq!(g.discard(P2), vec![]);
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.discard(P0), vec![]);
    }

    #[test]
    fn the_first_revealed_card_is_not_shuffled_in_and_gaining_is_optional() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Thief])
            .deck(P1, &[Silver])
            .discard(P1, &[Estate])
            .start();
        g.play(Thief);
        // Silver revealed, then the discard pile (just Estate) shuffled to reveal Estate.
        assert!(g.events().contains(&Event::Revealed {
            player: P1,
            cards: vec![Silver, Estate]
        }));
        assert!(g.events().contains(&Event::Shuffled { player: P1 }));
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Thief), None, Purpose::Gain)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Trash,
                options: vec![Silver],
                min: 0,
                max: 1
            }
        );
        g.choose(P0, &[]);
        assert_eq!(g.trash(), vec![Silver]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.deck(P1), vec![]);
        assert_eq!(g.discard(P1), vec![Estate]);
        assert_eq!(g.aside(P1), vec![]);
    }

    #[test]
    fn two_of_a_kind_is_not_asked_and_both_trashed_cards_may_be_gained() {
        let mut g = table(3)
            .edition(Edition::First)
            .hand(P0, &[Thief])
            .deck(P1, &[Copper, Copper])
            .deck(P2, &[Gold, Province])
            .start();
        g.play(Thief);
        assert_eq!(
            g.prompt(),
            &Prompt::ChooseCards {
                zone: Zone::Trash,
                options: vec![Copper, Gold],
                min: 0,
                max: 2
            }
        );
        g.choose(P0, &[Copper, Gold]);
        assert_eq!(g.discard(P0), vec![Copper, Gold]);
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.discard(P1), vec![Copper]);
        assert_eq!(g.discard(P2), vec![Province]);
    }
}
