//! The PostgreSQL schema and its versions: the same numbers as SQLite's (docs/storage.md),
//! kept in the one-row table `schema_version` instead of `PRAGMA user_version`.
//!
//! PostgreSQL came with schema version 5, so no PostgreSQL database holds an older one:
//! an empty database is created straight at version 5 by [`CREATE`], the five SQLite
//! steps as one. Every later version adds one step to [`STEPS`] here and one migration
//! to SQLite's list, under the same number. A database newer than the build is refused
//! (`SchemaTooNew`), never misread.
//!
//! Nodes starting together against one database must not create or migrate it twice:
//! the whole check-and-migrate is one transaction that first takes a transaction-level
//! advisory lock, so the others wait and then find the schema current.

use crate::{Result, StoreError};
use postgres::{Client, GenericClient};

/// The advisory lock key every node takes before it looks at the schema ("dominion" in
/// ASCII).
const MIGRATION_LOCK: i64 = 0x646f_6d69_6e69_6f6e;

/// The version [`CREATE`] makes.
const CREATED_AT: i64 = 5;

/// Schema version 5: what SQLite reaches after its migrations 1 to 5, with PostgreSQL's
/// types (`BIGINT` for every number, `BYTEA` for the token hashes).
const CREATE: &str = "
CREATE TABLE schema_version (version BIGINT NOT NULL);
CREATE TABLE rooms (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    status TEXT NOT NULL
        CHECK (status IN ('open', 'playing', 'finished', 'broken', 'abandoned')),
    broken_reason TEXT,
    created_at BIGINT NOT NULL,
    host BIGINT
);
CREATE TABLE seats (
    room_id TEXT NOT NULL REFERENCES rooms(id),
    seat BIGINT NOT NULL,
    name TEXT NOT NULL,
    token_hash BYTEA,
    bot TEXT,
    last_command BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (room_id, seat)
);
CREATE TABLE games (
    room_id TEXT PRIMARY KEY REFERENCES rooms(id),
    setup TEXT NOT NULL,
    seed TEXT NOT NULL,
    last_hash TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    finished_at BIGINT,
    scores TEXT,
    record_format BIGINT NOT NULL DEFAULT 1,
    rules_version BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX games_finished ON games(finished_at);
CREATE TABLE replies (
    room_id TEXT NOT NULL REFERENCES games(room_id),
    seq BIGINT NOT NULL,
    player BIGINT NOT NULL,
    reply TEXT NOT NULL,
    state_hash TEXT NOT NULL,
    at BIGINT NOT NULL,
    writer_node TEXT,
    writer_token BIGINT,
    PRIMARY KEY (room_id, seq)
);
CREATE TABLE write_check (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at BIGINT NOT NULL
);
CREATE TABLE room_fences (
    room_id TEXT PRIMARY KEY,
    token BIGINT NOT NULL,
    node TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE TABLE room_claims (
    room_id TEXT NOT NULL,
    token BIGINT NOT NULL,
    node TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (room_id, token)
);
";

/// The steps after [`CREATE`], in order: `(version, SQL)`, one version apart.
const STEPS: &[(i64, &str)] = &[
    // 6: the cluster's node key, one row (docs/storage.md).
    (
        6,
        "CREATE TABLE cluster_key (
            id BIGINT PRIMARY KEY CHECK (id = 1),
            node_key TEXT NOT NULL,
            created_at BIGINT NOT NULL
        );",
    ),
    // 7: accounts, sessions, API tokens, blocks, reports, seat links (docs/storage.md).
    (
        7,
        "CREATE TABLE accounts (
        id BIGSERIAL PRIMARY KEY,
        name TEXT NOT NULL,
        folded TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        bot BIGINT NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        banned_at BIGINT
    );
    CREATE TABLE sessions (
        id BIGSERIAL PRIMARY KEY,
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        hash BYTEA NOT NULL UNIQUE,
        created_at BIGINT NOT NULL,
        last_used BIGINT NOT NULL,
        expires_at BIGINT NOT NULL
    );
    CREATE INDEX sessions_account ON sessions(account_id);
    CREATE TABLE api_tokens (
        id BIGSERIAL PRIMARY KEY,
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        label TEXT NOT NULL,
        hash BYTEA NOT NULL UNIQUE,
        created_at BIGINT NOT NULL,
        last_used BIGINT,
        revoked_at BIGINT
    );
    CREATE INDEX api_tokens_account ON api_tokens(account_id);
    CREATE TABLE blocks (
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        blocked_id BIGINT NOT NULL REFERENCES accounts(id),
        created_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, blocked_id)
    );
    CREATE TABLE reports (
        id BIGSERIAL PRIMARY KEY,
        room_id TEXT NOT NULL,
        line BIGINT NOT NULL,
        text TEXT NOT NULL,
        speaker TEXT NOT NULL,
        reporter_id BIGINT REFERENCES accounts(id),
        reason TEXT,
        created_at BIGINT NOT NULL
    );
    CREATE TABLE seat_accounts (
        room_id TEXT NOT NULL,
        seat BIGINT NOT NULL,
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        name TEXT NOT NULL,
        PRIMARY KEY (room_id, seat)
    );
    CREATE INDEX seat_accounts_account ON seat_accounts(account_id);",
    ),
    (
        8,
        // 8: ratings and what players choose (docs/storage.md): each account's Glicko-2
        // rating per pool, every change with the game that caused it (one row per game and
        // account, so a game is never rated twice), the cards an account bans or dislikes,
        // and whom it follows.
        "CREATE TABLE ratings (
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        pool TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,
        last_game_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, pool)
    );
    CREATE TABLE rating_changes (
        room_id TEXT NOT NULL,
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        pool TEXT NOT NULL,
        rating_before DOUBLE PRECISION NOT NULL,
        deviation_before DOUBLE PRECISION NOT NULL,
        volatility_before DOUBLE PRECISION NOT NULL,
        rating_after DOUBLE PRECISION NOT NULL,
        deviation_after DOUBLE PRECISION NOT NULL,
        volatility_after DOUBLE PRECISION NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (room_id, account_id)
    );
    CREATE INDEX rating_changes_account ON rating_changes(account_id, pool, at);
    CREATE TABLE card_prefs (
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        card TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('ban', 'dislike')),
        PRIMARY KEY (account_id, card)
    );
    CREATE TABLE follows (
        account_id BIGINT NOT NULL REFERENCES accounts(id),
        followed_id BIGINT NOT NULL REFERENCES accounts(id),
        created_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, followed_id)
    );
    CREATE INDEX follows_followed ON follows(followed_id);",
    ),
    (
        9,
        // 9: game reviews (docs/storage.md): one analysis per ended game, its status and
        // lease (who computes it, until when), each decision's review as it is made and
        // the final result.
        "CREATE TABLE analyses (
        room_id TEXT PRIMARY KEY,
        version BIGINT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
        total BIGINT,
        result TEXT,
        error TEXT,
        lease_node TEXT,
        lease_until BIGINT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
    );
    CREATE INDEX analyses_status ON analyses(status);
    CREATE TABLE analysis_decisions (
        room_id TEXT NOT NULL,
        version BIGINT NOT NULL,
        idx BIGINT NOT NULL,
        review TEXT NOT NULL,
        PRIMARY KEY (room_id, version, idx)
    );",
    ),
    (
        10,
        // 10: game snapshots (docs/storage.md): the engine's published snapshot of a
        // game every so many replies, with the reply count it covers, its format and
        // rules versions and the state digest there, so a room reopens without
        // replaying its log.
        "CREATE TABLE snapshots (
        room_id TEXT NOT NULL,
        upto BIGINT NOT NULL,
        format BIGINT NOT NULL,
        rules_version BIGINT NOT NULL,
        digest TEXT NOT NULL,
        body TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (room_id, upto)
    );",
    ),
    (
        11,
        // 11: each reply keeps the id of the command that carried it (docs/storage.md),
        // so a reply writes one row: the game's digest and a seat's last command id are
        // read from its newest replies, and `games.last_hash` and `seats.last_command`
        // are kept up to date per reply only while nodes of an earlier release, which
        // read them, share the database (`crate::LegacyColumns`). And `replies` loses
        // its foreign key to `games`: its check locked the game's row for every reply
        // (a tuple lock is a heap write and a WAL record), while the statements that
        // append replies check the game themselves and games are never deleted.
        "ALTER TABLE replies ADD COLUMN command BIGINT;
         ALTER TABLE replies DROP CONSTRAINT IF EXISTS replies_room_id_fkey;",
    ),
];

/// The schema version this build writes.
pub const VERSION: i64 = CREATED_AT + STEPS.len() as i64;

// Both backends speak the same schema versions.
const _: () = assert!(VERSION == crate::sqlite::schema::VERSION);

/// The stored version, or `None` for a database without `schema_version`.
pub fn stored_version(client: &mut impl GenericClient) -> Result<Option<i64>> {
    let exists: bool = client
        .query_one("SELECT to_regclass('schema_version') IS NOT NULL", &[])?
        .get(0);
    if !exists {
        return Ok(None);
    }
    let row = client.query_opt("SELECT version FROM schema_version", &[])?;
    Ok(row.map(|r| r.get(0)))
}

/// Creates the schema in an empty database, or brings an older one up to [`VERSION`];
/// refuses a newer one. One transaction, under the advisory lock.
pub fn migrate(client: &mut Client) -> Result<()> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    let from = match stored_version(&mut tx)? {
        Some(found) if found > VERSION => {
            return Err(StoreError::SchemaTooNew {
                found,
                supported: VERSION,
            });
        }
        Some(found) => found,
        None => {
            let foreign: bool = tx
                .query_one("SELECT to_regclass('rooms') IS NOT NULL", &[])?
                .get(0);
            if foreign {
                return Err(StoreError::Migration {
                    version: CREATED_AT,
                    reason: "the database has a table `rooms` but no `schema_version`: it was \
                             not created by this server; give it an empty database"
                        .into(),
                });
            }
            tx.batch_execute(CREATE)
                .map_err(|e| StoreError::Migration {
                    version: CREATED_AT,
                    reason: super::describe_error(&e),
                })?;
            tx.execute(
                "INSERT INTO schema_version (version) VALUES ($1)",
                &[&CREATED_AT],
            )?;
            CREATED_AT
        }
    };
    for (version, sql) in STEPS.iter().filter(|(v, _)| *v > from) {
        tx.batch_execute(sql).map_err(|e| StoreError::Migration {
            version: *version,
            reason: super::describe_error(&e),
        })?;
        tx.execute("UPDATE schema_version SET version = $1", &[version])?;
    }
    tx.commit()?;
    Ok(())
}
