//! The SQLite schema and its migrations, versioned by `PRAGMA user_version`.
//!
//! Each migration runs once, in order, in a transaction; a database written by a newer
//! server is refused rather than misread. docs/storage.md describes every version.
//! The caller turns foreign keys off while migrating (a migration may rebuild a table
//! others reference, and SQLite ignores that pragma inside a transaction); each migration
//! ends by checking every foreign key, so a bad rebuild rolls back instead of committing.

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
    // 2: the status 'abandoned' (SQLite cannot alter a CHECK: the table is rebuilt, the
    // way its documentation prescribes), each seat's last command id, and the table the
    // start-up check writes to.
    "CREATE TABLE rooms_v2 (
        id TEXT PRIMARY KEY,
        settings TEXT NOT NULL,
        status TEXT NOT NULL
            CHECK (status IN ('open', 'playing', 'finished', 'broken', 'abandoned')),
        broken_reason TEXT,
        created_at INTEGER NOT NULL
    );
    INSERT INTO rooms_v2 (id, settings, status, broken_reason, created_at)
        SELECT id, settings, status, broken_reason, created_at FROM rooms;
    DROP TABLE rooms;
    ALTER TABLE rooms_v2 RENAME TO rooms;
    ALTER TABLE seats ADD COLUMN last_command INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE write_check (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        at INTEGER NOT NULL
    );",
    // 3: how each game's setup and replies are encoded, and the engine rules version it
    // is played under. Games stored before carry the engine's own serde format (1) and
    // the rules of that release (1).
    "ALTER TABLE games ADD COLUMN record_format INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE games ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1;",
    // 4: the room's host (the seat that may put bots in open seats before the start);
    // NULL for rooms stored before, which then get one when a seat is next taken.
    "ALTER TABLE rooms ADD COLUMN host INTEGER;",
    // 5: fencing, for several nodes sharing one database. `room_fences` holds each
    // room's current owner and token; `room_claims` every claim ever made, for audit;
    // each reply keeps the fence it was written under (NULL: written unfenced, as a
    // single server does, and every reply stored before).
    "CREATE TABLE room_fences (
        room_id TEXT PRIMARY KEY,
        token INTEGER NOT NULL,
        node TEXT NOT NULL,
        at INTEGER NOT NULL
    );
    CREATE TABLE room_claims (
        room_id TEXT NOT NULL,
        token INTEGER NOT NULL,
        node TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (room_id, token)
    );
    ALTER TABLE replies ADD COLUMN writer_node TEXT;
    ALTER TABLE replies ADD COLUMN writer_token INTEGER;",
    // 6: the key the nodes of a cluster vouch for each other with (one row, written by
    // the first node that starts and read by every other), so that they agree on it
    // whatever happens to Redis. A cluster needs PostgreSQL; SQLite gets the table too,
    // so both backends keep one list of versions.
    "CREATE TABLE cluster_key (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        node_key TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );",
    // 7: accounts (docs/storage.md): players with a name that lasts, their sign-in
    // sessions and API tokens (kept as SHA-256 only), blocks, reported chat lines, and
    // which seat of which room an account sat in (`seat_accounts`, beside `seats`: the
    // games' writer rewrites a room's seats whole, and accounts are written by a
    // connection of their own). No foreign key to `rooms`: a room that closes before its
    // game starts is deleted, and its links mean nothing then.
    "CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        folded TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        bot INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        banned_at INTEGER
    );
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        hash BLOB NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        last_used INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    );
    CREATE INDEX sessions_account ON sessions(account_id);
    CREATE TABLE api_tokens (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        label TEXT NOT NULL,
        hash BLOB NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        last_used INTEGER,
        revoked_at INTEGER
    );
    CREATE INDEX api_tokens_account ON api_tokens(account_id);
    CREATE TABLE blocks (
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        blocked_id INTEGER NOT NULL REFERENCES accounts(id),
        created_at INTEGER NOT NULL,
        PRIMARY KEY (account_id, blocked_id)
    );
    CREATE TABLE reports (
        id INTEGER PRIMARY KEY,
        room_id TEXT NOT NULL,
        line INTEGER NOT NULL,
        text TEXT NOT NULL,
        speaker TEXT NOT NULL,
        reporter_id INTEGER REFERENCES accounts(id),
        reason TEXT,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE seat_accounts (
        room_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        name TEXT NOT NULL,
        PRIMARY KEY (room_id, seat)
    );
    CREATE INDEX seat_accounts_account ON seat_accounts(account_id);",
    // 8: ratings and what players choose (docs/storage.md): each account's Glicko-2
    // rating per pool, every change with the game that caused it (one row per game and
    // account, so a game is never rated twice), the cards an account bans or dislikes,
    // and whom it follows.
    "CREATE TABLE ratings (
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        pool TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        last_game_at INTEGER NOT NULL,
        PRIMARY KEY (account_id, pool)
    );
    CREATE TABLE rating_changes (
        room_id TEXT NOT NULL,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        pool TEXT NOT NULL,
        rating_before REAL NOT NULL,
        deviation_before REAL NOT NULL,
        volatility_before REAL NOT NULL,
        rating_after REAL NOT NULL,
        deviation_after REAL NOT NULL,
        volatility_after REAL NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (room_id, account_id)
    );
    CREATE INDEX rating_changes_account ON rating_changes(account_id, pool, at);
    CREATE TABLE card_prefs (
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        card TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('ban', 'dislike')),
        PRIMARY KEY (account_id, card)
    );
    CREATE TABLE follows (
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        followed_id INTEGER NOT NULL REFERENCES accounts(id),
        created_at INTEGER NOT NULL,
        PRIMARY KEY (account_id, followed_id)
    );
    CREATE INDEX follows_followed ON follows(followed_id);",
    // 9: game reviews (docs/storage.md): one analysis per ended game, its status and
    // lease (who computes it, until when), each decision's review as it is made and the
    // final result.
    "CREATE TABLE analyses (
        room_id TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
        total INTEGER,
        result TEXT,
        error TEXT,
        lease_node TEXT,
        lease_until INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    );
    CREATE INDEX analyses_status ON analyses(status);
    CREATE TABLE analysis_decisions (
        room_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        review TEXT NOT NULL,
        PRIMARY KEY (room_id, version, idx)
    );",
    // 10: game snapshots (docs/storage.md): the engine's published snapshot of a game
    // every so many replies, with the reply count it covers, its format and rules
    // versions and the state digest there, so a room reopens without replaying its log.
    "CREATE TABLE snapshots (
        room_id TEXT NOT NULL,
        upto INTEGER NOT NULL,
        format INTEGER NOT NULL,
        rules_version INTEGER NOT NULL,
        digest TEXT NOT NULL,
        body TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (room_id, upto)
    );",
    // 11: each reply keeps the id of the command that carried it (docs/storage.md): a
    // reply writes one row, and the game's digest and a seat's last command id are read
    // from its newest replies (`games.last_hash` and `seats.last_command` stay for
    // the replies written before, and for the undo's digest).
    "ALTER TABLE replies ADD COLUMN command INTEGER;",
];

/// The schema version this build writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

pub fn migrate(conn: &Connection) -> Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > VERSION {
        return Err(StoreError::SchemaTooNew {
            found: version,
            supported: VERSION,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.unchecked_transaction()?;
        tx.execute_batch(sql)?;
        let dangling: Option<String> = tx
            .query_row("PRAGMA foreign_key_check", [], |r| r.get(0))
            .ok();
        if let Some(table) = dangling {
            return Err(StoreError::Migration {
                version: i as i64 + 1,
                reason: format!("a row of {table} refers to nothing"),
            });
        }
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}

/// A reader refuses a file this build did not (or not yet) bring up to date.
pub fn check_current(version: i64) -> Result<()> {
    if version > VERSION {
        return Err(StoreError::SchemaTooNew {
            found: version,
            supported: VERSION,
        });
    }
    if version < VERSION {
        return Err(StoreError::Migration {
            version: VERSION,
            reason: format!("the file is at version {version}; open the Store first"),
        });
    }
    Ok(())
}

/// The first migration's SQL: what a database of the first release holds. Tests build
/// such files to prove that upgrades keep every game.
#[doc(hidden)]
pub fn v1_sql() -> &'static str {
    MIGRATIONS[0]
}
