//! Moneylender. 1E: Trash a Copper from your hand; if you do, +$3. 2E: You may trash a
//! Copper from your hand for +$3.
//!
//! Either way the +$3 comes only with a Copper actually trashed: without one in hand (or,
//! in 2E, when the player declines) nothing happens.

use crate::card::{CardId, Edition};
use crate::ctx::{Ctx, Play, Res};
use crate::decision::Purpose;

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    let min = if cx.st.edition == Edition::First {
        1
    } else {
        0
    };
    let is_copper = |c: CardId| c == CardId::Copper;
    let chosen = cx.choose_from_hand(p, CardId::Moneylender, Purpose::Trash, is_copper, min, 1)?;
    if !chosen.is_empty() {
        cx.trash_from_hand(p, &chosen);
        cx.plus_coins(3);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Request, Zone};

    #[test]
    fn first_edition_trashes_a_copper_without_asking_for_three_coins() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[Moneylender, Copper, Copper, Estate])
            .deck(P0, &[Gold])
            .start();
        g.play(Moneylender);
        // Exactly one Copper must go, and the Coppers are alike: forced, not asked.
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.trash(), vec![Copper]);
        assert_eq!(g.hand(P0), vec![Copper, Estate]);
        assert_eq!(g.coins(), 3);
        assert_eq!(g.in_play(P0), vec![Moneylender]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.discard(P0), vec![]);
        assert!(g.events().contains(&Event::Trashed {
            player: P0,
            cards: vec![Copper]
        }));
    }

    #[test]
    fn without_a_copper_nothing_is_trashed_and_no_coins_in_either_edition() {
        for e in [Edition::First, Edition::Second] {
            let mut g = table(2)
                .edition(e)
                .hand(P0, &[Moneylender, Silver, Estate])
                .start();
            g.play(Moneylender);
            assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }), "{e:?}");
            assert_eq!(g.trash(), vec![]);
            assert_eq!(g.hand(P0), vec![Silver, Estate]);
            assert_eq!(g.coins(), 0, "{e:?}: no Copper trashed, no +$3");
        }
    }

    #[test]
    fn second_edition_asks_and_declining_gives_nothing() {
        let mut g = table(2).hand(P0, &[Moneylender, Copper, Silver]).start();
        g.play(Moneylender);
        assert_eq!(
            g.req(),
            &Request {
                player: P0,
                card: Some(Moneylender),
                about: None,
                purpose: Purpose::Trash,
                prompt: Prompt::ChooseCards {
                    zone: Zone::Hand,
                    options: vec![Copper],
                    min: 0,
                    max: 1
                }
            }
        );
        g.choose(P0, &[]);
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.hand(P0), vec![Copper, Silver]);
        assert_eq!(g.coins(), 0);
        assert_eq!(g.in_play(P0), vec![Moneylender]);
    }

    #[test]
    fn second_edition_trashing_gives_three_coins() {
        let mut g = table(2)
            .hand(P0, &[Moneylender, Copper, Copper, Silver])
            .trash(&[Estate])
            .start();
        g.play(Moneylender);
        assert_eq!(
            g.prompt(),
            &Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Copper, Copper],
                min: 0,
                max: 1
            }
        );
        g.choose(P0, &[Copper]);
        assert_eq!(g.trash(), vec![Copper, Estate]);
        assert_eq!(g.hand(P0), vec![Copper, Silver]);
        assert_eq!(g.coins(), 3);
        assert_eq!(g.in_play(P0), vec![Moneylender]);
    }

    #[test]
    fn throne_room_trashes_two_coppers_for_six() {
        let mut g = table(2)
            .edition(Edition::First)
            .hand(P0, &[ThroneRoom, Moneylender, Copper, Copper, Copper])
            .start();
        g.play(ThroneRoom);
        assert_eq!(g.trash(), vec![Copper, Copper]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.coins(), 6);
        assert_eq!(g.in_play(P0), vec![ThroneRoom, Moneylender]);
    }
}
