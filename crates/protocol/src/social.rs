//! The JSON bodies of the card-preference and friends endpoints (docs/protocol.md,
//! "Card preferences and friends"): an account's banned and disliked kingdom cards
//! (`GET`/`PUT /api/me/cards`) and the accounts it follows (`GET /api/me/follows`).
//! Following and unfollowing (`PUT`/`DELETE /api/me/follows/{name}`) have no body; an
//! invitation to a table is the WebSocket's `invite` / `invited`.

use crate::common::CardKey;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The kingdom cards an account bans (never drawn for its automatch games; at most 3)
/// and dislikes (left out while enough other cards remain; at most 10): the body of
/// `PUT /api/me/cards` and the answer of both methods, each list in card-id order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CardPrefs {
    #[serde(default)]
    pub bans: Vec<CardKey>,
    #[serde(default)]
    pub dislikes: Vec<CardKey>,
}

/// A table a followed player sits at, not started yet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FriendTable {
    /// The room's id, as `take_seat` takes it.
    pub room: String,
    /// The room's name, as the lobby shows it.
    pub name: String,
}

/// One account the signed-in player follows (`GET /api/me/follows`, in name order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Friend {
    pub name: String,
    pub bot: bool,
    /// Whether the account has a signed-in connection on the node that answered.
    pub online: bool,
    /// The rooms not started yet where it sits (in the lobby of this node's view).
    pub tables: Vec<FriendTable>,
}
