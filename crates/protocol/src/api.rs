//! The JSON bodies of the HTTP endpoints a client reads before it joins a room:
//! `GET /api/cards`, `GET /api/kingdoms`, `GET /api/bots` (and `GET /api/rooms`, a list
//! of [`crate::RoomSummary`]).

use crate::common::{CardKey, CardSet, Edition};
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
