//! The JSON bodies of the HTTP endpoints: what a client reads before it joins a room
//! (`GET /api/cards`, `GET /api/kingdoms`, `GET /api/bots`, and `GET /api/rooms`, a list
//! of [`crate::RoomSummary`]) and the history of ended games (`GET /api/games`,
//! `GET /api/games/{id}`).

use crate::common::{CardKey, CardSet, Edition};
use crate::server::{GameSetup, NumberedReply, ScoreLine};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One card's printed facts (`GET /api/cards` returns them all).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CardInfo {
    pub id: CardKey,
    /// English name; translations belong to clients.
    pub name: String,
    pub cost: u32,
    /// `action`, `treasure`, `victory`, `curse`, `attack`, `reaction`, in printed order.
    pub types: Vec<String>,
    /// Whether it can be one of a game's ten kingdom cards (false for basic cards).
    pub kingdom: bool,
    /// The editions that print it.
    pub editions: Vec<Edition>,
    /// The set of a kingdom card (what `{"type": "random", "sets": […]}` draws from);
    /// absent for basic cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<CardSet>,
}

/// A recommended kingdom (`GET /api/kingdoms`): pass `id` (or `name`) as
/// `{"type": "recommended", "id": …}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct KingdomInfo {
    pub id: String,
    pub name: String,
    /// The edition whose rulebook recommends it. Its cards may be played in a room of
    /// either edition; the room's edition picks the text of cards printed in both.
    pub edition: Edition,
    pub cards: Vec<CardKey>,
}

/// The version of the [`GameRecord`] format this crate describes. A record with another
/// `format` may differ in any field; within one format, fields are only ever added.
pub const GAME_RECORD_FORMAT: u32 = 1;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameOutcome {
    /// Played to its end: it has scores.
    Finished,
    /// Ended because no human was connected for the server's `--abandon-after`: no scores.
    Abandoned,
}

/// An ended game's published record (`GET /api/games/{id}`): everything needed to replay
/// it — the setup, the seed and every accepted reply, exactly as clients sent them — with
/// its result. Feeding `setup`, `seed` and `replies` to an engine playing `rules_version`
/// reproduces the game decision by decision; `decision` says which request each reply
/// answered. Published only once the game is over: before, the seed would reveal every
/// hand and deck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GameRecord {
    /// [`GAME_RECORD_FORMAT`].
    pub format: u32,
    /// The room the game was played in (its id in the history).
    pub room: String,
    pub outcome: GameOutcome,
    /// The engine rules version the game was played under.
    pub rules_version: u32,
    /// Unix seconds.
    pub started_at: i64,
    /// Unix seconds: when it finished or was abandoned.
    pub finished_at: i64,
    /// The random seed (a string: it may exceed 2^53).
    pub seed: String,
    /// The kingdom is always the ten cards as drawn (`{"type": "cards"}`).
    pub setup: GameSetup,
    /// The ten kingdom cards.
    pub kingdom: Vec<CardKey>,
    /// Who sat where. `name` is empty for a bot seat.
    pub seats: Vec<RecordSeat>,
    /// Every accepted reply, in order.
    pub replies: Vec<NumberedReply>,
    /// Final scores by seat; absent for an abandoned game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<ScoreLine>>,
}

/// A seat of a [`GameRecord`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RecordSeat {
    pub seat: u8,
    /// The human's name as they sat down; empty for a bot seat.
    pub name: String,
    /// The bot that played the seat from the start (`GET /api/bots`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

/// One ended game in `GET /api/games` (newest first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GameSummary {
    pub room: String,
    pub outcome: GameOutcome,
    /// Unix seconds.
    pub finished_at: i64,
    pub setup: GameSetup,
    /// Absent for an abandoned game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<ScoreLine>>,
    /// Who sat where (`name` is empty for a bot seat).
    #[serde(default)]
    pub seats: Vec<RecordSeat>,
}
