//! The queries of `ReadView`, in PostgreSQL. Reads are rare (recovery, the history API),
//! so they are not kept prepared.

use crate::{
    ClaimRow, Fence, FinishedGame, GameRow, RecordVersion, ReplyWriter, Result, RoomRow,
    RoomStatus, SeatRow,
};
use postgres::{Client, Row};
use std::collections::HashMap;

/// One room with its seats: [`rooms`] of one, so each query is written once.
pub fn room(c: &mut Client, id: &str) -> Result<Option<(RoomRow, Vec<SeatRow>)>> {
    Ok(rooms(c, &[id])?.pop())
}

/// The seats of several rooms in one query, with their linked accounts, by room (a room
/// without seats is absent).
///
/// A seat's last command id is its row's (written per reply before schema 11, by an undo,
/// and while `crate::LegacyColumns` is on) or its replies' largest, whichever is larger:
/// the rooms' replies are grouped once, not scanned again for every seat.
fn seats_of(c: &mut Client, ids: &[&str]) -> Result<HashMap<String, Vec<SeatRow>>> {
    let rows = c.query(
        "SELECT s.seat, s.name, s.token_hash, s.bot,
                GREATEST(s.last_command, COALESCE(rc.command, 0)), a.id, a.bot, s.room_id
         FROM seats s
         LEFT JOIN (SELECT room_id, player, MAX(command) AS command FROM replies
                    WHERE room_id = ANY($1) AND command IS NOT NULL
                    GROUP BY room_id, player) rc
           ON rc.room_id = s.room_id AND rc.player = s.seat
         LEFT JOIN seat_accounts sa
           ON sa.room_id = s.room_id AND sa.seat = s.seat AND sa.name = s.name
         LEFT JOIN accounts a ON a.id = sa.account_id
         WHERE s.room_id = ANY($1) ORDER BY s.room_id, s.seat",
        &[&ids],
    )?;
    let mut by_room: HashMap<String, Vec<SeatRow>> = HashMap::new();
    for r in &rows {
        by_room.entry(r.get(7)).or_default().push(seat_row(r));
    }
    Ok(by_room)
}

fn seat_row(r: &Row) -> SeatRow {
    SeatRow {
        seat: r.get::<_, i64>(0) as u8,
        name: r.get(1),
        token_hash: r.get(2),
        bot: r.get(3),
        last_command: r.get::<_, i64>(4).max(0) as u64,
        account: r.get::<_, Option<i64>>(5).map(|id| crate::LinkedAccount {
            id,
            bot: r.get::<_, Option<i64>>(6).unwrap_or(0) != 0,
        }),
    }
}

/// Rooms with their seats (as [`room`] reads one), in the order of `ids`; a room not
/// stored is left out. Two queries however many rooms: a node taking many rooms over
/// pays its round trips per query, not per room.
pub fn rooms(c: &mut Client, ids: &[&str]) -> Result<Vec<(RoomRow, Vec<SeatRow>)>> {
    let rows = c.query(
        "SELECT id, settings, status, broken_reason, created_at, host FROM rooms
         WHERE id = ANY($1)",
        &[&ids],
    )?;
    let mut found: HashMap<String, RoomRow> = rows
        .iter()
        .map(|r| {
            let room = room_row(r);
            (room.id.clone(), room)
        })
        .collect();
    let mut seats = seats_of(c, ids)?;
    Ok(ids
        .iter()
        .filter_map(|id| found.remove(*id))
        .map(|room| {
            let seats = seats.remove(&room.id).unwrap_or_default();
            (room, seats)
        })
        .collect())
}

pub fn rooms_to_reopen(
    c: &mut Client,
    finished_since: i64,
) -> Result<Vec<(RoomRow, Vec<SeatRow>)>> {
    let rows = c.query(
        "SELECT id, settings, status, broken_reason, created_at, host FROM rooms
         WHERE status IN ('open', 'playing')
            OR (status = 'finished' AND id IN
                (SELECT room_id FROM games WHERE finished_at >= $1))
         ORDER BY created_at, id",
        &[&finished_since],
    )?;
    let rooms: Vec<RoomRow> = rows.iter().map(room_row).collect();
    // Every room's seats in one query (a restart reads hundreds of rooms).
    let ids: Vec<&str> = rooms.iter().map(|r| r.id.as_str()).collect();
    let mut seats = seats_of(c, &ids)?;
    Ok(rooms
        .into_iter()
        .map(|room| {
            let seats = seats.remove(&room.id).unwrap_or_default();
            (room, seats)
        })
        .collect())
}

/// A game's columns; the caller adds which games (`WHERE`). Its state digest is its
/// newest reply's, or the game row's when it has none (its start, or an undo back to it).
const GAME: &str = "SELECT g.room_id, g.setup, g.seed,
                           COALESCE((SELECT r.state_hash FROM replies r WHERE r.room_id = g.room_id
                                     ORDER BY r.seq DESC LIMIT 1), g.last_hash),
                           g.started_at, g.finished_at,
                           g.scores, r.status = 'abandoned', g.record_format, g.rules_version
                    FROM games g JOIN rooms r ON r.id = g.room_id";

fn game_row(r: &Row, replies: Vec<(u8, String)>) -> GameRow {
    let seed: String = r.get(2);
    GameRow {
        room_id: r.get(0),
        setup: r.get(1),
        version: version(r, 8),
        seed: seed.parse().unwrap_or_default(),
        replies,
        last_hash: r.get(3),
        started_at: r.get(4),
        finished_at: r.get(5),
        scores: r.get(6),
        abandoned: r.get(7),
    }
}

/// Several rooms' games with their whole reply logs (as [`game`] reads one), by room;
/// a room without a game is absent. Two queries however many rooms.
pub fn games(c: &mut Client, ids: &[&str]) -> Result<HashMap<String, GameRow>> {
    let rows = c.query(&format!("{GAME} WHERE g.room_id = ANY($1)"), &[&ids])?;
    let mut replies: HashMap<String, Vec<(u8, String)>> = HashMap::new();
    for r in &c.query(
        "SELECT room_id, player, reply FROM replies WHERE room_id = ANY($1)
         ORDER BY room_id, seq",
        &[&ids],
    )? {
        replies
            .entry(r.get(0))
            .or_default()
            .push((r.get::<_, i64>(1) as u8, r.get(2)));
    }
    Ok(rows
        .iter()
        .map(|r| {
            let id: String = r.get(0);
            let log = replies.remove(&id).unwrap_or_default();
            (id, game_row(r, log))
        })
        .collect())
}

/// One room's game with its whole reply log: [`games`] of one.
pub fn game(c: &mut Client, room_id: &str) -> Result<Option<GameRow>> {
    Ok(games(c, &[room_id])?.remove(room_id))
}

pub fn finished_games(c: &mut Client, limit: u32) -> Result<Vec<FinishedGame>> {
    let rows = c.query(
        "SELECT g.room_id, g.finished_at, g.scores, g.setup, r.status = 'abandoned',
                g.record_format, g.rules_version
         FROM games g JOIN rooms r ON r.id = g.room_id
         WHERE g.finished_at IS NOT NULL
         ORDER BY g.finished_at DESC, g.room_id LIMIT $1",
        &[&i64::from(limit)],
    )?;
    // Every listed game's seats in one query, not one per game.
    let ids: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut seats = seats_of(c, &ids)?;
    rows.iter()
        .map(|r| {
            let room_id: String = r.get(0);
            Ok(FinishedGame {
                seats: seats.remove(&room_id).unwrap_or_default(),
                room_id,
                finished_at: r.get(1),
                scores: r.get(2),
                setup: r.get(3),
                version: version(r, 5),
                abandoned: r.get(4),
            })
        })
        .collect()
}

pub fn broken_rooms(c: &mut Client, limit: u32) -> Result<Vec<(String, String)>> {
    let rows = c.query(
        "SELECT id, COALESCE(broken_reason, '') FROM rooms WHERE status = 'broken'
         ORDER BY created_at DESC, id LIMIT $1",
        &[&i64::from(limit)],
    )?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}

pub fn fence(c: &mut Client, room_id: &str) -> Result<Option<Fence>> {
    let row = c.query_opt(
        "SELECT node, token FROM room_fences WHERE room_id = $1",
        &[&room_id],
    )?;
    Ok(row.map(|r| Fence {
        node: r.get(0),
        token: r.get(1),
    }))
}

pub fn claims(c: &mut Client, room_id: &str) -> Result<Vec<ClaimRow>> {
    let rows = c.query(
        "SELECT token, node, at FROM room_claims WHERE room_id = $1 ORDER BY token",
        &[&room_id],
    )?;
    Ok(rows
        .iter()
        .map(|r| ClaimRow {
            token: r.get(0),
            node: r.get(1),
            at: r.get(2),
        })
        .collect())
}

pub fn reply_writers(c: &mut Client, room_id: &str) -> Result<Vec<ReplyWriter>> {
    let rows = c.query(
        "SELECT seq, writer_node, writer_token FROM replies WHERE room_id = $1 ORDER BY seq",
        &[&room_id],
    )?;
    Ok(rows
        .iter()
        .map(|r| ReplyWriter {
            seq: r.get::<_, i64>(0).max(0) as u64,
            node: r.get(1),
            token: r.get(2),
        })
        .collect())
}

/// PostgreSQL has no built-in counterpart of SQLite's `integrity_check` (`amcheck` is an
/// extension, and checksums are checked page by page as they are read): "ok" once every
/// table answers a query.
pub fn integrity_check(c: &mut Client) -> Result<String> {
    c.batch_execute(
        "SELECT 1 FROM rooms LIMIT 1; SELECT 1 FROM seats LIMIT 1; SELECT 1 FROM games LIMIT 1;
         SELECT 1 FROM replies LIMIT 1; SELECT 1 FROM room_fences LIMIT 1;
         SELECT 1 FROM room_claims LIMIT 1;",
    )?;
    Ok("ok".into())
}

fn room_row(r: &Row) -> RoomRow {
    let status: String = r.get(2);
    RoomRow {
        id: r.get(0),
        settings: r.get(1),
        status: RoomStatus::parse(&status),
        broken_reason: r.get(3),
        created_at: r.get(4),
        host: r.get::<_, Option<i64>>(5).map(|h| h as u8),
    }
}

fn version(r: &Row, at: usize) -> RecordVersion {
    RecordVersion {
        format: r.get::<_, i64>(at) as u32,
        rules: r.get::<_, i64>(at + 1) as u32,
    }
}
