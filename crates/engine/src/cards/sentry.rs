//! Sentry (2E): +1 Card, +1 Action. Look at the top 2 cards of your deck. Trash and/or
//! discard any number of them. Put the rest back on top in any order.
//!
//! Asked in three steps — which to trash, which of the others to discard, the order of
//! what is left — while the cards stay on the deck (they are in no other zone until all
//! is decided); then they move at once. Only the player sees them: others learn what
//! was trashed (the trash is public), how many were discarded with the new top of the
//! discard pile, and how many went back.

use crate::card::CardId;
use crate::ctx::{Ask, Ctx, Play, Res};
use crate::decision::{Purpose, Zone};

pub fn play(cx: &mut Ctx, _play: &Play) -> Res {
    let p = cx.current();
    cx.draw(p, 1);
    cx.plus_actions(1);
    let top = cx.look_at_top(p, 2);
    let n = top.len();
    let trash = cx.choose_cards(
        p,
        CardId::Sentry,
        Purpose::Trash,
        Zone::Deck,
        top.clone(),
        0,
        n,
    )?;
    let rest = without(&top, &trash);
    let discard = cx.choose_cards(
        p,
        CardId::Sentry,
        Purpose::Discard,
        Zone::Deck,
        rest.clone(),
        0,
        n,
    )?;
    let mut back = without(&rest, &discard);
    if back.len() == 2 {
        back = cx.order(Ask::new(p, CardId::Sentry, Purpose::TopDeck), back)?;
    }
    cx.sort_looked_at(p, &trash, &discard, &back);
    Ok(())
}

/// `cards` less one copy of each of `taken` (a validated sub-multiset).
fn without(cards: &[CardId], taken: &[CardId]) -> Vec<CardId> {
    let mut rest = cards.to_vec();
    for c in taken {
        let i = rest
            .iter()
            .position(|r| r == c)
            .expect("chosen from the options");
        rest.remove(i);
    }
    rest
}

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Event, Prompt, Purpose, Viewer, Zone};

    #[test]
    fn trashes_one_and_discards_the_other_cards_staying_on_the_deck_meanwhile() {
        let mut g = table(2)
            .hand(P0, &[Sentry])
            .deck(P0, &[Copper, Estate, Curse, Gold])
            .discard(P0, &[Silver])
            .start();
        g.play(Sentry);
        assert_eq!(g.hand(P0), vec![Copper], "+1 Card first");
        assert_eq!(g.actions(), 1);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Sentry), None, Purpose::Trash)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Deck,
                options: vec![Estate, Curse],
                min: 0,
                max: 2
            }
        );
        assert_eq!(g.deck(P0), vec![Estate, Curse, Gold]);
        g.choose(P0, &[Curse]);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Sentry), None, Purpose::Discard)
        );
        assert_eq!(
            r.prompt,
            Prompt::ChooseCards {
                zone: Zone::Deck,
                options: vec![Estate],
                min: 0,
                max: 1
            }
        );
        assert_eq!(g.deck(P0), vec![Estate, Curse, Gold], "nothing moved yet");
        assert_eq!(g.trash(), vec![]);
        g.choose(P0, &[Estate]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.trash(), vec![Curse]);
        assert_eq!(g.discard_pile(P0), vec![Silver, Estate]);
        assert_eq!(g.in_play(P0), vec![Sentry]);
        assert_eq!(g.aside(P0), vec![]);

        // Others do not see the looked-at cards, nor the discarded one except as the new
        // top of the discard pile; the trashed card is public.
        let seen: Vec<Event> = g
            .events()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::LookedAt { .. } | Event::Trashed { .. } | Event::Discarded { .. }
                )
            })
            .map(|e| e.for_viewer(Viewer::Player(P1)))
            .collect();
        assert_eq!(
            seen,
            vec![
                Event::LookedAt {
                    player: P0,
                    count: 2,
                    cards: None
                },
                Event::Trashed {
                    player: P0,
                    cards: vec![Curse]
                },
                Event::Discarded {
                    player: P0,
                    count: 1,
                    cards: None,
                    top: Some(Estate),
                    private: true
                },
            ]
        );
        let looked = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::LookedAt { .. }))
            .unwrap();
        assert_eq!(
            looked.for_viewer(Viewer::Player(P0)),
            Event::LookedAt {
                player: P0,
                count: 2,
                cards: Some(vec![Estate, Curse].into())
            }
        );
    }

    #[test]
    fn puts_both_back_in_the_chosen_order_secretly() {
        let mut g = table(2)
            .hand(P0, &[Sentry])
            .deck(P0, &[Copper, Silver, Gold, Province])
            .start();
        g.play(Sentry).choose(P0, &[]).choose(P0, &[]);
        let r = g.req();
        assert_eq!(
            (r.player, r.card, r.about, r.purpose),
            (P0, Some(Sentry), None, Purpose::TopDeck)
        );
        assert_eq!(
            r.prompt,
            Prompt::OrderCards {
                cards: vec![Silver, Gold]
            }
        );
        assert_eq!(g.deck(P0), vec![Silver, Gold, Province]);
        g.choose(P0, &[Gold, Silver]);
        assert_eq!(g.deck(P0), vec![Gold, Silver, Province]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.discard(P0), vec![]);
        assert_eq!(g.trash(), vec![]);

        let back = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::TopDecked { .. }))
            .unwrap();
        assert_eq!(
            back.for_viewer(Viewer::Player(P1)),
            Event::TopDecked {
                player: P0,
                count: 2,
                cards: None,
                private: true
            }
        );
        assert_eq!(
            back.for_viewer(Viewer::Player(P0)),
            Event::TopDecked {
                player: P0,
                count: 2,
                cards: Some(vec![Gold, Silver].into()),
                private: true
            }
        );
    }

    #[test]
    fn discards_one_and_puts_one_back_unasked_for_an_order() {
        let mut g = table(2)
            .hand(P0, &[Sentry])
            .deck(P0, &[Copper, Estate, Gold, Silver])
            .start();
        g.play(Sentry).choose(P0, &[]);
        assert_eq!(
            g.prompt(),
            &Prompt::ChooseCards {
                zone: Zone::Deck,
                options: vec![Estate, Gold],
                min: 0,
                max: 2
            }
        );
        g.choose(P0, &[Estate]);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.deck(P0), vec![Gold, Silver]);
        assert_eq!(g.discard(P0), vec![Estate]);
        assert_eq!(g.trash(), vec![]);
        assert_eq!(g.hand(P0), vec![Copper]);
    }

    #[test]
    fn trashing_both_asks_nothing_more_and_identical_cards_need_no_order() {
        let mut g = table(2)
            .hand(P0, &[Sentry])
            .deck(P0, &[Copper, Curse, Estate, Gold])
            .start();
        g.play(Sentry).choose(P0, &[Curse, Estate]);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.trash(), vec![Estate, Curse]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.discard(P0), vec![]);

        let mut g = table(2)
            .hand(P0, &[Sentry])
            .deck(P0, &[Copper, Silver, Silver, Gold])
            .start();
        g.play(Sentry).choose(P0, &[]).choose(P0, &[]);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.deck(P0), vec![Silver, Silver, Gold]);
    }

    #[test]
    fn a_deck_of_one_gets_the_shuffled_discard_pile_under_it() {
        let mut g = table(2)
            .hand(P0, &[Sentry])
            .deck(P0, &[Copper, Estate])
            .discard(P0, &[Gold])
            .start();
        g.play(Sentry);
        assert!(g.events().contains(&Event::Shuffled { player: P0 }));
        // Estate (the old deck) on top, the shuffled Gold under it.
        assert_eq!(
            g.prompt(),
            &Prompt::ChooseCards {
                zone: Zone::Deck,
                options: vec![Estate, Gold],
                min: 0,
                max: 2
            }
        );
        assert_eq!(g.deck(P0), vec![Estate, Gold]);
        assert_eq!(g.discard(P0), vec![]);
        g.choose(P0, &[Estate]).choose(P0, &[]);
        assert_eq!(g.deck(P0), vec![Gold]);
        assert_eq!(g.trash(), vec![Estate]);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.discard(P0), vec![]);
    }

    #[test]
    fn with_an_empty_deck_and_discard_pile_only_draws_what_there_is() {
        let mut g = table(2).hand(P0, &[Sentry]).deck(P0, &[Copper]).start();
        g.play(Sentry);
        g.end_actions();
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.actions(), 1);
    }
}
