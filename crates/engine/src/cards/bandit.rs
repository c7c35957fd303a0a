//! Bandit (2E, Attack): Gain a Gold. Each other player reveals the top 2 cards of their
//! deck, trashes a revealed Treasure other than Copper, and discards the rest.
//!
//! The victim chooses which Treasure when they revealed two different ones (two of a
//! kind is no choice, so it is not asked). The revealed cards wait face up in the
//! victim's set-aside zone while they choose.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res, To};
use crate::decision::{Purpose, Zone};
use crate::event::Destination;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    let p = cx.current();
    cx.gain(p, CardId::Gold, Destination::Discard);
    cx.each_victim(play, |cx, v| {
        let revealed = cx.reveal_from_deck(v, 2);
        let loot: Vec<CardId> = revealed
            .into_iter()
            .filter(|c| c.is_treasure() && *c != CardId::Copper)
            .collect();
        if !loot.is_empty() {
            let chosen = cx.choose_cards(
                v,
                CardId::Bandit,
                Purpose::Trash,
                Zone::Revealed,
                loot,
                1,
                1,
            )?;
            cx.from_aside(v, &chosen, To::Trash);
        }
        cx.all_from_aside(v, To::Discard);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Viewer, Zone};

    #[test]
    fn victims_from_the_attackers_left_trash_a_non_copper_treasure_of_their_choice() {
        let mut g = table(4)
            .current(P2)
            .hand(P2, &[Bandit])
            .supply(Gold, 10)
            .deck(P3, &[Silver, Gold, Estate])
            .hand(P0, &[Moat])
            .deck(P0, &[Gold, Silver])
            .deck(P1, &[Gold, Silver])
            .discard(P1, &[Duchy])
            .start();
        g.play(Bandit);
        // Moat first, before the Attack does anything.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Bandit), None, Purpose::React)
        );
        g.choose(P0, &[Moat]);
        assert_eq!(g.discard(P2), vec![Gold], "the attacker gains a Gold");
        assert_eq!(g.supply(Gold), 9);
        // Player 3 (the attacker's left) chooses first, over the two revealed cards.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P3, Some(Bandit), None, Purpose::Trash)
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
        assert_eq!(g.deck(P3), vec![Estate]);
        assert_eq!(
            g.deck(P1),
            vec![Gold, Silver],
            "player 1 has not revealed yet"
        );
        g.choose(P3, &[Silver]);
        // Player 0 revealed Moat and is skipped; player 1 comes last.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P1, Some(Bandit), None, Purpose::Trash)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Revealed,
                options: vec![Gold, Silver],
                min: 1,
                max: 1
            }
        );
        g.choose(P1, &[Gold]);

        assert_eq!(g.trash(), vec![Silver, Gold]);
        assert_eq!(g.aside(P3), vec![]);
        assert_eq!(g.deck(P3), vec![Estate]);
        assert_eq!(g.discard(P3), vec![Gold]);
        assert_eq!(g.aside(P1), vec![]);
        assert_eq!(g.deck(P1), vec![]);
        assert_eq!(g.discard_pile(P1), vec![Duchy, Silver]);
        assert_eq!(g.hand(P0), vec![Moat]);
        assert_eq!(g.deck(P0), vec![Gold, Silver], "protected by Moat");
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.hand(P2), vec![]);
        assert_eq!(g.in_play(P2), vec![Bandit]);
        assert_eq!(g.discard(P2), vec![Gold]);
        assert_eq!(g.req().player, P2);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));

        // Revealed cards are public.
        let revealed: Vec<&Event> = g
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Revealed { player, .. } if *player != P0))
            .collect();
        assert_eq!(
            revealed,
            vec![
                &Event::Revealed {
                    player: P3,
                    cards: vec![Silver, Gold]
                },
                &Event::Revealed {
                    player: P1,
                    cards: vec![Gold, Silver]
                }
            ]
        );
        for e in revealed {
            assert_eq!(e.for_viewer(Viewer::Player(P0)), *e);
        }
    }

    #[test]
    fn copper_only_or_no_treasure_discards_both_and_one_kind_is_not_asked() {
        let mut g = table(4)
            .hand(P0, &[Bandit])
            .deck(P1, &[Copper, Copper])
            .deck(P2, &[Estate, Duchy])
            .deck(P3, &[Copper, Gold, Silver])
            .start();
        g.play(Bandit);
        assert!(
            matches!(g.prompt(), Prompt::BuyPhase { .. }),
            "nobody is asked"
        );
        assert_eq!(g.discard(P0), vec![Gold]);
        assert_eq!(g.supply(Gold), 29);
        assert_eq!(g.discard(P1), vec![Copper, Copper]);
        assert_eq!(g.deck(P1), vec![]);
        assert_eq!(g.discard(P2), vec![Estate, Duchy]);
        assert_eq!(g.deck(P2), vec![]);
        assert_eq!(g.discard(P3), vec![Copper]);
        assert_eq!(g.deck(P3), vec![Silver]);
        assert_eq!(g.trash(), vec![Gold]);
        for p in [P1, P2, P3] {
            assert_eq!(g.aside(p), vec![]);
        }
    }

    #[test]
    fn with_no_gold_left_the_attack_still_happens() {
        let mut g = table(2)
            .hand(P0, &[Bandit])
            .supply(Gold, 0)
            .deck(P1, &[Silver, Silver])
            .start();
        g.play(Bandit);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.trash(), vec![Silver]);
        assert_eq!(g.discard(P1), vec![Silver]);
    }
}
