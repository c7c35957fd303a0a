//! Ratings on the wire (issue 25): the change a rated game made (`rating_changed`), the
//! leaderboard (`GET /api/leaderboard`) and a profile's ratings (`GET /api/players/{name}`).
//!
//! Numbers are sent as computed (no rounding): a level is `max(0, 50 + 7.5 × (μ − 2φ))`
//! with μ, φ on the Glicko-2 scale, a rating and deviation are on the Glicko scale
//! (1500 / 350 for a new player). Clients round for display, and can check a level from
//! its rating and deviation. The structs here hold `f64`s and still claim `Eq` (as the
//! messages that carry them do): the server never sends a NaN, so equality is total on
//! what they hold.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A rating pool: two-player games, three-to-four-player games, or the bot ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum RatingPool {
    #[serde(rename = "2p")]
    TwoPlayer,
    #[serde(rename = "3-4p")]
    Multiplayer,
    #[serde(rename = "bots")]
    Bots,
}

/// What a rated game did to one player's rating (`rating_changed`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RatingChange {
    pub seat: u8,
    pub name: String,
    pub pool: RatingPool,
    pub level_before: f64,
    pub level_after: f64,
    pub rating_before: f64,
    pub rating_after: f64,
    pub deviation_before: f64,
    pub deviation_after: f64,
}

impl Eq for RatingChange {}

/// One row of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LeaderboardRow {
    /// 1 + the number of players with a higher level (equal levels share a rank).
    pub rank: u64,
    pub name: String,
    pub level: f64,
    pub rating: f64,
    pub deviation: f64,
    /// Rated games in the pool.
    pub games: u64,
    /// A bot account.
    pub bot: bool,
}

impl Eq for LeaderboardRow {}

/// `GET /api/leaderboard?pool=2p|3-4p|bots&page=N`: the players with a rated game in the
/// pool in the last 30 days, best level first, 100 a page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Leaderboard {
    pub pool: RatingPool,
    /// This page's number, from 1.
    pub page: u32,
    /// How many pages there are (at least 1).
    pub pages: u32,
    /// How many players are on the board.
    pub total: u64,
    pub rows: Vec<LeaderboardRow>,
    /// The signed-in player's own row, if they are on the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub me: Option<LeaderboardRow>,
    /// The rows of the players the signed-in player follows who are on the board
    /// (signed in only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub friends: Option<Vec<LeaderboardRow>>,
}

/// A point of a profile's level chart: the level after a rated game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RatingPoint {
    /// When the game was rated: Unix seconds.
    pub at: i64,
    pub level: f64,
    /// The game's room (its id in `GET /api/games/{id}`).
    pub room: String,
}

impl Eq for RatingPoint {}

/// A player's rating in one pool, on their profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PoolRating {
    pub pool: RatingPool,
    pub level: f64,
    pub rating: f64,
    pub deviation: f64,
    pub games: u64,
    /// The level after each of the latest rated games (at most 200), oldest first.
    pub history: Vec<RatingPoint>,
}

impl Eq for PoolRating {}
