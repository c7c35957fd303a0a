//! `standard`: the card-aware bot. It plans its buys from the kingdom (plan.rs, from
//! the card table in roles.rs), buys by that plan with endgame rules (buy.rs), plays
//! its Actions in a sensible order (play.rs) and answers every card's questions
//! (choices.rs, modes.rs, piles.rs).
//!
//! It must be fast — the search bot plays whole games with it for every option it
//! weighs — so the kingdom is analysed once and cached (keyed by the Supply's cards),
//! and each decision only reads a few counts.

mod buy;
mod choices;
mod eval;
mod modes;
mod piles;
mod plan;
mod play;
mod roles;
#[cfg(test)]
mod tests;

use crate::agent::Agent;
use crate::card::CardId;
use crate::decision::{Prompt, Purpose, Reply, Request};
use crate::view::Observation;
use plan::Plan;

pub struct StandardBot {
    plan: Option<Plan>,
    /// The Supply's cards, in order, when `plan` was made: while they are the same the
    /// plan holds (it is a function of their set), and comparing them is cheaper than
    /// working out the set's key at every decision.
    supply: Vec<CardId>,
    /// The card Secret Passage is putting into the deck, between its two questions.
    passed: Option<CardId>,
}

impl StandardBot {
    pub fn new() -> StandardBot {
        StandardBot {
            plan: None,
            supply: Vec::new(),
            passed: None,
        }
    }

    /// The plan for this kingdom, analysed on first use and whenever the Supply differs.
    fn plan(&mut self, obs: &Observation) -> &Plan {
        let same = self.plan.is_some()
            && self.supply.len() == obs.supply_len()
            && obs.supply_cards().zip(&self.supply).all(|(a, b)| a == *b);
        if !same {
            self.supply.clear();
            self.supply.extend(obs.supply_cards());
            self.plan = Some(Plan::for_kingdom(obs));
        }
        self.plan.as_ref().expect("just set")
    }
}

impl Default for StandardBot {
    fn default() -> StandardBot {
        StandardBot::new()
    }
}

impl Agent for StandardBot {
    fn name(&self) -> &str {
        "standard"
    }

    /// A phase move touches neither the Secret Passage card kept between two questions
    /// nor anything the plan depends on (the plan is a function of the Supply's cards,
    /// cached): a playout's seats need not be asked one without a choice.
    fn unmoved_by_forced_phase_moves(&self) -> bool {
        true
    }

    /// `answer` gives `PlayAllTreasures` to any Buy phase offering Treasures, and
    /// such a move touches nothing the bot keeps (as above).
    fn plays_all_treasures_when_offered(&self) -> bool {
        true
    }

    /// `answer`'s Buy without Treasures ranks the piles offered, which are those
    /// `buy::best_with` ranks (cards left, cost now within the coins); the best of
    /// a set does not depend on the order it is read in.
    fn buy_from_observation(&mut self, obs: &Observation) -> Option<Reply> {
        let plan = self.plan(obs);
        let st = buy::Status::read(obs);
        Some(buy::best_with(obs, plan, &st, obs.coins()).map_or(Reply::EndPhase, Reply::Buy))
    }

    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        let reply = {
            let plan = self.plan(obs);
            answer(obs, plan, req)
        };
        if req.card == Some(CardId::SecretPassage)
            && req.purpose == Purpose::TopDeck
            && let Reply::Cards(c) = &reply
        {
            self.passed = c.first().copied();
        }
        if let Prompt::ChooseNumber { min, max } = req.prompt {
            return Reply::Number(piles::depth(self.passed, max).clamp(min, max));
        }
        reply
    }
}

/// The reply to `req` under `plan`.
fn answer(obs: &Observation, plan: &Plan, req: &Request) -> Reply {
    match &req.prompt {
        Prompt::ActionPhase { playable } => {
            play::choose(obs, plan, playable).map_or(Reply::EndPhase, Reply::Play)
        }
        Prompt::BuyPhase { treasures, buyable } => {
            if !treasures.is_empty() {
                Reply::PlayAllTreasures
            } else {
                buy::buy(obs, plan, buyable).map_or(Reply::EndPhase, Reply::Buy)
            }
        }
        Prompt::ChooseCards { .. } => Reply::Cards(choices::cards(obs, plan, req)),
        Prompt::ChoosePile { options, optional } => {
            Reply::Pile(piles::pile(obs, plan, req, options, *optional))
        }
        Prompt::ChooseModes { options, min, .. } => {
            Reply::Modes(modes::modes(obs, plan, req, options, *min as usize))
        }
        Prompt::OrderCards { cards } => Reply::Cards(piles::order(cards)),
        Prompt::YesNo => Reply::YesNo(modes::yes_no(obs, plan, req.card)),
        Prompt::NameCard { options } => Reply::Name(piles::name(obs, options)),
        Prompt::ChooseNumber { min, .. } => Reply::Number(*min),
    }
}
