//! Durable storage for rooms, games and reply logs in an embedded SQLite file.
//!
//! The store knows nothing of the engine or the wire: settings, setups, replies and scores
//! are JSON text the server produces, so the schema never has to follow engine types.
//! What it guarantees is ordering and durability: [`Store::append_reply`] writes one
//! reply (and the state hash after it) in one transaction, and returns only once SQLite
//! has committed it — with `synchronous=FULL` (the default), once it is on disk. The
//! server sends nothing about a reply before that returns, so an acknowledged reply is
//! never lost, even to `kill -9`.

mod schema;

use rusqlite::{Connection, OptionalExtension, params};
use std::path::{Path, PathBuf};

/// The file name inside the data directory.
pub const DB_FILE: &str = "dominion.sqlite3";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("cannot create data directory {path}: {source}")]
    DataDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("reply {got} for room {room} is out of order (expected {expected})")]
    OutOfOrder {
        room: String,
        expected: u64,
        got: u64,
    },
    #[error("room {0} has no game")]
    NoGame(String),
    #[error("database schema version {found} is newer than this server understands ({supported})")]
    SchemaTooNew { found: i64, supported: i64 },
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
}

impl RoomStatus {
    fn as_str(self) -> &'static str {
        match self {
            RoomStatus::Open => "open",
            RoomStatus::Playing => "playing",
            RoomStatus::Finished => "finished",
            RoomStatus::Broken => "broken",
        }
    }
    fn parse(s: &str) -> RoomStatus {
        match s {
            "playing" => RoomStatus::Playing,
            "finished" => RoomStatus::Finished,
            "broken" => RoomStatus::Broken,
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
}

/// One seat. Tokens are never stored, only their hashes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    pub seat: u8,
    pub name: String,
    pub token_hash: Option<Vec<u8>>,
    pub bot: Option<String>,
}

/// A game's record: enough to rebuild it through the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub room_id: String,
    /// The engine setup, as JSON.
    pub setup: String,
    pub seed: u64,
    /// Accepted replies in order: (player, reply JSON).
    pub replies: Vec<(u8, String)>,
    /// The state hash after the last reply (or after setup if none).
    pub last_hash: String,
    pub started_at: i64,
    pub finished_at: Option<i64>,
    /// Final scores JSON, once finished.
    pub scores: Option<String>,
}

/// A finished game in a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    pub room_id: String,
    pub finished_at: i64,
    pub scores: String,
    pub setup: String,
}

pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the store in `data_dir`.
    pub fn open(data_dir: &Path, durability: Durability) -> Result<Store> {
        std::fs::create_dir_all(data_dir).map_err(|source| StoreError::DataDir {
            path: data_dir.to_path_buf(),
            source,
        })?;
        let path = data_dir.join(DB_FILE);
        let conn = Connection::open(&path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(
            None,
            "synchronous",
            match durability {
                Durability::Full => "FULL",
                Durability::Normal => "NORMAL",
            },
        )?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        schema::migrate(&conn)?;
        Ok(Store { conn, path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Inserts a room or updates its settings and seats, in one transaction. An existing
    /// room keeps its status: that moves only by `start_game`, `finish_game`, `set_status`.
    pub fn save_room(&mut self, room: &RoomRow, seats: &[SeatRow]) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO rooms (id, settings, status, broken_reason, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT(id) DO UPDATE SET settings = ?2",
            params![
                room.id,
                room.settings,
                room.status.as_str(),
                room.broken_reason,
                room.created_at
            ],
        )?;
        tx.execute("DELETE FROM seats WHERE room_id = ?1", params![room.id])?;
        for s in seats {
            tx.execute(
                "INSERT INTO seats (room_id, seat, name, token_hash, bot) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![room.id, s.seat, s.name, s.token_hash, s.bot],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Deletes a room that never started (and its seats).
    pub fn delete_room(&mut self, id: &str) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute("DELETE FROM seats WHERE room_id = ?1", params![id])?;
        tx.execute("DELETE FROM rooms WHERE id = ?1", params![id])?;
        tx.commit()?;
        Ok(())
    }

    pub fn set_status(&mut self, id: &str, status: RoomStatus, reason: Option<&str>) -> Result<()> {
        self.conn.execute(
            "UPDATE rooms SET status = ?2, broken_reason = ?3 WHERE id = ?1",
            params![id, status.as_str(), reason],
        )?;
        Ok(())
    }

    /// Records a game's start (setup and seed) and marks the room playing, atomically.
    pub fn start_game(
        &mut self,
        room_id: &str,
        setup: &str,
        seed: u64,
        hash: &str,
        now: i64,
    ) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO games (room_id, setup, seed, last_hash, started_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![room_id, setup, seed.to_string(), hash, now],
        )?;
        tx.execute(
            "UPDATE rooms SET status = 'playing' WHERE id = ?1",
            params![room_id],
        )?;
        tx.commit()?;
        Ok(())
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
        let tx = self.conn.transaction()?;
        let next: i64 = tx.query_row(
            // The primary key (room_id, seq) answers this from the index, unlike COUNT(*).
            "SELECT COALESCE(MAX(seq) + 1, 0) FROM replies WHERE room_id = ?1",
            params![room_id],
            |r| r.get(0),
        )?;
        if next as u64 != seq {
            return Err(StoreError::OutOfOrder {
                room: room_id.to_string(),
                expected: next as u64,
                got: seq,
            });
        }
        tx.execute(
            "INSERT INTO replies (room_id, seq, player, reply, state_hash, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![room_id, seq as i64, player, reply, hash, now],
        )?;
        let n = tx.execute(
            "UPDATE games SET last_hash = ?2 WHERE room_id = ?1",
            params![room_id, hash],
        )?;
        if n == 0 {
            return Err(StoreError::NoGame(room_id.to_string()));
        }
        tx.commit()?;
        Ok(())
    }

    /// Records the end of a game and marks the room finished, atomically.
    pub fn finish_game(&mut self, room_id: &str, scores: &str, now: i64) -> Result<()> {
        let tx = self.conn.transaction()?;
        let n = tx.execute(
            "UPDATE games SET scores = ?2, finished_at = ?3 WHERE room_id = ?1",
            params![room_id, scores, now],
        )?;
        if n == 0 {
            return Err(StoreError::NoGame(room_id.to_string()));
        }
        tx.execute(
            "UPDATE rooms SET status = 'finished' WHERE id = ?1",
            params![room_id],
        )?;
        tx.commit()?;
        Ok(())
    }

    pub fn room(&self, id: &str) -> Result<Option<(RoomRow, Vec<SeatRow>)>> {
        let room = self
            .conn
            .query_row(
                "SELECT id, settings, status, broken_reason, created_at FROM rooms WHERE id = ?1",
                params![id],
                room_row,
            )
            .optional()?;
        let Some(room) = room else { return Ok(None) };
        let seats = self.seats(id)?;
        Ok(Some((room, seats)))
    }

    fn seats(&self, room_id: &str) -> Result<Vec<SeatRow>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT seat, name, token_hash, bot FROM seats WHERE room_id = ?1 ORDER BY seat",
        )?;
        let rows = stmt.query_map(params![room_id], |r| {
            Ok(SeatRow {
                seat: r.get(0)?,
                name: r.get(1)?,
                token_hash: r.get(2)?,
                bot: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Rooms that are open or playing (to reopen on start), with their seats.
    pub fn live_rooms(&self) -> Result<Vec<(RoomRow, Vec<SeatRow>)>> {
        self.rooms_to_reopen(i64::MAX)
    }

    /// Rooms to reopen on start: open or playing ones, and finished ones whose game ended
    /// at or after `finished_since` (so their players can still see the result).
    pub fn rooms_to_reopen(&self, finished_since: i64) -> Result<Vec<(RoomRow, Vec<SeatRow>)>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, settings, status, broken_reason, created_at FROM rooms
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
            .conn
            .query_row(
                "SELECT room_id, setup, seed, last_hash, started_at, finished_at, scores
                 FROM games WHERE room_id = ?1",
                params![room_id],
                |r| {
                    let seed: String = r.get(2)?;
                    Ok(GameRow {
                        room_id: r.get(0)?,
                        setup: r.get(1)?,
                        seed: seed.parse().unwrap_or_default(),
                        replies: Vec::new(),
                        last_hash: r.get(3)?,
                        started_at: r.get(4)?,
                        finished_at: r.get(5)?,
                        scores: r.get(6)?,
                    })
                },
            )
            .optional()?;
        let Some(mut game) = row else { return Ok(None) };
        let mut stmt = self
            .conn
            .prepare_cached("SELECT player, reply FROM replies WHERE room_id = ?1 ORDER BY seq")?;
        game.replies = stmt
            .query_map(params![room_id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(Some(game))
    }

    /// The most recently finished games, newest first.
    pub fn finished_games(&self, limit: u32) -> Result<Vec<FinishedGame>> {
        let mut stmt = self.conn.prepare(
            "SELECT room_id, finished_at, scores, setup FROM games
             WHERE finished_at IS NOT NULL ORDER BY finished_at DESC, room_id LIMIT ?1",
        )?;
        let rows = stmt.query_map(params![limit], |r| {
            Ok(FinishedGame {
                room_id: r.get(0)?,
                finished_at: r.get(1)?,
                scores: r.get(2)?,
                setup: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Ids and reasons of rooms marked broken, newest first (at most `limit`).
    pub fn broken_rooms(&self, limit: u32) -> Result<Vec<(String, String)>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, COALESCE(broken_reason, '') FROM rooms WHERE status = 'broken'
             ORDER BY created_at DESC, id LIMIT ?1",
        )?;
        let rows = stmt.query_map(params![limit], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// `PRAGMA integrity_check`: "ok" when the file is sound.
    pub fn integrity_check(&self) -> Result<String> {
        Ok(self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))?)
    }
}

fn room_row(r: &rusqlite::Row) -> rusqlite::Result<RoomRow> {
    let status: String = r.get(2)?;
    Ok(RoomRow {
        id: r.get(0)?,
        settings: r.get(1)?,
        status: RoomStatus::parse(&status),
        broken_reason: r.get(3)?,
        created_at: r.get(4)?,
    })
}
