//! Diplomat (2E, Action–Reaction): +2 Cards. If you have 5 or fewer cards in hand
//! (after drawing), +2 Actions. When another player plays an Attack, you may first
//! reveal this from a hand of 5 or more cards, to draw 2 cards then discard 3.
//!
//! The Reaction is offered only with 5+ cards in hand (`cards::can_react`) and never
//! makes its holder unaffected: the Attack still hits them afterwards.

use crate::card::CardId;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;
use crate::state::PlayerId;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 2);
    if cx.st.player(p).hand.len() <= 5 {
        cx.plus_actions(2);
    }
    Ok(())
}

/// Revealed against an Attack: +2 Cards, then discard 3. Returns false: `who` is still
/// affected.
pub fn react(cx: &mut Ctx, who: PlayerId) -> Res<bool> {
    cx.draw(who, 2);
    let chosen = cx.choose_from_hand(who, CardId::Diplomat, Purpose::Discard, |_| true, 3, 3)?;
    cx.discard_from_hand(who, &chosen);
    Ok(false)
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{CardId, Event, Prompt, Purpose, Zone};

    fn hand_prompt(options: Vec<CardId>, min: u8, max: u8) -> Prompt {
        Prompt::ChooseCards {
            zone: Zone::Hand,
            options,
            min,
            max,
        }
    }

    #[test]
    fn five_cards_after_drawing_give_two_actions() {
        let mut g = table(2)
            .hand(P0, &[Diplomat, Copper, Copper, Estate])
            .deck(P0, &[Silver, Gold, Duchy])
            .start();
        g.play(Diplomat);
        assert_eq!(g.hand(P0), vec![Copper, Copper, Silver, Gold, Estate]);
        assert_eq!(g.deck(P0), vec![Duchy]);
        assert_eq!(g.actions(), 2);
        assert_eq!(g.in_play(P0), vec![Diplomat]);
    }

    #[test]
    fn six_cards_after_drawing_give_no_actions() {
        let mut g = table(2)
            .hand(P0, &[Diplomat, Copper, Copper, Estate, Estate])
            .deck(P0, &[Silver, Gold])
            .start();
        g.play(Diplomat);
        assert_eq!(
            g.hand(P0),
            vec![Copper, Copper, Silver, Gold, Estate, Estate]
        );
        assert_eq!(g.actions(), 0);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
    }

    #[test]
    fn reacts_only_from_five_cards_draws_two_discards_three_and_is_still_attacked() {
        let mut g = table(4)
            .current(P2)
            .hand(P2, &[Militia])
            .hand(P3, &[Diplomat, Copper, Copper, Estate, Estate])
            .deck(P3, &[Gold, Curse])
            .hand(P0, &[Diplomat, Silver, Silver, Duchy])
            .hand(P1, &[Moat, Gold, Gold, Gold, Gold])
            .start();
        g.play(Militia);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P3, Some(Militia), None, Purpose::React)
        );
        assert_eq!(r.prompt, hand_prompt(vec![Diplomat], 0, 1));
        g.choose(P3, &[Diplomat]);
        assert_eq!(
            g.hand(P3),
            vec![Copper, Copper, Gold, Estate, Estate, Curse, Diplomat]
        );
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P3, Some(Diplomat), None, Purpose::Discard)
        );
        assert_eq!(
            r.prompt,
            hand_prompt(
                vec![Copper, Copper, Gold, Estate, Estate, Curse, Diplomat],
                3,
                3
            )
        );
        g.choose(P3, &[Estate, Estate, Curse]);
        // P0 holds a Diplomat in a hand of 4: not offered. P1 reveals Moat.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.purpose),
            (P1, Some(Militia), Purpose::React)
        );
        assert_eq!(r.prompt, hand_prompt(vec![Moat], 0, 1));
        g.choose(P1, &[Moat]);
        assert_eq!(g.coins(), 2);
        // Militia still hits P3 (4 cards now), then P0; P1 is unaffected.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.purpose),
            (P3, Some(Militia), Purpose::Discard)
        );
        assert_eq!(
            r.prompt,
            hand_prompt(vec![Copper, Copper, Gold, Diplomat], 1, 1)
        );
        g.choose(P3, &[Diplomat]);
        g.choose(P0, &[Duchy]);
        assert_eq!(g.hand(P3), vec![Copper, Copper, Gold]);
        assert_eq!(g.discard_pile(P3), vec![Estate, Estate, Curse, Diplomat]);
        assert_eq!(g.deck(P3), vec![]);
        assert_eq!(g.hand(P0), vec![Silver, Silver, Diplomat]);
        assert_eq!(g.discard_pile(P0), vec![Duchy]);
        assert_eq!(g.hand(P1), vec![Gold, Gold, Gold, Gold, Moat]);
        assert_eq!(g.discard(P1), vec![]);
        assert_eq!(g.req().player, P2);
        assert!(
            !g.events()
                .iter()
                .any(|e| matches!(e, Event::Blocked { by: Diplomat, .. }))
        );
        assert!(!g.events().contains(&Event::Revealed {
            player: P0,
            cards: vec![Diplomat]
        }));
    }
}
