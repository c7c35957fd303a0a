//! WAL checkpoints on a thread of their own, off the writer's commit path.
//!
//! By default SQLite checkpoints inside the commit that takes the WAL past 1,000 pages:
//! that commit copies the pages into the database file and syncs it before it returns,
//! so every reply in its group — and every group queued behind it — waits for a second
//! file's sync. Under load (a few pages per reply, thousands of replies a second) that
//! happened every few tens of milliseconds and was what the slowest replies waited for
//! (docs/load.md, *Server CPU per decision (issue 28)*).
//!
//! So the writer's connection never checkpoints (`wal_autocheckpoint = 0`), and this
//! thread runs a `PASSIVE` checkpoint on its own connection every [`EVERY`]: it copies
//! what no reader still needs and never blocks the writer, which keeps appending
//! meanwhile. Nothing about durability changes: a commit is durable once its WAL frames
//! are synced, as before; a checkpoint only moves committed pages into the main file.
//!
//! **Keeping the WAL bounded.** SQLite writes the WAL from its beginning again only at a
//! write transaction that starts after a checkpoint copied *every* frame. Under steady
//! load the writer commits every millisecond or two and this thread's checkpoint (a copy
//! and a sync of the database file) never finishes between two commits, so the WAL grew
//! without end: 318 MB after 12 s at 50 rooms. So the writer's connection has a WAL hook
//! ([`finish_when_long`]): after a commit that leaves [`RESTART_AT`] frames or more in
//! the WAL, the writer itself runs a `PASSIVE` checkpoint — between two of its own
//! transactions, so no new frame can slip in — which copies only what this thread has not
//! copied yet, and its next transaction starts the WAL over. The writer pays one sync of
//! the database file per `RESTART_AT` frames; this thread still does the bulk of the
//! copying.

use crate::Result;
use rusqlite::hooks::Wal;
use rusqlite::wal::CheckpointMode;
use rusqlite::{Connection, ErrorCode};
use std::ffi::c_int;
use std::path::Path;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the thread checkpoints: often enough that the WAL stays a few megabytes
/// under load, rarely enough that a page written many times in between is copied once.
pub const EVERY: Duration = Duration::from_millis(200);

/// WAL frames after which the writer finishes a checkpoint itself, so that the WAL
/// starts over: 4,096 frames of a 4 KiB page are 16 MiB, about a tenth of a second of
/// writes at 50 busy rooms.
pub const RESTART_AT: c_int = 4096;

/// The writer connection's WAL hook (see the module docs): called by SQLite after each
/// commit with the WAL's frame count. It never fails the commit, which has happened
/// already: a checkpoint that cannot run now (this thread is checkpointing: `BUSY`) or
/// fails is tried again after the next commit.
pub fn finish_when_long(wal: &mut Wal, frames: c_int) -> rusqlite::Result<()> {
    if frames >= RESTART_AT {
        match wal.checkpoint_v2(CheckpointMode::PASSIVE) {
            Ok(_) => {}
            Err(e) if e.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) => {}
            Err(e) => {
                tracing::warn!(error = %e, frames, "SQLite WAL checkpoint by the writer failed; retrying after the next commit")
            }
        }
    }
    Ok(())
}

/// The checkpointing thread of one store; stops (and joins) when dropped.
#[derive(Debug)]
pub struct Checkpointer {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts checkpointing the database at `path` (already in WAL mode: the writer's
    /// connection set it). The connection is opened here, so an error is the caller's.
    pub fn start(path: &Path) -> Result<Checkpointer> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || run(&conn, &stopped))
            .map_err(crate::StoreError::CheckpointThread)?;
        Ok(Checkpointer {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

fn run(conn: &Connection, stopped: &mpsc::Receiver<()>) {
    // A message or a dropped sender both mean stop; only the timeout means "again".
    while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(EVERY) {
        if let Err(e) = checkpoint(conn) {
            // A failed checkpoint loses nothing (the pages stay in the WAL, which the
            // next one copies); say so and try again.
            tracing::warn!(error = %e, "SQLite WAL checkpoint failed; retrying");
        }
    }
}

/// One `PASSIVE` checkpoint: (WAL frames, frames copied into the database).
pub fn checkpoint(conn: &Connection) -> rusqlite::Result<(i64, i64)> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
        Ok((r.get(1)?, r.get(2)?))
    })
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Durability, Store};

    /// The writing connection of a store opened on a data directory.
    fn writer_connection(store: &Store) -> &Connection {
        let crate::Backend::Sqlite(sqlite) = &store.0 else {
            unreachable!("a data directory opens SQLite")
        };
        sqlite.connection()
    }

    #[test]
    fn the_writer_never_checkpoints_and_the_thread_copies_the_wal_into_the_database() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), Durability::Full).unwrap();
        let conn = writer_connection(&store);
        let setting: i64 = conn
            .query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0))
            .unwrap();
        assert_eq!(setting, 0, "the writer's commits must not checkpoint");
        // The database as the writer sees it (through the WAL): this many bytes.
        let pages: i64 = conn
            .query_row("PRAGMA page_count", [], |r| r.get(0))
            .unwrap();
        let page_size: i64 = conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .unwrap();
        let wal = dir.path().join(format!("{}-wal", crate::DB_FILE));
        assert!(
            std::fs::metadata(&wal).unwrap().len() > 0,
            "the schema's pages went to the WAL"
        );
        // Only a checkpoint puts the last of them into the main file, and the writer runs
        // none: the thread must.
        let db = dir.path().join(crate::DB_FILE);
        let hang_stop = std::time::Instant::now() + Duration::from_secs(30);
        while std::fs::metadata(&db).unwrap().len() < (pages * page_size) as u64 {
            assert!(
                std::time::Instant::now() < hang_stop,
                "no checkpoint in 30 s"
            );
            std::thread::sleep(EVERY / 4);
        }
        // Dropping the store stops and joins the thread (the test would hang otherwise).
        drop(store);
    }

    #[test]
    fn under_commits_without_a_pause_the_wal_starts_over_instead_of_growing() {
        let dir = tempfile::tempdir().unwrap();
        // `Normal`: commits without a sync, so that they follow each other far faster
        // than the thread's checkpoints, as a busy server's do.
        let store = Store::open(dir.path(), Durability::Normal).unwrap();
        let conn = writer_connection(&store);
        conn.execute_batch("CREATE TABLE wal_test (x BLOB)")
            .unwrap();
        let page_size: i64 = conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .unwrap();
        let page_size = page_size as u64;
        // Each commit writes a page of its own (and the tree's pages above it): about
        // six times RESTART_AT frames in all, which a WAL that never starts over holds.
        let blob = vec![7u8; page_size as usize * 3 / 4];
        for _ in 0..2 * RESTART_AT {
            conn.execute("INSERT INTO wal_test (x) VALUES (?1)", [&blob])
                .unwrap();
        }
        let wal = dir.path().join(format!("{}-wal", crate::DB_FILE));
        let len = std::fs::metadata(&wal).unwrap().len();
        // A frame is a page and its 24-byte header; the WAL's header is 32 bytes. Twice
        // RESTART_AT leaves room for commits while the thread held the checkpoint.
        let bound = 2 * RESTART_AT as u64 * (page_size + 24) + 32;
        assert!(
            len <= bound,
            "the WAL grew to {len} bytes (bound {bound}): it never started over"
        );
        let rows: i64 = conn
            .query_row("SELECT count(*) FROM wal_test", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 2 * RESTART_AT as i64, "every commit stood");
    }
}
