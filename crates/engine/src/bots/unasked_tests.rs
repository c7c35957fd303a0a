//! The questions an unrecorded game answers for an agent without building the request
//! (forced phase moves, playing all Treasures, a Buy from the observation: see
//! `crate::agent::Agent`) play the same games as asking the agent every one of them.

use super::by_name;
use crate::Edition;
use crate::agent::Agent;
use crate::decision::{Reply, Request};
use crate::game::Game;
use crate::score::Score;
use crate::setup::{Kingdom, Setup};
use crate::view::Observation;

/// An agent that answers requests and nothing else: none of the shortcuts apply to it.
struct AskMe(Box<dyn Agent + Send>);

impl Agent for AskMe {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        self.0.decide(obs, req)
    }
}

/// The final state's digest and scores of one unrecorded game of `bots`.
fn play(bots: &[&str], kingdom: &Kingdom, seed: u64, ask_everything: bool) -> (u64, Vec<Score>) {
    let setup = Setup {
        players: bots.len() as u8,
        kingdom: kingdom.clone(),
        edition: Edition::Second,
    };
    let mut agents: Vec<Box<dyn Agent + Send>> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let agent = by_name(b, seed.wrapping_add(i as u64)).expect("a registered bot");
            if ask_everything {
                Box::new(AskMe(agent)) as Box<dyn Agent + Send>
            } else {
                agent
            }
        })
        .collect();
    let mut g = Game::new_unrecorded(&setup, seed).expect("setup");
    g.play_out(&mut agents);
    (g.digest(), g.scores())
}

#[test]
fn answering_for_an_agent_plays_the_same_games_as_asking_it() {
    let kingdoms = [
        Kingdom::Recommended("base_2e/first_game".into()),
        // Drawn per seed: Attacks, gainers, Bridge's cost reduction, Harem's Treasure.
        Kingdom::Random,
    ];
    let seatings: [&[&str]; 3] = [
        &["big_money", "smithy"],
        &["standard", "witch"],
        &["standard", "standard", "militia"],
    ];
    for kingdom in &kingdoms {
        for bots in seatings {
            for seed in 0..8 {
                assert_eq!(
                    play(bots, kingdom, seed, false),
                    play(bots, kingdom, seed, true),
                    "{bots:?} in {kingdom:?}, seed {seed}"
                );
            }
        }
    }
}
