//! Bots: agents that answer any decision. `random` for property tests; the others are
//! buy-priority strategies used to check that the engine plays Dominion as known.

mod priority;
mod random;
mod strategies;
#[cfg(test)]
mod tests;

pub use priority::{PriorityBot, Rule};
pub use random::RandomBot;

use crate::agent::Agent;

/// Every bot name [`by_name`] accepts.
pub const NAMES: &[&str] = &[
    "random",
    "big_money",
    "basic_big_money",
    "smithy",
    "witch",
    "militia",
    "council_room",
    "laboratory",
    "festival",
    "moat",
    "library",
    "moneylender",
    "chancellor",
    "adventurer",
    "bureaucrat",
    "courtyard",
    "baron",
    "nobles",
    "great_hall",
    "shanty_town",
    "duke",
    "bridge",
    "coppersmith",
    "masquerade",
    "minion",
    "saboteur",
    "torturer",
    "workshop_gardens",
];

/// Builds the named bot. `seed` feeds bots that use randomness (`random`).
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Agent + Send>> {
    if name == "random" {
        return Some(Box::new(RandomBot::new(seed)));
    }
    strategies::strategy(name).map(|b| Box::new(b) as Box<dyn Agent + Send>)
}
