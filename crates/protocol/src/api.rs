//! The JSON bodies of the HTTP endpoints: what a client reads before it joins a room
//! (`GET /api/cards`, `GET /api/kingdoms`, `GET /api/bots`, and `GET /api/rooms`, a list
//! of [`crate::RoomSummary`]) and the history of ended games (`GET /api/games`,
//! `GET /api/games/{id}`, and its replay step by step, `GET /api/games/{id}/steps/{n}`).

use crate::common::{CardKey, CardSet, Edition};
use crate::server::{GameEvent, GameSetup, GameView, NumberedReply, ScoreLine};
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

/// One step of an ended game's replay (`GET /api/games/{id}/steps/{n}?viewer=…`): the
/// game after its first `step` replies, replayed by the engine from the published
/// record, as one viewer may see it.
///
/// For a seat (`viewer=0`, `viewer=1`, …) `view` and `events` are exactly what that
/// player was sent at that point: their own hand, the others' as counts. For
/// `viewer=all`, `view` is a spectator's view, `hands` holds every seat's hand and
/// `events` are unredacted (every card drawn, passed or looked at): allowed only because
/// the game is over and its record, seed included, is public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ReplayStep {
    /// The game (its room id).
    pub room: String,
    /// How many replies have been applied: 0 is the game as it began (up to its first
    /// decision), `steps` its end.
    pub step: u32,
    /// The number of replies in the record: the last step.
    pub steps: u32,
    /// The reply that led to this step (the record's reply number `step`), with its seat
    /// and decision number; absent at step 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<NumberedReply>,
    /// The number of the first event this step's reply caused (at step 0: 0). Events
    /// are numbered from 0 as in `events` messages.
    pub step_first: u64,
    /// The number of the first event in `events`.
    pub first: u64,
    /// Events from `first` to the end of this step: by default this step's own; with
    /// `since=N`, every event from N on (`since=0`: the whole log so far).
    pub events: Vec<GameEvent>,
    /// The number of events at this step (the number the next event would have).
    pub next_event: u64,
    /// The game at this step as the viewer sees it.
    pub view: GameView,
    /// Every seat's hand, in seat order: only for `viewer=all`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands: Option<Vec<SeatHand>>,
}

/// One seat's hand in an all-seeing [`ReplayStep`], in the order the player holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatHand {
    pub seat: u8,
    pub cards: Vec<CardKey>,
}
