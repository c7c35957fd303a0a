//! Bots: agents that answer any decision.
//!
//! - The three levels the lobby offers: `easy` (a weaker policy for new players),
//!   `standard` (the card-aware bot: plans its buys from the kingdom and has a play
//!   policy for every card) and `search` (samples what it cannot see and plays out each
//!   option with the card-aware bot, within a thinking budget).
//! - `random`, for property tests.
//! - The reference bots of shared bots.md: buy-priority strategies used to check that
//!   the engine plays Dominion as known. Their simulator figures are compared with other
//!   simulators, so every engine change keeps their games identical for the same seeds.
//!
//! A bot is an [`Agent`]: `decide(&Observation, &Request) -> Reply`. The `Observation`
//! is the only way it sees a game, and its state field is private to `view.rs`, so bot
//! code cannot reach a hand or a deck order even by mistake. `standard` is the searching
//! bot's playout policy, so it is kept cheap; `search` reads only
//! `Observation::knowledge`, and its budget (`Thinking`) is a playout cap and a
//! wall-clock limit measured by a clock the caller lends (the engine has none).

mod easy;
mod priority;
mod random;
pub mod search;
mod standard;
mod strategies;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod unasked_tests;

pub use easy::EasyBot;
pub use priority::{PriorityBot, Rule};
pub use random::RandomBot;
pub use search::SearchBot;
pub use standard::StandardBot;

use crate::agent::Agent;

/// Every bot name [`by_name`] accepts.
pub const NAMES: &[&str] = &[
    "easy",
    "standard",
    "search",
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

/// The levels offered to players, weakest first.
pub const LEVELS: &[&str] = &["easy", "standard", "search"];

/// How long a searching bot may think per decision.
///
/// The engine has no clock (a game is a function of its inputs), so a wall-clock budget
/// comes from the caller: `clock` returns microseconds from any fixed point, and the bot
/// stops sampling once `budget_us` have passed since the decision began or after
/// `max_playouts`, whichever comes first. Without a clock only `max_playouts` bounds it,
/// and its choices depend on nothing but its seed and what it observes.
#[derive(Clone)]
pub struct Thinking {
    pub max_playouts: u32,
    pub budget_us: u64,
    pub clock: Option<std::sync::Arc<dyn Fn() -> u64 + Send + Sync>>,
}

impl Thinking {
    /// The default budget per decision, in microseconds (200 ms on one core).
    pub const DEFAULT_BUDGET_US: u64 = 200_000;
    /// A budget of `max_playouts` playouts and no clock: fully deterministic.
    pub fn playouts(max_playouts: u32) -> Thinking {
        Thinking {
            max_playouts,
            budget_us: u64::MAX,
            clock: None,
        }
    }
}

impl Default for Thinking {
    /// Without a clock: a playout count that takes well under 200 ms on one core.
    fn default() -> Thinking {
        Thinking::playouts(1_000)
    }
}

impl std::fmt::Debug for Thinking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thinking")
            .field("max_playouts", &self.max_playouts)
            .field("budget_us", &self.budget_us)
            .field("clock", &self.clock.is_some())
            .finish()
    }
}

/// Builds the named bot with the default [`Thinking`]. `seed` feeds bots that use
/// randomness (`random`, `easy`, `search`).
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Agent + Send>> {
    by_name_thinking(name, seed, &Thinking::default())
}

/// Builds the named bot; a searching bot thinks within `thinking`.
pub fn by_name_thinking(
    name: &str,
    seed: u64,
    thinking: &Thinking,
) -> Option<Box<dyn Agent + Send>> {
    match name {
        "search" => return Some(Box::new(SearchBot::new(seed, thinking.clone()))),
        "standard" => return Some(Box::new(StandardBot::new())),
        "easy" => return Some(Box::new(EasyBot::new(seed))),
        _ => {}
    }
    if name == "random" {
        return Some(Box::new(RandomBot::new(seed)));
    }
    strategies::strategy(name).map(|b| Box::new(b) as Box<dyn Agent + Send>)
}
