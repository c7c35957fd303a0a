//! The durable [`RoomLog`]: rooms, seats, setups, seeds and replies in the store (SQLite,
//! or PostgreSQL for several nodes) through `dominion-store` — and the way back:
//! rebuilding rooms from it after a restart, or on the node that takes a room over.
//!
//! **Group commit.** Rooms never touch the database themselves. Each step becomes a
//! [`Write`] sent to a dedicated writer thread (a `std::thread`, so no fsync or network
//! wait ever runs on the async runtime's workers), which owns its writing connection
//! (two on PostgreSQL, both this thread's: see below). SQLite has exactly one writer (it
//! has one write lock). PostgreSQL has `--store-writers` of them ([`DEFAULT_STORE_WRITERS`](crate::config::DEFAULT_STORE_WRITERS)
//! by default), each with its own connections; every write of one room goes to the same
//! writer, chosen by a fixed hash of the room's id ([`writer_for`]), so a room's writes
//! are committed in the order it made them while other rooms' batches commit on the
//! other connections at the same time — PostgreSQL then flushes the WAL once for commits
//! that arrive together, so a commit no longer waits for the previous batch's flush
//! (docs/load.md, "Several writers on PostgreSQL"). A writer takes every write waiting
//! for it — the replies of many rooms, room saves, starts, ends — and commits them in
//! one transaction, then answers each room's [`Commit`]. One commit (one fsync with
//! SQLite's default `synchronous=FULL`, one WAL flush in PostgreSQL) thus covers as many
//! replies as arrived while the previous one ran: the busier the server, the larger the
//! batches. On PostgreSQL a batch costs two round trips however many writes it holds
//! (three with fenced writes): the store sends its statements pipelined on a connection
//! of its own, driven by a current-thread runtime the store owns — so by the writer's
//! thread, never by the async runtime (`dominion_store`'s `pg/pipeline.rs`). A room does
//! not broadcast the result of a reply until its commit has been answered, so an
//! acknowledged reply is on disk; meanwhile the other rooms play on.
//! `dominion_sqlite_write_seconds` measures each batch, whichever the backend and writer
//! (the name predates PostgreSQL; dashboards keep it).
//!
//! **Several writers, one database.** Concurrent transactions of one node's writers
//! meet exactly where several nodes' transactions already do: every [`Write`] belongs
//! to one room (`Write::room`), and each room's writes, its claims and fence checks
//! included, stay on one writer; the rows shared between rooms are the players' ratings,
//! which a batch locks in one order (`dominion_store`'s `ratings::lock_in_order`), so
//! two writers rating games with common players wait for each other instead of
//! deadlocking. Should a transaction fail anyway (a deadlock PostgreSQL broke, a lock
//! timeout), the retry below applies each of its writes alone, and nothing is
//! acknowledged that was not committed.
//!
//! **Failures.** Each write is refused or applied on its own: a refused one (out of
//! order, no such game) is rolled back alone and fails only its room. If the transaction
//! itself cannot commit (I/O error, full disk, a lock held elsewhere too long, a lost
//! connection), nothing of it is stored; the writer then retries each of its writes
//! alone, once, so that only the rooms whose own writes fail are marked broken — a full
//! disk fails them all, one bad write fails one room. A single write is not retried (its
//! failure is its own).
//!
//! **Fencing** (several nodes, [`crate::gamelog::fence`]): with fencing on, each room's write is
//! submitted with the room's fence, and the store applies it only while the room's
//! stored token is still that one. A write refused so, or a room without a fence, comes
//! back as [`LogError::Fenced`]: the room has another owner now, which is not a failure
//! of the room.
//!
//! **No database call runs on the async runtime.** Reads (recovery, the history API) go
//! to a second connection on a thread of its own: with SQLite's WAL, readers see every
//! committed batch and never wait for the writer. Each connection is opened, used and
//! dropped on its own thread, because PostgreSQL's blocking client panics when it
//! connects, queries or is dropped on an async runtime's thread, and SQLite's fsyncs
//! must not stall a worker either; async code reads through [`DurableLog::read`],
//! blocking code (the history API, inside `spawn_blocking`) through the blocking
//! methods.
//!
//! **What is stored** (formats: docs/storage.md): rooms (settings, host, seats with
//! their token hashes and last command ids), each game's setup and seed, and every reply
//! with the state digest after it. Setups and replies are in the published wire format,
//! with the engine's rules version beside them; games of older releases decode by the
//! format they were stored in (see [`crate::convert::record`]). The store itself knows
//! no engine type.
//!
//! **Recovery.** After every reply the store keeps the engine's state digest
//! (`Game::digest`) as `d1:` and 16 hex digits. At start, [`DurableLog::recover`]
//! replays each unfinished game's log and compares the digest stored with the last
//! reply. Games stored by the first release carry the JSON `state_hash` instead (16 hex
//! digits, no prefix); those are checked with `state_hash`, so an upgrade keeps them. A
//! log that does not replay, or replays to another state (an incompatible engine
//! change), marks its room broken with the reason; the others reopen under their old
//! ids — finished games too, for `--finished-room-ttl`, so a player whose `game_over`
//! was lost to a crash still gets it on `resume`. A game in an older record format is
//! re-encoded whole as it reopens. A cluster's takeover rebuilds one room the same way
//! ([`DurableLog::recover_one`]).

use crate::convert::record;
use crate::gamelog::fence::{Fence, Fences};
use crate::gamelog::{
    Commit, LogError, RatedEnd, RatingRead, RoomLog, RoomRecord, SeatAccount, SeatRating,
    SeatRecord,
};
use crate::metrics::Metrics;
use crate::token::TokenHash;
use dominion_engine::{Game, Kingdom, PlayerId, Reply, Score, Setup};
use dominion_protocol::RoomSettings;
use dominion_store::{
    Database, FinishedGame, GameRow, LegacyColumns, ReadView, Reader, RoomRow, RoomStatus, SeatRow,
    SnapshotRow, Store, StoreError, Write,
};
use futures_util::StreamExt;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::oneshot;

/// Most writes in one transaction: a bound on the time one batch holds the rooms in it.
const MAX_BATCH: usize = 1024;

/// A room's rated end as the store takes it.
fn outcome(rated: RatedEnd) -> dominion_store::RatedOutcome {
    dominion_store::RatedOutcome {
        places: rated.places,
    }
}

/// The prefix of a stored state digest (format version 1, docs/storage.md).
const DIGEST_PREFIX: &str = "d1:";

pub struct DurableLog {
    /// To the writer threads, one channel each; a room's writes all go to the same one
    /// ([`writer_for`]). Each room has at most one write in flight (it awaits each), so
    /// these hold at most one job per room: no further bound is needed.
    writers: Vec<mpsc::Sender<Queued>>,
    /// To the reader thread.
    reader: mpsc::Sender<QueuedRead>,
    /// Rooms whose takeover waits for their rows: several rooms taken over at once are
    /// read in one go.
    waiting: Waiting,
    fences: Arc<Fences>,
    /// Where the store is, for the cluster's key (a connection of its own, once).
    database: Database,
    /// Shared by the writers' stores ([`DurableLog::legacy_columns`]).
    legacy: LegacyColumns,
}

/// One write, the fence it must pass, and the room (or start-up code) awaiting it.
struct Queued {
    step: (Option<Fence>, Write),
    done: oneshot::Sender<Result<(), LogError>>,
}

/// A read to run on the reader thread's connection.
type QueuedRead = Box<dyn FnOnce(&ReadView<'_>) + Send>;

/// Why the store could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot start the store's {0} thread: {1}")]
    Thread(&'static str, std::io::Error),
}

/// Rooms [`DurableLog::recover`] rebuilds at once (docs/load.md, "At the server:
/// restart and takeover of 200 rooms").
const REOPEN_AT_ONCE: usize = 4;

/// Rooms [`DurableLog::recover`] reads in one go: a handful of queries for all of them
/// (PostgreSQL pays its round trips per query, not per room), few enough that the first
/// rebuilds start early and a read's rows stay small (a long game is some 300 replies).
const READ_AT_ONCE: usize = 32;

/// A stored room as reopening takes it: the room, its seats, and its game with the
/// game's snapshots if it has started.
type Stored = (RoomRow, Vec<SeatRow>, Option<(GameRow, Vec<SnapshotRow>)>);

/// [`DurableLog::recover_one`] calls waiting for their room's rows, each with where its
/// answer goes: read together by one job on the reader thread ([`read_waiting`]).
type Waiting = Arc<std::sync::Mutex<Vec<(String, oneshot::Sender<ReadRoom>)>>>;

/// A room's rows as [`DurableLog::recover_one`] reads them (`None`: not stored).
type ReadRoom = Result<Option<Stored>, LogError>;

/// A room read back from the store, ready to reopen.
pub struct Recovered {
    pub id: String,
    pub settings: RoomSettings,
    /// The host's seat, if the room had one.
    pub host: Option<u8>,
    pub seats: Vec<SeatRecord>,
    /// The game rebuilt by replaying its log, if it had started.
    pub game: Option<RecoveredGame>,
    /// The store recorded the game's end (the room reopens only so its players can still
    /// learn the result).
    pub finished: bool,
}

pub struct RecoveredGame {
    pub setup: Setup,
    pub game: Game,
}

/// A room that could not be reopened, and why.
#[derive(Clone, Debug)]
pub struct BrokenRoom {
    pub id: String,
    pub reason: String,
}

/// Why [`DurableLog::recover_one`] reopened nothing.
#[derive(Debug, thiserror::Error)]
pub enum RecoverError {
    /// The room's log does not rebuild; it is now marked broken in the store.
    #[error("room {} cannot be reopened: {}", .0.id, .0.reason)]
    Broken(BrokenRoom),
    #[error(transparent)]
    Log(#[from] LogError),
}

/// A state digest as stored: `d1:` and 16 hex digits.
pub fn digest_text(digest: u64) -> String {
    format!("{DIGEST_PREFIX}{digest:016x}")
}

/// The first release's JSON state hash as it stored it: 16 hex digits.
pub fn legacy_hash_text(hash: u64) -> String {
    format!("{hash:016x}")
}

/// Checks a replayed game against the hash stored after its last reply: a digest, or
/// the first release's JSON state hash.
fn verify(game: &Game, stored: &str, replies: usize) -> Result<(), String> {
    let (kind, actual) = if stored.starts_with(DIGEST_PREFIX) {
        ("state digest", digest_text(game.digest()))
    } else if stored.len() == 16 && stored.bytes().all(|b| b.is_ascii_hexdigit()) {
        ("state hash", legacy_hash_text(game.state_hash()))
    } else {
        return Err(format!(
            "the log's state hash {stored:?} is in no format this server knows"
        ));
    };
    if actual == stored {
        Ok(())
    } else {
        Err(format!(
            "{kind} after {replies} replies is {actual}, the log says {stored}: the engine changed incompatibly"
        ))
    }
}

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The store's refusal as the room sees it: a fence is not a failure.
fn store_err(e: StoreError) -> LogError {
    match e {
        StoreError::Fenced { room, .. } => LogError::Fenced { room },
        e => LogError::Failed(e.to_string()),
    }
}

fn failed(e: impl std::fmt::Display) -> LogError {
    LogError::Failed(e.to_string())
}

fn stopped(what: &str) -> LogError {
    LogError::Failed(format!("the store's {what} has stopped"))
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, LogError> {
    serde_json::to_string(v).map_err(failed)
}

/// The first moment a finished game still reopens: `ttl` ago.
fn finished_since(ttl: Duration) -> i64 {
    now_secs().saturating_sub(ttl.as_secs() as i64)
}

/// Whether a stored room is one a start reopens: open or playing, or finished no longer
/// than the TTL ago (the same rule as `ReadView::rooms_to_reopen`).
fn reopens(room: &RoomRow, game: Option<&GameRow>, since: i64) -> bool {
    match room.status {
        RoomStatus::Open | RoomStatus::Playing => true,
        RoomStatus::Finished => game.and_then(|g| g.finished_at).is_some_and(|t| t >= since),
        RoomStatus::Broken | RoomStatus::Abandoned => false,
    }
}

impl DurableLog {
    /// Opens the store (checking that it can be written: see `Store::open` and
    /// `Store::connect`), a reading connection beside it, each on its own thread, and
    /// starts the writers: [`DEFAULT_STORE_WRITERS`](crate::config::DEFAULT_STORE_WRITERS) on PostgreSQL, one on SQLite. Blocking:
    /// from async code, call it in `spawn_blocking`.
    pub fn open(database: &Database, metrics: Arc<Metrics>) -> Result<DurableLog, OpenError> {
        Self::open_with_writers(database, metrics, crate::config::DEFAULT_STORE_WRITERS)
    }

    /// [`DurableLog::open`] with `writers` writer threads on PostgreSQL
    /// (`--store-writers`; at least one). SQLite always gets exactly one: it has one
    /// write lock, which a second writer would only wait for.
    pub fn open_with_writers(
        database: &Database,
        metrics: Arc<Metrics>,
        writers: usize,
    ) -> Result<DurableLog, OpenError> {
        let writers = if database.is_postgres() {
            writers.max(1)
        } else {
            1
        };
        // One after the other: the first one migrates the schema, the others find it done.
        let legacy = LegacyColumns::default();
        let writers = (0..writers)
            .map(|i| start_writer(database, metrics.clone(), i, legacy.clone()))
            .collect::<Result<Vec<_>, _>>()?;

        let (reader, reads) = mpsc::channel::<QueuedRead>();
        let db = database.clone();
        start_thread(
            "store-reader".into(),
            "reader",
            move || Reader::open_database(&db),
            move |r| {
                while let Ok(job) = reads.recv() {
                    job(&r.view());
                }
            },
        )?;
        Ok(DurableLog {
            writers,
            reader,
            waiting: Waiting::default(),
            fences: Arc::new(Fences::default()),
            database: database.clone(),
            legacy,
        })
    }

    /// The switch every writer of this log shares: whether replies also update the
    /// columns a node of an earlier release reads (off until the cluster turns it on;
    /// `dominion_store::LegacyColumns`).
    pub fn legacy_columns(&self) -> &LegacyColumns {
        &self.legacy
    }

    /// The cluster's node key as the store keeps it: the stored one, or else
    /// `candidate`, stored now (`dominion_store::cluster_key`). Every node sharing the
    /// database gets the same.
    pub async fn cluster_key(&self, candidate: String) -> Result<String, LogError> {
        let database = self.database.clone();
        tokio::task::spawn_blocking(move || dominion_store::cluster_key(&database, &candidate))
            .await
            .map_err(|e| LogError::Failed(format!("reading the cluster key: {e}")))?
            .map_err(store_err)
    }

    /// The fences this log writes rooms under (off until enabled).
    pub fn fences(&self) -> &Arc<Fences> {
        &self.fences
    }

    /// Runs `query` on the reader thread and awaits its answer.
    pub async fn read<T: Send + 'static>(
        &self,
        query: impl FnOnce(&ReadView<'_>) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, LogError> {
        let (tx, rx) = oneshot::channel();
        self.reader
            .send(Box::new(move |view| {
                let _ = tx.send(query(view));
            }))
            .map_err(|_| stopped("reader"))?;
        rx.await.map_err(|_| stopped("reader"))?.map_err(store_err)
    }

    /// Runs `query` on the reader thread and blocks until its answer: for blocking code
    /// only (the history API runs it in `spawn_blocking`).
    pub fn read_blocking<T: Send + 'static>(
        &self,
        query: impl FnOnce(&ReadView<'_>) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, LogError> {
        let (tx, rx) = mpsc::sync_channel(1);
        self.reader
            .send(Box::new(move |view| {
                let _ = tx.send(query(view));
            }))
            .map_err(|_| stopped("reader"))?;
        rx.recv().map_err(|_| stopped("reader"))?.map_err(store_err)
    }

    /// Hands a room's `write` to the writer thread, with the room's fence if fencing is
    /// on; a room this node holds no fence for is refused here, without writing.
    fn submit(&self, write: Write) -> Commit {
        let fence = match self.fences.for_write(write.room()) {
            Ok(fence) => fence,
            Err(e) => return Commit::ready(Err(e)),
        };
        self.submit_step(fence, write)
    }

    fn submit_step(&self, fence: Option<Fence>, write: Write) -> Commit {
        let (tx, rx) = oneshot::channel();
        let writer = &self.writers[writer_for(write.room(), self.writers.len())];
        match writer.send(Queued {
            step: (fence, write),
            done: tx,
        }) {
            Ok(()) => Commit::waiting(rx),
            Err(_) => Commit::ready(Err(stopped("writer"))),
        }
    }

    /// Makes this node the room's writer under `token` (a lease's fencing token): the
    /// store records it if `token` is newer than the room's, else refuses it with
    /// [`LogError::Fenced`]. On success the room's fence is set here, so its writes from
    /// now on carry it.
    pub async fn claim(&self, room: &str, node: &str, token: i64) -> Result<(), LogError> {
        self.submit_step(
            None,
            Write::Claim {
                room_id: room.to_string(),
                node: node.to_string(),
                token,
                now: now_secs(),
            },
        )
        .await?;
        self.fences.set(
            room,
            Fence {
                node: node.to_string(),
                token,
            },
        );
        Ok(())
    }

    /// Whether [`DurableLog::recover_one`] would reopen `room_id` now (without replaying
    /// it): a cheap check before a node takes a lease for a room a client named.
    pub async fn is_live(&self, room_id: &str, finished_ttl: Duration) -> Result<bool, LogError> {
        let since = finished_since(finished_ttl);
        let id = room_id.to_string();
        self.read(move |v| {
            let Some((room, _)) = v.room(&id)? else {
                return Ok(false);
            };
            let game = match room.status {
                RoomStatus::Finished => v.game(&id)?,
                _ => None,
            };
            Ok(reopens(&room, game.as_ref(), since))
        })
        .await
    }

    /// The ids of the rooms [`DurableLog::recover`] would reopen now.
    pub async fn live_room_ids(&self, finished_ttl: Duration) -> Result<Vec<String>, LogError> {
        let since = finished_since(finished_ttl);
        self.read(move |v| {
            Ok(v.rooms_to_reopen(since)?
                .into_iter()
                .map(|(room, _)| room.id)
                .collect())
        })
        .await
    }

    /// Every open or playing room, and every room whose game finished within
    /// `finished_ttl`, rebuilt; and the ones that could not be (now marked broken in the
    /// store), with the rooms broken before.
    pub async fn recover(
        &self,
        finished_ttl: Duration,
    ) -> Result<(Vec<Recovered>, Vec<BrokenRoom>), LogError> {
        let since = finished_since(finished_ttl);
        let live = self.read(move |v| v.rooms_to_reopen(since)).await?;
        // The games read [`READ_AT_ONCE`] rooms at a time (a handful of queries for all
        // of them), the next rooms' read queued while these are rebuilt, several rooms
        // at once (on the blocking pool, every core); answered in the store's order.
        let mut chunks = Vec::new();
        let mut live = live.into_iter().peekable();
        while live.peek().is_some() {
            chunks.push(live.by_ref().take(READ_AT_ONCE).collect::<Vec<_>>());
        }
        let read = futures_util::stream::iter(chunks)
            .map(|rooms| self.read(move |v| with_games(v, rooms)))
            .buffered(2)
            .flat_map(|rooms| match rooms {
                Ok(rooms) => futures_util::stream::iter(rooms.into_iter().map(Ok)).left_stream(),
                Err(e) => futures_util::stream::iter([Err(e)]).right_stream(),
            });
        let mut rebuilt = read
            .map(|stored| async move {
                let (room, seats, game) = stored?;
                self.reopen(room, seats, game).await
            })
            .buffered(REOPEN_AT_ONCE);
        let mut ok = Vec::new();
        let mut broken = Vec::new();
        while let Some(room) = rebuilt.next().await {
            match room {
                Ok(r) => ok.push(r),
                Err(RecoverError::Broken(b)) => broken.push(b),
                Err(RecoverError::Log(e)) => return Err(e),
            }
        }
        Ok((ok, broken))
    }

    /// One room rebuilt by replaying its log, as [`DurableLog::recover`] does for all: for
    /// the node that takes a room over. `None` if the store has no such room or it is not
    /// one to reopen (broken, abandoned, or finished longer than `finished_ttl` ago). A
    /// log that does not rebuild marks the room broken (a fenced write, with fencing on:
    /// claim the room first).
    pub async fn recover_one(
        &self,
        room_id: &str,
        finished_ttl: Duration,
    ) -> Result<Option<Recovered>, RecoverError> {
        let since = finished_since(finished_ttl);
        let stored = self.read_room(room_id).await?;
        match stored {
            Some((room, seats, game)) if reopens(&room, game.as_ref().map(|g| &g.0), since) => {
                self.reopen(room, seats, game).await.map(Some)
            }
            _ => Ok(None),
        }
    }

    /// A room's rows, read with those of every other room whose takeover is waiting for
    /// its own: the first to wait queues a job on the reader thread, which takes all that
    /// wait by then (several rooms taken over at once thus cost a handful of queries, not
    /// a handful each). Each caller has claimed its room before it asks, so every room is
    /// read after its own claim committed, as when it was read alone.
    async fn read_room(&self, room_id: &str) -> ReadRoom {
        let (tx, rx) = oneshot::channel();
        let first = {
            let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
            waiting.push((room_id.to_string(), tx));
            waiting.len() == 1
        };
        if first {
            let waiting = self.waiting.clone();
            let job: QueuedRead = Box::new(move |v| read_waiting(v, &waiting));
            if self.reader.send(job).is_err() {
                // No job will take them: answer every waiting room (its sender dropped).
                self.waiting
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clear();
            }
        }
        rx.await.map_err(|_| stopped("reader"))?
    }

    /// Replays a stored room (off the async workers), re-encodes a record of an older
    /// format, or marks the room broken with the reason.
    async fn reopen(
        &self,
        room: RoomRow,
        seats: Vec<SeatRow>,
        game: Option<(GameRow, Vec<SnapshotRow>)>,
    ) -> Result<Recovered, RecoverError> {
        let id = room.id.clone();
        let format = game.as_ref().map(|g| g.0.version.format);
        let rebuilt = tokio::task::spawn_blocking(move || rebuild(&room, &seats, game))
            .await
            .unwrap_or_else(|e| Err(format!("replaying the log panicked: {e}")));
        match rebuilt {
            Ok(r) => {
                if let (Some(format), Some(g)) = (format, &r.game)
                    && format != record::RECORD_FORMAT
                {
                    self.submit(rewrite(&id, &g.game)).await?;
                    tracing::info!(
                        room = %id,
                        from = format,
                        to = record::RECORD_FORMAT,
                        "game record re-encoded"
                    );
                }
                Ok(r)
            }
            Err(reason) => {
                tracing::error!(room = %id, %reason, "room cannot be recovered; marked broken");
                self.mark_broken(&id, &reason).await?;
                Err(RecoverError::Broken(BrokenRoom { id, reason }))
            }
        }
    }

    /// A game's stored record (any state). Blocking.
    pub fn game(&self, id: &str) -> Result<Option<GameRow>, LogError> {
        let id = id.to_string();
        self.read_blocking(move |v| v.game(&id))
    }

    /// A game's stored record with its room's seats. Blocking.
    pub fn game_and_seats(&self, id: &str) -> Result<Option<(GameRow, Vec<SeatRow>)>, LogError> {
        let id = id.to_string();
        self.read_blocking(move |v| {
            let Some(game) = v.game(&id)? else {
                return Ok(None);
            };
            let seats = v.room(&id)?.map(|(_, seats)| seats).unwrap_or_default();
            Ok(Some((game, seats)))
        })
    }

    /// Ended games (finished or abandoned), newest first. Blocking.
    pub fn finished_games(&self, limit: u32) -> Result<Vec<FinishedGame>, LogError> {
        self.read_blocking(move |v| v.finished_games(limit))
    }

    /// Marks a room broken, once committed.
    pub async fn mark_broken(&self, room: &str, reason: &str) -> Result<(), LogError> {
        self.submit(Write::SetStatus {
            id: room.to_string(),
            status: RoomStatus::Broken,
            reason: Some(reason.to_string()),
        })
        .await
    }

    /// Blocking.
    pub fn integrity_check(&self) -> Result<String, LogError> {
        self.read_blocking(|v| v.integrity_check())
    }
}

/// Re-encodes a reopened game stored in an older record format in the current one, from
/// its replay (which was just checked against the stored digest), so that the replies it
/// gets from now on are in the same format as the ones before.
fn rewrite(room: &str, game: &Game) -> Write {
    let setup = game.setup();
    Write::RewriteRecord {
        room_id: room.to_string(),
        format: record::RECORD_FORMAT,
        setup: record::encode_setup(setup.players, setup.edition, game.kingdom()),
        replies: game
            .replies()
            .iter()
            .map(|(_, r)| record::encode_reply(r))
            .collect(),
        scores: game
            .is_over()
            .then(|| record::encode_scores(&game.scores())),
    }
}

/// Starts writer thread `index` with a store of its own (its own connections), once
/// that store is open.
fn start_writer(
    database: &Database,
    metrics: Arc<Metrics>,
    index: usize,
    legacy: LegacyColumns,
) -> Result<mpsc::Sender<Queued>, OpenError> {
    let (writer, jobs) = mpsc::channel::<Queued>();
    let db = database.clone();
    start_thread(
        format!("store-writer-{index}"),
        "writer",
        move || {
            let mut store = Store::open_database(&db)?;
            store.set_legacy_columns(legacy);
            Ok(store)
        },
        move |store| commit_loop(store, jobs, &metrics),
    )?;
    Ok(writer)
}

/// Starts thread `name`, which opens its connection with `open` and then runs `run` on
/// it; returns once the thread has opened it, so that a store that cannot be opened is
/// the caller's error. The connection is opened, used and dropped on that thread (see
/// the module docs: why).
fn start_thread<C: 'static>(
    name: String,
    what: &'static str,
    open: impl FnOnce() -> Result<C, StoreError> + Send + 'static,
    run: impl FnOnce(C) + Send + 'static,
) -> Result<(), OpenError> {
    let (opened_tx, opened) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name(name)
        .spawn(move || match open() {
            Ok(connection) => {
                let _ = opened_tx.send(Ok(()));
                run(connection);
            }
            Err(e) => {
                let _ = opened_tx.send(Err(e));
            }
        })
        .map_err(|e| OpenError::Thread(what, e))?;
    opened
        .recv()
        .map_err(|_| OpenError::Thread(what, std::io::Error::other("it died")))??;
    Ok(())
}

/// The writer of `room` among `writers`: a hash of its id (FNV-1a, fixed here, so the
/// same room always goes to the same writer, whatever the process), so that one room's
/// writes are committed in order by one connection while other rooms' batches commit on
/// the others at the same time.
fn writer_for(room: &str, writers: usize) -> usize {
    if writers <= 1 {
        return 0;
    }
    let hash = room.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    (hash % writers as u64) as usize
}

/// A writer thread: takes every job waiting (up to [`MAX_BATCH`]), commits them in one
/// transaction, answers each; until every sender is gone. The store is dropped here, on
/// this thread, when it ends.
fn commit_loop(mut store: Store, jobs: mpsc::Receiver<Queued>, metrics: &Metrics) {
    let mut steps = Vec::new();
    let mut waiting = Vec::new();
    while let Ok(first) = jobs.recv() {
        let mut next = Some(first);
        while let Some(job) = next {
            steps.push(job.step);
            waiting.push(job.done);
            next = if steps.len() < MAX_BATCH {
                jobs.try_recv().ok()
            } else {
                None
            };
        }
        let start = Instant::now();
        let results = commit(&mut store, &steps);
        metrics.sqlite_write.observe(start.elapsed().as_secs_f64());
        for (done, result) in waiting.drain(..).zip(results) {
            // A receiver that went away (a room task ended) needs no answer.
            let _ = done.send(result);
        }
        steps.clear();
    }
}

/// One group commit, with the retry described in the module docs.
fn commit(store: &mut Store, steps: &[(Option<Fence>, Write)]) -> Vec<Result<(), LogError>> {
    match store.write_batch(steps) {
        Ok(results) => results.into_iter().map(|r| r.map_err(store_err)).collect(),
        Err(e) if steps.len() == 1 => vec![Err(store_err(e))],
        Err(e) => {
            tracing::warn!(
                writes = steps.len(),
                "a group commit failed ({e}); retrying each write alone"
            );
            steps
                .iter()
                .map(|step| {
                    let r = match store.write_batch(std::slice::from_ref(step)) {
                        Ok(mut results) => results.pop().unwrap_or(Ok(())),
                        Err(e) => Err(e),
                    }
                    .map_err(store_err);
                    if let Err(e) = &r {
                        tracing::error!(room = %step.1.room(), "a write failed alone too: {e}");
                    }
                    r
                })
                .collect()
        }
    }
}

/// Reads the rooms waiting in `waiting` (all of them, in one go) and answers each.
fn read_waiting(
    v: &ReadView<'_>,
    waiting: &std::sync::Mutex<Vec<(String, oneshot::Sender<ReadRoom>)>>,
) {
    let mut batch = std::mem::take(&mut *waiting.lock().unwrap_or_else(|e| e.into_inner()));
    if batch.is_empty() {
        return;
    }
    let mut ids: Vec<&str> = batch.iter().map(|(id, _)| id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let read = v.rooms(&ids).and_then(|rooms| with_games(v, rooms));
    match read {
        Ok(stored) => {
            let mut by_id: std::collections::HashMap<String, Stored> =
                stored.into_iter().map(|s| (s.0.id.clone(), s)).collect();
            while let Some((id, tx)) = batch.pop() {
                // A room asked for twice (it should not be) gets its rows twice.
                let rows = match batch.iter().any(|(other, _)| *other == id) {
                    true => by_id.get(&id).cloned(),
                    false => by_id.remove(&id),
                };
                let _ = tx.send(Ok(rows));
            }
        }
        Err(e) => {
            let e = store_err(e);
            for (_, tx) in batch {
                let _ = tx.send(Err(e.clone()));
            }
        }
    }
}

/// `rooms` with their games and the games' snapshots, read for all of them together (on
/// PostgreSQL a handful of queries whatever their number), in the order of `rooms`.
fn with_games(
    v: &ReadView<'_>,
    rooms: Vec<(RoomRow, Vec<SeatRow>)>,
) -> Result<Vec<Stored>, StoreError> {
    if rooms.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<&str> = rooms.iter().map(|(room, _)| room.id.as_str()).collect();
    let mut games = v.games(&ids)?;
    // None for a game that is over: they are deleted with its end, and a finished game
    // is replayed.
    let unfinished: Vec<&str> = games
        .values()
        .filter(|g| g.finished_at.is_none())
        .map(|g| g.room_id.as_str())
        .collect();
    let mut snapshots = match unfinished.is_empty() {
        true => Default::default(),
        false => v.snapshots_of(&unfinished)?,
    };
    Ok(rooms
        .into_iter()
        .map(|(room, seats)| {
            let game = games.remove(&room.id).map(|game| {
                let snapshots = snapshots.remove(&room.id).unwrap_or_default();
                (game, snapshots)
            });
            (room, seats, game)
        })
        .collect())
}

/// Parses a stored room and rebuilds its game: from its latest usable snapshot and the
/// replies after it, or by replaying its whole log (`gamelog::snapshots`).
pub(crate) fn rebuild(
    room: &RoomRow,
    seats: &[SeatRow],
    game: Option<(GameRow, Vec<SnapshotRow>)>,
) -> Result<Recovered, String> {
    let settings: RoomSettings = serde_json::from_str(&room.settings)
        .map_err(|e| format!("unreadable room settings: {e}"))?;
    let seats = seats
        .iter()
        .map(|s| match (&s.bot, &s.token_hash) {
            (Some(bot), _) => SeatRecord::Bot { bot: bot.clone() },
            (None, Some(hash)) => SeatRecord::Human {
                name: s.name.clone(),
                token_hash: <[u8; 32]>::try_from(hash.as_slice())
                    .map(|h| TokenHash(h).to_hex())
                    .unwrap_or_default(),
                last_command: s.last_command,
                account: s.account.map(|a| SeatAccount {
                    id: a.id,
                    bot: a.bot,
                }),
            },
            (None, None) => SeatRecord::Open,
        })
        .collect();
    let game = match game {
        None => None,
        Some((row, snapshots)) => {
            let record = record::decode(&row)?;
            let n = record.replies.len();
            let (mut game, how) = crate::gamelog::snapshots::rebuild(&room.id, &record, &snapshots)
                .map_err(|e| format!("the log does not replay: {e}"))?;
            if let Err(e) = verify(&game, &row.last_hash, n) {
                // Restored from a snapshot, the game ends elsewhere than the log says: the
                // snapshot is wrong, not the log. Replay it whole, as without snapshots.
                let crate::gamelog::snapshots::Rebuilt::Snapshot(upto) = how else {
                    return Err(e);
                };
                tracing::warn!(room = %room.id, upto, "restored from a snapshot: {e}; replaying the whole log");
                game =
                    Game::replay(&record).map_err(|e| format!("the log does not replay: {e}"))?;
                verify(&game, &row.last_hash, n)?;
            }
            Some(RecoveredGame {
                setup: record.setup,
                game,
            })
        }
    };
    Ok(Recovered {
        id: room.id.clone(),
        settings,
        host: room.host,
        seats,
        game,
        finished: room.status == RoomStatus::Finished,
    })
}

impl RoomLog for DurableLog {
    fn earlier_release_may_read(&self) -> bool {
        self.legacy.is_on()
    }

    fn room_saved(&self, room: &RoomRecord) -> Commit {
        let settings = match json(&room.settings) {
            Ok(s) => s,
            Err(e) => return Commit::ready(Err(e)),
        };
        let row = RoomRow {
            id: room.id.clone(),
            settings,
            status: RoomStatus::Open,
            broken_reason: None,
            created_at: now_secs(),
            host: room.host,
        };
        let seats: Vec<SeatRow> = room
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                SeatRecord::Open => SeatRow {
                    seat: i as u8,
                    name: String::new(),
                    token_hash: None,
                    bot: None,
                    last_command: 0,
                    account: None,
                },
                SeatRecord::Bot { bot } => SeatRow {
                    seat: i as u8,
                    name: String::new(),
                    token_hash: None,
                    bot: Some(bot.clone()),
                    last_command: 0,
                    account: None,
                },
                SeatRecord::Human {
                    name,
                    token_hash,
                    last_command,
                    ..
                } => SeatRow {
                    seat: i as u8,
                    name: name.clone(),
                    token_hash: TokenHash::from_hex(token_hash).map(|h| h.0.to_vec()),
                    bot: None,
                    last_command: *last_command,
                    account: None,
                },
            })
            .collect();
        self.submit(Write::SaveRoom { room: row, seats })
    }

    fn game_started(
        &self,
        room: &str,
        setup: &Setup,
        seed: u64,
        digest: u64,
        command: Option<(u8, u64)>,
    ) -> Commit {
        let Kingdom::Cards(kingdom) = &setup.kingdom else {
            return Commit::ready(Err(LogError::Failed(
                "a started game is stored with its kingdom as drawn".into(),
            )));
        };
        self.submit(Write::StartGame {
            room_id: room.to_string(),
            setup: record::encode_setup(setup.players, setup.edition, kingdom),
            version: record::CURRENT,
            seed,
            hash: digest_text(digest),
            now: now_secs(),
            command,
        })
    }

    fn reply_accepted(
        &self,
        room: &str,
        index: u64,
        player: PlayerId,
        reply: &Reply,
        digest: u64,
        command: Option<u64>,
    ) -> Commit {
        self.submit(Write::AppendReply {
            room_id: room.to_string(),
            seq: index,
            player: player.0,
            reply: record::encode_reply(reply),
            hash: digest_text(digest),
            now: now_secs(),
            command,
        })
    }

    fn replies_taken_back(&self, room: &str, keep: u64, digest: u64) -> Commit {
        self.submit(Write::TruncateReplies {
            room_id: room.to_string(),
            keep,
            hash: digest_text(digest),
        })
    }

    fn game_finished(&self, room: &str, scores: &[Score], rated: Option<RatedEnd>) -> Commit {
        self.submit(Write::FinishGame {
            room_id: room.to_string(),
            scores: record::encode_scores(scores),
            now: now_secs(),
            rated: rated.map(outcome),
        })
    }

    fn game_abandoned(&self, room: &str, rated: Option<RatedEnd>) -> Commit {
        self.submit(Write::AbandonGame {
            room_id: room.to_string(),
            now: now_secs(),
            rated: rated.map(outcome),
        })
    }

    fn rating_changes(&self, room: &str) -> RatingRead {
        let room = room.to_string();
        let reader = self.reader.clone();
        Box::pin(async move {
            let (tx, rx) = oneshot::channel();
            let query = move |view: &ReadView<'_>| {
                let _ = tx.send(view.room_rating_changes(&room));
            };
            if reader.send(Box::new(query)).is_err() {
                return Vec::new();
            }
            match rx.await {
                Ok(Ok(changes)) => changes
                    .into_iter()
                    .map(|(seat, c)| SeatRating {
                        seat,
                        pool: c.pool,
                        before: c.before,
                        after: c.after,
                    })
                    .collect(),
                Ok(Err(e)) => {
                    // The game is rated (or not) whatever this read says: only the
                    // message telling the room is lost.
                    tracing::warn!("a game's rating changes could not be read: {e}");
                    Vec::new()
                }
                Err(_) => Vec::new(),
            }
        })
    }

    fn snapshot_taken(&self, room: &str, snapshot: &dominion_engine::snapshot::Snapshot) -> Commit {
        let Ok(digest) = u64::from_str_radix(&snapshot.digest, 16) else {
            return Commit::ready(Err(LogError::Failed(
                "a snapshot without its digest".into(),
            )));
        };
        match crate::gamelog::snapshots::row(snapshot, digest_text(digest)) {
            Ok(row) => self.submit(Write::SaveSnapshot {
                room_id: room.to_string(),
                snapshot: row,
                now: now_secs(),
            }),
            Err(e) => Commit::ready(Err(failed(e))),
        }
    }

    fn room_closed(&self, room: &str) -> Commit {
        // A room that never started leaves nothing worth keeping; a started game stays
        // (finished ones are history, unfinished ones reopen on the next start). The
        // store decides, in the same transaction.
        self.submit(Write::CloseRoom {
            id: room.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominion_engine::{Edition, Kingdom};
    use dominion_store::Durability;

    fn game() -> Game {
        let setup = Setup {
            players: 2,
            kingdom: Kingdom::Recommended("base_2e/first_game".into()),
            edition: Edition::Second,
        };
        Game::new(&setup, 7).unwrap()
    }

    fn reply(room: &str, seq: u64) -> (Option<Fence>, Write) {
        (
            None,
            Write::AppendReply {
                room_id: room.into(),
                seq,
                player: 0,
                reply: "{}".into(),
                hash: digest_text(seq),
                now: 1,
                command: None,
            },
        )
    }

    /// A two-player game of `standard` bots stored through the log as a room stores it,
    /// `replies` replies long; with `wrong`, the digest stored with its last reply is
    /// not the game's (its log replays to another state). The game's digest.
    async fn store_game(log: &DurableLog, id: &str, seed: u64, replies: usize, wrong: bool) -> u64 {
        let settings: RoomSettings = serde_json::from_value(serde_json::json!({
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "open"}],
        }))
        .unwrap();
        let seats = (0..2)
            .map(|s| {
                SeatRecord::human(
                    &format!("P{s}"),
                    TokenHash::of(&format!("{id}{s}")),
                    0,
                    None,
                )
            })
            .collect();
        let room = RoomRecord {
            id: id.into(),
            settings,
            host: Some(0),
            seats,
        };
        log.room_saved(&room).await.unwrap();
        let setup = Setup {
            players: 2,
            kingdom: Kingdom::Recommended("base_2e/first_game".into()),
            edition: Edition::Second,
        };
        let mut g = Game::new(&setup, seed).unwrap();
        let drawn = Setup {
            kingdom: Kingdom::Cards(g.kingdom().to_vec()),
            ..setup
        };
        log.game_started(id, &drawn, seed, g.digest(), Some((0, 1)))
            .await
            .unwrap();
        let mut agents: Vec<_> = (0..2)
            .map(|i| dominion_engine::bots::by_name("standard", seed + i).unwrap())
            .collect();
        for index in 0..replies {
            let req = g.pending().cloned().unwrap();
            let seen = dominion_engine::Observation::for_player(&g, req.player);
            let r = agents[req.player.idx()].decide(&seen, &req);
            g.answer(req.player, r.clone()).unwrap();
            let digest = g.digest() ^ u64::from(wrong && index + 1 == replies);
            log.reply_accepted(id, index as u64, req.player, &r, digest, None)
                .await
                .unwrap();
        }
        g.digest()
    }

    /// Recovery reads and rebuilds several rooms at once; it still answers every room in
    /// the store's order, each rebuilt to its own state, and marks broken exactly the
    /// rooms whose logs do not replay.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn recovery_reopens_every_room_in_order_and_marks_the_broken_ones() {
        let dir = tempfile::tempdir().unwrap();
        let database =
            dominion_store::Database::choose(None, dir.path(), Durability::Normal).unwrap();
        let log = DurableLog::open(&database, Arc::new(Metrics::new())).unwrap();
        let mut want = Vec::new();
        let mut want_broken = Vec::new();
        // More rooms than one read takes (`READ_AT_ONCE`).
        for i in 0..(READ_AT_ONCE as u64 + 8) {
            let id = format!("room{i:02}");
            let wrong = i % 5 == 3;
            let digest = store_game(&log, &id, i, 10 + 3 * (i % 9) as usize, wrong).await;
            if wrong {
                want_broken.push(id);
            } else {
                want.push((id, digest));
            }
        }
        let ttl = Duration::from_secs(600);
        let (ok, broken) = log.recover(ttl).await.unwrap();
        let ok: Vec<(String, u64)> = ok
            .iter()
            .map(|r| (r.id.clone(), r.game.as_ref().unwrap().game.digest()))
            .collect();
        assert_eq!(ok, want);
        let broken: Vec<String> = broken.into_iter().map(|b| b.id).collect();
        assert_eq!(broken, want_broken);
        // Marked broken in the store: the next recovery reopens only the others.
        let (again, broken) = log.recover(ttl).await.unwrap();
        let again: Vec<String> = again.into_iter().map(|r| r.id).collect();
        let want: Vec<String> = want.into_iter().map(|(id, _)| id).collect();
        assert_eq!((again, broken.len()), (want, 0));
    }

    /// Rooms taken over at once are read together (`read_room`): each call still gets
    /// its own room, rebuilt to its own state, and a room not stored gets nothing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn rooms_recovered_at_once_each_get_their_own() {
        let dir = tempfile::tempdir().unwrap();
        let database =
            dominion_store::Database::choose(None, dir.path(), Durability::Normal).unwrap();
        let log = DurableLog::open(&database, Arc::new(Metrics::new())).unwrap();
        let mut want = Vec::new();
        for i in 0..10u64 {
            let id = format!("room{i}");
            let digest = store_game(&log, &id, i, 5 + 2 * i as usize, false).await;
            want.push((id, Some(digest)));
        }
        want.push(("nowhere".into(), None));
        // One room asked for twice at once.
        want.push(want[3].clone());
        let ttl = Duration::from_secs(600);
        let got = futures_util::future::join_all(want.iter().map(|(id, _)| {
            let log = &log;
            async move {
                let r = log.recover_one(id, ttl).await.unwrap();
                r.map(|r| {
                    assert_eq!(&r.id, id);
                    r.game.unwrap().game.digest()
                })
            }
        }))
        .await;
        let want: Vec<Option<u64>> = want.into_iter().map(|(_, d)| d).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_group_commit_fails_only_the_writes_that_fail() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), Durability::Full).unwrap();
        for id in ["a", "b"] {
            let room = RoomRow {
                id: id.into(),
                settings: "{}".into(),
                status: RoomStatus::Open,
                broken_reason: None,
                created_at: 1,
                host: None,
            };
            store.save_room(&room, &[]).unwrap();
            store
                .start_game(id, "{}", record::CURRENT, 1, "d1:0", 1)
                .unwrap();
        }
        // One room's write is refused (a gap in its log): the other two commit.
        let results = commit(&mut store, &[reply("a", 0), reply("b", 5), reply("b", 0)]);
        assert!(results[0].is_ok() && results[2].is_ok(), "{results:?}");
        assert!(results[1].is_err(), "{results:?}");
        // The transaction cannot be had (another process holds the write lock): every
        // write is retried alone, fails alone too, and none is reported stored.
        store.set_busy_timeout(std::time::Duration::ZERO).unwrap();
        let lock = rusqlite::Connection::open(store.path().unwrap()).unwrap();
        lock.execute_batch("BEGIN IMMEDIATE").unwrap();
        let results = commit(&mut store, &[reply("a", 1), reply("b", 1)]);
        assert!(results.iter().all(Result::is_err), "{results:?}");
        lock.execute_batch("ROLLBACK").unwrap();
        let reader = Reader::open(dir.path()).unwrap();
        for id in ["a", "b"] {
            assert_eq!(reader.view().game(id).unwrap().unwrap().replies.len(), 1);
        }
        // Once the lock is gone the same writes commit together.
        let results = commit(&mut store, &[reply("a", 1), reply("b", 1)]);
        assert!(results.iter().all(Result::is_ok), "{results:?}");
    }

    /// A room always goes to the same writer (its writes stay in order), and rooms
    /// spread over all of them (their batches overlap).
    #[test]
    fn each_room_has_one_writer_and_rooms_spread_over_all() {
        assert_eq!(writer_for("any", 1), 0);
        let mut used = [0usize; 4];
        for i in 0..400 {
            let room = format!("r{i:05x}");
            let w = writer_for(&room, 4);
            assert_eq!(w, writer_for(&room, 4));
            used[w] += 1;
        }
        assert!(used.iter().all(|&n| n > 50), "{used:?}");
    }

    #[test]
    fn digests_are_stored_with_their_format_version() {
        assert_eq!(digest_text(0xd1ff_ddcf_e5fa_8f10), "d1:d1ffddcfe5fa8f10");
        assert_eq!(legacy_hash_text(0xab), "00000000000000ab");
    }

    #[test]
    fn a_replay_is_checked_against_a_digest_or_a_first_release_hash() {
        let g = game();
        assert_eq!(verify(&g, &digest_text(g.digest()), 0), Ok(()));
        assert_eq!(verify(&g, &legacy_hash_text(g.state_hash()), 0), Ok(()));
        let wrong = verify(&g, &digest_text(g.digest() ^ 1), 0).unwrap_err();
        assert!(wrong.contains("state digest after 0 replies"), "{wrong}");
        let wrong = verify(&g, &legacy_hash_text(g.state_hash() ^ 1), 0).unwrap_err();
        assert!(wrong.contains("state hash after 0 replies"), "{wrong}");
        // A first-release hash is never mistaken for a digest of the same number.
        assert!(verify(&g, &legacy_hash_text(g.digest()), 0).is_err());
        let unknown = verify(&g, "d9:0000000000000000", 0).unwrap_err();
        assert!(unknown.contains("no format"), "{unknown}");
    }
}
