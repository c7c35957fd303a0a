//! The three bot levels in the server: a `search` seat plays a whole game with a tiny
//! thinking budget, a seat taken over plays as `standard`, and every bot decision's
//! thinking time shows in /metrics by level.

use crate::common::{Client, config, simple_reply, start};
use crate::game::http_get;
use dominion_server::config::Config;
use serde_json::{Value, json};
use std::time::Duration;

/// A server whose searching bot thinks 5 ms per decision, so a game ends in seconds.
fn quick_thinker() -> Config {
    Config {
        bot_think_ms: 5,
        ..config()
    }
}

/// Plays `client`'s decisions with [`simple_reply`] until the game is over, calling
/// `on_room` with each `room` frame; returns the `game_over` frame.
async fn play_watching(client: &mut Client, mut on_room: impl FnMut(&Value)) -> Value {
    loop {
        let v = client.recv().await;
        match v["type"].as_str() {
            Some("decision") => {
                let d = v["decision"].as_u64().unwrap();
                client.reply(d, simple_reply(&v)).await;
            }
            Some("room") => on_room(&v),
            Some("game_over") => return v,
            Some("error") => panic!("unexpected error {v}"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_seat_plays_to_the_end_and_its_thinking_is_measured() {
    let addr = start(quick_thinker()).await;
    let levels: Value = serde_json::from_str(&http_get(addr, "/api/bot-levels").await).unwrap();
    assert_eq!(levels, json!(["easy", "standard", "search"]));
    let names: Value = serde_json::from_str(&http_get(addr, "/api/bots").await).unwrap();
    for level in ["easy", "standard", "search"] {
        assert!(names.as_array().unwrap().contains(&json!(level)), "{names}");
    }

    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "search"}]))
        .await;
    ann.take_seat(&room).await;
    ann.start().await;
    let over = tokio::time::timeout(Duration::from_secs(120), play_watching(&mut ann, |_| {}))
        .await
        .expect("the game ends within 120 s");
    let seats = over["replies"].as_array().unwrap();
    assert!(
        seats.iter().any(|r| r["seat"] == 1),
        "the search seat answered decisions: {over}"
    );
    let metrics = http_get(addr, "/metrics").await;
    let count = metric(&metrics, "dominion_bot_think_seconds_count{bot=\"search\"}");
    let bot_replies = seats.iter().filter(|r| r["seat"] == 1).count() as u64;
    assert_eq!(
        count, bot_replies,
        "one observation per bot reply:\n{metrics}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_taken_over_plays_as_standard() {
    let addr = start(quick_thinker()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room_with(json!({
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "open"}],
            "abandoned": {"type": "bot_after", "seconds": 0},
        }))
        .await;
    ann.take_seat(&room).await;
    let mut bob = Client::connect(addr, "Bob").await;
    bob.take_seat(&room).await;
    ann.start().await;
    let left = bob.ask(json!({"type": "leave"})).await;
    assert_eq!(left["type"], "ack", "{left}");
    let mut shown = Vec::new();
    let over = tokio::time::timeout(
        Duration::from_secs(120),
        play_watching(&mut ann, |v| {
            for s in v["room"]["seats"].as_array().unwrap() {
                if let Some(bot) = s["occupant"]["bot_playing"].as_str() {
                    shown.push((s["seat"].as_u64().unwrap(), bot.to_string()));
                }
            }
        }),
    )
    .await
    .expect("the game ends within 120 s");
    assert_eq!(over["type"], "game_over");
    assert!(!shown.is_empty(), "the room told Ann who plays Bob's seat");
    assert!(
        shown
            .iter()
            .all(|(seat, bot)| *seat == 1 && bot == "standard"),
        "{shown:?}"
    );
    let metrics = http_get(addr, "/metrics").await;
    assert!(
        metric(
            &metrics,
            "dominion_bot_think_seconds_count{bot=\"standard\"}"
        ) > 0,
        "{metrics}"
    );
}

/// The value of the sample line starting with `name` (0 if absent).
fn metric(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}
