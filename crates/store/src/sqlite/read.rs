//! The queries of `ReadView`, in SQLite.

use crate::{
    ClaimRow, Fence, FinishedGame, GameRow, RecordVersion, ReplyWriter, Result, RoomRow,
    RoomStatus, SeatRow,
};
use rusqlite::{Connection, OptionalExtension, params};

pub fn room(c: &Connection, id: &str) -> Result<Option<(RoomRow, Vec<SeatRow>)>> {
    let room = c
        .query_row(
            "SELECT id, settings, status, broken_reason, created_at, host FROM rooms WHERE id = ?1",
            params![id],
            room_row,
        )
        .optional()?;
    let Some(room) = room else { return Ok(None) };
    let seats = seats(c, id)?;
    Ok(Some((room, seats)))
}

/// A room's seats with their linked accounts. A seat's last command id is its row's
/// (written per reply before schema 11, by an undo, and while `crate::LegacyColumns` is
/// on) or its replies' largest, whichever is larger: the room's replies are grouped
/// once, not scanned again for every seat.
fn seats(c: &Connection, room_id: &str) -> Result<Vec<SeatRow>> {
    let mut stmt = c.prepare_cached(
        "SELECT s.seat, s.name, s.token_hash, s.bot,
                MAX(s.last_command, COALESCE(rc.command, 0)), a.id, a.bot
         FROM seats s
         LEFT JOIN (SELECT player, MAX(command) AS command FROM replies
                    WHERE room_id = ?1 AND command IS NOT NULL GROUP BY player) rc
           ON rc.player = s.seat
         LEFT JOIN seat_accounts sa
           ON sa.room_id = s.room_id AND sa.seat = s.seat AND sa.name = s.name
         LEFT JOIN accounts a ON a.id = sa.account_id
         WHERE s.room_id = ?1 ORDER BY s.seat",
    )?;
    let rows = stmt.query_map(params![room_id], |r| {
        Ok(SeatRow {
            seat: r.get(0)?,
            name: r.get(1)?,
            token_hash: r.get(2)?,
            bot: r.get(3)?,
            last_command: r.get::<_, i64>(4)?.max(0) as u64,
            account: r.get::<_, Option<i64>>(5)?.map(|id| crate::LinkedAccount {
                id,
                bot: r.get::<_, Option<i64>>(6).ok().flatten().unwrap_or(0) != 0,
            }),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn rooms_to_reopen(
    c: &Connection,
    finished_since: i64,
) -> Result<Vec<(RoomRow, Vec<SeatRow>)>> {
    let mut stmt = c.prepare(
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
            let seats = seats(c, &r.id)?;
            Ok((r, seats))
        })
        .collect()
}

pub fn game(c: &Connection, room_id: &str) -> Result<Option<GameRow>> {
    let row = c
        .query_row(
            // The state digest is the newest reply's, or the game row's when it has none
            // (its start, or an undo back to it).
            "SELECT g.room_id, g.setup, g.seed,
                    COALESCE((SELECT r.state_hash FROM replies r WHERE r.room_id = g.room_id
                              ORDER BY r.seq DESC LIMIT 1), g.last_hash),
                    g.started_at, g.finished_at,
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
    let mut stmt =
        c.prepare_cached("SELECT player, reply FROM replies WHERE room_id = ?1 ORDER BY seq")?;
    game.replies = stmt
        .query_map(params![room_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Some(game))
}

pub fn finished_games(c: &Connection, limit: u32) -> Result<Vec<FinishedGame>> {
    let mut stmt = c.prepare_cached(
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
        g.seats = seats(c, &g.room_id)?;
    }
    Ok(games)
}

pub fn broken_rooms(c: &Connection, limit: u32) -> Result<Vec<(String, String)>> {
    let mut stmt = c.prepare(
        "SELECT id, COALESCE(broken_reason, '') FROM rooms WHERE status = 'broken'
         ORDER BY created_at DESC, id LIMIT ?1",
    )?;
    let rows = stmt.query_map(params![limit], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn fence(c: &Connection, room_id: &str) -> Result<Option<Fence>> {
    Ok(c.query_row(
        "SELECT node, token FROM room_fences WHERE room_id = ?1",
        params![room_id],
        |r| {
            Ok(Fence {
                node: r.get(0)?,
                token: r.get(1)?,
            })
        },
    )
    .optional()?)
}

pub fn claims(c: &Connection, room_id: &str) -> Result<Vec<ClaimRow>> {
    let mut stmt =
        c.prepare("SELECT token, node, at FROM room_claims WHERE room_id = ?1 ORDER BY token")?;
    let rows = stmt.query_map(params![room_id], |r| {
        Ok(ClaimRow {
            token: r.get(0)?,
            node: r.get(1)?,
            at: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn reply_writers(c: &Connection, room_id: &str) -> Result<Vec<ReplyWriter>> {
    let mut stmt = c.prepare(
        "SELECT seq, writer_node, writer_token FROM replies WHERE room_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map(params![room_id], |r| {
        Ok(ReplyWriter {
            seq: r.get::<_, i64>(0)?.max(0) as u64,
            node: r.get(1)?,
            token: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn integrity_check(c: &Connection) -> Result<String> {
    Ok(c.query_row("PRAGMA integrity_check", [], |r| r.get(0))?)
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
