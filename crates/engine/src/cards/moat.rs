//! Moat: +2 Cards. Its Reaction (unaffected by an Attack) is in `cards::react`.

use crate::ctx::{Ctx, Play, Res};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 2);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Zone};

    fn react_prompt() -> Prompt {
        Prompt::ChooseCards {
            zone: Zone::Hand,
            options: vec![Moat],
            min: 0,
            max: 1,
        }
    }

    #[test]
    fn protects_only_its_holder_and_the_attacker_still_draws() {
        let mut g = table(3)
            .hand(P0, &[Witch])
            .deck(P0, &[Gold, Gold])
            .hand(P1, &[Moat, Copper, Copper, Copper, Copper])
            .hand(P2, &[Moat, Estate])
            .start();
        g.play(Witch);
        // Revealing Moat is a real choice, asked before the Attack does anything.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P1, Some(Witch), None, Purpose::React)
        );
        assert_eq!(r.prompt, react_prompt());
        assert_eq!(g.hand(P0), vec![], "Witch has not drawn yet");
        assert_eq!(g.supply(Curse), 20);
        g.choose(P1, &[Moat]);
        assert_eq!(g.req().player, P2);
        g.choose(P2, &[]);
        assert_eq!(g.hand(P0), vec![Gold, Gold], "the attacker still draws");
        assert_eq!(
            g.hand(P1),
            vec![Copper, Copper, Copper, Copper, Moat],
            "Moat stays in hand"
        );
        assert_eq!(g.discard_pile(P1), vec![]);
        assert_eq!(g.hand(P2), vec![Estate, Moat]);
        assert_eq!(
            g.discard_pile(P2),
            vec![Curse],
            "no Moat revealed, no protection"
        );
        assert_eq!(g.supply(Curse), 19);
    }

    #[test]
    fn against_militia_from_seat_two_moat_is_asked_first_and_the_attacker_still_gets_two() {
        // 4 players, Militia played by P2: Reactions are asked in turn order P3, (P0 has
        // none, so is not asked), P1 — all before the +$2 and before any discard.
        let mut g = table(4)
            .current(P2)
            .hand(P2, &[Militia])
            .hand(P3, &[Moat, Copper, Copper, Copper, Copper])
            .hand(P0, &[Estate, Estate, Estate, Copper, Copper])
            .hand(P1, &[Moat, Silver, Silver, Silver, Silver])
            .start();
        g.play(Militia);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.purpose, &r.prompt),
            (P3, Some(Militia), Purpose::React, &react_prompt())
        );
        assert_eq!(g.coins(), 0, "nothing happened yet");
        g.choose(P3, &[Moat]);
        let r = g.req();
        assert_eq!((r.player, r.purpose), (P1, Purpose::React));
        assert_eq!(g.coins(), 0);
        g.choose(P1, &[]);
        assert_eq!(g.coins(), 2);
        // Victims: P0 then P1; P3 is unaffected.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.purpose, &r.prompt),
            (
                P0,
                Some(Militia),
                Purpose::Discard,
                &Prompt::ChooseCards {
                    zone: Zone::Hand,
                    options: vec![Copper, Copper, Estate, Estate, Estate],
                    min: 2,
                    max: 2
                }
            )
        );
        g.choose(P0, &[Estate, Estate]);
        assert_eq!(g.req().player, P1);
        g.choose(P1, &[Silver, Moat]);
        assert_eq!(g.req().player, P2);
        assert_eq!(g.hand(P3), vec![Copper, Copper, Copper, Copper, Moat]);
        assert_eq!(g.discard_pile(P3), vec![]);
        assert_eq!(g.hand(P0), vec![Copper, Copper, Estate]);
        assert_eq!(g.discard_pile(P0), vec![Estate, Estate]);
        assert_eq!(g.hand(P1), vec![Silver, Silver, Silver]);
        assert_eq!(g.discard_pile(P1), vec![Silver, Moat]);
        assert!(g.events().contains(&Event::Blocked {
            player: P3,
            by: Moat
        }));
    }

    #[test]
    fn can_be_revealed_against_each_play_of_a_throne_roomed_attack() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Militia])
            .hand(P1, &[Moat, Copper, Copper, Copper, Copper])
            .start();
        g.play(ThroneRoom).choose(P0, &[Militia]);
        assert_eq!(g.req().player, P1);
        assert_eq!(g.prompt(), &react_prompt());
        g.choose(P1, &[Moat]);
        // Second play: asked again (after the first play gave +$2); this time decline.
        assert_eq!(g.coins(), 2);
        assert_eq!(g.req().purpose, Purpose::React);
        assert_eq!(g.prompt(), &react_prompt());
        g.choose(P1, &[]);
        assert_eq!(g.req().purpose, Purpose::Discard);
        g.choose(P1, &[Copper, Copper]);
        assert_eq!(g.hand(P1), vec![Copper, Copper, Moat]);
        assert_eq!(g.discard_pile(P1), vec![Copper, Copper]);
        assert_eq!(g.coins(), 4);
        assert_eq!(g.req().player, P0);
    }

    #[test]
    fn is_not_offered_against_non_attacks() {
        let mut g = table(2)
            .hand(P0, &[CouncilRoom])
            .deck(P0, &[Copper; 4])
            .hand(P1, &[Moat])
            .deck(P1, &[Gold])
            .start();
        g.play(CouncilRoom);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.req().player, P0);
        assert_eq!(g.hand(P1), vec![Gold, Moat]);
        assert!(
            !g.events()
                .iter()
                .any(|e| matches!(e, Event::Revealed { .. }))
        );
    }

    #[test]
    fn a_declined_moat_adds_no_event() {
        // Declining leaves the same log as not holding a Moat at all, so the log does not
        // tell anyone who was asked.
        let witch = |p1_hand: &[crate::CardId]| {
            table(3)
                .hand(P0, &[Witch])
                .deck(P0, &[Gold, Gold])
                .hand(P1, p1_hand)
                .start()
        };
        let mut declined = witch(&[Moat, Copper]);
        declined.play(Witch);
        assert_eq!(declined.req().purpose, Purpose::React);
        declined.choose(P1, &[]);
        let mut without = witch(&[Estate, Copper]);
        without.play(Witch);
        assert_eq!(declined.events(), without.events());
        assert_eq!(declined.discard_pile(P1), vec![Curse]);
    }

    #[test]
    fn played_as_an_action_draws_two() {
        let mut g = table(2)
            .hand(P0, &[Moat])
            .deck(P0, &[Silver, Gold, Copper])
            .start();
        g.play(Moat);
        assert_eq!(g.hand(P0), vec![Silver, Gold]);
        assert_eq!(g.deck(P0), vec![Copper]);
        assert_eq!(g.in_play(P0), vec![Moat]);
    }

    #[test]
    fn is_an_action_and_a_reaction_at_all_times() {
        // Multi-type: Throne Room may choose it (an Action) from the same hand in which
        // it would answer an Attack (a Reaction).
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Moat])
            .deck(P0, &[Copper, Copper, Silver, Silver, Gold])
            .start();
        assert_eq!(
            g.prompt(),
            &Prompt::ActionPhase {
                playable: vec![Moat, ThroneRoom]
            }
        );
        g.play(ThroneRoom);
        assert_eq!(
            g.prompt(),
            &Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Moat],
                min: 0,
                max: 1
            }
        );
        g.choose(P0, &[Moat]);
        assert_eq!(g.hand(P0), vec![Copper, Copper, Silver, Silver]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Moat]);
    }
}
