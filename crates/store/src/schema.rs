//! The schema and its migrations, versioned by `PRAGMA user_version`.
//!
//! Each migration runs once, in order, in a transaction; a database written by a newer
//! server is refused rather than misread.

use crate::{Result, StoreError};
use rusqlite::Connection;

const MIGRATIONS: &[&str] = &[
    // 1: rooms, seats, games, replies.
    "CREATE TABLE rooms (
        id TEXT PRIMARY KEY,
        settings TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'broken')),
        broken_reason TEXT,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE seats (
        room_id TEXT NOT NULL REFERENCES rooms(id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        token_hash BLOB,
        bot TEXT,
        PRIMARY KEY (room_id, seat)
    );
    CREATE TABLE games (
        room_id TEXT PRIMARY KEY REFERENCES rooms(id),
        setup TEXT NOT NULL,
        seed TEXT NOT NULL,
        last_hash TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        scores TEXT
    );
    CREATE TABLE replies (
        room_id TEXT NOT NULL REFERENCES games(room_id),
        seq INTEGER NOT NULL,
        player INTEGER NOT NULL,
        reply TEXT NOT NULL,
        state_hash TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (room_id, seq)
    );
    CREATE INDEX games_finished ON games(finished_at);",
];

pub fn migrate(conn: &Connection) -> Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let supported = MIGRATIONS.len() as i64;
    if version > supported {
        return Err(StoreError::SchemaTooNew {
            found: version,
            supported,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.unchecked_transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}
