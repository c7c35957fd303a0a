//! Levels next to names in the lobby (issue 25), over real sockets on SQLite and
//! PostgreSQL: an account's seat carries its level in the pool the room would be rated
//! in, read when the seat is taken; a guest's carries none; after a rated game the room
//! shows each player's level after it, and a seat taken later reads it from the store; a
//! room reopened after a restart learns a seat's level again when its account resumes.

use crate::accounts::{CHEAP, register, server, signed_in};
use crate::common::Client;
use crate::process::{Backend, TestStore, on_both_backends};
use dominion_rating::Rating;
use serde_json::{Value, json};
use std::time::Duration;

on_both_backends!(
    a_seat_shows_its_accounts_level_and_the_level_after_a_rated_game,
    a_room_reopened_after_a_restart_learns_a_level_when_its_account_resumes,
);

fn levels(room: &Value) -> Vec<Value> {
    room["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| s["occupant"]["level"].clone())
        .collect()
}

async fn a_seat_shows_its_accounts_level_and_the_level_after_a_rated_game(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |_| {}).await;
    let ann_cookie = register(addr, "Ann", "a long password").await.cookie();
    let bob_cookie = register(addr, "Bob", "a long password").await.cookie();
    let mut ann = signed_in(addr, &ann_cookie, "Ann").await;
    let mut bob = signed_in(addr, &bob_cookie, "Bob").await;
    let new = Rating::DEFAULT.level().floor();
    assert_eq!(new, 19.0);

    // A table of three: the 3-4p level; a guest has none.
    let three = ann
        .create_room(json!([{"type": "open"}, {"type": "open"}, {"type": "open"}]))
        .await;
    ann.ask(json!({"type": "take_seat", "room": three})).await;
    let mut guest = Client::connect(addr, "Gus").await;
    guest
        .ask(json!({"type": "take_seat", "room": three, "name": "Gus"}))
        .await;
    let room = ann
        .until(|v| v["type"] == "room" && v["room"]["seats"][1]["occupant"]["name"] == "Gus")
        .await;
    assert_eq!(
        levels(&room["room"]),
        [json!(19), Value::Null, Value::Null],
        "{room}"
    );
    for c in [&mut ann, &mut guest] {
        c.ask(json!({"type": "leave"})).await;
    }

    // A rated game of two to its end.
    let room = ann
        .create_room_with(json!({
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "open"}],
            "rated": true,
        }))
        .await;
    ann.ask(json!({"type": "take_seat", "room": room})).await;
    bob.ask(json!({"type": "take_seat", "room": room})).await;
    let listed = ann.ask(json!({"type": "list_rooms"})).await;
    let summary = listed["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == room.as_str())
        .expect("listed")
        .clone();
    assert_eq!(levels(&summary), [json!(19), json!(19)], "{summary}");
    ann.start().await;
    let _ = tokio::join!(
        ann.play_to_end(Duration::ZERO),
        bob.play_to_end(Duration::ZERO)
    );
    let changes = ann.until(|v| v["type"] == "rating_changed").await;
    let after: Vec<Value> = (0..2)
        .map(|seat| {
            let c = &changes["changes"].as_array().unwrap()[seat];
            assert_eq!(c["seat"], seat);
            json!(c["level_after"].as_f64().unwrap().floor() as u64)
        })
        .collect();
    assert_ne!(after, [json!(19), json!(19)], "{changes}");
    let shown = ann
        .until(|v| v["type"] == "room" && levels(&v["room"]) == after)
        .await;
    assert_eq!(shown["room"]["status"], "finished");

    // A seat taken later reads the new level from the store.
    ann.ask(json!({"type": "leave"})).await;
    let next = ann
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    ann.ask(json!({"type": "take_seat", "room": next})).await;
    let room = ann
        .until(|v| v["type"] == "room" && v["room"]["id"] == next.as_str())
        .await;
    assert_eq!(levels(&room["room"])[0], after[0], "{room}");
}

async fn a_room_reopened_after_a_restart_learns_a_level_when_its_account_resumes(backend: Backend) {
    let store = TestStore::new(backend);
    let mut first = store.start(&CHEAP).await;
    let cookie = register(first.addr, "Ann", "a long password")
        .await
        .cookie();
    let mut ann = signed_in(first.addr, &cookie, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    let seated = ann.ask(json!({"type": "take_seat", "room": room})).await;
    assert_eq!(seated["type"], "seated", "{seated}");
    let listed = ann.ask(json!({"type": "list_rooms"})).await;
    assert_eq!(levels(&listed["rooms"][0]), [json!(19), Value::Null]);

    // Killed and started again: the reopened room knows the account, not its level.
    first.kill();
    drop(ann);
    let second = store.start(&CHEAP).await;
    let mut look = Client::connect(second.addr, "Gus").await;
    let listed = look.ask(json!({"type": "list_rooms"})).await;
    assert_eq!(listed["rooms"][0]["id"], room.as_str(), "{listed}");
    assert_eq!(
        listed["rooms"][0]["seats"][0]["occupant"]["account"],
        "player"
    );
    assert_eq!(levels(&listed["rooms"][0]), [Value::Null, Value::Null]);
    // Ann comes back: her connection brings the level.
    let mut ann = signed_in(second.addr, &cookie, "Ann").await;
    let resumed = ann
        .ask(json!({"type": "resume", "room": room, "token": seated["token"]}))
        .await;
    assert_eq!(resumed["type"], "seated", "{resumed}");
    let frame = ann
        .until(|v| v["type"] == "room" && v["room"]["seats"][0]["occupant"]["connected"] == true)
        .await;
    assert_eq!(levels(&frame["room"]), [json!(19), Value::Null], "{frame}");
}
