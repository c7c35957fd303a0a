//! Where persistence plugs in: the room calls a [`RoomLog`] at each durable step.
//!
//! Each call hands the step to the log and returns a [`Commit`], a future that resolves
//! once the step is durable (or could not be made so). The room awaits it before anyone
//! is told of the step's result (see `Room::apply_reply`): that ordering is the contract
//! a durable implementation relies on — an acknowledged reply is on disk. While one room
//! awaits its commit the others keep running, and the log is free to commit the steps of
//! many rooms together. Everything a log receives is plain serializable data — settings,
//! seat token *hashes*, setup, seed and replies — enough to rebuild every room by
//! replaying its game.
//!
//! The contract is *nothing is told before it is durable*, and not for replies alone: a
//! taken seat (its token is sent only once the seat is stored), a started game, a
//! game's end and a new room (`create_room` answers `room_created` only once the room
//! is stored) are steps too. So whenever the process stops, `kill -9` included, a
//! reply is either in the log or was never acknowledged.
//!
//! The durable implementation is [`DurableLog`](super::durable::DurableLog) (SQLite or
//! PostgreSQL through `dominion-store`, one writer thread, group commit).

use crate::token::TokenHash;
use dominion_engine::{PlayerId, Reply, Score, Setup};
use dominion_protocol::RoomSettings;
use serde::Serialize;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::sync::oneshot;

/// A room as a log stores it: no connections, no secrets but hashes.
#[derive(Clone, Debug, Serialize)]
pub struct RoomRecord {
    pub id: String,
    pub settings: RoomSettings,
    /// The host's seat, if anyone is host.
    pub host: Option<u8>,
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
        /// The highest command id taken from this seat: a command re-sent after a restart
        /// is still a duplicate.
        last_command: u64,
        /// The account sitting here, as the store links it (never written through the
        /// log: the accounts' connection links seats). Read back on recovery so a room
        /// still marks a bot account's seat after a restart.
        #[serde(skip)]
        account: Option<SeatAccount>,
    },
}

/// The registered account in a seat: who it is, and whether it is a bot account (shown
/// as a bot everywhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatAccount {
    pub id: i64,
    pub bot: bool,
}

impl SeatRecord {
    pub fn human(
        name: &str,
        hash: TokenHash,
        last_command: u64,
        account: Option<SeatAccount>,
    ) -> SeatRecord {
        SeatRecord::Human {
            name: name.to_string(),
            token_hash: hash.to_hex(),
            last_command,
            account,
        }
    }
}

/// How a game's end is to be rated: each seat's place (1 is first; equal places tie).
/// The room gives it for a room created `rated`; the store then rates the game only if
/// every seat is an account's, in the pool the seats make (docs/storage.md, "Ratings").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RatedEnd {
    /// (seat, place), one per seat.
    pub places: Vec<(u8, u32)>,
}

/// One seat's rating change, as the game's end stored it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatRating {
    pub seat: u8,
    pub pool: dominion_rating::Pool,
    pub before: dominion_rating::Rating,
    pub after: dominion_rating::Rating,
}

/// The rating changes of a game's end, on their way from the store.
pub type RatingRead = Pin<Box<dyn Future<Output = Vec<SeatRating>> + Send>>;

/// A log that could not record a step.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    /// The step could not be made durable. The room stops (it is marked broken) rather
    /// than go on with a game it could not recover.
    #[error("room log: {0}")]
    Failed(String),
    /// This node no longer owns the room (another node claimed it, or this one never
    /// did): nothing was written. Not a fault of the room: it stops quietly and leaves
    /// the room to its owner, without marking it broken.
    #[error("room {room} belongs to another node now; nothing was written")]
    Fenced { room: String },
}

/// A step on its way to the disk: resolves to `Ok` once it is committed.
#[must_use = "a step is durable only once its commit resolves"]
pub struct Commit(CommitState);

enum CommitState {
    Done(Option<Result<(), LogError>>),
    Waiting(oneshot::Receiver<Result<(), LogError>>),
}

impl Commit {
    /// A step whose outcome is known at once (nothing to write, or a failure before the
    /// write).
    pub fn ready(result: Result<(), LogError>) -> Commit {
        Commit(CommitState::Done(Some(result)))
    }

    /// A step the log's writer will answer on `rx`.
    pub fn waiting(rx: oneshot::Receiver<Result<(), LogError>>) -> Commit {
        Commit(CommitState::Waiting(rx))
    }
}

impl Future for Commit {
    type Output = Result<(), LogError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match &mut self.0 {
            CommitState::Done(result) => Poll::Ready(result.take().unwrap_or_else(|| {
                Err(LogError::Failed("commit polled after it resolved".into()))
            })),
            CommitState::Waiting(rx) => Pin::new(rx).poll(cx).map(|r| {
                r.unwrap_or_else(|_| Err(LogError::Failed("the store's writer has stopped".into())))
            }),
        }
    }
}

/// The durable steps of a room's life. Each returns at once; the [`Commit`] says when the
/// step is durable. Steps of one room are committed in the order they were made.
pub trait RoomLog: Send + Sync + 'static {
    /// The room was created, or its seats changed (taken, freed).
    fn room_saved(&self, room: &RoomRecord) -> Commit;
    /// The game started from `setup` and `seed`; `digest` is the engine's state digest
    /// before any reply; `command` is the starting seat's command (seat, id).
    fn game_started(
        &self,
        room: &str,
        setup: &Setup,
        seed: u64,
        digest: u64,
        command: Option<(u8, u64)>,
    ) -> Commit;
    /// Reply number `index` was accepted; `digest` is the engine's state digest after it;
    /// `command` is the id of the player's command that carried it, if a player sent it
    /// (not for a bot's or a time-out's answer).
    fn reply_accepted(
        &self,
        room: &str,
        index: u64,
        player: PlayerId,
        reply: &Reply,
        digest: u64,
        command: Option<u64>,
    ) -> Commit;
    /// Replies from number `keep` on were taken back (an undo); `digest` is the state
    /// digest after the ones kept.
    fn replies_taken_back(&self, room: &str, keep: u64, digest: u64) -> Commit;
    /// The game ended with these scores; `rated`, for a room whose game is to be rated,
    /// is rated in the same commit (if its seats qualify, see [`RatedEnd`]).
    fn game_finished(&self, room: &str, scores: &[Score], rated: Option<RatedEnd>) -> Commit;
    /// The game ended without a result: no player was connected for too long. `rated`
    /// as for [`RoomLog::game_finished`], the abandoners placed last.
    fn game_abandoned(&self, room: &str, rated: Option<RatedEnd>) -> Commit;
    /// The rating changes the game's end made, read once that end is committed: none if
    /// the game was not rated, or the log keeps no ratings (memory).
    fn rating_changes(&self, _room: &str) -> RatingRead {
        Box::pin(std::future::ready(Vec::new()))
    }
    /// The room closed and will not be seen again.
    fn room_closed(&self, room: &str) -> Commit;
    /// Whether a node of an earlier release may read this log's games now (a cluster in
    /// the middle of a rolling upgrade: `dominion_store::LegacyColumns`). Its engine
    /// refuses a Buy-phase move answered at the Action-phase decision on replay, so the
    /// server's bots then make a money turn's moves one by one (`Room::answer_for_absent`).
    fn earlier_release_may_read(&self) -> bool {
        false
    }
    /// A snapshot of the game (`dominion_engine::snapshot`), taken right after the reply
    /// it covers was handed to [`RoomLog::reply_accepted`]: stored with it if the log
    /// keeps snapshots (the durable one does; memory has nothing to reopen from).
    fn snapshot_taken(
        &self,
        _room: &str,
        _snapshot: &dominion_engine::snapshot::Snapshot,
    ) -> Commit {
        Commit::ready(Ok(()))
    }
}
