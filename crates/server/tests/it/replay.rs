//! The replay API, `GET /api/games/{id}/steps/{n}?viewer=…`: every step of a finished
//! game replays; a seat's step shows exactly what that seat was sent then (never another
//! hand); `all` shows every hand and every event; the last step is the game's end; and
//! the errors (409 while played, 404 unknown, 400 for a step or viewer out of range).

use crate::common::{Client, config, start};
use crate::process::http_get;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;

async fn get_json(addr: SocketAddr, path: &str) -> Value {
    let (status, body) = http_get(addr, path).await;
    assert_eq!(status, 200, "GET {path}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: not JSON ({e}): {body}"))
}

/// The cards an event shows that only its seat (or a pass's two seats) may see.
fn private_cards_of(e: &Value, seat: u64) -> bool {
    let private = match e["type"].as_str() {
        Some("drew" | "looked_at") => true,
        Some("discarded" | "top_decked") => e["private"] == true,
        _ => false,
    };
    private && e["seat"] == seat && e.get("cards").is_some_and(|c| !c.is_null())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_step_of_a_finished_game_replays_for_each_viewer() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "militia"}]))
        .await;
    ann.take_seat(&room).await;
    ann.start().await;
    ann.play_decisions(3).await;

    // While the game is played: 409, whatever the step or viewer.
    for path in [
        format!("/api/games/{room}/steps/0"),
        format!("/api/games/{room}/steps/1?viewer=all"),
        format!("/api/games/{room}/steps/100000?viewer=1"),
    ] {
        let (status, body) = http_get(addr, &path).await;
        assert_eq!(status, 409, "GET {path}: {body}");
        assert!(!body.contains("hand"), "{body}");
    }

    let over = tokio::time::timeout(Duration::from_secs(120), ann.play_to_end(Duration::ZERO))
        .await
        .expect("the game ends");
    let record = get_json(addr, &format!("/api/games/{room}")).await;
    let replies = record["replies"].as_array().expect("replies");
    let steps = replies.len() as u64;
    assert!(steps > 20, "a whole game: {steps} replies");

    // What Ann was sent: every events frame (its events and the view after them).
    let sent: Vec<Value> = ann
        .frames
        .iter()
        .map(|f| serde_json::from_str::<Value>(f).unwrap())
        .filter(|v| v["type"] == "events")
        .collect();
    let mut ann_log: Vec<Value> = Vec::new();
    for f in &sent {
        let first = f["first"].as_u64().unwrap() as usize;
        for (i, e) in f["events"].as_array().unwrap().iter().enumerate() {
            if first + i == ann_log.len() {
                ann_log.push(e.clone());
            }
        }
    }

    let mut seat0_log: Vec<Value> = Vec::new();
    let mut seat0_views: Vec<(u64, Value)> = Vec::new();
    let mut all_log: Vec<Value> = Vec::new();
    for n in 0..=steps {
        let mine = get_json(addr, &format!("/api/games/{room}/steps/{n}?viewer=0")).await;
        let theirs = get_json(addr, &format!("/api/games/{room}/steps/{n}?viewer=1")).await;
        let all = get_json(addr, &format!("/api/games/{room}/steps/{n}?viewer=all")).await;
        for s in [&mine, &theirs, &all] {
            assert_eq!(s["room"], room.as_str());
            assert_eq!(s["step"], n, "{s}");
            assert_eq!(s["steps"], steps, "{s}");
            if n == 0 {
                assert!(s.get("reply").is_none(), "step 0 has no reply: {s}");
                assert_eq!(s["step_first"], 0);
            } else {
                assert_eq!(s["reply"], replies[n as usize - 1], "step {n}'s reply");
            }
            assert_eq!(
                s["first"], s["step_first"],
                "by default the step's own events"
            );
            let events = s["events"].as_array().unwrap();
            assert_eq!(
                s["first"].as_u64().unwrap() + events.len() as u64,
                s["next_event"].as_u64().unwrap(),
                "{s}"
            );
        }
        assert_eq!(mine["next_event"], all["next_event"]);
        assert_eq!(mine["step_first"], all["step_first"]);

        // A seat sees its own hand only, and no other seat's private cards.
        assert_eq!(mine["view"]["seat"], 0);
        assert!(mine["view"]["hand"].is_array(), "{mine}");
        assert!(
            mine.get("hands").is_none(),
            "a seat is not shown every hand"
        );
        for e in mine["events"].as_array().unwrap() {
            assert!(!private_cards_of(e, 1), "step {n} shows seat 0 {e}");
            if e["type"] == "passed" && e["seat"] != 0 && e["to"] != 0 {
                assert!(e.get("card").is_none_or(Value::is_null), "{e}");
            }
        }
        for e in theirs["events"].as_array().unwrap() {
            assert!(!private_cards_of(e, 0), "step {n} shows seat 1 {e}");
        }
        // `all`: a spectator's view and every hand, which are the seats' own.
        assert!(all["view"].get("seat").is_none_or(Value::is_null), "{all}");
        assert!(all["view"].get("hand").is_none_or(Value::is_null), "{all}");
        let hands = all["hands"].as_array().expect("every hand");
        assert_eq!(hands.len(), 2);
        assert_eq!(hands[0], json!({"seat": 0, "cards": mine["view"]["hand"]}));
        assert_eq!(
            hands[1],
            json!({"seat": 1, "cards": theirs["view"]["hand"]})
        );
        for (who, s) in [(0, &mine), (1, &theirs)] {
            let counts: Vec<u64> = s["view"]["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x["hand_count"].as_u64().unwrap())
                .collect();
            assert_eq!(
                counts[who],
                s["view"]["hand"].as_array().unwrap().len() as u64,
                "step {n}: seat {who}'s hand and hand_count"
            );
        }
        seat0_log.extend(mine["events"].as_array().unwrap().iter().cloned());
        all_log.extend(all["events"].as_array().unwrap().iter().cloned());
        seat0_views.push((mine["next_event"].as_u64().unwrap(), mine["view"].clone()));

        if n == steps {
            assert_eq!(mine["view"]["game_over"], true, "the last step is the end");
            assert_eq!(all["view"]["game_over"], true);
            let ended = all["events"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["type"] == "game_ended")
                .expect("the last step ends the game");
            let vp = |scores: &Value| -> Vec<Value> {
                scores
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s["vp"].clone())
                    .collect()
            };
            assert_eq!(vp(&ended["scores"]), vp(&over["scores"]));
            let vps: Vec<Value> = mine["view"]["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["vp"].clone())
                .collect();
            assert_eq!(vps, vp(&over["scores"]));
        } else {
            assert_eq!(
                mine["view"]["game_over"], false,
                "step {n} is before the end"
            );
        }
    }

    // Step by step, seat 0's events are exactly the events Ann was sent, and every view
    // Ann was sent is the view of the step that ended with the same events.
    assert_eq!(seat0_log, ann_log, "seat 0's replay log is what Ann got");
    for f in &sent {
        let upto = f["first"].as_u64().unwrap() + f["events"].as_array().unwrap().len() as u64;
        assert!(
            seat0_views
                .iter()
                .any(|(next, view)| *next == upto && *view == f["view"]),
            "no step shows the view Ann was sent after event {upto}: {}",
            f["view"]
        );
    }
    // `all` shows the cards behind every private event; seat 0's log hides seat 1's.
    assert_eq!(all_log.len(), seat0_log.len());
    assert!(
        all_log.iter().any(|e| private_cards_of(e, 1)),
        "the all-seeing log shows seat 1's draws"
    );
    assert!(!seat0_log.iter().any(|e| private_cards_of(e, 1)));

    // `since` gives the whole log up to a step in one answer.
    let whole = get_json(
        addr,
        &format!("/api/games/{room}/steps/{steps}?viewer=0&since=0"),
    )
    .await;
    assert_eq!(whole["first"], 0);
    assert_eq!(whole["events"], Value::Array(seat0_log.clone()));
    let past = get_json(
        addr,
        &format!("/api/games/{room}/steps/1?viewer=all&since=100000"),
    )
    .await;
    assert_eq!(past["events"], json!([]), "since past the step: no events");
    assert_eq!(past["first"], past["next_event"]);
    // The default viewer is `all`.
    let default = get_json(addr, &format!("/api/games/{room}/steps/{steps}")).await;
    assert!(default["hands"].is_array(), "{default}");

    // Errors: a step past the end, a viewer the game does not have, nonsense, unknown.
    for (path, status) in [
        (format!("/api/games/{room}/steps/{}", steps + 1), 400),
        (format!("/api/games/{room}/steps/-1"), 400),
        (format!("/api/games/{room}/steps/one"), 400),
        (format!("/api/games/{room}/steps/0?viewer=2"), 400),
        (format!("/api/games/{room}/steps/0?viewer=spectator"), 400),
        (format!("/api/games/{room}/steps/0?viewer=-1"), 400),
        ("/api/games/nosuchgame/steps/0".to_string(), 404),
    ] {
        let (got, body) = http_get(addr, &path).await;
        assert_eq!(got, status, "GET {path}: {body}");
        let v: Value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("GET {path}: the error is not JSON ({e}): {body}"));
        assert!(v["error"].is_string(), "GET {path}: {body}");
    }
}
