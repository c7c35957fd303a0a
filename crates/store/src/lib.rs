//! Durable storage for rooms, games and reply logs in an embedded SQLite file.
//!
//! The store knows nothing of the engine or the wire: settings, setups, replies and scores
//! are JSON text the server produces, so the schema never has to follow engine types.
//! What it guarantees is ordering and durability: [`Store::write_batch`] applies many
//! [`Write`]s — the replies of many rooms, room saves, starts and ends — in one
//! transaction and returns only once SQLite has committed it: with `synchronous=FULL`
//! (the default), once it is on disk. Each write is refused or applied on its own (a
//! savepoint each), so one room's bad write never takes another's with it. The server
//! sends nothing about a reply before its batch has returned, so an acknowledged reply is
//! never lost, even to `kill -9`.
//!
//! One connection writes (the server gives it to a single writer thread); any number of
//! [`Reader`]s read at the same time, which WAL allows. [`backup()`] is such a reader too:
//! it copies the file while the server runs.

mod backup;
mod schema;

pub use backup::{BackupReport, backup};
pub use schema::VERSION as SCHEMA_VERSION;

/// The SQL of schema version 1, as the first release created it: tests build such files
/// to prove that an upgrade keeps every game.
#[doc(hidden)]
pub fn schema_v1_sql() -> &'static str {
    schema::v1_sql()
}

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The most replies one undo may delete: an undo takes back moves of one turn.
const MAX_TAKEN_BACK: usize = 100;

/// The file name inside the data directory.
pub const DB_FILE: &str = "dominion.sqlite3";

/// The file the start-up check creates (and removes) in the data directory.
const DIR_CHECK_FILE: &str = ".dominion-write-check";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
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

/// How hard SQLite works to make a commit durable (`PRAGMA synchronous`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Durability {
    /// fsync on every commit: a committed reply survives power loss. The default.
    #[default]
    Full,
    /// In WAL mode, survives a process crash but may lose the last commits on power loss.
    Normal,
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
    /// server answered for the seat).
    AppendReply {
        room_id: String,
        seq: u64,
        player: u8,
        reply: String,
        hash: String,
        now: i64,
        command: Option<u64>,
    },
    /// Records the end of a game and marks the room finished.
    FinishGame {
        room_id: String,
        scores: String,
        now: i64,
    },
    /// Ends a game without a result and marks the room abandoned.
    AbandonGame { room_id: String, now: i64 },
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
            | Write::RewriteRecord { room_id, .. } => room_id,
        }
    }
}

/// The writing connection. Only one should exist per file: the server gives it to one
/// thread, which batches every room's writes.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

fn configure(conn: &Connection, durability: Durability) -> Result<()> {
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(
        None,
        "synchronous",
        match durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        },
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    // Every statement of every write kind stays prepared (about 20 of them).
    conn.set_prepared_statement_cache_capacity(64);
    Ok(())
}

impl Store {
    /// Opens (creating if needed) the store in `data_dir`, brings its schema up to date,
    /// and proves that both the directory and the database can be written: a file is
    /// created in the directory and a row committed to the database. A store that cannot
    /// be written is refused here, at start, rather than failing every room later.
    pub fn open(data_dir: &Path, durability: Durability) -> Result<Store> {
        std::fs::create_dir_all(data_dir).map_err(|source| StoreError::DataDir {
            path: data_dir.to_path_buf(),
            source,
        })?;
        check_dir_writable(data_dir)?;
        let path = data_dir.join(DB_FILE);
        let not_writable = |reason: String| StoreError::NotWritable {
            what: "the database",
            path: path.clone(),
            reason,
        };
        let conn = Connection::open(&path).map_err(|e| writable_or(e.into(), &not_writable))?;
        // SQLite quietly opens a file it may not write read-only; say so now.
        if conn.is_readonly(rusqlite::MAIN_DB)? {
            return Err(not_writable("SQLite could open it read-only only".into()));
        }
        configure(&conn, durability).map_err(|e| writable_or(e, &not_writable))?;
        // Off while migrating: rebuilding a table that others reference must not cascade
        // (SQLite ignores this pragma inside a transaction). `migrate` checks the keys.
        conn.pragma_update(None, "foreign_keys", "OFF")?;
        schema::migrate(&conn).map_err(|e| writable_or(e, &not_writable))?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let store = Store {
            conn,
            path: path.clone(),
        };
        store
            .write_check()
            .map_err(|e| writable_or(e, &not_writable))?;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How long a write waits for a lock another process holds before it fails (5 s
    /// unless changed).
    pub fn set_busy_timeout(&self, wait: std::time::Duration) -> Result<()> {
        Ok(self.conn.busy_timeout(wait)?)
    }

    /// A real write, committed: `BEGIN IMMEDIATE` takes the write lock, and the commit
    /// needs the WAL file and the directory too. Nothing reads the row.
    fn write_check(&self) -> Result<()> {
        let tx = Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO write_check (id, at) VALUES (1, ?1)
             ON CONFLICT(id) DO UPDATE SET at = ?1",
            params![now_secs()],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Applies `writes` in one transaction and commits it once.
    ///
    /// Each write runs inside its own savepoint: one that is refused (a reply out of
    /// order, a room that does not exist) is rolled back alone and reported in its slot,
    /// and the others still commit. `Err` means the transaction itself failed (it could
    /// not begin or commit: a full disk, an I/O error, a lock held elsewhere too long),
    /// and then none of the writes is stored.
    ///
    /// Refusals are rare (they mean a server bug or a second writer), so the batch is
    /// first applied without savepoints: a savepoint per write costs statements and
    /// sub-journal copies of every page it touches, about a fifth of the writer's time
    /// under load. Only when some write is refused is that attempt rolled back and the
    /// batch applied again, each write in its own savepoint.
    pub fn write_batch(&mut self, writes: &[Write]) -> Result<Vec<Result<()>>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut refused = false;
        for w in writes {
            if apply(&tx, w).is_err() {
                refused = true;
                break;
            }
        }
        if !refused {
            tx.commit()?;
            return Ok(writes.iter().map(|_| Ok(())).collect());
        }
        tx.rollback()?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut results = Vec::with_capacity(writes.len());
        for w in writes {
            tx.prepare_cached("SAVEPOINT w")?.execute([])?;
            let r = apply(&tx, w);
            if r.is_err() {
                tx.prepare_cached("ROLLBACK TO w")?.execute([])?;
            }
            tx.prepare_cached("RELEASE w")?.execute([])?;
            results.push(r);
        }
        tx.commit()?;
        Ok(results)
    }

    /// One write in its own transaction.
    pub fn write(&mut self, w: Write) -> Result<()> {
        let mut results = self.write_batch(std::slice::from_ref(&w))?;
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
        })
    }

    /// Ends a game without a result and marks its room abandoned, atomically.
    pub fn abandon_game(&mut self, room_id: &str, now: i64) -> Result<()> {
        self.write(Write::AbandonGame {
            room_id: room_id.into(),
            now,
        })
    }

    /// Reads through this (writing) connection: tests, and tools that hold only one.
    pub fn reader(&self) -> ReadView<'_> {
        ReadView(&self.conn)
    }
}

/// A connection that only reads (`PRAGMA query_only`), beside the writer: in WAL mode it
/// sees every committed transaction and never waits for the writer.
pub struct Reader {
    conn: Connection,
}

impl Reader {
    /// Opens the store in `data_dir` for reading. Open the [`Store`] first: it creates the
    /// file and brings the schema up to date.
    pub fn open(data_dir: &Path) -> Result<Reader> {
        let conn = Connection::open(data_dir.join(DB_FILE))?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "query_only", "ON")?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        schema::check_current(version)?;
        Ok(Reader { conn })
    }

    pub fn view(&self) -> ReadView<'_> {
        ReadView(&self.conn)
    }
}

/// The queries, on whichever connection.
pub struct ReadView<'a>(&'a Connection);

impl ReadView<'_> {
    pub fn room(&self, id: &str) -> Result<Option<(RoomRow, Vec<SeatRow>)>> {
        let room = self
            .0
            .query_row(
                "SELECT id, settings, status, broken_reason, created_at, host FROM rooms WHERE id = ?1",
                params![id],
                room_row,
            )
            .optional()?;
        let Some(room) = room else { return Ok(None) };
        let seats = self.seats(id)?;
        Ok(Some((room, seats)))
    }

    fn seats(&self, room_id: &str) -> Result<Vec<SeatRow>> {
        let mut stmt = self.0.prepare_cached(
            "SELECT seat, name, token_hash, bot, last_command FROM seats
             WHERE room_id = ?1 ORDER BY seat",
        )?;
        let rows = stmt.query_map(params![room_id], |r| {
            Ok(SeatRow {
                seat: r.get(0)?,
                name: r.get(1)?,
                token_hash: r.get(2)?,
                bot: r.get(3)?,
                last_command: r.get::<_, i64>(4)?.max(0) as u64,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Rooms that are open or playing (to reopen on start), with their seats.
    pub fn live_rooms(&self) -> Result<Vec<(RoomRow, Vec<SeatRow>)>> {
        self.rooms_to_reopen(i64::MAX)
    }

    /// Rooms to reopen on start: open or playing ones, and finished ones whose game ended
    /// at or after `finished_since` (so their players can still see the result). Broken
    /// and abandoned rooms stay closed.
    pub fn rooms_to_reopen(&self, finished_since: i64) -> Result<Vec<(RoomRow, Vec<SeatRow>)>> {
        let mut stmt = self.0.prepare(
            "SELECT id, settings, status, broken_reason, created_at, host FROM rooms
             WHERE status IN ('open', 'playing')
                OR (status = 'finished' AND id IN
                    (SELECT room_id FROM games WHERE finished_at >= ?1))
             ORDER BY created_at, id",
        )?;
        let rooms: Vec<RoomRow> = stmt
            .query_map(params![finished_since], room_row)?
            .collect::<rusqlite::Result<_>>()?;
        rooms
            .into_iter()
            .map(|r| {
                let seats = self.seats(&r.id)?;
                Ok((r, seats))
            })
            .collect()
    }

    /// A room's game with its full reply log.
    pub fn game(&self, room_id: &str) -> Result<Option<GameRow>> {
        let row = self
            .0
            .query_row(
                "SELECT g.room_id, g.setup, g.seed, g.last_hash, g.started_at, g.finished_at,
                        g.scores, r.status = 'abandoned', g.record_format, g.rules_version
                 FROM games g JOIN rooms r ON r.id = g.room_id WHERE g.room_id = ?1",
                params![room_id],
                |r| {
                    let seed: String = r.get(2)?;
                    Ok(GameRow {
                        room_id: r.get(0)?,
                        setup: r.get(1)?,
                        version: RecordVersion {
                            format: r.get(8)?,
                            rules: r.get(9)?,
                        },
                        seed: seed.parse().unwrap_or_default(),
                        replies: Vec::new(),
                        last_hash: r.get(3)?,
                        started_at: r.get(4)?,
                        finished_at: r.get(5)?,
                        scores: r.get(6)?,
                        abandoned: r.get(7)?,
                    })
                },
            )
            .optional()?;
        let Some(mut game) = row else { return Ok(None) };
        let mut stmt = self
            .0
            .prepare_cached("SELECT player, reply FROM replies WHERE room_id = ?1 ORDER BY seq")?;
        game.replies = stmt
            .query_map(params![room_id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(Some(game))
    }

    /// The most recently ended games (finished or abandoned), newest first.
    pub fn finished_games(&self, limit: u32) -> Result<Vec<FinishedGame>> {
        let mut stmt = self.0.prepare_cached(
            "SELECT g.room_id, g.finished_at, g.scores, g.setup, r.status = 'abandoned',
                    g.record_format, g.rules_version
             FROM games g JOIN rooms r ON r.id = g.room_id
             WHERE g.finished_at IS NOT NULL
             ORDER BY g.finished_at DESC, g.room_id LIMIT ?1",
        )?;
        let rows = stmt.query_map(params![limit], |r| {
            Ok(FinishedGame {
                room_id: r.get(0)?,
                finished_at: r.get(1)?,
                scores: r.get(2)?,
                setup: r.get(3)?,
                version: RecordVersion {
                    format: r.get(5)?,
                    rules: r.get(6)?,
                },
                abandoned: r.get(4)?,
                seats: Vec::new(),
            })
        })?;
        let mut games: Vec<FinishedGame> = rows.collect::<rusqlite::Result<_>>()?;
        for g in &mut games {
            g.seats = self.seats(&g.room_id)?;
        }
        Ok(games)
    }

    /// Ids and reasons of rooms marked broken, newest first (at most `limit`).
    pub fn broken_rooms(&self, limit: u32) -> Result<Vec<(String, String)>> {
        let mut stmt = self.0.prepare(
            "SELECT id, COALESCE(broken_reason, '') FROM rooms WHERE status = 'broken'
             ORDER BY created_at DESC, id LIMIT ?1",
        )?;
        let rows = stmt.query_map(params![limit], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// `PRAGMA integrity_check`: "ok" when the file is sound.
    pub fn integrity_check(&self) -> Result<String> {
        Ok(self
            .0
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))?)
    }
}

/// Applies one write inside the batch's transaction (and the caller's savepoint).
fn apply(tx: &Transaction, w: &Write) -> Result<()> {
    match w {
        Write::SaveRoom { room, seats } => {
            tx.prepare_cached(
                "INSERT INTO rooms (id, settings, status, broken_reason, created_at, host)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT(id) DO UPDATE SET settings = ?2, host = ?6",
            )?
            .execute(params![
                room.id,
                room.settings,
                room.status.as_str(),
                room.broken_reason,
                room.created_at,
                room.host
            ])?;
            tx.prepare_cached("DELETE FROM seats WHERE room_id = ?1")?
                .execute(params![room.id])?;
            let mut insert = tx.prepare_cached(
                "INSERT INTO seats (room_id, seat, name, token_hash, bot, last_command)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for s in seats {
                insert.execute(params![
                    room.id,
                    s.seat,
                    s.name,
                    s.token_hash,
                    s.bot,
                    s.last_command as i64
                ])?;
            }
        }
        Write::CloseRoom { id } => {
            // Only a room without a game: finished games are history, unfinished ones
            // reopen on the next start.
            tx.prepare_cached(
                "DELETE FROM seats WHERE room_id = ?1
                 AND NOT EXISTS (SELECT 1 FROM games WHERE room_id = ?1)",
            )?
            .execute(params![id])?;
            tx.prepare_cached(
                "DELETE FROM rooms WHERE id = ?1
                 AND NOT EXISTS (SELECT 1 FROM games WHERE room_id = ?1)",
            )?
            .execute(params![id])?;
        }
        Write::SetStatus { id, status, reason } => {
            let n = tx
                .prepare_cached("UPDATE rooms SET status = ?2, broken_reason = ?3 WHERE id = ?1")?
                .execute(params![id, status.as_str(), reason])?;
            if n == 0 {
                return Err(StoreError::NoRoom(id.clone()));
            }
        }
        Write::StartGame {
            room_id,
            setup,
            version,
            seed,
            hash,
            now,
            command,
        } => {
            tx.prepare_cached(
                "INSERT INTO games (room_id, setup, seed, last_hash, started_at,
                                    record_format, rules_version)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                room_id,
                setup,
                seed.to_string(),
                hash,
                now,
                version.format,
                version.rules
            ])?;
            tx.prepare_cached("UPDATE rooms SET status = 'playing' WHERE id = ?1")?
                .execute(params![room_id])?;
            if let Some((seat, id)) = command {
                note_command(tx, room_id, *seat, *id)?;
            }
        }
        Write::AppendReply {
            room_id,
            seq,
            player,
            reply,
            hash,
            now,
            command,
        } => {
            let next: i64 = tx
                .prepare_cached(
                    // The primary key (room_id, seq) answers this from the index, unlike
                    // COUNT(*). `+?1`, not `?1`: with a bare parameter SQLite (built with
                    // STAT4, as the bundled one is) re-prepares the statement at every
                    // new binding, which was 5% of the server's CPU under load; the plan
                    // is the same index search.
                    "SELECT COALESCE(MAX(seq) + 1, 0) FROM replies WHERE room_id = +?1",
                )?
                .query_row(params![room_id], |r| r.get(0))?;
            if next as u64 != *seq {
                return Err(StoreError::OutOfOrder {
                    room: room_id.clone(),
                    expected: next as u64,
                    got: *seq,
                });
            }
            tx.prepare_cached(
                "INSERT INTO replies (room_id, seq, player, reply, state_hash, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![room_id, *seq as i64, player, reply, hash, now])?;
            let n = tx
                .prepare_cached("UPDATE games SET last_hash = ?2 WHERE room_id = ?1")?
                .execute(params![room_id, hash])?;
            if n == 0 {
                return Err(StoreError::NoGame(room_id.clone()));
            }
            if let Some(id) = command {
                note_command(tx, room_id, *player, *id)?;
            }
        }
        Write::FinishGame {
            room_id,
            scores,
            now,
        } => {
            let n = tx
                .prepare_cached(
                    "UPDATE games SET scores = ?2, finished_at = ?3 WHERE room_id = ?1",
                )?
                .execute(params![room_id, scores, now])?;
            if n == 0 {
                return Err(StoreError::NoGame(room_id.clone()));
            }
            tx.prepare_cached("UPDATE rooms SET status = 'finished' WHERE id = ?1")?
                .execute(params![room_id])?;
        }
        Write::AbandonGame { room_id, now } => {
            let n = tx
                .prepare_cached(
                    "UPDATE games SET finished_at = ?2 WHERE room_id = ?1 AND finished_at IS NULL",
                )?
                .execute(params![room_id, now])?;
            if n == 0 {
                return Err(StoreError::NoGame(room_id.clone()));
            }
            tx.prepare_cached("UPDATE rooms SET status = 'abandoned' WHERE id = ?1")?
                .execute(params![room_id])?;
        }
        Write::TruncateReplies {
            room_id,
            keep,
            hash,
        } => {
            let n = tx
                .prepare_cached(
                    "UPDATE games SET last_hash = ?2 WHERE room_id = ?1 AND finished_at IS NULL",
                )?
                .execute(params![room_id, hash])?;
            if n == 0 {
                return Err(StoreError::NoGame(room_id.clone()));
            }
            let deleted = tx
                .prepare_cached("DELETE FROM replies WHERE room_id = ?1 AND seq >= ?2")?
                .execute(params![room_id, *keep as i64])?;
            if deleted == 0 || deleted > MAX_TAKEN_BACK {
                return Err(StoreError::Rewrite {
                    room: room_id.clone(),
                    reason: format!("taking back {deleted} replies after {keep}"),
                });
            }
        }
        Write::RewriteRecord {
            room_id,
            format,
            setup,
            replies,
            scores,
        } => {
            let stored: i64 = tx
                .prepare_cached("SELECT COUNT(*) FROM replies WHERE room_id = ?1")?
                .query_row(params![room_id], |r| r.get(0))?;
            if stored != replies.len() as i64 {
                return Err(StoreError::Rewrite {
                    room: room_id.clone(),
                    reason: format!("{} replies given for {stored} stored", replies.len()),
                });
            }
            let n = tx
                .prepare_cached(
                    "UPDATE games SET record_format = ?2, setup = ?3,
                                      scores = COALESCE(?4, scores)
                     WHERE room_id = ?1",
                )?
                .execute(params![room_id, format, setup, scores])?;
            if n == 0 {
                return Err(StoreError::NoGame(room_id.clone()));
            }
            let mut update =
                tx.prepare_cached("UPDATE replies SET reply = ?3 WHERE room_id = ?1 AND seq = ?2")?;
            for (seq, reply) in replies.iter().enumerate() {
                if update.execute(params![room_id, seq as i64, reply])? != 1 {
                    return Err(StoreError::Rewrite {
                        room: room_id.clone(),
                        reason: format!("reply {seq} is missing from the log"),
                    });
                }
            }
        }
    }
    Ok(())
}

/// Raises a seat's last command id (never lowers it).
fn note_command(tx: &Transaction, room_id: &str, seat: u8, id: u64) -> Result<()> {
    tx.prepare_cached(
        "UPDATE seats SET last_command = MAX(last_command, ?3) WHERE room_id = ?1 AND seat = ?2",
    )?
    .execute(params![room_id, seat, id as i64])?;
    Ok(())
}

/// Creates, writes, syncs and removes a file in `dir`.
fn check_dir_writable(dir: &Path) -> Result<()> {
    let probe = dir.join(DIR_CHECK_FILE);
    let attempt = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&probe)?;
        f.write_all(b"dominion-server start-up check\n")?;
        f.sync_all()?;
        drop(f);
        std::fs::remove_file(&probe)
    };
    attempt().map_err(|e| StoreError::NotWritable {
        what: "the data directory",
        path: dir.to_path_buf(),
        reason: e.to_string(),
    })
}

/// A failure to write during `open` reads as "not writable" (with SQLite's own words);
/// anything else keeps its meaning (a newer schema, a corrupt file).
fn writable_or(e: StoreError, not_writable: &impl Fn(String) -> StoreError) -> StoreError {
    use rusqlite::ErrorCode::{CannotOpen, ReadOnly};
    match &e {
        StoreError::Sqlite(rusqlite::Error::SqliteFailure(f, _))
            if matches!(f.code, ReadOnly | CannotOpen) =>
        {
            not_writable(e.to_string())
        }
        _ => e,
    }
}

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn room_row(r: &rusqlite::Row) -> rusqlite::Result<RoomRow> {
    let status: String = r.get(2)?;
    Ok(RoomRow {
        id: r.get(0)?,
        settings: r.get(1)?,
        status: RoomStatus::parse(&status),
        broken_reason: r.get(3)?,
        created_at: r.get(4)?,
        host: r.get(5)?,
    })
}
