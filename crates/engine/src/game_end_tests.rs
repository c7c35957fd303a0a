//! The four-pile ending of 5–6 player games, on Intrigue piles.
//!
//! With 5 or 6 players the game ends when any four Supply piles are empty (with 2–4,
//! three), checked once the turn is over — so a pile emptied by a gain in the middle of
//! a turn, even one given to another player, lets the turn finish. Intrigue's
//! Action–Victory and Treasure–Victory cards are Victory piles: 12 cards with 5–6
//! players, and they count like any other pile.

use crate::card::CardId::*;
use crate::cards::testkit::*;
use crate::decision::{Prompt, Reply};
use crate::event::Event;
use crate::setup::pile_size;
use crate::state::PlayerId;

const P4: PlayerId = PlayerId(4);

#[test]
fn two_type_victory_piles_hold_twelve_cards_with_five_or_six_players() {
    for card in [GreatHall, Nobles, Harem, Mill, Duke, Gardens] {
        assert_eq!(pile_size(card, 2), 8, "{card:?}");
        for players in [3, 4, 5, 6] {
            assert_eq!(pile_size(card, players), 12, "{card:?} with {players}");
        }
    }
}

#[test]
fn a_bought_harem_emptying_a_third_pile_ends_only_a_game_of_up_to_four() {
    for (players, ends) in [(3, true), (4, true), (5, false), (6, false)] {
        let mut g = table(players)
            .hand(P0, &[Gold, Gold])
            .supply(Curse, 0)
            .supply(GreatHall, 0)
            .supply(Harem, 1)
            .start();
        g.ok(P0, Reply::PlayAllTreasures).ok(P0, Reply::Buy(Harem));
        assert_eq!(g.supply(Harem), 0);
        assert_eq!(g.is_over(), ends, "{players} players");
        if !ends {
            assert_eq!(
                g.req().player,
                P1,
                "{players} players: the next turn starts"
            );
        }
    }
}

#[test]
fn ironworks_gaining_the_last_great_hall_as_the_fourth_pile_lets_the_turn_finish() {
    let mut g = table(6)
        .hand(P0, &[Ironworks, Copper])
        .deck(P0, &[Silver])
        .supply(Curse, 0)
        .supply(Estate, 0)
        .supply(Nobles, 0)
        .supply(GreatHall, 1)
        .start();
    g.play(Ironworks).ok(P0, Reply::Pile(Some(GreatHall)));
    assert_eq!(g.supply(GreatHall), 0);
    // Great Hall is an Action and a Victory card: +1 Action and +1 Card, and the turn
    // goes on with four piles empty.
    assert_eq!(g.discard(P0), vec![GreatHall]);
    assert_eq!(g.hand(P0), vec![Copper, Silver]);
    assert_eq!(g.actions(), 1);
    assert!(!g.is_over());
    g.ok(P0, Reply::PlayAllTreasures);
    assert_eq!(g.coins(), 3);
    assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
    g.ok(P0, Reply::Buy(Silver));
    assert!(g.is_over());
    assert!(matches!(g.events().last(), Some(Event::GameEnded { .. })));
    // P0: the Great Hall (1 VP); everyone else has no cards at all.
    let vp: Vec<i32> = g.scores().iter().map(|s| s.vp).collect();
    assert_eq!(vp, vec![1, 0, 0, 0, 0, 0]);
}

#[test]
fn swindler_giving_a_victim_the_last_card_of_a_fourth_pile_ends_the_game_after_the_turn() {
    let mut g = table(5)
        .hand(P0, &[Swindler])
        .deck(P1, &[Silver])
        .supply(Curse, 0)
        .supply(Estate, 0)
        .supply(Copper, 0)
        .supply(GreatHall, 1)
        .start();
    g.play(Swindler);
    assert_eq!(g.trash(), vec![Silver]);
    let r = g.req();
    assert_eq!((r.player, r.about), (P0, Some(P1)));
    // P2–P4 have no cards: nothing is trashed and nothing asked for them.
    g.ok(P0, Reply::Pile(Some(GreatHall)));
    assert_eq!(g.discard(P1), vec![GreatHall]);
    assert_eq!(g.supply(GreatHall), 0);
    for p in [P2, P3, P4] {
        assert_eq!(g.discard(p), vec![]);
    }
    assert!(!g.is_over(), "the turn is not over yet");
    assert_eq!(g.coins(), 2);
    assert_eq!(g.req().player, P0);
    g.ok(P0, Reply::EndPhase);
    assert!(g.is_over());
    let vp: Vec<i32> = g.scores().iter().map(|s| s.vp).collect();
    assert_eq!(vp, vec![0, 1, 0, 0, 0]);
}

#[test]
fn with_six_players_three_empty_kingdom_piles_and_no_provinces_left_still_end_it() {
    // Either ending is enough: the last Province ends a 6-player game whatever the piles.
    let mut g = table(6)
        .hand(P0, &[Gold, Gold, Gold])
        .supply(Harem, 0)
        .supply(Nobles, 0)
        .supply(Province, 1)
        .start();
    g.ok(P0, Reply::PlayAllTreasures)
        .ok(P0, Reply::Buy(Province));
    assert!(g.is_over());
}
