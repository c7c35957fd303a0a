//! Property: any reply, from any player, at any point of a game, is either accepted or
//! refused with the game exactly as it was (state hash, pending request, event log).
//! Kingdoms are drawn from every implemented card of both editions.

use dominion_engine::setup::CardPool;
use dominion_engine::{
    Agent, CardId, Edition, Game, Kingdom, Mode, Observation, PlayerId, Reply, Setup, bots,
    is_combined_move,
};
use proptest::prelude::*;

fn card() -> impl Strategy<Value = CardId> {
    let all: Vec<CardId> = CardId::all().collect();
    proptest::sample::select(all)
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::PlusCard),
        Just(Mode::PlusAction),
        Just(Mode::PlusBuy),
        Just(Mode::PlusCoin)
    ]
}

fn reply() -> impl Strategy<Value = Reply> {
    prop_oneof![
        card().prop_map(Reply::Play),
        Just(Reply::PlayAllTreasures),
        card().prop_map(Reply::Buy),
        Just(Reply::EndPhase),
        proptest::collection::vec(card(), 0..6).prop_map(Reply::Cards),
        proptest::option::of(card()).prop_map(Reply::Pile),
        proptest::collection::vec(mode(), 0..4).prop_map(Reply::Modes),
        any::<bool>().prop_map(Reply::YesNo),
        card().prop_map(Reply::Name),
    ]
}

/// A game between random bots, advanced by `steps` replies (or to its end).
fn game_at(seed: u64, players: u8, steps: usize) -> Game {
    let setup = Setup {
        players,
        kingdom: Kingdom::RandomFrom(CardPool::Both),
        edition: if seed.is_multiple_of(2) {
            Edition::Second
        } else {
            Edition::First
        },
    };
    let mut g = Game::new(&setup, seed).unwrap();
    let mut agents: Vec<Box<dyn Agent + Send>> = (0..players)
        .map(|i| bots::by_name("random", seed + i as u64).unwrap())
        .collect();
    for _ in 0..steps {
        let Some(req) = g.pending().cloned() else {
            break;
        };
        let r = agents[req.player.idx()].decide(&Observation::for_player(&g, req.player), &req);
        g.reply(req.player, r).unwrap();
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn a_refused_reply_changes_nothing(
        seed in 0u64..10_000,
        players in 2u8..=6,
        steps in 0usize..400,
        who in 0u8..7,
        r in reply(),
    ) {
        let mut g = game_at(seed, players, steps);
        let (hash, pending, events, replies) = (g.state_hash(), g.pending().cloned(), g.events().len(), g.replies().len());
        let legal = g.check(PlayerId(who), &r).is_ok();
        // Only a Buy-phase move answered at the Action phase (Play all Treasures, a Buy:
        // checked against the coins of the hand's Treasures) is judged beyond the prompt.
        let combined = pending.as_ref().is_some_and(|p| is_combined_move(&p.prompt, &r));
        let by_prompt = pending.as_ref().is_some_and(|p| p.player == PlayerId(who) && p.prompt.validate(&r).is_ok());
        prop_assert!(combined || legal == by_prompt, "check says {} of {:?}, the prompt {}", legal, r, by_prompt);
        match g.reply(PlayerId(who), r.clone()) {
            Ok(_) => {
                prop_assert!(legal, "accepted an illegal reply {:?} to {:?}", r, pending);
                prop_assert_eq!(g.replies().len(), replies + 1);
            }
            Err(e) => {
                prop_assert!(!legal, "refused a legal reply {:?}: {}", r, e);
                prop_assert_eq!(g.state_hash(), hash);
                prop_assert_eq!(g.pending().cloned(), pending);
                prop_assert_eq!(g.events().len(), events);
                prop_assert_eq!(g.replies().len(), replies);
            }
        }
    }
}
