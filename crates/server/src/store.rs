//! Where persistence plugs in: the room calls a [`RoomLog`] at each durable step.
//!
//! The calls are made in the room task, in order, and a reply's `reply_accepted` returns
//! before anyone is told of the reply's result (see `Room::apply_reply`). That ordering is
//! the contract a durable implementation relies on: an acknowledged reply is on disk.
//! Everything a log receives is plain serializable data — settings, seat token *hashes*,
//! setup, seed and replies — enough to rebuild every room by replaying its game.
//!
//! The implementation is `persist::SqliteLog` (SQLite through `dominion-store`).

use crate::token::TokenHash;
use dominion_engine::{PlayerId, Reply, Score, Setup};
use dominion_protocol::RoomSettings;
use serde::Serialize;

/// A room as a log stores it: no connections, no secrets but hashes.
#[derive(Clone, Debug, Serialize)]
pub struct RoomRecord {
    pub id: String,
    pub settings: RoomSettings,
    pub seats: Vec<SeatRecord>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SeatRecord {
    Open,
    Bot {
        bot: String,
    },
    Human {
        name: String,
        /// SHA-256 of the seat token, hex.
        token_hash: String,
    },
}

impl SeatRecord {
    pub fn human(name: &str, hash: TokenHash) -> SeatRecord {
        SeatRecord::Human {
            name: name.to_string(),
            token_hash: hash.to_hex(),
        }
    }
}

/// A log that could not record a step. The room stops (it is marked broken) rather than
/// go on with a game it could not recover.
#[derive(Debug, thiserror::Error)]
#[error("room log: {0}")]
pub struct LogError(pub String);

/// The durable steps of a room's life.
pub trait RoomLog: Send + Sync + 'static {
    /// The room was created, or its seats changed (taken, freed).
    fn room_saved(&self, room: &RoomRecord) -> Result<(), LogError>;
    /// The game started from `setup` and `seed`; `state_hash` is the engine's hash before
    /// any reply.
    fn game_started(
        &self,
        room: &str,
        setup: &Setup,
        seed: u64,
        state_hash: u64,
    ) -> Result<(), LogError>;
    /// Reply number `index` was accepted; `state_hash` is the engine's hash after it.
    fn reply_accepted(
        &self,
        room: &str,
        index: u64,
        player: PlayerId,
        reply: &Reply,
        state_hash: u64,
    ) -> Result<(), LogError>;
    /// The game ended with these scores.
    fn game_finished(&self, room: &str, scores: &[Score]) -> Result<(), LogError>;
    /// The room closed and will not be seen again.
    fn room_closed(&self, room: &str) -> Result<(), LogError>;
}
