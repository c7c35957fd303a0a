//! `random`: a uniformly random legal answer to every decision.

use crate::agent::Agent;
use crate::decision::{Prompt, Reply, Request};
use crate::view::Observation;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn decide(&mut self, _obs: &Observation, req: &Request) -> Reply {
        let rng = &mut self.rng;
        match &req.prompt {
            Prompt::ActionPhase { playable } => {
                let mut moves: Vec<Reply> = playable.iter().map(|c| Reply::Play(*c)).collect();
                moves.push(Reply::EndPhase);
                moves.swap_remove(rng.random_range(0..moves.len()))
            }
            Prompt::BuyPhase { treasures, buyable } => {
                let mut moves: Vec<Reply> = treasures.iter().map(|c| Reply::Play(*c)).collect();
                if !treasures.is_empty() {
                    moves.push(Reply::PlayAllTreasures);
                }
                moves.extend(buyable.iter().map(|c| Reply::Buy(*c)));
                moves.push(Reply::EndPhase);
                moves.swap_remove(rng.random_range(0..moves.len()))
            }
            Prompt::ChooseCards {
                options, min, max, ..
            } => {
                let k = rng.random_range(*min as usize..=*max as usize);
                Reply::Cards(options.sample(rng, k).copied().collect())
            }
            Prompt::ChoosePile { options, optional } => {
                let none = usize::from(*optional);
                let i = rng.random_range(0..options.len() + none);
                Reply::Pile(options.get(i).copied())
            }
            Prompt::ChooseModes { options, min, max } => {
                let k = rng.random_range(*min as usize..=*max as usize);
                Reply::Modes(options.sample(rng, k).copied().collect())
            }
            Prompt::OrderCards { cards } => {
                let mut order = cards.clone();
                order.shuffle(rng);
                Reply::Cards(order)
            }
            Prompt::YesNo => Reply::YesNo(rng.random()),
            Prompt::NameCard { options } => Reply::Name(*options.choose(rng).expect("options")),
            Prompt::ChooseNumber { min, max } => Reply::Number(rng.random_range(*min..=*max)),
        }
    }
}
