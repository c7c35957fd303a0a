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
    use crate::{Prompt, Purpose, Reply, Zone};

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
            (r.player, r.card, r.purpose),
            (P1, Some(Witch), Purpose::React)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Moat],
                min: 0,
                max: 1
            }
        );
        assert_eq!(g.hand(P0), vec![], "Witch has not drawn yet");
        g.choose(P1, &[Moat]);
        g.choose(P2, &[]);
        assert_eq!(g.hand(P0), vec![Gold, Gold], "the attacker still draws");
        assert_eq!(
            g.hand(P1),
            vec![Copper, Copper, Copper, Copper, Moat],
            "Moat stays in hand"
        );
        assert_eq!(g.discard(P1), vec![]);
        assert_eq!(
            g.discard(P2),
            vec![Curse],
            "no Moat revealed, no protection"
        );
        assert_eq!(g.supply(Curse), 19);
    }

    #[test]
    fn can_be_revealed_against_each_play_of_a_throne_roomed_attack() {
        let mut g = table(2)
            .hand(P0, &[ThroneRoom, Militia])
            .hand(P1, &[Moat, Copper, Copper, Copper, Copper])
            .start();
        g.play(ThroneRoom).choose(P0, &[Militia]);
        g.choose(P1, &[Moat]);
        // Second play: asked again; this time decline and discard.
        assert_eq!(g.req().purpose, Purpose::React);
        g.choose(P1, &[]);
        assert_eq!(g.req().purpose, Purpose::Discard);
        g.choose(P1, &[Copper, Copper]);
        assert_eq!(g.hand(P1), vec![Copper, Copper, Moat]);
        assert_eq!(g.coins(), 4);
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
        assert_eq!(g.hand(P1), vec![Gold, Moat]);
        let _ = Reply::EndPhase;
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
    }
}
