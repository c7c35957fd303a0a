//! Minion (Attack): +1 Action. Choose one: +$2; or discard your hand, +4 Cards, and
//! each other player with at least 5 cards in hand discards their hand and draws 4
//! cards.
//!
//! Reactions come before the choice (as for every Attack), so a player may reveal Moat
//! or Secret Chamber whatever their hand size; whether they have 5 cards is checked
//! when the attack reaches them, in turn order from your left.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Mode;
use crate::state::PlayerId;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    let me = cx.current();
    cx.plus_actions(1);
    let modes = cx.choose_modes(
        me,
        CardId::Minion,
        vec![Mode::PlusTwoCoins, Mode::DiscardAndDraw],
        1,
        1,
    )?;
    if modes.contains(&Mode::PlusTwoCoins) {
        cx.plus_coins(2);
        return Ok(());
    }
    discard_hand_draw_four(cx, me);
    cx.each_victim(play, |cx, v| {
        if cx.st.player(v).hand.len() >= 5 {
            discard_hand_draw_four(cx, v);
        }
        Ok(())
    })
}

fn discard_hand_draw_four(cx: &mut Ctx, p: PlayerId) {
    let hand = cx.st.player(p).hand.clone();
    cx.discard_from_hand(p, &hand);
    cx.draw(p, 4);
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Event, Mode, Prompt, Purpose, Reply, Zone};

    fn four_players() -> crate::Game {
        table(4)
            .current(P2)
            .hand(P2, &[Minion, Copper, Estate])
            .deck(P2, &[Gold, Gold, Silver, Silver, Duchy])
            .hand(P3, &[Copper, Copper, Copper, Estate, Estate])
            .deck(P3, &[Province, Province, Province, Province])
            .discard(P3, &[Curse])
            .hand(P0, &[Silver, Silver, Silver, Silver])
            .deck(P0, &[Gold, Gold, Gold, Gold])
            .hand(P1, &[Moat, Copper])
            .deck(P1, &[Gold])
            .start()
    }

    #[test]
    fn discard_and_draw_hits_only_hands_of_five_and_moat_protects_any_hand() {
        let mut g = four_players();
        g.play(Minion);
        // P1 may reveal Moat with 2 cards in hand, before anything happens.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P1, Some(Minion), None, Purpose::React)
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
        assert_eq!(g.actions(), 0);
        g.choose(P1, &[Moat]);
        assert_eq!(g.actions(), 1);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P2, Some(Minion), None, Purpose::ChooseModes)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseModes {
                options: vec![Mode::PlusTwoCoins, Mode::DiscardAndDraw],
                min: 1,
                max: 1
            }
        );
        g.ok(P2, Reply::Modes(vec![Mode::DiscardAndDraw]));
        assert_eq!(g.coins(), 0);
        assert_eq!(g.actions(), 1);
        assert_eq!(g.hand(P2), vec![Silver, Silver, Gold, Gold]);
        assert_eq!(g.deck(P2), vec![Duchy]);
        assert_eq!(g.discard_pile(P2), vec![Copper, Estate]);
        assert_eq!(g.in_play(P2), vec![Minion]);
        // P3 (5 cards) discards and draws 4, without shuffling its discard in.
        assert_eq!(g.hand(P3), vec![Province; 4]);
        assert_eq!(g.deck(P3), vec![]);
        assert_eq!(
            g.discard_pile(P3),
            vec![Curse, Copper, Copper, Copper, Estate, Estate]
        );
        // P0 (4 cards) is untouched; P1 revealed Moat.
        assert_eq!(g.hand(P0), vec![Silver; 4]);
        assert_eq!(g.deck(P0), vec![Gold; 4]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.hand(P1), vec![Copper, Moat]);
        assert_eq!(g.deck(P1), vec![Gold]);
        let discards: Vec<_> = g
            .events()
            .iter()
            .filter_map(|e| match e {
                Event::Discarded { player, .. } => Some(*player),
                _ => None,
            })
            .collect();
        assert_eq!(discards, vec![P2, P3], "you first, then victims in order");
        assert_eq!(g.req().player, P2);
        g.end_actions();
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
    }

    #[test]
    fn plus_two_coins_touches_no_hand() {
        let mut g = four_players();
        g.play(Minion).choose(P1, &[]);
        g.ok(P2, Reply::Modes(vec![Mode::PlusTwoCoins]));
        assert_eq!((g.coins(), g.actions()), (2, 1));
        assert_eq!(g.hand(P2), vec![Copper, Estate]);
        assert_eq!(g.hand(P3), vec![Copper, Copper, Copper, Estate, Estate]);
        assert_eq!(g.hand(P0), vec![Silver; 4]);
        assert_eq!(g.hand(P1), vec![Copper, Moat]);
        for p in [P0, P1, P2] {
            assert_eq!(g.discard(p), vec![]);
        }
        assert_eq!(g.discard(P3), vec![Curse]);
        // +1 Action: Minion could be followed by another Action; none in hand here.
        g.end_actions();
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
    }

    #[test]
    fn a_victim_whose_deck_runs_out_shuffles_only_its_new_discards() {
        let mut g = table(2)
            .hand(P0, &[Minion])
            .hand(P1, &[Estate, Estate, Estate, Estate, Estate])
            .deck(P1, &[Gold, Gold])
            .start();
        g.play(Minion);
        g.ok(P0, Reply::Modes(vec![Mode::DiscardAndDraw]));
        // Attacker had nothing: discards nothing, draws nothing.
        assert_eq!(g.hand(P0), vec![]);
        assert_eq!(g.hand(P1), vec![Gold, Gold, Estate, Estate]);
        assert_eq!(g.deck(P1).len(), 3);
        assert_eq!(g.discard(P1), vec![]);
        assert!(g.events().contains(&Event::Shuffled { player: P1 }));
    }

    #[test]
    fn secret_chamber_may_be_revealed_with_fewer_than_five_cards() {
        let mut g = table(2)
            .edition(crate::Edition::First)
            .hand(P0, &[Minion])
            .hand(P1, &[SecretChamber, Copper])
            .deck(P1, &[Estate, Estate, Gold])
            .start();
        g.play(Minion);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.purpose),
            (P1, Some(Minion), Purpose::React)
        );
        g.choose(P1, &[SecretChamber]);
        g.choose(P1, &[Estate, Estate]);
        g.ok(P0, Reply::Modes(vec![Mode::DiscardAndDraw]));
        // Back to 2 cards: Minion's attack passes P1 by.
        assert_eq!(g.hand(P1), vec![Copper, SecretChamber]);
        assert_eq!(g.deck(P1), vec![Estate, Estate, Gold]);
        assert_eq!(g.discard(P1), vec![]);
    }
}
