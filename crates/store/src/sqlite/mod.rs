//! The embedded SQLite backend: one file, `dominion.sqlite3`, in the data directory, in
//! WAL mode, `synchronous=FULL` unless the operator chose `normal`. The default: nothing
//! to install or run beside the server.
//!
//! One connection writes (the server gives it to a single writer thread, and SQLite
//! itself allows one writer at a time, so fence checks need no lock of their own); any
//! number of readers read at the same time, which WAL allows. WAL checkpoints run on a
//! thread of their own (`checkpoint`), not inside the writer's commits; the writer only
//! finishes one when the WAL has grown long, so that it starts over.

pub mod checkpoint;
pub mod read;
pub mod schema;

use crate::{Durability, Fence, MAX_TAKEN_BACK, Result, Step, StoreError, Write, now_secs};
use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The file the start-up check creates (and removes) in the data directory.
const DIR_CHECK_FILE: &str = ".dominion-write-check";

pub struct SqliteStore {
    conn: Connection,
    path: PathBuf,
    /// Dropped after `conn`'s writes stop mattering: it joins its thread on drop.
    _checkpointer: checkpoint::Checkpointer,
    /// Whether replies also update `games.last_hash` and `seats.last_command`
    /// (`crate::LegacyColumns`).
    pub(crate) legacy: crate::LegacyColumns,
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
    // The checkpoint thread copies the WAL into the database; this connection's commits
    // never do (see `checkpoint`).
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    // Every statement of every write kind stays prepared (about 25 of them).
    conn.set_prepared_statement_cache_capacity(64);
    Ok(())
}

impl SqliteStore {
    /// See `Store::open`.
    pub fn open(data_dir: &Path, durability: Durability) -> Result<SqliteStore> {
        std::fs::create_dir_all(data_dir).map_err(|source| StoreError::DataDir {
            path: data_dir.to_path_buf(),
            source,
        })?;
        check_dir_writable(data_dir)?;
        let path = data_dir.join(crate::DB_FILE);
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
        let checkpointer = checkpoint::Checkpointer::start(&path)?;
        // After `configure`: setting `wal_autocheckpoint` replaces a connection's WAL hook.
        let mut conn = conn;
        conn.wal_hook(Some(checkpoint::finish_when_long))?;
        let store = SqliteStore {
            conn,
            path: path.clone(),
            _checkpointer: checkpointer,
            legacy: crate::LegacyColumns::default(),
        };
        store
            .write_check()
            .map_err(|e| writable_or(e, &not_writable))?;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn connection(&self) -> &Connection {
        &self.conn
    }

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

    /// See `Store::write_batch`: first without savepoints, and only after a refusal once
    /// more with one per write.
    pub fn write_batch<S: Step>(&mut self, steps: &[S]) -> Result<Vec<Result<()>>> {
        let legacy = self.legacy.is_on();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut refused = false;
        for s in steps {
            if apply(&tx, legacy, s.fence(), s.write()).is_err() {
                refused = true;
                break;
            }
        }
        if !refused {
            tx.commit()?;
            return Ok(steps.iter().map(|_| Ok(())).collect());
        }
        tx.rollback()?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut results = Vec::with_capacity(steps.len());
        for s in steps {
            tx.prepare_cached("SAVEPOINT w")?.execute([])?;
            let r = apply(&tx, legacy, s.fence(), s.write());
            if r.is_err() {
                tx.prepare_cached("ROLLBACK TO w")?.execute([])?;
            }
            tx.prepare_cached("RELEASE w")?.execute([])?;
            results.push(r);
        }
        tx.commit()?;
        Ok(results)
    }
}

/// See `crate::cluster_key`, on a connection of its own (the store must be open: it
/// brings the schema up to date).
pub fn cluster_key(data_dir: &Path, candidate: &str) -> Result<String> {
    let conn = Connection::open(data_dir.join(crate::DB_FILE))?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    schema::check_current(version)?;
    conn.execute(
        "INSERT INTO cluster_key (id, node_key, created_at) VALUES (1, ?1, ?2)
         ON CONFLICT(id) DO NOTHING",
        params![candidate, now_secs()],
    )?;
    Ok(
        conn.query_row("SELECT node_key FROM cluster_key WHERE id = 1", [], |r| {
            r.get(0)
        })?,
    )
}

/// Opens a read-only connection to the store in `data_dir`, whose schema must be current.
pub fn open_reader(data_dir: &Path) -> Result<Connection> {
    let conn = Connection::open(data_dir.join(crate::DB_FILE))?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "query_only", "ON")?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    schema::check_current(version)?;
    Ok(conn)
}

/// Refuses a write under `fence` unless the room's stored fence is that very one. The
/// single writer (`BEGIN IMMEDIATE`) makes the check and the write one serial step.
fn check_fence(tx: &Transaction, room: &str, fence: &Fence) -> Result<()> {
    let current: Option<(i64, String)> = tx
        .prepare_cached("SELECT token, node FROM room_fences WHERE room_id = ?1")?
        .query_row(params![room], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    match current {
        Some((token, node)) if token == fence.token && node == fence.node => Ok(()),
        other => Err(StoreError::Fenced {
            room: room.to_string(),
            token: fence.token,
            current: other.map(|(token, _)| token),
        }),
    }
}

/// Applies one write inside the batch's transaction (and the caller's savepoint);
/// `legacy`: a reply also updates the columns an earlier release reads
/// (`crate::LegacyColumns`).
fn apply(tx: &Transaction, legacy: bool, fence: Option<&Fence>, w: &Write) -> Result<()> {
    if let Some(fence) = fence
        && !matches!(w, Write::Claim { .. })
    {
        check_fence(tx, w.room(), fence)?;
    }
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
            // The game first: a reply for a room without one is refused as such, not as
            // a foreign-key violation. A room with replies has its game (they refer to
            // it, and games are never deleted), so only the first reply looks.
            let game = match (legacy, next) {
                (true, _) => tx
                    .prepare_cached("UPDATE games SET last_hash = ?2 WHERE room_id = ?1")?
                    .execute(params![room_id, hash])?,
                (false, 0) => tx
                    .prepare_cached("SELECT 1 FROM games WHERE room_id = ?1")?
                    .query_row(params![room_id], |_| Ok(1))
                    .optional()?
                    .unwrap_or(0),
                (false, _) => 1,
            };
            if game == 0 {
                return Err(StoreError::NoGame(room_id.clone()));
            }
            tx.prepare_cached(
                "INSERT INTO replies (room_id, seq, player, reply, state_hash, at,
                                      writer_node, writer_token, command)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?
            .execute(params![
                room_id,
                *seq as i64,
                player,
                reply,
                hash,
                now,
                fence.map(|f| &f.node),
                fence.map(|f| f.token),
                command.map(|id| id as i64)
            ])?;
            if let (true, Some(id)) = (legacy, command) {
                note_command(tx, room_id, *player, *id)?;
            }
        }
        Write::FinishGame {
            room_id,
            scores,
            now,
            rated,
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
            // An ended game is replayed if ever reopened: its snapshots are done with.
            crate::snapshots::sqlite::truncate(tx, room_id, 0)?;
            if let Some(outcome) = rated {
                crate::ratings::apply(&mut { tx }, room_id, outcome, *now)?;
            }
        }
        Write::AbandonGame {
            room_id,
            now,
            rated,
        } => {
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
            crate::snapshots::sqlite::truncate(tx, room_id, 0)?;
            if let Some(outcome) = rated {
                crate::ratings::apply(&mut { tx }, room_id, outcome, *now)?;
            }
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
            // A seat's last command id is read from its newest reply: one taken back
            // keeps its id in the seat's row, so that a command applied before the
            // undo is still known as applied.
            tx.prepare_cached(
                "UPDATE seats SET last_command = MAX(last_command, COALESCE(
                     (SELECT MAX(r.command) FROM replies r
                      WHERE r.room_id = ?1 AND r.player = seats.seat AND r.seq >= ?2), 0))
                 WHERE room_id = ?1",
            )?
            .execute(params![room_id, *keep as i64])?;
            let deleted = tx
                .prepare_cached("DELETE FROM replies WHERE room_id = ?1 AND seq >= ?2")?
                .execute(params![room_id, *keep as i64])?;
            if deleted == 0 || deleted > MAX_TAKEN_BACK {
                return Err(StoreError::Rewrite {
                    room: room_id.clone(),
                    reason: format!("taking back {deleted} replies after {keep}"),
                });
            }
            crate::snapshots::sqlite::truncate(tx, room_id, *keep)?;
        }
        Write::SaveSnapshot {
            room_id,
            snapshot,
            now,
        } => crate::snapshots::sqlite::save(tx, room_id, snapshot, *now)?,
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
        Write::Claim {
            room_id,
            node,
            token,
            now,
        } => {
            let n = tx
                .prepare_cached(
                    "INSERT INTO room_fences (room_id, token, node, at) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT(room_id) DO UPDATE
                        SET token = excluded.token, node = excluded.node, at = excluded.at
                        WHERE excluded.token > room_fences.token",
                )?
                .execute(params![room_id, token, node, now])?;
            if n == 0 {
                let current: Option<i64> = tx
                    .prepare_cached("SELECT token FROM room_fences WHERE room_id = ?1")?
                    .query_row(params![room_id], |r| r.get(0))
                    .optional()?;
                return Err(StoreError::Fenced {
                    room: room_id.clone(),
                    token: *token,
                    current,
                });
            }
            tx.prepare_cached(
                "INSERT INTO room_claims (room_id, token, node, at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![room_id, token, node, now])?;
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
