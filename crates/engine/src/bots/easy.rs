//! `easy`: a gentle opponent for new players.
//!
//! It plays like a beginner: it buys one of the most expensive cards it can afford
//! (chosen at random, seeded, among those costing at most $1 less than the priciest),
//! a Province whenever it has $8, and Victory cards other than Provinces only once
//! the game is nearly over; it plays its most expensive Action first, never dances for
//! Duchies and buys once a turn. It takes Gold at $6-7, and past one Action per
//! five cards it buys Treasure. Card questions are answered by the standard bot, so
//! every answer is legal and none is absurd.

use super::standard::StandardBot;
use crate::agent::Agent;
use crate::card::CardId;
use crate::decision::{Prompt, Reply, Request};
use crate::view::Observation;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

pub struct EasyBot {
    rng: ChaCha8Rng,
    cards: StandardBot,
    /// The own turn number of its last buy: it buys once a turn.
    bought_on: Option<u32>,
}

impl EasyBot {
    pub fn new(seed: u64) -> EasyBot {
        EasyBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            cards: StandardBot::new(),
            bought_on: None,
        }
    }

    /// A beginner's buy: Province at $8; otherwise one of the priciest useful cards.
    fn buy(&mut self, obs: &Observation, buyable: &[CardId]) -> Option<CardId> {
        if obs.coins() < 2 {
            return None;
        }
        let ok = |c: CardId| !obs.gain_would_end_game(c) || obs.wins_after_gaining(c);
        let near_end = obs.supply_count(CardId::Province) <= 2;
        if buyable.contains(&CardId::Province) && ok(CardId::Province) {
            return Some(CardId::Province);
        }
        let wanted: Vec<CardId> = buyable
            .iter()
            .copied()
            .filter(|c| *c != CardId::Curse && *c != CardId::Copper && ok(*c))
            .filter(|c| !c.is_victory() || c.is_action() || c.is_treasure() || near_end)
            .collect();
        // It has heard that too many Actions collide: past one Action per five cards
        // it takes the best Treasure it can afford.
        let actions = obs.owned().filter(|c| c.is_action()).count();
        let total = obs.owned().count();
        if (actions * 5 >= total || (obs.coins() >= 6 && buyable.contains(&CardId::Gold)))
            && let Some(t) = [CardId::Gold, CardId::Silver]
                .into_iter()
                .find(|t| buyable.contains(t))
        {
            return Some(t);
        }
        let top = wanted.iter().map(|c| obs.cost(*c)).max()?;
        let priciest: Vec<CardId> = wanted
            .into_iter()
            .filter(|c| obs.cost(*c) + 1 >= top)
            .collect();
        priciest.choose(&mut self.rng).copied()
    }
}

impl Agent for EasyBot {
    fn name(&self) -> &str {
        "easy"
    }

    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        match &req.prompt {
            Prompt::ActionPhase { playable } => playable
                .iter()
                .copied()
                .max_by_key(|c| (c.base_cost(), *c))
                .map_or(Reply::EndPhase, Reply::Play),
            Prompt::BuyPhase { treasures, .. } if !treasures.is_empty() => Reply::PlayAllTreasures,
            Prompt::BuyPhase { buyable, .. } => {
                // One buy a turn, like a beginner who ignores +Buy.
                let turn = obs.turns(obs.me());
                if self.bought_on == Some(turn) {
                    return Reply::EndPhase;
                }
                match self.buy(obs, buyable) {
                    Some(c) => {
                        self.bought_on = Some(turn);
                        Reply::Buy(c)
                    }
                    None => Reply::EndPhase,
                }
            }
            _ => self.cards.decide(obs, req),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::testkit::*;

    /// Asks `bot` the pending question of `g` (player 0's).
    fn answer(bot: &mut EasyBot, g: &crate::game::Game) -> Reply {
        let req = g.pending().expect("a decision").clone();
        let reply = bot.decide(&Observation::for_player(g, P0), &req);
        assert!(req.prompt.validate(&reply).is_ok(), "{reply:?} to {req:?}");
        reply
    }

    #[test]
    fn buys_a_province_at_eight_and_once_a_turn() {
        let mut g = table(2)
            .hand(
                P0,
                &[
                    CardId::Gold,
                    CardId::Gold,
                    CardId::Silver,
                    CardId::Woodcutter,
                ],
            )
            .edition(crate::card::Edition::First)
            .start();
        let mut bot = EasyBot::new(3);
        // Woodcutter (+1 Buy, +$2) is its only Action: played.
        assert_eq!(answer(&mut bot, &g), Reply::Play(CardId::Woodcutter));
        g.reply(P0, Reply::Play(CardId::Woodcutter)).unwrap();
        assert_eq!(answer(&mut bot, &g), Reply::PlayAllTreasures);
        g.reply(P0, Reply::PlayAllTreasures).unwrap();
        assert_eq!(answer(&mut bot, &g), Reply::Buy(CardId::Province));
        g.reply(P0, Reply::Buy(CardId::Province)).unwrap();
        // $2 and a Buy left: a beginner ignores it.
        assert_eq!(g.state().turn.buys, 1);
        assert_eq!(answer(&mut bot, &g), Reply::EndPhase);
    }
}
