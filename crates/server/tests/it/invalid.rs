//! Refused replies and frames: each gets an error naming what was wrong, and nothing
//! changes (no viewer is sent anything else, and a fresh snapshot is identical).

use crate::common::{Client, config, simple_reply, start};
use serde_json::{Value, json};

async fn snapshot(addr: std::net::SocketAddr, room: &str) -> Value {
    let mut s = Client::connect(addr, "snapshot").await;
    let answer = s.ask(json!({"type": "spectate", "room": room})).await;
    assert_eq!(answer["type"], "spectating", "{answer}");
    s.until(|v| v["type"] == "snapshot").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_replies_get_typed_errors_and_change_nothing() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    ann.take_seat(&room).await;
    let mut bob = Client::connect(addr, "Bob").await;
    bob.take_seat(&room).await;
    let mut watcher = Client::connect(addr, "Watcher").await;
    watcher.ask(json!({"type": "spectate", "room": room})).await;
    ann.start().await;

    let first = ann.until(|v| v["type"] == "events").await;
    bob.until(|v| v["type"] == "events").await;
    let waiting = first["view"]["waiting_for"].as_u64().unwrap();
    let (p, q) = if waiting == 0 {
        (&mut ann, &mut bob)
    } else {
        (&mut bob, &mut ann)
    };
    let decision = p.until(|v| v["type"] == "decision").await;
    let d = decision["decision"].as_u64().unwrap();
    watcher.until(|v| v["type"] == "events").await;
    let before = snapshot(addr, &room).await;
    let marks = (p.frames.len(), q.frames.len(), watcher.frames.len());

    let code = |v: &Value| v["code"].as_str().unwrap_or_default().to_string();
    let reply = |decision: u64, reply: Value| json!({"type": "reply", "decision": decision, "reply": reply});

    // A decision that is not pending.
    let e = p.ask(reply(d + 7, json!({"type": "end_phase"}))).await;
    assert_eq!(code(&e), "stale_decision", "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains(&format!("decision {d} is")),
        "{e}"
    );
    // An unknown field, even in a reply that has no other field, is refused by name.
    let e = p
        .ask(reply(d, json!({"type": "end_phase", "card": "gold"})))
        .await;
    assert_eq!(code(&e), "bad_message", "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("unknown field `card`"),
        "{e}"
    );
    // A card that is not among the options.
    let e = p
        .ask(reply(d, json!({"type": "play", "card": "gold"})))
        .await;
    assert_eq!(code(&e), "not_an_option", "{e}");
    // A reply of the wrong kind.
    let e = p
        .ask(reply(d, json!({"type": "yes_no", "yes": true})))
        .await;
    assert_eq!(code(&e), "wrong_kind", "{e}");
    // A card id that names no card.
    let e = p
        .ask(reply(d, json!({"type": "buy", "card": "dragon"})))
        .await;
    assert_eq!(code(&e), "unknown_card", "{e}");
    assert!(e["message"].as_str().unwrap().contains("dragon"));
    // Out of turn: the other seat answers this seat's decision.
    let e = q.ask(reply(d, simple_reply(&decision))).await;
    assert_eq!(code(&e), "not_your_decision", "{e}");
    // A spectator answers.
    let e = watcher.ask(reply(d, simple_reply(&decision))).await;
    assert_eq!(code(&e), "not_seated", "{e}");
    // Malformed JSON: no id to answer, still an error.
    p.send_text("{\"type\": \"reply\", ".to_string()).await;
    let e = p.until(|v| v["type"] == "error").await;
    assert_eq!(code(&e), "bad_message", "{e}");
    assert!(e.get("re").is_none());
    // An unknown type: the error names the id.
    p.send(json!({"type": "fly", "id": 1000})).await;
    let e = p.answer(1000).await;
    assert_eq!(code(&e), "bad_message", "{e}");
    assert!(e["message"].as_str().unwrap().contains("fly"), "{e}");
    // A misspelled field.
    p.send(json!({"type": "reply", "id": 1001, "decison": d, "reply": {"type": "end_phase"}}))
        .await;
    let e = p.answer(1001).await;
    assert_eq!(code(&e), "bad_message", "{e}");
    // A command id already used on this connection.
    let used = p.last_id();
    p.send(json!({"type": "reply", "id": used, "decision": d, "reply": simple_reply(&decision)}))
        .await;
    let e = p.answer(used).await;
    assert_eq!(code(&e), "duplicate_command", "{e}");

    // Nothing reached anyone but the errors (and spectator counts changing as the
    // snapshot takers come and go); the game is exactly as before.
    for (client, mark) in [(&*p, marks.0), (&*q, marks.1), (&watcher, marks.2)] {
        for f in &client.frames[mark..] {
            let v: Value = serde_json::from_str(f).unwrap();
            assert!(
                v["type"] == "error" || v["type"] == "room",
                "{} got {f} after a refused reply",
                client.name
            );
        }
    }
    assert_eq!(snapshot(addr, &room).await, before);

    // The same decision still takes a good answer.
    let id = p.reply(d, simple_reply(&decision)).await;
    let next = p.until(|v| v["type"] == "events" || v["re"] == id).await;
    assert_eq!(next["type"], "events", "{next}");
    assert_eq!(next["first"], before["next_event"]);
    assert_eq!(p.answer(id).await["type"], "ack");
}
