//! Durable storage for rooms, games and reply logs: an embedded SQLite file (the default,
//! for self-hosters) or a PostgreSQL database (for several server nodes sharing one).
//!
//! The store knows nothing of the engine or the wire: settings, setups, replies and scores
//! are JSON text the server produces, so the schema never has to follow engine types.
//! What it guarantees is ordering and durability: [`Store::write_batch`] applies many
//! [`Write`]s — the replies of many rooms, room saves, starts and ends — in one
//! transaction and returns only once the database has committed it (SQLite with
//! `synchronous=FULL`, the default, and PostgreSQL with `synchronous_commit` on: once it
//! is on disk). Each write is refused or applied on its own, so one room's bad write
//! never takes another's with it. The server sends nothing about a reply before its batch
//! has returned, so an acknowledged reply is never lost, even to `kill -9`.
//!
//! Both backends sit behind the same types: [`Store`] (the one writing connection, which
//! the server gives to a single writer thread), [`Reader`] (a second connection for the
//! queries of [`ReadView`]) and the same schema versions. [`Database::choose`] picks one:
//! a `postgres://` URL selects PostgreSQL, no URL selects SQLite in the data directory.
//! [`backup()`] copies a SQLite file while the server runs (PostgreSQL has `pg_dump`).
//!
//! **Fencing.** When several nodes share a database, each room is owned by one node at a
//! time, under a lease whose number (a *fencing token*) only grows. [`Write::Claim`]
//! records a node's token for a room if it is newer than the one stored; any other write
//! may carry a [`Fence`] and is then applied only while the stored token is still that
//! one, checked in the same transaction. A node that lost a room (paused past its lease,
//! cut off from the lock service) can therefore never write into it after the next owner
//! claimed it: its writes are refused with [`StoreError::Fenced`]. Writes without a fence
//! (a single server) are not checked at all.

mod accounts;
mod backup;
mod pg;
mod ratings;
mod snapshots;
mod sqlite;

pub use accounts::analysis::{Analyses, AnalysisRow, AnalysisStatus, Claim};
pub use accounts::social::{CardPrefs, FollowRow, Followed};
pub use accounts::{AccountGame, AccountRow, Accounts, Created, ReportRow, SessionRow, TokenRow};
pub use backup::{BackupReport, backup};
pub use pg::BatchCounts;
pub use ratings::{LeaderRow, RatedOutcome, RatingChange, RatingRow, Recomputed};
pub use snapshots::SnapshotRow;
pub use sqlite::schema::VERSION as SCHEMA_VERSION;

/// The SQL of schema version 1, as the first release created it: tests build such files
/// to prove that an upgrade keeps every game.
#[doc(hidden)]
pub fn schema_v1_sql() -> &'static str {
    sqlite::schema::v1_sql()
}

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The key the nodes of a cluster sharing this database vouch for each other with: the
/// one stored, or else `candidate`, stored now. Every node gets the same answer,
/// whichever starts first and whatever happened to Redis meanwhile (the key used to live
/// there, and a node restarted after Redis lost it made up a key of its own). Opens a
/// connection of its own, after the [`Store`] has brought the schema up to date.
/// Blocking, like [`Store::connect`].
pub fn cluster_key(database: &Database, candidate: &str) -> Result<String> {
    match database {
        Database::Sqlite { dir, .. } => sqlite::cluster_key(dir, candidate),
        Database::Postgres { url } => pg::cluster_key(url, candidate),
    }
}

/// Whether each reply also writes the copies of its digest and command id that nodes of
/// an earlier release read: `games.last_hash` and `seats.last_command`.
///
/// Since schema 11 a reply is one row (`replies` holds its command id), and this release
/// reads a game's digest and a seat's last command id from the newest replies. A node of
/// the release before reads only the two columns, and during a rolling upgrade such a
/// node may still take a room over from the database a node of this release wrote: the
/// copies must then be current at every commit, as they always were. So the switch is on
/// while such a node may be running (the cluster turns it off once none has been
/// announced for a while, `dominion-server`'s `cluster` module) and off for a single
/// node, which no earlier release can share a database with: the schema version refuses
/// it. Keeping them costs PostgreSQL two row updates a reply, most of its CPU per
/// reply (docs/load.md, *One row a reply*).
///
/// One switch is shared by every writer of a node ([`Store::set_legacy_columns`]); each
/// batch reads it once, so a batch writes one way throughout.
#[derive(Clone, Debug, Default)]
pub struct LegacyColumns(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl LegacyColumns {
    /// A switch, on or off.
    pub fn new(on: bool) -> LegacyColumns {
        LegacyColumns(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(on)))
    }

    /// Turns the copies on or off from the next batch on.
    pub fn set(&self, on: bool) {
        self.0.store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the copies are written.
    pub fn is_on(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// The file name inside the data directory.
pub const DB_FILE: &str = "dominion.sqlite3";

/// The most replies one undo may delete: an undo takes back moves of one turn.
const MAX_TAKEN_BACK: usize = 100;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("postgresql: {}", pg::describe_error(.0))]
    Postgres(#[from] postgres::Error),
    /// `--database` is not a URL this store can open (`url` without its password).
    #[error(
        "{url:?} is not a PostgreSQL URL ({reason}); the form is postgres://USER:PASSWORD@HOST:PORT/DATABASE"
    )]
    NotPostgresUrl { url: String, reason: String },
    /// PostgreSQL could not be reached or refused the connection (`database` is the URL
    /// without its password).
    #[error("cannot connect to {database}: {}", pg::describe_error(.source))]
    Connect {
        database: String,
        source: postgres::Error,
    },
    /// The runtime of the writer's pipelined PostgreSQL connection could not start.
    #[error("cannot start the PostgreSQL writer's runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The thread that checkpoints the SQLite WAL could not start.
    #[error("cannot start the SQLite checkpoint thread: {0}")]
    CheckpointThread(#[source] std::io::Error),
    #[error("cannot create data directory {path}: {source}")]
    DataDir {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The start-up check could not write: the server would accept rooms it cannot keep.
    #[error("{what} {path} is not writable ({reason}); the server needs to write there")]
    NotWritable {
        what: &'static str,
        path: PathBuf,
        reason: String,
    },
    #[error("reply {got} for room {room} is out of order (expected {expected})")]
    OutOfOrder {
        room: String,
        expected: u64,
        got: u64,
    },
    #[error("the record of room {room} cannot be rewritten: {reason}")]
    Rewrite { room: String, reason: String },
    #[error("room {0} has no game")]
    NoGame(String),
    #[error("no room {0}")]
    NoRoom(String),
    /// A fenced write whose token is no longer the room's (another node claimed it), or
    /// a claim whose token is not newer than the room's. Nothing was written.
    #[error("room {room} is fenced: token {token} does not hold it (the room's token is {})",
            .current.map_or("none".to_string(), |c| c.to_string()))]
    Fenced {
        room: String,
        token: i64,
        current: Option<i64>,
    },
    /// A game's rated outcome that cannot be a game's (a player count outside 2–4, an
    /// account twice, a place out of range). Nothing was written.
    #[error("the outcome of room {room} cannot be rated: {reason}")]
    Outcome { room: String, reason: String },
    #[error("database schema version {found} is newer than this server understands ({supported})")]
    SchemaTooNew { found: i64, supported: i64 },
    #[error("schema migration to version {version} failed: {reason}")]
    Migration { version: i64, reason: String },
    #[error("no database at {0} (is the data directory right?)")]
    NoDatabase(PathBuf),
    #[error("{0} exists already; it was not replaced")]
    BackupExists(PathBuf),
    #[error("cannot write the backup {path}: {source}")]
    BackupFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the database stayed locked for {0:?}; nothing was copied")]
    BackupBusy(std::time::Duration),
    #[error("the copy failed its integrity check ({0}); it was removed")]
    BackupDamaged(String),
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// How hard SQLite works to make a commit durable (`PRAGMA synchronous`). PostgreSQL
/// always commits with `synchronous_commit` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Durability {
    /// fsync on every commit: a committed reply survives power loss. The default.
    #[default]
    Full,
    /// In WAL mode, survives a process crash but may lose the last commits on power loss.
    Normal,
}

/// Which database a store lives in.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// `dominion.sqlite3` in this directory: the default, nothing to set up.
    Sqlite {
        dir: PathBuf,
        durability: Durability,
    },
    /// A PostgreSQL database, by its `postgres://` URL: what several nodes share.
    Postgres { url: String },
}

impl Database {
    /// PostgreSQL when `url` is given (it must be a `postgres://` or `postgresql://`
    /// URL), else SQLite in `data_dir`. The URL is checked here, before anything connects.
    pub fn choose(url: Option<&str>, data_dir: &Path, durability: Durability) -> Result<Database> {
        match url.map(str::trim).filter(|u| !u.is_empty()) {
            None => Ok(Database::Sqlite {
                dir: data_dir.to_path_buf(),
                durability,
            }),
            Some(url) => {
                pg::parse_url(url)?;
                Ok(Database::Postgres {
                    url: url.to_string(),
                })
            }
        }
    }

    /// What to name in logs and errors: the directory, or the URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite { dir, .. } => dir.join(DB_FILE).display().to_string(),
            Database::Postgres { url } => redact_url(url),
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Database::Postgres { .. })
    }
}

/// Never prints a password.
impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Database({})", self.describe())
    }
}

/// `postgres://user:secret@host/db` as `postgres://user:***@host/db`.
pub fn redact_url(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_string();
    };
    let rest = &url[scheme_end..];
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else {
        return url.to_string();
    };
    match rest[..at].find(':') {
        Some(colon) => format!(
            "{}{}:***{}",
            &url[..scheme_end],
            &rest[..colon],
            &rest[at..]
        ),
        None => url.to_string(),
    }
}

/// Where a room stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomStatus {
    Open,
    Playing,
    Finished,
    /// Its log failed to replay; kept for inspection, not reopened.
    Broken,
    /// Its game started, then no player was connected for too long: it ended without a
    /// result. Kept as history, not reopened.
    Abandoned,
}

impl RoomStatus {
    fn as_str(self) -> &'static str {
        match self {
            RoomStatus::Open => "open",
            RoomStatus::Playing => "playing",
            RoomStatus::Finished => "finished",
            RoomStatus::Broken => "broken",
            RoomStatus::Abandoned => "abandoned",
        }
    }
    fn parse(s: &str) -> RoomStatus {
        match s {
            "playing" => RoomStatus::Playing,
            "finished" => RoomStatus::Finished,
            "broken" => RoomStatus::Broken,
            "abandoned" => RoomStatus::Abandoned,
            _ => RoomStatus::Open,
        }
    }
}

/// A room as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomRow {
    pub id: String,
    /// Room settings, as the server's JSON.
    pub settings: String,
    pub status: RoomStatus,
    pub broken_reason: Option<String>,
    pub created_at: i64,
    /// The host's seat, if any (schema 4).
    pub host: Option<u8>,
}

/// One seat. Tokens are never stored, only their hashes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    pub seat: u8,
    pub name: String,
    pub token_hash: Option<Vec<u8>>,
    pub bot: Option<String>,
    /// The highest command id applied from this seat (0: none), so that a command re-sent
    /// after a restart is still recognised as a duplicate.
    pub last_command: u64,
    /// The account that sits here, as `seat_accounts` links it (read only: the games'
    /// writer never writes it, the accounts' connection does). None for a guest, a bot,
    /// an open seat, and a seat taken again under another name since.
    pub account: Option<LinkedAccount>,
}

/// An account linked to a seat: enough for a room to mark a bot account's seat and
/// to know who is rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkedAccount {
    pub id: i64,
    /// A bot account (it plays through API tokens and is shown as a bot).
    pub bot: bool,
}

/// How a game's record is encoded and which rules it is played under. The store keeps
/// both numbers and never interprets them: the server decodes a game by its format and
/// refuses rules it cannot play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordVersion {
    /// The encoding of `setup` and of every reply (docs/storage.md).
    pub format: u32,
    /// The engine rules version the game is played under.
    pub rules: u32,
}

/// A game's record: enough to rebuild it through the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub room_id: String,
    /// The setup, as JSON in `version.format`.
    pub setup: String,
    pub version: RecordVersion,
    pub seed: u64,
    /// Accepted replies in order: (player, reply JSON in `version.format`).
    pub replies: Vec<(u8, String)>,
    /// The state hash after the last reply (or after setup if none).
    pub last_hash: String,
    pub started_at: i64,
    /// When the game ended: finished, or abandoned.
    pub finished_at: Option<i64>,
    /// Final scores JSON, once finished (never for an abandoned game).
    pub scores: Option<String>,
    /// The game was abandoned, not played to the end.
    pub abandoned: bool,
}

/// An ended game in a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    pub room_id: String,
    pub finished_at: i64,
    /// Final scores JSON; `None` for an abandoned game.
    pub scores: Option<String>,
    pub setup: String,
    pub version: RecordVersion,
    pub abandoned: bool,
    /// Who sat where.
    pub seats: Vec<SeatRow>,
}

/// The lease a node writes a room under: its name and the fencing token of its claim.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fence {
    pub node: String,
    pub token: i64,
}

/// One claim of a room, as `room_claims` keeps them all (schema 5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimRow {
    pub token: i64,
    pub node: String,
    pub at: i64,
}

/// Who wrote a stored reply: the fence it carried, if any (schema 5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyWriter {
    pub seq: u64,
    pub node: Option<String>,
    pub token: Option<i64>,
}

/// One durable step, as the server's writer hands it to [`Store::write_batch`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// Inserts a room or updates its settings and seats. An existing room keeps its
    /// status: that moves only by the steps below.
    SaveRoom { room: RoomRow, seats: Vec<SeatRow> },
    /// Forgets a room that closed before its game started (a started game stays).
    CloseRoom { id: String },
    SetStatus {
        id: String,
        status: RoomStatus,
        reason: Option<String>,
    },
    /// Records a game's start (setup and seed) and marks the room playing; `command` is
    /// the starting seat's command, (seat, id).
    StartGame {
        room_id: String,
        setup: String,
        version: RecordVersion,
        seed: u64,
        hash: String,
        now: i64,
        command: Option<(u8, u64)>,
    },
    /// Appends reply number `seq` (0-based) and the state hash after it; refuses gaps and
    /// repeats. `command` is the id of the seat's command that carried it (none when the
    /// server answered for the seat). The reply keeps the fence it was written under.
    AppendReply {
        room_id: String,
        seq: u64,
        player: u8,
        reply: String,
        hash: String,
        now: i64,
        command: Option<u64>,
    },
    /// Records the end of a game and marks the room finished. With `rated`, the game is
    /// rated in the same transaction (once: a room rated already is not rated again).
    FinishGame {
        room_id: String,
        scores: String,
        now: i64,
        rated: Option<RatedOutcome>,
    },
    /// Ends a game without a result and marks the room abandoned; with `rated` (the
    /// abandoners last), rates it in the same transaction, as [`Write::FinishGame`].
    AbandonGame {
        room_id: String,
        now: i64,
        rated: Option<RatedOutcome>,
    },
    /// Takes back the last replies of a game (an undo): keeps replies `0..keep`, deletes
    /// the rest, and records `hash`, the state digest after reply `keep - 1` (or before
    /// any). Refuses to delete anything of a finished game, or more than 100 replies.
    TruncateReplies {
        room_id: String,
        keep: u64,
        hash: String,
    },
    /// Re-encodes a whole game record in another format, atomically: its setup, every
    /// reply (`replies[i]` replaces reply `i`; the count must match the log), its scores
    /// if it has some. The server does this when it reopens a game stored in an older
    /// format, so that a game's replies are never in two formats.
    RewriteRecord {
        room_id: String,
        format: u32,
        setup: String,
        replies: Vec<String>,
        scores: Option<String>,
    },
    /// Makes `node` the room's writer under fencing token `token`, if `token` is newer
    /// than the room's (or the room has none), and appends the claim to the room's
    /// history; otherwise refused with [`StoreError::Fenced`]. The room need not be
    /// stored yet (a node claims a new room before saving it). A fence given with a
    /// claim is not consulted: the claim's own token decides.
    Claim {
        room_id: String,
        node: String,
        token: i64,
        now: i64,
    },
    /// Stores a snapshot of the game after its first `snapshot.upto` replies (schema 10;
    /// replacing one of the same `upto`), refused unless the game is unfinished and holds
    /// reply `upto - 1`. Submitted after that reply's [`Write::AppendReply`].
    SaveSnapshot {
        room_id: String,
        snapshot: SnapshotRow,
        now: i64,
    },
}

impl Write {
    /// The room this write belongs to.
    pub fn room(&self) -> &str {
        match self {
            Write::SaveRoom { room, .. } => &room.id,
            Write::CloseRoom { id } | Write::SetStatus { id, .. } => id,
            Write::StartGame { room_id, .. }
            | Write::AppendReply { room_id, .. }
            | Write::FinishGame { room_id, .. }
            | Write::AbandonGame { room_id, .. }
            | Write::TruncateReplies { room_id, .. }
            | Write::RewriteRecord { room_id, .. }
            | Write::Claim { room_id, .. }
            | Write::SaveSnapshot { room_id, .. } => room_id,
        }
    }
}

/// A write as [`Store::write_batch`] takes it: alone (unfenced, as a single server
/// writes), or with the fence it must pass, `(Option<Fence>, Write)`.
pub trait Step {
    fn write(&self) -> &Write;
    fn fence(&self) -> Option<&Fence>;
}

impl Step for Write {
    fn write(&self) -> &Write {
        self
    }
    fn fence(&self) -> Option<&Fence> {
        None
    }
}

impl Step for (Option<Fence>, Write) {
    fn write(&self) -> &Write {
        &self.1
    }
    fn fence(&self) -> Option<&Fence> {
        self.0.as_ref()
    }
}

/// The writing connection. Only one should exist per server: the server gives it to one
/// thread, which batches every room's writes.
pub struct Store(Backend);

enum Backend {
    Sqlite(sqlite::SqliteStore),
    /// Boxed: its prepared statements make it four times SQLite's size.
    Postgres(Box<pg::PgStore>),
}

impl Store {
    /// Opens (creating if needed) the SQLite store in `data_dir`, brings its schema up to
    /// date, and proves that both the directory and the database can be written: a file
    /// is created in the directory and a row committed to the database. A store that
    /// cannot be written is refused here, at start, rather than failing every room later.
    pub fn open(data_dir: &Path, durability: Durability) -> Result<Store> {
        sqlite::SqliteStore::open(data_dir, durability).map(|s| Store(Backend::Sqlite(s)))
    }

    /// Connects to the PostgreSQL database at `url`, creates or migrates its schema
    /// (under an advisory lock, so that nodes starting together migrate once) and commits
    /// a row to prove it can write. Blocking: call it off any async runtime's threads.
    pub fn connect(url: &str) -> Result<Store> {
        pg::PgStore::connect(url).map(|s| Store(Backend::Postgres(Box::new(s))))
    }

    /// [`Store::open`] or [`Store::connect`], as `database` says.
    pub fn open_database(database: &Database) -> Result<Store> {
        match database {
            Database::Sqlite { dir, durability } => Store::open(dir, *durability),
            Database::Postgres { url } => Store::connect(url),
        }
    }

    /// The SQLite file, if this store is one.
    pub fn path(&self) -> Option<&Path> {
        match &self.0 {
            Backend::Sqlite(s) => Some(s.path()),
            Backend::Postgres(_) => None,
        }
    }

    /// How long a write waits for a lock another connection holds before it fails (5 s
    /// unless changed for SQLite; PostgreSQL waits as its `lock_timeout` says, by
    /// default forever, until this is called).
    pub fn set_busy_timeout(&mut self, wait: std::time::Duration) -> Result<()> {
        match &mut self.0 {
            Backend::Sqlite(s) => s.set_busy_timeout(wait),
            Backend::Postgres(s) => s.set_lock_timeout(wait),
        }
    }

    /// Shares `switch` with this store: its batches write the copies an earlier release
    /// reads while it is on ([`LegacyColumns`]). A store starts with them off.
    pub fn set_legacy_columns(&mut self, switch: LegacyColumns) {
        match &mut self.0 {
            Backend::Sqlite(s) => s.legacy = switch,
            Backend::Postgres(s) => s.legacy = switch,
        }
    }

    /// Applies `steps` in one transaction and commits it once.
    ///
    /// Each write is refused or applied on its own: one that is refused (a reply out of
    /// order, a room that does not exist, a stale fence) is rolled back alone and
    /// reported in its slot, and the others still commit. `Err` means the transaction
    /// itself failed (it could not begin or commit: a full disk, an I/O error, a lock
    /// held elsewhere too long, a lost connection), and then none of the writes is
    /// stored.
    ///
    /// Refusals are rare (they mean a server bug, a second writer or a lost lease), so the
    /// batch is first applied without savepoints: a savepoint per write costs statements
    /// (and in SQLite sub-journal copies of every page it touches, about a fifth of the
    /// writer's time under load). Only when some write is refused is that attempt rolled
    /// back and the batch applied again, each write in its own savepoint.
    ///
    /// A step with a [`Fence`] is applied only if the room's stored fencing token is the
    /// fence's and was claimed by the fence's node; the check and the write are one
    /// transaction, with the room's fence row locked in PostgreSQL.
    pub fn write_batch<S: Step>(&mut self, steps: &[S]) -> Result<Vec<Result<()>>> {
        match &mut self.0 {
            Backend::Sqlite(s) => s.write_batch(steps),
            Backend::Postgres(s) => s.write_batch(steps),
        }
    }

    /// One write in its own transaction.
    pub fn write(&mut self, w: Write) -> Result<()> {
        let mut results = self.write_batch(std::slice::from_ref(&w))?;
        results.pop().unwrap_or(Ok(()))
    }

    /// One write under `fence`, in its own transaction.
    pub fn write_fenced(&mut self, fence: Fence, w: Write) -> Result<()> {
        let mut results = self.write_batch(&[(Some(fence), w)])?;
        results.pop().unwrap_or(Ok(()))
    }

    /// Inserts a room or updates its settings and seats, in one transaction. An existing
    /// room keeps its status: that moves only by `start_game`, `finish_game`, `set_status`.
    pub fn save_room(&mut self, room: &RoomRow, seats: &[SeatRow]) -> Result<()> {
        self.write(Write::SaveRoom {
            room: room.clone(),
            seats: seats.to_vec(),
        })
    }

    /// Deletes a room that never started (and its seats); a started game stays.
    pub fn delete_room(&mut self, id: &str) -> Result<()> {
        self.write(Write::CloseRoom { id: id.into() })
    }

    pub fn set_status(&mut self, id: &str, status: RoomStatus, reason: Option<&str>) -> Result<()> {
        self.write(Write::SetStatus {
            id: id.into(),
            status,
            reason: reason.map(String::from),
        })
    }

    /// Records a game's start (setup and seed) and marks the room playing, atomically.
    pub fn start_game(
        &mut self,
        room_id: &str,
        setup: &str,
        version: RecordVersion,
        seed: u64,
        hash: &str,
        now: i64,
    ) -> Result<()> {
        self.write(Write::StartGame {
            room_id: room_id.into(),
            setup: setup.into(),
            version,
            seed,
            hash: hash.into(),
            now,
            command: None,
        })
    }

    /// Appends reply number `seq` (0-based) and the state hash after it, in one
    /// transaction. Returns once committed. Refuses gaps and repeats.
    pub fn append_reply(
        &mut self,
        room_id: &str,
        seq: u64,
        player: u8,
        reply: &str,
        hash: &str,
        now: i64,
    ) -> Result<()> {
        self.write(Write::AppendReply {
            room_id: room_id.into(),
            seq,
            player,
            reply: reply.into(),
            hash: hash.into(),
            now,
            command: None,
        })
    }

    /// Records the end of a game and marks the room finished, atomically.
    pub fn finish_game(&mut self, room_id: &str, scores: &str, now: i64) -> Result<()> {
        self.write(Write::FinishGame {
            room_id: room_id.into(),
            scores: scores.into(),
            now,
            rated: None,
        })
    }

    /// Ends a game without a result and marks its room abandoned, atomically.
    pub fn abandon_game(&mut self, room_id: &str, now: i64) -> Result<()> {
        self.write(Write::AbandonGame {
            room_id: room_id.into(),
            now,
            rated: None,
        })
    }

    /// Makes `node` the room's writer under `token` (see [`Write::Claim`]).
    pub fn claim(&mut self, room_id: &str, node: &str, token: i64, now: i64) -> Result<()> {
        self.write(Write::Claim {
            room_id: room_id.into(),
            node: node.into(),
            token,
            now,
        })
    }

    /// How the batches of a PostgreSQL store went (pipelined, run again after a refusal,
    /// statement by statement); `None` for SQLite.
    pub fn batch_counts(&self) -> Option<BatchCounts> {
        match &self.0 {
            Backend::Sqlite(_) => None,
            Backend::Postgres(s) => Some(s.batch_counts()),
        }
    }

    /// Reads through this (writing) connection: tests, and tools that hold only one.
    pub fn reader(&self) -> ReadView<'_> {
        match &self.0 {
            Backend::Sqlite(s) => ReadView(View::Sqlite(s.connection())),
            Backend::Postgres(s) => ReadView(View::Postgres(s.client(), None)),
        }
    }
}

/// A connection that only reads, beside the writer. SQLite: `PRAGMA query_only`; in WAL
/// mode it sees every committed transaction and never waits for the writer. PostgreSQL:
/// a second connection (reads never wait for writes there either).
pub struct Reader(ReaderBackend);

enum ReaderBackend {
    Sqlite(rusqlite::Connection),
    /// Boxed: the client is several times the size of SQLite's connection.
    Postgres {
        client: Box<RefCell<postgres::Client>>,
        url: String,
        /// A query failed: the connection may be dead before the client knows it, so
        /// the next view checks it (as the writer does after a failed batch).
        suspect: std::cell::Cell<bool>,
    },
}

impl Reader {
    /// Opens the SQLite store in `data_dir` for reading. Open the [`Store`] first: it
    /// creates the file and brings the schema up to date.
    pub fn open(data_dir: &Path) -> Result<Reader> {
        sqlite::open_reader(data_dir).map(|c| Reader(ReaderBackend::Sqlite(c)))
    }

    /// Connects to the PostgreSQL database at `url` for reading; its schema must be
    /// current (connect the [`Store`] first). Blocking, like [`Store::connect`].
    pub fn connect(url: &str) -> Result<Reader> {
        pg::connect_reader(url).map(|c| {
            Reader(ReaderBackend::Postgres {
                client: Box::new(RefCell::new(c)),
                url: url.to_string(),
                suspect: std::cell::Cell::new(false),
            })
        })
    }

    /// [`Reader::open`] or [`Reader::connect`], as `database` says.
    pub fn open_database(database: &Database) -> Result<Reader> {
        match database {
            Database::Sqlite { dir, .. } => Reader::open(dir),
            Database::Postgres { url } => Reader::connect(url),
        }
    }

    /// The queries. A PostgreSQL connection the server closed (a restart, a network cut)
    /// is replaced first; if that fails too, the queries fail with the closed one's error
    /// and the next view tries again.
    pub fn view(&self) -> ReadView<'_> {
        match &self.0 {
            ReaderBackend::Sqlite(c) => ReadView(View::Sqlite(c)),
            ReaderBackend::Postgres {
                client,
                url,
                suspect,
            } => {
                let dead = client.borrow().is_closed()
                    || (suspect.take()
                        && client
                            .borrow_mut()
                            .is_valid(std::time::Duration::from_secs(2))
                            .is_err());
                if dead && let Ok(fresh) = pg::connect_reader(url) {
                    *client.borrow_mut() = fresh;
                }
                ReadView(View::Postgres(client, Some(suspect)))
            }
        }
    }
}

/// The queries, on whichever connection of whichever backend.
pub struct ReadView<'a>(View<'a>);

enum View<'a> {
    Sqlite(&'a rusqlite::Connection),
    /// The blocking client needs `&mut` for every query; a view is shared, and queries
    /// never nest, so each borrows it for its own length.
    Postgres(
        &'a RefCell<postgres::Client>,
        Option<&'a std::cell::Cell<bool>>,
    ),
}

impl ReadView<'_> {
    fn on<T>(
        &self,
        sqlite: impl FnOnce(&rusqlite::Connection) -> Result<T>,
        pg: impl FnOnce(&mut postgres::Client) -> Result<T>,
    ) -> Result<T> {
        match &self.0 {
            View::Sqlite(c) => sqlite(c),
            View::Postgres(c, suspect) => {
                let result = pg(&mut c.borrow_mut());
                if result.is_err()
                    && let Some(suspect) = suspect
                {
                    suspect.set(true);
                }
                result
            }
        }
    }

    pub fn room(&self, id: &str) -> Result<Option<(RoomRow, Vec<SeatRow>)>> {
        self.on(|c| sqlite::read::room(c, id), |c| pg::read::room(c, id))
    }

    /// Rooms that are open or playing (to reopen on start), with their seats.
    pub fn live_rooms(&self) -> Result<Vec<(RoomRow, Vec<SeatRow>)>> {
        self.rooms_to_reopen(i64::MAX)
    }

    /// Rooms to reopen on start: open or playing ones, and finished ones whose game ended
    /// at or after `finished_since` (so their players can still see the result). Broken
    /// and abandoned rooms stay closed.
    pub fn rooms_to_reopen(&self, finished_since: i64) -> Result<Vec<(RoomRow, Vec<SeatRow>)>> {
        self.on(
            |c| sqlite::read::rooms_to_reopen(c, finished_since),
            |c| pg::read::rooms_to_reopen(c, finished_since),
        )
    }

    /// A room's game with its full reply log.
    pub fn game(&self, room_id: &str) -> Result<Option<GameRow>> {
        self.on(
            |c| sqlite::read::game(c, room_id),
            |c| pg::read::game(c, room_id),
        )
    }

    /// A game's stored snapshots (schema 10), oldest first.
    pub fn snapshots(&self, room_id: &str) -> Result<Vec<SnapshotRow>> {
        self.on(
            |c| snapshots::sqlite::read(c, room_id),
            |c| snapshots::pg::read(c, room_id),
        )
    }

    /// Several rooms with their seats, as [`ReadView::room`] reads each, in the order of
    /// `ids` (each once); a room not stored is left out. On PostgreSQL two queries
    /// however many rooms (a node reopening or taking over many rooms would otherwise pay
    /// round trips per room); on SQLite, which has no round trips, one room at a time.
    pub fn rooms(&self, ids: &[&str]) -> Result<Vec<(RoomRow, Vec<SeatRow>)>> {
        self.on(
            |c| {
                let mut rooms = Vec::with_capacity(ids.len());
                for id in ids {
                    rooms.extend(sqlite::read::room(c, id)?);
                }
                Ok(rooms)
            },
            |c| pg::read::rooms(c, ids),
        )
    }

    /// Several rooms' games with their full reply logs, as [`ReadView::game`] reads
    /// each, by room (a room without a game is absent); batched as [`ReadView::rooms`].
    pub fn games(&self, ids: &[&str]) -> Result<HashMap<String, GameRow>> {
        self.on(
            |c| {
                let mut games = HashMap::with_capacity(ids.len());
                for id in ids {
                    if let Some(game) = sqlite::read::game(c, id)? {
                        games.insert(id.to_string(), game);
                    }
                }
                Ok(games)
            },
            |c| pg::read::games(c, ids),
        )
    }

    /// Several games' stored snapshots, as [`ReadView::snapshots`] reads each, by room
    /// (a room without snapshots is absent); batched as [`ReadView::rooms`].
    pub fn snapshots_of(&self, ids: &[&str]) -> Result<HashMap<String, Vec<SnapshotRow>>> {
        self.on(
            |c| {
                let mut all = HashMap::with_capacity(ids.len());
                for id in ids {
                    let snapshots = snapshots::sqlite::read(c, id)?;
                    if !snapshots.is_empty() {
                        all.insert(id.to_string(), snapshots);
                    }
                }
                Ok(all)
            },
            |c| snapshots::pg::read_many(c, ids),
        )
    }

    /// The most recently ended games (finished or abandoned), newest first.
    pub fn finished_games(&self, limit: u32) -> Result<Vec<FinishedGame>> {
        self.on(
            |c| sqlite::read::finished_games(c, limit),
            |c| pg::read::finished_games(c, limit),
        )
    }

    /// Ids and reasons of rooms marked broken, newest first (at most `limit`).
    pub fn broken_rooms(&self, limit: u32) -> Result<Vec<(String, String)>> {
        self.on(
            |c| sqlite::read::broken_rooms(c, limit),
            |c| pg::read::broken_rooms(c, limit),
        )
    }

    /// The room's current fence: the node that claimed it last and its token.
    pub fn fence(&self, room_id: &str) -> Result<Option<Fence>> {
        self.on(
            |c| sqlite::read::fence(c, room_id),
            |c| pg::read::fence(c, room_id),
        )
    }

    /// Every claim of the room, in token order (the audit of who owned it when).
    pub fn claims(&self, room_id: &str) -> Result<Vec<ClaimRow>> {
        self.on(
            |c| sqlite::read::claims(c, room_id),
            |c| pg::read::claims(c, room_id),
        )
    }

    /// Who wrote each of the room's replies, in log order.
    pub fn reply_writers(&self, room_id: &str) -> Result<Vec<ReplyWriter>> {
        self.on(
            |c| sqlite::read::reply_writers(c, room_id),
            |c| pg::read::reply_writers(c, room_id),
        )
    }

    /// SQLite: `PRAGMA integrity_check`, "ok" when the file is sound. PostgreSQL has no
    /// built-in counterpart: "ok" once every table answers a query.
    pub fn integrity_check(&self) -> Result<String> {
        self.on(sqlite::read::integrity_check, pg::read::integrity_check)
    }
}

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_leave_a_url() {
        assert_eq!(
            redact_url("postgres://dominion:s3cr:et@db.example:5432/dominion?sslmode=disable"),
            "postgres://dominion:***@db.example:5432/dominion?sslmode=disable"
        );
        assert_eq!(
            redact_url("postgres://dominion@db/x"),
            "postgres://dominion@db/x"
        );
        assert_eq!(redact_url("postgres://db/x"), "postgres://db/x");
        assert_eq!(
            format!(
                "{:?}",
                Database::Postgres {
                    url: "postgresql://a:b@h/d".into()
                }
            ),
            "Database(postgresql://a:***@h/d)"
        );
    }

    #[test]
    fn a_url_selects_postgres_and_none_selects_sqlite() {
        let dir = Path::new("data");
        assert_eq!(
            Database::choose(None, dir, Durability::Normal).unwrap(),
            Database::Sqlite {
                dir: dir.into(),
                durability: Durability::Normal
            }
        );
        assert_eq!(
            Database::choose(Some("  "), dir, Durability::Full).unwrap(),
            Database::Sqlite {
                dir: dir.into(),
                durability: Durability::Full
            }
        );
        assert!(
            Database::choose(Some("postgres://u:p@127.0.0.1:5/d"), dir, Durability::Full)
                .unwrap()
                .is_postgres()
        );
        for bad in [
            "mysql://u@h/d",
            "data/dominion.sqlite3",
            "postgres://u@h:notaport/d",
        ] {
            let e = Database::choose(Some(bad), dir, Durability::Full).unwrap_err();
            assert!(matches!(e, StoreError::NotPostgresUrl { .. }), "{bad}: {e}");
        }
    }

    #[test]
    fn a_fenced_refusal_says_why() {
        let stale = StoreError::Fenced {
            room: "r".into(),
            token: 3,
            current: Some(4),
        };
        assert_eq!(
            stale.to_string(),
            "room r is fenced: token 3 does not hold it (the room's token is 4)"
        );
        let unclaimed = StoreError::Fenced {
            room: "r".into(),
            token: 3,
            current: None,
        };
        assert!(
            unclaimed
                .to_string()
                .ends_with("(the room's token is none)")
        );
    }
}
