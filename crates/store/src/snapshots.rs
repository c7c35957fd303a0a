//! Game snapshots (schema 10, docs/storage.md "Snapshots"): the engine's published
//! snapshot of a game every so many replies, so that a reopening room restores from the
//! latest one plus the replies after it instead of replaying its whole log.
//!
//! The store keeps each as text it never parses, with the reply count it covers
//! (`upto`), its format and rules versions and the state digest it was taken at. A
//! snapshot is stored only while the game holds reply `upto - 1` (written in the same
//! batch as that reply, after it, by the server's writer thread); taking replies back
//! deletes the snapshots past the replies kept, and a game's end deletes them all (an
//! ended game that reopens, for its players to learn the result, is replayed). Rows are never read for anything but
//! reopening, and a row the server cannot use only costs it a full replay.

use crate::{Result, StoreError};

/// One stored snapshot of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotRow {
    /// How many replies the snapshot covers (it is of the game after them).
    pub upto: u64,
    /// The snapshot format (`dominion_engine::snapshot::SNAPSHOT_VERSION`).
    pub format: u32,
    /// The rules version of the game it was taken of.
    pub rules: u32,
    /// The state digest at the snapshot, as the server writes digests.
    pub digest: String,
    /// The snapshot, JSON.
    pub body: String,
}

pub(crate) fn refused(room: &str, upto: u64) -> StoreError {
    StoreError::Rewrite {
        room: room.to_string(),
        reason: format!("a snapshot of reply {upto}, which the game does not hold"),
    }
}

pub(crate) mod sqlite {
    use super::*;
    use rusqlite::{Connection, Transaction, params};

    pub fn save(tx: &Transaction, room: &str, s: &SnapshotRow, now: i64) -> Result<()> {
        let n = tx
            .prepare_cached(
                "INSERT OR REPLACE INTO snapshots
                    (room_id, upto, format, rules_version, digest, body, at)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
                 WHERE ?2 > 0 AND EXISTS (SELECT 1 FROM replies WHERE room_id = ?1 AND seq = ?2 - 1)
                   AND EXISTS (SELECT 1 FROM games WHERE room_id = ?1 AND finished_at IS NULL)",
            )?
            .execute(params![
                room,
                s.upto as i64,
                s.format,
                s.rules,
                s.digest,
                s.body,
                now
            ])?;
        if n == 0 {
            return Err(refused(room, s.upto));
        }
        Ok(())
    }

    pub fn truncate(tx: &Transaction, room: &str, keep: u64) -> Result<()> {
        tx.prepare_cached("DELETE FROM snapshots WHERE room_id = ?1 AND upto > ?2")?
            .execute(params![room, keep as i64])?;
        Ok(())
    }

    pub fn read(c: &Connection, room: &str) -> Result<Vec<SnapshotRow>> {
        let mut stmt = c.prepare_cached(
            "SELECT upto, format, rules_version, digest, body FROM snapshots
             WHERE room_id = ?1 ORDER BY upto",
        )?;
        let rows = stmt
            .query_map(params![room], |r| {
                Ok(SnapshotRow {
                    upto: r.get::<_, i64>(0)? as u64,
                    format: r.get(1)?,
                    rules: r.get(2)?,
                    digest: r.get(3)?,
                    body: r.get(4)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }
}

pub(crate) mod pg {
    use super::*;
    use postgres::Client;

    /// Stores a snapshot while the game holds reply `upto - 1` and is not over; changes
    /// no row otherwise (the write is then refused: `pg::writes` describes the write
    /// for both of the writer's paths).
    pub(crate) const SAVE: &str =
        "INSERT INTO snapshots (room_id, upto, format, rules_version, digest, body, at)
             SELECT $1, $2::BIGINT, $3::BIGINT, $4::BIGINT, $5, $6, $7::BIGINT
             WHERE $2::BIGINT > 0
               AND EXISTS (SELECT 1 FROM replies WHERE room_id = $1 AND seq = $2::BIGINT - 1)
               AND EXISTS (SELECT 1 FROM games WHERE room_id = $1 AND finished_at IS NULL)
             ON CONFLICT (room_id, upto) DO UPDATE
                SET format = EXCLUDED.format, rules_version = EXCLUDED.rules_version,
                    digest = EXCLUDED.digest, body = EXCLUDED.body, at = EXCLUDED.at";

    /// Deletes the snapshots past `$2` replies (0: all of the game's).
    pub(crate) const TRUNCATE: &str = "DELETE FROM snapshots WHERE room_id = $1 AND upto > $2";

    /// One room's snapshots, oldest first: [`read_many`] of one.
    pub fn read(c: &mut Client, room: &str) -> Result<Vec<SnapshotRow>> {
        Ok(read_many(c, &[room])?.remove(room).unwrap_or_default())
    }

    /// The snapshots of several rooms in one query, by room, each room's oldest first (a
    /// room without any is absent).
    pub fn read_many(
        c: &mut Client,
        rooms: &[&str],
    ) -> Result<std::collections::HashMap<String, Vec<SnapshotRow>>> {
        let mut by_room = std::collections::HashMap::<String, Vec<SnapshotRow>>::new();
        for r in &c.query(
            "SELECT upto, format, rules_version, digest, body, room_id FROM snapshots
             WHERE room_id = ANY($1) ORDER BY room_id, upto",
            &[&rooms],
        )? {
            by_room.entry(r.get(5)).or_default().push(row(r));
        }
        Ok(by_room)
    }

    fn row(r: &postgres::Row) -> SnapshotRow {
        SnapshotRow {
            upto: r.get::<_, i64>(0) as u64,
            format: r.get::<_, i64>(1) as u32,
            rules: r.get::<_, i64>(2) as u32,
            digest: r.get(3),
            body: r.get(4),
        }
    }
}
