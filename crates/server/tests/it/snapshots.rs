//! Reopening from snapshots against the real server binary, on SQLite and PostgreSQL:
//! with `--snapshot-every 4` a game's snapshots are stored as it is played; after
//! `kill -9` the restarted server restores the room from the latest one (it says so)
//! and the game plays on to its end; a snapshot it cannot use (an older format, a state
//! that does not match its digest) costs a full replay of the same game, not the room.

use crate::common::{Client, simple_reply};
use crate::process::{Backend, ServerProcess, TestStore, db_path, on_both_backends, on_pg};
use serde_json::json;
use std::time::{Duration, Instant};

on_both_backends!(
    a_room_reopens_from_its_latest_snapshot_and_plays_on,
    a_snapshot_that_cannot_be_used_costs_a_full_replay_not_the_room,
);

const EVERY: &[&str] = &["--snapshot-every", "4"];

fn room_with_a_bot() -> serde_json::Value {
    json!({
        "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
        "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
        "abandoned": {"type": "wait"},
    })
}

/// Plays `replies` of the seat's replies (or to the end), each acknowledged.
async fn play(c: &mut Client, replies: usize) -> bool {
    for _ in 0..replies {
        let v = c
            .until(|v| v["type"] == "decision" || v["type"] == "game_over")
            .await;
        if v["type"] == "game_over" {
            return true;
        }
        let id = c
            .reply(v["decision"].as_u64().unwrap(), simple_reply(&v))
            .await;
        let ack = c.answer(id).await;
        assert_eq!(ack["type"], "ack", "{ack}");
    }
    false
}

/// The stored snapshots of `room`: (upto, format).
fn snapshots(store: &TestStore, room: &str) -> Vec<(i64, i64)> {
    const SQL: &str = "SELECT upto, format FROM snapshots WHERE room_id = ";
    match store.url() {
        None => {
            let c = rusqlite::Connection::open(db_path(store.dir())).unwrap();
            let mut stmt = c.prepare(&format!("{SQL}?1 ORDER BY upto")).unwrap();
            stmt.query_map([room], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        }
        Some(url) => {
            let room = room.to_string();
            on_pg(url, move |c| {
                Ok(c.query(&format!("{SQL}$1 ORDER BY upto"), &[&room])?
                    .iter()
                    .map(|r| (r.get(0), r.get(1)))
                    .collect())
            })
        }
    }
}

/// Runs `sql` (with `?1`/`$1` written as `{room}`) on the store, the server stopped.
fn execute(store: &TestStore, sql: &str, room: &str) {
    match store.url() {
        None => {
            rusqlite::Connection::open(db_path(store.dir()))
                .unwrap()
                .execute(&sql.replace("{room}", "?1"), [room])
                .unwrap();
        }
        Some(url) => {
            let (sql, room) = (sql.replace("{room}", "$1"), room.to_string());
            on_pg(url, move |c| c.execute(&sql, &[&room]).map(|_| ()));
        }
    }
}

/// Waits until the server printed a line with `needle`.
async fn said(server: &ServerProcess, needle: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !server.output_tail(400).contains(needle) {
        assert!(
            Instant::now() < deadline,
            "the server never said {needle:?}:\n{}",
            server.output_tail(60)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Ann starts a game against a bot on a server with snapshots on, plays `replies` of
/// her replies (the game not over) and the server is killed: the room and her token.
async fn killed_after(store: &TestStore, replies: usize) -> (String, String) {
    let mut server = store.start(EVERY).await;
    let mut ann = Client::connect(server.addr, "Ann").await;
    let room = ann.create_room_with(room_with_a_bot()).await;
    ann.take_seat(&room).await;
    ann.start().await;
    assert!(!play(&mut ann, replies).await);
    server.kill();
    (room, ann.token.clone().unwrap())
}

/// Ann back in her seat after a restart.
async fn resume(server: &ServerProcess, room: &str, token: &str) -> Client {
    let mut again = Client::connect(server.addr, "Ann").await;
    let seated = again
        .ask(json!({"type": "resume", "room": room, "token": token}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    again.number_from(seated["last_command"].as_u64().unwrap());
    again
}

/// Ann back after a restart, and the room playing on to its end.
async fn resume_and_finish(server: &ServerProcess, room: &str, token: &str) {
    let mut again = resume(server, room, token).await;
    assert!(play(&mut again, 10_000).await, "the game did not end");
}

async fn a_room_reopens_from_its_latest_snapshot_and_plays_on(backend: Backend) {
    let store = TestStore::new(backend);
    let (room, token) = killed_after(&store, 24).await;
    let stored = snapshots(&store, &room);
    assert!(stored.len() >= 3, "{stored:?}");
    let latest = stored.last().unwrap().0;
    let replies = store.stored_game(&room).unwrap().replies.len() as i64;
    assert!(
        latest <= replies && latest > replies - 20,
        "{latest} of {replies}"
    );

    let server = store.start(EVERY).await;
    said(&server, "game restored from a snapshot").await;
    assert!(
        server.output_tail(400).contains(&format!("upto={latest}")),
        "{}",
        server.output_tail(40)
    );
    assert_eq!(store.room_status(&room).0, "playing");
    resume_and_finish(&server, &room, &token).await;
    // The end deletes the game's snapshots.
    assert!(snapshots(&store, &room).is_empty());
}

async fn a_snapshot_that_cannot_be_used_costs_a_full_replay_not_the_room(backend: Backend) {
    let store = TestStore::new(backend);
    let (room, token) = killed_after(&store, 16).await;
    assert!(!snapshots(&store, &room).is_empty());

    // Every snapshot of an older format: not used.
    execute(
        &store,
        "UPDATE snapshots SET format = 0 WHERE room_id = {room}",
        &room,
    );
    let mut server = store.start(EVERY).await;
    said(
        &server,
        "a snapshot of another format or rules version is not used",
    )
    .await;
    assert_eq!(store.room_status(&room).0, "playing");
    assert!(
        !server
            .output_tail(400)
            .contains("game restored from a snapshot")
    );
    // The game goes on (and stores new snapshots, of the current format).
    let mut again = resume(&server, &room, &token).await;
    assert!(!play(&mut again, 8).await);
    server.kill();
    assert!(
        snapshots(&store, &room).iter().any(|(_, f)| *f == 1),
        "{:?}",
        snapshots(&store, &room)
    );

    // Every snapshot's state changed behind its digest: refused, replayed whole.
    execute(
        &store,
        "DELETE FROM snapshots WHERE room_id = {room} AND format = 0",
        &room,
    );
    execute(
        &store,
        "UPDATE snapshots SET body = REPLACE(body, '\"turn_count\":', '\"turn_count\":1') \
         WHERE room_id = {room}",
        &room,
    );
    let server = store.start(EVERY).await;
    said(&server, "replaying its whole log").await;
    assert_eq!(store.room_status(&room).0, "playing");
    resume_and_finish(&server, &room, &token).await;
}
