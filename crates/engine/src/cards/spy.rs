//! Spy (1E, Attack): +1 Card, +1 Action. Each player (including you) reveals the top
//! card of their deck and either discards it or puts it back, your choice.
//!
//! The card is drawn first. Then you reveal and decide for yourself, then each other
//! player in turn order from your left (those protected by a Reaction are skipped). A
//! player whose deck and discard pile are both empty reveals nothing and is not asked
//! about. The revealed card waits face up in its owner's set-aside zone while you decide.

use crate::card::CardId;
use crate::ctx::{Ask, Ctx, Play, Res, To};
use crate::decision::{Purpose, Zone};
use crate::state::PlayerId;

pub fn play(cx: &mut Ctx, play: &Play) -> Res {
    let me = cx.current();
    cx.draw(me, 1);
    cx.plus_actions(1);
    let players: Vec<PlayerId> = std::iter::once(me).chain(cx.st.others(me)).collect();
    for v in players {
        if cx.is_immune(play, v) {
            continue;
        }
        let Some(&c) = cx.reveal_from_deck(v, 1).first() else {
            continue;
        };
        let mut ask = Ask::new(me, CardId::Spy, Purpose::Discard);
        if v != me {
            ask = ask.about(v);
        }
        let chosen = cx.pick(ask, Zone::Revealed, vec![c], 0, 1)?;
        let to = if chosen.is_empty() {
            To::Deck
        } else {
            To::Discard
        };
        cx.from_aside(v, &[c], to);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::card::Edition;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Viewer, Zone};

    fn revealed(card: crate::CardId) -> Prompt {
        Prompt::ChooseCards {
            zone: Zone::Revealed,
            options: vec![card],
            min: 0,
            max: 1,
        }
    }

    #[test]
    fn draws_first_then_you_decide_for_yourself_and_then_each_other_player_in_turn() {
        let mut g = table(4)
            .edition(Edition::First)
            .current(P2)
            .hand(P2, &[Spy])
            .deck(P2, &[Silver, Gold, Copper])
            .deck(P3, &[Estate, Province])
            .hand(P0, &[Moat])
            .deck(P0, &[Gold])
            .discard(P1, &[Duchy])
            .start();
        g.play(Spy);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Spy), None, Purpose::React)
        );
        g.choose(P0, &[Moat]);
        assert_eq!(g.hand(P2), vec![Silver], "+1 Card before revealing");
        assert_eq!(g.actions(), 1);
        // You first: about your own card, so no `about`.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P2, Some(Spy), None, Purpose::Discard)
        );
        assert_eq!(r.prompt, revealed(Gold));
        assert_eq!(g.aside(P2), vec![Gold]);
        assert_eq!(g.deck(P2), vec![Copper]);
        assert_eq!(g.deck(P3), vec![Estate, Province], "not revealed yet");
        g.choose(P2, &[]);
        assert_eq!(g.deck(P2), vec![Gold, Copper], "put back");
        // Then player 3 (your left).
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P2, Some(Spy), Some(P3), Purpose::Discard)
        );
        assert_eq!(r.prompt, revealed(Estate));
        assert_eq!(g.aside(P3), vec![Estate]);
        g.choose(P2, &[Estate]);
        // Player 0 revealed Moat; player 1 has an empty deck: shuffles, reveals Duchy.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P2, Some(Spy), Some(P1), Purpose::Discard)
        );
        assert_eq!(r.prompt, revealed(Duchy));
        assert!(g.events().contains(&Event::Shuffled { player: P1 }));
        assert_eq!(g.discard(P1), vec![]);
        g.choose(P2, &[Duchy]);

        assert_eq!(g.hand(P2), vec![Silver]);
        assert_eq!(g.deck(P2), vec![Gold, Copper]);
        assert_eq!(g.discard(P2), vec![]);
        assert_eq!(g.in_play(P2), vec![Spy]);
        assert_eq!(g.deck(P3), vec![Province]);
        assert_eq!(g.discard(P3), vec![Estate]);
        assert_eq!(g.hand(P0), vec![Moat]);
        assert_eq!(g.deck(P0), vec![Gold], "protected by Moat");
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.deck(P1), vec![]);
        assert_eq!(g.discard(P1), vec![Duchy]);
        for p in [P0, P1, P2, P3] {
            assert_eq!(g.aside(p), vec![]);
        }
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.req().player, P2);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));

        // Revealed cards, and where they went, are public.
        let public: Vec<Event> = g
            .events()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Revealed { player, .. } | Event::TopDecked { player, .. }
                        | Event::Discarded { player, .. } if *player != P0
                )
            })
            .cloned()
            .collect();
        assert_eq!(public.len(), 6);
        for e in &public {
            assert_eq!(e.for_viewer(Viewer::Player(P0)), *e);
        }
        assert_eq!(
            public[0],
            Event::Revealed {
                player: P2,
                cards: vec![Gold]
            }
        );
    }

    #[test]
    fn a_player_with_no_cards_reveals_nothing_you_included() {
        let mut g = table(3)
            .edition(Edition::First)
            .hand(P0, &[Spy])
            .deck(P0, &[Silver])
            .deck(P2, &[Gold])
            .start();
        g.play(Spy);
        assert_eq!(g.hand(P0), vec![Silver]);
        // Neither you (your only card was drawn) nor player 1 have a card to reveal.
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Spy), Some(P2), Purpose::Discard)
        );
        assert_eq!(r.prompt, revealed(Gold));
        g.choose(P0, &[]);
        assert_eq!(g.deck(P2), vec![Gold]);
        assert_eq!(g.discard(P2), vec![]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.deck(P1), vec![]);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert!(
            !g.events()
                .iter()
                .any(|e| matches!(e, Event::Revealed { player, .. } if *player != P2))
        );
    }
}
