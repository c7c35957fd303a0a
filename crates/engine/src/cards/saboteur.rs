//! Saboteur (1E, Attack): Each other player reveals cards from the top of their deck
//! until revealing one costing $3 or more. They trash that card and may gain a card
//! costing at most $2 less than it. They discard the other revealed cards.
//!
//! Cards are revealed one at a time into the victim's set-aside zone, where no shuffle
//! reaches them (a deck that runs out is rebuilt from the discard pile alone). Costs are
//! the costs now (Bridge). The victim chooses the gain, or none; it goes to their
//! discard pile, then the other revealed cards follow. A victim who runs out of cards
//! without finding one discards everything revealed.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res, To};
use crate::decision::Purpose;
use crate::event::Destination;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    cx.each_victim(play, |cx, v| {
        let mut found = None;
        while let Some(&c) = cx.reveal_from_deck(v, 1).first() {
            if cx.st.cost(c) >= 3 {
                found = Some(c);
                break;
            }
        }
        if let Some(c) = found {
            cx.from_aside(v, &[c], To::Trash);
            let cost = cx.st.cost(c);
            let gain = cx.choose_pile(v, CardId::Saboteur, Purpose::Gain, true, |st, x| {
                st.cost(x) + 2 <= cost
            })?;
            if let Some(g) = gain {
                cx.gain(v, g, Destination::Discard);
            }
        }
        cx.all_from_aside(v, To::Discard);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{CardId, Event, Game, Kingdom, Prompt, Purpose, Reply, Setup};

    fn gain_prompt(options: Vec<CardId>) -> Prompt {
        Prompt::ChoosePile {
            options,
            optional: true,
        }
    }

    #[test]
    fn victims_reveal_to_a_three_cost_card_trash_it_and_may_gain_two_less() {
        let mut g = table(4)
            .edition(Edition::First)
            .current(P2)
            .hand(P2, &[Saboteur])
            .deck(P3, &[Copper, Estate, Duchy, Gold])
            .hand(P0, &[Moat])
            .deck(P0, &[Gold])
            .deck(P1, &[Estate])
            .discard(P1, &[Gold])
            .start();
        g.play(Saboteur);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Saboteur), None, Purpose::React)
        );
        g.choose(P0, &[Moat]);
        // P3 stops at the Duchy ($5), trashes it and may gain a card up to $3.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P3, Some(Saboteur), None, Purpose::Gain)
        );
        assert_eq!(r.prompt, gain_prompt(costing_up_to(3)));
        assert_eq!(g.aside(P3), vec![Copper, Estate], "revealed, waiting");
        assert_eq!(g.deck(P3), vec![Gold], "not revealed");
        assert_eq!(g.trash(), vec![Duchy]);
        g.ok(P3, Reply::Pile(Some(Silver)));
        // P1: Estate, then its discard pile (the Gold alone) is shuffled; Gold trashed.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P1, Some(Saboteur), None, Purpose::Gain)
        );
        assert_eq!(r.prompt, gain_prompt(costing_up_to(4)));
        assert_eq!(g.aside(P1), vec![Estate]);
        assert!(g.events().contains(&Event::Shuffled { player: P1 }));
        g.ok(P1, Reply::Pile(None));

        assert_eq!(g.trash(), vec![Gold, Duchy]);
        assert_eq!(g.deck(P3), vec![Gold]);
        assert_eq!(g.discard_pile(P3), vec![Silver, Copper, Estate]);
        assert_eq!(g.hand(P0), vec![Moat]);
        assert_eq!(g.deck(P0), vec![Gold], "protected by Moat");
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.deck(P1), vec![]);
        assert_eq!(g.discard_pile(P1), vec![Estate]);
        for p in [P0, P1, P2, P3] {
            assert_eq!(g.aside(p), vec![]);
        }
        assert_eq!(g.supply(Silver), 39);
        assert_eq!(g.in_play(P2), vec![Saboteur]);
        assert_eq!(g.req().player, P2);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        // Each revealed card is public.
        assert!(g.events().contains(&Event::Revealed {
            player: P3,
            cards: vec![Duchy]
        }));
    }

    #[test]
    fn with_no_card_costing_three_everything_revealed_is_discarded() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Saboteur])
            .deck(P1, &[Copper, Estate])
            .discard(P1, &[Curse])
            .start();
        g.play(Saboteur);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.deck(P1), vec![]);
        assert_eq!(g.discard(P1), vec![Copper, Estate, Curse]);
        assert_eq!(g.aside(P1), vec![]);
        let shuffles = g
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Shuffled { .. }))
            .count();
        assert_eq!(shuffles, 1, "the revealed cards are never shuffled back in");
    }

    #[test]
    fn under_bridge_a_silver_passes_and_the_gain_bound_drops_too() {
        let ((), mut st, _) = table(2)
            .edition(Edition::First)
            .hand(P0, &[Saboteur])
            .deck(P1, &[Silver, Gold, Copper])
            .with_ctx(|_| ());
        st.turn.cost_reduction = 1;
        st.player_mut(P0).in_play.push(Bridge);
        let setup = Setup {
            players: 2,
            kingdom: Kingdom::Random,
            edition: Edition::First,
        };
        let mut g = Game::from_state_for_tests(&setup, st);
        g.play(Saboteur);
        // Silver costs $2 now; Gold $5: gain up to $3 now, i.e. printed up to $4.
        assert_eq!(g.aside(P1), vec![Silver]);
        assert_eq!(g.trash(), vec![Gold]);
        assert_eq!(g.prompt(), &gain_prompt(costing_up_to(4)));
        g.ok(P1, Reply::Pile(Some(Smithy)));
        assert_eq!(g.discard_pile(P1), vec![Smithy, Silver]);
        assert_eq!(g.deck(P1), vec![Copper]);
    }
}
