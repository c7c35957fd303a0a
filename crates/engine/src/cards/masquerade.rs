//! Masquerade: +2 Cards. Each player (2E: each player with any cards in hand) passes a
//! card from their hand to the next such player to their left, at once. Then you may
//! trash a card from your hand.
//!
//! Passing is simultaneous: every passer is asked in turn order starting with you, and
//! the chosen cards stay in their hands (only named here) until the last one has chosen;
//! then all move at once, so no one sees what they receive before choosing. In 1E every
//! player is in the circle: one with an empty hand passes nothing but still receives
//! from their right. In 2E players with empty hands are left out of the circle. With
//! fewer than two in the circle there is no one to pass to, so nothing is asked.
//!
//! Passing is neither gaining nor trashing, and Masquerade is no Attack (no Reaction is
//! offered). Everyone is told who passed to whom once all have chosen; only the passer
//! and the receiver learn which card (`Event::Passed`); the state's ledger of passes
//! (`State::passes`) records it, so a bot's knowledge can leave it out.

use crate::card::{CardId, Edition};
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::event::Event;
use crate::state::{PlayerId, SecretPass};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let me = cx.current();
    cx.draw(me, 2);
    let circle: Vec<PlayerId> = std::iter::once(me)
        .chain(cx.st.others(me))
        .filter(|p| cx.st.edition == Edition::First || !cx.st.player(*p).hand.is_empty())
        .collect();
    if circle.len() >= 2 {
        let mut passed: Vec<Option<CardId>> = Vec::with_capacity(circle.len());
        for &p in &circle {
            let chosen =
                cx.choose_from_hand(p, CardId::Masquerade, Purpose::Pass, |_| true, 1, 1)?;
            passed.push(chosen.first().copied());
        }
        for (&p, card) in circle.iter().zip(&passed) {
            if let Some(c) = card {
                cx.remove_from_hand(p, *c);
            }
        }
        for (i, card) in passed.iter().enumerate() {
            if let Some(c) = card {
                let (from, to) = (circle[i], circle[(i + 1) % circle.len()]);
                cx.st.player_mut(to).hand.push(*c);
                cx.st.passes.push(SecretPass { from, to, card: *c });
                cx.emit(|| Event::Passed {
                    player: from,
                    to,
                    card: Some(*c),
                });
            }
        }
    }
    let trashed = cx.choose_from_hand(me, CardId::Masquerade, Purpose::Trash, |_| true, 0, 1)?;
    cx.trash_from_hand(me, &trashed);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{CardId, Event, Prompt, Purpose, Viewer, Zone};

    fn hand_prompt(options: Vec<CardId>, min: u8, max: u8) -> Prompt {
        Prompt::ChooseCards {
            zone: Zone::Hand,
            options,
            min,
            max,
        }
    }

    fn four_players(edition: Edition) -> crate::Game {
        table(4)
            .edition(edition)
            .current(P2)
            .hand(P2, &[Masquerade, Copper])
            .deck(P2, &[Estate, Gold, Silver])
            .hand(P3, &[Moat, Curse])
            .hand(P1, &[Duchy, Silver])
            .start()
    }

    #[test]
    fn victory_points_moved_by_a_pass_are_seen_only_by_the_two_players() {
        let mut g = four_players(Edition::Second);
        let vp = |g: &crate::Game, viewer, p: crate::PlayerId| g.view(viewer).seats[p.idx()].vp;
        let before: Vec<i32> = [P0, P1, P2, P3]
            .map(|p| vp(&g, Viewer::Spectator, p))
            .to_vec();
        g.play(Masquerade);
        g.choose(P2, &[Estate]); // to P3
        g.choose(P3, &[Curse]); // to P1
        g.choose(P1, &[Duchy]); // to P2
        g.choose(P2, &[]); // trashes nothing
        // P0 and spectators were in no pass: every total stays as it was for them.
        for viewer in [Viewer::Player(P0), Viewer::Spectator] {
            let seen: Vec<i32> = [P0, P1, P2, P3].map(|p| vp(&g, viewer, p)).to_vec();
            assert_eq!(seen, before, "{viewer:?}");
        }
        // P1 gave the Duchy (-3) and got the Curse (-1): it knows both; of P2's and
        // P3's totals it knows only the pass it was in.
        let p1 = Viewer::Player(P1);
        assert_eq!(vp(&g, p1, P1), before[1] - 3 - 1);
        assert_eq!(vp(&g, p1, P2), before[2] + 3, "P2 received its Duchy");
        assert_eq!(vp(&g, p1, P3), before[3] + 1, "P3 gave it the Curse");
        // The same through a bot's Observation, and the true totals for the owners.
        let obs = crate::Observation::for_player(&g, P0);
        assert_eq!(obs.vp(P2), before[2]);
        assert_eq!(vp(&g, Viewer::Player(P2), P2), before[2] - 1 + 3);
    }

    #[test]
    fn second_edition_leaves_empty_hands_out_and_passes_all_at_once() {
        let mut g = four_players(Edition::Second);
        g.play(Masquerade);
        assert_eq!(g.hand(P2), vec![Copper, Gold, Estate], "+2 Cards first");
        // Not an Attack: P3's Moat is not offered. P2 (you) is asked first.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P2, Some(Masquerade), None, Purpose::Pass)
        );
        assert_eq!(r.prompt, hand_prompt(vec![Copper, Gold, Estate], 1, 1));
        g.choose(P2, &[Estate]);
        assert_eq!(
            g.hand(P2),
            vec![Copper, Gold, Estate],
            "stays until all chose"
        );
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P3, Some(Masquerade), None, Purpose::Pass)
        );
        assert_eq!(r.prompt, hand_prompt(vec![Curse, Moat], 1, 1));
        assert_eq!(g.hand(P3), vec![Curse, Moat], "nothing received yet");
        g.choose(P3, &[Curse]);
        // P0 has no cards: skipped in 2E; P1 passes to P2 (the next player with cards).
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P1, Some(Masquerade), None, Purpose::Pass)
        );
        assert_eq!(r.prompt, hand_prompt(vec![Silver, Duchy], 1, 1));
        assert_eq!(g.hand(P1), vec![Silver, Duchy]);
        let n = g.events().len();
        g.choose(P1, &[Duchy]);
        // Announced together once all chose, in circle order; P0 (not in it) learns who
        // passed to whom but no card.
        let passed = |player, to, card| Event::Passed { player, to, card };
        assert_eq!(
            g.events_since(n),
            vec![
                passed(P2, P3, Some(Estate)),
                passed(P3, P1, Some(Curse)),
                passed(P1, P2, Some(Duchy)),
            ]
        );
        let for_p0: Vec<Event> = g
            .events_since(n)
            .iter()
            .map(|e| e.for_viewer(Viewer::Player(P0)))
            .collect();
        assert_eq!(
            for_p0,
            vec![
                passed(P2, P3, None),
                passed(P3, P1, None),
                passed(P1, P2, None)
            ]
        );
        assert_eq!(
            g.events_since(n)[0].for_viewer(Viewer::Player(P3)),
            passed(P2, P3, Some(Estate)),
            "the receiver sees it"
        );
        assert_eq!(g.hand(P2), vec![Copper, Gold, Duchy]);
        assert_eq!(g.hand(P3), vec![Estate, Moat]);
        assert_eq!(g.hand(P0), vec![], "left out: receives nothing");
        assert_eq!(g.hand(P1), vec![Silver, Curse]);
        // The ledger of secret passes (what others' knowledge leaves out) has all three.
        let pass = |from, to, card| crate::state::SecretPass { from, to, card };
        assert_eq!(
            g.state().passes,
            vec![
                pass(P2, P3, Estate),
                pass(P3, P1, Curse),
                pass(P1, P2, Duchy)
            ]
        );
        // Then only you may trash.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P2, Some(Masquerade), None, Purpose::Trash)
        );
        assert_eq!(r.prompt, hand_prompt(vec![Copper, Gold, Duchy], 0, 1));
        g.choose(P2, &[Copper]);
        assert_eq!(g.hand(P2), vec![Gold, Duchy]);
        assert_eq!(g.deck(P2), vec![Silver]);
        assert_eq!(g.in_play(P2), vec![Masquerade]);
        assert_eq!(g.trash(), vec![Copper]);
        for p in [P0, P1, P2, P3] {
            assert_eq!(g.discard(p), vec![], "passing is no discard");
        }
        assert_eq!(g.supply(Curse), 30, "passing is no gain");
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.req().player, P2);
    }

    #[test]
    fn first_edition_every_player_passes_left_and_an_empty_hand_still_receives() {
        let mut g = four_players(Edition::First);
        g.play(Masquerade);
        g.choose(P2, &[Estate]);
        g.choose(P3, &[Curse]);
        // P0 has no card to pass (not asked) but is in the circle.
        let r = g.req();
        assert_eq!((r.player, r.purpose), (P1, Purpose::Pass));
        g.choose(P1, &[Duchy]);
        assert_eq!(g.hand(P2), vec![Copper, Gold, Duchy]);
        assert_eq!(g.hand(P3), vec![Estate, Moat]);
        assert_eq!(g.hand(P0), vec![Curse], "receives from its right");
        assert_eq!(g.hand(P1), vec![Silver], "P0 passed nothing to P1");
        let r = g.req();
        assert_eq!((r.player, r.purpose), (P2, Purpose::Trash));
        g.choose(P2, &[]);
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.hand(P2), vec![Copper, Gold, Duchy]);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
    }

    #[test]
    fn alone_with_cards_in_second_edition_nothing_is_passed_in_first_it_is() {
        let start = |e| {
            table(3)
                .edition(e)
                .hand(P0, &[Masquerade])
                .deck(P0, &[Estate, Copper])
                .start()
        };
        let mut g = start(Edition::Second);
        g.play(Masquerade);
        let r = g.req();
        assert_eq!(
            (r.player, r.purpose, &r.prompt),
            (P0, Purpose::Trash, &hand_prompt(vec![Copper, Estate], 0, 1))
        );
        assert_eq!(g.hand(P0), vec![Copper, Estate]);
        assert_eq!((g.hand(P1), g.hand(P2)), (vec![], vec![]));

        let mut g = start(Edition::First);
        g.play(Masquerade);
        assert_eq!(g.req().purpose, Purpose::Pass);
        g.choose(P0, &[Estate]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.hand(P1), vec![Estate]);
        assert_eq!(g.hand(P2), vec![]);
        // One card left: trashing it or not is still a choice.
        assert_eq!(g.prompt(), &hand_prompt(vec![Copper], 0, 1));
    }

    #[test]
    fn a_hand_of_one_kind_passes_unasked() {
        let mut g = table(2)
            .hand(P0, &[Masquerade])
            .deck(P0, &[Silver, Gold])
            .hand(P1, &[Copper, Copper])
            .start();
        g.play(Masquerade).choose(P0, &[Gold]);
        // P1's Coppers are all the same answer: no question; straight to the trash.
        let r = g.req();
        assert_eq!((r.player, r.purpose), (P0, Purpose::Trash));
        assert_eq!(g.hand(P0), vec![Copper, Silver]);
        assert_eq!(g.hand(P1), vec![Copper, Gold]);
    }

    #[test]
    fn the_passed_cards_are_seen_only_by_passer_and_receiver() {
        let mut g = table(3)
            .hand(P0, &[Masquerade])
            .deck(P0, &[Province, Copper])
            .hand(P1, &[Gold, Estate])
            .hand(P2, &[Silver, Curse])
            .start();
        g.play(Masquerade)
            .choose(P0, &[Province])
            .choose(P1, &[Gold])
            .choose(P2, &[Curse]);
        assert_eq!(g.hand(P0), vec![Copper, Curse]);
        assert_eq!(g.hand(P1), vec![Estate, Province]);
        assert_eq!(g.hand(P2), vec![Silver, Gold]);
        // Until Masquerade is done, the others see the game as before it (a private
        // question of P0's is pending: Game::visible).
        assert_eq!(g.view(Viewer::Player(P1)).hand, Some(vec![Gold, Estate]));
        g.choose(P0, &[]);
        // The receiver's view holds the card; nobody else's view or events name it.
        let p1 = g.view(Viewer::Player(P1));
        assert_eq!(p1.hand, Some(vec![Estate, Province]));
        for viewer in [Viewer::Player(P2), Viewer::Spectator] {
            let v = g.view(viewer);
            let counts: Vec<usize> = v.seats.iter().map(|s| s.hand_count).collect();
            assert_eq!(counts, vec![2, 2, 2], "{viewer:?}");
            assert!(!v.hand.unwrap_or_default().contains(&Province));
            for e in g.events() {
                let seen = serde_json::to_string(&e.for_viewer(viewer)).unwrap();
                assert!(!seen.contains("province"), "{viewer:?} sees {seen}");
            }
        }
        // The drawn Province itself was private to P0.
        assert!(g.events().contains(&Event::Drew {
            player: P0,
            count: 2,
            cards: Some(vec![Province, Copper].into())
        }));
    }

    /// The VP a viewer sees never moves on a pass it did not see — even along a chain:
    /// P0 passes a Duchy to P1, and P1, in a second Masquerade, passes it on to P2. For
    /// 3 to 6 players and a spectator, every seat's VP as each viewer sees it is what it
    /// knows: the outsiders (spectator, P3…) see no VP move at all; P0 sees its Duchy go
    /// to P1 and no further; P2 sees P1 hand it the Duchy; P1 sees both. Earlier, undoing
    /// passes on the cards held now counted the Duchy twice for outsiders once P1 had
    /// passed it on: a 3-VP jump on a frame that showed only hidden passes.
    #[test]
    fn vp_never_moves_for_a_viewer_on_a_pass_it_did_not_see_even_along_a_chain() {
        use crate::state::PlayerId;
        for players in 3..=6u8 {
            let mut t = table(players)
                .hand(P0, &[Village, Masquerade, Masquerade, Duchy, Copper])
                .deck(P0, &[Copper, Copper, Copper, Copper, Copper]);
            for i in 1..players {
                t = t.hand(PlayerId(i), &[Copper, Silver]);
            }
            let mut g = t.start();
            let seats: Vec<PlayerId> = (0..players).map(PlayerId).collect();
            let viewers: Vec<Viewer> = seats
                .iter()
                .map(|p| Viewer::Player(*p))
                .chain([Viewer::Spectator])
                .collect();
            let vp = |g: &crate::Game, v: Viewer| -> Vec<i32> {
                g.view(v).seats.iter().map(|s| s.vp).collect()
            };
            let before: Vec<Vec<i32>> = viewers.iter().map(|v| vp(&g, *v)).collect();
            // Answers every pass: `giver` passes the Duchy, everyone else a Copper.
            let masquerade = |g: &mut crate::Game, giver: PlayerId| {
                g.play(Masquerade);
                while let Some(r) = g.pending().cloned() {
                    match r.purpose {
                        Purpose::Pass => {
                            let c = if r.player == giver { Duchy } else { Copper };
                            g.choose(r.player, &[c]);
                        }
                        Purpose::Trash => {
                            g.choose(r.player, &[]);
                        }
                        _ => break,
                    }
                }
            };
            g.play(Village);
            masquerade(&mut g, P0);
            assert!(g.hand(P1).contains(&Duchy), "{players}p");
            let after_one: Vec<Vec<i32>> = viewers.iter().map(|v| vp(&g, *v)).collect();
            masquerade(&mut g, P1);
            assert!(g.hand(P2).contains(&Duchy), "{players}p");
            let after_two: Vec<Vec<i32>> = viewers.iter().map(|v| vp(&g, *v)).collect();
            let moved = |v: &[i32], changes: &[(usize, i32)]| {
                let mut v = v.to_vec();
                for (seat, d) in changes {
                    v[*seat] += d;
                }
                v
            };
            for (i, viewer) in viewers.iter().enumerate() {
                let (one, two) = match viewer {
                    // Saw both passes.
                    Viewer::Player(p) if *p == P1 => (vec![(0, -3), (1, 3)], vec![(0, -3), (2, 3)]),
                    // Saw the first only: the Duchy stays with P1 for it.
                    Viewer::Player(p) if *p == P0 => (vec![(0, -3), (1, 3)], vec![(0, -3), (1, 3)]),
                    // Saw the second only: P1 gave away a Duchy it never had, for it.
                    Viewer::Player(p) if *p == P2 => (vec![], vec![(1, -3), (2, 3)]),
                    _ => (vec![], vec![]),
                };
                assert_eq!(
                    after_one[i],
                    moved(&before[i], &one),
                    "{players}p {viewer:?} 1"
                );
                assert_eq!(
                    after_two[i],
                    moved(&before[i], &two),
                    "{players}p {viewer:?} 2"
                );
            }
            // Final scores are exact for everyone.
            assert_eq!(
                crate::score::player_vp(g.state().player(P2)),
                before[0][2] + 3
            );
        }
    }
}
