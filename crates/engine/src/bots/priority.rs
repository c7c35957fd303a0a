//! `PriorityBot`: buys by a priority list of (card, condition) rules, plays every Action
//! it can and all its Treasures, and answers other decisions with plain heuristics.

use crate::agent::Agent;
use crate::card::{CardId, Types};
use crate::decision::{Prompt, Purpose, Reply, Request};
use crate::view::Observation;

/// Buy `card` when `when` holds (and it is affordable and in the Supply).
pub struct Rule {
    pub card: CardId,
    pub when: Box<dyn Fn(&Observation) -> bool + Send + Sync>,
}

impl Rule {
    pub fn always(card: CardId) -> Rule {
        Rule {
            card,
            when: Box::new(|_| true),
        }
    }
    pub fn when(card: CardId, f: impl Fn(&Observation) -> bool + Send + Sync + 'static) -> Rule {
        Rule {
            card,
            when: Box::new(f),
        }
    }
}

pub struct PriorityBot {
    pub name: &'static str,
    pub rules: Vec<Rule>,
}

/// Cards that give +Actions are played before terminal ones.
fn gives_actions(c: CardId) -> bool {
    use CardId::*;
    matches!(
        c,
        Cellar | Merchant | Village | Festival | Laboratory | Market | ThroneRoom
    )
}

/// Lower is discarded (or trashed, or topdecked) first: Duchy, Province, Curse, Estate,
/// then the cheapest cards.
fn junk_rank(c: CardId) -> (u8, u8) {
    match c {
        CardId::Duchy => (0, 0),
        CardId::Province => (0, 1),
        CardId::Curse => (0, 2),
        CardId::Estate => (0, 3),
        c if c.types() == Types::VICTORY => (0, 4),
        c => (1, c.base_cost()),
    }
}

fn is_junk(c: CardId) -> bool {
    junk_rank(c).0 == 0
}

impl PriorityBot {
    fn buy(&self, obs: &Observation, buyable: &[CardId]) -> Reply {
        for rule in &self.rules {
            if !buyable.contains(&rule.card) || !(rule.when)(obs) {
                continue;
            }
            // Never end the game by a buy unless it would then be among the winners.
            if obs.gain_would_end_game(rule.card) && !obs.wins_after_gaining(rule.card) {
                continue;
            }
            return Reply::Buy(rule.card);
        }
        Reply::EndPhase
    }

    /// The best card to gain among `options`: the first matching buy rule, else the
    /// most expensive.
    fn gain(&self, obs: &Observation, options: &[CardId]) -> Option<CardId> {
        self.rules
            .iter()
            .find(|r| options.contains(&r.card) && (r.when)(obs))
            .map(|r| r.card)
            .or_else(|| {
                options
                    .iter()
                    .copied()
                    .max_by_key(|c| (obs.cost(*c), c.is_treasure()))
            })
    }
}

impl Agent for PriorityBot {
    fn name(&self) -> &str {
        self.name
    }

    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        match &req.prompt {
            Prompt::ActionPhase { playable } => {
                let best = playable
                    .iter()
                    .copied()
                    .max_by_key(|c| (gives_actions(*c), c.base_cost()))
                    .expect("playable is never empty");
                Reply::Play(best)
            }
            Prompt::BuyPhase { treasures, buyable } => {
                if treasures.is_empty() {
                    self.buy(obs, buyable)
                } else {
                    Reply::PlayAllTreasures
                }
            }
            Prompt::ChooseCards {
                options, min, max, ..
            } => {
                let mut sorted = options.clone();
                let (min, max) = (*min as usize, *max as usize);
                let chosen = match req.purpose {
                    Purpose::React => options.iter().take(max).copied().collect(),
                    Purpose::PlayTwice => {
                        sorted
                            .sort_by_key(|c| std::cmp::Reverse((gives_actions(*c), c.base_cost())));
                        sorted.truncate(max);
                        sorted
                    }
                    // Discard, trash, topdeck: junk first; beyond the minimum, junk only.
                    _ => {
                        sorted.sort_by_key(|c| junk_rank(*c));
                        let extra = sorted[min..].iter().take_while(|c| is_junk(**c)).count();
                        sorted.truncate((min + extra).min(max));
                        sorted
                    }
                };
                Reply::Cards(chosen)
            }
            Prompt::ChoosePile { options, optional } => match self.gain(obs, options) {
                Some(c) => Reply::Pile(Some(c)),
                None => {
                    debug_assert!(*optional);
                    Reply::Pile(None)
                }
            },
            Prompt::ChooseModes { options, min, .. } => {
                Reply::Modes(options[..*min as usize].to_vec())
            }
            Prompt::OrderCards { cards } => Reply::Cards(cards.clone()),
            Prompt::YesNo => Reply::YesNo(true),
            Prompt::NameCard { options } => Reply::Name(options[0]),
        }
    }
}
