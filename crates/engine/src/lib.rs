//! The Dominion rules engine: pure, deterministic and decision-driven.
//!
//! A game is a function of (setup, seed, replies). Every choice a player makes is a
//! [`Request`] the engine validates; a bad [`Reply`] is an [`InvalidReply`] that changes
//! nothing. There is no I/O, clock or async here: the server, the simulator and the tests
//! all drive the same [`Game`].
//!
//! ```
//! use dominion_engine::{Game, Setup, Kingdom, Edition, bots};
//! let setup = Setup { players: 2, kingdom: Kingdom::Recommended("base_2e/first_game".into()), edition: Edition::Second };
//! let mut game = Game::new(&setup, 42).unwrap();
//! let req = game.pending().unwrap().clone();        // the first player's first decision
//! let mut agents = vec![bots::by_name("big_money", 1).unwrap(), bots::by_name("big_money", 2).unwrap()];
//! game.play_out(&mut agents);                         // bots answer everything
//! assert!(game.is_over());
//! let replay = Game::replay(&game.record()).unwrap();
//! assert_eq!(replay.state_hash(), game.state_hash());
//! # let _ = req;
//! ```

/// The version of the rules this engine plays. A game is a function of (setup, seed,
/// replies) *under these rules*: any change that makes an existing record play out
/// differently (a card's resolution, the Clean-up order, how a random kingdom or a
/// shuffle draws) must raise it, and must keep the old behaviour selectable for games
/// stored under the old number, or the server will refuse to reopen them. Changes that
/// only add (new cards, new kingdoms, new events) keep it. The server stores it with
/// every game (docs/storage.md) and publishes it in every replay.
pub const RULES_VERSION: u32 = 2;

/// The rules versions this engine can replay: a stored game under any other is refused,
/// never replayed under rules it was not played by.
pub const SUPPORTED_RULES: std::ops::RangeInclusive<u32> = 1..=RULES_VERSION;

mod afford;
pub mod agent;
pub mod bots;
pub mod card;
mod cards;
mod combined;
pub mod ctx;
pub mod decision;
pub mod digest;
pub mod event;
pub mod game;
#[cfg(test)]
mod game_end_tests;
#[cfg(test)]
mod reaction_tests;
pub(crate) mod rules;
pub mod score;
pub mod setup;
pub mod snapshot;
pub mod state;
#[doc(hidden)]
pub mod testing;
mod turn;
pub mod view;

pub use agent::Agent;
/// Game review (the search bot judging a finished game's decisions).
pub use bots::search::review;
pub use card::{CardId, Edition, Set, Types};
pub use combined::is_combined_move;
pub use decision::{InvalidReply, Mode, Prompt, Purpose, Reply, Request, Zone};
pub use event::{CardList, Destination, Event, Viewer};
pub use game::{Game, GameRecord, ReplayError, UndoRefused, Visible};
pub use score::Score;
pub use setup::{Kingdom, Setup, SetupError};
pub use state::{Phase, PlayerId};
pub use view::{Observation, PlayerView};
