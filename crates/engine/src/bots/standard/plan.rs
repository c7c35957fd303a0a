//! Picks a plan from the kingdom, once per kingdom (the bot caches it).
//!
//! Plans, simplest first:
//! - **Money**: Silver/Gold/Province with the kingdom's best "money" card (roles.rs:
//!   Witch, Torturer, Masquerade, Courtyard, Smithy…) in the copies its row asks, plus
//!   the non-terminal support cards (Laboratory, Market…) instead of Silvers.
//! - **Gardens**: with Gardens and a gainer (Workshop, Ironworks, Woodcutter), gain
//!   cheap cards and Gardens (the `workshop_gardens` reference line, which beats money
//!   decks, even Witch + money).
//!
//! Engines (villages + draw + payload) are not planned: a money deck built around the
//! right card beats the reference bots in these sets, while a first try at doubling
//! the drawing card with villages lost to it everywhere (Courtyard + Shanty Town
//! badly); the search bot adds the tactics on top. The plan is a pure function of the kingdom, so it is computed once.

use super::roles::{Kind, SUPPORT, role};
use crate::card::CardId::{self, *};
use crate::view::Observation;

/// The bit set of the Supply's cards: the cache key of a plan.
pub fn kingdom_key(obs: &Observation) -> u128 {
    obs.supply_cards().fold(0, |k, c| k | 1u128 << (c as u8))
}

#[derive(Clone, Debug)]
pub struct Plan {
    pub key: u128,
    /// The money deck's chosen card (None: pure money).
    pub main: Option<CardId>,
    /// Support cards in the kingdom, best first, with their copies wanted.
    pub support: Vec<(CardId, u8)>,
    /// The Gardens plan's gainer, when the plan is Gardens.
    pub gardens: Option<CardId>,
    /// Duke is in the kingdom: Duchies are contested.
    pub duke: bool,
    /// Buy Provinces once the deck's money (bots.md's measure) reaches this.
    pub province_money: u32,
}

impl Plan {
    pub fn for_kingdom(obs: &Observation) -> Plan {
        let key = kingdom_key(obs);
        let has = |c: CardId| key & (1u128 << (c as u8)) != 0;
        let main = obs
            .supply_cards()
            .filter(|c| c.is_kingdom())
            .filter(|c| role(*c).money > 0 && role(*c).kind == Kind::Terminal)
            .max_by_key(|c| (role(*c).money, *c));
        let support = SUPPORT.iter().copied().filter(|(c, _)| has(*c)).collect();
        // Measured: `workshop_gardens` beats even Witch + money (84% in Size
        // Distortion), so Gardens with a gainer is the plan whatever else is there.
        let gardens = has(Gardens)
            .then(|| {
                [Workshop, Ironworks, Woodcutter]
                    .into_iter()
                    .find(|c| has(*c))
            })
            .flatten();
        let draws = main.is_some_and(|c| role(c).draws);
        Plan {
            key,
            main,
            support,
            gardens,
            duke: has(Duke),
            province_money: if draws { 16 } else { 18 },
        }
    }

    /// Copies of the main card wanted with `treasures` Treasures owned.
    pub fn main_copies(&self, treasures: usize) -> usize {
        self.main.map_or(0, |c| {
            let r = role(c);
            r.base as usize + (treasures / r.per.max(1) as usize) * usize::from(r.per > 0)
        })
    }
}
