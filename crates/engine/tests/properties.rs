//! Property tests: many games between `random` bots, 2–6 players, random kingdoms, both
//! editions, driven through `Game::reply` exactly as the server drives it.
//!
//! After every reply: the cards of every kind are conserved across all zones, the
//! pending request (if any) is addressed to a real player and its prompt's bounds are
//! satisfiable. Every game ends, and replaying its record reproduces the same state hash.

use dominion_engine::state::State;
use dominion_engine::{Agent, CardId, Edition, Game, Kingdom, Observation, Prompt, Setup, bots};
use std::collections::BTreeMap;

const GAMES: u64 = 2000;
const MAX_REPLIES: usize = 200_000;

fn census(st: &State) -> BTreeMap<CardId, usize> {
    let mut m = BTreeMap::new();
    let mut add = |c: CardId| *m.entry(c).or_insert(0) += 1;
    for pl in &st.players {
        pl.all_cards().for_each(&mut add);
    }
    st.trash.iter().copied().for_each(&mut add);
    for pile in &st.supply {
        *m.entry(pile.card).or_insert(0) += pile.count as usize;
    }
    m
}

fn check_pending(g: &Game) {
    let Some(req) = g.pending() else {
        assert!(g.is_over(), "no pending decision but the game is not over");
        return;
    };
    assert!(req.player.idx() < g.num_players());
    match &req.prompt {
        Prompt::ChooseCards {
            options, min, max, ..
        } => {
            assert!(
                min <= max && *max as usize <= options.len(),
                "unsatisfiable {req:?}"
            );
        }
        Prompt::ChooseModes { options, min, max } => {
            assert!(
                min <= max && *max as usize <= options.len(),
                "unsatisfiable {req:?}"
            );
        }
        Prompt::ChoosePile { options, optional } => assert!(*optional || !options.is_empty()),
        Prompt::ActionPhase { playable } => assert!(!playable.is_empty()),
        _ => {}
    }
}

fn play_one(seed: u64) -> (usize, u32) {
    let players = 2 + (seed % 5) as u8;
    let edition = if seed.is_multiple_of(2) {
        Edition::Second
    } else {
        Edition::First
    };
    let setup = Setup {
        players,
        kingdom: Kingdom::Random,
        edition,
    };
    let mut g = Game::new(&setup, seed).expect("setup");
    let start = census(g.state());
    let mut agents: Vec<Box<dyn Agent + Send>> = (0..players)
        .map(|i| bots::by_name("random", seed * 31 + i as u64).unwrap())
        .collect();
    let mut replies = 0;
    while let Some(req) = g.pending().cloned() {
        let reply = agents[req.player.idx()].decide(&Observation::for_player(&g, req.player), &req);
        g.reply(req.player, reply.clone())
            .unwrap_or_else(|e| panic!("seed {seed}: legal reply {reply:?} refused: {e}"));
        replies += 1;
        assert_eq!(
            census(g.state()),
            start,
            "seed {seed}: cards not conserved after reply {replies}"
        );
        check_pending(&g);
        assert!(replies < MAX_REPLIES, "seed {seed}: game did not end");
    }
    assert!(g.is_over());
    let replay = Game::replay(&g.record()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    assert_eq!(
        replay.state_hash(),
        g.state_hash(),
        "seed {seed}: replay diverged"
    );
    assert_eq!(
        replay.events(),
        g.events(),
        "seed {seed}: replay events differ"
    );
    (replies, g.state().turn_count)
}

#[test]
fn random_bot_games_conserve_cards_end_and_replay() {
    let mut total_replies = 0;
    let mut max_turns = 0;
    for seed in 0..GAMES {
        let (r, t) = play_one(seed);
        total_replies += r;
        max_turns = max_turns.max(t);
    }
    eprintln!("{GAMES} games, {total_replies} replies, longest {max_turns} turns");
}
