//! Seat tokens bring a player back: after a dropped socket the seat resumes with the
//! missed events (or a snapshot) and the pending decision; a command re-sent across the
//! reconnect is applied at most once; abandoned seats follow the room's policy.

use crate::common::{Client, Closed, config, simple_reply, start};
use serde_json::{Value, json};
use std::time::Duration;

fn settings(seats: Value, abandoned: Value) -> Value {
    json!({
        "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
        "seats": seats,
        "abandoned": abandoned,
    })
}

fn seat_connected(room_msg: &Value, seat: usize) -> Option<bool> {
    room_msg["room"]["seats"][seat]["occupant"]["connected"].as_bool()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_client_resumes_its_seat_and_a_resent_reply_applies_once() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room_with(settings(
            json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]),
            json!({"type": "wait"}),
        ))
        .await;
    ann.take_seat(&room).await;
    let mut watcher = Client::connect(addr, "Watcher").await;
    watcher.ask(json!({"type": "spectate", "room": room})).await;
    ann.start().await;
    ann.play_decisions(4).await;

    // Answer one more decision and drop the socket before reading anything.
    let decision = ann.until(|v| v["type"] == "decision").await;
    let d = decision["decision"].as_u64().unwrap();
    let answer = simple_reply(&decision);
    let k = ann.reply(d, answer.clone()).await;
    let token = ann.token.clone().unwrap();
    let last_event = ann.last_event;
    let _cut = ann.cut().await;

    // Everyone else sees the seat go.
    watcher
        .until(|v| v["type"] == "room" && seat_connected(v, 0) == Some(false))
        .await;

    // Back with the token: the seat, what was missed, and the decision again.
    let mut ann = Client::connect(addr, "Ann again").await;
    let seated = ann
        .ask(json!({"type": "resume", "room": room, "token": token, "last_event": last_event}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    assert_eq!(seated["seat"], 0);
    assert_eq!(
        seated["last_command"], k,
        "the reply before the drop was received"
    );
    let caught_up = ann
        .until(|v| v["type"] == "events" || v["type"] == "snapshot")
        .await;
    assert_eq!(
        caught_up["type"], "events",
        "a small gap is replayed as events"
    );
    assert_eq!(caught_up["first"].as_u64(), Some(last_event.unwrap() + 1));
    let pending = ann.until(|v| v["type"] == "decision").await;
    // Decision numbers are unique in a game (not always increasing: see the end).
    assert_ne!(
        pending["decision"].as_u64().unwrap(),
        d,
        "the reply before the drop was applied"
    );
    watcher
        .until(|v| v["type"] == "room" && seat_connected(v, 0) == Some(true))
        .await;

    // The same command again: refused as a duplicate, not applied.
    ann.send(json!({"type": "reply", "id": k, "decision": d, "reply": answer}))
        .await;
    let e = ann.answer(k).await;
    assert_eq!(e["code"], "duplicate_command", "{e}");
    // The same answer under a new id: the decision is no longer pending.
    ann.number_from(k);
    let e = ann
        .ask(json!({"type": "reply", "decision": d, "reply": answer}))
        .await;
    assert_eq!(e["code"], "stale_decision", "{e}");

    // And the game plays on to its end from the resumed seat.
    let p = pending["decision"].as_u64().unwrap();
    ann.reply(p, simple_reply(&pending)).await;
    let over = ann.play_to_end(Duration::ZERO).await;
    // Each reply in the record names the decision it answered: where `d`'s is in the
    // log is found by its number, not taken to be `d`.
    let replies = over["replies"].as_array().unwrap();
    assert_eq!(replies.iter().filter(|r| r["decision"] == d).count(), 1);
    let at = replies.iter().position(|r| r["decision"] == d).unwrap();
    assert_eq!(replies[at]["seat"], 0);
    assert_eq!(
        replies[at]["reply"], answer,
        "the reply applied is the one sent"
    );
    let next = replies
        .iter()
        .position(|r| r["decision"] == p)
        .expect("the decision pending after the resume was answered");
    assert!(
        next > at,
        "the reply before the drop was applied before the decision pending after it"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resume_without_last_event_gets_a_snapshot_and_replaces_the_old_connection() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "smithy"}]))
        .await;
    ann.take_seat(&room).await;
    ann.start().await;
    ann.play_decisions(2).await;
    let token = ann.token.clone().unwrap();

    let mut tab = Client::connect(addr, "Ann, second tab").await;
    let seated = tab
        .ask(json!({"type": "resume", "room": room, "token": token}))
        .await;
    assert_eq!(seated["type"], "seated");
    let snap = tab.until(|v| v["type"] == "snapshot").await;
    assert_eq!(snap["view"]["seat"], 0);
    assert!(snap["view"]["hand"].is_array());
    assert_eq!(
        ann.closed().await,
        Closed::Code(4004),
        "the old connection is replaced"
    );

    // A wrong token is refused.
    let mut mallory = Client::connect(addr, "Mallory").await;
    let e = mallory
        .ask(json!({"type": "resume", "room": room, "token": "0".repeat(64)}))
        .await;
    assert_eq!(e["code"], "bad_token");
    tab.number_from(seated["last_command"].as_u64().unwrap());
    let over = tab.play_to_end(Duration::ZERO).await;
    assert_eq!(over["type"], "game_over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_takes_over_an_abandoned_seat_and_the_game_ends() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room_with(settings(
            json!([{"type": "open"}, {"type": "open"}]),
            json!({"type": "bot_after", "seconds": 0, "bot": "big_money"}),
        ))
        .await;
    ann.take_seat(&room).await;
    let mut bob = Client::connect(addr, "Bob").await;
    bob.take_seat(&room).await;
    ann.start().await;
    drop(ann);
    let over = bob.play_to_end(Duration::ZERO).await;
    assert_eq!(over["scores"].as_array().unwrap().len(), 2);
    let taken = bob.frames.iter().any(|f| {
        let v: Value = serde_json::from_str(f).unwrap();
        v["type"] == "room"
            && v["room"]["seats"][0]["occupant"]["bot_playing"] == "big_money"
            && seat_connected(&v, 0) == Some(false)
    });
    assert!(taken, "Bob saw the bot take over Ann's seat");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_decision_time_runs_out_the_server_answers() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room_with(json!({
            "kingdom": {"type": "random"},
            "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
            "decision_seconds": 1,
        }))
        .await;
    ann.take_seat(&room).await;
    ann.start().await;
    let first = ann.until(|v| v["type"] == "decision").await;
    assert!(first["deadline_ms"].as_u64().unwrap() <= 1000);
    // Say nothing: the server answers for us and the game moves on.
    let next = ann.until(|v| v["type"] == "decision").await;
    assert!(next["decision"].as_u64() > first["decision"].as_u64());
}
