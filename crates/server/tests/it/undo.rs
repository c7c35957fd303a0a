//! Taking back a move over the protocol: at once against a bot (and still taken back
//! after a `kill -9` and a restart), with the other player's consent between humans, and
//! refused with `undo_refused` when there is nothing the player may take back.

use crate::common::{Client, config, simple_reply, start};
use crate::process::{Backend, TestStore, on_both_backends};
use serde_json::{Value, json};
use std::time::Duration;

fn first_game(seats: Value) -> Value {
    json!({"kingdom": {"type": "recommended", "id": "base_2e/first_game"}, "seats": seats})
}

fn is_decision(v: &Value) -> bool {
    v["type"] == "decision"
}

/// Plays Treasures at the start of a Buy phase and returns (that decision, the next
/// one). A first-game turn opens with an Action phase with nothing to play (no Action in
/// the opening hands; asked all the same, so whether it is asked tells nobody anything),
/// which this ends first.
async fn play_treasures(c: &mut Client) -> (Value, Value) {
    let mut first = c.until(is_decision).await;
    if first["purpose"] == "action_phase" {
        assert_eq!(first["prompt"]["playable"], json!([]), "{first}");
        c.reply(
            first["decision"].as_u64().unwrap(),
            json!({"type": "end_phase"}),
        )
        .await;
        first = c.until(is_decision).await;
    }
    assert_eq!(first["purpose"], "buy_phase", "{first}");
    let d = first["decision"].as_u64().unwrap();
    c.reply(d, json!({"type": "play_all_treasures"})).await;
    let next = c.until(is_decision).await;
    assert_ne!(next["decision"], first["decision"]);
    (first, next)
}

on_both_backends!(against_a_bot_a_move_is_taken_back_at_once_and_stays_taken_back_after_a_crash,);

async fn against_a_bot_a_move_is_taken_back_at_once_and_stays_taken_back_after_a_crash(
    backend: Backend,
) {
    let store = TestStore::new(backend);
    let mut server = store.start(&[]).await;
    let mut ann = Client::connect(server.addr, "Ann").await;
    let room = ann
        .create_room_with(first_game(
            json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]),
        ))
        .await;
    ann.take_seat(&room).await;
    ann.start().await;
    let (first, _) = play_treasures(&mut ann).await;
    let stored_before = store.stored_game(&room).unwrap().replies.len();

    let ack = ann.ask(json!({"type": "undo"})).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let result = ann.until(|v| v["type"] == "undo_result").await;
    assert_eq!(result["outcome"], "done", "{result}");
    assert_eq!(result["seat"], 0);
    let snapshot = ann.recv().await;
    assert_eq!(snapshot["type"], "snapshot", "{snapshot}");
    let again = ann.until(is_decision).await;
    assert_eq!(
        again["decision"], first["decision"],
        "the same decision is asked again"
    );
    assert_eq!(again["prompt"], first["prompt"]);
    let stored = store.stored_game(&room).unwrap();
    assert_eq!(
        stored.replies.len(),
        stored_before - 1,
        "the log lost the reply"
    );

    // kill -9 and a restart: the game reopens as it was after the undo.
    server.kill();
    let server = store.start(&[]).await;
    let mut back = Client::connect(server.addr, "Ann").await;
    let seated = back
        .ask(json!({"type": "resume", "room": room, "token": ann.token, "last_event": ann.last_event}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    back.number_from(seated["last_command"].as_u64().unwrap());
    let resumed = tokio::time::timeout(Duration::from_secs(5), back.until(is_decision))
        .await
        .unwrap_or_else(|_| {
            panic!(
                "no decision after resume: {:?}\n{}",
                back.frames,
                server.output_tail(30)
            )
        });
    assert_eq!(resumed["decision"], first["decision"]);
    assert_eq!(resumed["prompt"], first["prompt"]);
    back.backlog_push(resumed);
    let over = tokio::time::timeout(Duration::from_secs(60), back.play_to_end(Duration::ZERO))
        .await
        .expect("the game ends");
    assert_eq!(over["type"], "game_over");
    let history = server.get_json(&format!("/api/games/{room}")).await;
    crate::process::replay_history(&history).expect("the record replays");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn between_humans_an_undo_needs_the_others_consent() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room_with(first_game(json!([{"type": "open"}, {"type": "open"}])))
        .await;
    ann.take_seat(&room).await;
    let mut bea = Client::connect(addr, "Bea").await;
    bea.take_seat(&room).await;
    ann.start().await;
    // Whoever moves first asks; the other answers.
    let (mut mover, mut other) = {
        let a = tokio::time::timeout(Duration::from_millis(500), ann.until(is_decision)).await;
        match a {
            Ok(d) => {
                ann.backlog_push(d);
                (ann, bea)
            }
            Err(_) => (bea, ann),
        }
    };
    let seat = mover.seat.unwrap();
    let other_seat = other.seat.unwrap();
    let nothing = mover.ask(json!({"type": "undo"})).await;
    assert_eq!(
        nothing["code"], "undo_refused",
        "nothing to take back yet: {nothing}"
    );
    let (first, _) = play_treasures(&mut mover).await;

    // Refused.
    assert_eq!(mover.ask(json!({"type": "undo"})).await["type"], "ack");
    for c in [&mut mover, &mut other] {
        let asked = c.until(|v| v["type"] == "undo_requested").await;
        assert_eq!(asked["seat"], seat, "{asked}");
        assert_eq!(asked["seconds"], 30);
    }
    let own = mover
        .ask(json!({"type": "undo_answer", "accept": true}))
        .await;
    assert_eq!(
        own["code"], "undo_refused",
        "nobody answers their own request: {own}"
    );
    let twice = mover.ask(json!({"type": "undo"})).await;
    assert_eq!(
        twice["code"], "undo_refused",
        "one request at a time: {twice}"
    );
    assert_eq!(
        other
            .ask(json!({"type": "undo_answer", "accept": false}))
            .await["type"],
        "ack"
    );
    for c in [&mut mover, &mut other] {
        let result = c.until(|v| v["type"] == "undo_result").await;
        assert_eq!(result["outcome"], "refused", "{result}");
        assert_eq!(result["by"], other_seat);
    }
    let late = other
        .ask(json!({"type": "undo_answer", "accept": true}))
        .await;
    assert_eq!(
        late["code"], "undo_refused",
        "no request left to answer: {late}"
    );

    // Accepted.
    assert_eq!(mover.ask(json!({"type": "undo"})).await["type"], "ack");
    other.until(|v| v["type"] == "undo_requested").await;
    assert_eq!(
        other
            .ask(json!({"type": "undo_answer", "accept": true}))
            .await["type"],
        "ack"
    );
    for c in [&mut mover, &mut other] {
        let result = c.until(|v| v["type"] == "undo_result").await;
        assert_eq!(result["outcome"], "done", "{result}");
        let snapshot = c.recv().await;
        assert_eq!(snapshot["type"], "snapshot", "{snapshot}");
    }
    let again = mover.until(is_decision).await;
    assert_eq!(again["decision"], first["decision"]);

    // Cancelled: the asking player answers their decision while the request is open.
    let d = again["decision"].as_u64().unwrap();
    mover.reply(d, simple_reply(&again)).await;
    let next = mover.until(is_decision).await;
    assert_eq!(mover.ask(json!({"type": "undo"})).await["type"], "ack");
    other.until(|v| v["type"] == "undo_requested").await;
    mover
        .reply(next["decision"].as_u64().unwrap(), simple_reply(&next))
        .await;
    for c in [&mut mover, &mut other] {
        let result = c.until(|v| v["type"] == "undo_result").await;
        assert_eq!(result["outcome"], "cancelled", "{result}");
    }
}
