//! The JSON bodies of the account endpoints (docs/protocol.md, "Accounts"): register and
//! sign in (`POST /api/accounts`, `POST /api/session`), the signed-in player's own
//! account (`GET /api/me`), its sessions and API tokens, and public profiles
//! (`GET /api/players/{name}`). Every error of these endpoints is an [`ApiError`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every error of the account endpoints: a stable code (snake_case) and an English
/// sentence saying what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ApiError {
    /// `bad_origin`, `bad_request`, `bad_name`, `weak_password`, `name_taken`,
    /// `wrong_credentials`, `too_many_sign_ins`, `too_many_registrations`, `banned`,
    /// `bot_account`, `not_signed_in`, `unknown_player`, `not_found`, `busy`, `internal`.
    pub code: String,
    pub message: String,
}

/// The body of `POST /api/accounts` and `POST /api/session`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Credentials {
    pub name: String,
    pub password: String,
}

/// A signed-in player's own account (`GET /api/me`, and the answer to registering and
/// signing in).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Me {
    pub name: String,
    /// A bot account: it plays only through API tokens.
    pub bot: bool,
    /// Unix seconds.
    pub created: i64,
}

/// Who a WebSocket is signed in as (`welcome.account`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AccountInfo {
    pub name: String,
    pub bot: bool,
}

/// One session of the signed-in account (`GET /api/me/sessions`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SessionInfo {
    pub id: i64,
    /// Unix seconds, as the three below.
    pub created: i64,
    pub last_used: i64,
    pub expires: i64,
    /// The session this request was made with.
    pub current: bool,
}

/// One API token of the signed-in account (`GET /api/me/tokens`); the secret is never
/// shown again after its creation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TokenInfo {
    pub id: i64,
    pub label: String,
    pub created: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_used: Option<i64>,
}

/// The answer to `POST /api/me/tokens`: the only time `token` is shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NewToken {
    pub id: i64,
    pub label: String,
    pub created: i64,
    /// `dmn_` and 43 characters: send it in `hello` (`token`) or as
    /// `Authorization: Bearer …`.
    pub token: String,
}

/// How a game ended for the profile's player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProfileResult {
    Win,
    Loss,
    /// Won together with another seat (same VP and turns).
    Tie,
    Abandoned,
}

/// One game of a profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProfileGame {
    /// The game's id (its room's), as `GET /api/games/{id}` takes it.
    pub game: String,
    pub room: String,
    /// Unix seconds.
    pub finished: i64,
    pub result: ProfileResult,
    /// Every seat's name in seat order (a bot seat: its bot's name).
    pub players: Vec<String>,
    /// The replay page's path: `/replay/<id>`.
    pub replay: String,
}

/// Games against one bot level and how many were won.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BotRecord {
    /// `easy`, `standard` or `hard`.
    pub level: String,
    pub games: u64,
    pub wins: u64,
}

/// A player's public profile (`GET /api/players/{name}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Profile {
    pub name: String,
    pub bot: bool,
    /// Unix seconds.
    pub created: i64,
    /// Ended games played (finished or abandoned).
    pub games: u64,
    /// The latest ended games, newest first (at most 20).
    pub recent: Vec<ProfileGame>,
    /// Results against each bot level, over the games counted.
    pub vs_bots: Vec<BotRecord>,
    /// The player's rating in each pool they have played a rated game in.
    #[serde(default)]
    pub ratings: Vec<crate::PoolRating>,
}
